//! Double Hand Poker: its rule options, outcomes, the ACTION-seat dice, setting
//! a hand and the house way, the tools, the table and the PD rotation (its
//! proposal and the `california-2026` clock), the
//! bank settlement (`settle`) and a hand as a stream of events (`hand_record`).

pub mod action_dice;
mod cards_text;
pub mod coverage;
pub mod ev;
pub mod event_words;
pub mod hand_history;
pub mod hand_record;
pub mod hand_words;
pub mod house_way;
pub mod options;
pub mod outcome;
pub mod rotation;
pub mod rotation_clock;
pub mod setting;
pub mod settle;
pub mod table;
pub mod tools;
pub mod wager_lines;
pub mod wagers_again;

#[cfg(test)]
pub mod test_options;
