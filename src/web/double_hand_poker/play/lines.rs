//! A hand's events as the record and the replay show them: each first as a
//! sentence on the cardroom's clock ("14:02:11 dana: Ann bets 60.00 on
//! seat 4", `domain::double_hand_poker::event_words`), with the UTC the
//! record keeps, and the exact record beneath.

use super::view::Loaded;
use crate::domain::double_hand_poker::event_words;
use crate::store::audit::AuditRecord;
use crate::web::time::{When, when};

/// One event as shown.
pub struct EventLine<'a> {
    /// Its place in the hand, from 1 (the replay's step).
    pub step: usize,
    pub record: &'a AuditRecord,
    pub when: When,
    pub sentence: String,
    /// `correction`, `void` or `note` for what the replay marks, else empty.
    pub mark: &'static str,
}

/// Every event of `loaded`'s hand, oldest first.
pub fn lines(loaded: &Loaded, zone: chrono_tz::Tz) -> Vec<EventLine<'_>> {
    let sentences = event_words::sentences(&loaded.events);
    loaded
        .view
        .events
        .iter()
        .zip(sentences)
        .enumerate()
        .map(|(i, (record, sentence))| EventLine {
            step: i + 1,
            record,
            when: when(zone, &record.recorded_at),
            sentence,
            mark: match record.event_type.as_str() {
                "outcome_corrected" => "correction",
                "hand_voided" => "void",
                "hand_note_added" => "note",
                _ => "",
            },
        })
        .collect()
}
