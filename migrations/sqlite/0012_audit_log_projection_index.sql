-- audit verify re-derives the card tables, dealer assignments and dice
-- games from their records (src/store/verify_projections.rs): this finds
-- those few records without scanning the whole log. The condition is the
-- query's, word for word.
CREATE INDEX audit_log_projections ON audit_log (seq) WHERE event_type IN ('table_created', 'dealer_assigned', 'dealer_unassigned', 'ten_thousand_started', 'ten_thousand_action', 'ten_thousand_finished', 'poker_dice_started', 'poker_dice_action', 'poker_dice_finished');
