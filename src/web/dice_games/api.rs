//! The dice games over HTTP: poker dice (rank, compare, a round) and 10,000
//! (score a throw, score a recorded game). Pure: nothing is stored. Each
//! route takes a JSON body and returns the JSON of `domain::poker_dice` /
//! `domain::ten_thousand` (the CLI's `--json`). See docs/dice-games.md.

use crate::domain::common::field_error::AsFieldError;
use axum::routing::post;
use axum::{Json, Router};

use crate::domain::poker_dice::{
    self, CompareRequest, CompareResponse, RankRequest, RankResponse, RoundRequest, RoundResponse,
};
use crate::domain::ten_thousand::{self, GameRequest, ScoreRequest, ScoreResponse, ScoreSheet};
use crate::web::{ApiError, AppState, json};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/poker-dice/rank", post(rank))
        .route("/api/v1/poker-dice/compare", post(compare))
        .route("/api/v1/poker-dice/round", post(round))
        .route("/api/v1/ten-thousand/score", post(score))
        .route("/api/v1/ten-thousand/game", post(game))
}

fn bad(e: impl AsFieldError + std::fmt::Display) -> ApiError {
    ApiError::refused(&e)
}

async fn rank(body: json::Body) -> Result<Json<RankResponse>, ApiError> {
    let req: RankRequest = json::parse(&body)?;
    poker_dice::rank(&req).map(Json).map_err(bad)
}

async fn compare(body: json::Body) -> Result<Json<CompareResponse>, ApiError> {
    let req: CompareRequest = json::parse(&body)?;
    poker_dice::compare(&req).map(Json).map_err(bad)
}

async fn round(body: json::Body) -> Result<Json<RoundResponse>, ApiError> {
    let req: RoundRequest = json::parse(&body)?;
    poker_dice::round(&req).map(Json).map_err(bad)
}

async fn score(body: json::Body) -> Result<Json<ScoreResponse>, ApiError> {
    let req: ScoreRequest = json::parse(&body)?;
    ten_thousand::score(&req).map(Json).map_err(bad)
}

async fn game(body: json::Body) -> Result<Json<ScoreSheet>, ApiError> {
    let req: GameRequest = json::parse(&body)?;
    ten_thousand::game(&req).map(Json).map_err(bad)
}
