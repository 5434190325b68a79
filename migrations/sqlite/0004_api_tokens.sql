-- Per-user API tokens for the JSON API (`Authorization: Bearer pbk_…`).
-- A token is shown once when it is issued: only its SHA-256 (hex) is stored.
-- A revoked token keeps its row (revoked_at set) so its audit trail reads.
CREATE TABLE api_tokens (
    id         TEXT PRIMARY KEY NOT NULL,
    user_id    TEXT NOT NULL REFERENCES staff_users (id),
    token_hash TEXT NOT NULL UNIQUE,
    label      TEXT NOT NULL,
    created_at TEXT NOT NULL,
    revoked_at TEXT
) STRICT;
CREATE INDEX api_tokens_by_user ON api_tokens (user_id);
