//! Tripoley (../shared/rules/tripoley.md, profiles `cadaco` and `classic`):
//! the payouts of a round — antes, the spare hand, money cards, King-Queen,
//! the 8-9-10 split, the poker pot with side pots, the Michigan kitty and the
//! per-card payments, carry-overs — and the end-of-game last hand. Chips are
//! whole numbers moved through one ledger that asserts players + board stay
//! constant. The contract the CLI (`pitbook tripoley`) and the HTTP API
//! (`/api/v1/tripoley/…`) share is documented in docs/tripoley.md. Pure.

pub mod betting;
mod board;
mod deal;
mod error;
mod final_hand;
pub mod game;
mod input;
mod michigan;
pub mod michigan_play;
mod money_cards;
mod output;
mod poker;
mod round;
pub mod round_steps;
mod showdown;
mod spare;
mod step;
mod table;
mod table_now;

#[cfg(test)]
mod betting_tests;
#[cfg(test)]
mod errors_tests;
#[cfg(test)]
mod final_tests;
#[cfg(test)]
mod michigan_play_tests;
#[cfg(test)]
mod poker_tests;
#[cfg(test)]
mod props_tests;
#[cfg(test)]
mod round_steps_tests;
#[cfg(test)]
mod rules_tests;
#[cfg(test)]
mod test_deals;

pub use board::{Board, Section};
pub use error::TripoleyError;
pub use final_hand::play_final;
pub use input::{
    AuctionInput, BoardInput, CARD_PATTERN, CardsText, FinalInput, MichiganInput, NameMap,
    PokerInput, Profile, RoundInput, SpareInput,
};
pub use money_cards::eight_nine_ten_suits;
pub use output::{Named, Outcome, RoundOutput};
pub use poker::{PotLayer, pot_layers};
pub use round::{
    BeforeBetting, RoundBegun, before_betting, begin_round, play_round, through_poker,
};
pub use showdown::{PokerHand, best_five};
pub use spare::auction_of;
pub use step::{Step, StepKind};
pub use table::{ANTE_MAX, CHIP_VALUE_MAX, CHIPS_MAX, NAME_MAX, PLAYERS_MAX, PLAYERS_MIN};
pub use table_now::TableNow;

use serde::Serialize;
use serde::de::DeserializeOwned;

/// Largest JSON input accepted, in bytes (a round is about 2 KiB).
pub const INPUT_BYTES_MAX: usize = 64 * 1024;

/// Parses JSON input, naming the field path on an error (`body` for the whole).
pub fn parse<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, TripoleyError> {
    if bytes.len() > INPUT_BYTES_MAX {
        return Err(TripoleyError::input(
            "body",
            format!(
                "{} bytes is more than the limit of {INPUT_BYTES_MAX}",
                bytes.len()
            ),
        ));
    }
    crate::common::json::parse_with_path(bytes).map_err(|e| TripoleyError::input(e.path, e.message))
}

/// The result as JSON: one line (the API's body), or indented.
pub fn to_json(value: &impl Serialize, pretty: bool) -> Result<String, TripoleyError> {
    let text = if pretty {
        serde_json::to_string_pretty(value)
    } else {
        serde_json::to_string(value)
    };
    text.map_err(|e| TripoleyError::Internal(format!("cannot write JSON: {e}")))
}

/// `pitbook tripoley round`, `POST /api/v1/tripoley/round`: JSON in, JSON out.
pub fn round_json(input: &[u8], pretty: bool) -> Result<String, TripoleyError> {
    to_json(&play_round(&parse::<RoundInput>(input)?)?, pretty)
}

/// `pitbook tripoley final`, `POST /api/v1/tripoley/final`: JSON in, JSON out.
pub fn final_json(input: &[u8], pretty: bool) -> Result<String, TripoleyError> {
    to_json(&play_final(&parse::<FinalInput>(input)?)?, pretty)
}
