//! Training over JSON (docs/training.md): `POST /api/v1/drill-runs` starts
//! a run, `POST /api/v1/drills` issues a drill (the next of a run, or the
//! first of a new practice run), `POST /api/v1/drills/{id}/answer` grades
//! and records an answer, `GET /api/v1/training/progress` a trainee's
//! progress. The trainee is who is signed in; every rule is the core's.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::Uri;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{api, issue, load_progress, run_status};
use crate::domain::staff::Action;
use crate::domain::training::answer_form;
use crate::domain::training::run::{RunRequest, parse_seed};
use crate::domain::training::{AnswerInput, Drill};
use crate::store::training::{self, Issued};
use crate::web::{ApiError, AppState, AtPath, Staff, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct StartBody {
    kind: Option<String>,
    level: Option<i64>,
    mode: Option<String>,
    questions: Option<i64>,
}

fn first_error(errors: Vec<crate::domain::common::field_error::FieldError>) -> ApiError {
    errors
        .into_iter()
        .next()
        .map_or_else(|| ApiError::internal("no error"), ApiError::BadInput)
}

/// `POST /api/v1/drill-runs`: `{kind, level?, mode?, questions?}` → the run.
pub(super) async fn start_run(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require(&state, Action::Drill, uri.path()).await?;
    let b: StartBody = json::parse(&body).map_err(api)?;
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DrillBody {
    run: Option<String>,
    kind: Option<String>,
    level: Option<i64>,
    seed: Option<Value>,
}

/// A drill as the API shows it: the question, never the answer.
#[derive(Serialize)]
struct IssuedBody<'a> {
    id: &'a str,
    run: &'a str,
    position: i64,
    kind: String,
    level: u8,
    seed: u64,
    question: &'a crate::domain::training::Question,
    question_words: String,
    fields: Vec<answer_form::FormField>,
    issued_at: &'a str,
}

fn issued_body(i: &Issued) -> Value {
    let d: &Drill = &i.drill;
    serde_json::to_value(IssuedBody {
        id: &i.id,
        run: &i.run,
        position: i.position,
        kind: d.kind.to_string(),
        level: d.level.get(),
        seed: d.seed,
        question: &d.question,
        question_words: d.question_words(),
        fields: answer_form::fields(&d.question, &d.answer),
        issued_at: &i.issued_at,
    })
    .unwrap_or(Value::Null)
}

/// `POST /api/v1/drills`: `{run}` for the next drill of a run, or
/// `{kind, level?}` for a drill in a new practice run; `seed` optional.
pub(super) async fn new_drill(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require(&state, Action::Drill, uri.path()).await?;
    let b: DrillBody = json::parse(&body).map_err(api)?;
    let seed = b.seed.as_ref().map(parse_seed).transpose().map_err(api)?;
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

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct AnswerBody {
    answer: Value,
}

/// `POST /api/v1/drills/{id}/answer`: `{answer: {...}}` → right or wrong,
/// the correct answer, the explanation, the time taken and the run.
pub(super) async fn answer(
    AtPath {
        state,
        staff,
        uri,
        id,
    }: AtPath,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require(&state, Action::Drill, uri.path()).await?;
    let b: AnswerBody = json::parse(&body).map_err(api)?;
    let text = serde_json::to_string(&b.answer).map_err(|e| api(ApiError::internal(e)))?;
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
    Ok(Json(json!({
        "drill": id,
        "right": a.graded.right,
        "correct": a.graded.correct,
        "correct_words": a.graded.correct.words(),
        "explanation": a.graded.explanation,
        "elapsed_ms": a.attempt.elapsed_ms,
        "answered_at": recorded.answered_at,
        "run": run_status(&recorded.run),
    }))
    .into_response())
}

/// `GET /api/v1/training/progress[?trainee=NAME]`: one's own progress, or
/// (admin, supervisor, auditor) a trainee's.
pub(super) async fn progress(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
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
    staff.require(&state, action, uri.path()).await?;
    if training::role_of(&state.db, &trainee)
        .await
        .map_err(api)?
        .is_none()
    {
        let missing = ApiError::NotFound(format!("there is no user \"{trainee}\""));
        return Err(api(missing));
    }
    let (progress, sign_off) = load_progress(&state, &trainee).await.map_err(api)?;
    Ok(Json(json!({
        "trainee": trainee,
        "progress": progress,
        "signed_off": sign_off.map(|s| json!({"by": s.signed_by, "at": s.signed_at, "promoted": s.promoted})),
    }))
    .into_response())
}
