-- `audit verify --from` an anchor folds only the shift records since it
-- (issue 21, src/store/verify/shifts.rs): the room's few records by kind
-- (the PD rotation's and the shifts setting, read whole on every run, so
-- not by walking years of shift records), and the shifts closed since the
-- anchor (resumed as their rows stood before it).
CREATE INDEX audit_log_room_by_kind ON audit_log (event_type, seq) WHERE hand_id IS NULL;
CREATE INDEX shifts_by_closed_seq ON shifts (closed_seq);
