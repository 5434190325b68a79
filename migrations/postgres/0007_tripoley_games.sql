-- Tripoley games kept at the table: the game so far as canonical JSON (the
-- players, each one's chips, the board, the dealer, the chip value as a
-- decimal string, and every round as the round contract input it was
-- played from plus its result). Every action is an audit record written in
-- the same transaction as the row's change.
CREATE TABLE tripoley_games (
    id          TEXT PRIMARY KEY,
    state       TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
    version     BIGINT NOT NULL CHECK (version >= 1),
    last_key    TEXT,
    created_by  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
);
CREATE INDEX tripoley_games_by_time ON tripoley_games (created_at);
