//! Structured logs on stderr: human by default, JSON for log shippers.
//! The level comes from RUST_LOG (default `info`). And the metrics' names
//! ([`metric`]), which the shell counts under and `GET /metrics` serves
//! (`web::metrics`, docs/metrics.md).

use clap::ValueEnum;
use tracing_subscriber::EnvFilter;

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum, Default)]
pub enum LogFormat {
    #[default]
    Human,
    Json,
}

pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    // A second init (tests) is harmless: the first subscriber stays.
    let _ = match format {
        LogFormat::Human => builder.try_init(),
        LogFormat::Json => builder.json().flatten_event(true).try_init(),
    };
}

/// Every metric's name, one place for the store and the web to count under.
pub mod metric {
    pub const HTTP_REQUESTS: &str = "pitbook_http_requests_total";
    pub const HTTP_SECONDS: &str = "pitbook_http_request_duration_seconds";
    pub const HANDS_OPENED: &str = "pitbook_hands_opened_total";
    pub const HANDS_CLOSED: &str = "pitbook_hands_closed_total";
    pub const COMMANDS_REFUSED: &str = "pitbook_commands_refused_total";
    pub const BATCH_COMMANDS: &str = "pitbook_group_commit_commands";
    pub const COMMIT_SECONDS: &str = "pitbook_group_commit_seconds";
    pub const COMMIT_PHASE_SECONDS: &str = "pitbook_group_commit_phase_seconds";
    pub const LOGIN_FAILURES: &str = "pitbook_login_failures_total";
    pub const LOGIN_THROTTLED: &str = "pitbook_login_throttled_total";
    pub const CHAIN_HEAD_SEQ: &str = "pitbook_audit_chain_head_seq";
    pub const LAST_VERIFY_OK: &str = "pitbook_audit_last_verify_ok";
    pub const LAST_VERIFY_TIME: &str = "pitbook_audit_last_verify_timestamp_seconds";
}
