//! The hand-history export (docs/hand-history.md): a Double Hand Poker hand
//! and its audit records as one line of `pitbook-hand-history/1` JSON
//! (`format.rs`, written by `line.rs`), built from the records by the hand's own fold
//! (`build.rs`), checked again offline by `pitbook history check`
//! (`check.rs`), and as CSV rows, one per wager (`csv_rows.rs`). Pure: the
//! store reads the hands and their records, the shell writes the lines.

mod build;
mod check;
mod csv_rows;
mod format;
mod line;

pub use build::{BuildError, FOLDED_KINDS, HandSource, NOTE_ADDED, build, build_summary};
pub use check::{HandCheck, LineError, Links, check_alone, check_hand, read_line};
pub use csv_rows::{CSV_HEADER, csv_rows};
pub use format::{
    Action, Collection, Correction, ExportRecord, ExportedHand, FORMAT, Note, Pd, RemovedWager,
    Rules, SeatResult, SettlementText, Status, Total, Void, Wager, WagerResult,
};
pub use line::write_line;

#[cfg(test)]
mod check_tests;
#[cfg(test)]
mod tests;
