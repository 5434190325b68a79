//! Tripoley over HTTP: `POST /api/v1/tripoley/round` and
//! `/api/v1/tripoley/final`. A pure calculation, like `/api/v1/settle`:
//! nothing is read from or written to the database. The body goes to the
//! engine as it is, so its errors (field paths) are the engine's own, and
//! the response is the same bytes `pitbook tripoley` prints (without its
//! newline). See docs/tripoley.md.

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use super::{ApiError, AppState};
use crate::domain::tripoley::{self, INPUT_BYTES_MAX, TripoleyError};

/// `round_json` or `final_json`.
type Compute = fn(&[u8], bool) -> Result<String, TripoleyError>;

pub fn router() -> Router<AppState> {
    // One byte over the engine's limit reaches it, which refuses it (422).
    let limit = DefaultBodyLimit::max(INPUT_BYTES_MAX + 1);
    Router::new()
        .route("/api/v1/tripoley/round", post(round).layer(limit))
        .route("/api/v1/tripoley/final", post(final_hand).layer(limit))
}

async fn round(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    respond(body, tripoley::round_json)
}

async fn final_hand(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    respond(body, tripoley::final_json)
}

fn respond(body: Result<Bytes, BytesRejection>, compute: Compute) -> Result<Response, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::BadInput(format!(
                "body: more than the limit of {INPUT_BYTES_MAX} bytes"
            ))
        } else {
            ApiError::BadInput(format!("body: {}", e.body_text()))
        }
    })?;
    let json = compute(&body, false).map_err(|e| {
        if e.is_bad_input() {
            ApiError::BadInput(e.to_string())
        } else {
            ApiError::internal(e)
        }
    })?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}
