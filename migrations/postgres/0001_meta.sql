-- Facts about this database itself (schema origin, audit key fingerprint).
CREATE TABLE pitbook_meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO pitbook_meta (key, value) VALUES ('created_by', 'pitbook');
