//! Group commit for hand commands. A durable commit costs one fsync, and a
//! disk allows only a few hundred a second; so one writer takes every
//! command waiting at that moment and commits them in one transaction. A
//! command refused by the rules writes nothing, so the others still commit;
//! a database error rolls the batch back and its commands run one by one.
//! No command is acknowledged before the transaction holding it is durable.
//!
//! On an SQLite file the writer is a thread owning a rusqlite connection
//! ([`super::hands::sqlite_writer`]); on PostgreSQL (or SQLite in memory) it
//! is a tokio task on the sqlx pool. Both keep open hands' folded state
//! between commands ([`super::hands::OpenHands`]).

use tokio::sync::{mpsc, oneshot};

use super::hands::sqlite_writer::SqliteHands;
use super::hands::{
    BatchReads, CommandError, CommandResult, HandCommand, OpenHands, check_rotation, execute_at,
    execute_in,
};
use crate::domain::common::audit::AuditKey;
use crate::domain::common::field_error::AsFieldError;
use crate::store::audit::Clock;
use crate::store::{Db, StoreError, begin_write, sqlite_file};

/// Most commands in one transaction.
pub const BATCH_COMMANDS_MAX: usize = 64;
/// Commands waiting for the writer before callers are made to wait.
const QUEUE_COMMANDS_MAX: usize = 1024;

type Reply = Result<(CommandResult, bool), CommandError>;

struct Job {
    hand_id: Option<String>,
    command: HandCommand,
    reply: oneshot::Sender<Reply>,
}

/// A handle to the writer; cheap to clone.
#[derive(Clone)]
pub struct HandWriter {
    jobs: mpsc::Sender<Job>,
    /// Read for the PD rotation clock before a hand opens.
    db: Db,
    /// The cardroom's zone, for the times a refusal names.
    zone: chrono_tz::Tz,
}

impl HandWriter {
    /// Starts the writer: a thread for an SQLite file, else a task on the
    /// current tokio runtime.
    pub fn spawn(db: Db, key: AuditKey) -> Result<HandWriter, StoreError> {
        HandWriter::spawn_with_clock(db, key, Clock::System)
    }

    /// [`Self::spawn`] with the records' time from `clock` (the bench's).
    pub fn spawn_with_clock(db: Db, key: AuditKey, clock: Clock) -> Result<HandWriter, StoreError> {
        let (jobs, queue) = mpsc::channel(QUEUE_COMMANDS_MAX);
        let writer = HandWriter {
            jobs,
            db: db.clone(),
            zone: chrono_tz::UTC,
        };
        match sqlite_file(&db) {
            Some(path) => {
                let hands = SqliteHands::open(&path, key, clock)?;
                std::thread::Builder::new()
                    .name("pitbook-hand-writer".into())
                    .spawn(move || run_sqlite(hands, queue))
                    .map_err(|e| StoreError::Internal(format!("hand writer thread: {e}")))?;
            }
            None => {
                tokio::spawn(run_sqlx(db, key, clock, queue));
            }
        }
        Ok(writer)
    }

    /// Words the times of its refusals in `zone`.
    pub fn with_time_zone(mut self, zone: chrono_tz::Tz) -> HandWriter {
        self.zone = zone;
        self
    }

    /// Executes a command; returns once it is durable (or refused).
    pub async fn submit(&self, hand_id: Option<String>, command: HandCommand) -> Reply {
        let reply = self.submit_once(hand_id.clone(), command.clone()).await;
        // A hand at a table naming a house way another instance loaded
        // since this one started: hold it and try once more (a refused
        // command wrote nothing).
        let unheld = matches!(&reply, Err(e) if e.field_error()
            .is_some_and(|f| f.field() == "options.house_way"));
        if unheld && super::house_ways::hold_stored(&self.db).await? > 0 {
            return self.submit_once(hand_id, command).await;
        }
        reply
    }

    async fn submit_once(&self, hand_id: Option<String>, command: HandCommand) -> Reply {
        check_rotation(&self.db, self.zone, hand_id.as_deref(), &command).await?;
        let (reply, answer) = oneshot::channel();
        let gone =
            || CommandError::Store(StoreError::Internal("the hand writer has stopped".into()));
        self.jobs
            .send(Job {
                hand_id,
                command,
                reply,
            })
            .await
            .map_err(|_| gone())?;
        answer.await.map_err(|_| gone())?
    }
}

/// Answers each command of a batch committed in `took`, counting it
/// (docs/metrics.md).
fn answer(batch: &mut Vec<Job>, replies: Vec<Reply>, took: std::time::Duration) {
    use crate::telemetry::metric as m;
    metrics::histogram!(m::BATCH_COMMANDS).record(batch.len() as f64);
    metrics::histogram!(m::COMMIT_SECONDS).record(took.as_secs_f64());
    for reply in &replies {
        match reply {
            Ok((result, _)) => {
                for r in &result.records {
                    match r.event_type.as_str() {
                        "hand_opened" => metrics::counter!(m::HANDS_OPENED).increment(1),
                        "hand_closed" => metrics::counter!(m::HANDS_CLOSED).increment(1),
                        _ => {}
                    }
                }
            }
            Err(e) => metrics::counter!(m::COMMANDS_REFUSED, "reason" => e.reason()).increment(1),
        }
    }
    for (job, reply) in batch.drain(..).zip(replies) {
        // A caller that went away (client disconnected) needs no answer;
        // its command is durable all the same.
        let _ = job.reply.send(reply);
    }
}

/// Adds to `batch` the commands already waiting in `queue`, up to the
/// batch's most.
fn take_waiting(batch: &mut Vec<Job>, queue: &mut mpsc::Receiver<Job>) {
    while batch.len() < BATCH_COMMANDS_MAX {
        match queue.try_recv() {
            Ok(job) => batch.push(job),
            Err(_) => break,
        }
    }
}

/// Each job's hand (None: a new hand) and command, in order.
fn commands_of(batch: &[Job]) -> Vec<(Option<&str>, &HandCommand)> {
    batch
        .iter()
        .map(|job| (job.hand_id.as_deref(), &job.command))
        .collect()
}

fn run_sqlite(mut hands: SqliteHands, mut queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH_COMMANDS_MAX);
    // Ends when every HandWriter handle is gone (the server stopped).
    while let Some(first) = queue.blocking_recv() {
        batch.push(first);
        take_waiting(&mut batch, &mut queue);
        let commands = commands_of(&batch);
        let started = std::time::Instant::now();
        let replies = hands.run_batch(&commands);
        answer(&mut batch, replies, started.elapsed());
    }
}

async fn run_sqlx(db: Db, key: AuditKey, clock: Clock, mut queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH_COMMANDS_MAX);
    let mut cache = OpenHands::default();
    while queue.recv_many(&mut batch, BATCH_COMMANDS_MAX).await > 0 {
        let started = std::time::Instant::now();
        let replies = match try_batch(&db, &key, &clock, &mut batch, &mut queue, &mut cache).await {
            Ok(replies) => {
                cache.committed();
                replies
            }
            Err(e) => {
                // A database error left the batch's transaction unusable: it
                // was rolled back, so run each command alone; only the one
                // at fault fails again.
                cache.rolled_back();
                tracing::warn!(error = %e, commands = batch.len(), "group commit failed; retrying one by one");
                let mut replies = Vec::with_capacity(batch.len());
                for job in &batch {
                    replies.push(
                        execute_at(&db, &key, &clock, job.hand_id.as_deref(), &job.command).await,
                    );
                }
                replies
            }
        };
        answer(&mut batch, replies, started.elapsed());
    }
}

/// Runs every command of the batch in one transaction. A command refused
/// by the rules has written nothing (every check precedes the first write),
/// so the others go on; a database error aborts the whole transaction.
///
/// The batch takes in every command that reached the queue while its
/// transaction waited for the chain: with several instances on one
/// database that wait is another instance's batch, and the commands that
/// came meanwhile share this one's round trips and commit instead of
/// waiting for a batch of their own.
async fn try_batch(
    db: &Db,
    key: &AuditKey,
    clock: &Clock,
    batch: &mut Vec<Job>,
    queue: &mut mpsc::Receiver<Job>,
    cache: &mut OpenHands,
) -> Result<Vec<Reply>, StoreError> {
    let mut phases = Phases::start();
    let mut tx = begin_write(db).await?;
    phases.done("lock_wait");
    take_waiting(batch, queue);
    let commands = commands_of(batch);
    let mut reads = BatchReads::prefetch(&mut tx, &commands).await?;
    phases.done("reads");
    let mut replies = Vec::with_capacity(batch.len());
    for (hand_id, command) in commands {
        match execute_in(&mut tx, key, clock, hand_id, command, cache, &mut reads).await {
            // Dropping the transaction rolls it back.
            Err(CommandError::Store(e)) => return Err(e),
            reply => replies.push(reply),
        }
    }
    phases.done("commands");
    reads.flush(&mut tx).await?;
    phases.done("writes");
    tx.commit().await?;
    phases.done("commit");
    Ok(replies)
}

/// Where a group commit's time goes (docs/metrics.md): waiting for the
/// chain's lock (another instance's batch), the batch's reads, its
/// commands (each hand's events and the rules), its writes, the commit.
/// Only the first is spent outside the chain's critical section.
struct Phases(std::time::Instant);

impl Phases {
    fn start() -> Phases {
        Phases(std::time::Instant::now())
    }

    fn done(&mut self, phase: &'static str) {
        use crate::telemetry::metric as m;
        let now = std::time::Instant::now();
        metrics::histogram!(m::COMMIT_PHASE_SECONDS, "phase" => phase)
            .record((now - self.0).as_secs_f64());
        self.0 = now;
    }
}
