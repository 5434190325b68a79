//! The database and audit-key settings shared by `serve` and every
//! `pitbook audit …` command.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::domain::common::audit::AuditKey;
use crate::store::audit::key::{KeyOrigin, MissingKey};
use crate::store::{self, Db, StoreError};

#[derive(Debug, Args, Clone)]
pub struct StoreArgs {
    /// `sqlite:FILE` (embedded default) or `postgres://…`.
    #[arg(long, env = "DATABASE_URL", default_value = store::DEFAULT_DATABASE_URL)]
    pub database_url: String,
    /// File holding the audit chain's secret (PITBOOK_AUDIT_KEY, if set, wins).
    #[arg(long, env = "PITBOOK_AUDIT_KEY_FILE")]
    pub audit_key_file: Option<PathBuf>,
}

impl StoreArgs {
    /// Opens the database (migrations applied) with its audit key.
    pub async fn open(&self, missing: MissingKey) -> Result<(Db, AuditKey), CliError> {
        store::backend_of(&self.database_url).map_err(|e| CliError::Failure(e.to_string()))?;
        let env_key = std::env::var("PITBOOK_AUDIT_KEY").ok();
        // The key is resolved before the database is touched, so a PostgreSQL
        // start without one changes nothing; a new key file for the embedded
        // default is created only once the database has opened.
        let configured = env_key.as_deref().is_some_and(|k| !k.trim().is_empty())
            || self.audit_key_file.is_some();
        let create_later = missing == MissingKey::Create
            && !configured
            && store::audit::key::default_key_path(&self.database_url).is_some_and(|p| !p.exists());
        let found = if create_later {
            None
        } else {
            Some(
                store::audit::key::load(
                    &self.database_url,
                    env_key.as_deref(),
                    self.audit_key_file.as_deref(),
                    MissingKey::Refuse,
                )
                .map_err(|e| CliError::Failure(e.to_string()))?,
            )
        };
        let db = Db::open(&self.database_url).await.map_err(|e| match e {
            // A schema this binary cannot migrate is the operator's input to fix.
            StoreError::UnknownSchema(_) => CliError::BadInput(e.to_string()),
            _ => CliError::Failure(e.to_string()),
        })?;
        let (key, origin) = match found {
            Some(found) => found,
            None => store::audit::key::load(&self.database_url, None, None, MissingKey::Create)
                .map_err(|e| CliError::Failure(e.to_string()))?,
        };
        store::audit::key::check_fingerprint(&db, &key)
            .await
            .map_err(|e| CliError::Failure(e.to_string()))?;
        match origin {
            KeyOrigin::Created(path) => tracing::warn!(
                path = %path.display(),
                fingerprint = key.fingerprint(),
                "created a new audit key beside the database; a production install keeps it elsewhere \
                 (PITBOOK_AUDIT_KEY or --audit-key-file) and backs it up apart from the database"
            ),
            KeyOrigin::File(path) => {
                tracing::info!(path = %path.display(), fingerprint = key.fingerprint(), "audit key loaded")
            }
            KeyOrigin::Environment => tracing::info!(
                fingerprint = key.fingerprint(),
                "audit key from PITBOOK_AUDIT_KEY"
            ),
        }
        Ok((db, key))
    }
}
