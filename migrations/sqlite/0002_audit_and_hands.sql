-- The append-only, hash-chained audit log. Every hand event and every staff
-- action is one record. Timestamps are the exact UTC text that is hashed.
CREATE TABLE audit_log (
    seq         INTEGER PRIMARY KEY NOT NULL CHECK (seq >= 1),
    recorded_at TEXT NOT NULL,
    actor       TEXT NOT NULL,
    table_id    TEXT,
    hand_id     TEXT,
    event_type  TEXT NOT NULL,
    payload     TEXT NOT NULL,
    prev_hash   TEXT NOT NULL,
    hash        TEXT NOT NULL
) STRICT;
CREATE INDEX audit_log_by_hand ON audit_log (hand_id, seq) WHERE hand_id IS NOT NULL;
CREATE INDEX audit_log_by_time ON audit_log (recorded_at);

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: UPDATE refused'); END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN SELECT RAISE(ABORT, 'audit_log is append-only: DELETE refused'); END;

-- A projection of each hand's events, for lookups and optimistic concurrency.
-- Money is a canonical decimal string.
CREATE TABLE hands (
    id               TEXT PRIMARY KEY NOT NULL,
    table_id         TEXT NOT NULL,
    game             TEXT NOT NULL,
    dealer           TEXT NOT NULL,
    status           TEXT NOT NULL CHECK (status IN ('betting', 'dealt', 'closed', 'voided')),
    version          INTEGER NOT NULL CHECK (version >= 1),
    bank             TEXT,
    house_collection TEXT,
    settlement       TEXT,
    opened_at        TEXT NOT NULL,
    updated_at       TEXT NOT NULL,
    last_seq         INTEGER NOT NULL REFERENCES audit_log (seq)
) STRICT;
CREATE INDEX hands_by_table ON hands (table_id, opened_at);

-- The first result of each command, so a repeated command returns it again.
CREATE TABLE idempotency_keys (
    key             TEXT PRIMARY KEY NOT NULL,
    request_hash    TEXT NOT NULL,
    response_status INTEGER NOT NULL,
    response_body   TEXT NOT NULL,
    created_at      TEXT NOT NULL
) STRICT;
