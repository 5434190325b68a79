//! `pitbook serve`: open the database (migrations applied) and the audit key,
//! bind, serve until SIGINT/SIGTERM.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::CliError;
use super::anchor_log::{self, AnchorWriter};
use super::store_args::StoreArgs;
use crate::store::double_hand_poker::idempotency;
use crate::store::{self, audit::key::MissingKey};
use crate::telemetry::LogFormat;
use crate::web::server::ServerLimits;
use crate::web::{self, AppState};

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub store: StoreArgs,
    /// Address to listen on.
    #[arg(long, env = "PITBOOK_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
    /// A reverse proxy in front (repeat, or comma-separated): on requests
    /// from it the client address is taken from X-Forwarded-For (login throttling).
    #[arg(
        long = "trusted-proxy",
        env = "PITBOOK_TRUSTED_PROXY",
        value_delimiter = ','
    )]
    pub trusted_proxy: Vec<std::net::IpAddr>,
    /// Seconds a client has to send a request's headers (and an idle
    /// keep-alive connection waits for its next request); then it is closed.
    #[arg(long, env = "PITBOOK_HEADER_TIMEOUT_SECS", default_value_t = 10,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub header_timeout_secs: u64,
    /// Seconds a client has to send a request's body, once its headers are in (408).
    #[arg(long, env = "PITBOOK_BODY_TIMEOUT_SECS", default_value_t = 30,
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub body_timeout_secs: u64,
    /// Seconds from a request's headers to its answer (408).
    #[arg(long, env = "PITBOOK_REQUEST_TIMEOUT_SECS", default_value_t = 120,
          value_parser = clap::value_parser!(u64).range(1..=86400))]
    pub request_timeout_secs: u64,
    /// Open connections at once; one more is answered 503 and closed.
    #[arg(long, env = "PITBOOK_MAX_CONNECTIONS", default_value_t = 1024,
          value_parser = clap::value_parser!(u64).range(1..=1_000_000))]
    pub max_connections: u64,
    /// The anchor log: the chain's head appended at start, every
    /// --anchor-interval-mins while it moves, and at shutdown. Default:
    /// beside the audit key file (`pitbook.db.anchors` for the embedded
    /// default), else `pitbook.anchors` here.
    #[arg(long, env = "PITBOOK_ANCHOR_LOG")]
    pub anchor_log: Option<PathBuf>,
    /// Minutes between anchors (one is appended only if the head moved).
    #[arg(long, env = "PITBOOK_ANCHOR_INTERVAL_MINS", default_value_t = 15,
          value_parser = clap::value_parser!(u64).range(1..=1440))]
    pub anchor_interval_mins: u64,
    /// The cardroom's time zone (an IANA name: America/Los_Angeles): the
    /// pages show times in it, with UTC beside; the record keeps UTC.
    #[arg(long, env = "PITBOOK_TIME_ZONE", default_value = "UTC",
          value_parser = parse_time_zone)]
    pub time_zone: chrono_tz::Tz,
    /// Minutes a hand may stay open before the floor (`/floor`) calls it out.
    #[arg(long, env = "PITBOOK_HAND_ALERT_MINS", default_value_t = 20,
          value_parser = clap::value_parser!(i64).range(1..=1440))]
    pub hand_alert_mins: i64,
    /// The operator's token for `GET /metrics` (Authorization: Bearer
    /// TOKEN); without one, /metrics answers 403 (docs/metrics.md).
    #[arg(long, env = "PITBOOK_METRICS_TOKEN", hide_env_values = true)]
    pub metrics_token: Option<String>,
    /// How long a hand command's idempotency key is kept for a repeat of
    /// the command (`48h`, `3d`, `90m`); a key that opened a hand is kept
    /// for good. Pruned every quarter of it, at most 10 minutes (docs/audit.md).
    #[arg(long, env = "PITBOOK_IDEMPOTENCY_RETENTION", default_value = "48h",
          value_parser = parse_retention)]
    pub idempotency_retention: Duration,
}

/// The longest retention: ten years.
const RETENTION_MAX: Duration = Duration::from_secs(3650 * 86_400);

pub(super) fn parse_retention(text: &str) -> Result<Duration, String> {
    let retention = humantime::parse_duration(text.trim())
        .map_err(|e| format!("\"{text}\" is not a duration ({e}); write it as 48h, 3d or 90m"))?;
    if retention < Duration::from_secs(60) {
        return Err(format!(
            "\"{text}\" is under a minute: a key must outlive a client's retry"
        ));
    }
    if retention > RETENTION_MAX {
        return Err(format!("\"{text}\" is over ten years"));
    }
    Ok(retention)
}

pub(super) fn parse_time_zone(name: &str) -> Result<chrono_tz::Tz, String> {
    name.parse().map_err(|_| {
        format!("\"{name}\" is not a time zone name (e.g. UTC, America/Los_Angeles, Europe/London)")
    })
}

impl ServeArgs {
    fn limits(&self) -> ServerLimits {
        ServerLimits {
            header_timeout: Duration::from_secs(self.header_timeout_secs),
            body_timeout: Duration::from_secs(self.body_timeout_secs),
            request_timeout: Duration::from_secs(self.request_timeout_secs),
            max_connections: usize::try_from(self.max_connections).unwrap_or(usize::MAX),
        }
    }
}

pub fn run(args: ServeArgs, log_format: LogFormat) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        let (db, audit_key) = args.store.open(MissingKey::Create).await?;
        first_admin(&db, &audit_key, log_format).await?;
        let anchors = Arc::new(AnchorWriter::new(
            args.anchor_log
                .clone()
                .unwrap_or_else(|| anchor_log::default_path(&args.store)),
        ));
        // Before listening: a log that cannot be written stops the start.
        anchors.append_head(&db).await.map_err(CliError::Failure)?;
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .map_err(|e| CliError::Failure(format!("cannot listen on {}: {e}", args.bind)))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::Failure(e.to_string()))?;
        let limits = args.limits();
        // Before "listening": from then on SIGTERM is a graceful stop.
        let stop = web::shutdown_signal();
        tracing::info!(
            address = %local,
            database = %store::redact(&args.store.database_url),
            backend = db.backend().name(),
            header_timeout_secs = args.header_timeout_secs,
            body_timeout_secs = args.body_timeout_secs,
            request_timeout_secs = args.request_timeout_secs,
            max_connections = args.max_connections,
            anchor_log = %anchors.path().display(),
            time_zone = %args.time_zone,
            metrics = args.metrics_token.is_some(),
            idempotency_retention = %humantime::format_duration(args.idempotency_retention),
            "pitbook listening"
        );
        let state = AppState::new(db.clone(), audit_key.clone())
            .map_err(|e| CliError::Failure(format!("starting the hand writer: {e}")))?
            .with_trusted_proxies(args.trusted_proxy)
            .with_time_zone(args.time_zone)
            .with_hand_alert_minutes(args.hand_alert_mins)
            .with_metrics_token(args.metrics_token);
        let login_guard = state.login_guard.clone();
        let every = Duration::from_secs(args.anchor_interval_mins * 60);
        let periodic = tokio::spawn(append_anchors(anchors.clone(), db.clone(), every));
        let pruning = tokio::spawn(prune_keys(db.clone(), args.idempotency_retention));
        tokio::task::spawn_blocking(web::openapi::warm);
        let result = web::serve_with_limits(listener, state, limits, stop).await;
        periodic.abort();
        pruning.abort();
        // The login failures of windows still open are recorded before exit.
        if let Err(e) = login_guard.flush(&db, &audit_key).await {
            tracing::error!(error = %e, "cannot write the login_failures records at shutdown");
        }
        // Every request has finished: this is the head the server leaves.
        let last = anchors.append_head(&db).await;
        db.close().await;
        result.map_err(|e| CliError::Failure(format!("server error: {e}")))?;
        last.map(|_| ()).map_err(CliError::Failure)
    })
}

/// Appends the head every `every` while it moves; a failure is logged and
/// tried again next time.
async fn append_anchors(anchors: Arc<AnchorWriter>, db: store::Db, every: Duration) {
    let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + every, every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        if let Err(e) = anchors.append_head(&db).await {
            tracing::error!(path = %anchors.path().display(), error = %e, "anchor not appended");
        }
    }
}

/// Deletes the expired idempotency keys at start and every quarter of the
/// retention, at most 10 minutes; a failure is logged and tried again next
/// time.
async fn prune_keys(db: store::Db, retention: Duration) {
    let every = (retention / 4).min(Duration::from_secs(600));
    let mut ticks = tokio::time::interval(every);
    ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        ticks.tick().await;
        let cutoff = idempotency::cutoff(chrono::Utc::now(), retention);
        match idempotency::prune_expired_keys(&db, &cutoff).await {
            Ok(0) => {}
            Ok(deleted) => tracing::info!(deleted, %cutoff, "expired idempotency keys pruned"),
            Err(e) => tracing::error!(error = %e, "idempotency keys not pruned"),
        }
    }
}

/// On a database with no accounts: creates `admin` and shows its one-time
/// password once, on stderr (as a log record when the logs are JSON).
async fn first_admin(
    db: &store::Db,
    key: &crate::domain::common::audit::AuditKey,
    log_format: LogFormat,
) -> Result<(), CliError> {
    let created = store::staff::ensure_first_admin(db, key)
        .await
        .map_err(|e| CliError::Failure(format!("cannot create the first account: {e}")))?;
    if let Some(password) = created {
        let line = format!(
            "pitbook: first start: created user \"admin\" with one-time password {password} \
             — change it at first login"
        );
        match log_format {
            LogFormat::Human => eprintln!("{line}"),
            LogFormat::Json => tracing::warn!(user = "admin", "{line}"),
        }
    }
    Ok(())
}
