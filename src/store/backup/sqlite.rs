//! SQLite: `VACUUM INTO` a new file, read-only on the live database. It
//! copies one read transaction's snapshot, so the copy is consistent while
//! `serve` keeps writing (WAL: the writer is never blocked). A restore is the
//! same statement from the backup into the target, then the migrations.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::time::Duration;

use sqlx::sqlite::{SqliteConnectOptions, SqlitePool, SqlitePoolOptions};

use super::{
    APPLIED_SQL, BackupError, Restored, Written, applied_if, chain_of, remove_partial, schema_of,
    sync_file,
};
use crate::domain::common::backup::Applied;
use crate::store::{Backend, Db};

/// How long a read waits for a writer's lock (the live database).
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);

pub(super) async fn backup(url: &str, path: &Path) -> Result<Written, BackupError> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| BackupError::Refused(format!("DATABASE_URL: \"{url}\": {e}")))?;
    let file = database_file(&options)?;
    if !file.is_file() {
        return Err(BackupError::Refused(format!(
            "no database at {}",
            file.display()
        )));
    }
    let live = read_only(options).await?;
    if applied(&live).await?.is_none() {
        live.close().await;
        return Err(BackupError::Refused(format!(
            "{} is not a pitbook database (no migrations table)",
            file.display()
        )));
    }
    let copied = vacuum_into(&live, path).await;
    live.close().await;
    copied?;
    sync_file(path)?;
    // The head and key as the backup itself holds them.
    let copy = read_only(SqliteConnectOptions::new().filename(path)).await?;
    let version = applied(&copy).await?.unwrap_or_default();
    let (head, fingerprint) = chain_of(&Db::Sqlite(copy.clone())).await?;
    copy.close().await;
    Ok(Written {
        backend: Backend::Sqlite,
        version: version.iter().map(|a| a.version).max().unwrap_or(0),
        head,
        fingerprint,
    })
}

pub(super) async fn restore(backup: &Path, url: &str) -> Result<Restored, BackupError> {
    let options = SqliteConnectOptions::from_str(url)
        .map_err(|e| BackupError::Refused(format!("DATABASE_URL: \"{url}\": {e}")))?;
    let target = database_file(&options)?;
    let unreadable =
        |e: sqlx::Error| BackupError::Refused(format!("cannot read {}: {e}", backup.display()));
    let source = read_only(SqliteConnectOptions::new().filename(backup)).await?;
    let checked = async {
        let applied = applied(&source).await.map_err(|e| match e {
            BackupError::Failed(m) => BackupError::Refused(format!(
                "{} is not a readable SQLite database: {m}",
                backup.display()
            )),
            refused => refused,
        })?;
        let applied = applied.ok_or_else(|| {
            BackupError::Refused(format!(
                "{} is not a pitbook backup (an SQLite database without pitbook's migrations table)",
                backup.display()
            ))
        })?;
        let schema = schema_of(Backend::Sqlite, &applied, backup)?;
        // The whole file read once: a damaged backup is refused here, not
        // found half-restored.
        let integrity: String = sqlx::query_scalar("PRAGMA quick_check")
            .fetch_one(&source)
            .await
            .map_err(unreadable)?;
        if integrity != "ok" {
            return Err(BackupError::Refused(format!(
                "{} is damaged: {integrity}",
                backup.display()
            )));
        }
        ensure_empty(&target).await?;
        Ok(schema)
    }
    .await;
    let schema = match checked {
        Ok(schema) => schema,
        Err(e) => {
            source.close().await;
            return Err(e);
        }
    };
    // An empty target (no table) is replaced, with any journal beside it:
    // SQLite would apply a stale WAL to the new file.
    for stale in sidecars(&target).iter().chain([&target]) {
        if stale.exists() {
            std::fs::remove_file(stale).map_err(|e| {
                BackupError::Failed(format!("cannot replace {}: {e}", stale.display()))
            })?;
        }
    }
    let copied = vacuum_into(&source, &target).await;
    source.close().await;
    copied?;
    sync_file(&target)?;
    let db = match Db::open(url).await {
        Ok(db) => db,
        Err(e) => {
            for file in sidecars(&target).iter().chain([&target]) {
                remove_partial(file);
            }
            return Err(BackupError::Failed(format!(
                "the backup was copied but migrating it failed, so the copy was removed: {e}"
            )));
        }
    };
    let (head, fingerprint) = chain_of(&db).await?;
    db.close().await;
    Ok(Restored {
        backend: Backend::Sqlite,
        schema,
        version: super::newest_version(Backend::Sqlite),
        head,
        fingerprint,
    })
}

/// The file an `sqlite:` URL names; an in-memory database has none.
fn database_file(options: &SqliteConnectOptions) -> Result<PathBuf, BackupError> {
    let file = options.get_filename().to_path_buf();
    let name = file.to_string_lossy();
    if name.is_empty() || name.contains(":memory:") {
        return Err(BackupError::Refused(
            "an in-memory database cannot be backed up or restored: name a file (sqlite:FILE)"
                .into(),
        ));
    }
    Ok(file)
}

/// One read-only connection: nothing here ever writes a database it reads,
/// nor creates a missing one.
async fn read_only(options: SqliteConnectOptions) -> Result<SqlitePool, BackupError> {
    let name = options.get_filename().display().to_string();
    SqlitePoolOptions::new()
        .max_connections(1)
        .connect_with(
            options
                .read_only(true)
                .create_if_missing(false)
                .busy_timeout(BUSY_TIMEOUT),
        )
        .await
        .map_err(|e| BackupError::Failed(format!("cannot open {name}: {e}")))
}

/// The migrations table's rows; None when the database has no such table.
async fn applied(pool: &SqlitePool) -> Result<Option<Vec<Applied>>, BackupError> {
    let failed = |e: sqlx::Error| BackupError::Failed(e.to_string());
    let tables: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM sqlite_master WHERE type = 'table' AND name = '_sqlx_migrations'",
    )
    .fetch_one(pool)
    .await
    .map_err(failed)?;
    applied_if(tables > 0, sqlx::query_as(APPLIED_SQL).fetch_all(pool)).await
}

/// Refuses a target that holds anything: a missing file, an empty one or
/// an SQLite database without a table is empty.
async fn ensure_empty(target: &Path) -> Result<(), BackupError> {
    let not_empty = |why: String| {
        BackupError::Refused(format!(
            "{} is not an empty database ({why}): restore into a new file",
            target.display()
        ))
    };
    match std::fs::metadata(target) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(not_empty(e.to_string())),
        Ok(m) if m.is_dir() => return Err(not_empty("a directory".into())),
        Ok(m) if m.len() == 0 && !sidecars(target)[0].exists() => return Ok(()),
        Ok(_) => {}
    }
    let pool = read_only(SqliteConnectOptions::new().filename(target)).await?;
    let tables =
        sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM sqlite_master WHERE type = 'table'")
            .fetch_one(&pool)
            .await;
    pool.close().await;
    match tables {
        Ok(0) => Ok(()),
        Ok(n) => Err(BackupError::Refused(format!(
            "{} is not empty (it has {n} tables): restore into a new file",
            target.display()
        ))),
        Err(e) => Err(not_empty(format!("not an SQLite database: {e}"))),
    }
}

/// SQLite's files beside a database: its WAL, shared memory and journal.
fn sidecars(file: &Path) -> [PathBuf; 3] {
    let name = file.as_os_str();
    ["-wal", "-shm", "-journal"].map(|suffix| {
        let mut with = name.to_os_string();
        with.push(suffix);
        PathBuf::from(with)
    })
}

/// `VACUUM INTO path` on `pool`'s database; a file left half-written is
/// removed.
async fn vacuum_into(pool: &SqlitePool, path: &Path) -> Result<(), BackupError> {
    let text = path.to_str().ok_or_else(|| {
        BackupError::Refused(format!("{}: the path is not UTF-8", path.display()))
    })?;
    let result = sqlx::query("VACUUM INTO $1").bind(text).execute(pool).await;
    result.map(drop).map_err(|e| {
        remove_partial(path);
        BackupError::Failed(format!("cannot write {}: {e}", path.display()))
    })
}
