//! Tripoley over HTTP: `POST /api/v1/tripoley/round` and
//! `/api/v1/tripoley/final`. A pure calculation, like `/api/v1/settle`:
//! nothing is read from or written to the database. The body goes to the
//! engine as it is, so its errors (field paths) are the engine's own, and
//! the response is the same bytes `pitbook tripoley` prints (without its
//! newline). See docs/tripoley.md.

use axum::Router;
use axum::body::Bytes;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::domain::tripoley::{self, INPUT_BYTES_MAX, TripoleyError};
use crate::web::{ApiError, AppState, json};

/// `round_json` or `final_json`.
type Compute = fn(&[u8], bool) -> Result<String, TripoleyError>;

// The body limit is every JSON route's (`json::Body`); a body over the
// engine's smaller limit reaches the engine, which refuses it (422).
const _: () = assert!(INPUT_BYTES_MAX <= json::BODY_BYTES_MAX);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/tripoley/round", post(round))
        .route("/api/v1/tripoley/final", post(final_hand))
}

async fn round(body: json::Body) -> Result<Response, ApiError> {
    respond(&body, tripoley::round_json)
}

async fn final_hand(body: json::Body) -> Result<Response, ApiError> {
    respond(&body, tripoley::final_json)
}

fn respond(body: &Bytes, compute: Compute) -> Result<Response, ApiError> {
    let json = compute(body, false).map_err(|e| {
        if e.is_bad_input() {
            ApiError::refused(&e)
        } else {
            ApiError::internal(e)
        }
    })?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}
