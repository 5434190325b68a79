//! One line of the result: what moved, from whom to whom, and a sentence the
//! dealer can read aloud.

use serde::Serialize;

use super::board::Section;

/// What a step is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyStepKind)]
#[serde(rename_all = "snake_case")]
pub enum StepKind {
    /// A player who cannot ante sits the round out (no chips move).
    SitsOut,
    /// A player's ante: `ante` chips on each of the nine sections.
    Ante,
    /// The dealer takes the unseen spare; the old hand is the new spare.
    SpareSwap,
    /// The buyer pays the price to the dealer and takes the spare.
    SpareAuction,
    /// A money card's holder takes its section (Ace … Ten, King-Queen).
    MoneyCard,
    /// A holder of 8-9-10 in one suit takes the section or a share of it.
    EightNineTen,
    /// Nobody wins the section this round: its chips stay.
    CarryOver,
    /// A player's poker bets go onto the Pot section.
    Bet,
    /// The Pot section (a pot or side pot of it) paid to a winner.
    Pot,
    /// The first player out in the Michigan play takes the Kitty section.
    Kitty,
    /// A player pays the Michigan winner one chip per card left.
    CardPayment,
    /// Michigan blocked: a player puts one chip per card left on the Kitty.
    BlockedPayment,
    /// End of the game: a section's chips move to the Pot section.
    ToPot,
    /// End of the game: the best last hand takes the Pot section (or a share).
    FinalPot,
}

impl StepKind {
    pub fn key(self) -> &'static str {
        match self {
            StepKind::SitsOut => "sits_out",
            StepKind::Ante => "ante",
            StepKind::SpareSwap => "spare_swap",
            StepKind::SpareAuction => "spare_auction",
            StepKind::MoneyCard => "money_card",
            StepKind::EightNineTen => "eight_nine_ten",
            StepKind::CarryOver => "carry_over",
            StepKind::Bet => "bet",
            StepKind::Pot => "pot",
            StepKind::Kitty => "kitty",
            StepKind::CardPayment => "card_payment",
            StepKind::BlockedPayment => "blocked_payment",
            StepKind::ToPot => "to_pot",
            StepKind::FinalPot => "final_pot",
        }
    }
}

/// A step of the round. `from`/`to` are a player's name, `"board"` (the
/// section named in `section`) or `"spare"`; `remainder` is the chips of
/// this payout that stay on the section (a split's odd chips, a carry-over),
/// 0 otherwise; `pot` numbers the pots of a showdown (0 the main pot, then
/// side pots); `shortfall` is what a player owed but could not pay.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyStep)]
pub struct Step {
    pub kind: StepKind,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub section: Option<Section>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub from: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    pub chips: u64,
    pub remainder: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pot: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shortfall: Option<u64>,
    pub explanation: String,
}
