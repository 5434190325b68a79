//! `pitbook serve`: open the database (migrations applied), bind, serve until
//! SIGINT/SIGTERM.

use std::net::SocketAddr;

use clap::Args;

use super::CliError;
use crate::store::{self, Db};
use crate::web::{self, AppState};

#[derive(Debug, Args)]
pub struct ServeArgs {
    #[command(flatten)]
    pub database: DatabaseArgs,
    /// Address to listen on.
    #[arg(long, env = "PITBOOK_BIND", default_value = "127.0.0.1:8080")]
    pub bind: SocketAddr,
}

/// Database settings shared by every command that opens the store.
#[derive(Debug, Args, Clone)]
pub struct DatabaseArgs {
    /// `sqlite:FILE` (embedded default) or `postgres://…`.
    #[arg(long, env = "DATABASE_URL", default_value = store::DEFAULT_DATABASE_URL)]
    pub database_url: String,
}

pub fn run(args: ServeArgs) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        let db = Db::open(&args.database.database_url)
            .await
            .map_err(|e| CliError::Failure(e.to_string()))?;
        let listener = tokio::net::TcpListener::bind(args.bind)
            .await
            .map_err(|e| CliError::Failure(format!("cannot listen on {}: {e}", args.bind)))?;
        let local = listener
            .local_addr()
            .map_err(|e| CliError::Failure(e.to_string()))?;
        tracing::info!(
            address = %local,
            database = %store::redact(&args.database.database_url),
            backend = db.backend().name(),
            "pitbook listening"
        );
        let result = web::serve(
            listener,
            AppState { db: db.clone() },
            web::shutdown_signal(),
        )
        .await;
        db.close().await;
        result.map_err(|e| CliError::Failure(format!("server error: {e}")))
    })
}
