//! The shift report (docs/shifts.md): per table and for the room, the
//! hands, what was wagered, the house collection (the drop) in total and
//! per hour, each PD's banks and results, the players' results, the PD
//! rotation log, corrections and voids with their reasons, and the dealer
//! changes. Computed here from the hands' recorded settlements as the
//! store's verified projections give them (each hand's money; each
//! player's at a table), so the page, the JSON API, the CLI and
//! `audit verify` get the same figures, and its digest pins them: a
//! later correction of any hand changes it.

use std::collections::BTreeMap;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::Serialize;

use super::DealerChange;
use super::compliance::{Compliance, TpppActivity};
use super::tppp::{RotationOverride, Tppp};
use crate::common::money::Money;
use crate::double_hand_poker::rotation_clock::RotationRule;

mod compute;
mod csv_rows;
mod digest;
mod standing;
mod text;

pub use compute::compute;
pub use csv_rows::{CSV_HEADER, csv_rows};
pub use digest::{digest, digest_text};
pub use standing::{Standing, standing};
pub use text::text;

/// A hand's state as the report counts it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum HandStatus {
    Open,
    Closed,
    Voided,
}

impl HandStatus {
    pub fn parse(text: &str) -> Option<HandStatus> {
        match text {
            "open" => Some(HandStatus::Open),
            "closed" => Some(HandStatus::Closed),
            "voided" => Some(HandStatus::Voided),
            _ => None,
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            HandStatus::Open => "open",
            HandStatus::Closed => "closed",
            HandStatus::Voided => "voided",
        }
    }
}

/// One hand of the report's range, from the store's projection of its
/// recorded settlement.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReportHand {
    pub id: String,
    pub table: String,
    pub number: i64,
    pub training: bool,
    /// When it opened (UTC, the log's text).
    pub opened_at: String,
    /// Its hour on the cardroom's clock (`2026-12-03 14:00`): the shell
    /// knows the zone.
    pub hour: String,
    pub status: HandStatus,
    pub corrected: bool,
    /// Who ran it, as its `hand_opened` recorded.
    pub dealer: String,
    pub pd: Option<String>,
    pub bank: Option<Money>,
    pub wagered: Money,
    pub collection: Option<Money>,
    pub pd_net: Option<Money>,
    /// The seq of the record carrying its latest settlement.
    pub settlement_seq: Option<i64>,
}

/// A player's bets at one table over the range (the store sums each
/// hand's recorded total for the player).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerRow {
    pub table: String,
    pub name: String,
    pub hands: u64,
    pub staked: Money,
    pub net: Money,
}

/// A correction or a void of a hand of the range, with its reason.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportChange)]
pub struct HandChange {
    pub hand: String,
    pub table: String,
    pub number: i64,
    pub kind: &'static str,
    pub reason: String,
    pub by: String,
    pub at: String,
    pub seq: i64,
}

/// A point of the audit chain: the report printed with its anchors pins
/// the log (docs/audit.md).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportAnchor)]
pub struct Anchor {
    pub seq: i64,
    pub hash: String,
    pub at: String,
}

/// What the report covers.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportScope)]
pub struct Scope {
    /// The shift, when the report is a shift's.
    pub shift: Option<String>,
    /// One table, or None for the room.
    pub table: Option<String>,
    /// The range, UTC: hands opened at or after `from` and before `to`.
    pub from: String,
    pub to: String,
    /// Its length in minutes (for the drop per hour).
    pub minutes: i64,
}

/// Counts and money of a set of hands.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportTotals)]
pub struct Totals {
    /// Every hand (open, closed and voided).
    pub hands: u64,
    pub closed: u64,
    pub voided: u64,
    /// Closed hands corrected after they closed.
    pub corrected: u64,
    pub open: u64,
    /// Wagered on the closed hands (a voided hand returned every bet).
    pub wagered: Money,
    /// The house collection of the closed hands.
    pub drop: Money,
    /// The drop over the range's hours, to the cent.
    pub drop_per_hour: Money,
    /// What the PDs won (+) or lost (−) together.
    pub pd_net: Money,
}

impl Totals {
    fn add(&mut self, h: &ReportHand) {
        self.hands += 1;
        match h.status {
            HandStatus::Open => self.open += 1,
            HandStatus::Voided => self.voided += 1,
            HandStatus::Closed => {
                self.closed += 1;
                self.corrected += u64::from(h.corrected);
                self.wagered += h.wagered;
                self.drop += h.collection.unwrap_or(Money::ZERO);
                self.pd_net += h.pd_net.unwrap_or(Money::ZERO);
            }
        }
    }

    fn per_hour(&mut self, minutes: i64) {
        self.drop_per_hour = per_hour(self.drop, minutes);
    }
}

/// `amount` over `minutes`, an hour's worth, to the cent (half away from
/// zero); the whole amount for a range under a minute.
fn per_hour(amount: Money, minutes: i64) -> Money {
    if minutes <= 0 {
        return amount;
    }
    let rate = amount.as_decimal() * Decimal::from(60) / Decimal::from(minutes);
    Money::from_decimal(rate.round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero))
}

/// A PD's banks (at one table, or in the room).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PdResult {
    pub name: String,
    pub banks: u64,
    pub banked: Money,
    pub net: Money,
}

/// A player's bets.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PlayerResult {
    pub name: String,
    pub hands: u64,
    pub staked: Money,
    pub net: Money,
}

/// One PD's turn with the bank: consecutive hands at the table.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PdTurn {
    pub pd: String,
    pub from_number: i64,
    pub to_number: i64,
    pub from: String,
    pub to: String,
    pub hands: u64,
    pub net: Money,
}

/// An hour's hands and drop.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportHour)]
pub struct Hour {
    pub hour: String,
    pub hands: u64,
    pub drop: Money,
}

/// One table's part.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TableReport {
    pub table: String,
    pub training: bool,
    #[serde(flatten)]
    pub totals: Totals,
    pub pds: Vec<PdResult>,
    pub players: Vec<PlayerResult>,
    pub rotation: Vec<PdTurn>,
    pub dealers: Vec<DealerChange>,
    /// The dealers who ran its hands (as each hand recorded), with how many.
    pub dealt_by: Vec<(String, u64)>,
    /// The PD rotation clock's verdict, at a table whose rules have one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub compliance: Option<Compliance>,
    /// The TPPPs who banked here.
    pub tppps: Vec<TpppActivity>,
}

/// The report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Report {
    pub format: &'static str,
    pub scope: Scope,
    /// Every real table together (training tables are apart).
    pub room: Totals,
    /// The training tables together: nothing there counts.
    pub training: Totals,
    pub tables: Vec<TableReport>,
    pub hours: Vec<Hour>,
    pub pds: Vec<PdResult>,
    pub players: Vec<PlayerResult>,
    pub changes: Vec<HandChange>,
    pub dealer_changes: Vec<DealerChange>,
    pub anchors: Vec<Anchor>,
    /// The TPPPs who banked in the room.
    pub tppps: Vec<TpppActivity>,
    /// Every override of a rotation clock in the range.
    pub overrides: Vec<RotationOverride>,
    /// SHA-256 of the hands' figures (`digest_text`): what a signature pins.
    pub digest: String,
}

/// The report as the JSON API and the CLI write it: its fields, and where
/// it stands against its shift's signature. Serialized straight to the
/// output, never through a JSON tree (a room's report holds tens of
/// thousands of player lines).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = ShiftReport)]
pub struct ReportJson<'a> {
    #[serde(flatten)]
    pub report: &'a Report,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<Standing>,
}

/// The report's format name, in its JSON.
pub const REPORT_FORMAT: &str = "pitbook-shift-report/1";

/// What the report is computed from.
#[derive(Debug, Clone, Default)]
pub struct ReportInput {
    pub hands: Vec<ReportHand>,
    pub players: Vec<PlayerRow>,
    pub changes: Vec<HandChange>,
    pub anchors: Vec<Anchor>,
    /// The tables whose rules have a rotation clock, with its numbers.
    pub rotation: BTreeMap<String, RotationRule>,
    /// The rotation overrides recorded in the range.
    pub overrides: Vec<RotationOverride>,
    /// The TPPP registry.
    pub tppps: Vec<Tppp>,
}

/// The order the report lists its hands in: by table, then number.
fn hand_order(h: &ReportHand) -> (&str, i64, &str) {
    (h.table.as_str(), h.number, h.id.as_str())
}
