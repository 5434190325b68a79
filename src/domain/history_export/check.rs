//! `pitbook history check`: one line of an export read and checked with no
//! database. The line's hand is derived again from its records ([`build`]:
//! the hand's fold re-settles it with the engine, as `audit verify` does)
//! and compared with what the line states; with the audit key every
//! record's HMAC is recomputed; the records' links are checked across the
//! file as it streams past ([`Links`]).

use super::build::{BuildError, build_summary};
use super::format::{ExportedHand, FORMAT};
use crate::common::audit::AuditKey;

/// A line that is not a line of an export: the file is refused (exit 2).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {}{message}", field.as_deref().map(|f| format!("{f}: ")).unwrap_or_default())]
pub struct LineError {
    pub line: u64,
    /// The field path within the line (`wagers[2].amount`), when one is at fault.
    pub field: Option<String>,
    pub message: String,
}

/// Reads line `line` (counted from 1) of an export.
pub fn read_line(line: u64, text: &str) -> Result<ExportedHand, LineError> {
    let refuse = |field: Option<String>, message: String| LineError {
        line,
        field,
        message,
    };
    // Most lines are well formed: read them without tracking the path.
    if let Ok(hand) = serde_json::from_str::<ExportedHand>(text)
        && hand.format == FORMAT
    {
        return Ok(hand);
    }
    let mut de = serde_json::Deserializer::from_str(text);
    let parsed = serde_path_to_error::deserialize::<_, ExportedHand>(&mut de);
    if parsed.is_ok()
        && let Err(e) = de.end()
    {
        return Err(refuse(None, format!("not one JSON value: {e}")));
    }
    match parsed {
        Ok(hand) if hand.format == FORMAT => Ok(hand),
        Ok(hand) => Err(refuse(Some("format".into()), wrong_format(&hand.format))),
        Err(e) => {
            // Say first whether it is JSON, and an export of this version.
            #[derive(serde::Deserialize)]
            struct Head {
                format: Option<serde_json::Value>,
            }
            let head = match serde_json::from_str::<serde_json::Value>(text) {
                Err(json) => return Err(refuse(None, format!("not JSON: {json}"))),
                Ok(value) => serde_json::from_value::<Head>(value).ok(),
            };
            match head.and_then(|h| h.format) {
                None => Err(refuse(
                    Some("format".into()),
                    format!(
                        "missing: this is not a pitbook hand-history export (every line names \"format\": \"{FORMAT}\")"
                    ),
                )),
                Some(serde_json::Value::String(f)) if f != FORMAT => {
                    Err(refuse(Some("format".into()), wrong_format(&f)))
                }
                Some(serde_json::Value::String(_)) => {
                    let path = e.path().to_string();
                    let field = (path != "." && !path.is_empty()).then_some(path);
                    Err(refuse(field, e.into_inner().to_string()))
                }
                Some(other) => Err(refuse(
                    Some("format".into()),
                    wrong_format(&other.to_string()),
                )),
            }
        }
    }
}

fn wrong_format(found: &str) -> String {
    format!("\"{found}\" is not {FORMAT}, the format this pitbook reads")
}

/// What was found about one hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandCheck {
    /// The hand's settlement was recomputed from its events (closed hands).
    pub settled: bool,
    pub records: u64,
    /// Record hashes recomputed (0 without the key).
    pub hashes: u64,
    /// Each problem in plain words; empty when the hand checks out.
    pub problems: Vec<String>,
    /// Each record's seq, `prev_hash` and hash, for [`Links::take`].
    pub chain: Vec<(i64, String, String)>,
}

/// Checks a hand read by [`read_line`]: rebuilt from its records and
/// compared, every record's hash with the key, every link through `links`.
pub fn check_hand(hand: ExportedHand, key: Option<&AuditKey>, links: &mut Links) -> HandCheck {
    let mut checked = check_alone(hand, key);
    links.take(&mut checked);
    checked
}

/// [`check_hand`] but for the links across the file, which [`Links::take`]
/// checks in the file's order: hands may be checked on several threads.
pub fn check_alone(mut hand: ExportedHand, key: Option<&AuditKey>) -> HandCheck {
    let records = std::mem::take(&mut hand.records);
    let mut problems = Vec::new();
    let mut hashes = 0;
    if let Some(key) = key {
        for r in &records {
            hashes += 1;
            if key.check_hash(&r.fields(), &r.hash).is_err() {
                problems.push(format!(
                    "seq {}: hash mismatch — the record was altered, or the key is not the one it was written with",
                    r.seq
                ));
            }
        }
    }
    let mut settled = false;
    match build_summary(&hand.id, hand.number, &records) {
        Err(e) => problems.push(replay_problem(&e)),
        Ok(rebuilt) => {
            settled = rebuilt.settlement.is_some();
            if let Some(field) = first_difference(&hand, &rebuilt) {
                problems.push(format!(
                    "{field}: the line states what its records do not (the records give another {field})"
                ));
            }
        }
    }
    HandCheck {
        settled,
        records: records.len() as u64,
        hashes,
        problems,
        chain: records
            .into_iter()
            .map(|r| (r.seq, r.prev_hash, r.hash))
            .collect(),
    }
}

fn replay_problem(e: &BuildError) -> String {
    if e.is_settlement() {
        format!("{e}: the recorded settlement is not what the engine gives for this hand")
    } else {
        e.to_string()
    }
}

/// The first field (in the format's order) where the two differ.
fn first_difference(stated: &ExportedHand, rebuilt: &ExportedHand) -> Option<&'static str> {
    macro_rules! fields {
        ($($field:ident),*) => {
            $( if stated.$field != rebuilt.$field { return Some(stringify!($field)); } )*
        };
    }
    fields!(
        id,
        table,
        game,
        status,
        opened_at,
        closed_at,
        voided_at,
        dealer,
        rules,
        pd,
        action,
        wagers,
        removed_wagers,
        collection,
        results,
        house_collection,
        settlement,
        corrections,
        void,
        notes
    );
    None
}

/// The records' links across a file: record `seq`'s `prev_hash` must be
/// record `seq − 1`'s hash wherever both are in the file. Hands interleave
/// on the chain, so a link may close lines later: the records are kept in
/// a ring of [`Links::WINDOW`] slots by seq, so a link closes when its two
/// records are within that many seqs of every record between them in the
/// file, and memory does not grow with the file. (A ring rather than a map:
/// the map's hashing, inserts and removals were a twentieth of the check.)
#[derive(Debug)]
pub struct Links {
    slots: Vec<Slot>,
    pub checked: u64,
}

/// One seq's record as far as it has been seen: its hash, and the
/// prev_hash it states while its predecessor is not seen yet.
#[derive(Debug, Default)]
struct Slot {
    seq: Option<i64>,
    hash: Option<String>,
    claim: Option<String>,
}

impl Default for Links {
    fn default() -> Links {
        Links {
            slots: std::iter::repeat_with(Slot::default)
                .take(Self::WINDOW)
                .collect(),
            checked: 0,
        }
    }
}

impl Links {
    pub const WINDOW: usize = 1 << 17;

    /// Takes in a checked hand's records, in the file's order; each link
    /// that does not hold is added to its problems.
    pub fn take(&mut self, checked: &mut HandCheck) {
        for (seq, prev_hash, hash) in std::mem::take(&mut checked.chain) {
            if let Some(seq) = self.see_owned(seq, prev_hash, hash) {
                checked.problems.push(format!(
                    "seq {seq}: prev_hash does not match the hash of seq {} — a record was removed, inserted or altered",
                    seq - 1
                ));
            }
        }
    }

    /// Takes in one record; the seq of a link that does not hold, if any.
    pub fn see(&mut self, seq: i64, prev_hash: &str, hash: &str) -> Option<i64> {
        self.see_owned(seq, prev_hash.to_string(), hash.to_string())
    }

    /// The slot of `seq` if it holds `seq`.
    fn slot(&mut self, seq: i64) -> Option<&mut Slot> {
        let slot = &mut self.slots[Self::index(seq)];
        (slot.seq == Some(seq)).then_some(slot)
    }

    fn index(seq: i64) -> usize {
        // WINDOW is a power of two: the low bits, whatever seq's sign.
        (seq as u64 as usize) & (Self::WINDOW - 1)
    }

    fn see_owned(&mut self, seq: i64, prev_hash: String, hash: String) -> Option<i64> {
        let mut broken = None;
        let mut claim = None;
        let links = self.slot(seq - 1).and_then(|s| s.hash.as_ref());
        match links.map(|before| *before == prev_hash) {
            Some(holds) => {
                self.checked += 1;
                if !holds {
                    broken = Some(seq);
                }
            }
            None => claim = Some(prev_hash),
        }
        if let Some(claimed) = self.slot(seq + 1).and_then(|s| s.claim.take()) {
            self.checked += 1;
            if claimed != hash {
                broken = broken.or(Some(seq + 1));
            }
        }
        let slot = &mut self.slots[Self::index(seq)];
        if slot.seq != Some(seq) {
            // A record WINDOW seqs away, or none: it leaves the window.
            *slot = Slot {
                seq: Some(seq),
                ..Slot::default()
            };
        }
        slot.hash = Some(hash);
        if claim.is_some() {
            slot.claim = claim;
        }
        broken
    }
}
