//! The dice games over HTTP: poker dice (rank, compare, a round) and 10,000
//! (score a throw, score a recorded game). Pure: nothing is stored. Each
//! route takes a JSON body and returns the JSON of `domain::poker_dice` /
//! `domain::ten_thousand` (the CLI's `--json`). See docs/dice-games.md.

use axum::Router;

use crate::domain::poker_dice;
use crate::domain::ten_thousand;
use crate::web::AppState;
use crate::web::json::core_post;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/poker-dice/rank", core_post(poker_dice::rank))
        .route("/api/v1/poker-dice/compare", core_post(poker_dice::compare))
        .route("/api/v1/poker-dice/round", core_post(poker_dice::round))
        .route("/api/v1/ten-thousand/score", core_post(ten_thousand::score))
        .route("/api/v1/ten-thousand/game", core_post(ten_thousand::game))
}
