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

use serde_json::{Value, json};

use crate::domain::double_hand_poker::settle::{
    self, ScenarioInput, SettleError, Settlement, limits,
};
use crate::web::{ApiError, AppState, ErrorBody, json};

// The body limit of every JSON route is the engine's own: over it is bad
// input (422, `input: …`), like the CLI, not axum's plain-text 413.
const _: () = assert!(limits::INPUT_BYTES_MAX == json::BODY_BYTES_MAX);

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/settle", post(settle_post))
}

/// docs/settle.md's seed example: Dana banks $200, four wagers.
fn seed_example() -> Value {
    serde_json::from_str(settle::SEED_EXAMPLE).unwrap_or_default()
}

/// The engine's settlement of the seed example, as this route sends it.
fn seed_settled() -> Value {
    settle::settle_json(settle::SEED_EXAMPLE)
        .map_err(|e| e.to_string())
        .and_then(|text| serde_json::from_str(&text).map_err(|e| e.to_string()))
        .unwrap_or_else(|e| json!({"example_refused": e}))
}

/// Settle one Double Hand Poker hand.
///
/// Every wager's step in ACTION order, each participant's totals, the
/// collection, and the balances asserted.
#[utoipa::path(post, path = "/api/v1/settle", operation_id = "settle", tag = "settle",
    request_body(content = ScenarioInput, description = "The scenario: the PD, the ACTION seat, \
the wagers in the order placed, and who won (`outcomes`) or the hands (`hands`).",
        example = json!(seed_example())),
    responses(
        (status = 200, description = "The settlement (docs/settle.md).", body = Settlement,
            example = json!(seed_settled())),
        (status = 422, description = "A scenario that cannot settle, naming its field \
(`wagers[2].amount`, `outcomes.5`; `input` for the body itself); a settlement that differs from \
the recomputed one names none.", body = ErrorBody),
    ))]
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
