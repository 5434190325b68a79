//! The hand tools over HTTP: evaluate a hand, set seven cards by house way,
//! list the 21 settings, dice → ACTION seat. Pure: nothing is stored. POST
//! takes a JSON body, GET the same fields as a query string; both return
//! the JSON of `domain::double_hand_poker::tools` (the CLI's `--json`). See docs/hands.md.
//!
//! The static paths `/api/v1/hands/eval` etc. sit beside the hand store's
//! `/api/v1/hands/{id}`; static segments win, and hand ids are UUIDs.

use axum::extract::Query;
use axum::extract::rejection::QueryRejection;
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};

use crate::domain::double_hand_poker::options::{JokerRule, OptionOverrides, Profile, WheelRule};
use crate::domain::double_hand_poker::tools::{
    self, CardsRequest, CardsText, DiceRequest, DiceResponse, EvalResponse, HouseWayResponse,
    SettingsResponse, ToolError,
};
use crate::web::json::core_post;
use crate::web::{ApiError, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route(
            "/api/v1/hands/eval",
            get(eval_get).merge(core_post(tools::eval)),
        )
        .route(
            "/api/v1/hands/house-way",
            get(house_way_get).merge(core_post(tools::house_way)),
        )
        .route(
            "/api/v1/hands/settings",
            get(settings_get).merge(core_post(tools::settings)),
        )
        .route("/api/v1/dice", get(dice_get).merge(core_post(tools::dice)))
}

/// `?cards=As+Ks+Qs+Js+Ts&profile=nevada&joker=wild&wheel=lowest`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CardsQuery {
    cards: String,
    profile: Option<Profile>,
    joker: Option<JokerRule>,
    wheel: Option<WheelRule>,
}

/// `?dice=4,5,3&pd_seat=1&seats=7`
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct DiceQuery {
    dice: String,
    pd_seat: i64,
    seats: Option<i64>,
}

fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t).map_err(|e| {
        let text = e.body_text();
        let text = text
            .strip_prefix("Failed to deserialize query string: ")
            .unwrap_or(&text);
        ApiError::bad_input("query", text)
    })
}

fn cards_query(q: Result<Query<CardsQuery>, QueryRejection>) -> Result<CardsRequest, ApiError> {
    let q = query(q)?;
    Ok(CardsRequest {
        cards: CardsText(q.cards),
        profile: q.profile,
        options: Some(OptionOverrides {
            joker: q.joker,
            wheel: q.wheel,
            ..OptionOverrides::default()
        }),
    })
}

fn respond<T: Serialize>(r: Result<T, ToolError>) -> Result<Json<T>, ApiError> {
    r.map(Json).map_err(|e| ApiError::refused(&e))
}

async fn eval_get(
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<Json<EvalResponse>, ApiError> {
    respond(tools::eval(&cards_query(q)?))
}

async fn house_way_get(
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<Json<HouseWayResponse>, ApiError> {
    respond(tools::house_way(&cards_query(q)?))
}

async fn settings_get(
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<Json<SettingsResponse>, ApiError> {
    respond(tools::settings(&cards_query(q)?))
}

async fn dice_get(
    q: Result<Query<DiceQuery>, QueryRejection>,
) -> Result<Json<DiceResponse>, ApiError> {
    let q = query(q)?;
    let dice = tools::parse_dice_text(&q.dice).map_err(|e| ApiError::refused(&e))?;
    respond(tools::dice(&DiceRequest {
        dice,
        pd_seat: q.pd_seat,
        seats: q.seats,
    }))
}
