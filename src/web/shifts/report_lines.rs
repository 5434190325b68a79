//! The shift report's lines as its page shows them: each table's totals,
//! PDs, players, TPPPs and the PD's turns with their money written by
//! `Money::to_display` ("1,234.50", "−60.00") and their counts, from the
//! core's report (`domain::shifts::report`).

use crate::domain::shifts::compliance::TpppActivity;
use crate::domain::shifts::report::{PdResult, PdTurn, PlayerResult, TableReport, Totals};

/// A report table's line: a name and its totals, as the page shows them
/// (amounts by `Money::to_display`: "1,234.50", "−60.00").
pub(super) struct TotalsRow {
    pub(super) name: String,
    pub(super) anchor: String,
    pub(super) hands: u64,
    pub(super) closed: u64,
    pub(super) voided: u64,
    pub(super) corrected: u64,
    pub(super) open: u64,
    pub(super) wagered: String,
    pub(super) drop: String,
    pub(super) per_hour: String,
    pub(super) pd_net: String,
}

pub(super) fn totals_row(name: &str, anchor: &str, t: &Totals) -> TotalsRow {
    TotalsRow {
        name: name.to_string(),
        anchor: anchor.to_string(),
        hands: t.hands,
        closed: t.closed,
        voided: t.voided,
        corrected: t.corrected,
        open: t.open,
        wagered: t.wagered.to_display(),
        drop: t.drop.to_display(),
        per_hour: t.drop_per_hour.to_display(),
        pd_net: t.pd_net.to_display(),
    }
}

/// A PD's banks as the report shows them.
pub(super) struct PdLine {
    pub(super) name: String,
    pub(super) banks: u64,
    pub(super) banked: String,
    pub(super) net: String,
}

impl From<&PdResult> for PdLine {
    fn from(p: &PdResult) -> PdLine {
        PdLine {
            name: p.name.clone(),
            banks: p.banks,
            banked: p.banked.to_display(),
            net: p.net.to_display(),
        }
    }
}

/// A player's bets as the report shows them.
pub(super) struct PlayerLine {
    pub(super) name: String,
    pub(super) hands: u64,
    pub(super) staked: String,
    pub(super) net: String,
}

impl From<&PlayerResult> for PlayerLine {
    fn from(p: &PlayerResult) -> PlayerLine {
        PlayerLine {
            name: p.name.clone(),
            hands: p.hands,
            staked: p.staked.to_display(),
            net: p.net.to_display(),
        }
    }
}

/// A TPPP's banks at a table as the report shows them.
pub(super) struct TpppLine {
    pub(super) name: String,
    pub(super) company: String,
    pub(super) badge: String,
    pub(super) banks: u64,
    pub(super) banked: String,
    pub(super) net: String,
}

impl From<&TpppActivity> for TpppLine {
    fn from(a: &TpppActivity) -> TpppLine {
        TpppLine {
            name: a.name.clone(),
            company: a.company.clone(),
            badge: a.badge.clone(),
            banks: a.banks,
            banked: a.banked.to_display(),
            net: a.net.to_display(),
        }
    }
}

/// A PD's turn with the bank as the report shows it (the times in UTC,
/// shown on the cardroom's clock by the page).
pub(super) struct TurnLine {
    pub(super) pd: String,
    pub(super) hands: u64,
    pub(super) from_number: i64,
    pub(super) from: String,
    pub(super) to_number: i64,
    pub(super) to: String,
    pub(super) net: String,
}

impl From<&PdTurn> for TurnLine {
    fn from(r: &PdTurn) -> TurnLine {
        TurnLine {
            pd: r.pd.clone(),
            hands: r.hands,
            from_number: r.from_number,
            from: r.from.clone(),
            to_number: r.to_number,
            to: r.to.clone(),
            net: r.net.to_display(),
        }
    }
}

/// A table's part of the report: the part itself, its money as the page
/// shows it.
pub(super) struct TableSection {
    pub(super) part: TableReport,
    pub(super) totals: TotalsRow,
    pub(super) pds: Vec<PdLine>,
    pub(super) players: Vec<PlayerLine>,
    pub(super) rotation: Vec<TurnLine>,
    pub(super) tppps: Vec<TpppLine>,
}

impl From<&TableReport> for TableSection {
    fn from(t: &TableReport) -> TableSection {
        TableSection {
            part: t.clone(),
            totals: totals_row(&t.table, &format!("table-{}", t.table), &t.totals),
            pds: t.pds.iter().map(PdLine::from).collect(),
            players: t.players.iter().map(PlayerLine::from).collect(),
            rotation: t.rotation.iter().map(TurnLine::from).collect(),
            tppps: t.tppps.iter().map(TpppLine::from).collect(),
        }
    }
}
