//! The hand store over HTTP: open a hand, send commands, read a hand's full
//! record. Every write is one transaction with its audit records. Every
//! route needs a signed-in staff member (session or API token); the actor
//! recorded is always that user.

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use serde::Deserialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::domain::common::field_error::FieldError;
use crate::domain::double_hand_poker::hand_record::{HandError, HandEvent, open_request};
use crate::domain::staff::{Action, allows};
use crate::store::double_hand_poker::hands::{
    self, CommandError, CommandResult, HandCommand, HandView,
};
use crate::store::double_hand_poker::tables::{self, AtTable};
use crate::web::{ApiError, AppState, AtPath, ErrorBody, Staff, json};

const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/hands",
            post(open_hand).get(crate::web::history::api::search),
        )
        .route("/api/v1/hands/{id}", get(show_hand))
        .route("/api/v1/hands/{id}/commands", post(command))
        .route("/api/v1/hands/{id}/notes", post(add_note))
}

/// A note as the API takes it: who and when are the signed-in user and the
/// record's time, never the body's.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = HandNote)]
#[serde(deny_unknown_fields)]
struct ApiNote {
    /// Client-generated (a UUID), 1 to 128 characters; a repeat returns the
    /// first result and writes nothing.
    idempotency_key: String,
    /// The hand's current version (409 otherwise).
    expected_version: u64,
    /// The note: free text, lines allowed, up to 500 characters.
    text: String,
}

/// Add a note to a hand (a dispute, what surveillance showed), in any phase.
///
/// One `hand_note_added` through the hand writer (admin, supervisor,
/// auditor); the core checks the text (422 naming `text`).
#[utoipa::path(post, path = "/api/v1/hands/{id}/notes", operation_id = "add_hand_note", tag = "hands", params(("id" = String, Path, description = "The hand's id (a UUID).")),
    request_body(content = ApiNote,
        example = json!({"idempotency_key": "note-7f3a", "expected_version": 9, "text": "Surveillance confirms the PD's bank was $200."})),
    responses(
        (status = 200, description = "The note recorded (`Idempotent-Replayed: true` on a repeat).", body = CommandResult,
            example = json!(note_answer())),
        (status = 404, description = "No such hand (`not_found`).", body = ErrorBody),
        (status = 409, description = "`expected_version` is not the hand's version (`conflict`).", body = ErrorBody),
        (status = 422, description = "An empty or too long note (`text`), or a bad key (`idempotency_key`).", body = ErrorBody),
    ))]
async fn add_note(
    AtPath { state, staff, id }: AtPath,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::AddNotes).await?;
    let note: ApiNote = json::parse(&body).map_err(IntoResponse::into_response)?;
    json::conforms::<ApiNote>(&body).map_err(IntoResponse::into_response)?;
    let command = HandCommand {
        idempotency_key: note.idempotency_key,
        expected_version: Some(note.expected_version),
        actor: staff.0.user.username.clone(),
        events: vec![HandEvent::HandNoteAdded { text: note.text }],
    };
    submitted_as(&state, Some(id), command, note_error).await
}

/// The note's one event is the body's `text`: a refusal of
/// `events[0].text` names `text`, the field the client sent.
fn note_error(e: ApiError) -> ApiError {
    match e {
        ApiError::BadInput(fe) => match fe.field().strip_prefix("events[0].") {
            Some(field) => {
                let field = field.to_string();
                ApiError::BadInput(fe.with_field(field))
            }
            None => ApiError::BadInput(fe),
        },
        other => other,
    }
}

/// A command as the API takes it: the store's [`HandCommand`] whose actor is
/// the signed-in user. `actor` may be sent, but must then be that user.
#[derive(Debug, Deserialize, ToSchema)]
#[schema(as = HandCommand)]
#[serde(deny_unknown_fields)]
struct ApiCommand {
    /// Client-generated (a UUID), 1 to 128 characters; a repeat returns the
    /// first result and writes nothing (the same key with another body is 422).
    idempotency_key: String,
    /// The hand's current version; leave it out when opening a hand.
    #[serde(default)]
    expected_version: Option<u64>,
    /// If sent, it must be the signed-in user (else 422): the actor is who
    /// is signed in.
    #[serde(default)]
    actor: Option<String>,
    /// The events, in order (docs/audit.md). Read one by one with
    /// [`HandEvent::parse_tracked`], so an error names the field
    /// (`events[2].amount`).
    #[schema(value_type = Vec<HandEvent>)]
    events: Vec<serde_json::Value>,
}

/// The command's events, or a 422 naming `events[i].field`.
fn events_of(sent: Vec<serde_json::Value>) -> Result<Vec<HandEvent>, ApiError> {
    sent.into_iter()
        .enumerate()
        .map(|(i, value)| {
            HandEvent::parse_tracked(value).map_err(|(path, message)| {
                ApiError::bad_input(format!("events[{i}]{path}"), message)
            })
        })
        .collect()
}

fn open_example() -> Value {
    json!({"idempotency_key": "5b0c-open", "events": [{"type": "hand_opened", "table": "T1"}]})
}

fn command_example() -> Value {
    json!({"idempotency_key": "5b0c-w1", "expected_version": 2, "events": [
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}
    ]})
}

/// What a command answers: the hand, its version and phase, the records.
fn command_answer(version: u64, seq: i64, event_type: &str) -> Value {
    json!({"hand_id": "01a22754-4533-75d4-b1bd-e5b4aed7234c", "version": version,
        "phase": "betting",
        "records": [{"seq": seq, "event_type": event_type,
            "hash": "50b37c77a3e2c1d0f4e5b6a7980c1d2e3f4a5b6c7d8e9f0a1b2c3d4e5f601cd0"}]})
}

fn note_answer() -> Value {
    command_answer(10, 120, "hand_note_added")
}

/// Open a hand at a configured table.
///
/// The first event is `hand_opened` with only `table`; the store records the
/// table's rules with it.
#[utoipa::path(post, path = "/api/v1/hands", operation_id = "open_hand", tag = "hands",
    request_body(content = ApiCommand, example = json!(open_example())),
    responses(
        (status = 201, description = "The hand opened.", body = CommandResult,
            example = json!(command_answer(1, 3, "hand_opened"))),
        (status = 200, description = "A repeated `idempotency_key`: the first result, with \
`Idempotent-Replayed: true`; nothing written.", body = CommandResult),
        (status = 403, description = "A role that runs no hands, a dealer not assigned to the \
table, a trainee at a real table, or an event only a supervisor may send (`forbidden`).", body = ErrorBody),
        (status = 409, description = "The table requires an open shift and has none, or its \
rotation clock refuses the PD (`conflict`).", body = ErrorBody),
        (status = 422, description = "An event the rules refuse, naming it \
(`events[0].table: \"T9\" is not a configured table`, `events[2].amount`).", body = ErrorBody),
    ))]
async fn open_hand(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    run(&state, &staff, None, &body).await
}

/// More events for a hand (a command).
///
/// One transaction with their audit records, or nothing.
#[utoipa::path(post, path = "/api/v1/hands/{id}/commands", operation_id = "hand_command", tag = "hands", params(("id" = String, Path, description = "The hand's id (a UUID).")),
    request_body(content = ApiCommand, example = json!(command_example())),
    responses(
        (status = 200, description = "The events recorded (`Idempotent-Replayed: true` on a \
repeat); `settlement` once the hand is closed.", body = CommandResult,
            example = json!(command_answer(3, 5, "wager_placed"))),
        (status = 403, description = "Not assigned to the hand's table, or an event only a \
supervisor may send (`outcome_corrected`, `hand_voided`) (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such hand (`not_found`).", body = ErrorBody),
        (status = 409, description = "`expected_version` is stale, or the hand's phase does not \
allow the event (`conflict`); nothing written.", body = ErrorBody),
        (status = 422, description = "An event the rules refuse, naming it (`events[2].amount: \
\"200.00\" is above the table maximum 100.00`).", body = ErrorBody),
    ))]
async fn command(
    AtPath { state, staff, id }: AtPath,
    body: json::Body,
) -> Result<Response, Response> {
    run(&state, &staff, Some(&id), &body).await
}

/// Checks the role (a write needs `ActOnTable`), parses the command (a
/// supervisor-only event also needs `CorrectHands`) and submits it as the
/// signed-in user.
async fn run(
    state: &AppState,
    staff: &Staff,
    hand_id: Option<&str>,
    body: &Bytes,
) -> Result<Response, Response> {
    // Someone who runs no hands anywhere (an auditor) is refused before
    // the body is read; where they may run this one is checked below.
    let role = staff.0.user.role;
    if !allows(role, Action::ActOnTable { assigned: true }) && !allows(role, Action::ActInTraining)
    {
        staff
            .require_here(state, Action::ActOnTable { assigned: true })
            .await?;
    }
    let api: ApiCommand = json::parse(body).map_err(IntoResponse::into_response)?;
    let events = events_of(api.events).map_err(IntoResponse::into_response)?;
    json::conforms::<ApiCommand>(body).map_err(IntoResponse::into_response)?;
    require_assignment(state, staff, hand_id, &events).await?;
    let username = &staff.0.user.username;
    if let Some(actor) = api.actor.as_deref()
        && actor != username
    {
        let message = format!(
            "\"{actor}\" is not the signed-in user \"{username}\" (leave it out: the actor is who is signed in)"
        );
        return Err(
            ApiError::BadInput(FieldError::new("actor", message).with_value(actor)).into_response(),
        );
    }
    if events.iter().any(HandEvent::is_supervisor_only) {
        staff.require_here(state, Action::CorrectHands).await?;
    }
    // A note is not part of running a hand: it has its own route and role.
    if let Some(i) = events.iter().position(HandEvent::is_note) {
        let message = "a note is added with POST /api/v1/hands/{id}/notes, not in a command";
        return Err(ApiError::bad_input(format!("events[{i}].type"), message).into_response());
    }
    let command = HandCommand {
        idempotency_key: api.idempotency_key,
        expected_version: api.expected_version,
        actor: username.clone(),
        events,
    };
    submitted(state, hand_id.map(str::to_string), command).await
}

/// Submits a command to the hand writer: 201 for a new hand, else 200,
/// with `Idempotent-Replayed: true` for a repeated key.
async fn submitted(
    state: &AppState,
    hand_id: Option<String>,
    command: HandCommand,
) -> Result<Response, Response> {
    submitted_as(state, hand_id, command, |e| e).await
}

/// [`submitted`], its refusal first reworded by `refused` (a route whose
/// body is not the command's shape names its own fields).
async fn submitted_as(
    state: &AppState,
    hand_id: Option<String>,
    command: HandCommand,
    refused: fn(ApiError) -> ApiError,
) -> Result<Response, Response> {
    let opens = hand_id.is_none();
    let (result, replayed) = state
        .hand_writer
        .submit(hand_id, command)
        .await
        .map_err(|e| refused(ApiError::from(e)).into_response())?;
    let status = if opens && !replayed {
        StatusCode::CREATED
    } else {
        StatusCode::OK
    };
    let mut response = (status, Json(result)).into_response();
    if replayed {
        response
            .headers_mut()
            .insert(REPLAYED, HeaderValue::from_static("true"));
    }
    Ok(response)
}

/// At a table configured in pitbook, a dealer acts only where assigned and
/// a trainee only at a training table; a hand at a name pitbook does not
/// know as a table (a script, an import) needs the right to run hands on
/// real tables.
async fn require_assignment(
    state: &AppState,
    staff: &Staff,
    hand_id: Option<&str>,
    events: &[HandEvent],
) -> Result<(), Response> {
    let username = &staff.0.user.username;
    let opening = match (hand_id, events.first()) {
        (Some(_), _) => None,
        (None, Some(first)) => Some(open_request(first, username).map_err(|e| {
            ApiError::from(CommandError::from(HandError::At {
                index: 0,
                error: Box::new(e),
            }))
            .into_response()
        })?),
        (None, None) => {
            return Err(
                ApiError::bad_input("events", "a hand opens with hand_opened").into_response(),
            );
        }
    };
    let at = match (hand_id, &opening) {
        (Some(id), _) => AtTable::Hand(id),
        (None, Some(table)) => AtTable::Table(table),
        (None, None) => AtTable::Table(""),
    };
    let found = tables::assignment(&state.db, at, username)
        .await
        .map_err(|e| ApiError::from(e).into_response())?;
    let action = match found {
        Some(a) if a.configured => a.run_hands(),
        // A hand opens only at a configured table.
        Some(_) if hand_id.is_none() => {
            let name = opening.unwrap_or_default();
            return Err(ApiError::from(CommandError::UnknownTable(name)).into_response());
        }
        // A hand recorded before then at a name no table has.
        Some(_) => Action::ActOnTable { assigned: true },
        // An unknown hand is the writer's answer to give.
        None => return Ok(()),
    };
    staff.require_here(state, action).await
}

/// A hand's projection and every record of it.
#[utoipa::path(get, path = "/api/v1/hands/{id}", operation_id = "get_hand", tag = "hands", params(("id" = String, Path, description = "The hand's id (a UUID).")),
    responses(
        (status = 200, description = "The hand and its records, oldest first.", body = HandView),
        (status = 404, description = "No such hand (`not_found`).", body = ErrorBody),
    ))]
async fn show_hand(AtPath { state, staff, id }: AtPath) -> Result<Response, Response> {
    staff.require_here(&state, Action::Read).await?;
    match hands::get(&state.db, &id)
        .await
        .map_err(|e| ApiError::from(e).into_response())?
    {
        Some(view) => Ok(Json(view).into_response()),
        None => Err(ApiError::NotFound(format!("hand_id: no hand \"{id}\"")).into_response()),
    }
}
