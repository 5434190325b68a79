-- A dealer's totals at any size (issue 21; store/history/totals.rs,
-- BENCHMARKS.md "Twenty-seventh session"). A filter of a dealer summed
-- every hand the dealer dealt, by `hands_by_dealer_time`. This keeps each
-- UTC day's hands by dealer, state and correction, as `hand_days`
-- (migration 0018) keeps them by table, by triggers in the statement that
-- writes the hand's row: a filter of a dealer and states over a time
-- range sums whole days here and only its partial days' hands.
-- Re-derived by audit verify (store/verify/hand_days.rs).
CREATE TABLE hand_dealer_days (
    dealer        TEXT NOT NULL,
    day           TEXT NOT NULL,
    status        TEXT NOT NULL,
    corrected     INTEGER NOT NULL,
    hands         INTEGER NOT NULL,
    wagered_e4    INTEGER NOT NULL,
    collection_e4 INTEGER NOT NULL,
    pd_net_e4     INTEGER NOT NULL,
    PRIMARY KEY (dealer, day, status, corrected)
) STRICT;
INSERT INTO hand_dealer_days
SELECT dealer, substr(opened_at, 1, 10), status, corrected, COUNT(*),
       SUM(wagered_e4), COALESCE(SUM(collection_e4), 0), COALESCE(SUM(pd_net_e4), 0)
FROM hands GROUP BY 1, 2, 3, 4;
-- A verification from an anchor reads the days since the shift's first.
CREATE INDEX hand_dealer_days_by_day ON hand_dealer_days (day);

CREATE TRIGGER hand_dealer_days_insert AFTER INSERT ON hands
BEGIN
    INSERT INTO hand_dealer_days VALUES (NEW.dealer, substr(NEW.opened_at, 1, 10), NEW.status,
        NEW.corrected, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0), COALESCE(NEW.pd_net_e4, 0))
    ON CONFLICT (dealer, day, status, corrected) DO UPDATE SET hands = hands + 1,
        wagered_e4 = wagered_e4 + excluded.wagered_e4,
        collection_e4 = collection_e4 + excluded.collection_e4,
        pd_net_e4 = pd_net_e4 + excluded.pd_net_e4;
END;

CREATE TRIGGER hand_dealer_days_delete AFTER DELETE ON hands
BEGIN
    UPDATE hand_dealer_days SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
        collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
        pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
    WHERE dealer = OLD.dealer AND day = substr(OLD.opened_at, 1, 10) AND status = OLD.status
        AND corrected = OLD.corrected;
    DELETE FROM hand_dealer_days WHERE dealer = OLD.dealer AND day = substr(OLD.opened_at, 1, 10)
        AND status = OLD.status AND corrected = OLD.corrected AND hands = 0;
END;

CREATE TRIGGER hand_dealer_days_update AFTER UPDATE OF dealer, opened_at, status, corrected,
    wagered_e4, collection_e4, pd_net_e4 ON hands
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
