-- What the hand search reads (src/store/history/), all re-derived from the
-- log by audit verify (src/store/verify/hand_search.rs). Money here is whole
-- ten-thousandths in an integer (the finest table unit is 0.0001), so both
-- databases compare and sum it exactly (domain/history/units.rs).
--
-- Each hand's totals, beside its row. `summarized` = 0 marks a row written
-- before this migration: the store fills it from the hand's events at start
-- (store/history/backfill.rs).
ALTER TABLE hands ADD COLUMN pd_name TEXT;
ALTER TABLE hands ADD COLUMN pd_net_e4 BIGINT;
ALTER TABLE hands ADD COLUMN bank_e4 BIGINT;
ALTER TABLE hands ADD COLUMN wagered_e4 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE hands ADD COLUMN max_wager_e4 BIGINT;
ALTER TABLE hands ADD COLUMN collection_e4 BIGINT;
ALTER TABLE hands ADD COLUMN corrected BIGINT NOT NULL DEFAULT 0;
ALTER TABLE hands ADD COLUMN summarized BIGINT NOT NULL DEFAULT 0;
CREATE INDEX hands_unsummarized ON hands (id) WHERE summarized = 0;
-- Newest first, and within a table, a dealer or a state.
CREATE INDEX hands_by_time ON hands (opened_at, id);
CREATE INDEX hands_by_table_time ON hands (table_id, opened_at, id);
CREATE INDEX hands_by_dealer_time ON hands (dealer, opened_at, id);
CREATE INDEX hands_by_status_time ON hands (status, opened_at, id);

-- Everyone in each hand: the PD and each bettor by the name typed, with
-- the money of their part (received and net once the hand is closed or
-- voided). `name_key` is the name trimmed, NFC, lower case; `opened_at`
-- and `last_seq` are the hand's, so a player's hands come newest first
-- from the index alone and a row written after a verification's head is
-- left for the next one. No foreign key: like `hands` itself it is a
-- projection, and audit verify reports a row without its hand.
CREATE TABLE hand_people (
    hand_id     TEXT NOT NULL,
    role        TEXT NOT NULL CHECK (role IN ('pd', 'bettor')),
    name        TEXT NOT NULL,
    name_key    TEXT NOT NULL,
    staked_e4   BIGINT NOT NULL,
    received_e4 BIGINT,
    net_e4      BIGINT,
    opened_at   TEXT NOT NULL,
    last_seq    BIGINT NOT NULL,
    PRIMARY KEY (hand_id, role, name)
);
CREATE INDEX hand_people_by_name ON hand_people (name_key, opened_at, hand_id);

-- The distinct names of hand_people: a partial name is matched against
-- these few thousand, then their hands found by hand_people_by_name.
CREATE TABLE person_names (
    name_key TEXT PRIMARY KEY NOT NULL
);
