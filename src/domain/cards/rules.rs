//! The rules the card kernel reads: what the joker is and where the wheel
//! ranks. A game's options carry them (Double Hand Poker's `joker` and
//! `wheel` options are these types) and hand them over as [`CardRules`].

use serde::{Deserialize, Serialize};

/// What the joker is (option `joker`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum JokerRule {
    /// An ace, or any card completing a straight/flush/straight flush.
    Bug,
    /// Any card.
    Wild,
    /// The deck has no joker: a joker in the input is an error.
    None,
}

/// Where A-2-3-4-5 ranks (option `wheel`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum WheelRule {
    Lowest,
    SecondHighest,
}

/// The card rules a deal is checked and a hand evaluated under. Every kernel
/// function takes `impl Into<CardRules>`, so a game passes its own options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CardRules {
    pub joker: JokerRule,
    pub wheel: WheelRule,
}

impl From<&CardRules> for CardRules {
    fn from(rules: &CardRules) -> CardRules {
        *rules
    }
}
