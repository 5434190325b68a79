-- audit verify compares each projection row's times with its records'
-- recorded_at: the writers now write a row with its record's own time
-- (src/store/verify_projections.rs, verify_hand_times.rs). Rows written
-- before were stamped with a clock reading microseconds apart; set them
-- from their records, so an upgraded database still verifies.
UPDATE card_tables SET created_at = a.recorded_at FROM audit_log a
WHERE a.event_type = 'table_created' AND a.table_id = card_tables.name;
UPDATE table_dealers SET assigned_at = a.recorded_at FROM audit_log a
WHERE a.seq = (SELECT MAX(b.seq) FROM audit_log b WHERE b.event_type = 'dealer_assigned'
  AND b.table_id = table_dealers.table_name AND json_extract(b.payload, '$.dealer') = table_dealers.username);
UPDATE dice_games SET created_at = f.recorded_at, updated_at = l.recorded_at
FROM (SELECT json_extract(a.payload, '$.game_id') AS game_id, MIN(a.seq) AS first_seq, MAX(a.seq) AS last_seq
      FROM audit_log a WHERE a.event_type IN ('ten_thousand_started', 'ten_thousand_action', 'ten_thousand_finished', 'poker_dice_started', 'poker_dice_action', 'poker_dice_finished') GROUP BY json_extract(a.payload, '$.game_id')) g,
     audit_log f, audit_log l
WHERE dice_games.id = g.game_id AND f.seq = g.first_seq AND l.seq = g.last_seq;
UPDATE tripoley_games SET created_at = f.recorded_at, updated_at = l.recorded_at
FROM (SELECT json_extract(a.payload, '$.game_id') AS game_id, MIN(a.seq) AS first_seq, MAX(a.seq) AS last_seq
      FROM audit_log a WHERE a.event_type LIKE 'tripoley%' GROUP BY json_extract(a.payload, '$.game_id')) g,
     audit_log f, audit_log l
WHERE tripoley_games.id = g.game_id AND f.seq = g.first_seq AND l.seq = g.last_seq;
UPDATE hands SET opened_at = f.recorded_at, updated_at = l.recorded_at
FROM audit_log f, audit_log l
WHERE f.seq = (SELECT MIN(a.seq) FROM audit_log a WHERE a.hand_id = hands.id)
  AND l.seq = hands.last_seq
  AND (hands.opened_at <> f.recorded_at OR hands.updated_at <> l.recorded_at);
