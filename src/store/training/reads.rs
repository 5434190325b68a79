//! Reading training back: a run as the core's `Run` (under the chain lock
//! when a change follows, from the pool for a page), a trainee's runs and
//! attempts, the pass marks, the sign-offs and the trainees.

use crate::domain::training::progress::{AttemptRow, PassMark, PassMarks};
use crate::domain::training::run::{Attempt, Mode, Run, RunDrill};
use crate::domain::training::{Kind, Level};
use crate::store::{Db, StoreError, WriteTx};

use super::time_ms;

/// Runs `$query`'s `fetch_all` in a write transaction (`tx`) or on the pool (`db`).
macro_rules! fetch_all {
    (tx $tx:expr, $query:expr) => {
        on_tx!($tx, |c| $query.fetch_all(&mut **c).await?)
    };
    (db $db:expr, $query:expr) => {
        on_pool!($db, |pool| $query.fetch_all(pool).await?)
    };
}

type RunRow = (String, String, String, Option<i64>, String, i64, String);
const SELECT_RUN: &str =
    "SELECT id, trainee, mode, questions, kind, level, started_at FROM drill_runs WHERE id = $1";

type DrillRow = (
    String,
    i64,
    String,
    Option<bool>,
    Option<i64>,
    Option<String>,
);
const SELECT_RUN_DRILLS: &str = "SELECT id, seed, issued_at, correct, elapsed_ms, answered_at \
    FROM drills WHERE run_id = $1 ORDER BY position";

fn kind_of(name: &str) -> Result<Kind, StoreError> {
    Kind::parse(name).map_err(|e| StoreError::Internal(format!("stored drill kind: {e}")))
}

fn level_of(n: i64) -> Result<Level, StoreError> {
    Level::new(n).map_err(|e| StoreError::Internal(format!("stored drill level: {e}")))
}

fn mode_of(name: &str, questions: Option<i64>) -> Result<Mode, StoreError> {
    Mode::parse(name, questions).map_err(|e| StoreError::Internal(format!("stored mode: {e}")))
}

fn build_run(row: RunRow, drills: Vec<DrillRow>) -> Result<Run, StoreError> {
    let (id, trainee, mode, questions, kind, level, started_at) = row;
    let mut run = Run::start(
        id,
        trainee,
        mode_of(&mode, questions)?,
        kind_of(&kind)?,
        level_of(level)?,
        time_ms(&started_at)?,
    );
    for (id, seed, issued_at, correct, elapsed_ms, answered_at) in drills {
        let attempt = match (correct, elapsed_ms, answered_at) {
            (Some(right), Some(elapsed_ms), Some(at)) => Some(Attempt {
                right,
                elapsed_ms,
                answered_ms: time_ms(&at)?,
            }),
            _ => None,
        };
        run.drills.push(RunDrill {
            id,
            seed: seed as u64,
            issued_ms: time_ms(&issued_at)?,
            attempt,
        });
    }
    Ok(run)
}

/// A run with its drills, read under the chain lock.
pub(super) async fn load_run_tx(tx: &mut WriteTx, id: &str) -> Result<Option<Run>, StoreError> {
    let rows: Vec<RunRow> = fetch_all!(tx tx, sqlx::query_as(SELECT_RUN).bind(id));
    let Some(row) = rows.into_iter().next() else {
        return Ok(None);
    };
    let drills: Vec<DrillRow> = fetch_all!(tx tx, sqlx::query_as(SELECT_RUN_DRILLS).bind(id));
    build_run(row, drills).map(Some)
}

/// A run with its drills.
pub async fn load_run(db: &Db, id: &str) -> Result<Option<Run>, StoreError> {
    let rows: Vec<RunRow> = fetch_all!(db db, sqlx::query_as(SELECT_RUN).bind(id));
    let Some(row) = rows.into_iter().next() else {
        return Ok(None);
    };
    let drills: Vec<DrillRow> = fetch_all!(db db, sqlx::query_as(SELECT_RUN_DRILLS).bind(id));
    build_run(row, drills).map(Some)
}

/// Each drill's answer as given (JSON text), by drill id, for a run's review.
pub async fn answers_of_run(
    db: &Db,
    run: &str,
) -> Result<Vec<(String, Option<String>)>, StoreError> {
    let sql = "SELECT id, answer FROM drills WHERE run_id = $1 ORDER BY position";
    Ok(fetch_all!(db db, sqlx::query_as(sql).bind(run)))
}

/// A run as a trainee's list shows it.
#[derive(Debug, Clone)]
pub struct RunSummary {
    pub id: String,
    pub mode: String,
    pub kind: String,
    pub level: i64,
    pub started_at: String,
    pub drills: i64,
    pub right: i64,
}

/// `trainee`'s newest runs, at most `limit`.
pub async fn runs_of(db: &Db, trainee: &str, limit: i64) -> Result<Vec<RunSummary>, StoreError> {
    let sql = "SELECT r.id, r.mode, r.kind, r.level, r.started_at, \
        COUNT(d.answered_seq), COALESCE(SUM(CASE WHEN d.correct THEN 1 ELSE 0 END), 0) \
        FROM drill_runs r LEFT JOIN drills d ON d.run_id = r.id \
        WHERE r.trainee = $1 GROUP BY r.id, r.mode, r.kind, r.level, r.started_at, r.started_seq \
        ORDER BY r.started_seq DESC LIMIT $2";
    let rows: Vec<(String, String, String, i64, String, i64, i64)> =
        fetch_all!(db db, sqlx::query_as(sql).bind(trainee).bind(limit));
    Ok(rows
        .into_iter()
        .map(
            |(id, mode, kind, level, started_at, drills, right)| RunSummary {
                id,
                mode,
                kind,
                level,
                started_at,
                drills,
                right,
            },
        )
        .collect())
}

/// An attempt as stored.
#[derive(Debug, Clone)]
pub struct StoredAttempt {
    pub kind: Kind,
    pub level: Level,
    pub right: bool,
    pub elapsed_ms: i64,
    pub answered_at: String,
}

impl StoredAttempt {
    /// The attempt as progress reads it.
    pub fn row(&self) -> AttemptRow {
        AttemptRow {
            kind: self.kind,
            level: self.level,
            right: self.right,
            elapsed_ms: self.elapsed_ms,
        }
    }
}

type AttemptDbRow = (String, i64, bool, i64, String);
const SELECT_ATTEMPTS: &str = "SELECT kind, level, correct, elapsed_ms, answered_at FROM drills \
    WHERE trainee = $1 AND answered_seq IS NOT NULL ORDER BY answered_seq";

fn attempts_from(rows: Vec<AttemptDbRow>) -> Result<Vec<StoredAttempt>, StoreError> {
    rows.into_iter()
        .map(|(kind, level, right, elapsed_ms, answered_at)| {
            Ok(StoredAttempt {
                kind: kind_of(&kind)?,
                level: level_of(level)?,
                right,
                elapsed_ms,
                answered_at,
            })
        })
        .collect()
}

/// Every attempt of `trainee`, oldest first.
pub async fn attempts_of(db: &Db, trainee: &str) -> Result<Vec<StoredAttempt>, StoreError> {
    attempts_from(fetch_all!(db db, sqlx::query_as(SELECT_ATTEMPTS).bind(trainee)))
}

pub(super) async fn attempts_tx(
    tx: &mut WriteTx,
    trainee: &str,
) -> Result<Vec<StoredAttempt>, StoreError> {
    attempts_from(fetch_all!(tx tx, sqlx::query_as(SELECT_ATTEMPTS).bind(trainee)))
}

type MarkRow = (String, i64, i64, i64, i64, bool);
const SELECT_MARKS: &str = "SELECT kind, window_attempts, accuracy_pct, median_seconds, level, \
    required FROM training_pass_marks";

fn marks_from(rows: Vec<MarkRow>) -> Result<PassMarks, StoreError> {
    let mut marks = PassMarks::default();
    for (kind, window, pct, secs, level, required) in rows {
        let mark = PassMark::parse(window, pct, secs, level, required)
            .map_err(|e| StoreError::Internal(format!("stored pass mark of {kind}: {e:?}")))?;
        marks.set(kind_of(&kind)?, mark);
    }
    Ok(marks)
}

/// The pass marks (the default where none was set).
pub async fn pass_marks(db: &Db) -> Result<PassMarks, StoreError> {
    marks_from(fetch_all!(db db, sqlx::query_as(SELECT_MARKS)))
}

pub(super) async fn pass_marks_tx(tx: &mut WriteTx) -> Result<PassMarks, StoreError> {
    marks_from(fetch_all!(tx tx, sqlx::query_as(SELECT_MARKS)))
}

/// A sign-off as stored.
#[derive(Debug, Clone)]
pub struct SignOff {
    pub signed_by: String,
    pub signed_at: String,
    pub promoted: bool,
}

/// `trainee`'s sign-off, if signed off.
pub async fn sign_off_of(db: &Db, trainee: &str) -> Result<Option<SignOff>, StoreError> {
    let sql = "SELECT signed_by, signed_at, promoted FROM training_sign_offs WHERE trainee = $1";
    let rows: Vec<(String, String, bool)> = fetch_all!(db db, sqlx::query_as(sql).bind(trainee));
    Ok(rows
        .into_iter()
        .next()
        .map(|(signed_by, signed_at, promoted)| SignOff {
            signed_by,
            signed_at,
            promoted,
        }))
}

/// Who the supervisor's page lists: every account with the trainee role,
/// and anyone else who has answered a drill or been signed off; by name.
pub async fn trainees(db: &Db) -> Result<Vec<(String, String)>, StoreError> {
    let sql = "SELECT username, role FROM staff_users WHERE role = 'trainee' \
        OR username IN (SELECT trainee FROM drill_runs) \
        OR username IN (SELECT trainee FROM training_sign_offs) ORDER BY username";
    Ok(fetch_all!(db db, sqlx::query_as(sql)))
}

/// `username`'s role, if there is such a user.
pub async fn role_of(db: &Db, username: &str) -> Result<Option<String>, StoreError> {
    let sql = "SELECT role FROM staff_users WHERE username = $1";
    let rows: Vec<(String,)> = fetch_all!(db db, sqlx::query_as(sql).bind(username));
    Ok(rows.into_iter().next().map(|r| r.0))
}
