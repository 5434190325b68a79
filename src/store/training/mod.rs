//! Training (docs/training.md): runs of drills, their attempts,
//! the pass marks and the sign-offs. Every change is checked by the core
//! (`domain::training::run` for a drill and an answer, `progress` for a
//! sign-off) against what is stored, read under the chain lock, then
//! written with its audit record in one transaction: `drill_run_started`,
//! `drill_issued` (with the generator's version, the question and the
//! answer), `drill_answered` (the answer as given, right or wrong, the time
//! taken), `pass_mark_set`, `trainee_signed_off` (and `role_changed` when it
//! promotes). `audit verify` folds the same records through the same core
//! and compares the rows (`store/verify/training.rs`).

mod reads;

pub use reads::*;

use serde_json::json;

use super::audit::{NewRecord, append_at, canonical_json, now_text};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::common::audit::AuditKey;
use crate::domain::common::field_error::FieldError;
use crate::domain::staff::Role;
use crate::domain::training::progress::{PassMark, SignOffRefusal, check_sign_off, progress};
use crate::domain::training::run::{Answered, Mode, Refusal, Run};
use crate::domain::training::{AnswerInput, Drill, GENERATOR_VERSION, Kind, Level};

/// A training change refused or failed. The shell maps each to its status.
#[derive(Debug, thiserror::Error)]
pub enum TrainingError {
    /// The run's rules (`run::Refusal`): 403, 404, 409 or 422 by variant.
    #[error("{0}")]
    Refused(Refusal),
    #[error("{0}")]
    SignOff(SignOffRefusal),
    /// Bad input naming its field (422).
    #[error("{0}")]
    Invalid(FieldError),
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for TrainingError {
    fn from(e: sqlx::Error) -> Self {
        TrainingError::Store(e.into())
    }
}

impl From<FieldError> for TrainingError {
    fn from(e: FieldError) -> Self {
        TrainingError::Invalid(e)
    }
}

/// Milliseconds since the epoch of a stored time (the audit log's text).
pub fn time_ms(text: &str) -> Result<i64, StoreError> {
    chrono::DateTime::parse_from_rfc3339(text)
        .map(|t| t.timestamp_millis())
        .map_err(|e| StoreError::Internal(format!("stored time {text:?}: {e}")))
}

/// Appends one record at `now` and returns its seq.
async fn append_one(
    tx: &mut WriteTx,
    key: &AuditKey,
    record: NewRecord,
    now: &str,
) -> Result<i64, StoreError> {
    let written = append_at(tx, key, &[record], now).await?;
    written
        .last()
        .map(|r| r.seq)
        .ok_or_else(|| StoreError::Internal("no record appended".into()))
}

/// Begins a write and appends one record, now: the open transaction, the
/// record's seq and its time (the row written next carries the same).
async fn begin_with_record(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    event_type: &str,
    payload: &serde_json::Value,
) -> Result<(WriteTx, i64, String), StoreError> {
    let now = now_text();
    let mut tx = begin_write(db).await?;
    let seq = append_one(
        &mut tx,
        key,
        NewRecord::tableless(actor, event_type, payload)?,
        &now,
    )
    .await?;
    Ok((tx, seq, now))
}

/// A new run id (time-ordered).
fn new_id() -> String {
    uuid::Uuid::now_v7().to_string()
}

/// The drill of (kind, level, seed), or an internal error if a generator
/// refused its own input (a bug the property tests look for; a seed from
/// a client must not take the server down).
pub fn generate(kind: Kind, level: Level, seed: u64) -> Result<Drill, StoreError> {
    std::panic::catch_unwind(|| Drill::generate(kind, level, seed)).map_err(|_| {
        StoreError::Internal(format!(
            "drill generator failed for {kind} level {level} seed {seed}"
        ))
    })
}

/// Starts `trainee`'s run. Returns its id.
pub async fn start_run(
    db: &Db,
    key: &AuditKey,
    trainee: &str,
    mode: Mode,
    kind: Kind,
    level: Level,
) -> Result<String, TrainingError> {
    let id = new_id();
    let payload = json!({
        "run": id, "trainee": trainee, "mode": mode.name(), "questions": mode.questions(),
        "kind": kind.name(), "level": level.get(),
    });
    let (mut tx, seq, now) =
        begin_with_record(db, key, trainee, "drill_run_started", &payload).await?;
    let sql = "INSERT INTO drill_runs (id, trainee, mode, questions, kind, level, started_at, started_seq) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(&id)
        .bind(trainee)
        .bind(mode.name())
        .bind(mode.questions().map(i64::from))
        .bind(kind.name())
        .bind(i64::from(level.get()))
        .bind(&now)
        .bind(seq));
    tx.commit().await?;
    Ok(id)
}

/// A drill just issued.
#[derive(Debug, Clone)]
pub struct Issued {
    pub id: String,
    pub run: String,
    pub position: i64,
    pub drill: Drill,
    pub issued_at: String,
}

/// Issues the next drill of `run_id` to `actor` (the run's trainee), with
/// `seed`. Refused by the run's rules: another's run, the drill before
/// unanswered, a test or speed drill over.
pub async fn next_drill(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    run_id: &str,
    seed: u64,
) -> Result<Issued, TrainingError> {
    let mut tx = begin_write(db).await?;
    let mut run = load_run_tx(&mut tx, run_id)
        .await?
        .ok_or_else(|| TrainingError::NotFound(format!("there is no drill run {run_id}")))?;
    let now = now_text();
    let id = new_id();
    run.issue(actor, id.clone(), seed, time_ms(&now)?)
        .map_err(TrainingError::Refused)?;
    let drill = generate(run.kind, run.level, seed)?;
    let position = run.drills.len() as i64;
    let payload = json!({
        "drill": id, "run": run.id, "position": position, "trainee": run.trainee,
        "kind": run.kind.name(), "level": run.level.get(), "seed": seed,
        "generator": GENERATOR_VERSION, "question": drill.question, "answer": drill.answer,
    });
    let seq = append_one(
        &mut tx,
        key,
        NewRecord::tableless(actor, "drill_issued", &payload)?,
        &now,
    )
    .await?;
    let sql = "INSERT INTO drills (id, run_id, position, trainee, kind, level, seed, issued_at, issued_seq) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(&id)
        .bind(&run.id)
        .bind(position)
        .bind(&run.trainee)
        .bind(run.kind.name())
        .bind(i64::from(run.level.get()))
        .bind(seed_column(seed)?)
        .bind(&now)
        .bind(seq));
    tx.commit().await?;
    Ok(Issued {
        id,
        run: run.id,
        position,
        drill,
        issued_at: now,
    })
}

/// A seed as the database keeps it (a signed 64-bit integer).
fn seed_column(seed: u64) -> Result<i64, StoreError> {
    i64::try_from(seed).map_err(|_| StoreError::Internal(format!("seed {seed} out of range")))
}

/// An answer recorded: the grade and the run after it.
#[derive(Debug, Clone)]
pub struct Recorded {
    pub answered: Answered,
    pub run: Run,
    pub drill: Drill,
    pub answered_at: String,
}

/// Grades `actor`'s answer to drill `drill_id` and records it. Refused by
/// the run's rules (nothing recorded): another's drill (403), a second
/// answer or a speed drill's late one (409), a wrong shape (422).
pub async fn answer(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    drill_id: &str,
    answer: &AnswerInput,
) -> Result<Recorded, TrainingError> {
    let mut tx = begin_write(db).await?;
    let run_sql = "SELECT run_id FROM drills WHERE id = $1";
    let run_id: Option<String> = on_tx!(&mut tx, |c| sqlx::query_scalar(run_sql)
        .bind(drill_id)
        .fetch_optional(&mut **c)
        .await?);
    let no_drill = || TrainingError::NotFound(format!("there is no drill {drill_id}"));
    let run_id = run_id.ok_or_else(no_drill)?;
    let mut run = load_run_tx(&mut tx, &run_id).await?.ok_or_else(no_drill)?;
    let now = now_text();
    let answered = run
        .answer(actor, drill_id, answer, time_ms(&now)?)
        .map_err(TrainingError::Refused)?;
    let seed = run
        .drills
        .iter()
        .find(|d| d.id == drill_id)
        .map(|d| d.seed)
        .ok_or_else(no_drill)?;
    let answer_text = canonical_json(answer.value())?;
    let payload = json!({
        "drill": drill_id, "run": run.id, "kind": run.kind.name(), "level": run.level.get(),
        "seed": seed, "answer": answer.value(),
        "right": answered.attempt.right, "elapsed_ms": answered.attempt.elapsed_ms,
    });
    let seq = append_one(
        &mut tx,
        key,
        NewRecord::tableless(actor, "drill_answered", &payload)?,
        &now,
    )
    .await?;
    let sql = "UPDATE drills SET answer = $1, correct = $2, elapsed_ms = $3, answered_at = $4, \
        answered_seq = $5 WHERE id = $6";
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(&answer_text)
        .bind(answered.attempt.right)
        .bind(answered.attempt.elapsed_ms)
        .bind(&now)
        .bind(seq)
        .bind(drill_id));
    tx.commit().await?;
    let drill = generate(run.kind, run.level, seed)?;
    Ok(Recorded {
        answered,
        run,
        drill,
        answered_at: now,
    })
}

/// Sets `kind`'s pass mark (the training manager, `actor`).
pub async fn set_pass_mark(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    kind: Kind,
    mark: PassMark,
) -> Result<(), TrainingError> {
    let payload = json!({
        "kind": kind.name(), "window": mark.window, "accuracy_pct": mark.accuracy_pct,
        "median_seconds": mark.median_seconds, "level": mark.level.get(), "required": mark.required,
    });
    let (mut tx, seq, now) = begin_with_record(db, key, actor, "pass_mark_set", &payload).await?;
    let delete = "DELETE FROM training_pass_marks WHERE kind = $1";
    let insert = "INSERT INTO training_pass_marks (kind, window_attempts, accuracy_pct, \
        median_seconds, level, required, set_by, set_at, set_seq) \
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)";
    on_tx!(&mut tx, |c| {
        sqlx::query(delete)
            .bind(kind.name())
            .execute(&mut **c)
            .await?;
        sqlx::query(insert)
            .bind(kind.name())
            .bind(i64::from(mark.window))
            .bind(i64::from(mark.accuracy_pct))
            .bind(i64::from(mark.median_seconds))
            .bind(i64::from(mark.level.get()))
            .bind(mark.required)
            .bind(actor)
            .bind(&now)
            .bind(seq)
            .execute(&mut **c)
            .await
            .map(drop)?
    });
    tx.commit().await?;
    Ok(())
}

/// Signs `trainee` off (`actor`, a supervisor or admin — the shell checks
/// the role), promoting a trainee to dealer when `promote`. The core's
/// rule decides from what is read under the lock: someone else signs, the
/// trainee meets every required pass mark, once.
pub async fn sign_off(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    trainee: &str,
    promote: bool,
) -> Result<bool, TrainingError> {
    let mut tx = begin_write(db).await?;
    let role_sql = "SELECT role FROM staff_users WHERE username = $1";
    let role: Option<String> = on_tx!(&mut tx, |c| sqlx::query_scalar(role_sql)
        .bind(trainee)
        .fetch_optional(&mut **c)
        .await?);
    let role: Role = role
        .ok_or_else(|| TrainingError::NotFound(format!("there is no user \"{trainee}\"")))?
        .parse()
        .map_err(StoreError::Internal)?;
    let attempts = attempts_tx(&mut tx, trainee).await?;
    let marks = pass_marks_tx(&mut tx).await?;
    let already_sql = "SELECT COUNT(*) FROM training_sign_offs WHERE trainee = $1";
    let already: i64 = on_tx!(&mut tx, |c| sqlx::query_scalar(already_sql)
        .bind(trainee)
        .fetch_one(&mut **c)
        .await?);
    let rows: Vec<_> = attempts.iter().map(|a| a.row()).collect();
    let promoted = check_sign_off(
        actor,
        trainee,
        &progress(&rows, &marks),
        already > 0,
        promote,
        role,
    )
    .map_err(TrainingError::SignOff)?;
    let now = now_text();
    let mut records = vec![NewRecord::tableless(
        actor,
        "trainee_signed_off",
        &json!({"trainee": trainee, "promoted": promoted}),
    )?];
    if promoted {
        let change =
            json!({"username": trainee, "from": role.as_str(), "to": Role::Dealer.as_str()});
        records.push(NewRecord::tableless(actor, "role_changed", &change)?);
    }
    let written = append_at(&mut tx, key, &records, &now).await?;
    let seq = written.first().map(|r| r.seq).unwrap_or_default();
    let insert = "INSERT INTO training_sign_offs (trainee, signed_by, signed_at, signed_seq, promoted) \
        VALUES ($1, $2, $3, $4, $5)";
    let promote_sql = "UPDATE staff_users SET role = $1 WHERE username = $2";
    on_tx!(&mut tx, |c| {
        sqlx::query(insert)
            .bind(trainee)
            .bind(actor)
            .bind(&now)
            .bind(seq)
            .bind(promoted)
            .execute(&mut **c)
            .await?;
        if promoted {
            sqlx::query(promote_sql)
                .bind(Role::Dealer.as_str())
                .bind(trainee)
                .execute(&mut **c)
                .await?;
        }
    });
    tx.commit().await?;
    Ok(promoted)
}
