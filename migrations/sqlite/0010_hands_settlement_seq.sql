-- A hand's settlement is kept once: in the audit record that carries it (the
-- close, or the latest correction). The projection points at that record
-- instead of holding a copy, so it cannot state a different settlement and
-- `audit verify` compares one number per hand, not kilobytes.
ALTER TABLE hands ADD COLUMN settlement_seq INTEGER REFERENCES audit_log (seq);
UPDATE hands SET settlement_seq = (
    SELECT max(a.seq) FROM audit_log a
    WHERE a.hand_id = hands.id AND a.event_type IN ('hand_closed', 'outcome_corrected')
) WHERE settlement IS NOT NULL;
ALTER TABLE hands DROP COLUMN settlement;
