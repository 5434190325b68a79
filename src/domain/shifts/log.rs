//! The shift log replayed: every shift of the log and the room's
//! setting, record by record through the same checks the actions meet.

use super::{Shift, ShiftEvent, ShiftRefusal, Signature, Stamp, tppp};

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
