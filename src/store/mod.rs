//! The storage shell: one `Db` over SQLite (embedded default) or PostgreSQL.
//! Queries are runtime-checked (`query`/`query_as`), so building never needs
//! a live database; each backend has its own migrations under `migrations/`.

#[macro_use]
mod macros;
pub mod audit;
pub mod backup;
pub mod dice_games;
pub mod double_hand_poker;
pub mod history;
pub mod kept_games;
pub mod shifts;
pub mod staff;
pub(crate) mod statement;
pub mod training;
pub mod tripoley;
pub mod verify;
pub mod write_error;

use std::str::FromStr;
use std::time::Duration;

use sqlx::postgres::{PgConnectOptions, PgPool};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePool, SqliteSynchronous};

/// The embedded default: a file in the working directory.
pub const DEFAULT_DATABASE_URL: &str = "sqlite:pitbook.db";

const POOL_CONNECTIONS_MAX: u32 = 16;
const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// The rows SQLite samples per index when it refreshes its statistics.
pub(crate) const PLANNER_SAMPLE_ROWS: u32 = 1000;

/// Either backend's pool, sized and timed alike; `shown_url` is the URL as
/// an error may show it (PostgreSQL's without its password).
async fn open_pool<DB: sqlx::Database>(
    options: <DB::Connection as sqlx::Connection>::Options,
    shown_url: String,
) -> Result<sqlx::Pool<DB>, StoreError> {
    sqlx::pool::PoolOptions::<DB>::new()
        .max_connections(POOL_CONNECTIONS_MAX)
        .acquire_timeout(ACQUIRE_TIMEOUT)
        .connect_with(options)
        .await
        .map_err(|source| StoreError::Unreachable {
            url: shown_url,
            source,
        })
}

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("DATABASE_URL: {0}")]
    Url(String),
    /// `url` has its password hidden ([`redact`]).
    #[error("database unreachable: {url}: {source}")]
    Unreachable {
        url: String,
        #[source]
        source: sqlx::Error,
    },
    #[error("database migration failed: {0}")]
    Migration(#[source] sqlx::migrate::MigrateError),
    /// The database's schema is not one this binary can migrate (a newer
    /// pitbook's, or a modified migration); nothing was changed.
    #[error("{0}")]
    UnknownSchema(String),
    #[error("database error: {0}")]
    Query(#[from] sqlx::Error),
    /// From the connections pitbook drives through rusqlite (the SQLite
    /// hand writer, the log reader).
    #[error("database error: {0}")]
    Sqlite(#[from] rusqlite::Error),
    #[error("audit key: {0}")]
    AuditKey(String),
    /// A stored row whose JSON no longer reads (`what` names the row).
    #[error("internal error: {what}: {source}")]
    StoredJson {
        what: &'static str,
        #[source]
        source: serde_json::Error,
    },
    /// JSON pitbook wrote itself that does not read back.
    #[error("internal error: {0}")]
    Json(#[source] serde_json::Error),
    #[error("internal error: {0}")]
    Internal(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }
}

#[derive(Debug, Clone)]
pub enum Db {
    Sqlite(SqlitePool),
    Postgres(PgPool),
}

impl Db {
    pub fn backend(&self) -> Backend {
        match self {
            Db::Sqlite(_) => Backend::Sqlite,
            Db::Postgres(_) => Backend::Postgres,
        }
    }

    /// Connects and applies the backend's migrations.
    pub async fn open(url: &str) -> Result<Db, StoreError> {
        let db = Db::connect(url).await?;
        db.migrate().await?;
        // The house ways supervisors loaded, so the tables naming them play.
        double_hand_poker::house_ways::hold_stored(&db).await?;
        Ok(db)
    }

    pub async fn connect(url: &str) -> Result<Db, StoreError> {
        if backend_of(url)? == Backend::Sqlite {
            let options = SqliteConnectOptions::from_str(url)
                .map_err(|e| StoreError::Url(format!("\"{url}\": {e}")))?
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
                // Every committed write survives power loss: records are evidence.
                .synchronous(SqliteSynchronous::Full)
                .foreign_keys(true)
                // No `optimize_on_close`: a pooled connection's ANALYZE
                // while the hand writer wrote held the write lock past the
                // writer's busy timeout (hands refused as "database is
                // locked" at half a million hands); the writer refreshes
                // the statistics itself (`sqlite_writer.rs`).
                .busy_timeout(ACQUIRE_TIMEOUT);
            Ok(Db::Sqlite(open_pool(options, url.to_string()).await?))
        } else {
            let options = PgConnectOptions::from_str(url)
                .map_err(|e| StoreError::Url(format!("\"{}\": {e}", redact(url))))?
                // pitbook's statements are short: compiling one costs more
                // than it saves (the shift report's players, 420 ms with
                // JIT, 180 without; BENCHMARKS.md, "Shift report").
                .options([("jit", "off")]);
            Ok(Db::Postgres(open_pool(options, redact(url)).await?))
        }
    }

    pub async fn migrate(&self) -> Result<(), StoreError> {
        let migrator = migrator(self.backend());
        let result = match self {
            Db::Sqlite(pool) => migrator.run(pool).await,
            Db::Postgres(pool) => migrator.run(pool).await,
        };
        result.map_err(schema_error)?;
        // Hands recorded before the search's projection get it now.
        let filled = history::backfill::run(self).await?;
        if filled > 0 {
            tracing::info!(hands = filled, "hand search filled for earlier hands");
        }
        if let Db::Sqlite(_) = self {
            self.refresh_planner_stats().await?;
        }
        Ok(())
    }

    /// The query planner's statistics brought up to date. SQLite has none
    /// until asked, and without them it reads a name's hands by walking a
    /// table's (1.4 s at a million hands, 20 ms with them): `PRAGMA
    /// optimize` analyzes the tables that grew, each from a sample
    /// (`analysis_limit`), in milliseconds; it runs when the store opens
    /// and every hour on the hand writer's own connection, between its
    /// batches, so it never waits for the writer's lock nor holds it
    /// against the writer (`sqlite_writer.rs`). PostgreSQL's autovacuum keeps
    /// its own (and the visibility map the search's index-only reads need,
    /// migration 0026); `VACUUM (ANALYZE)` here is for a bulk load
    /// (`pitbook bench`), as autovacuum would leave the tables by the time
    /// a room had written that many hands.
    pub async fn refresh_planner_stats(&self) -> Result<(), StoreError> {
        match self {
            Db::Sqlite(pool) => {
                let mut conn = pool.acquire().await?;
                sqlx::query(&format!("PRAGMA analysis_limit = {PLANNER_SAMPLE_ROWS}"))
                    .execute(&mut *conn)
                    .await?;
                sqlx::query("PRAGMA optimize = 0x10002")
                    .execute(&mut *conn)
                    .await?;
            }
            Db::Postgres(pool) => {
                sqlx::query(
                    "VACUUM (ANALYZE) hands, hand_people, hand_days, hand_dealer_days, hand_amounts, \
                     person_names",
                )
                .execute(pool)
                .await?;
            }
        }
        Ok(())
    }

    /// Readiness: the database answers a query.
    pub async fn ping(&self) -> Result<(), StoreError> {
        match self {
            Db::Sqlite(pool) => sqlx::query("SELECT 1").execute(pool).await.map(drop)?,
            Db::Postgres(pool) => sqlx::query("SELECT 1").execute(pool).await.map(drop)?,
        }
        Ok(())
    }

    pub async fn close(&self) {
        match self {
            Db::Sqlite(pool) => pool.close().await,
            Db::Postgres(pool) => pool.close().await,
        }
    }
}

/// A schema this binary cannot migrate, said for the operator. sqlx finds
/// an unknown version before it applies anything, and a modified one before
/// the migrations after it, so both leave the database as it was.
fn schema_error(e: sqlx::migrate::MigrateError) -> StoreError {
    use sqlx::migrate::MigrateError;
    match e {
        MigrateError::VersionMissing(v) => StoreError::UnknownSchema(format!(
            "the database's schema has migration {v}, which this pitbook does not know \
             (a newer pitbook, or another program, wrote it): run the pitbook that wrote it, \
             or a later one; nothing was changed"
        )),
        MigrateError::VersionMismatch(v) => StoreError::UnknownSchema(format!(
            "the database's migration {v} differs from this pitbook's (a different build's \
             schema): run the pitbook that wrote it; nothing was changed"
        )),
        other => StoreError::Migration(other),
    }
}

/// The backend's migrations, embedded: what `migrate` applies and what a
/// backup's schema is checked against (`backup.rs`).
pub fn migrator(backend: Backend) -> sqlx::migrate::Migrator {
    match backend {
        Backend::Sqlite => sqlx::migrate!("./migrations/sqlite"),
        Backend::Postgres => sqlx::migrate!("./migrations/postgres"),
    }
}

/// A write transaction holding the audit chain's lock: SQLite `BEGIN
/// IMMEDIATE` (one writer at a time), PostgreSQL a transaction-scoped
/// advisory lock (one writer across every app instance).
pub enum WriteTx {
    Sqlite(sqlx::Transaction<'static, sqlx::Sqlite>),
    Postgres(sqlx::Transaction<'static, sqlx::Postgres>),
}

/// The advisory lock id that serializes appends to the audit chain.
const CHAIN_LOCK_ID: i64 = 0x7069_7462_6f6f_6b01;

pub async fn begin_write(db: &Db) -> Result<WriteTx, StoreError> {
    match db {
        Db::Sqlite(pool) => Ok(WriteTx::Sqlite(pool.begin_with("BEGIN IMMEDIATE").await?)),
        Db::Postgres(pool) => {
            let mut tx = pool.begin().await?;
            sqlx::query("SELECT pg_advisory_xact_lock($1)")
                .bind(CHAIN_LOCK_ID)
                .execute(&mut *tx)
                .await?;
            Ok(WriteTx::Postgres(tx))
        }
    }
}

impl WriteTx {
    pub fn backend(&self) -> Backend {
        match self {
            WriteTx::Sqlite(_) => Backend::Sqlite,
            WriteTx::Postgres(_) => Backend::Postgres,
        }
    }

    pub async fn commit(self) -> Result<(), StoreError> {
        match self {
            WriteTx::Sqlite(tx) => tx.commit().await?,
            WriteTx::Postgres(tx) => tx.commit().await?,
        }
        Ok(())
    }
}

/// Which backend a database URL names, without connecting.
pub fn backend_of(url: &str) -> Result<Backend, StoreError> {
    if url.starts_with("sqlite:") {
        Ok(Backend::Sqlite)
    } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        Ok(Backend::Postgres)
    } else {
        Err(StoreError::Url(format!(
            "\"{}\" is neither sqlite:… nor postgres://…",
            redact(url)
        )))
    }
}

/// Hides a password in a database URL before it reaches a log or a message.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            let userinfo = &url[scheme_end + 3..at];
            match userinfo.split_once(':') {
                Some((user, _)) => format!("{}{user}:***{}", &url[..scheme_end + 3], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

/// The file behind an SQLite pool; None for PostgreSQL and in-memory
/// databases (another connection would not see them).
pub(crate) fn sqlite_file(db: &Db) -> Option<std::path::PathBuf> {
    let Db::Sqlite(pool) = db else { return None };
    let path = pool.connect_options().get_filename().to_path_buf();
    let name = path.to_string_lossy();
    let in_memory = name.is_empty() || name.contains(":memory:");
    (!in_memory).then_some(path)
}

#[cfg(test)]
mod tests {
    use super::redact;

    #[test]
    fn redacts_passwords_only() {
        assert_eq!(redact("postgres://u:secret@h/db"), "postgres://u:***@h/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("sqlite:pitbook.db"), "sqlite:pitbook.db");
    }
}
