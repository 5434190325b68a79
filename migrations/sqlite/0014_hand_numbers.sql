-- Every hand gets a human number, sequential per table from 1 (`DHP-1
-- #1042`): the n-th hand_opened record of its table in seq order. New hands
-- take MAX + 1 in the transaction that records their hand_opened (writes
-- are serialized by the chain lock); hands recorded before are numbered
-- here in log order. audit verify re-derives every number (hand_rows.rs).
ALTER TABLE hands ADD COLUMN number INTEGER NOT NULL DEFAULT 0;
UPDATE hands SET number = r.n FROM (
    SELECT a.hand_id AS id, ROW_NUMBER() OVER (PARTITION BY a.table_id ORDER BY a.seq) AS n
    FROM audit_log a WHERE a.event_type = 'hand_opened' AND a.hand_id IS NOT NULL) r
WHERE hands.id = r.id;
CREATE UNIQUE INDEX hands_by_table_number ON hands (table_id, number);
