//! `POST /api/v1/settle`: the scenario JSON in the body, the settlement JSON
//! back — the same bytes `pitbook settle` prints (without its newline).
//! A pure calculation: nothing is read from or written to the database.
//! The body text goes to the engine as it is, so its errors (field paths,
//! positions in the text) are the engine's own. See docs/settle.md.

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;

use crate::domain::double_hand_poker::settle::{self, SettleError, limits};
use crate::web::{ApiError, AppState, json};

// The body limit of every JSON route is the engine's own: over it is bad
// input (422, `input: …`), like the CLI, not axum's plain-text 413.
const _: () = assert!(limits::INPUT_BYTES_MAX == json::BODY_BYTES_MAX);

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/settle", post(settle_post))
}

async fn settle_post(body: Result<Bytes, BytesRejection>) -> Result<Response, Response> {
    let body = body.map_err(|e| json::body_rejection(&e, "input"))?;
    let text = std::str::from_utf8(&body).map_err(|e| {
        ApiError::bad_input(
            "input",
            format!(
                "the body is not UTF-8 text (invalid byte at offset {})",
                e.valid_up_to()
            ),
        )
        .into_response()
    })?;
    let json = settle::settle_json(text).map_err(|e| api_error(e).into_response())?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}

fn api_error(e: SettleError) -> ApiError {
    if e.is_bad_input() {
        ApiError::refused(&e)
    } else {
        ApiError::internal(e)
    }
}
