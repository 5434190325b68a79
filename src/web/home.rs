//! The home page: each role's start. A dealer sees the tables they run and
//! the hand in progress at each with a "continue" button; a supervisor
//! every table and its state; every role its sections.

use askama::Template;
use axum::Router;
use axum::extract::{Query, State};
use axum::routing::get;
use serde::Deserialize;

use crate::domain::staff::{Action, Role, allows};
use crate::store::double_hand_poker::tables::{self, HandSummary, Table};
use crate::web::staff::page;
use crate::web::{AppState, PageContext, PageError, PageResult, Staff};

pub fn router() -> Router<AppState> {
    Router::new().route("/", get(home))
}

/// A table on the start page: its newest hand, when it has one.
pub struct Start {
    pub table: String,
    pub training: bool,
    pub dealers: String,
    pub hand: Option<HandSummary>,
}

impl Start {
    /// The hand still being played, to continue.
    pub fn open_hand(&self) -> Option<&HandSummary> {
        self.hand.as_ref().filter(|h| h.is_open())
    }
}

#[derive(Template)]
#[template(path = "layout/home.html")]
struct HomePage {
    /// Its sections (the navigation's) are the role's start too.
    ctx: PageContext,
    /// After a password change: how many other sessions were signed out.
    signed_out: Option<u64>,
    /// The tables the user runs (a supervisor: every table).
    starts: Vec<Start>,
    /// A supervisor or admin sees the whole floor, not "your tables".
    floor: bool,
}

impl HomePage {
    /// The first hand in progress: its "continue" is the page's one
    /// primary action.
    fn first_open(&self) -> Option<&str> {
        self.starts
            .iter()
            .find_map(|s| s.open_hand().map(|h| h.id.as_str()))
    }
}

#[derive(Deserialize)]
struct HomeQuery {
    signed_out: Option<u64>,
}

/// Whether the home page lists `table` for this user: the tables where they
/// may run hands (a dealer's assigned ones, training tables for a trainee).
fn runs(role: Role, username: &str, table: &Table) -> bool {
    let assigned = table.dealers.iter().any(|d| d == username);
    allows(role, Action::run_hands(table.config.training, assigned))
}

async fn home(
    State(state): State<AppState>,
    staff: Staff,
    Query(query): Query<HomeQuery>,
) -> PageResult {
    let user = &staff.0.user;
    let mut starts = Vec::new();
    for table in tables::list(&state.db).await.map_err(PageError::internal)? {
        if !runs(user.role, &user.username, &table) {
            continue;
        }
        let hand = tables::hands(&state.db, &table.config.name, 1)
            .await
            .map_err(PageError::internal)?
            .into_iter()
            .next();
        starts.push(Start {
            table: table.config.name.clone(),
            training: table.config.training,
            dealers: table.dealers.join(", "),
            hand,
        });
    }
    Ok(page(&HomePage {
        signed_out: query.signed_out,
        floor: allows(user.role, Action::ManageTables),
        starts,
        ctx: PageContext::of(&staff),
    }))
}
