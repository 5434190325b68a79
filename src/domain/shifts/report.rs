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
use sha2::{Digest, Sha256};

use super::compliance::{Compliance, TpppActivity, compliance, tppp_activity};
use super::tppp::{RotationOverride, Tppp};
use super::{DealerChange, Shift};
use crate::common::csv_cell;
use crate::common::money::Money;
use crate::double_hand_poker::rotation_clock::RotationRule;

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

/// Computes the report of `input` over `scope`; `shift`, when the report
/// is a shift's, gives its dealer changes.
pub fn compute(scope: Scope, shift: Option<&Shift>, mut input: ReportInput) -> Report {
    input.hands.sort_by(|a, b| {
        (a.table.as_str(), a.number, a.id.as_str()).cmp(&(
            b.table.as_str(),
            b.number,
            b.id.as_str(),
        ))
    });
    let minutes = scope.minutes;
    let mut room = Totals::default();
    let mut training = Totals::default();
    let mut tables: BTreeMap<&str, TableParts> = BTreeMap::new();
    let mut hours: BTreeMap<&str, Hour> = BTreeMap::new();
    let mut pds: BTreeMap<&str, PdResult> = BTreeMap::new();
    for h in &input.hands {
        let parts = tables.entry(&h.table).or_insert_with(|| TableParts {
            training: h.training,
            ..TableParts::default()
        });
        parts.totals.add(h);
        *parts.dealt_by.entry(&h.dealer).or_default() += 1;
        if h.training {
            training.add(h);
            continue;
        }
        room.add(h);
        let hour = hours.entry(&h.hour).or_insert_with(|| Hour {
            hour: h.hour.clone(),
            ..Hour::default()
        });
        hour.hands += 1;
        if h.status == HandStatus::Closed {
            hour.drop += h.collection.unwrap_or(Money::ZERO);
        }
        if let Some(pd) = &h.pd {
            for map in [&mut parts.pds, &mut pds] {
                add_bank(map, pd, h);
            }
            parts.turn(pd, h);
        }
    }
    room.per_hour(minutes);
    training.per_hour(minutes);
    let mut players: BTreeMap<&str, PlayerResult> = BTreeMap::new();
    let mut table_players: BTreeMap<&str, Vec<PlayerResult>> = BTreeMap::new();
    for p in &input.players {
        let result = PlayerResult {
            name: p.name.clone(),
            hands: p.hands,
            staked: p.staked,
            net: p.net,
        };
        let training = tables.get(p.table.as_str()).is_some_and(|t| t.training);
        if !training {
            let all = players.entry(&p.name).or_insert_with(|| PlayerResult {
                name: p.name.clone(),
                hands: 0,
                staked: Money::ZERO,
                net: Money::ZERO,
            });
            all.hands += p.hands;
            all.staked += p.staked;
            all.net += p.net;
        }
        table_players.entry(&p.table).or_default().push(result);
    }
    let dealer_changes: Vec<DealerChange> = shift.map(|s| s.dealers.clone()).unwrap_or_default();
    let digest = digest(&input.hands);
    let tables = tables
        .into_iter()
        .map(|(table, mut parts)| {
            parts.totals.per_hour(minutes);
            let mut players = table_players.remove(table).unwrap_or_default();
            players.sort_by(|a, b| a.name.cmp(&b.name));
            let here: Vec<&ReportHand> = input.hands.iter().filter(|h| h.table == table).collect();
            let overrides: Vec<RotationOverride> = input
                .overrides
                .iter()
                .filter(|o| o.table == table)
                .cloned()
                .collect();
            let compliance = input
                .rotation
                .get(table)
                .map(|rule| compliance(*rule, &here, &overrides, &input.tppps));
            TableReport {
                table: table.to_string(),
                training: parts.training,
                totals: parts.totals,
                pds: parts.pds.into_values().collect(),
                players,
                rotation: parts.rotation,
                dealers: dealer_changes
                    .iter()
                    .filter(|c| c.table == table)
                    .cloned()
                    .collect(),
                dealt_by: parts
                    .dealt_by
                    .into_iter()
                    .map(|(d, n)| (d.to_string(), n))
                    .collect(),
                compliance,
                tppps: tppp_activity(&here, &input.tppps),
            }
        })
        .collect();
    let real: Vec<&ReportHand> = input.hands.iter().filter(|h| !h.training).collect();
    let room_tppps = tppp_activity(&real, &input.tppps);
    let mut changes = input.changes;
    changes.sort_by_key(|c| c.seq);
    Report {
        format: REPORT_FORMAT,
        scope,
        room,
        training,
        tables,
        hours: hours.into_values().collect(),
        pds: pds.into_values().collect(),
        players: players.into_values().collect(),
        changes,
        dealer_changes,
        anchors: input.anchors,
        tppps: room_tppps,
        overrides: input.overrides,
        digest,
    }
}

#[derive(Default)]
struct TableParts<'a> {
    training: bool,
    totals: Totals,
    pds: BTreeMap<&'a str, PdResult>,
    rotation: Vec<PdTurn>,
    dealt_by: BTreeMap<&'a str, u64>,
}

impl TableParts<'_> {
    /// The hand `h`, banked by `pd`, in the table's rotation log.
    fn turn(&mut self, pd: &str, h: &ReportHand) {
        let net = if h.status == HandStatus::Closed {
            h.pd_net.unwrap_or(Money::ZERO)
        } else {
            Money::ZERO
        };
        match self.rotation.last_mut() {
            Some(turn) if turn.pd == pd => {
                turn.to_number = h.number;
                turn.to = h.opened_at.clone();
                turn.hands += 1;
                turn.net += net;
            }
            _ => self.rotation.push(PdTurn {
                pd: pd.to_string(),
                from_number: h.number,
                to_number: h.number,
                from: h.opened_at.clone(),
                to: h.opened_at.clone(),
                hands: 1,
                net,
            }),
        }
    }
}

fn add_bank<'a>(map: &mut BTreeMap<&'a str, PdResult>, pd: &'a str, h: &ReportHand) {
    let result = map.entry(pd).or_insert_with(|| PdResult {
        name: pd.to_string(),
        banks: 0,
        banked: Money::ZERO,
        net: Money::ZERO,
    });
    result.banks += 1;
    if h.status == HandStatus::Closed {
        result.banked += h.bank.unwrap_or(Money::ZERO);
        result.net += h.pd_net.unwrap_or(Money::ZERO);
    }
}

/// The text a report's digest is the SHA-256 of: one line per hand, in
/// (table, number) order — its id, number, table, state, whether
/// corrected, PD, bank, wagered, collection, PD's net and the seq of its
/// latest settlement — so any correction, void or hand added or taken
/// away changes it, and a note does not.
pub fn digest_text(hands: &[ReportHand]) -> String {
    let money = |m: Option<Money>| m.map(Money::to_canonical).unwrap_or_default();
    let mut text = String::new();
    for h in hands {
        text.push_str(&format!(
            "{}|{}|{}|{}|{}|{}|{}|{}|{}|{}|{}\n",
            h.id,
            h.number,
            h.table,
            h.status.as_str(),
            u8::from(h.corrected),
            h.pd.as_deref().unwrap_or(""),
            money(h.bank),
            h.wagered.to_canonical(),
            money(h.collection),
            money(h.pd_net),
            h.settlement_seq.map(|s| s.to_string()).unwrap_or_default(),
        ));
    }
    text
}

/// The digest of `hands` (sorted as the report sorts them).
pub fn digest(hands: &[ReportHand]) -> String {
    let mut sorted: Vec<&ReportHand> = hands.iter().collect();
    sorted.sort_by(|a, b| {
        (a.table.as_str(), a.number, a.id.as_str()).cmp(&(
            b.table.as_str(),
            b.number,
            b.id.as_str(),
        ))
    });
    let owned: Vec<ReportHand> = sorted.into_iter().cloned().collect();
    hex::encode(Sha256::digest(digest_text(&owned).as_bytes()))
}

/// The CSV header of [`csv_rows`].
pub const CSV_HEADER: [&str; 12] = [
    "scope",
    "table",
    "hands",
    "closed",
    "voided",
    "corrected",
    "open",
    "wagered",
    "drop",
    "drop_per_hour",
    "pd_net",
    "from",
];

/// The report as CSV rows: the room, each table, the training tables.
pub fn csv_rows(report: &Report) -> Vec<Vec<String>> {
    let row = |scope: &str, table: &str, t: &Totals| {
        vec![
            scope.to_string(),
            csv_cell::cell(table).into_owned(),
            t.hands.to_string(),
            t.closed.to_string(),
            t.voided.to_string(),
            t.corrected.to_string(),
            t.open.to_string(),
            t.wagered.to_canonical(),
            t.drop.to_canonical(),
            t.drop_per_hour.to_canonical(),
            t.pd_net.to_canonical(),
            report.scope.from.clone(),
        ]
    };
    let mut rows = vec![row("room", "", &report.room)];
    for t in &report.tables {
        let scope = if t.training {
            "training table"
        } else {
            "table"
        };
        rows.push(row(scope, &t.table, &t.totals));
    }
    rows.push(row("training", "", &report.training));
    rows
}

/// The report as text for a terminal or a plain printout.
pub fn text(report: &Report) -> String {
    let s = &report.scope;
    let mut out = String::new();
    let what = match (&s.shift, &s.table) {
        (Some(id), _) => format!("Shift {id}"),
        (None, Some(t)) => format!("Table {t}"),
        (None, None) => "The room".to_string(),
    };
    out.push_str(&format!("{what}: {} to {}\n", s.from, s.to));
    let line = |name: &str, t: &Totals| {
        format!(
            "{name:<16} {:>6} hands ({} closed, {} voided, {} corrected, {} open)  wagered {:>12}  drop {:>10} ({} an hour)  PDs {}\n",
            t.hands,
            t.closed,
            t.voided,
            t.corrected,
            t.open,
            t.wagered.to_canonical(),
            t.drop.to_canonical(),
            t.drop_per_hour.to_canonical(),
            t.pd_net.to_canonical(),
        )
    };
    out.push_str(&line("Room", &report.room));
    for t in &report.tables {
        let name = if t.training {
            format!("{} (training)", t.table)
        } else {
            t.table.clone()
        };
        out.push_str(&line(&name, &t.totals));
    }
    if !report.pds.is_empty() {
        out.push_str("\nPDs\n");
        for p in &report.pds {
            out.push_str(&format!(
                "  {:<24} {:>4} banks  banked {:>12}  net {:>12}\n",
                p.name,
                p.banks,
                p.banked.to_canonical(),
                p.net.to_canonical()
            ));
        }
    }
    for t in &report.tables {
        let Some(c) = &t.compliance else { continue };
        out.push_str(&format!(
            "\nPD rotation at {}: {} ({} players other than a TPPP every {} minutes)\n",
            t.table, c.verdict, c.min_other_players, c.minutes
        ));
        for b in &c.breaks {
            out.push_str(&format!(
                "  #{} opened at {} after the clock ran out at {}\n",
                b.number, b.opened_at, b.ran_out_at
            ));
        }
        for o in &c.overrides {
            out.push_str(&format!(
                "  override by {} at {}: {}\n",
                o.stamp.by, o.stamp.at, o.reason
            ));
        }
    }
    if !report.tppps.is_empty() {
        out.push_str("\nTPPPs\n");
        for a in &report.tppps {
            out.push_str(&format!(
                "  {:<24} {} badge {}  {:>4} banks  banked {:>12}  net {:>12}\n",
                a.name,
                a.company,
                a.badge,
                a.banks,
                a.banked.to_canonical(),
                a.net.to_canonical()
            ));
        }
    }
    if !report.changes.is_empty() {
        out.push_str("\nCorrections and voids\n");
        for c in &report.changes {
            out.push_str(&format!(
                "  {} #{} {} by {} at {}: {}\n",
                c.table, c.number, c.kind, c.by, c.at, c.reason
            ));
        }
    }
    if !report.dealer_changes.is_empty() {
        out.push_str("\nDealer changes\n");
        for c in &report.dealer_changes {
            out.push_str(&format!(
                "  {} {}: {} (by {})\n",
                c.stamp.at,
                c.table,
                c.dealer.as_deref().unwrap_or("box left empty"),
                c.stamp.by
            ));
        }
    }
    for a in &report.anchors {
        out.push_str(&format!(
            "Anchor: seq {} hash {} at {}\n",
            a.seq, a.hash, a.at
        ));
    }
    out.push_str(&format!("Digest: {}\n", report.digest));
    out
}

/// Where a shift's report stands against its signature.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ReportStanding)]
#[serde(tag = "state", rename_all = "snake_case")]
pub enum Standing {
    /// Not signed yet (the shift is open).
    Unsigned,
    /// The report as signed: its hands give the signed digest.
    Signed {
        digest: String,
        by: String,
        at: String,
        seq: i64,
    },
    /// A hand changed after the signature: the digest differs, and these
    /// corrections or voids came after it.
    Superseded {
        signed_digest: String,
        by: String,
        at: String,
        seq: i64,
        changed: Vec<HandChange>,
    },
}

/// `report` (as its hands stand now) against `shift`'s last signature.
pub fn standing(shift: &Shift, report: &Report) -> Standing {
    let Some(s) = shift.signature() else {
        return Standing::Unsigned;
    };
    if s.digest == report.digest {
        return Standing::Signed {
            digest: s.digest.clone(),
            by: s.stamp.by.clone(),
            at: s.stamp.at.clone(),
            seq: s.stamp.seq,
        };
    }
    Standing::Superseded {
        signed_digest: s.digest.clone(),
        by: s.stamp.by.clone(),
        at: s.stamp.at.clone(),
        seq: s.stamp.seq,
        changed: report
            .changes
            .iter()
            .filter(|c| c.seq > s.stamp.seq)
            .cloned()
            .collect(),
    }
}
