-- House ways a supervisor loaded (issue 20, docs/house-ways.md). Each row
-- is its `house_way_loaded` audit record (which carries the whole file),
-- written with it in one transaction and re-derived by `audit verify`
-- (src/store/verify/house_ways.rs). `name` is what a table's `house_way`
-- option names: the file's name, '@', the first 12 hex digits of the
-- text's SHA-256.
CREATE TABLE house_ways (
    name       TEXT PRIMARY KEY NOT NULL,
    title      TEXT NOT NULL,
    text       TEXT NOT NULL,
    loaded_by  TEXT NOT NULL,
    loaded_at  TEXT NOT NULL,
    loaded_seq INTEGER NOT NULL UNIQUE
) STRICT;
