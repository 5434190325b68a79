-- Dice games kept at the table (10,000, poker dice): the game so far as canonical JSON
-- (the recorded-game contract plus what is in progress). Every action is
-- an audit record written in the same transaction as the row's change.
CREATE TABLE dice_games (
    id          TEXT PRIMARY KEY NOT NULL,
    game        TEXT NOT NULL CHECK (game IN ('ten-thousand', 'poker-dice')),
    state       TEXT NOT NULL,
    status      TEXT NOT NULL CHECK (status IN ('playing', 'finished')),
    version     INTEGER NOT NULL CHECK (version >= 1),
    last_key    TEXT,
    created_by  TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;
CREATE INDEX dice_games_by_time ON dice_games (created_at);
