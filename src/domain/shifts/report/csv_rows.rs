//! The report as CSV rows: one line of totals for the room, each table
//! and the training tables.

use super::{Report, Totals};
use crate::common::csv_cell;

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
