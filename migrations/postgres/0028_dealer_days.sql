-- A dealer's totals at any size (issue 21; store/history/totals.rs,
-- BENCHMARKS.md "Twenty-seventh session"). A filter of a dealer summed
-- every hand the dealer dealt, by `hands_by_dealer_time`: 168 ms for
-- 146,000 hands at 51 M records, and a dealer of seven years deals some
-- 400,000. This keeps each UTC day's hands by dealer, state and
-- correction, as `hand_days` (migration 0018) keeps them by table, by a
-- trigger in the statement that writes the hand's row: a filter of a
-- dealer and states over a time range sums whole days here and only its
-- partial days' hands. Re-derived by audit verify
-- (store/verify/hand_days.rs).
CREATE TABLE hand_dealer_days (
    dealer        TEXT NOT NULL,
    day           TEXT NOT NULL,
    status        TEXT NOT NULL,
    corrected     BIGINT NOT NULL,
    hands         BIGINT NOT NULL,
    wagered_e4    BIGINT NOT NULL,
    collection_e4 BIGINT NOT NULL,
    pd_net_e4     BIGINT NOT NULL,
    PRIMARY KEY (dealer, day, status, corrected)
);
INSERT INTO hand_dealer_days
SELECT dealer, substr(opened_at, 1, 10), status, corrected, COUNT(*),
       SUM(wagered_e4), COALESCE(SUM(collection_e4), 0), COALESCE(SUM(pd_net_e4), 0)
FROM hands GROUP BY 1, 2, 3, 4;
-- A verification from an anchor reads the days since the shift's first.
CREATE INDEX hand_dealer_days_by_day ON hand_dealer_days (day);

CREATE FUNCTION hand_dealer_days_apply() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN
        UPDATE hand_dealer_days SET hands = hands - 1, wagered_e4 = wagered_e4 - OLD.wagered_e4,
            collection_e4 = collection_e4 - COALESCE(OLD.collection_e4, 0),
            pd_net_e4 = pd_net_e4 - COALESCE(OLD.pd_net_e4, 0)
        WHERE dealer = OLD.dealer AND day = substr(OLD.opened_at, 1, 10)
            AND status = OLD.status AND corrected = OLD.corrected;
        DELETE FROM hand_dealer_days WHERE dealer = OLD.dealer
            AND day = substr(OLD.opened_at, 1, 10) AND status = OLD.status
            AND corrected = OLD.corrected AND hands = 0;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN
        INSERT INTO hand_dealer_days VALUES (NEW.dealer, substr(NEW.opened_at, 1, 10),
            NEW.status, NEW.corrected, 1, NEW.wagered_e4, COALESCE(NEW.collection_e4, 0),
            COALESCE(NEW.pd_net_e4, 0))
        ON CONFLICT (dealer, day, status, corrected) DO UPDATE SET
            hands = hand_dealer_days.hands + 1,
            wagered_e4 = hand_dealer_days.wagered_e4 + excluded.wagered_e4,
            collection_e4 = hand_dealer_days.collection_e4 + excluded.collection_e4,
            pd_net_e4 = hand_dealer_days.pd_net_e4 + excluded.pd_net_e4;
    END IF;
    RETURN NULL;
END
$$;
CREATE TRIGGER hand_dealer_days_apply AFTER INSERT OR DELETE OR UPDATE OF dealer, opened_at,
    status, corrected, wagered_e4, collection_e4, pd_net_e4 ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_dealer_days_apply();
