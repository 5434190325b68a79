//! `pitbook serve`: open the database (migrations applied) and the audit key,
//! bind, serve until SIGINT/SIGTERM.

use std::net::SocketAddr;

use clap::Args;

use super::CliError;
use super::store_args::StoreArgs;
use crate::store::{self, audit_key::MissingKey};
use crate::telemetry::LogFormat;
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
}

pub fn run(args: ServeArgs, log_format: LogFormat) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        let (db, audit_key) = args.store.open(MissingKey::Create).await?;
        first_admin(&db, &audit_key, log_format).await?;
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .map_err(|e| CliError::Failure(format!("cannot listen on {}: {e}", args.bind)))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::Failure(e.to_string()))?;
        tracing::info!(
            address = %local,
            database = %store::redact(&args.store.database_url),
            backend = db.backend().name(),
            "pitbook listening"
        );
        let state = AppState::new(db.clone(), audit_key.clone())
            .map_err(|e| CliError::Failure(format!("starting the hand writer: {e}")))?
            .with_trusted_proxies(args.trusted_proxy);
        let login_guard = state.login_guard.clone();
        let result = web::serve(listener, state, web::shutdown_signal()).await;
        // The login failures of windows still open are recorded before exit.
        if let Err(e) = login_guard.flush(&db, &audit_key).await {
            tracing::error!(error = %e, "cannot write the login_failures records at shutdown");
        }
        db.close().await;
        result.map_err(|e| CliError::Failure(format!("server error: {e}")))
    })
}

/// On a database with no accounts: creates `admin` and shows its one-time
/// password once, on stderr (as a log record when the logs are JSON).
async fn first_admin(
    db: &store::Db,
    key: &crate::domain::audit::AuditKey,
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
