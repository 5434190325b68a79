-- Staff accounts and their browser sessions. Timestamps are UTC text in the
-- audit log's form, so they compare as text.
CREATE TABLE staff_users (
    id                   TEXT PRIMARY KEY,
    username             TEXT NOT NULL UNIQUE,
    role                 TEXT NOT NULL CHECK (role IN ('admin', 'supervisor', 'dealer', 'trainee', 'auditor')),
    password_hash        TEXT NOT NULL,
    must_change_password BOOLEAN NOT NULL,
    disabled             BOOLEAN NOT NULL DEFAULT FALSE,
    created_at           TEXT NOT NULL
);

-- A session's id is never stored: only its SHA-256 (hex).
CREATE TABLE staff_sessions (
    id_hash      TEXT PRIMARY KEY,
    user_id      TEXT NOT NULL REFERENCES staff_users (id),
    csrf_token   TEXT NOT NULL,
    created_at   TEXT NOT NULL,
    last_seen_at TEXT NOT NULL
);
CREATE INDEX staff_sessions_by_user ON staff_sessions (user_id);
CREATE INDEX audit_log_login_failed ON audit_log (actor, recorded_at) WHERE event_type = 'login_failed';
