//! The report's figures: the hands folded into the room's, each table's,
//! each hour's and each PD's totals, the players' results summed across
//! tables, and each table's part assembled with its rotation clock's
//! verdict and its TPPPs.

use std::collections::BTreeMap;

use super::super::compliance::{compliance, tppp_activity};
use super::super::tppp::RotationOverride;
use super::super::{DealerChange, Shift};
use super::digest::digest;
use super::{
    HandStatus, Hour, PdResult, PdTurn, PlayerResult, PlayerRow, REPORT_FORMAT, Report, ReportHand,
    ReportInput, Scope, TableReport, Totals, hand_order,
};
use crate::common::money::Money;

/// Computes the report of `input` over `scope`; `shift`, when the report
/// is a shift's, gives its dealer changes.
pub fn compute(scope: Scope, shift: Option<&Shift>, mut input: ReportInput) -> Report {
    input
        .hands
        .sort_by(|a, b| hand_order(a).cmp(&hand_order(b)));
    let minutes = scope.minutes;
    let mut fold = HandFold::default();
    for h in &input.hands {
        fold.add(h);
    }
    fold.room.per_hour(minutes);
    fold.training.per_hour(minutes);
    let (players, mut table_players) = player_results(&input.players, &fold.tables);
    let dealer_changes: Vec<DealerChange> = shift.map(|s| s.dealers.clone()).unwrap_or_default();
    let digest = digest(&input.hands);
    let tables = fold
        .tables
        .into_iter()
        .map(|(table, parts)| {
            let players = table_players.remove(table).unwrap_or_default();
            table_report(table, parts, players, &input, &dealer_changes, minutes)
        })
        .collect();
    let real: Vec<&ReportHand> = input.hands.iter().filter(|h| !h.training).collect();
    let room_tppps = tppp_activity(&real, &input.tppps);
    let mut changes = input.changes;
    changes.sort_by_key(|c| c.seq);
    Report {
        format: REPORT_FORMAT,
        scope,
        room: fold.room,
        training: fold.training,
        tables,
        hours: fold.hours.into_values().collect(),
        pds: fold.pds.into_values().collect(),
        players: players.into_values().collect(),
        changes,
        dealer_changes,
        anchors: input.anchors,
        tppps: room_tppps,
        overrides: input.overrides,
        digest,
    }
}

/// The hands' totals as they are folded in, one hand at a time: the room,
/// the training tables, each table, each hour and each PD.
#[derive(Default)]
struct HandFold<'a> {
    room: Totals,
    training: Totals,
    tables: BTreeMap<&'a str, TableParts<'a>>,
    hours: BTreeMap<&'a str, Hour>,
    pds: BTreeMap<&'a str, PdResult>,
}

impl<'a> HandFold<'a> {
    /// Counts `h` at its table, and (off the training tables) in the
    /// room, its hour and its PD's banks.
    fn add(&mut self, h: &'a ReportHand) {
        let parts = self.tables.entry(&h.table).or_insert_with(|| TableParts {
            training: h.training,
            ..TableParts::default()
        });
        parts.totals.add(h);
        *parts.dealt_by.entry(&h.dealer).or_default() += 1;
        if h.training {
            self.training.add(h);
            return;
        }
        self.room.add(h);
        let hour = self.hours.entry(&h.hour).or_insert_with(|| Hour {
            hour: h.hour.clone(),
            ..Hour::default()
        });
        hour.hands += 1;
        if h.status == HandStatus::Closed {
            hour.drop += h.collection.unwrap_or(Money::ZERO);
        }
        if let Some(pd) = &h.pd {
            for map in [&mut parts.pds, &mut self.pds] {
                add_bank(map, pd, h);
            }
            parts.turn(pd, h);
        }
    }
}

/// The players' results: summed by name over the real tables, and each
/// table's as the store gave them.
fn player_results<'a>(
    rows: &'a [PlayerRow],
    tables: &BTreeMap<&str, TableParts>,
) -> (
    BTreeMap<&'a str, PlayerResult>,
    BTreeMap<&'a str, Vec<PlayerResult>>,
) {
    let mut players: BTreeMap<&str, PlayerResult> = BTreeMap::new();
    let mut table_players: BTreeMap<&str, Vec<PlayerResult>> = BTreeMap::new();
    for p in rows {
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
    (players, table_players)
}

/// One table's part: its folded totals, its players (sorted by name), its
/// dealer changes, and its rotation clock's verdict when its rules have
/// one.
fn table_report(
    table: &str,
    mut parts: TableParts,
    mut players: Vec<PlayerResult>,
    input: &ReportInput,
    dealer_changes: &[DealerChange],
    minutes: i64,
) -> TableReport {
    parts.totals.per_hour(minutes);
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
