-- Staff accounts and their browser sessions. Timestamps are UTC text in the
-- audit log's form, so they compare as text.
CREATE TABLE staff_users (
    id                   TEXT PRIMARY KEY NOT NULL,
    username             TEXT NOT NULL UNIQUE,
    role                 TEXT NOT NULL CHECK (role IN ('admin', 'supervisor', 'dealer', 'trainee', 'auditor')),
    password_hash        TEXT NOT NULL,
    must_change_password INTEGER NOT NULL CHECK (must_change_password IN (0, 1)),
    disabled             INTEGER NOT NULL DEFAULT 0 CHECK (disabled IN (0, 1)),
    created_at           TEXT NOT NULL
) STRICT;

-- A session's id is never stored: only its SHA-256 (hex).
CREATE TABLE staff_sessions (
    id_hash      TEXT PRIMARY KEY NOT NULL,
    user_id      TEXT NOT NULL REFERENCES staff_users (id),
    csrf_token   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL
) STRICT;
CREATE INDEX staff_sessions_by_user ON staff_sessions (user_id);
CREATE INDEX audit_log_login_failed ON audit_log (actor, recorded_at) WHERE event_type = 'login_failed';
