//! Group commit for hand commands. A durable commit costs one fsync, and a
//! disk allows only a few hundred a second; so one writer task takes every
//! command waiting at that moment and commits them in one transaction. A
//! command refused by the rules writes nothing, so the others still commit;
//! a database error rolls the batch back and its commands run one by one.
//! No command is acknowledged before the transaction holding it is durable.

use tokio::sync::{mpsc, oneshot};

use super::hands::{CommandError, CommandResult, HandCommand, execute, execute_in};
use super::{Db, StoreError, begin_write};
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
    match try_batch(db, key, batch).await {
        Ok(replies) => replies,
        Err(e) => {
            // A database error left the batch's transaction unusable: it was
            // rolled back, so run each command alone; only the one at fault
            // fails again.
            tracing::warn!(error = %e, commands = batch.len(), "group commit failed; retrying one by one");
            let mut replies = Vec::with_capacity(batch.len());
            for job in batch {
                replies.push(execute(db, key, job.hand_id.as_deref(), &job.command).await);
            }
            replies
        }
    }
}

/// Runs every command of the batch in one transaction. A command refused
/// by the rules has written nothing (every check precedes the first write),
/// so the others go on; a database error aborts the whole transaction.
async fn try_batch(db: &Db, key: &AuditKey, batch: &[Job]) -> Result<Vec<Reply>, StoreError> {
    let mut tx = begin_write(db).await?;
    let mut replies = Vec::with_capacity(batch.len());
    for job in batch {
        match execute_in(&mut tx, key, job.hand_id.as_deref(), &job.command).await {
            // Dropping the transaction rolls it back.
            Err(CommandError::Store(e)) => return Err(e),
            reply => replies.push(reply),
        }
    }
    tx.commit().await?;
    Ok(replies)
}
