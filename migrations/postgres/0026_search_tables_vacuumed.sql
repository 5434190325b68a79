-- The search's reads of `hands` and `hand_people` are index-only scans
-- (migrations 0018, 0019, 0021): they stay index-only only where the
-- visibility map marks a page all-visible, which a VACUUM does. By default
-- autovacuum visits a table once a fifth of it is new (inserts) or changed
-- (updates), so a table of 20 M people rows can hold 4 M rows each read
-- from the heap: at 700,000 hands a partial PD name's totals took 620 ms
-- before a VACUUM and 7.6 ms after (issue 21, BENCHMARKS.md "The search at
-- size and the visibility map"). These tables are visited after 1 % new
-- or 2 % changed instead.
ALTER TABLE hands SET (autovacuum_vacuum_insert_scale_factor = 0.01,
    autovacuum_vacuum_scale_factor = 0.02);
ALTER TABLE hand_people SET (autovacuum_vacuum_insert_scale_factor = 0.01,
    autovacuum_vacuum_scale_factor = 0.02);
