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
use serde_json::{Value, json};
use utoipa::IntoParams;

use crate::domain::double_hand_poker::options::{JokerRule, OptionOverrides, Profile, WheelRule};
use crate::domain::double_hand_poker::tools::{
    self, CardsRequest, CardsText, DiceRequest, DiceResponse, EvalResponse, HouseWayResponse,
    SettingsResponse, ToolError,
};
use crate::web::json::{Body, core_answer, query};
use crate::web::openapi::examples::answer;
use crate::web::{ApiError, AppState, ErrorBody};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/hands/eval", get(eval_get).post(eval_post))
        .route(
            "/api/v1/hands/house-way",
            get(house_way_get).post(house_way_post),
        )
        .route(
            "/api/v1/hands/settings",
            get(settings_get).post(settings_post),
        )
        .route("/api/v1/dice", get(dice_get).post(dice_post))
}

/// `?cards=As+Ks+Qs+Js+Ts&profile=nevada&joker=wild&wheel=lowest`
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
struct CardsQuery {
    /// The cards, separated by spaces or commas (`As Ks Qs Js Ts`).
    cards: String,
    /// The rule profile; default `lucky-chances`.
    profile: Option<Profile>,
    /// What the joker is, over the profile.
    joker: Option<JokerRule>,
    /// Where A-2-3-4-5 ranks, over the profile.
    wheel: Option<WheelRule>,
}

/// `?dice=4,5,3&pd_seat=1&seats=7`
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(deny_unknown_fields)]
struct DiceQuery {
    /// The three dice, separated by commas or spaces (`4,5,3`).
    dice: String,
    /// The PD's seat.
    pd_seat: i64,
    /// Seats at the table; default 7.
    seats: Option<i64>,
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

fn eval_example() -> Value {
    json!({"cards": "Kh Kd Ks 4c 4d"})
}

fn house_way_example() -> Value {
    json!({"cards": "As Ks Qd Jc 9h 8s 8d"})
}

fn settings_example() -> Value {
    json!({"cards": "Ah Ad Kc Ks 7h 6d 2c"})
}

fn dice_example() -> Value {
    json!({"dice": [4, 5, 3], "pd_seat": 1})
}

/// Evaluate a 5- or 2-card hand (query string).
#[utoipa::path(get, path = "/api/v1/hands/eval", operation_id = "eval_hand_query", tag = "hand tools", params(CardsQuery),
    responses(
        (status = 200, description = "The hand, its category, name and rank.", body = EvalResponse),
        (status = 422, description = "A bad card or count (`cards`), or a bad query string (`query`).", body = ErrorBody),
    ))]
async fn eval_get(
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<Json<EvalResponse>, ApiError> {
    respond(tools::eval(&cards_query(q)?))
}

/// Evaluate a 5- or 2-card hand.
#[utoipa::path(post, path = "/api/v1/hands/eval", operation_id = "eval_hand", tag = "hand tools",
    request_body(content = CardsRequest, example = json!(eval_example())),
    responses(
        (status = 200, description = "The hand, its category, name and rank.", body = EvalResponse,
            example = json!(answer(tools::eval, eval_example()))),
        (status = 422, description = "A bad card or count, or a joker where the deck has none (`cards`).", body = ErrorBody),
    ))]
async fn eval_post(body: Body) -> Result<Json<EvalResponse>, ApiError> {
    core_answer(tools::eval, &body)
}

/// Set seven cards by the house way (query string).
#[utoipa::path(get, path = "/api/v1/hands/house-way", operation_id = "house_way_query", tag = "hand tools", params(CardsQuery),
    responses(
        (status = 200, description = "The high and low hands as the house way sets them.", body = HouseWayResponse),
        (status = 422, description = "Not seven cards, a card twice (`cards`), or a bad query string (`query`).", body = ErrorBody),
    ))]
async fn house_way_get(
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<Json<HouseWayResponse>, ApiError> {
    respond(tools::house_way(&cards_query(q)?))
}

/// Set seven cards by the house way.
#[utoipa::path(post, path = "/api/v1/hands/house-way", operation_id = "house_way", tag = "hand tools",
    request_body(content = CardsRequest, example = json!(house_way_example())),
    responses(
        (status = 200, description = "The high and low hands as the house way sets them.", body = HouseWayResponse,
            example = json!(answer(tools::house_way, house_way_example()))),
        (status = 422, description = "Not seven cards, or a card twice (`cards`).", body = ErrorBody),
    ))]
async fn house_way_post(body: Body) -> Result<Json<HouseWayResponse>, ApiError> {
    core_answer(tools::house_way, &body)
}

/// Every one of the 21 settings of seven cards (query string).
#[utoipa::path(get, path = "/api/v1/hands/settings", operation_id = "settings_query", tag = "hand tools", params(CardsQuery),
    responses(
        (status = 200, description = "The 21 settings, fouls marked, and the house way's choice.", body = SettingsResponse),
        (status = 422, description = "Not seven cards (`cards`), or a bad query string (`query`).", body = ErrorBody),
    ))]
async fn settings_get(
    q: Result<Query<CardsQuery>, QueryRejection>,
) -> Result<Json<SettingsResponse>, ApiError> {
    respond(tools::settings(&cards_query(q)?))
}

/// Every one of the 21 settings of seven cards.
#[utoipa::path(post, path = "/api/v1/hands/settings", operation_id = "settings", tag = "hand tools",
    request_body(content = CardsRequest, example = json!(settings_example())),
    responses(
        (status = 200, description = "The 21 settings, fouls marked, and the house way's choice.", body = SettingsResponse,
            example = json!(answer(tools::settings, settings_example()))),
        (status = 422, description = "Not seven cards (`cards`).", body = ErrorBody),
    ))]
async fn settings_post(body: Body) -> Result<Json<SettingsResponse>, ApiError> {
    core_answer(tools::settings, &body)
}

/// Three dice and the PD's seat: the ACTION seat (query string).
#[utoipa::path(get, path = "/api/v1/dice", operation_id = "action_seat_query", tag = "hand tools", params(DiceQuery),
    responses(
        (status = 200, description = "The ACTION seat and how it was counted.", body = DiceResponse),
        (status = 422, description = "Not three dice 1..6 (`dice`), a seat off the table (`pd_seat`, `seats`), or a bad query string (`query`).", body = ErrorBody),
    ))]
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

/// Three dice and the PD's seat: the ACTION seat.
#[utoipa::path(post, path = "/api/v1/dice", operation_id = "action_seat", tag = "hand tools",
    request_body(content = DiceRequest, example = json!(dice_example())),
    responses(
        (status = 200, description = "The ACTION seat and how it was counted.", body = DiceResponse,
            example = json!(answer(tools::dice, dice_example()))),
        (status = 422, description = "Not three dice 1..6 (`dice`), or a seat off the table (`pd_seat`, `seats`).", body = ErrorBody),
    ))]
async fn dice_post(body: Body) -> Result<Json<DiceResponse>, ApiError> {
    core_answer(tools::dice, &body)
}
