//! Shifts (docs/shifts.md): a supervisor opens a shift for the
//! room or for one table, dealers take and leave the box at its tables,
//! the supervisor closes it and signs its report. A shift is the fold of
//! its records (`shift_opened`, `dealer_changed`, `shift_closed`,
//! `shift_report_signed`); every rule is checked here, so the pages, the
//! JSON API, the CLI and `audit verify`'s replay refuse the same things.
//! Pure: the store gives what it holds (the open shifts, the table's
//! dealers, the hands still open) and writes what comes back.

pub mod compliance;
pub mod report;
pub mod tppp;

#[cfg(test)]
mod tests;

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::common::field_error::FieldError;
use crate::common::money::Money;
use crate::history::{LocalDate, LocalDateTime};

/// The event types of the shift log, as the audit log names them.
pub const SHIFT_EVENTS: [&str; 9] = [
    "shift_opened",
    "dealer_changed",
    "shift_closed",
    "shift_report_signed",
    "shifts_required_set",
    "tppp_registered",
    "tppp_marked",
    "tppp_unmarked",
    "pd_rotation_overridden",
];

/// One shift record's payload (the audit log's `event_type` is the tag).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
pub enum ShiftEvent {
    /// A shift opened for the room (`table` absent) or for one table.
    ShiftOpened {
        shift: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        table: Option<String>,
    },
    /// A dealer takes the box at a table (`dealer` absent: the box is left
    /// empty, the dealer before it leaves).
    DealerChanged {
        shift: String,
        table: String,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        dealer: Option<String>,
    },
    ShiftClosed {
        shift: String,
    },
    /// The closing supervisor's signature on the report: its digest, and
    /// what it counted, for the reader of the log.
    ShiftReportSigned {
        shift: String,
        digest: String,
        hands: u64,
        drop: Money,
    },
    /// Whether a hand may open at a table no open shift covers.
    ShiftsRequiredSet {
        required: bool,
    },
    /// A third-party proposition player registered (`tppp.rs`).
    TpppRegistered {
        name: String,
        company: String,
        badge: String,
    },
    /// A TPPP marked at a table: recorded in each hand opened there.
    TpppMarked {
        table: String,
        name: String,
    },
    TpppUnmarked {
        table: String,
        name: String,
    },
    /// A supervisor lets the game go on past the PD rotation clock.
    PdRotationOverridden {
        table: String,
        reason: String,
    },
}

impl ShiftEvent {
    pub fn type_name(&self) -> &'static str {
        match self {
            ShiftEvent::ShiftOpened { .. } => "shift_opened",
            ShiftEvent::DealerChanged { .. } => "dealer_changed",
            ShiftEvent::ShiftClosed { .. } => "shift_closed",
            ShiftEvent::ShiftReportSigned { .. } => "shift_report_signed",
            ShiftEvent::ShiftsRequiredSet { .. } => "shifts_required_set",
            ShiftEvent::TpppRegistered { .. } => "tppp_registered",
            ShiftEvent::TpppMarked { .. } => "tppp_marked",
            ShiftEvent::TpppUnmarked { .. } => "tppp_unmarked",
            ShiftEvent::PdRotationOverridden { .. } => "pd_rotation_overridden",
        }
    }

    /// The payload as recorded: the event without its tag (the record's
    /// `event_type` carries it).
    pub fn payload(&self) -> serde_json::Value {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(map) = value.as_object_mut() {
            map.remove("type");
        }
        value
    }

    /// A recorded payload read back as its event.
    pub fn parse(event_type: &str, payload: &str) -> Result<ShiftEvent, String> {
        let mut value: serde_json::Value =
            serde_json::from_str(payload).map_err(|e| format!("not JSON: {e}"))?;
        let map = value
            .as_object_mut()
            .ok_or_else(|| "not a JSON object".to_string())?;
        map.insert("type".into(), event_type.into());
        serde_json::from_value(value).map_err(|e| e.to_string())
    }
}

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

/// Every shift of the log and the room's setting: `audit verify`'s replay,
/// record by record, through the same checks.
#[derive(Debug, Default)]
pub struct ShiftLog {
    pub shifts: std::collections::BTreeMap<String, Shift>,
    pub required: bool,
    pub tppps: Vec<tppp::Tppp>,
    /// (table, TPPP name) marked now.
    pub marks: Vec<(String, String)>,
    pub overrides: Vec<tppp::RotationOverride>,
    /// The shifts open now: what a shift opening is checked against, so a
    /// replay of years of shifts reads only these, not every shift.
    open: std::collections::BTreeSet<String>,
}

impl ShiftLog {
    /// Applies one record. The dealers' assignments are not in this log,
    /// so a replay checks every rule but that one.
    pub fn apply(&mut self, event: ShiftEvent, stamp: Stamp) -> Result<(), ShiftRefusal> {
        match event {
            ShiftEvent::ShiftOpened { shift, table } => {
                if self.shifts.contains_key(&shift) {
                    return Err(ShiftRefusal::Conflict(format!(
                        "shift {shift} opened twice"
                    )));
                }
                let open: Vec<Shift> = self
                    .open
                    .iter()
                    .filter_map(|id| self.shifts.get(id).cloned())
                    .collect();
                let opened = Shift::open(shift.clone(), table, &open, stamp)?;
                self.open.insert(shift.clone());
                self.shifts.insert(shift, opened);
            }
            ShiftEvent::DealerChanged {
                shift,
                table,
                dealer,
            } => self
                .get(&shift)?
                .change_dealer(&table, dealer.as_deref(), None, stamp)?,
            ShiftEvent::ShiftClosed { shift } => {
                self.get(&shift)?.close(&[], stamp)?;
                self.open.remove(&shift);
            }
            ShiftEvent::ShiftReportSigned {
                shift,
                digest,
                hands,
                drop,
            } => self.get(&shift)?.sign(Signature {
                digest,
                hands,
                drop,
                stamp,
            })?,
            ShiftEvent::ShiftsRequiredSet { required } => self.required = required,
            ShiftEvent::TpppRegistered {
                name,
                company,
                badge,
            } => {
                let (name, company, badge) =
                    tppp::check_registration(&name, &company, &badge, &self.tppps)?;
                self.tppps.push(tppp::Tppp {
                    name,
                    company,
                    badge,
                    registered: stamp,
                });
            }
            // The table's limit is its rules', not in this log: a replay
            // checks every rule but that one.
            ShiftEvent::TpppMarked { table, name } => {
                let name = tppp::check_mark(&name, &table, u32::MAX, &self.tppps, &self.marks)?;
                self.marks.push((table, name));
            }
            ShiftEvent::TpppUnmarked { table, name } => {
                let name = tppp::check_unmark(&name, &table, &self.marks)?;
                self.marks.retain(|(t, n)| !(*t == table && *n == name));
            }
            ShiftEvent::PdRotationOverridden { table, reason } => {
                let reason = tppp::check_override(&table, true, &reason)?;
                self.overrides.push(tppp::RotationOverride {
                    table,
                    reason,
                    stamp,
                });
            }
        }
        Ok(())
    }

    /// Takes in a shift as it stood (`Shift::as_of` an anchor), for a
    /// replay of the records after it.
    pub fn resume(&mut self, shift: Shift) {
        if shift.is_open() {
            self.open.insert(shift.id.clone());
        }
        self.shifts.insert(shift.id.clone(), shift);
    }

    fn get(&mut self, id: &str) -> Result<&mut Shift, ShiftRefusal> {
        self.shifts
            .get_mut(id)
            .ok_or_else(|| ShiftRefusal::Conflict(format!("there is no shift {id}")))
    }
}

/// A report's range on the cardroom's clock: a whole day, or from a time
/// (inclusive) to a later one (exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportRange {
    Day(LocalDate),
    Between {
        from: LocalDateTime,
        to: LocalDateTime,
    },
}

/// Reads a report's range: `date` (`YYYY-MM-DD`), or both `from` and `to`
/// (`YYYY-MM-DDTHH:MM`), `to` after `from`.
pub fn parse_report_range(
    date: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<ReportRange, FieldError> {
    fn given(v: Option<&str>) -> Option<&str> {
        v.map(str::trim).filter(|v| !v.is_empty())
    }
    let (date, from, to) = (given(date), given(from), given(to));
    if let Some(d) = date {
        if from.is_some() || to.is_some() {
            return Err(FieldError::new(
                "date",
                "give a date, or from and to, not both",
            ));
        }
        return LocalDate::parse(d).map(ReportRange::Day).ok_or_else(|| {
            FieldError::new("date", format!("\"{d}\" is not a date (YYYY-MM-DD)")).with_value(d)
        });
    }
    let time = |field: &str, v: Option<&str>| -> Result<LocalDateTime, FieldError> {
        let v = v.ok_or_else(|| {
            FieldError::new(
                field,
                "required: a date and time (YYYY-MM-DDTHH:MM), or a date",
            )
        })?;
        LocalDateTime::parse(v).ok_or_else(|| {
            FieldError::new(
                field,
                format!("\"{v}\" is not a date and time (YYYY-MM-DDTHH:MM)"),
            )
            .with_value(v)
        })
    };
    let (from_at, to_at) = (time("from", from)?, time("to", to)?);
    if to_at <= from_at {
        return Err(FieldError::new(
            "to",
            format!("{to_at} is not after {from_at}: the range is backwards or empty"),
        )
        .with_value(to.unwrap_or_default()));
    }
    Ok(ReportRange::Between {
        from: from_at,
        to: to_at,
    })
}
