-- audit verify re-derives every staff account's role and disabled flag from
-- its records (verify_staff.rs): this finds them without scanning the log.
CREATE INDEX audit_log_staff_accounts ON audit_log (seq)
    WHERE event_type IN ('user_added', 'role_changed', 'user_disabled', 'user_enabled');
