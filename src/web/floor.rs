//! The floor (`/floor`, a supervisor's start): every table at a glance —
//! idle or its hand in progress (its step, PD, bank, how long open), the
//! dealer in the box under the open shift and since when, the shift's
//! hands and drop so far, the PD rotation clock — the hands disputed (noted)
//! this shift, and first what calls a supervisor over
//! (`domain::shifts::floor::alerts`). With scripts it reads itself again
//! every 20 seconds while the box is ticked; without, a refresh link.

use std::collections::HashMap;

use askama::Template;
use axum::Router;
use axum::extract::State;
use axum::routing::get;
use chrono::{DateTime, Duration, Utc};

use crate::domain::shifts::Shift;
use crate::domain::shifts::floor::{Alert, TableNow, alerts};
use crate::domain::shifts::tppp::RotationOverride;
use crate::domain::staff::Action;
use crate::store::double_hand_poker::tables::{self, HandSummary, Table};
use crate::store::shifts::room_now::{self, Tally};
use crate::store::shifts::{self, floor as rotation};
use crate::store::{Db, StoreError};
use crate::web::double_hand_poker::table_floor::{ClockView, clock_view};
use crate::web::staff::page;
use crate::web::time::{When, when};
use crate::web::{AppState, PageContext, PageResult, Staff};

/// Seconds between the page's own refreshes.
const REFRESH_SECONDS: u32 = 20;
/// Hours the floor looks back for notes and overrides with no shift open.
const UNSHIFTED_HOURS: i64 = 12;
/// The most notes the floor lists.
const NOTES_SHOWN: i64 = 20;

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
    /// The shift's closed hands so far ("12", "12 (1 voided)"), "—" outside
    /// a shift.
    pub hands: String,
    /// The shift's drop so far, "—" outside a shift.
    pub drop: String,
    pub clock: Option<ClockView>,
    /// The rotation's override this shift, in words.
    pub overridden: Option<String>,
}

/// A hand noted this shift, as listed.
pub struct NoteRow {
    pub href: String,
    pub hand: String,
    pub by: String,
    pub when: When,
    pub text: String,
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
    notes: Vec<NoteRow>,
    /// "this shift" or "in the last 12 hours".
    period: String,
    limit_minutes: i64,
}

/// What the floor read of the room, beside each table.
struct Room {
    shifts: Vec<Shift>,
    open: HashMap<String, HandSummary>,
    /// Each open shift's tallies (by the shift's opening), by table.
    tallies: HashMap<String, HashMap<String, Tally>>,
    overrides: Vec<RotationOverride>,
    /// When the floor's period began (UTC).
    since: String,
}

async fn floor(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let now = Utc::now();
    let mut room = read_room(&state.db, now).await?;
    let mut rows = Vec::new();
    let mut nows = Vec::new();
    for table in tables::list(&state.db).await? {
        let clock = clock_view(&state, &table.config).await?;
        let (now_at, row) = table_now(&state, &table, &mut room, clock, now);
        nows.push(now_at);
        rows.push(row);
    }
    let notes = room_now::notes_since(&state.db, &room.since, NOTES_SHOWN).await?;
    Ok(page(&FloorPage {
        ctx: PageContext::of(&staff),
        refresh: REFRESH_SECONDS,
        read_at: when(state.time_zone, &now.to_rfc3339()).clock,
        alerts: alerts(&nows, state.hand_alert_minutes),
        rows,
        notes: notes
            .into_iter()
            .map(|n| NoteRow {
                href: format!("/hands/{}", n.hand_id),
                hand: format!("{} #{}", n.table, n.number),
                by: n.by,
                when: when(state.time_zone, &n.at),
                text: n.text,
            })
            .collect(),
        period: match room.shifts.is_empty() {
            true => format!("in the last {UNSHIFTED_HOURS} hours"),
            false => "this shift".to_string(),
        },
        limit_minutes: state.hand_alert_minutes,
    }))
}

/// The room now: the open shifts and hands, each shift's tallies, the
/// overrides since the earliest open shift began (no shift: the last
/// [`UNSHIFTED_HOURS`]).
async fn read_room(db: &Db, now: DateTime<Utc>) -> Result<Room, StoreError> {
    let shifts = shifts::open_shifts(db).await?;
    let since = shifts
        .iter()
        .map(|s| s.opened.at.clone())
        .min()
        .unwrap_or_else(|| utc_text(now - Duration::hours(UNSHIFTED_HOURS)));
    let mut tallies = HashMap::new();
    for s in &shifts {
        if !tallies.contains_key(&s.opened.at) {
            let t = room_now::tallies_since(db, &s.opened.at).await?;
            tallies.insert(s.opened.at.clone(), t);
        }
    }
    // Each table's newest open hand (oldest first, so the newest wins).
    let open = tables::open_hands(db).await?.into_iter().collect();
    let overrides = rotation::overrides(db, None, &since, &utc_text(now)).await?;
    Ok(Room {
        shifts,
        open,
        tallies,
        overrides,
        since,
    })
}

/// A time as the records write it (`2026-12-07T18:40:00.000000Z`).
fn utc_text(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
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
    room: &mut Room,
    clock: Option<ClockView>,
    now: DateTime<Utc>,
) -> (TableNow, FloorRow) {
    let name = table.config.name.clone();
    let clock_at = |at: &str| when(state.time_zone, at).clock;
    let shift = covering(&room.shifts, &name);
    let last_change = shift.and_then(|s| s.dealers.iter().rev().find(|c| c.table == name));
    let in_box = match (shift, last_change) {
        (None, _) => "—".to_string(),
        (Some(s), None) => format!("nobody since {}", clock_at(&s.opened.at)),
        (Some(_), Some(c)) => match &c.dealer {
            Some(d) => format!("{d} since {}", clock_at(&c.stamp.at)),
            None => format!("nobody since {}", clock_at(&c.stamp.at)),
        },
    };
    let tally = shift.map(|s| {
        let of_shift = room.tallies.get(&s.opened.at);
        of_shift
            .and_then(|t| t.get(&name))
            .cloned()
            .unwrap_or_default()
    });
    let since = shift.map_or(room.since.as_str(), |s| s.opened.at.as_str());
    let overridden = room
        .overrides
        .iter()
        .rev()
        .find(|o| o.table == name && o.stamp.at.as_str() >= since)
        .map(|o| {
            let at = clock_at(&o.stamp.at);
            format!("at {at} by {}: {}", o.stamp.by, o.reason)
        });
    let hand = room.open.remove(&name);
    let open_hand = hand
        .as_ref()
        .map(|h| (h.number, minutes_since(&h.opened_at, now)));
    let now_at = TableNow {
        table: name.clone(),
        open_hand,
        in_shift: shift.is_some(),
        dealer_in_box: last_change.and_then(|c| c.dealer.clone()),
        clock: clock.as_ref().map(|c| c.state),
        overridden: overridden.clone(),
    };
    let row = FloorRow {
        table: name,
        training: table.config.training,
        hand: hand.zip(open_hand).map(|(h, (_, m))| hand_words(&h, m)),
        in_box,
        dealers: table.dealers.join(", "),
        hands: tally.as_ref().map_or("—".into(), |t| match t.voided {
            0 => t.closed.to_string(),
            v => format!("{} ({v} voided)", t.closed),
        }),
        drop: tally.map_or("—".into(), |t| t.drop.to_display()),
        clock,
        overridden,
    };
    (now_at, row)
}

/// An open hand in words and its page.
fn hand_words(h: &HandSummary, minutes: i64) -> (String, String) {
    let mut words = format!("#{} {}", h.number, h.status_words());
    if let Some(pd) = &h.pd {
        words.push_str(&format!(" · PD {pd}"));
    }
    if let Some(bank) = &h.bank {
        words.push_str(&format!(" · bank {}", display_money(bank)));
    }
    words.push_str(&format!(" · open {minutes} min"));
    (words, format!("/hands/{}", h.id))
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
