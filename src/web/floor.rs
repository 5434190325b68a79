//! The floor (`/floor`, a supervisor's start): every table at a glance —
//! idle or its hand in progress (its step, PD, bank, how long open), the
//! dealer in the box under the open shift and since when, the PD rotation
//! clock — and first what calls a supervisor over
//! (`domain::shifts::floor::alerts`). It refreshes itself (a meta refresh,
//! no script needed) and says when it was read.

use std::collections::HashMap;

use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::{DateTime, Utc};

use crate::domain::shifts::Shift;
use crate::domain::shifts::floor::{Alert, TableNow, alerts};
use crate::domain::staff::Action;
use crate::store::double_hand_poker::tables::{self, HandSummary, Table};
use crate::store::shifts;
use crate::web::double_hand_poker::table_floor::{ClockView, clock_view};
use crate::web::staff::page;
use crate::web::time::when;
use crate::web::{AppState, PageContext, PageResult, Staff};

/// Seconds between the page's own refreshes.
const REFRESH_SECONDS: u32 = 20;

pub fn router() -> Router<AppState> {
    Router::new().route("/floor", get(floor))
}

/// One table as the floor shows it.
pub struct FloorRow {
    pub table: String,
    pub training: bool,
    /// The hand in progress in words ("#12 taking wagers · PD Dana · bank
    /// 500.00 · open 14 min") and its page; None: idle.
    pub hand: Option<(String, String)>,
    /// "dana since 18:02", "nobody since 18:40", or "—" outside a shift.
    pub in_box: String,
    pub dealers: String,
    pub clock: Option<ClockView>,
}

#[derive(Template)]
#[template(path = "shifts/floor.html")]
struct FloorPage {
    ctx: PageContext,
    refresh: u32,
    /// When the page was read, on the cardroom's clock.
    read_at: String,
    alerts: Vec<Alert>,
    rows: Vec<FloorRow>,
    limit_minutes: i64,
}

async fn floor(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let now = Utc::now();
    let open_shifts = shifts::open_shifts(&state.db).await?;
    // Each table's newest open hand (oldest first, so the newest wins).
    let mut open: HashMap<String, HandSummary> =
        tables::open_hands(&state.db).await?.into_iter().collect();
    let mut rows = Vec::new();
    let mut nows = Vec::new();
    for table in tables::list(&state.db).await? {
        let hand = open.remove(&table.config.name);
        let clock = clock_view(&state, &table.config).await?;
        let shift = covering(&open_shifts, &table.config.name);
        let (now_at, row) = table_now(&state, &table, hand, shift, clock, now);
        nows.push(now_at);
        rows.push(row);
    }
    Ok(page(&FloorPage {
        ctx: PageContext::of(&staff),
        refresh: REFRESH_SECONDS,
        read_at: when(state.time_zone, &now.to_rfc3339()).clock,
        alerts: alerts(&nows, state.hand_alert_minutes),
        rows,
        limit_minutes: state.hand_alert_minutes,
    }))
}

/// The open shift covering `table`: its own, else the room's.
fn covering<'a>(open: &'a [Shift], table: &str) -> Option<&'a Shift> {
    let own = open.iter().find(|s| s.table.as_deref() == Some(table));
    own.or_else(|| open.iter().find(|s| s.table.is_none()))
}

/// What the floor's alerts and its row need of one table.
fn table_now(
    state: &AppState,
    table: &Table,
    hand: Option<HandSummary>,
    shift: Option<&Shift>,
    clock: Option<ClockView>,
    now: DateTime<Utc>,
) -> (TableNow, FloorRow) {
    let name = table.config.name.clone();
    let clock_at = |at: &str| when(state.time_zone, at).clock;
    let last_change = shift.and_then(|s| s.dealers.iter().rev().find(|c| c.table == name));
    let in_box = match (shift, last_change) {
        (None, _) => "—".to_string(),
        (Some(s), None) => format!("nobody since {}", clock_at(&s.opened.at)),
        (Some(_), Some(c)) => match &c.dealer {
            Some(d) => format!("{d} since {}", clock_at(&c.stamp.at)),
            None => format!("nobody since {}", clock_at(&c.stamp.at)),
        },
    };
    let open_hand = hand
        .as_ref()
        .map(|h| (h.number, minutes_since(&h.opened_at, now)));
    let words = hand.as_ref().zip(open_hand).map(|(h, (_, minutes))| {
        let mut words = format!("#{} {}", h.number, h.status_words());
        if let Some(pd) = &h.pd {
            words.push_str(&format!(" · PD {pd}"));
        }
        if let Some(bank) = &h.bank {
            words.push_str(&format!(" · bank {}", display_money(bank)));
        }
        words.push_str(&format!(" · open {minutes} min"));
        (words, format!("/hands/{}", h.id))
    });
    let now_at = TableNow {
        table: name.clone(),
        open_hand,
        in_shift: shift.is_some(),
        dealer_in_box: last_change.and_then(|c| c.dealer.clone()),
        clock: clock.as_ref().map(|c| c.state),
    };
    let row = FloorRow {
        table: name,
        training: table.config.training,
        hand: words,
        in_box,
        dealers: table.dealers.join(", "),
        clock,
    };
    (now_at, row)
}

/// Whole minutes from `opened_at` (RFC 3339) to `now`; 0 if unreadable.
fn minutes_since(opened_at: &str, now: DateTime<Utc>) -> i64 {
    DateTime::parse_from_rfc3339(opened_at)
        .map(|t| (now - t.with_timezone(&Utc)).num_minutes().max(0))
        .unwrap_or(0)
}

/// A stored amount as a cashier reads it (`1,234.50`).
fn display_money(stored: &str) -> String {
    crate::domain::common::money::Money::parse(stored)
        .map(|m| m.to_display())
        .unwrap_or_else(|_| stored.to_string())
}
