//! The dice games over HTTP: poker dice (rank, compare, a round) and 10,000
//! (score a throw, score a recorded game). Pure: nothing is stored. Each
//! route takes a JSON body and returns the JSON of `domain::poker_dice` /
//! `domain::ten_thousand` (the CLI's `--json`). See docs/dice-games.md.

use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};

use crate::domain::poker_dice::{
    self, CompareRequest, CompareResponse, RankRequest, RankResponse, RoundRequest, RoundResponse,
};
use crate::domain::ten_thousand::{self, GameRequest, ScoreRequest, ScoreResponse, ScoreSheet};
use crate::web::json::{Body, core_answer};
use crate::web::openapi::examples::answer;
use crate::web::{ApiError, AppState, ErrorBody};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/poker-dice/rank", post(rank))
        .route("/api/v1/poker-dice/compare", post(compare))
        .route("/api/v1/poker-dice/round", post(round))
        .route("/api/v1/ten-thousand/score", post(score))
        .route("/api/v1/ten-thousand/game", post(game))
}

fn rank_example() -> Value {
    json!({"faces": "A A A K K", "profile": "caribena", "straights": "none"})
}

/// Rank one poker-dice hand: its combination, names and rank.
#[utoipa::path(post, path = "/api/v1/poker-dice/rank", operation_id = "poker_dice_rank", tag = "dice games",
    request_body(content = RankRequest, example = json!(rank_example())),
    responses(
        (status = 200, description = "The hand ranked.", body = RankResponse,
            example = json!(answer(poker_dice::rank, rank_example()))),
        (status = 422, description = "A face outside the profile, or not five dice: `faces`.", body = ErrorBody),
    ))]
async fn rank(body: Body) -> Result<Json<RankResponse>, ApiError> {
    core_answer(poker_dice::rank, &body)
}

fn compare_example() -> Value {
    json!({"hands": ["Q Q Q J N", "A A A K K"]})
}

/// Compare 2 to 8 poker-dice hands: the winner or the tie, and why.
#[utoipa::path(post, path = "/api/v1/poker-dice/compare", operation_id = "poker_dice_compare", tag = "dice games",
    request_body(content = CompareRequest, example = json!(compare_example())),
    responses(
        (status = 200, description = "The hands ranked and the decision (`winners` are 0-based).",
            body = CompareResponse, example = json!(answer(poker_dice::compare, compare_example()))),
        (status = 422, description = "Too few or too many hands, or a bad hand: `hands[i]`.", body = ErrorBody),
    ))]
async fn compare(body: Body) -> Result<Json<CompareResponse>, ApiError> {
    core_answer(poker_dice::compare, &body)
}

fn round_example() -> Value {
    json!({"players": [
        {"name": "Ana", "throws": [{"rolled": "A K Q Q N"}, {"held": "Q Q", "rolled": "Q J R"}]},
        {"name": "Ben", "throws": [{"rolled": "A A R K K"}, {"held": "A A K K", "rolled": "A"}]}
    ]})
}

/// Score a poker-dice round.
///
/// Each player's throws, the final hands, the winner or the tie.
#[utoipa::path(post, path = "/api/v1/poker-dice/round", operation_id = "poker_dice_round", tag = "dice games",
    request_body(content = RoundRequest, example = json!(round_example())),
    responses(
        (status = 200, description = "The round scored.", body = RoundResponse,
            example = json!(answer(poker_dice::round, round_example()))),
        (status = 422, description = "A throw that breaks the rules, named by its path (`players[0].throws[2].held`).", body = ErrorBody),
    ))]
async fn round(body: Body) -> Result<Json<RoundResponse>, ApiError> {
    core_answer(poker_dice::round, &body)
}

fn score_example() -> Value {
    json!({"dice": [1, 1, 2, 3, 5, 6], "options": {"dice": 6}})
}

/// Every legal keep of one 10,000 throw, with its points.
#[utoipa::path(post, path = "/api/v1/ten-thousand/score", operation_id = "ten_thousand_score", tag = "dice games",
    request_body(content = ScoreRequest, example = json!(score_example())),
    responses(
        (status = 200, description = "The keeps, the best, and whether the throw is a bust.",
            body = ScoreResponse, example = json!(answer(ten_thousand::score, score_example()))),
        (status = 422, description = "Not a die, or too many dice: `dice[i]`, `options.dice`.", body = ErrorBody),
    ))]
async fn score(body: Body) -> Result<Json<ScoreResponse>, ApiError> {
    core_answer(ten_thousand::score, &body)
}

fn game_example() -> Value {
    json!({
        "options": {"target": 10000},
        "players": ["Ana", "Ben"],
        "turns": [
            {"player": "Ana", "throws": [
                {"dice": [1, 1, 3, 3, 3, 5], "keep": [1, 1, 3, 3, 3, 5]},
                {"dice": [5, 2, 2, 3, 4, 6], "keep": [5]},
                {"dice": [1, 1, 1, 4, 6], "keep": [1, 1, 1]}
            ]},
            {"player": "Ben", "throws": [
                {"dice": [4, 4, 4, 4, 6, 6], "keep": [4, 4, 4, 4]},
                {"dice": [6, 3], "keep": null}
            ]}
        ]
    })
}

/// Score a recorded 10,000 game: the score sheet, the totals, the winner.
#[utoipa::path(post, path = "/api/v1/ten-thousand/game", operation_id = "ten_thousand_game", tag = "dice games",
    request_body(content = GameRequest, example = json!(game_example())),
    responses(
        (status = 200, description = "The score sheet.", body = ScoreSheet,
            example = json!(answer(ten_thousand::game, game_example()))),
        (status = 422, description = "A throw, keep or turn against the rules, named by its path (`turns[1].throws[0].keep`).", body = ErrorBody),
    ))]
async fn game(body: Body) -> Result<Json<ScoreSheet>, ApiError> {
    core_answer(ten_thousand::game, &body)
}
