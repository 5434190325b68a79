//! `GET /api/v1/hands`: the search's filters as query parameters, one page
//! of hands newest first, the filtered set's totals and the next page's
//! cursor (`after`). A refused filter is a 422 naming it.

use axum::Json;
use axum::extract::{Query, State};
use axum::response::{IntoResponse, Response};

use super::{Pairs, checked, refused};
use crate::domain::staff::Action;
use crate::store::history::{self, SearchPage};
use crate::web::{ApiError, AppState, ErrorBody, Staff};

/// Search the hand histories.
///
/// One page of hands newest first, the filtered set's totals, and the next
/// page's cursor (docs/history.md).
#[utoipa::path(get, path = "/api/v1/hands", operation_id = "search_hands", tag = "history",
    params(
        ("table" = Option<String>, Query, description = "A table's name, exactly (an unknown table is 422)."),
        ("dealer" = Option<String>, Query, description = "Part of the dealer's name, any case."),
        ("pd" = Option<String>, Query, description = "Part of the PD's name, any case."),
        ("player" = Option<String>, Query, description = "Part of a PD's or bettor's name, any case."),
        ("status" = Option<String>, Query, description = "open, closed, corrected or voided."),
        ("kind" = Option<String>, Query, description = "training or real."),
        ("bank_min" = Option<String>, Query, description = "The PD's bank at least this (an amount, 0 or more)."),
        ("wager_min" = Option<String>, Query, description = "A wager of at least this (an amount)."),
        ("number" = Option<String>, Query, description = "The hand's number at its table (`1042` or `#1042`)."),
        ("note" = Option<String>, Query, description = "Words in a note on the hand."),
        ("period" = Option<String>, Query, description = "A quick pick: shift, today or yesterday (not with dates)."),
        ("date" = Option<String>, Query, description = "One day on the cardroom's clock (`2026-11-24`)."),
        ("from" = Option<String>, Query, description = "Opened at or after (`2026-11-24` or `2026-11-24T18:30`)."),
        ("to" = Option<String>, Query, description = "Opened before (after `from`)."),
        ("after" = Option<String>, Query, description = "The `next` cursor of the page before, with the same filters."),
        ("limit" = Option<i64>, Query, description = "Hands a page, 1 to 500; default 50."),
    ),
    responses(
        (status = 200, description = "A page of hands and the whole filtered set's totals.", body = SearchPage,
            example = json!({"hands": [{"id": "01a22754-4533-75d4-b1bd-e5b4aed7234c", "table": "DHP-1",
                "number": 1042, "dealer": "dana", "status": "closed", "corrected": false,
                "training": false, "opened_at": "2026-11-24T22:14:03.120000Z", "pd": "Pat",
                "bank": "500.00", "wagered": "120.00", "house_collection": "2.00", "pd_net": "-20.00"}],
                "totals": {"hands": 1, "wagered": "120.00", "house_collection": "2.00", "pd_results": "-20.00",
                    "open": 0, "voided": 0},
                "next": null})),
        (status = 403, description = "Not an admin, supervisor or auditor (`forbidden`).", body = ErrorBody),
        (status = 422, description = "A malformed filter, naming it with its value (`date`, `limit`, \
an unknown parameter or one given twice).", body = ErrorBody),
    ))]
pub async fn search(
    State(state): State<AppState>,
    staff: Staff,
    Query(pairs): Pairs,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReviewHistory).await?;
    let internal = |e: crate::store::StoreError| ApiError::from(e).into_response();
    let (filter, bounds) = match checked(&state, &pairs).await.map_err(internal)? {
        Ok(checked) => checked,
        Err(errors) => return Err(refused(errors)),
    };
    let page = history::search(&state.db, &filter, bounds)
        .await
        .map_err(internal)?;
    Ok(Json(page).into_response())
}
