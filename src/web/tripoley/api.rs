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

use serde_json::{Value, json};

use crate::domain::tripoley::{
    self, FinalInput, INPUT_BYTES_MAX, Outcome, RoundInput, RoundOutput, TripoleyError,
};
use crate::web::openapi::examples::answer;
use crate::web::{ApiError, AppState, ErrorBody, json};

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

/// docs/tripoley.md's classic round: four players, a spare auction, a
/// side pot, Michigan.
fn round_example() -> Value {
    json!({
        "profile": "classic",
        "players": ["Ann", "Bo", "Cy", "Dee"],
        "dealer": "Dee",
        "chips": {"Ann": 40, "Bo": 25, "Cy": 12, "Dee": 30},
        "board": {"king_queen": 3, "eight_nine_ten": 5, "pot": 1},
        "ante": 1,
        "hands": {
            "Ann": "Ah 8s 9s Ts As Ad 8c 2d Jd 9c Ac",
            "Bo": "8d 9d Td Th 7c 6h 5h 3d Qd Tc",
            "Cy": "Jh 2c 4s 6s Js 2h 7h 4d 3c Jc",
            "spare": "Kh Kd 4c 5d 2s Ks 4h 9h 7d 6c Kc",
            "Dee": "Qh 3s 5s 7s Qs 3h 8h 6d 5c Qc"
        },
        "spare": {"dealer_swaps": false, "auction": {"buyer": "Cy", "price": 2}},
        "poker": {
            "contributions": {"Ann": 10, "Bo": 10, "Cy": 5, "Dee": 2},
            "folded": ["Dee"],
            "shown": {"Ann": "As Ad 8s 8c Ts", "Bo": "6h 7c 8d 9d Td", "Cy": "Kh Kd 4c 5d 2s"}
        },
        "michigan": {"out": "Ann", "cards_left": {"Bo": 3, "Cy": 6, "Dee": 2}},
        "chip_value": "0.25"
    })
}

/// docs/tripoley.md's end of the game.
fn final_example() -> Value {
    json!({
        "players": ["Ann", "Bo", "Cy", "Dee"],
        "dealer": "Bo",
        "chips": {"Ann": 38, "Bo": 43, "Cy": 0, "Dee": 23},
        "board": {"jack": 4, "king_queen": 7},
        "hands": {
            "Ann": "Ks Kd 9c 7h 4s",
            "Bo": "Qs Qd Jc 8h 2c",
            "Cy": "Kh Kc 9d 7s 4c",
            "Dee": "As Jd 8c 6h 3d"
        },
        "chip_value": "0.25"
    })
}

/// Pay out one Tripoley round.
///
/// Every payout as a step the dealer reads aloud, the chips after, and who
/// deals next.
#[utoipa::path(post, path = "/api/v1/tripoley/round", operation_id = "tripoley_round", tag = "tripoley",
    request_body(content = RoundInput, example = json!(round_example())),
    responses(
        (status = 200, description = "The round paid out (docs/tripoley.md).", body = RoundOutput,
            example = json!(answer(tripoley::play_round, round_example()))),
        (status = 422, description = "A round that cannot be paid, naming its field (`hands.Bo`, \
`poker.contributions.Cy`).", body = ErrorBody),
    ))]
async fn round(body: json::Body) -> Result<Response, ApiError> {
    respond(&body, tripoley::round_json, "TripoleyRound")
}

/// The end of a Tripoley game.
///
/// The board's sections go to the Pot, and the Pot to the best last
/// five-card hand.
#[utoipa::path(post, path = "/api/v1/tripoley/final", operation_id = "tripoley_final", tag = "tripoley",
    request_body(content = FinalInput, example = json!(final_example())),
    responses(
        (status = 200, description = "The end of the game paid out.", body = Outcome,
            example = json!(answer(tripoley::play_final, final_example()))),
        (status = 422, description = "Hands or chips that cannot be paid, naming the field.", body = ErrorBody),
    ))]
async fn final_hand(body: json::Body) -> Result<Response, ApiError> {
    respond(&body, tripoley::final_json, "TripoleyFinal")
}

/// The core's answer to the body, whose shape is then checked against the
/// contract's schema `name` (serde takes an array for an object).
fn respond(body: &Bytes, compute: Compute, name: &str) -> Result<Response, ApiError> {
    let json = compute(body, false).map_err(|e| {
        if e.is_bad_input() {
            ApiError::refused(&e)
        } else {
            ApiError::internal(e)
        }
    })?;
    crate::web::openapi::shape::check(name, body)?;
    Ok(([(header::CONTENT_TYPE, "application/json")], json).into_response())
}
