//! The hand's state beside its title on the hand, record and replay pages:
//! a tag's colour and its words (`OPEN · step 3 of 5 — dice`, `CLOSED`,
//! `CORRECTED`, `VOIDED — reason`).

use super::view::{Loaded, Step};
use crate::domain::double_hand_poker::hand_record::HandEvent;

/// A status tag: its class (the colour, `.tag.open`…) and its words.
pub struct StatusTag {
    pub class: &'static str,
    pub words: String,
}

/// The tag of `loaded`'s hand as it stands.
pub fn status_tag(loaded: &Loaded) -> StatusTag {
    let corrected = loaded
        .events
        .iter()
        .any(|e| matches!(e, HandEvent::OutcomeCorrected { .. }));
    let step = loaded.step(None);
    let (class, words) = match step {
        Step::Voided => ("voided", format!("Voided — {}", void_reason(loaded))),
        Step::Closed if corrected => ("corrected", "Corrected".to_string()),
        Step::Closed => ("closed", "Closed".to_string()),
        open => (
            "open",
            format!("Open · step {} of 5 — {}", open.number(), step_words(open)),
        ),
    };
    StatusTag { class, words }
}

/// The open step, in a word.
fn step_words(step: Step) -> &'static str {
    match step {
        Step::Pd => "PD",
        Step::Wagers => "wagers",
        Step::Dice => "dice",
        Step::Results => "hands",
        _ => "settle",
    }
}

fn void_reason(loaded: &Loaded) -> &str {
    loaded
        .events
        .iter()
        .rev()
        .find_map(|e| match e {
            HandEvent::HandVoided { reason } => Some(reason.as_str()),
            _ => None,
        })
        .unwrap_or("no reason recorded")
}
