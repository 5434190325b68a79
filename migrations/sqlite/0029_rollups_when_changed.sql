-- The day and amount rollups (migrations 0018, 0028) moved only when a
-- value they sum or key by changes. An `AFTER UPDATE OF` trigger fires for
-- every statement that names one of its columns, and the hand writer names
-- every column of the row on each command: each one subtracted its hand
-- from three rollups and added it back. Most commands change none of
-- these values (a card dealt, an outcome, a step confirmed); the same
-- bodies now run only when one does.
DROP TRIGGER hand_days_update;
CREATE TRIGGER hand_days_update AFTER UPDATE OF opened_at, table_id, status, corrected,
    wagered_e4, collection_e4, pd_net_e4 ON hands
    WHEN OLD.opened_at IS NOT NEW.opened_at OR OLD.table_id IS NOT NEW.table_id
        OR OLD.status IS NOT NEW.status OR OLD.corrected IS NOT NEW.corrected
        OR OLD.wagered_e4 IS NOT NEW.wagered_e4 OR OLD.collection_e4 IS NOT NEW.collection_e4
        OR OLD.pd_net_e4 IS NOT NEW.pd_net_e4
BEGIN
    UPDATE hand_days SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
        collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
        pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
    WHERE day = substr(OLD.opened_at, 1, 10) AND table_id = OLD.table_id
        AND status = OLD.status AND corrected = OLD.corrected;
    DELETE FROM hand_days WHERE day = substr(OLD.opened_at, 1, 10) AND table_id = OLD.table_id
        AND status = OLD.status AND corrected = OLD.corrected AND hands = 0;
    INSERT INTO hand_days VALUES (substr(NEW.opened_at, 1, 10), NEW.table_id, NEW.status,
        NEW.corrected, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0), COALESCE(NEW.pd_net_e4, 0))
    ON CONFLICT (day, table_id, status, corrected) DO UPDATE SET hands = hands + 1,
        wagered_e4 = wagered_e4 + excluded.wagered_e4,
        collection_e4 = collection_e4 + excluded.collection_e4,
        pd_net_e4 = pd_net_e4 + excluded.pd_net_e4;
END;

DROP TRIGGER hand_amounts_update;
CREATE TRIGGER hand_amounts_update AFTER UPDATE OF bank_e4, max_wager_e4, wagered_e4,
    collection_e4, pd_net_e4 ON hands
    WHEN OLD.bank_e4 IS NOT NEW.bank_e4 OR OLD.max_wager_e4 IS NOT NEW.max_wager_e4
        OR OLD.wagered_e4 IS NOT NEW.wagered_e4 OR OLD.collection_e4 IS NOT NEW.collection_e4
        OR OLD.pd_net_e4 IS NOT NEW.pd_net_e4
BEGIN
    UPDATE hand_amounts SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
        collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
        pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
    WHERE (amount = 'bank' AND amount_e4 = OLD.bank_e4)
        OR (amount = 'max_wager' AND amount_e4 = OLD.max_wager_e4);
    DELETE FROM hand_amounts WHERE hands = 0 AND ((amount = 'bank' AND amount_e4 = OLD.bank_e4)
        OR (amount = 'max_wager' AND amount_e4 = OLD.max_wager_e4));
    INSERT INTO hand_amounts
    SELECT a.amount, a.amount_e4, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0),
        COALESCE(NEW.pd_net_e4, 0)
    FROM (SELECT 'bank' AS amount, NEW.bank_e4 AS amount_e4
          UNION ALL SELECT 'max_wager', NEW.max_wager_e4) a
    WHERE a.amount_e4 IS NOT NULL
    ON CONFLICT (amount, amount_e4) DO UPDATE SET hands = hands + 1,
        wagered_e4 = wagered_e4 + excluded.wagered_e4,
        collection_e4 = collection_e4 + excluded.collection_e4,
        pd_net_e4 = pd_net_e4 + excluded.pd_net_e4;
END;

DROP TRIGGER hand_dealer_days_update;
CREATE TRIGGER hand_dealer_days_update AFTER UPDATE OF dealer, opened_at, status, corrected,
    wagered_e4, collection_e4, pd_net_e4 ON hands
    WHEN OLD.dealer IS NOT NEW.dealer OR OLD.opened_at IS NOT NEW.opened_at
        OR OLD.status IS NOT NEW.status OR OLD.corrected IS NOT NEW.corrected
        OR OLD.wagered_e4 IS NOT NEW.wagered_e4 OR OLD.collection_e4 IS NOT NEW.collection_e4
        OR OLD.pd_net_e4 IS NOT NEW.pd_net_e4
BEGIN
    UPDATE hand_dealer_days SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
        collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
        pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
    WHERE dealer = OLD.dealer AND day = substr(OLD.opened_at, 1, 10) AND status = OLD.status
        AND corrected = OLD.corrected;
    DELETE FROM hand_dealer_days WHERE dealer = OLD.dealer AND day = substr(OLD.opened_at, 1, 10)
        AND status = OLD.status AND corrected = OLD.corrected AND hands = 0;
    INSERT INTO hand_dealer_days VALUES (NEW.dealer, substr(NEW.opened_at, 1, 10), NEW.status,
        NEW.corrected, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0), COALESCE(NEW.pd_net_e4, 0))
    ON CONFLICT (dealer, day, status, corrected) DO UPDATE SET hands = hands + 1,
        wagered_e4 = wagered_e4 + excluded.wagered_e4,
        collection_e4 = collection_e4 + excluded.collection_e4,
        pd_net_e4 = pd_net_e4 + excluded.pd_net_e4;
END;
