-- Shifts (issue 19, docs/shifts.md). Each row is the fold of its audit
-- records (shift_opened, dealer_changed, shift_closed,
-- shift_report_signed, shifts_required_set), written with them in one
-- transaction and re-derived by `audit verify` (src/store/verify/shifts.rs).
-- A hand belongs to the shift open at its table when it opened: the
-- report reads the hands by `hands_by_time` over the shift's range.
CREATE TABLE shifts (
    id          TEXT PRIMARY KEY NOT NULL,
    table_id    TEXT,
    opened_at   TEXT NOT NULL,
    opened_by   TEXT NOT NULL,
    opened_seq  INTEGER NOT NULL,
    closed_at   TEXT,
    closed_by   TEXT,
    closed_seq  INTEGER
) STRICT;
CREATE INDEX shifts_open ON shifts (table_id) WHERE closed_at IS NULL;
CREATE INDEX shifts_by_seq ON shifts (opened_seq);

-- Dealers taking (dealer) or leaving (NULL) the box, one row a record.
CREATE TABLE shift_dealers (
    seq        INTEGER PRIMARY KEY NOT NULL,
    shift_id   TEXT NOT NULL REFERENCES shifts (id),
    table_id   TEXT NOT NULL,
    dealer     TEXT,
    changed_at TEXT NOT NULL,
    changed_by TEXT NOT NULL
) STRICT;
CREATE INDEX shift_dealers_by_shift ON shift_dealers (shift_id, seq);

-- The closing supervisor's signatures on a shift's report (its digest).
CREATE TABLE shift_signatures (
    seq        INTEGER PRIMARY KEY NOT NULL,
    shift_id   TEXT NOT NULL REFERENCES shifts (id),
    digest     TEXT NOT NULL,
    hands      INTEGER NOT NULL,
    drop_total TEXT NOT NULL,
    signed_at  TEXT NOT NULL,
    signed_by  TEXT NOT NULL
) STRICT;
CREATE INDEX shift_signatures_by_shift ON shift_signatures (shift_id, seq);

-- The room's settings, each the last record that set it.
CREATE TABLE room_settings (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL,
    seq   INTEGER NOT NULL
) STRICT;
