//! The functional core: rules, money, cards, settlement and scoring.
//! Pure code: no IO, no clock, no randomness, no sqlx, no axum. Every result
//! is a function of its input, so it can be replayed and verified forever.
//!
//! One folder per game (`double_hand_poker`, `tripoley`, `poker_dice`,
//! `ten_thousand`); `cards` is the card kernel Double Hand Poker and Tripoley
//! share; `common` and `staff` are what every game and the shell share.

pub mod cards;
pub mod common;
pub mod double_hand_poker;
pub mod history;
pub mod history_export;
pub mod poker_dice;
pub mod shifts;
pub mod staff;
pub mod ten_thousand;
pub mod training;
pub mod tripoley;
