//! `pitbook restore BACKUP`: a backup from `pitbook backup` put into an
//! empty database (the same `--database-url` as every command) and
//! migrated forward if it is older than this binary. A database that is
//! not empty, a file that is not a backup, or a schema newer than this
//! binary's is refused with exit 2 before anything is written. It ends by
//! naming the `audit verify` to run and the key that needs.

use std::path::PathBuf;

use clap::Args;

use super::CliError;
use super::backup::{cli_error, configured_key, head_text, origin_name};
use super::store_args::StoreArgs;
use crate::store::audit::key::default_key_path;
use crate::store::{backup, redact};

#[derive(Debug, Args)]
pub struct RestoreArgs {
    /// The backup file: an SQLite database from `pitbook backup` (for an
    /// sqlite: URL) or a pg_dump custom-format archive (for postgres://).
    pub backup: PathBuf,
    #[command(flatten)]
    pub store: StoreArgs,
}

pub fn run(args: RestoreArgs) -> Result<(), CliError> {
    super::runtime()?.block_on(async move {
        let url = &args.store.database_url;
        let restored = backup::restore(&args.backup, url)
            .await
            .map_err(cli_error)?;
        let migrated = match restored.schema.pending {
            0 => String::new(),
            n => format!(
                ", migrated to {} ({n} migration{})",
                restored.version,
                if n == 1 { "" } else { "s" }
            ),
        };
        println!(
            "restored {} into {}: schema version {}{migrated}, audit chain head {}",
            args.backup.display(),
            redact(url),
            restored.schema.version,
            head_text(restored.head.as_ref())
        );
        let anchor = restored
            .head
            .as_ref()
            .map(|h| format!(" --anchor {h}"))
            .unwrap_or_default();
        let with_key = match restored.fingerprint.as_deref() {
            None => "no audit key is registered in it yet".to_string(),
            Some(needed) => match configured_key(&args.store) {
                Ok((key, origin)) if key.fingerprint() == needed => {
                    format!("with {} (fingerprint {needed})", origin_name(&origin))
                }
                Ok((key, origin)) => format!(
                    "with the key of fingerprint {needed}: {} is another ({})",
                    origin_name(&origin),
                    key.fingerprint()
                ),
                Err(_) => {
                    let place = match default_key_path(url) {
                        Some(path) => format!("copy it to {}, or ", path.display()),
                        None => String::new(),
                    };
                    format!(
                        "with the key of fingerprint {needed}, which no backup holds: \
                         {place}name it with --audit-key-file or PITBOOK_AUDIT_KEY"
                    )
                }
            },
        };
        println!(
            "next: pitbook audit verify --database-url {}{anchor} — {with_key}",
            redact(url)
        );
        Ok(())
    })
}
