-- The search's totals at a million hands (issue 17; store/history/totals.rs,
-- BENCHMARKS.md). Summing every hand a filter keeps cost half a second at
-- 200,000 hands; these keep each answer to a bounded read.
--
-- 1. Each UTC day's hands by table, state and correction, kept by a trigger
--    in the statement that writes the hand's row, whichever instance wrote
--    it: a filter of tables, states and kinds over a time range sums whole
--    days here and only its partial days' hands. Re-derived by audit
--    verify (store/verify/hand_days.rs).
CREATE TABLE hand_days (
    day           TEXT NOT NULL,
    table_id      TEXT NOT NULL,
    status        TEXT NOT NULL,
    corrected     BIGINT NOT NULL,
    hands         BIGINT NOT NULL,
    wagered_e4    BIGINT NOT NULL,
    collection_e4 BIGINT NOT NULL,
    pd_net_e4     BIGINT NOT NULL,
    PRIMARY KEY (day, table_id, status, corrected)
);
INSERT INTO hand_days
SELECT substr(opened_at, 1, 10), table_id, status, corrected, COUNT(*),
       SUM(wagered_e4), COALESCE(SUM(collection_e4), 0), COALESCE(SUM(pd_net_e4), 0)
FROM hands GROUP BY 1, 2, 3, 4;

CREATE FUNCTION hand_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE hand_days SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
            collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
            pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
        WHERE day = substr(OLD.opened_at, 1, 10) AND table_id = OLD.table_id
            AND status = OLD.status AND corrected = OLD.corrected;
        DELETE FROM hand_days WHERE day = substr(OLD.opened_at, 1, 10)
            AND table_id = OLD.table_id AND status = OLD.status
            AND corrected = OLD.corrected AND hands = 0;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO hand_days VALUES (substr(NEW.opened_at, 1, 10), NEW.table_id, NEW.status,
            NEW.corrected, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0),
            COALESCE(NEW.pd_net_e4, 0))
        ON CONFLICT (day, table_id, status, corrected) DO UPDATE SET
            hands = hand_days.hands + 1,
            wagered_e4 = hand_days.wagered_e4 + excluded.wagered_e4,
            collection_e4 = hand_days.collection_e4 + excluded.collection_e4,
            pd_net_e4 = hand_days.pd_net_e4 + excluded.pd_net_e4;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER hand_days_apply AFTER INSERT OR DELETE OR UPDATE OF opened_at, table_id,
    status, corrected, wagered_e4, collection_e4, pd_net_e4 ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_days_apply();

-- 2. Each person's row carries its hand's money, so a name's totals are
--    read from the name's index alone (a hand counted once, by its
--    last_seq). Written from the hand's row with the person's; audit verify
--    checks they are the row's.
ALTER TABLE hand_people ADD COLUMN hand_wagered_e4 BIGINT NOT NULL DEFAULT 0;
ALTER TABLE hand_people ADD COLUMN hand_collection_e4 BIGINT;
ALTER TABLE hand_people ADD COLUMN hand_pd_net_e4 BIGINT;
UPDATE hand_people SET hand_wagered_e4 = h.wagered_e4, hand_collection_e4 = h.collection_e4,
    hand_pd_net_e4 = h.pd_net_e4
FROM hands h WHERE h.id = hand_people.hand_id;
DROP INDEX hand_people_by_name;
CREATE INDEX hand_people_by_name ON hand_people (name_key, opened_at, hand_id)
    INCLUDE (role, last_seq, hand_wagered_e4, hand_collection_e4, hand_pd_net_e4);

-- The PDs' rows alone: a PD's name reads its banks without stepping over
-- the bettors' rows (five in six).
CREATE INDEX hand_people_pds ON hand_people (name_key, opened_at, hand_id)
    INCLUDE (last_seq, hand_wagered_e4, hand_collection_e4, hand_pd_net_e4) WHERE role = 'pd';

-- 3. The indexes a filter's totals read without the hands' rows: the
--    partial days by time (with what a day's row keys, and the amounts, so
--    a page of hands above an amount walks the index alone), a dealer's,
--    and the amounts'.
DROP INDEX hands_by_time;
CREATE INDEX hands_by_time ON hands (opened_at, id)
    INCLUDE (table_id, status, corrected, bank_e4, max_wager_e4, wagered_e4, collection_e4,
        pd_net_e4);
DROP INDEX hands_by_dealer_time;
CREATE INDEX hands_by_dealer_time ON hands (dealer, opened_at, id)
    INCLUDE (wagered_e4, collection_e4, pd_net_e4);
CREATE INDEX hands_by_bank ON hands (bank_e4) INCLUDE (wagered_e4, collection_e4, pd_net_e4);
CREATE INDEX hands_by_max_wager ON hands (max_wager_e4)
    INCLUDE (wagered_e4, collection_e4, pd_net_e4);

-- 4. Each bank amount's and each largest wager's hands (every amount a
--    hand holds, a few hundred or thousand rows): "bank at least" and
--    "wager at least" alone sum the rows from the amount up, where the
--    hands above a low amount are most of them. Kept and checked as
--    `hand_days` is.
CREATE TABLE hand_amounts (
    amount        TEXT NOT NULL CHECK (amount IN ('bank', 'max_wager')),
    amount_e4     BIGINT NOT NULL,
    hands         BIGINT NOT NULL,
    wagered_e4    BIGINT NOT NULL,
    collection_e4 BIGINT NOT NULL,
    pd_net_e4     BIGINT NOT NULL,
    PRIMARY KEY (amount, amount_e4)
);
INSERT INTO hand_amounts
SELECT 'bank', bank_e4, COUNT(*), SUM(wagered_e4), COALESCE(SUM(collection_e4), 0),
       COALESCE(SUM(pd_net_e4), 0)
FROM hands WHERE bank_e4 IS NOT NULL GROUP BY bank_e4;
INSERT INTO hand_amounts
SELECT 'max_wager', max_wager_e4, COUNT(*), SUM(wagered_e4), COALESCE(SUM(collection_e4), 0),
       COALESCE(SUM(pd_net_e4), 0)
FROM hands WHERE max_wager_e4 IS NOT NULL GROUP BY max_wager_e4;

CREATE FUNCTION hand_amounts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE hand_amounts SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
            collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
            pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
        WHERE (amount = 'bank' AND amount_e4 = OLD.bank_e4)
            OR (amount = 'max_wager' AND amount_e4 = OLD.max_wager_e4);
        DELETE FROM hand_amounts WHERE hands = 0
            AND ((amount = 'bank' AND amount_e4 = OLD.bank_e4)
                OR (amount = 'max_wager' AND amount_e4 = OLD.max_wager_e4));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO hand_amounts
        SELECT a.amount, a.amount_e4, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0),
            COALESCE(NEW.pd_net_e4, 0)
        FROM (VALUES ('bank', NEW.bank_e4), ('max_wager', NEW.max_wager_e4)) a (amount, amount_e4)
        WHERE a.amount_e4 IS NOT NULL
        ON CONFLICT (amount, amount_e4) DO UPDATE SET
            hands = hand_amounts.hands + 1,
            wagered_e4 = hand_amounts.wagered_e4 + excluded.wagered_e4,
            collection_e4 = hand_amounts.collection_e4 + excluded.collection_e4,
            pd_net_e4 = hand_amounts.pd_net_e4 + excluded.pd_net_e4;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER hand_amounts_apply AFTER INSERT OR DELETE OR UPDATE OF bank_e4, max_wager_e4,
    wagered_e4, collection_e4, pd_net_e4 ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_amounts_apply();
