-- The history search's `number` filter without a table (issue 17): hand
-- 1042 at whichever table. Without this index the filter walked every hand
-- by time (p99 583 ms at 200,000 hands; 1.2 ms with it, BENCHMARKS.md).
CREATE INDEX hands_by_number_time ON hands (number, opened_at, id);
