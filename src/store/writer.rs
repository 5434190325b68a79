//! Group commit for hand commands. A durable commit costs one fsync, and a
//! disk allows only a few hundred a second; so one writer task takes every
//! command waiting at that moment and commits them in one transaction. Each
//! command runs inside its own savepoint, so a refused command is undone
//! alone and the others still commit. No command is acknowledged before the
//! transaction holding it is durable.

use tokio::sync::{mpsc, oneshot};

use super::hands::{CommandError, CommandResult, HandCommand, execute_in};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::audit::AuditKey;

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

/// A handle to the writer task; cheap to clone.
#[derive(Clone)]
pub struct HandWriter {
    jobs: mpsc::Sender<Job>,
}

impl HandWriter {
    /// Starts the writer task on the current tokio runtime.
    pub fn spawn(db: Db, key: AuditKey) -> HandWriter {
        let (jobs, queue) = mpsc::channel(QUEUE_COMMANDS_MAX);
        tokio::spawn(run(db, key, queue));
        HandWriter { jobs }
    }

    /// Executes a command; returns once it is durable (or refused).
    pub async fn submit(&self, hand_id: Option<String>, command: HandCommand) -> Reply {
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

async fn run(db: Db, key: AuditKey, mut queue: mpsc::Receiver<Job>) {
    let mut batch = Vec::with_capacity(BATCH_COMMANDS_MAX);
    while queue.recv_many(&mut batch, BATCH_COMMANDS_MAX).await > 0 {
        let replies = commit_batch(&db, &key, &batch).await;
        for (job, reply) in batch.drain(..).zip(replies) {
            // A caller that went away (client disconnected) needs no answer;
            // its command is durable all the same.
            let _ = job.reply.send(reply);
        }
    }
}

async fn commit_batch(db: &Db, key: &AuditKey, batch: &[Job]) -> Vec<Reply> {
    let failed = |e: &StoreError| -> Vec<Reply> {
        tracing::error!(error = %e, commands = batch.len(), "group commit failed");
        batch
            .iter()
            .map(|_| {
                Err(CommandError::Store(StoreError::Internal(format!(
                    "commit failed: {e}"
                ))))
            })
            .collect()
    };
    let mut tx = match begin_write(db).await {
        Ok(tx) => tx,
        Err(e) => return failed(&e),
    };
    let mut replies = Vec::with_capacity(batch.len());
    for job in batch {
        replies.push(run_in_savepoint(&mut tx, key, job).await);
    }
    match tx.commit().await {
        Ok(()) => replies,
        Err(e) => failed(&e),
    }
}

async fn run_in_savepoint(tx: &mut WriteTx, key: &AuditKey, job: &Job) -> Reply {
    savepoint(tx, "SAVEPOINT command").await?;
    let result = execute_in(tx, key, job.hand_id.as_deref(), &job.command).await;
    let end = if result.is_ok() {
        "RELEASE SAVEPOINT command"
    } else {
        "ROLLBACK TO SAVEPOINT command"
    };
    savepoint(tx, end).await?;
    if result.is_err() {
        savepoint(tx, "RELEASE SAVEPOINT command").await?;
    }
    result
}

async fn savepoint(tx: &mut WriteTx, sql: &str) -> Result<(), CommandError> {
    on_tx!(tx, |c| sqlx::query(sql)
        .execute(&mut **c)
        .await
        .map(drop)?);
    Ok(())
}
