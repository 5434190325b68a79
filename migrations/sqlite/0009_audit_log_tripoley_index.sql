-- audit verify replays every Tripoley game from its first record, whatever
-- --from is: this finds those records without scanning the whole log.
CREATE INDEX audit_log_tripoley ON audit_log (seq) WHERE event_type LIKE 'tripoley%';
