-- The day and amount rollups (migrations 0018, 0028) moved only when a
-- value they sum or key by changes. An `UPDATE OF` trigger fires for every
-- statement that names one of its columns, and the hand writer names every
-- column of the row on each command: each one subtracted its hand from
-- three rollups and added it back. Most commands change none of these
-- values (a card dealt, an outcome, a step confirmed); the same functions
-- now run on an update only when one does.
DROP TRIGGER hand_days_apply ON hands;
CREATE TRIGGER hand_days_apply AFTER INSERT OR DELETE ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_days_apply();
CREATE TRIGGER hand_days_update AFTER UPDATE OF opened_at, table_id, status, corrected,
    wagered_e4, collection_e4, pd_net_e4 ON hands
    FOR EACH ROW WHEN (OLD.opened_at IS DISTINCT FROM NEW.opened_at
        OR OLD.table_id IS DISTINCT FROM NEW.table_id OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.corrected IS DISTINCT FROM NEW.corrected
        OR OLD.wagered_e4 IS DISTINCT FROM NEW.wagered_e4
        OR OLD.collection_e4 IS DISTINCT FROM NEW.collection_e4
        OR OLD.pd_net_e4 IS DISTINCT FROM NEW.pd_net_e4)
    EXECUTE FUNCTION hand_days_apply();

DROP TRIGGER hand_amounts_apply ON hands;
CREATE TRIGGER hand_amounts_apply AFTER INSERT OR DELETE ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_amounts_apply();
CREATE TRIGGER hand_amounts_update AFTER UPDATE OF bank_e4, max_wager_e4, wagered_e4,
    collection_e4, pd_net_e4 ON hands
    FOR EACH ROW WHEN (OLD.bank_e4 IS DISTINCT FROM NEW.bank_e4
        OR OLD.max_wager_e4 IS DISTINCT FROM NEW.max_wager_e4
        OR OLD.wagered_e4 IS DISTINCT FROM NEW.wagered_e4
        OR OLD.collection_e4 IS DISTINCT FROM NEW.collection_e4
        OR OLD.pd_net_e4 IS DISTINCT FROM NEW.pd_net_e4)
    EXECUTE FUNCTION hand_amounts_apply();

DROP TRIGGER hand_dealer_days_apply ON hands;
CREATE TRIGGER hand_dealer_days_apply AFTER INSERT OR DELETE ON hands
    FOR EACH ROW EXECUTE FUNCTION hand_dealer_days_apply();
CREATE TRIGGER hand_dealer_days_update AFTER UPDATE OF dealer, opened_at, status, corrected,
    wagered_e4, collection_e4, pd_net_e4 ON hands
    FOR EACH ROW WHEN (OLD.dealer IS DISTINCT FROM NEW.dealer
        OR OLD.opened_at IS DISTINCT FROM NEW.opened_at
        OR OLD.status IS DISTINCT FROM NEW.status
        OR OLD.corrected IS DISTINCT FROM NEW.corrected
        OR OLD.wagered_e4 IS DISTINCT FROM NEW.wagered_e4
        OR OLD.collection_e4 IS DISTINCT FROM NEW.collection_e4
        OR OLD.pd_net_e4 IS DISTINCT FROM NEW.pd_net_e4)
    EXECUTE FUNCTION hand_dealer_days_apply();
