-- Merged into 0011 (audit_log_not_hands) before release; kept so that the
-- numbering of the migrations stays as it was written.
SELECT 1;
