-- Facts about this database itself (schema origin, audit key fingerprint).
CREATE TABLE pitbook_meta (
    key   TEXT PRIMARY KEY NOT NULL,
    value TEXT NOT NULL
) STRICT;
INSERT INTO pitbook_meta (key, value) VALUES ('created_by', 'pitbook');
