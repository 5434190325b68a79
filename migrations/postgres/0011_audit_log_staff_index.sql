-- audit verify re-derives the staff accounts (verify_staff.rs), the card
-- tables, dealer assignments and dice games (verify_projections.rs) from
-- their records; none of those belongs to a hand. One index of the records
-- without a hand finds them without scanning the log; its condition is one
-- NULL test, so the hand records (nearly every insert) pay next to nothing
-- for it — an index on event_type IN (…) lists cost ~20 % of the group
-- commit's throughput (BENCHMARKS.md). Each query repeats the condition.
CREATE INDEX audit_log_not_hands ON audit_log (seq) WHERE hand_id IS NULL;
