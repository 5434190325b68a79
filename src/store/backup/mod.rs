//! `pitbook backup` and `pitbook restore`: a copy of the database taken
//! while it serves, and that copy put into an empty database and migrated
//! forward. SQLite's through `VACUUM INTO` (`sqlite.rs`), PostgreSQL's
//! through `pg_dump`/`pg_restore` (`postgres.rs`). Every refusal is decided
//! before anything is written, so a refused restore changes nothing.
//! The audit key is never part of a backup (deploy/README.md, "Backups").

mod postgres;
mod sqlite;

use std::path::{Path, PathBuf};

use crate::domain::common::audit::Anchor;
use crate::domain::common::backup::{Applied, FileKind, Known, Schema, check_schema};
use crate::store::{Backend, Db, StoreError, backend_of, migrator, verify};

/// The migrations table's rows, oldest first: version, checksum, success.
const APPLIED_SQL: &str =
    "SELECT version, checksum, success FROM _sqlx_migrations ORDER BY version";

/// The migrations table's rows when the table `exists` (None when not):
/// `read` runs [`APPLIED_SQL`], and is awaited only then.
async fn applied_if(
    exists: bool,
    read: impl Future<Output = Result<Vec<(i64, Vec<u8>, bool)>, sqlx::Error>>,
) -> Result<Option<Vec<Applied>>, BackupError> {
    if !exists {
        return Ok(None);
    }
    let rows = read.await.map_err(|e| BackupError::Failed(e.to_string()))?;
    Ok(Some(
        rows.into_iter()
            .map(|(version, checksum, success)| Applied {
                version,
                checksum,
                success,
            })
            .collect(),
    ))
}

/// Why a backup or a restore did not happen.
#[derive(Debug, thiserror::Error)]
pub enum BackupError {
    /// The input can never work as given (exit 2); nothing was changed.
    #[error("{0}")]
    Refused(String),
    /// The environment failed (database, file, pg_dump): exit 1.
    #[error("{0}")]
    Failed(String),
}

impl From<StoreError> for BackupError {
    fn from(e: StoreError) -> Self {
        BackupError::Failed(e.to_string())
    }
}

/// A backup written.
#[derive(Debug)]
pub struct Written {
    pub backend: Backend,
    /// The backup's schema version (its newest migration).
    pub version: i64,
    /// The chain's head the backup holds: an anchor for its restore.
    pub head: Option<Anchor>,
    /// The fingerprint of the key the chain was written with.
    pub fingerprint: Option<String>,
}

/// A backup restored.
#[derive(Debug)]
pub struct Restored {
    pub backend: Backend,
    /// The backup's schema, before the migrations this binary ran.
    pub schema: Schema,
    /// The schema version after them.
    pub version: i64,
    pub head: Option<Anchor>,
    pub fingerprint: Option<String>,
}

/// Backs the database of `url` up into the new file `path`.
pub async fn backup(url: &str, path: &Path) -> Result<Written, BackupError> {
    let backend = backend_of(url)?;
    if path.exists() {
        return Err(BackupError::Refused(format!(
            "{} already exists: a backup goes into a new file",
            path.display()
        )));
    }
    match backend {
        Backend::Sqlite => sqlite::backup(url, path).await,
        Backend::Postgres => postgres::backup(url, path).await,
    }
}

/// Restores the backup file `backup` into the empty database of `url`.
pub async fn restore(backup: &Path, url: &str) -> Result<Restored, BackupError> {
    let backend = backend_of(url)?;
    let kind = file_kind(backup)?;
    match (backend, kind) {
        (Backend::Sqlite, FileKind::Sqlite) => sqlite::restore(backup, url).await,
        (Backend::Postgres, FileKind::PgDump) => postgres::restore(backup, url).await,
        (Backend::Sqlite, FileKind::PgDump) => Err(BackupError::Refused(format!(
            "{} is a pg_dump archive: restore it into a PostgreSQL database (--database-url postgres://…)",
            backup.display()
        ))),
        (Backend::Postgres, FileKind::Sqlite) => Err(BackupError::Refused(format!(
            "{} is an SQLite database: restore it into an SQLite one (--database-url sqlite:FILE)",
            backup.display()
        ))),
        (_, FileKind::Other) => Err(BackupError::Refused(format!(
            "{} is not a pitbook backup (neither an SQLite database nor a pg_dump custom-format archive)",
            backup.display()
        ))),
    }
}

/// What the file's first bytes say it is; a missing or unreadable file is
/// refused.
fn file_kind(path: &Path) -> Result<FileKind, BackupError> {
    use std::io::Read;
    let refused = |e: std::io::Error| {
        BackupError::Refused(format!("cannot read backup {}: {e}", path.display()))
    };
    let mut header = Vec::with_capacity(16);
    std::fs::File::open(path)
        .and_then(|f| f.take(16).read_to_end(&mut header))
        .map_err(refused)?;
    Ok(FileKind::of(&header))
}

/// Refuses `applied` unless this binary's migrations can bring it forward.
fn schema_of(backend: Backend, applied: &[Applied], what: &Path) -> Result<Schema, BackupError> {
    let migrator = migrator(backend);
    let known: Vec<Known<'_>> = migrator
        .migrations
        .iter()
        .map(|m| Known {
            version: m.version,
            checksum: &m.checksum,
        })
        .collect();
    check_schema(applied, &known).map_err(|problem| {
        BackupError::Refused(format!(
            "{} is not a backup this pitbook can restore: {problem}",
            what.display()
        ))
    })
}

/// The schema version this binary migrates a database to.
fn newest_version(backend: Backend) -> i64 {
    let migrator = migrator(backend);
    migrator
        .migrations
        .iter()
        .map(|m| m.version)
        .max()
        .unwrap_or(0)
}

/// The chain's head and its key's fingerprint, read from a pitbook database.
async fn chain_of(db: &Db) -> Result<(Option<Anchor>, Option<String>), BackupError> {
    let head = verify::anchor(db).await?;
    let fingerprint = crate::store::audit::key::stored_fingerprint(db).await?;
    Ok((head, fingerprint))
}

/// Forces a file written by another process (SQLite's `VACUUM INTO`,
/// `pg_dump`) and its directory entry to disk: a backup is evidence too.
fn sync_file(path: &Path) -> Result<(), BackupError> {
    let failed = |e: std::io::Error| BackupError::Failed(format!("{}: {e}", path.display()));
    std::fs::File::open(path)
        .and_then(|f| f.sync_all())
        .map_err(failed)?;
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    // A directory cannot be opened for syncing everywhere: best effort.
    if let Ok(d) = std::fs::File::open(&dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// Removes a file this command began writing and could not finish.
fn remove_partial(path: &Path) {
    let _ = std::fs::remove_file(path);
}
