//! One shift record folded through the core (`ShiftLog::apply`), with the
//! rows it derives noted as text by key: those the record gives by itself
//! and those the log gives once it is applied.

use super::{Derived, Problem, Record, problem};
use crate::domain::shifts::{ShiftEvent, Stamp};

impl Derived {
    /// Folds one record through the core and notes the rows it derives.
    pub(super) fn fold(
        &mut self,
        (seq, at, actor, event_type, payload): Record,
    ) -> Result<(), Problem> {
        let event = ShiftEvent::parse(&event_type, &payload)
            .map_err(|e| problem(seq, format!("{event_type}: {e}")))?;
        let stamp = Stamp {
            at: at.clone(),
            by: actor.clone(),
            seq,
        };
        self.note_record_rows(&event, seq, &at, &actor);
        let registered = matches!(event, ShiftEvent::TpppRegistered { .. });
        let marked_table = match &event {
            ShiftEvent::TpppMarked { table, .. } | ShiftEvent::TpppUnmarked { table, .. } => {
                Some(table.clone())
            }
            _ => None,
        };
        let id = match &event {
            ShiftEvent::ShiftOpened { shift, .. } | ShiftEvent::ShiftClosed { shift } => {
                Some(shift.clone())
            }
            _ => None,
        };
        if let Err(e) = self.log.apply(event, stamp) {
            return Err(problem(
                seq,
                format!("{event_type} breaks a shift rule: {e}"),
            ));
        }
        self.note_log_rows(registered, marked_table, id, seq);
        Ok(())
    }

    /// The rows a record gives by itself: a dealer change, a signature, the
    /// room's setting, an override.
    fn note_record_rows(&mut self, event: &ShiftEvent, seq: i64, at: &str, actor: &str) {
        let row = |v: &str| (v.to_string(), seq);
        match event {
            ShiftEvent::DealerChanged {
                shift,
                table,
                dealer,
            } => {
                let d = dealer.clone().unwrap_or_else(|| "NULL".into());
                self.dealers.insert(
                    seq.to_string(),
                    row(&format!("{shift}|{table}|{d}|{at}|{actor}")),
                );
            }
            ShiftEvent::ShiftReportSigned {
                shift,
                digest,
                hands,
                drop,
            } => {
                self.signatures.insert(
                    seq.to_string(),
                    row(&format!(
                        "{shift}|{digest}|{hands}|{}|{at}|{actor}",
                        drop.to_canonical()
                    )),
                );
            }
            ShiftEvent::ShiftsRequiredSet { required } => {
                self.settings
                    .insert("shifts_required".into(), row(&required.to_string()));
            }
            ShiftEvent::PdRotationOverridden { table, reason } => {
                self.overrides.insert(
                    seq.to_string(),
                    row(&format!("{table}|{reason}|{at}|{actor}")),
                );
            }
            _ => {}
        }
    }

    /// The rows the log gives once a record is applied: the TPPP
    /// registered, a table's marks, the shift opened or closed.
    fn note_log_rows(
        &mut self,
        registered: bool,
        marked_table: Option<String>,
        id: Option<String>,
        seq: i64,
    ) {
        let row = |v: &str| (v.to_string(), seq);
        if registered && let Some(t) = self.log.tppps.last() {
            self.tppps.insert(
                t.name.clone(),
                row(&format!(
                    "{}|{}|{}|{}|{}",
                    t.company, t.badge, t.registered.at, t.registered.by, t.registered.seq
                )),
            );
        }
        if let Some(table) = marked_table {
            let names: Vec<&String> = self
                .log
                .marks
                .iter()
                .filter(|(t, _)| *t == table)
                .map(|(_, n)| n)
                .collect();
            if names.is_empty() {
                self.marks.remove(&table);
            } else {
                let text = serde_json::to_string(&names).unwrap_or_default();
                self.marks.insert(table, row(&text));
            }
        }
        if let Some(id) = id
            && let Some(s) = self.log.shifts.get(&id)
        {
            let closed = s.closed.as_ref().map_or_else(
                || "NULL|NULL|NULL".to_string(),
                |c| format!("{}|{}|{}", c.at, c.by, c.seq),
            );
            let text = format!(
                "{}|{}|{}|{}|{closed}",
                s.table.as_deref().unwrap_or("NULL"),
                s.opened.at,
                s.opened.by,
                s.opened.seq
            );
            self.shifts.insert(id, (text, seq));
        }
    }
}
