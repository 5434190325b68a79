-- Every totals block sums the closed hands and counts the open and voided
-- apart (domain/history/totals.rs). The day rollups and the people rows
-- already key a hand's state; this gives it to the amounts' rollup and to
-- the indexes the totals read without the hands' rows.
DROP TRIGGER hand_amounts_apply ON hands;
DROP TRIGGER hand_amounts_update ON hands;
DROP TABLE hand_amounts;

-- Each bank amount's and each largest wager's hands, by state.
CREATE TABLE hand_amounts (
    amount        TEXT NOT NULL CHECK (amount IN ('bank', 'max_wager')),
    amount_e4     BIGINT NOT NULL,
    status        TEXT NOT NULL,
    hands         BIGINT NOT NULL,
    wagered_e4    BIGINT NOT NULL,
    collection_e4 BIGINT NOT NULL,
    pd_net_e4     BIGINT NOT NULL,
    PRIMARY KEY (amount, amount_e4, status)
);
INSERT INTO hand_amounts
SELECT 'bank', bank_e4, status, COUNT(*), SUM(wagered_e4), COALESCE(SUM(collection_e4), 0),
       COALESCE(SUM(pd_net_e4), 0)
FROM hands WHERE bank_e4 IS NOT NULL GROUP BY bank_e4, status;
INSERT INTO hand_amounts
SELECT 'max_wager', max_wager_e4, status, COUNT(*), SUM(wagered_e4),
       COALESCE(SUM(collection_e4), 0), COALESCE(SUM(pd_net_e4), 0)
FROM hands WHERE max_wager_e4 IS NOT NULL GROUP BY max_wager_e4, status;

CREATE OR REPLACE FUNCTION hand_amounts_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE hand_amounts SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
            collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
            pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
        WHERE status = OLD.status AND ((amount = 'bank' AND amount_e4 = OLD.bank_e4)
            OR (amount = 'max_wager' AND amount_e4 = OLD.max_wager_e4));
        DELETE FROM hand_amounts WHERE hands = 0 AND status = OLD.status
            AND ((amount = 'bank' AND amount_e4 = OLD.bank_e4)
                OR (amount = 'max_wager' AND amount_e4 = OLD.max_wager_e4));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO hand_amounts
        SELECT a.amount, a.amount_e4, NEW.status, 1, NEW.wagered_e4,
            COALESCE(NEW.collection_e4, 0), COALESCE(NEW.pd_net_e4, 0)
        FROM (VALUES ('bank', NEW.bank_e4), ('max_wager', NEW.max_wager_e4)) a (amount, amount_e4)
        WHERE a.amount_e4 IS NOT NULL
        ON CONFLICT (amount, amount_e4, status) DO UPDATE SET
            hands = hand_amounts.hands + 1,
            wagered_e4 = hand_amounts.wagered_e4 + excluded.wagered_e4,
            collection_e4 = hand_amounts.collection_e4 + excluded.collection_e4,
            pd_net_e4 = hand_amounts.pd_net_e4 + excluded.pd_net_e4;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER hand_amounts_apply AFTER INSERT OR DELETE ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_amounts_apply();
CREATE TRIGGER hand_amounts_update AFTER UPDATE OF bank_e4, max_wager_e4, status, wagered_e4,
    collection_e4, pd_net_e4 ON hands
    FOR EACH ROW WHEN (OLD.bank_e4 IS DISTINCT FROM NEW.bank_e4
        OR OLD.max_wager_e4 IS DISTINCT FROM NEW.max_wager_e4
        OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.wagered_e4 IS DISTINCT FROM NEW.wagered_e4
        OR OLD.collection_e4 IS DISTINCT FROM NEW.collection_e4
        OR OLD.pd_net_e4 IS DISTINCT FROM NEW.pd_net_e4)
    EXECUTE FUNCTION hand_amounts_apply();

-- The totals read by these indexes now read the state too.
DROP INDEX hands_by_dealer_time;
CREATE INDEX hands_by_dealer_time ON hands (dealer, opened_at, id)
    INCLUDE (wagered_e4, collection_e4, pd_net_e4, status);
DROP INDEX hands_by_bank;
CREATE INDEX hands_by_bank ON hands (bank_e4) INCLUDE (wagered_e4, collection_e4, pd_net_e4, status);
DROP INDEX hands_by_max_wager;
CREATE INDEX hands_by_max_wager ON hands (max_wager_e4)
    INCLUDE (wagered_e4, collection_e4, pd_net_e4, status);
