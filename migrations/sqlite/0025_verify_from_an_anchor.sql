-- `audit verify --from` an anchor reads only the hands touched since it
-- (issue 21: a shift's verification bounded by the shift, not the log):
-- the hands' rows and their people by the seq of their last record.
CREATE INDEX hands_by_last_seq ON hands (last_seq);
CREATE INDEX hand_people_by_last_seq ON hand_people (last_seq);
