//! Shifts (docs/shifts.md): a supervisor opens a shift for the
//! room or for one table, dealers take and leave the box at its tables,
//! the supervisor closes it and signs its report. A shift is the fold of
//! its records (`shift_opened`, `dealer_changed`, `shift_closed`,
//! `shift_report_signed`); every rule is checked here, so the pages, the
//! JSON API, the CLI and `audit verify`'s replay refuse the same things.
//! Pure: the store gives what it holds (the open shifts, the table's
//! dealers, the hands still open) and writes what comes back.

pub mod compliance;
mod event;
pub mod floor;
mod log;
mod range;
pub mod report;
pub mod tppp;

pub use event::{SHIFT_EVENTS, ShiftEvent};
pub use log::ShiftLog;
pub use range::{ReportRange, parse_report_range};

#[cfg(test)]
mod tests;

use std::fmt;

use serde::Serialize;

use crate::common::field_error::FieldError;
use crate::common::money::Money;

/// Who did it, when, and where in the log: what every step of a shift
/// keeps of its record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Stamp {
    pub at: String,
    pub by: String,
    pub seq: i64,
}

/// A dealer taking (or leaving) the box.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct DealerChange {
    pub table: String,
    pub dealer: Option<String>,
    #[serde(flatten)]
    pub stamp: Stamp,
}

/// A signature on the shift's report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Signature {
    pub digest: String,
    pub hands: u64,
    pub drop: Money,
    #[serde(flatten)]
    pub stamp: Stamp,
}

/// A shift: the fold of its records.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Shift {
    pub id: String,
    /// None: the whole room.
    pub table: Option<String>,
    pub opened: Stamp,
    pub closed: Option<Stamp>,
    pub dealers: Vec<DealerChange>,
    pub signatures: Vec<Signature>,
}

/// Why a shift action is refused: bad input naming its field (422), or a
/// state the action does not fit (409).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShiftRefusal {
    Invalid(FieldError),
    Conflict(String),
}

impl fmt::Display for ShiftRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ShiftRefusal::Invalid(e) => write!(f, "{e}"),
            ShiftRefusal::Conflict(m) => f.write_str(m),
        }
    }
}

fn invalid(field: &str, message: String) -> ShiftRefusal {
    ShiftRefusal::Invalid(FieldError::new(field, message))
}

impl Shift {
    /// A shift just opened. `open`: the shifts open now. Refused when a
    /// table it would cover is already covered: one open shift a table.
    pub fn open(
        id: String,
        table: Option<String>,
        open: &[Shift],
        stamp: Stamp,
    ) -> Result<Shift, ShiftRefusal> {
        for other in open.iter().filter(|s| s.is_open()) {
            let clash = match (&table, &other.table) {
                (None, None) => Some("the room already has an open shift".to_string()),
                (None, Some(t)) => Some(format!(
                    "{t} has a shift of its own open; close it before opening one for the room"
                )),
                (Some(t), None) => Some(format!("the room's open shift already covers {t}")),
                (Some(t), Some(o)) if t == o => Some(format!("{t} already has an open shift")),
                _ => None,
            };
            if let Some(why) = clash {
                return Err(ShiftRefusal::Conflict(format!(
                    "{why} ({}, opened by {} at {})",
                    other.id, other.opened.by, other.opened.at
                )));
            }
        }
        Ok(Shift {
            id,
            table,
            opened: stamp,
            closed: None,
            dealers: Vec::new(),
            signatures: Vec::new(),
        })
    }

    pub fn is_open(&self) -> bool {
        self.closed.is_none()
    }

    /// The shift as its records before `seq` left it (None: opened at or
    /// after `seq`): what a verification from an anchor resumes from.
    pub fn as_of(mut self, seq: i64) -> Option<Shift> {
        if self.opened.seq >= seq {
            return None;
        }
        if self.closed.as_ref().is_some_and(|c| c.seq >= seq) {
            self.closed = None;
        }
        self.dealers.retain(|d| d.stamp.seq < seq);
        self.signatures.retain(|s| s.stamp.seq < seq);
        Some(self)
    }

    /// Whether hands at `table` belong to this shift while it is open.
    pub fn covers(&self, table: &str) -> bool {
        self.table.as_deref().is_none_or(|t| t == table)
    }

    /// Who is in the box at `table` now (the last change there).
    pub fn dealer_now(&self, table: &str) -> Option<&str> {
        self.dealers
            .iter()
            .rfind(|c| c.table == table)
            .and_then(|c| c.dealer.as_deref())
    }

    /// Who was in the box at `table` at `at` (a UTC text, ordered as the
    /// log's times are): the last change there at or before it.
    pub fn dealer_at(&self, table: &str, at: &str) -> Option<&str> {
        self.dealers
            .iter()
            .rfind(|c| c.table == table && c.stamp.at.as_str() <= at)
            .and_then(|c| c.dealer.as_deref())
    }

    fn still_open(&self, doing: &str) -> Result<(), ShiftRefusal> {
        match &self.closed {
            None => Ok(()),
            Some(c) => Err(ShiftRefusal::Conflict(format!(
                "shift {} was closed by {} at {}: {doing}",
                self.id, c.by, c.at
            ))),
        }
    }

    /// A dealer takes the box at `table` (`dealer` None: the box is left
    /// empty). `assigned`: the accounts allowed at the table (its assigned
    /// dealers), or None on a replay, which checks what the log can show.
    pub fn change_dealer(
        &mut self,
        table: &str,
        dealer: Option<&str>,
        assigned: Option<&[String]>,
        stamp: Stamp,
    ) -> Result<(), ShiftRefusal> {
        self.still_open("no dealer change after it")?;
        if !self.covers(table) {
            return Err(invalid(
                "table",
                format!(
                    "shift {} is {}'s, not {table}'s",
                    self.id,
                    self.table.as_deref().unwrap_or("the room")
                ),
            ));
        }
        let now = self.dealer_now(table);
        if now == dealer {
            let message = match dealer {
                Some(d) => format!("{d} is already in the box at {table}"),
                None => format!("nobody is in the box at {table}"),
            };
            return Err(invalid("dealer", message));
        }
        if let (Some(d), Some(allowed)) = (dealer, assigned)
            && !allowed.iter().any(|a| a == d)
        {
            let list = if allowed.is_empty() {
                "nobody is assigned to it".to_string()
            } else {
                format!("assigned: {}", allowed.join(", "))
            };
            return Err(invalid(
                "dealer",
                format!("{d} is not assigned to {table} ({list})"),
            ));
        }
        self.dealers.push(DealerChange {
            table: table.to_string(),
            dealer: dealer.map(str::to_string),
            stamp,
        });
        Ok(())
    }

    /// Closes the shift. `hands_open`: the hands (by name, `DHP-1 #12`)
    /// still being played at its tables, which must finish first.
    pub fn close(&mut self, hands_open: &[String], stamp: Stamp) -> Result<(), ShiftRefusal> {
        self.still_open("it cannot be closed twice")?;
        if !hands_open.is_empty() {
            return Err(ShiftRefusal::Conflict(format!(
                "finish or void the hands still open first: {}",
                hands_open.join(", ")
            )));
        }
        self.closed = Some(stamp);
        Ok(())
    }

    /// Signs the report of the closed shift: a later signature (after a
    /// correction superseded the first) is kept beside the earlier ones; a
    /// signature of the digest already signed is refused.
    pub fn sign(&mut self, signature: Signature) -> Result<(), ShiftRefusal> {
        if self.is_open() {
            return Err(ShiftRefusal::Conflict(format!(
                "shift {} is open: its report is signed when it closes",
                self.id
            )));
        }
        if !is_digest(&signature.digest) {
            return Err(invalid(
                "digest",
                format!("\"{}\" is not a SHA-256 digest", signature.digest),
            ));
        }
        if self
            .signature()
            .is_some_and(|s| s.digest == signature.digest)
        {
            return Err(ShiftRefusal::Conflict(
                "the signed report still matches its hands: nothing to sign again".into(),
            ));
        }
        self.signatures.push(signature);
        Ok(())
    }

    /// The last signature, the one the report is held to.
    pub fn signature(&self) -> Option<&Signature> {
        self.signatures.last()
    }
}

fn is_digest(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
}

/// Whether a new hand may open at `table`: `covering` is the open shift
/// covering it (its id), if any. Refused when there is none and shifts
/// are `required` (a training table never needs one: nothing there
/// counts). The hand belongs to the covering shift by its time.
pub fn check_hand_shift(
    table: &str,
    training: bool,
    covering: Option<&str>,
    required: bool,
) -> Result<(), ShiftRefusal> {
    if covering.is_none() && required && !training {
        return Err(ShiftRefusal::Conflict(format!(
            "no shift is open at {table}, and this cardroom requires one: a supervisor opens it on the Shifts page"
        )));
    }
    Ok(())
}
