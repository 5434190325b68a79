-- Nothing on SQLite (issue 17, BENCHMARKS.md "Hand search"). PostgreSQL's
-- 0021 adds a narrow index for a partial player name's totals; given one,
-- SQLite's planner read a name's page through it and the table (2 s at a
-- million hands) rather than through `hand_people_by_name`, and its totals
-- already meet the target. This file keeps the two backends' migrations
-- numbered alike.
SELECT 1;
