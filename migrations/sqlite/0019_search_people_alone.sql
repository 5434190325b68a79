-- A name's search read from its people rows alone (issue 17,
-- store/history/query.rs, BENCHMARKS.md "Hand search").
--
-- 1. `keys_before`: the name keys of the hand's rows that sort before this
--    one (by role, then name, byte order), joined by U+001F, which no
--    search text holds. A partial name that matches several people of a
--    hand counts the hand once, by the row that matches while no key
--    before it does: the totals and the page need no grouping (grouping
--    the ~300,000 rows of a name matching a quarter of a million hands cost
--    up to 0.7 s).
-- 2. The hand's criteria copied under the hand's own column names (table,
--    dealer, state, corrected, bank, largest wager), so a name with any of
--    them reads no `hands` row (6,500 random reads for a name over a day).
--    Written from the hand's row with the person's, like the money; audit
--    verify checks both against the events and the row.
ALTER TABLE hand_people ADD COLUMN keys_before TEXT NOT NULL DEFAULT '';
ALTER TABLE hand_people ADD COLUMN table_id TEXT NOT NULL DEFAULT '';
ALTER TABLE hand_people ADD COLUMN dealer TEXT NOT NULL DEFAULT '';
ALTER TABLE hand_people ADD COLUMN status TEXT NOT NULL DEFAULT '';
ALTER TABLE hand_people ADD COLUMN corrected INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hand_people ADD COLUMN bank_e4 INTEGER;
ALTER TABLE hand_people ADD COLUMN max_wager_e4 INTEGER;
UPDATE hand_people SET table_id = h.table_id, dealer = h.dealer, status = h.status,
    corrected = h.corrected, bank_e4 = h.bank_e4, max_wager_e4 = h.max_wager_e4
FROM hands h WHERE h.id = hand_people.hand_id;
UPDATE hand_people SET keys_before = COALESCE((
    SELECT group_concat(q.name_key, char(31) ORDER BY q.role, q.name) FROM hand_people q
    WHERE q.hand_id = hand_people.hand_id
        AND (q.role < hand_people.role OR (q.role = hand_people.role AND q.name < hand_people.name))
), '');

DROP INDEX hand_people_by_name;
CREATE INDEX hand_people_by_name ON hand_people (name_key, opened_at, hand_id, role, last_seq,
    keys_before, hand_wagered_e4, hand_collection_e4, hand_pd_net_e4, table_id, dealer, status,
    corrected, bank_e4, max_wager_e4);
DROP INDEX hand_people_pds;
CREATE INDEX hand_people_pds ON hand_people (name_key, opened_at, hand_id, last_seq,
    hand_wagered_e4, hand_collection_e4, hand_pd_net_e4, table_id, dealer, status, corrected,
    bank_e4, max_wager_e4) WHERE role = 'pd';
