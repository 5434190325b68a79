//! The web layer's error: bad input is 422 with a JSON body naming the field
//! and value; internal errors are logged with detail and shown without it.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::store::double_hand_poker::hands::CommandError;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Input that can never succeed as sent (HTTP 422).
    #[error("{0}")]
    BadInput(String),
    /// Input that conflicts with the current state (HTTP 409).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    NotFound(String),
    /// A bug or an outage: logged in full, shown as a generic message.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(detail.to_string())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, kind, message) = match &self {
            ApiError::BadInput(m) => (StatusCode::UNPROCESSABLE_ENTITY, "bad_input", m.clone()),
            ApiError::Conflict(m) => (StatusCode::CONFLICT, "conflict", m.clone()),
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, "not_found", m.clone()),
            ApiError::Internal(detail) => {
                tracing::error!(error = %detail, "internal error");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "internal error; the details are in the server log".to_string(),
                )
            }
        };
        (status, Json(json!({ "error": kind, "message": message }))).into_response()
    }
}

/// A page's internal error: logged in full, answered with the generic 500.
pub fn internal(e: impl std::fmt::Display) -> Response {
    ApiError::internal(e).into_response()
}

/// The hand store's refusals as HTTP: 409 for a conflict with the hand's
/// state (a stale version, an event the phase does not allow), 500 for the
/// store or a hand error that is not bad input, 422 for the rest.
pub fn command_status(e: &CommandError) -> StatusCode {
    match e {
        CommandError::Stale { .. } => StatusCode::CONFLICT,
        CommandError::Hand(h) if h.is_state_conflict() => StatusCode::CONFLICT,
        CommandError::Hand(h) if !h.is_bad_input() => StatusCode::INTERNAL_SERVER_ERROR,
        CommandError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

impl From<CommandError> for ApiError {
    fn from(e: CommandError) -> Self {
        match command_status(&e) {
            StatusCode::CONFLICT => ApiError::Conflict(e.to_string()),
            StatusCode::UNPROCESSABLE_ENTITY => ApiError::BadInput(e.to_string()),
            _ => ApiError::internal(e),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        ApiError::internal(e)
    }
}
