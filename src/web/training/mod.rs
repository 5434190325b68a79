//! Training new dealers (docs/training.md): drills in practice,
//! test and speed runs (`runs.rs`), progress, the trainees side by side,
//! the pass marks and sign-off (`progress.rs`, its charts in `chart.rs`),
//! and the same over JSON (`api.rs`). Who answers is who is signed in;
//! every rule — whose drill, once, in time, ready to sign off — is the
//! core's (`domain::training`), applied by the store under the chain lock.

pub(super) mod api;
mod chart;
mod drill_table;
mod progress;
mod run_drills;
mod runs;

use axum::Router;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::domain::training::progress::{Progress, progress as progress_of, seconds};
use crate::domain::training::run::Run;
use crate::domain::training::{Kind, Level, seed_from_bits};
use crate::store::StoreError;
use crate::store::training::{self, Issued, SignOff, StoredAttempt, TrainingError};
use crate::web::{ApiError, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/training", get(runs::home))
        .route("/training/runs", post(runs::start))
        .route("/training/runs/{id}", get(runs::page))
        .route("/training/runs/{id}/answer", post(runs::answer))
        .route("/training/runs/{id}/next", post(runs::next))
        .route("/training/progress", get(progress::own))
        .route("/training/trainees", get(progress::trainees))
        .route("/training/trainees/{name}", get(progress::trainee))
        .route(
            "/training/trainees/{name}/sign-off",
            post(progress::sign_off),
        )
        .route(
            "/training/pass-marks",
            get(progress::pass_marks).post(progress::set_pass_mark),
        )
        .route("/api/v1/drill-runs", post(api::start_run))
        .route("/api/v1/drills", post(api::new_drill))
        .route("/api/v1/drills/{id}/answer", post(api::answer))
        .route("/api/v1/training/progress", get(api::progress))
}

/// Any error that has an HTTP answer, as that answer.
fn api<E: Into<ApiError>>(e: E) -> Response {
    e.into().into_response()
}

/// A seed drawn at random (below 2^53).
fn random_seed() -> Result<u64, StoreError> {
    let mut bytes = [0u8; 8];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::Internal(format!("no randomness for a seed: {e}")))?;
    Ok(seed_from_bits(u64::from_le_bytes(bytes)))
}

/// Issues the next drill of `run` to `trainee`: the seed given, or one
/// drawn here (the shell picks the seed; the drill is the core's).
async fn issue(
    state: &AppState,
    trainee: &str,
    run: &str,
    seed: Option<u64>,
) -> Result<Issued, TrainingError> {
    let seed = match seed {
        Some(s) => s,
        None => random_seed()?,
    };
    training::next_drill(&state.db, &state.audit_key, trainee, run, seed).await
}

/// Milliseconds since the epoch, now (the shell's clock).
fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

/// A run's state as the API shows it: its mode, score, the drill on
/// screen, whether over.
// Fields in alphabetical order: the bytes sent before this type existed.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[schema(as = DrillRun)]
struct RunStatus {
    /// Drills answered.
    answered: usize,
    /// Drills issued.
    drills: usize,
    /// Time spent on its answered drills.
    elapsed_ms: i64,
    id: String,
    kind: Kind,
    level: Level,
    /// practice, test or speed.
    mode: &'static str,
    /// Whether the run is over (no more drills).
    over: bool,
    /// The drill on screen, unanswered.
    pending: Option<String>,
    /// A test's number of questions.
    questions: Option<u16>,
    /// Drills answered right.
    right: usize,
    trainee: String,
}

fn run_status(run: &Run) -> RunStatus {
    let (right, answered) = run.score();
    RunStatus {
        answered,
        drills: run.drills.len(),
        elapsed_ms: run.elapsed_ms(),
        id: run.id.clone(),
        kind: run.kind,
        level: run.level,
        mode: run.mode.name(),
        over: run.is_over(now_ms()),
        pending: run.pending().map(|d| d.id.clone()),
        questions: run.mode.questions(),
        right,
        trainee: run.trainee.clone(),
    }
}

/// A trainee's progress (their attempts under the pass marks) and their
/// sign-off.
async fn load_progress(
    state: &AppState,
    trainee: &str,
) -> Result<(Progress, Option<SignOff>), StoreError> {
    let attempts = training::attempts_of(&state.db, trainee).await?;
    let marks = training::pass_marks(&state.db).await?;
    let rows: Vec<_> = attempts.iter().map(StoredAttempt::row).collect();
    let sign_off = training::sign_off_of(&state.db, trainee).await?;
    Ok((progress_of(&rows, &marks), sign_off))
}

/// A kind's name as stored (`house-way`) in words ("House way").
pub(crate) fn kind_title(name: &str) -> String {
    Kind::parse(name).map_or_else(|_| name.to_string(), |k| k.title().to_string())
}
