//! Hand commands on an SQLite file, run on one blocking thread that owns a
//! rusqlite connection. sqlx runs each SQLite connection on a worker thread
//! and every statement is a round trip to it (two thread switches); a
//! command is several statements, so at the table's pace the server spent
//! more time switching threads than working. Here a whole batch of commands
//! is one hop: the statements are prepared once and run in place. Same
//! library, same file, same `BEGIN IMMEDIATE` lock as every other writer;
//! the rules are the shared [`super::plan`].

use std::path::Path;
use std::time::{Duration, Instant};

use rusqlite::{Connection, OptionalExtension, Transaction, TransactionBehavior, params};

use super::plan::{self, Planned, Projection};
use super::{CommandError, CommandResult, HandCache, HandCommand, OpenHands};
use crate::domain::common::audit::{AuditKey, GENESIS_HASH};
use crate::store::audit::{self, AuditRecord, Clock};
use crate::store::history::projection::HandSearch;
use crate::store::{StoreError, positional};

/// How long a write waits for another writer's lock before failing.
const BUSY_TIMEOUT: Duration = Duration::from_secs(5);
/// How often the writer refreshes the query planner's statistics between
/// batches (`Db::refresh_planner_stats`; milliseconds at a million hands).
const PLANNER_STATS_EVERY: Duration = Duration::from_secs(3600);

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
/// here.
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
    let stored = tx
        .prepare_cached(&positional(plan::SELECT_STORED_RESULT))?
        .query_row([&command.idempotency_key], |r| Ok((r.get(0)?, r.get(1)?)))
        .optional()?;
    if let Some(stored) = stored {
        return plan::replay(command, &request_hash, stored);
    }
    let prior = match hand_id {
        None => {
            let name = plan::table_to_open(command)?;
            let table = tx
                .prepare_cached(&positional(&plan::select_table()))?
                .query_row([&name], |r| {
                    let shift = plan::ShiftAtOpen {
                        covering: r.get(10)?,
                        required: r.get(11)?,
                        tppps: r.get(12)?,
                    };
                    Ok((
                        crate::store::double_hand_poker::tables::TableColumns {
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
                        shift,
                    ))
                })
                .optional()?
                .map(|(columns, shift)| columns.into_config().map(|c| (c, shift)))
                .transpose()?;
            plan::new_hand(command, &name, table)?
        }
        Some(id) => {
            let stored: Option<i64> = tx
                .prepare_cached(&positional(plan::SELECT_HAND_VERSION))?
                .query_row([id], |r| r.get(0))
                .optional()?;
            let version = plan::check_version(id, command, stored.map(|v| v as u64))?;
            match cache.take(id, version) {
                Some(prior) => prior,
                None => plan::existing_hand(id, &hand_payloads(tx, id)?)?,
            }
        }
    };
    let planned = plan::plan(prior, command)?;
    let written = append(tx, key, &clock.now_text(), head, &planned)?;
    let projection = planned.projection(&written)?;
    write_projection(tx, &planned, command.expected_version, &projection)?;
    let (result, body) = planned.result(&written)?;
    tx.prepare_cached(&positional(plan::INSERT_RESULT))?
        .execute(params![
            command.idempotency_key,
            request_hash,
            body,
            projection.now
        ])?;
    cache.keep(planned);
    Ok((result, false))
}

fn hand_payloads(tx: &Transaction<'_>, id: &str) -> Result<Vec<String>, StoreError> {
    let mut statement = tx.prepare_cached(&positional(plan::SELECT_HAND_EVENTS))?;
    let rows = statement.query_map([id], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn append(
    tx: &Transaction<'_>,
    key: &AuditKey,
    recorded_at: &str,
    head: &mut (i64, String),
    planned: &Planned,
) -> Result<Vec<AuditRecord>, StoreError> {
    let written = audit::chain(key, head.0, head.1.clone(), recorded_at, &planned.records);
    let mut insert = tx.prepare_cached(audit::INSERT_ONE_RECORD_SQLITE)?;
    for r in &written {
        insert.execute(params![
            r.seq,
            r.recorded_at,
            r.actor,
            r.table_id,
            r.hand_id,
            r.event_type,
            r.payload,
            r.prev_hash,
            r.hash
        ])?;
    }
    if let Some(last) = written.last() {
        *head = (last.seq, last.hash.clone());
    }
    Ok(written)
}

fn write_projection(
    tx: &Transaction<'_>,
    planned: &Planned,
    expected_version: Option<u64>,
    p: &Projection,
) -> Result<(), CommandError> {
    let sql = positional(&plan::projection_sql(expected_version.is_none(), false));
    let mut statement = tx.prepare_cached(&sql)?;
    let (id, state) = (&planned.hand_id, &planned.state);
    let c = &p.search.columns;
    let rows = match expected_version {
        None => statement.execute(params![
            id,
            state.table,
            state.dealer,
            p.status,
            p.version,
            p.bank,
            p.house_collection,
            p.settlement_seq,
            p.now,
            p.last_seq,
            c.pd_name,
            c.pd_net_e4,
            c.bank_e4,
            c.wagered_e4,
            c.max_wager_e4,
            c.collection_e4,
            c.corrected
        ])?,
        Some(expected) => statement.execute(params![
            id,
            p.status,
            p.version,
            p.bank,
            p.house_collection,
            p.settlement_seq,
            p.now,
            p.last_seq,
            expected as i64,
            c.pd_name,
            c.pd_net_e4,
            c.bank_e4,
            c.wagered_e4,
            c.max_wager_e4,
            c.collection_e4,
            c.corrected
        ])?,
    };
    plan::one_row(id, rows as u64)?;
    write_people(tx, id, &p.search)?;
    Ok(())
}

/// The hand's `hand_people` rows and `person_names` as its search holds
/// them (`store/history/projection.rs`).
fn write_people(tx: &Transaction<'_>, id: &str, search: &HandSearch) -> Result<(), StoreError> {
    use crate::store::history::projection as h;
    let old: Vec<String> = tx
        .prepare_cached(&positional(h::DELETE_PEOPLE))?
        .query_map([id], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    let mut insert = tx.prepare_cached(&positional(h::INSERT_PERSON))?;
    for p in &search.people {
        insert.execute(params![
            id,
            p.role,
            p.name,
            p.name_key,
            p.staked_e4,
            p.received_e4,
            p.net_e4,
            p.keys_before
        ])?;
    }
    let mut name = tx.prepare_cached(&positional(h::INSERT_NAME))?;
    for key in search.keys() {
        name.execute([key])?;
    }
    let mut unused = tx.prepare_cached(&positional(h::DELETE_NAME_IF_UNUSED))?;
    for key in h::dropped(&old, search) {
        unused.execute([key])?;
    }
    Ok(())
}
