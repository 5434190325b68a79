//! A hand as a stream of events, and its state as their fold. Pure: the
//! store persists the events and replays them; the verifier replays them
//! again and must get the settlement that was recorded.

mod duplicate;
mod events;
mod pd;
mod posted;
mod recorded;
mod state;

pub use duplicate::duplicate_wager;
pub use events::{GAME_DOUBLE_HAND_POKER, HandEvent};
pub use pd::{Declined, PdOption, check_declined};
pub use posted::{PostedRules, open_request, opened_at};
pub use recorded::RecordedSettlement;
pub use state::{
    EVENTS_PER_HAND_MAX, HandState, NOTE_CHARS_MAX, Origin, PdChoice, Phase, REASON_CHARS_MAX,
};

use crate::common::field_error::{AsFieldError, FieldError};
use crate::double_hand_poker::settle::SettleError;

/// Why an event cannot be applied to a hand. All are the input's fault
/// (HTTP 409/422) except `Internal` and `SettlementMismatch`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HandError {
    #[error("event: the first event of a hand must be hand_opened")]
    NotOpened,
    #[error("event: hand_opened: the hand is already open")]
    AlreadyOpened,
    #[error("event: {event} is not allowed while the hand is {phase}: {why}")]
    WrongPhase {
        event: &'static str,
        phase: &'static str,
        why: String,
    },
    #[error("event.id: no wager \"{0}\" in this hand")]
    UnknownWager(String),
    #[error("event.seat: seat {0} has no wagers")]
    NoWagersOnSeat(String),
    /// A correction names a seat's outcome or its hand: exactly one.
    #[error("event: a correction gives the seat's outcome or its hand, exactly one of them")]
    MixedResults,
    #[error("event.wagers: \"{id}\" is not the next step in action order (next: \"{expected}\")")]
    StepOrder { id: String, expected: String },
    #[error("hand_closed: the settlement steps of {0:?} are not confirmed yet")]
    StepsNotConfirmed(Vec<String>),
    #[error("event.{field}: \"{shown}\" {why}", shown = crate::common::text::escaped(value))]
    Refused {
        field: String,
        value: String,
        why: String,
    },
    #[error("{field}: {message}")]
    Cards { field: String, message: String },
    #[error("event: a hand has at most {0} events")]
    TooManyEvents(u64),
    #[error(transparent)]
    Rules(#[from] SettleError),
    /// The settlement recorded with an event differs from the recomputed one.
    #[error("the recorded settlement differs from the settlement recomputed from the events")]
    SettlementMismatch,
    #[error("internal error: {0}")]
    Internal(String),
    /// An error of the command's event at `index` (named `events[index]`).
    #[error("{}", at_event(*index, error))]
    At { index: usize, error: Box<HandError> },
}

/// `event.amount: …` of the command's event 2 reads `events[2].amount: …`.
fn at_event(index: usize, error: &HandError) -> String {
    let text = error.to_string();
    match text.strip_prefix("event") {
        Some(rest) if rest.starts_with(['.', ':']) => format!("events[{index}]{rest}"),
        _ => text,
    }
}

impl From<crate::common::text::TextError> for HandError {
    fn from(e: crate::common::text::TextError) -> Self {
        HandError::Refused {
            field: e.field,
            value: e.value,
            why: e.message,
        }
    }
}

/// The field of an event's error as the command names it: `event` and
/// `event.amount` of the command's event 2 are `events[2]` and
/// `events[2].amount` (as [`at_event`] words the text).
fn at_event_field(index: usize, field: &str) -> Option<String> {
    match field.strip_prefix("event") {
        Some(rest) if rest.is_empty() || rest.starts_with('.') => {
            Some(format!("events[{index}]{rest}"))
        }
        _ => None,
    }
}

impl AsFieldError for HandError {
    fn field_error(&self) -> Option<FieldError> {
        let worded = |field: &str| FieldError::worded(field, self);
        let fe = match self {
            HandError::NotOpened
            | HandError::AlreadyOpened
            | HandError::WrongPhase { .. }
            | HandError::MixedResults
            | HandError::TooManyEvents(_) => worded("event"),
            HandError::UnknownWager(id) => worded("event.id").with_value(id.as_str()),
            HandError::NoWagersOnSeat(seat) => worded("event.seat").with_value(seat.as_str()),
            HandError::StepOrder { id, .. } => worded("event.wagers").with_value(id.as_str()),
            HandError::StepsNotConfirmed(_) => worded("hand_closed"),
            HandError::Refused { field, value, .. } => {
                worded(&format!("event.{field}")).with_value(value.as_str())
            }
            HandError::Cards { field, message } => {
                FieldError::new(field.as_str(), message.as_str())
            }
            HandError::Rules(e) => return e.field_error(),
            HandError::At { index, error } => {
                let fe = error.field_error()?;
                return Some(match at_event_field(*index, fe.field()) {
                    Some(field) => fe.with_field(field),
                    None => fe,
                });
            }
            // Names no field: the settlement the event carries as a whole.
            HandError::SettlementMismatch | HandError::Internal(_) => return None,
        };
        Some(fe)
    }
}

impl HandError {
    /// True when the command is at fault (nothing is written).
    pub fn is_bad_input(&self) -> bool {
        match self {
            HandError::At { error, .. } => error.is_bad_input(),
            HandError::Rules(e) => e.is_bad_input(),
            HandError::Internal(_) => false,
            _ => true,
        }
    }

    /// True for a command that is well-formed but does not fit the hand's
    /// current state (HTTP 409 rather than 422).
    pub fn is_state_conflict(&self) -> bool {
        if let HandError::At { error, .. } = self {
            return error.is_state_conflict();
        }
        matches!(
            self,
            HandError::WrongPhase { .. }
                | HandError::AlreadyOpened
                | HandError::StepsNotConfirmed(_)
        )
    }
}

#[cfg(test)]
mod tests;

#[cfg(test)]
mod posted_tests;

#[cfg(test)]
mod mixed_tests;

#[cfg(test)]
mod note_tests;

#[cfg(test)]
mod tppp_tests;

#[cfg(test)]
mod recorded_tests;

#[cfg(test)]
mod field_tests;
