-- Card tables and the dealers assigned to them: projections of the
-- table_created / dealer_assigned / dealer_unassigned audit records.
-- Options and collection schedules are canonical JSON; money is a
-- canonical decimal string.
CREATE TABLE card_tables (
    name             TEXT PRIMARY KEY NOT NULL,
    game             TEXT NOT NULL,
    profile          TEXT NOT NULL,
    options          TEXT NOT NULL,
    seats            INTEGER NOT NULL CHECK (seats BETWEEN 2 AND 10),
    player_schedule  TEXT,
    bank_schedule    TEXT,
    wager_min        TEXT,
    wager_max        TEXT,
    created_at       TEXT NOT NULL,
    created_by       TEXT NOT NULL
) STRICT;

CREATE TABLE table_dealers (
    table_name  TEXT NOT NULL REFERENCES card_tables (name),
    username    TEXT NOT NULL,
    assigned_at TEXT NOT NULL,
    assigned_by TEXT NOT NULL,
    PRIMARY KEY (table_name, username)
) STRICT;
CREATE INDEX table_dealers_by_user ON table_dealers (username);
