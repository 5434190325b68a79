//! Training over JSON (docs/training.md): `POST /api/v1/drill-runs` starts
//! a run, `POST /api/v1/drills` issues a drill (the next of a run, or the
//! first of a new practice run), `POST /api/v1/drills/{id}/answer` grades
//! and records an answer, `GET /api/v1/training/progress` a trainee's
//! progress. The trainee is who is signed in; every rule is the core's.

use axum::Json;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use super::{RunStatus, api, issue, load_progress, run_status};
use crate::domain::staff::Action;
use crate::domain::training::answer_form;
use crate::domain::training::progress::Progress;
use crate::domain::training::run::{RunRequest, parse_seed};
use crate::domain::training::{Answer, AnswerInput, Drill, Kind, Level};
use crate::store::training::{self, Issued};
use crate::web::{ApiError, AppState, AtPath, ErrorBody, Staff, json};

#[derive(Deserialize, ToSchema)]
#[schema(as = DrillRunStart)]
#[serde(deny_unknown_fields)]
struct StartBody {
    /// The kind of drill (`action-seat`, `settle-all`, …); required.
    #[schema(value_type = Option<Kind>)]
    kind: Option<String>,
    /// 1 (easy) to 3 (hard); default 1.
    level: Option<i64>,
    /// practice (default), test or speed.
    mode: Option<String>,
    /// A test's number of questions.
    questions: Option<i64>,
}

fn first_error(errors: Vec<crate::domain::common::field_error::FieldError>) -> ApiError {
    errors
        .into_iter()
        .next()
        .map_or_else(|| ApiError::internal("no error"), ApiError::BadInput)
}

/// Start a run of drills (practice, a test, or against the clock).
#[utoipa::path(post, path = "/api/v1/drill-runs", operation_id = "start_drill_run", tag = "training",
    request_body(content = StartBody, example = json!({"kind": "action-seat", "level": 2, "mode": "test", "questions": 10})),
    responses(
        (status = 200, description = "The run, no drill issued yet.", body = RunStatus,
            example = json!({"id": "01a22754-0000-7000-8000-0000000000a1", "trainee": "tess",
                "mode": "test", "questions": 10, "kind": "action-seat", "level": 2, "drills": 0,
                "answered": 0, "right": 0, "elapsed_ms": 0, "pending": null, "over": false})),
        (status = 403, description = "A role that does not drill (`forbidden`).", body = ErrorBody),
        (status = 422, description = "A bad kind, level, mode or count, naming it.", body = ErrorBody),
    ))]
pub(super) async fn start_run(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::Drill).await?;
    let b: StartBody = json::parse(&body).map_err(api)?;
    json::conforms::<StartBody>(&body).map_err(api)?;
    let req = RunRequest::parse(b.kind.as_deref(), b.level, b.mode.as_deref(), b.questions)
        .map_err(|e| api(first_error(e)))?;
    let trainee = &staff.0.user.username;
    let id = training::start_run(
        &state.db,
        &state.audit_key,
        trainee,
        req.mode,
        req.kind,
        req.level,
    )
    .await
    .map_err(api)?;
    let run = training::load_run(&state.db, &id)
        .await
        .map_err(api)?
        .ok_or_else(|| api(ApiError::internal("the run just started is gone")))?;
    Ok(Json(run_status(&run)).into_response())
}

#[derive(Deserialize, ToSchema)]
#[schema(as = DrillRequest)]
#[serde(deny_unknown_fields)]
struct DrillBody {
    /// The run whose next drill this is (not with `kind` and `level`).
    run: Option<String>,
    /// For a drill in a new practice run: its kind.
    #[schema(value_type = Option<Kind>)]
    kind: Option<String>,
    /// For a drill in a new practice run: 1 to 3.
    level: Option<i64>,
    /// The drill's seed (a whole number below 2^64, or its text); drawn
    /// when absent.
    #[schema(value_type = Option<u64>)]
    seed: Option<Value>,
}

/// A drill as the API shows it: the question, never the answer.
#[derive(Serialize, ToSchema)]
#[schema(as = IssuedDrill)]
struct IssuedBody<'a> {
    id: &'a str,
    run: &'a str,
    /// Its place in the run, from 1.
    position: i64,
    kind: Kind,
    level: Level,
    seed: u64,
    question: &'a crate::domain::training::Question,
    /// The question as a person reads it.
    question_words: String,
    /// The answer's fields, as a form asks for them.
    fields: Vec<answer_form::FormField>,
    issued_at: &'a str,
}

fn issued_body(i: &Issued) -> IssuedBody<'_> {
    let d: &Drill = &i.drill;
    IssuedBody {
        id: &i.id,
        run: &i.run,
        position: i.position,
        kind: d.kind,
        level: d.level,
        seed: d.seed,
        question: &d.question,
        question_words: d.question_words(),
        fields: answer_form::fields(&d.question, &d.answer),
        issued_at: &i.issued_at,
    }
}

/// Issue a drill: the next of a run, or the first of a new practice run.
#[utoipa::path(post, path = "/api/v1/drills", operation_id = "issue_drill", tag = "training",
    request_body(content = DrillBody, example = json!({"kind": "action-seat", "level": 2, "seed": 7})),
    responses(
        (status = 200, description = "The drill: its question and the answer's fields, never the answer.", body = IssuedBody,
            example = json!({"id": "01a22754-0000-7000-8000-0000000000d1", "run": "01a22754-0000-7000-8000-0000000000a1",
                "position": 1, "kind": "action-seat", "level": 2, "seed": 7,
                "question": {"dice": [5, 4, 3], "pd_seat": 5, "seats": 7},
                "question_words": "The PD sits in seat 5 at a 7-seat table. The dice show 5, 4 and 3. Which seat gets the first pile?",
                "fields": [{"path": "seat", "label": "Seat", "input": "number"}],
                "issued_at": "2026-11-24T18:00:00.000000Z"})),
        (status = 403, description = "Another trainee's run, or a role that does not drill (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such run (`not_found`).", body = ErrorBody),
        (status = 409, description = "The run is over, or its drill on screen is unanswered (`conflict`).", body = ErrorBody),
        (status = 422, description = "Both `run` and `kind`, a bad kind or level, or a bad seed.", body = ErrorBody),
    ))]
pub(super) async fn new_drill(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::Drill).await?;
    let b: DrillBody = json::parse(&body).map_err(api)?;
    let seed = b.seed.as_ref().map(parse_seed).transpose().map_err(api)?;
    json::conforms::<DrillBody>(&body).map_err(api)?;
    let trainee = staff.0.user.username.clone();
    let run = match b.run {
        Some(run) => {
            if b.kind.is_some() || b.level.is_some() {
                let field = if b.kind.is_some() { "kind" } else { "level" };
                return Err(api(ApiError::bad_input(
                    field,
                    "a run's drills are of its kind and level: give either run or kind and level",
                )));
            }
            run
        }
        None => {
            let req = RunRequest::parse(b.kind.as_deref(), b.level, None, None)
                .map_err(|e| api(first_error(e)))?;
            training::start_run(
                &state.db,
                &state.audit_key,
                &trainee,
                req.mode,
                req.kind,
                req.level,
            )
            .await
            .map_err(api)?
        }
    };
    let issued = issue(&state, &trainee, &run, seed).await.map_err(api)?;
    Ok(Json(issued_body(&issued)).into_response())
}

#[derive(Deserialize, ToSchema)]
#[schema(as = DrillAnswerRequest)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    /// The answer in the answer's shape for the drill's kind (docs/training.md).
    #[schema(value_type = Answer)]
    answer: Value,
}

/// A graded answer as recorded.
// Fields in alphabetical order: the bytes sent before this type existed.
#[derive(Serialize, ToSchema)]
#[schema(as = DrillGraded)]
struct Graded<'a> {
    answered_at: &'a str,
    /// The correct answer.
    correct: &'a Answer,
    /// The correct answer as a person reads it.
    correct_words: String,
    /// The drill's id.
    drill: &'a str,
    elapsed_ms: i64,
    /// What the dealer reads aloud.
    explanation: &'a str,
    right: bool,
    run: RunStatus,
}

/// Grade and record an answer to a drill.
#[utoipa::path(post, path = "/api/v1/drills/{id}/answer", operation_id = "answer_drill", tag = "training",
    params(("id" = String, Path, description = "The drill's id.")),
    request_body(content = AnswerBody, example = json!({"answer": {"seat": 2}})),
    responses(
        (status = 200, description = "Right or wrong, the correct answer, the explanation, the \
time taken and the run.", body = Graded,
            example = json!({"drill": "01a22754-0000-7000-8000-0000000000d1", "right": true,
                "correct": {"seat": 2}, "correct_words": "Seat 2",
                "explanation": "Dice 5 + 4 + 3 = 12: counting from the PD at seat 5, 12 lands on seat 2.",
                "elapsed_ms": 4200, "answered_at": "2026-11-24T18:00:04.200000Z",
                "run": {"id": "01a22754-0000-7000-8000-0000000000a1", "trainee": "tess",
                    "mode": "practice", "questions": null, "kind": "action-seat", "level": 2,
                    "drills": 1, "answered": 1, "right": 1, "elapsed_ms": 4200, "pending": null,
                    "over": false}})),
        (status = 403, description = "Another trainee's drill (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such drill (`not_found`).", body = ErrorBody),
        (status = 409, description = "Already answered, or a speed drill answered too late (`conflict`).", body = ErrorBody),
        (status = 422, description = "An answer in the wrong shape, naming its field (`seat`, `net.Ann`).", body = ErrorBody),
    ))]
pub(super) async fn answer(
    AtPath { state, staff, id }: AtPath,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::Drill).await?;
    let b: AnswerBody = json::parse(&body).map_err(api)?;
    let text = serde_json::to_string(&b.answer).map_err(|e| api(ApiError::internal(e)))?;
    // The answer's shape is its kind's, read by the core's own reader
    // (objects only) when the drill is graded: no serde leniency to check.
    let answer = AnswerInput::parse(&text).map_err(api)?;
    let recorded = training::answer(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &id,
        &answer,
    )
    .await
    .map_err(api)?;
    let a = &recorded.answered;
    Ok(Json(Graded {
        answered_at: &recorded.answered_at,
        correct: &a.graded.correct,
        correct_words: a.graded.correct.words(),
        drill: &id,
        elapsed_ms: a.attempt.elapsed_ms,
        explanation: &a.graded.explanation,
        right: a.graded.right,
        run: run_status(&recorded.run),
    })
    .into_response())
}

/// A sign-off as the API shows it.
#[derive(Serialize, ToSchema)]
struct SignedOff {
    at: String,
    by: String,
    /// Whether the sign-off promoted the trainee to dealer.
    promoted: bool,
}

/// A trainee's progress and sign-off.
#[derive(Serialize, ToSchema)]
struct TraineeProgress {
    progress: Progress,
    signed_off: Option<SignedOff>,
    trainee: String,
}

/// A trainee's progress.
///
/// One's own, or (admin, supervisor, auditor) a trainee's: every kind
/// against its pass mark, the weakest, what to practise next.
#[utoipa::path(get, path = "/api/v1/training/progress", operation_id = "training_progress", tag = "training",
    params(("trainee" = Option<String>, Query, description = "A trainee's username; default the signed-in user.")),
    responses(
        (status = 200, description = "The progress and the sign-off.", body = TraineeProgress),
        (status = 403, description = "Another's progress without the role to review training (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such user (`not_found`).", body = ErrorBody),
    ))]
pub(super) async fn progress(
    State(state): State<AppState>,
    staff: Staff,
    Query(pairs): Query<Vec<(String, String)>>,
) -> Result<Response, Response> {
    let me = staff.0.user.username.clone();
    let trainee = pairs
        .iter()
        .find(|(k, _)| k == "trainee")
        .map_or(me.clone(), |(_, v)| v.clone());
    let action = if trainee == me {
        Action::Drill
    } else {
        Action::ReviewTraining
    };
    staff.require_here(&state, action).await?;
    if training::role_of(&state.db, &trainee)
        .await
        .map_err(api)?
        .is_none()
    {
        let missing = ApiError::NotFound(format!("there is no user \"{trainee}\""));
        return Err(api(missing));
    }
    let (progress, sign_off) = load_progress(&state, &trainee).await.map_err(api)?;
    Ok(Json(TraineeProgress {
        progress,
        signed_off: sign_off.map(|s| SignedOff {
            at: s.signed_at,
            by: s.signed_by,
            promoted: s.promoted,
        }),
        trainee,
    })
    .into_response())
}
