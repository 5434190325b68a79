-- Third-party proposition players and the PD rotation overrides (issue 19,
-- docs/shifts.md). Each row is the fold of its audit records
-- (tppp_registered, tppp_marked, tppp_unmarked, pd_rotation_overridden),
-- written with them in one transaction and re-derived by `audit verify`
-- (src/store/verify/shifts.rs).
CREATE TABLE tppps (
    name           TEXT PRIMARY KEY,
    name_key       TEXT NOT NULL UNIQUE,
    company        TEXT NOT NULL,
    badge          TEXT NOT NULL,
    badge_key      TEXT NOT NULL UNIQUE,
    registered_at  TEXT NOT NULL,
    registered_by  TEXT NOT NULL,
    registered_seq BIGINT NOT NULL
);

-- The TPPPs marked at a table now: a JSON array of names, NULL for none.
-- A new hand's `hand_opened` records them.
ALTER TABLE card_tables ADD COLUMN tppps TEXT;

-- Supervisors' overrides of the rotation clock, one row a record.
CREATE TABLE rotation_overrides (
    seq        BIGINT PRIMARY KEY,
    table_id   TEXT NOT NULL,
    reason     TEXT NOT NULL,
    at         TEXT NOT NULL,
    by_user    TEXT NOT NULL
);
CREATE INDEX rotation_overrides_by_table ON rotation_overrides (table_id, seq);
