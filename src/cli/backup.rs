//! `pitbook backup PATH`: a consistent copy of the database while `serve`
//! keeps writing — SQLite's `VACUUM INTO`, or `pg_dump --format=custom`
//! for PostgreSQL (store/backup/). It prints the chain's head the backup
//! holds, an anchor to verify a restore against, and which audit key it
//! needs: the key is never in a backup, and without it a backup cannot be
//! verified (deploy/README.md, "Backups").

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::store_args::StoreArgs;
use crate::domain::common::audit::{Anchor, AuditKey};
use crate::store::StoreError;
use crate::store::audit::key::{self, KeyOrigin, MissingKey};
use crate::store::backup::{self, BackupError};

#[derive(Debug, Args)]
pub struct BackupArgs {
    /// The new backup file (refused if it exists). SQLite: a copy of the
    /// database; PostgreSQL: a pg_dump custom-format archive (pg_dump on PATH).
    pub path: PathBuf,
    #[command(flatten)]
    pub store: StoreArgs,
}

pub fn run(args: BackupArgs) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        let written = backup::backup(&args.store.database_url, &args.path)
            .await
            .map_err(cli_error)?;
        let head = head_text(written.head.as_ref());
        println!(
            "backup written: {} ({}, schema version {}), audit chain head {head}",
            args.path.display(),
            written.backend.name(),
            written.version,
        );
        let custody = match written.fingerprint.as_deref() {
            None => "none is registered in this database yet (its log is empty)".to_string(),
            Some(needed) => match configured_key(&args.store) {
                Ok((key, origin)) if key.fingerprint() == needed => format!(
                    "{} (fingerprint {needed}) is this chain's key",
                    origin_name(&origin)
                ),
                Ok((key, origin)) => format!(
                    "this chain's key has fingerprint {needed}, not {}'s ({})",
                    origin_name(&origin),
                    key.fingerprint()
                ),
                Err(why) => format!(
                    "this chain's key has fingerprint {needed}, and none was found here ({why})"
                ),
            },
        };
        println!(
            "audit key: {custody}; the key is not in the backup: keep a copy of it apart \
             from the backups, or the backup can never be verified"
        );
        Ok(())
    })
}

pub(super) fn cli_error(e: BackupError) -> CliError {
    match e {
        BackupError::Refused(m) => CliError::BadInput(m),
        BackupError::Failed(m) => CliError::Failure(m),
    }
}

/// The key the other commands would use with these settings (never shown:
/// only where it comes from and its fingerprint are printed).
pub(super) fn configured_key(store: &StoreArgs) -> Result<(AuditKey, KeyOrigin), String> {
    let env_key = std::env::var("PITBOOK_AUDIT_KEY").ok();
    key::load(
        &store.database_url,
        env_key.as_deref(),
        store.audit_key_file.as_deref(),
        MissingKey::Refuse,
    )
    .map_err(|e| match e {
        StoreError::AuditKey(why) => why,
        other => other.to_string(),
    })
}

pub(super) fn origin_name(origin: &KeyOrigin) -> String {
    match origin {
        KeyOrigin::Environment => "the key in PITBOOK_AUDIT_KEY".to_string(),
        KeyOrigin::File(path) | KeyOrigin::Created(path) => {
            format!("the key file {}", path.display())
        }
    }
}

/// `SEQ:HASH`, or a word for an empty log.
pub(super) fn head_text(head: Option<&Anchor>) -> String {
    head.map_or_else(
        || "none (the audit log is empty)".to_string(),
        Anchor::to_string,
    )
}
