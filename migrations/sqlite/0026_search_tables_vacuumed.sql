-- Nothing on SQLite (issue 21): PostgreSQL's 0026 has autovacuum visit the
-- search's tables more often, so its index-only scans stay index-only;
-- SQLite's indexes hold no visibility to keep. This file keeps the two
-- backends' migrations numbered alike.
SELECT 1;
