//! `POST /api/v1/settle`: the scenario JSON in the body, the settlement JSON
//! back — the same bytes `pitbook settle` prints (without its newline).
//! A pure calculation: nothing is read from or written to the database.
//! The body text goes to the engine as it is, so its errors (field paths,
//! positions in the text) are the engine's own. See docs/settle.md.

use axum::Router;
use axum::body::Bytes;
use axum::extract::DefaultBodyLimit;
use axum::extract::rejection::BytesRejection;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use super::{ApiError, AppState};
use crate::domain::settle::{self, SettleError, limits};

pub fn router() -> Router<AppState> {
    // Never buffer more than the engine accepts; over it is bad input (422),
    // like the CLI, not axum's plain-text 413.
    Router::new().route(
        "/api/v1/settle",
        post(settle_post).layer(DefaultBodyLimit::max(limits::INPUT_BYTES_MAX)),
    )
}

async fn settle_post(body: Result<Bytes, BytesRejection>) -> Result<Response, ApiError> {
    let body = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::BadInput(format!(
                "input: the body is more than the limit of {} bytes",
                limits::INPUT_BYTES_MAX
            ))
        } else {
            ApiError::BadInput(format!("input: {}", e.body_text()))
        }
    })?;
    let text = std::str::from_utf8(&body).map_err(|e| {
        ApiError::BadInput(format!(
            "input: the body is not UTF-8 text (invalid byte at offset {})",
            e.valid_up_to()
        ))
    })?;
    let json = settle::settle_json(text).map_err(api_error)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

fn api_error(e: SettleError) -> ApiError {
    if e.is_bad_input() {
        ApiError::BadInput(e.to_string())
    } else {
        ApiError::internal(e)
    }
}
