//! The hand store over HTTP: open a hand, send commands, read a hand's full
//! record. Every write is one transaction with its audit records.

use axum::Json;
use axum::Router;
use axum::body::Bytes;
use axum::extract::{Path, State};
use axum::http::{HeaderName, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use super::{ApiError, AppState, json};
use crate::store::hands::{self, CommandError, HandCommand};

const REPLAYED: HeaderName = HeaderName::from_static("idempotent-replayed");

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/hands", post(open_hand))
        .route("/api/v1/hands/{id}", get(show_hand))
        .route("/api/v1/hands/{id}/commands", post(command))
}

async fn open_hand(State(state): State<AppState>, body: Bytes) -> Result<Response, ApiError> {
    run(&state, None, &body).await
}

async fn command(
    State(state): State<AppState>,
    Path(id): Path<String>,
    body: Bytes,
) -> Result<Response, ApiError> {
    run(&state, Some(&id), &body).await
}

async fn run(state: &AppState, hand_id: Option<&str>, body: &Bytes) -> Result<Response, ApiError> {
    let command: HandCommand = json::parse(body)?;
    let (result, replayed) = state
        .hand_writer
        .submit(hand_id.map(str::to_string), command)
        .await?;
    let status = if hand_id.is_none() && !replayed {
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

async fn show_hand(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    match hands::get(&state.db, &id).await? {
        Some(view) => Ok(Json(view).into_response()),
        None => Err(ApiError::NotFound(format!("hand_id: no hand \"{id}\""))),
    }
}

impl From<CommandError> for ApiError {
    fn from(e: CommandError) -> Self {
        match e.status() {
            409 => ApiError::Conflict(e.to_string()),
            422 => ApiError::BadInput(e.to_string()),
            _ => ApiError::internal(e),
        }
    }
}
