//! Reviewing hand histories: the search page (`/history`) and its JSON
//! twin (`GET /api/v1/hands`, `api.rs`), a player's history
//! (`player.rs`), and a hand by its number (`/tables/{table}/hands/{n}`).
//! Who may search: admins, supervisors and auditors (`ReviewHistory`).

pub mod api;
pub(super) mod export;
pub mod export_lines;
pub(super) mod player;

use askama::Template;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

use crate::domain::common::field_error::FieldError;
use crate::domain::common::money::Money;
use crate::domain::history::{HandFilter, Status, filter_words};
use crate::domain::staff::Action;
use crate::store::history::{self, HandRow, Totals};
use crate::web::staff::page;
use crate::web::time::{When, when};
use crate::web::{AppState, PageContext, PageResult, Staff};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/history", get(search_page))
        .route("/history/player", get(player::page))
        .route("/history/export", get(export::export))
        .route("/api/v1/hands/export", get(export::export))
        .route("/tables/{table}/hands/{number}", get(by_number))
        .route("/api/v1/players/history", get(player::api))
}

/// The query string's pairs as sent.
pub(super) type Pairs = Query<Vec<(String, String)>>;

/// A checked filter and its time range in UTC, or its refused fields.
pub type Checked = Result<(HandFilter, (Option<String>, Option<String>)), Vec<FieldError>>;

/// The filter and its time range checked as every shell does: the core's
/// parse, then the table's existence (422 naming `table`).
pub(super) async fn checked(
    state: &AppState,
    pairs: &[(String, String)],
) -> Result<Checked, crate::store::StoreError> {
    check_filter(&state.db, state.time_zone, pairs).await
}

/// [`checked`] for any shell (the CLI too): the database and the
/// cardroom's time zone given.
pub async fn check_filter(
    db: &crate::store::Db,
    zone: chrono_tz::Tz,
    pairs: &[(String, String)],
) -> Result<Checked, crate::store::StoreError> {
    let filter = match HandFilter::parse(pairs) {
        Ok(f) => f,
        Err(errors) => return Ok(Err(errors)),
    };
    if let Some(table) = filter.table()
        && !history::table_exists(db, table).await?
    {
        let message =
            format!("\"{table}\" is not a table pitbook knows; check its name on the tables page");
        return Ok(Err(vec![
            FieldError::new("table", message).with_value(table),
        ]));
    }
    let bounds = history::time::bounds(filter.range.as_ref(), chrono::Utc::now(), zone);
    Ok(Ok((filter, bounds)))
}

/// A result as the page shows it: its amounts as a person reads them
/// (`Money::to_display`), "—" where the hand has none yet.
pub(super) struct Shown {
    pub hand: HandRow,
    pub opened: When,
    pub status: &'static str,
    pub bank: String,
    pub wagered: String,
    pub collection: String,
    pub pd_net: String,
}

impl Shown {
    fn of(h: &HandRow, zone: chrono_tz::Tz) -> Shown {
        Shown {
            hand: h.clone(),
            opened: when(zone, &h.opened_at),
            status: status_words(h),
            bank: money_or_dash(h.bank),
            wagered: h.wagered.to_display(),
            collection: money_or_dash(h.house_collection),
            pd_net: money_or_dash(h.pd_net),
        }
    }
}

/// An amount as a page shows it, or "—" for none.
pub(super) fn money_or_dash(amount: Option<Money>) -> String {
    amount.map_or_else(|| "—".to_string(), Money::to_display)
}

/// The search's totals as the page shows them.
struct ShownTotals {
    hands: i64,
    wagered: String,
    house_collection: String,
    pd_results: String,
    /// The open and voided hands in words, or empty.
    left_out: String,
}

impl From<&Totals> for ShownTotals {
    fn from(t: &Totals) -> ShownTotals {
        ShownTotals {
            hands: t.hands,
            wagered: t.wagered.to_display(),
            house_collection: t.house_collection.to_display(),
            pd_results: t.pd_results.to_display(),
            left_out: t.left_out(),
        }
    }
}

fn status_words(h: &HandRow) -> &'static str {
    match (h.status.as_str(), h.corrected) {
        ("betting" | "dealt", _) => "open",
        ("closed", true) => "closed, corrected",
        ("closed", false) => "closed",
        ("voided", _) => "voided",
        _ => "unknown",
    }
}

#[derive(Template)]
#[template(path = "history/search.html")]
struct SearchPageView {
    ctx: PageContext,
    /// What was typed, by field (kept in the form).
    typed: Vec<(String, String)>,
    /// Refusals by field.
    errors: Vec<(String, String)>,
    /// The totals of the hands found, once searched.
    results: Option<ShownTotals>,
    shown: Vec<Shown>,
    next_link: Option<String>,
    /// The download links of these results, by format.
    export_csv: String,
    export_jsonl: String,
    statuses: Vec<&'static str>,
    zone: String,
    /// What was searched and found, in words: "table DHP-1, a player
    /// containing 'ann': 12 hands".
    found_words: String,
    /// Nothing found: each filter in words with the search without it.
    loosen: Vec<(String, String)>,
}

impl SearchPageView {
    fn typed(&self, field: &str) -> &str {
        self.typed
            .iter()
            .find(|(k, _)| k == field)
            .map_or("", |(_, v)| v.as_str())
    }

    fn error(&self, field: &str) -> &str {
        self.errors
            .iter()
            .find(|(k, _)| k == field)
            .map_or("", |(_, v)| v.as_str())
    }

    /// Errors of fields the form has no input for (a hand-made URL).
    fn other_errors(&self) -> Vec<&(String, String)> {
        const FORM: [&str; 14] = [
            "table",
            "period",
            "date",
            "from",
            "to",
            "dealer",
            "pd",
            "player",
            "status",
            "kind",
            "bank_min",
            "wager_min",
            "number",
            "limit",
        ];
        self.errors
            .iter()
            .filter(|(k, _)| !FORM.contains(&k.as_str()))
            .collect()
    }
}

/// The link to the page after this one: the same query with its cursor.
pub(super) fn next_link(path: &str, pairs: &[(String, String)], next: &str) -> String {
    link_with(path, pairs, &["after"], ("after", next))
}

/// `path` with the query's filled pairs but those of `drop`, and `add`.
fn link_with(path: &str, pairs: &[(String, String)], drop: &[&str], add: (&str, &str)) -> String {
    let mut query = kept(pairs, drop);
    query.push(add);
    format!(
        "{path}?{}",
        serde_urlencoded::to_string(&query).unwrap_or_default()
    )
}

/// The query's filled pairs but those of `drop`.
fn kept<'a>(pairs: &'a [(String, String)], drop: &[&str]) -> Vec<(&'a str, &'a str)> {
    pairs
        .iter()
        .filter(|(k, v)| !drop.contains(&k.as_str()) && !v.trim().is_empty())
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect()
}

/// What the search found in words, and, when it found nothing, each
/// filter with the search without it (and from its first page).
fn found_in_words(
    filter: &HandFilter,
    pairs: &[(String, String)],
    hands: i64,
) -> (String, Vec<(String, String)>) {
    let count = match hands {
        1 => "1 hand".to_string(),
        n => format!("{n} hands"),
    };
    let sentence = format!("{}: {count}", filter_words::sentence(filter));
    if hands > 0 {
        return (sentence, Vec::new());
    }
    let loosen = filter_words::in_words(filter)
        .into_iter()
        .map(|w| {
            let mut drop = w.keys.to_vec();
            drop.push("after");
            let query = serde_urlencoded::to_string(kept(pairs, &drop)).unwrap_or_default();
            (w.words, format!("/history?{query}"))
        })
        .collect();
    (sentence, loosen)
}

/// The search's download link in `format`: its filters, not its page.
fn export_link(pairs: &[(String, String)], format: &str) -> String {
    link_with(
        "/history/export",
        pairs,
        &["after", "limit"],
        ("format", format),
    )
}

async fn search_page(
    State(state): State<AppState>,
    staff: Staff,
    Query(pairs): Pairs,
) -> PageResult {
    staff.require_here(&state, Action::ReviewHistory).await?;
    let mut view = SearchPageView {
        ctx: PageContext::of(&staff),
        typed: pairs.clone(),
        errors: Vec::new(),
        results: None,
        shown: Vec::new(),
        next_link: None,
        export_csv: export_link(&pairs, "csv"),
        export_jsonl: export_link(&pairs, "jsonl"),
        statuses: Status::ALL.iter().map(|s| s.as_str()).collect(),
        zone: state.time_zone.name().to_string(),
        found_words: String::new(),
        loosen: Vec::new(),
    };
    let status = match checked(&state, &pairs).await? {
        Err(errors) => {
            view.errors = errors
                .iter()
                .map(|e| (e.field().to_string(), e.message().to_string()))
                .collect();
            StatusCode::UNPROCESSABLE_ENTITY
        }
        Ok((filter, bounds)) => {
            let found = history::search(&state.db, &filter, bounds).await?;
            view.shown = found
                .hands
                .iter()
                .map(|h| Shown::of(h, state.time_zone))
                .collect();
            view.next_link = found
                .next
                .as_deref()
                .map(|n| next_link("/history", &pairs, n));
            (view.found_words, view.loosen) =
                found_in_words(&filter, &pairs, found.totals.all_hands());
            view.results = Some(ShownTotals::from(&found.totals));
            StatusCode::OK
        }
    };
    Ok((status, page(&view)).into_response())
}

#[derive(Template)]
#[template(path = "history/not_found.html")]
struct NotFoundPage {
    ctx: PageContext,
    message: String,
}

/// `/tables/{table}/hands/{number}`: the hand's page (303), or a 404 page.
async fn by_number(
    State(state): State<AppState>,
    staff: Staff,
    Path((table, number)): Path<(String, String)>,
) -> PageResult {
    staff.require_here(&state, Action::Read).await?;
    let digits = number.strip_prefix('#').unwrap_or(&number);
    let found = match digits.parse::<i64>() {
        Ok(n) if n >= 1 => history::hand_by_number(&state.db, &table, n).await?,
        _ => None,
    };
    match found {
        Some(id) => Ok(Redirect::to(&format!("/hands/{id}")).into_response()),
        None => {
            let message = if history::table_exists(&state.db, &table).await? {
                format!("Table {table} has no hand #{digits}.")
            } else {
                format!("There is no table {table}.")
            };
            let body = page(&NotFoundPage {
                ctx: PageContext::of(&staff),
                message,
            });
            Ok((StatusCode::NOT_FOUND, body).into_response())
        }
    }
}

/// Refusals as a JSON 422 (the first; the page shows them all).
pub(super) fn refused(errors: Vec<FieldError>) -> Response {
    match errors.into_iter().next() {
        Some(e) => crate::web::ApiError::BadInput(e).into_response(),
        None => crate::web::ApiError::internal("a refusal without a field").into_response(),
    }
}
