-- A command's idempotency key expires after the server's retention
-- (--idempotency-retention), pruned oldest first by the partial index below;
-- a command that opened its hand keeps its key for good (one row a hand), so
-- a replayed open returns its first result however late it comes. Keys kept
-- before this marked as opening where their result's first record is the
-- hand's hand_opened.
ALTER TABLE idempotency_keys ADD COLUMN opens_hand INTEGER NOT NULL DEFAULT 0
    CHECK (opens_hand IN (0, 1));
UPDATE idempotency_keys SET opens_hand = 1
    WHERE (response_body::jsonb) #>> '{records,0,event_type}' = 'hand_opened';
CREATE INDEX idempotency_keys_expiring ON idempotency_keys (created_at)
    WHERE opens_hand = 0;
