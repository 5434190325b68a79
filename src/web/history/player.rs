//! A player's history: `/history/player?player=…` and
//! `GET /api/v1/players/history?name=…` — every hand the name appears in
//! (as PD or bettor, any case) with their money, and the totals; the names
//! holding it when none is exactly it.

use askama::Template;
use axum::Json;
use axum::extract::{Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use super::{Pairs, money_or_dash, next_link, refused};
use crate::domain::history::PlayerQuery;
use crate::domain::staff::Action;
use crate::store::history::player::{PlayerHand, PlayerHistory, history};
use crate::web::staff::page as render;
use crate::web::time::{When, when};
use crate::web::{ApiError, AppState, ErrorBody, PageContext, PageResult, Staff};

#[derive(Template)]
#[template(path = "history/player.html")]
struct PlayerPage {
    ctx: PageContext,
    typed: String,
    error: String,
    found: Option<PlayerHistory>,
    /// The totals as the page shows them, once found.
    totals: Option<Totals>,
    rows: Vec<Row>,
    next_link: Option<String>,
}

/// The totals' amounts as a person reads them (`Money::to_display`).
struct Totals {
    staked: String,
    received: String,
    net: String,
}

/// A hand of theirs as the page shows it: "open" for what is not received
/// yet, "—" for no net yet.
struct Row {
    hand: PlayerHand,
    at: When,
    staked: String,
    received: String,
    net: String,
}

impl Row {
    fn of(h: &PlayerHand, zone: chrono_tz::Tz) -> Row {
        Row {
            hand: h.clone(),
            at: when(zone, &h.opened_at),
            staked: h.staked.to_display(),
            received: h
                .received
                .map_or_else(|| "open".to_string(), |r| r.to_display()),
            net: money_or_dash(h.net),
        }
    }
}

pub(super) async fn page(
    State(state): State<AppState>,
    staff: Staff,
    Query(pairs): Pairs,
) -> PageResult {
    staff.require_here(&state, Action::ReviewHistory).await?;
    let typed = pairs
        .iter()
        .find(|(k, _)| k == "player")
        .map(|(_, v)| v.clone())
        .unwrap_or_default();
    let mut view = PlayerPage {
        ctx: PageContext::of(&staff),
        typed,
        error: String::new(),
        found: None,
        totals: None,
        rows: Vec::new(),
        next_link: None,
    };
    // The bare page asks for a name; it is no refusal yet.
    if pairs.iter().all(|(_, v)| v.trim().is_empty()) {
        return Ok(render(&view));
    }
    let status = match PlayerQuery::parse(&pairs) {
        Err(errors) => {
            view.error = errors
                .iter()
                .map(|e| e.message().to_string())
                .collect::<Vec<_>>()
                .join("; ");
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Ok(q) => {
            let found = history(&state.db, &q).await?;
            view.rows = found
                .hands
                .iter()
                .map(|h| Row::of(h, state.time_zone))
                .collect();
            view.totals = Some(Totals {
                staked: found.totals.staked.to_display(),
                received: found.totals.received.to_display(),
                net: found.totals.net.to_display(),
            });
            view.next_link = found
                .next
                .as_deref()
                .map(|n| next_link("/history/player", &pairs, n));
            view.found = Some(found);
            StatusCode::OK
        }
    };
    Ok((status, render(&view)).into_response())
}

/// A player's history.
///
/// Every hand the name appears in (as PD or bettor, any case), newest first
/// and paged, with the totals.
#[utoipa::path(get, path = "/api/v1/players/history", operation_id = "player_history", tag = "history",
    params(
        ("player" = String, Query, description = "The player's whole name, any case."),
        ("after" = Option<String>, Query, description = "The `next` cursor of the page before."),
        ("limit" = Option<i64>, Query, description = "Hands a page, 1 to 500; default 50."),
    ),
    responses(
        (status = 200, description = "The hands, the totals, and the names that hold the name \
when none is exactly it (`did_you_mean`).", body = PlayerHistory),
        (status = 403, description = "Not an admin, supervisor or auditor (`forbidden`).", body = ErrorBody),
        (status = 422, description = "No name (`player`), or a bad `after` or `limit`.", body = ErrorBody),
    ))]
pub(super) async fn api(
    State(state): State<AppState>,
    staff: Staff,
    Query(pairs): Pairs,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReviewHistory).await?;
    let q = PlayerQuery::parse(&pairs).map_err(refused)?;
    let found = history(&state.db, &q)
        .await
        .map_err(|e| ApiError::from(e).into_response())?;
    Ok(Json(found).into_response())
}
