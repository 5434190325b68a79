//! The notes on a hand (`hand_note_added`), as the hand page and its record
//! show them: who added each (the record's actor), when on the cardroom's
//! clock with UTC beside, and the text.

use super::view::Loaded;
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::web::time::{When, when};

/// A note as shown.
pub struct NoteRow {
    pub who: String,
    pub when: When,
    pub text: String,
}

/// The notes of `loaded`'s hand, oldest first.
pub fn rows(loaded: &Loaded, zone: chrono_tz::Tz) -> Vec<NoteRow> {
    loaded
        .view
        .events
        .iter()
        .filter(|r| r.event_type == "hand_note_added")
        .filter_map(|r| match HandEvent::from_json(&r.payload) {
            Ok(HandEvent::HandNoteAdded { text }) => Some(NoteRow {
                who: r.actor.clone(),
                when: when(zone, &r.recorded_at),
                text,
            }),
            _ => None,
        })
        .collect()
}
