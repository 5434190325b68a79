//! Hand commands on an SQLite file, run on one blocking thread that owns a
//! rusqlite connection. sqlx runs each SQLite connection on a worker thread
//! and every statement is a round trip to it (two thread switches); a
//! command is several statements, so at the table's pace the server spent
//! more time switching threads than working. Here a whole batch of commands
//! is one hop: the statements are prepared once and run in place. Same
//! library, same file, same `BEGIN IMMEDIATE` lock as every other writer;
//! the rules are the shared [`super::plan`], the writes the shared
//! [`super::pending`]'s, run here through rusqlite.

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior};

use super::pending::Pending;
use super::plan;
use super::{CommandError, CommandResult, HandCache, HandCommand, OpenHands};
use crate::domain::common::audit::{AuditKey, GENESIS_HASH};
use crate::store::StoreError;
use crate::store::audit::{self, Clock};
use crate::store::double_hand_poker::tables::TableColumns;
use crate::store::statement::{Blocking, Value, bind_numbered};

/// How long a write waits for another writer's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the writer refreshes the query planner's statistics between
/// batches (`Db::refresh_planner_stats`; milliseconds at a million hands).
const PLANNER_STATS_EVERY: Duration = Duration::from_secs(3600);

/// The writer's page cache: negative, in KiB (64 MiB).
const WRITER_CACHE_KIB: i64 = -65_536;
/// Prepared statements the writer keeps.
const STATEMENTS_CACHED: usize = 256;

type Reply = Result<(CommandResult, bool), CommandError>;

/// The SQLite hand store as the writer thread holds it.
pub struct SqliteHands {
    conn: Connection,
    key: AuditKey,
    clock: Clock,
    cache: OpenHands,
    /// When the planner's statistics were last refreshed.
    stats_at: Instant,
}

impl From<rusqlite::Error> for CommandError {
    fn from(e: rusqlite::Error) -> Self {
        CommandError::Store(StoreError::from(e))
    }
}

impl SqliteHands {
    /// Opens the database file read-write with the settings every pitbook
    /// connection uses (WAL, synchronous=FULL, foreign keys).
    pub fn open(path: &Path, key: AuditKey, clock: Clock) -> Result<SqliteHands, StoreError> {
        let conn = Connection::open(path)?;
        conn.busy_timeout(BUSY_TIMEOUT)?;
        conn.pragma_update(None, "journal_mode", "wal")?;
        // Every committed write survives power loss: records are evidence.
        conn.pragma_update(None, "synchronous", "full")?;
        conn.pragma_update(None, "foreign_keys", true)?;
        // A statement that writes several rows keeps a statement journal
        // to undo itself: in memory, not a temporary file created, written
        // and deleted for each one.
        conn.pragma_update(None, "temp_store", "memory")?;
        // The indexes a command writes stay in the writer's own cache, not
        // read back from the OS page by page (the default holds 2 MB).
        conn.pragma_update(None, "cache_size", WRITER_CACHE_KIB)?;
        // Each statement prepared once: a batch statement's text varies
        // with its rows (a hand's people, its records).
        conn.set_prepared_statement_cache_capacity(STATEMENTS_CACHED);
        Ok(SqliteHands {
            conn,
            key,
            clock,
            cache: OpenHands::default(),
            stats_at: Instant::now(),
        })
    }

    /// The planner's statistics refreshed when they are an hour old, on
    /// this connection between batches: no other connection's ANALYZE
    /// then holds the write lock against the writer. A failure is logged;
    /// the batch is already committed.
    fn refresh_planner_stats_if_due(&mut self) {
        if self.stats_at.elapsed() < PLANNER_STATS_EVERY {
            return;
        }
        self.stats_at = Instant::now();
        let sql = format!(
            "PRAGMA analysis_limit = {}; PRAGMA optimize = 0x10002;",
            crate::store::PLANNER_SAMPLE_ROWS
        );
        if let Err(e) = self.conn.execute_batch(&sql) {
            tracing::warn!(error = %e, "refreshing the planner's statistics failed");
        }
    }

    /// Runs every command in one transaction (one fsync). A command refused
    /// by the rules writes nothing, so the others go on; a database error
    /// rolls the batch back and each command is run in its own transaction.
    pub fn run_batch(&mut self, batch: &[(Option<&str>, &HandCommand)]) -> Vec<Reply> {
        let replies = self.run_batch_once(batch);
        self.refresh_planner_stats_if_due();
        replies
    }

    fn run_batch_once(&mut self, batch: &[(Option<&str>, &HandCommand)]) -> Vec<Reply> {
        match self.try_batch(batch) {
            Ok(replies) => {
                self.cache.committed();
                replies
            }
            Err(e) => {
                self.cache.rolled_back();
                tracing::warn!(error = %e, commands = batch.len(), "group commit failed; retrying one by one");
                batch
                    .iter()
                    .map(|one| {
                        let reply = self.try_batch(std::slice::from_ref(one));
                        match reply {
                            Ok(mut replies) => {
                                self.cache.committed();
                                replies.pop().unwrap_or_else(|| {
                                    Err(StoreError::Internal("no reply".into()).into())
                                })
                            }
                            Err(e) => {
                                self.cache.rolled_back();
                                Err(CommandError::Store(e))
                            }
                        }
                    })
                    .collect()
            }
        }
    }

    fn try_batch(
        &mut self,
        batch: &[(Option<&str>, &HandCommand)],
    ) -> Result<Vec<Reply>, StoreError> {
        let tx = self
            .conn
            .transaction_with_behavior(TransactionBehavior::Immediate)?;
        let mut head = chain_head(&tx)?;
        let mut replies = Vec::with_capacity(batch.len());
        for (hand_id, command) in batch {
            match execute(
                &tx,
                &self.key,
                &self.clock,
                &mut head,
                *hand_id,
                command,
                &mut self.cache,
            ) {
                // Dropping the transaction rolls it back.
                Err(CommandError::Store(e)) => return Err(e),
                reply => replies.push(reply),
            }
        }
        tx.commit()?;
        Ok(replies)
    }
}

fn chain_head(tx: &Transaction<'_>) -> Result<(i64, String), StoreError> {
    let head = tx
        .prepare_cached(audit::SELECT_HEAD)?
        .query_row([], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    Ok(head.unwrap_or((0, GENESIS_HASH.to_string())))
}

/// One command inside the batch's transaction; `head` is the chain's head,
/// read once per batch (the transaction holds the write lock) and advanced
/// here. Its writes are [`Pending`]'s, the sqlx executor's, flushed at once.
fn execute(
    tx: &Transaction<'_>,
    key: &AuditKey,
    clock: &Clock,
    head: &mut (i64, String),
    hand_id: Option<&str>,
    command: &HandCommand,
    cache: &mut dyn HandCache,
) -> Reply {
    let request_hash = plan::request_hash(hand_id, command)?;
    let stored = query_one(
        tx,
        plan::SELECT_STORED_RESULT,
        &[Value::text(&command.idempotency_key)],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?;
    if let Some(stored) = stored {
        return plan::replay(command, &request_hash, stored);
    }
    let prior = match hand_id {
        None => {
            let name = plan::table_to_open(command)?;
            let table = query_one(
                tx,
                plan::SELECT_TABLE_AT_OPEN,
                &[Value::text(&name)],
                table_row,
            )?
            .map(|(columns, shift)| columns.into_config().map(|c| (c, shift)))
            .transpose()?;
            plan::new_hand(command, &name, table)?
        }
        Some(id) => {
            let stored: Option<i64> =
                query_one(tx, plan::SELECT_HAND_VERSION, &[Value::text(id)], |r| {
                    r.get(0)
                })?;
            let version = plan::check_version(id, command, stored.map(|v| v as u64))?;
            match cache.take(id, version) {
                Some(prior) => prior,
                None => plan::existing_hand(id, &hand_payloads(tx, id)?)?,
            }
        }
    };
    let planned = plan::plan(prior, command)?;
    let written = audit::chain(
        key,
        head.0,
        head.1.clone(),
        &clock.now_text(),
        &planned.records,
    );
    if let Some(last) = written.last() {
        *head = (last.seq, last.hash.clone());
    }
    let write = planned.hand_write(&written, command.expected_version)?;
    let (result, body) = planned.result(&written)?;
    let mut pending = Pending::default();
    pending.add(
        written,
        write,
        (&command.idempotency_key, &request_hash, &body),
    );
    Blocking::run(pending.flush(&mut Blocking(tx)))?;
    cache.keep(planned);
    Ok((result, false))
}

/// The first row `sql` gives with `values` bound, read by `row`.
fn query_one<T>(
    tx: &Transaction<'_>,
    sql: &str,
    values: &[Value<'_>],
    row: impl FnOnce(&rusqlite::Row<'_>) -> rusqlite::Result<T>,
) -> Result<Option<T>, StoreError> {
    let mut statement = tx.prepare_cached(sql)?;
    bind_numbered(&mut statement, values)?;
    let mut rows = statement.raw_query();
    Ok(rows.next()?.map(row).transpose()?)
}

/// [`plan::SELECT_TABLE_AT_OPEN`]'s row.
fn table_row(r: &rusqlite::Row<'_>) -> rusqlite::Result<(TableColumns, plan::ShiftAtOpen)> {
    Ok((
        TableColumns {
            name: r.get(0)?,
            game: r.get(1)?,
            profile: r.get(2)?,
            options: r.get(3)?,
            seats: r.get(4)?,
            player_schedule: r.get(5)?,
            bank_schedule: r.get(6)?,
            wager_min: r.get(7)?,
            wager_max: r.get(8)?,
            training: r.get(9)?,
        },
        plan::ShiftAtOpen {
            covering: r.get(10)?,
            required: r.get(11)?,
            tppps: r.get(12)?,
        },
    ))
}

fn hand_payloads(tx: &Transaction<'_>, id: &str) -> Result<Vec<String>, StoreError> {
    let mut statement = tx.prepare_cached(plan::SELECT_HAND_EVENTS)?;
    bind_numbered(&mut statement, &[Value::text(id)])?;
    let mut rows = statement.raw_query();
    let mut payloads = Vec::new();
    while let Some(row) = rows.next()? {
        payloads.push(row.get(0)?);
    }
    Ok(payloads)
}
