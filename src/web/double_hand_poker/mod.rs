//! Double Hand Poker over HTTP: the hand tools and the settlement (compute
//! only), the hand store's API, the tables (pages and API), the guided hand
//! and the hand tools' pages (the house-way preview, the value of every
//! setting).

pub(crate) mod drawing;
pub(crate) mod ev_api;
mod ev_page;
pub(super) mod hands_api;
mod house_way_page;
pub(super) mod house_ways;
// `play::forms::Fields` is also what the kept games' pages read their forms with.
pub(super) mod play;
pub(super) mod settle_api;
pub(crate) mod table_floor;
mod table_form;
mod tables;
pub(super) mod tables_api;
pub(super) mod tools_api;

use axum::Router;

use crate::web::AppState;

/// The compute-only API (`tools_api.rs`: the hand and dice tools,
/// `settle_api.rs`: `POST /api/v1/settle`): stores nothing; `web::router`
/// puts it behind the signed-in reader check.
pub fn compute_router() -> Router<AppState> {
    Router::new()
        .merge(tools_api::router())
        .merge(ev_api::router())
        .merge(settle_api::router())
}

/// The hand store's API, the tables' pages and API, and the guided hand.
pub fn router() -> Router<AppState> {
    Router::new()
        .merge(hands_api::router())
        .merge(tables::router())
        .merge(tables_api::router())
        .merge(play::router())
        .merge(house_way_page::router())
        .merge(house_ways::router())
        .merge(ev_page::router())
}
