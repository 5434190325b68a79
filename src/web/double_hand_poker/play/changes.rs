//! What was changed in a hand after the fact, as the hand page and its
//! record show it: each correction and the void
//! (`domain::double_hand_poker::hand_history`) with who made it and when,
//! on the cardroom's clock with UTC beside.

use super::view::Loaded;
use crate::domain::double_hand_poker::hand_history;
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::web::time::{When, when};

/// A change as shown.
pub struct ChangeRow {
    pub what: String,
    pub reason: String,
    pub before: String,
    pub after: String,
    pub who: String,
    pub when: When,
}

/// The changes of `loaded`'s hand, oldest first.
pub fn rows(loaded: &Loaded, zone: chrono_tz::Tz) -> Vec<ChangeRow> {
    let records = &loaded.view.events;
    // Only a hand with a correction or a void is folded again.
    if !records
        .iter()
        .any(|r| matches!(r.event_type.as_str(), "outcome_corrected" | "hand_voided"))
    {
        return Vec::new();
    }
    let Ok(events) = records
        .iter()
        .map(|r| HandEvent::from_json(&r.payload))
        .collect::<Result<Vec<_>, _>>()
    else {
        return Vec::new();
    };
    hand_history::changes(&events)
        .into_iter()
        .filter_map(|c| {
            let record = records.get(c.event_index)?;
            Some(ChangeRow {
                what: c.what,
                reason: c.reason,
                before: c.before,
                after: c.after,
                who: record.actor.clone(),
                when: when(zone, &record.recorded_at),
            })
        })
        .collect()
}
