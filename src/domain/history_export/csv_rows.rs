//! The CSV of an export: one row per wager, for reading in a spreadsheet
//! (the exact, checkable export is the JSON lines). Every cell goes through
//! [`csv_cell::cell`], so no name opens as a formula.

use super::format::{ExportedHand, Status};
use crate::common::csv_cell;
use crate::common::money::Money;

pub const CSV_HEADER: [&str; 19] = [
    "hand_number",
    "hand_id",
    "table",
    "status",
    "opened_at_utc",
    "opened_at_local",
    "pd_seat",
    "pd",
    "wager",
    "seat",
    "bettor",
    "amount",
    "backline",
    "covered",
    "no_action",
    "outcome",
    "paid",
    "net",
    "collection",
];

/// The hand's rows, one per standing wager in placement order; `local` is
/// its opening time on the cardroom's clock (the shell knows the zone).
pub fn csv_rows(hand: &ExportedHand, local: &str) -> Vec<[String; 19]> {
    let cell = |text: &str| csv_cell::cell(text).into_owned();
    let money = |m: Money| m.to_canonical();
    hand.wagers
        .iter()
        .map(|w| {
            let (covered, no_action, outcome, paid, net, collection) =
                match (&w.result, hand.status) {
                    (Some(r), _) => (
                        money(r.covered),
                        money(r.no_action),
                        r.outcome.to_string(),
                        money(r.paid),
                        money(r.net),
                        money(r.collection),
                    ),
                    // Every bet of a voided hand is returned.
                    (None, Status::Voided) => (
                        String::new(),
                        String::new(),
                        "void".to_string(),
                        money(w.amount),
                        money(Money::ZERO),
                        String::new(),
                    ),
                    (None, _) => Default::default(),
                };
            [
                hand.number.map(|n| n.to_string()).unwrap_or_default(),
                cell(&hand.id),
                cell(&hand.table),
                hand.status.as_str().to_string(),
                cell(&hand.opened_at),
                cell(local),
                hand.pd
                    .as_ref()
                    .map(|p| p.seat.to_string())
                    .unwrap_or_default(),
                hand.pd
                    .as_ref()
                    .map(|p| cell(&p.player))
                    .unwrap_or_default(),
                cell(&w.id),
                w.seat.to_string(),
                cell(&w.bettor),
                money(w.amount),
                w.backline.to_string(),
                covered,
                no_action,
                outcome,
                paid,
                net,
                collection,
            ]
        })
        .collect()
}
