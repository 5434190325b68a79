-- The notes on hands (`hand_note_added`, issue 17) are records of the
-- audit log, searched there by the history search's `note` filter
-- (src/store/history/query.rs). Notes are few: this partial index holds
-- only them, so the filter reads the notes and never scans the log, and a
-- hand's other records (nearly every insert) pay one comparison for it.
CREATE INDEX audit_log_notes ON audit_log (hand_id) WHERE event_type = 'hand_note_added';
