//! The one error type of the settlement layer.

use crate::common::field_error::{AsFieldError, FieldError};
use crate::common::money::{Money, MoneyError};

/// Everything that can stop a settlement. Every bad-input variant's message
/// starts with the input field it is about (a path such as `wagers[2].amount`)
/// and quotes the offending value; [`SettleError::is_bad_input`] tells them
/// apart from [`SettleError::Conservation`], which is a bug in this crate.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SettleError {
    /// Not JSON, or JSON that does not fit the contract: a syntax error, an
    /// unknown or missing field, a wrong type (money given as a JSON number).
    #[error("{path}: {message}")]
    Json { path: String, message: String },

    /// The input text is longer than [`super::limits::INPUT_BYTES_MAX`].
    #[error("input: {len} bytes is more than the limit of {max} bytes")]
    InputTooLong { len: usize, max: usize },

    /// A count or length above its limit (see [`super::limits`]).
    #[error("{field}: {value} is more than the limit of {limit}")]
    Limit {
        field: String,
        value: String,
        limit: String,
    },

    /// A money amount that is not positive, negative, or finer than the unit.
    #[error(transparent)]
    Money(#[from] MoneyError),

    /// A value the rules do not allow; `message` says why and quotes it.
    #[error("{field}: {message}")]
    Invalid { field: String, message: String },

    #[error("wagers[{index}].id: \"{id}\" is already the id of wagers[{first}]")]
    DuplicateWagerId {
        index: usize,
        first: usize,
        id: String,
    },

    #[error("wagers[{index}].seat: {seat} is the PD's seat; the bank cannot be bet against itself")]
    WagerOnPdSeat { index: usize, seat: u8 },

    #[error("{field}: {seat} is not a seat at this {seats}-seat table (1..{seats})")]
    SeatOutsideTable { field: String, seat: i64, seats: u8 },

    #[error(
        "wagers[{index}]: backline wager \"{id}\" is on seat {seat}, which has no primary wager and so no hand"
    )]
    BacklineWithoutPrimary { index: usize, id: String, seat: u8 },

    #[error(
        "wagers[{index}]: seat {seat} already has the primary wager \"{first_id}\"; mark other bets on that seat \"backline\": true"
    )]
    SecondPrimary {
        index: usize,
        seat: u8,
        first_id: String,
    },

    #[error(
        "outcomes: seat {seat} has wagers but no outcome (give \"{seat}\": \"player\", \"pd\" or \"push\")"
    )]
    MissingOutcome { seat: u8 },

    #[error("hands: seat {seat} has no hand ({why})")]
    MissingHand { seat: u8, why: &'static str },

    #[error("{field}: {message}")]
    Cards { field: String, message: String },

    #[error("{field}: {value} is not a die value (1..6)")]
    Die { field: String, value: i64 },

    #[error("{field}: \"{value}\" is not a payout ratio: {reason}")]
    BadPayout {
        field: String,
        value: String,
        reason: &'static str,
    },

    #[error("outcomes, hands: give exactly one of them, not both")]
    BothOutcomesAndHands,

    #[error(
        "outcomes, hands: give one of them (the outcome of each seat with wagers, or the hands)"
    )]
    NeitherOutcomesNorHands,

    /// Internal: a conservation or range invariant failed. This is a bug in
    /// the engine, never the input's fault; nothing may be recorded or paid.
    #[error(
        "internal error: settlement invariant \"{check}\" failed ({left} vs {right}); nothing was settled"
    )]
    Conservation {
        check: &'static str,
        left: Money,
        right: Money,
    },

    /// Internal: anything else that cannot happen (e.g. serialization).
    #[error("internal error: {0}")]
    Internal(String),
}

impl AsFieldError for SettleError {
    fn field_error(&self) -> Option<FieldError> {
        let worded = |field: String| FieldError::worded(field, self);
        let fe = match self {
            SettleError::Json { path, message } => FieldError::new(path.as_str(), message.as_str()),
            SettleError::Invalid { field, message } | SettleError::Cards { field, message } => {
                FieldError::new(field.as_str(), message.as_str())
            }
            SettleError::Money(e) => return e.field_error(),
            SettleError::InputTooLong { len, .. } => {
                worded("input".into()).with_value(len.to_string())
            }
            SettleError::Limit { field, value, .. } => {
                worded(field.clone()).with_value(value.as_str())
            }
            SettleError::DuplicateWagerId { index, id, .. } => {
                worded(format!("wagers[{index}].id")).with_value(id.as_str())
            }
            SettleError::WagerOnPdSeat { index, seat } => {
                worded(format!("wagers[{index}].seat")).with_value(seat.to_string())
            }
            SettleError::SeatOutsideTable { field, seat, .. } => {
                worded(field.clone()).with_value(seat.to_string())
            }
            SettleError::BacklineWithoutPrimary { index, .. }
            | SettleError::SecondPrimary { index, .. } => worded(format!("wagers[{index}]")),
            SettleError::MissingOutcome { .. } => worded("outcomes".into()),
            SettleError::MissingHand { .. } => worded("hands".into()),
            SettleError::Die { field, value } => {
                worded(field.clone()).with_value(value.to_string())
            }
            SettleError::BadPayout { field, value, .. } => {
                worded(field.clone()).with_value(value.as_str())
            }
            SettleError::BothOutcomesAndHands | SettleError::NeitherOutcomesNorHands => {
                worded("outcomes, hands".into())
            }
            SettleError::Conservation { .. } | SettleError::Internal(_) => return None,
        };
        Some(fe)
    }
}

impl SettleError {
    /// True when the input is at fault (CLI exit 2, HTTP 422); false for an
    /// internal invariant failure (a bug: HTTP 500).
    pub fn is_bad_input(&self) -> bool {
        !matches!(
            self,
            SettleError::Conservation { .. } | SettleError::Internal(_)
        )
    }

    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> SettleError {
        SettleError::Invalid {
            field: field.into(),
            message: message.into(),
        }
    }

    pub fn limit(
        field: impl Into<String>,
        value: impl ToString,
        limit: impl ToString,
    ) -> SettleError {
        SettleError::Limit {
            field: field.into(),
            value: value.to_string(),
            limit: limit.to_string(),
        }
    }
}
