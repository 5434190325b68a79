//! The functional core: rules, money, cards, settlement and scoring.
//! Pure code: no IO, no clock, no randomness, no sqlx, no axum. Every result
//! is a function of its input, so it can be replayed and verified forever.

pub mod audit;
pub mod cards;
pub mod csv_cell;
pub mod dice;
pub mod eval;
pub mod hand;
pub mod hand_record;
pub mod hand_tools;
pub mod house_way;
pub mod login_throttle;
pub mod money;
pub mod options;
pub mod outcome;
pub mod poker_dice;
pub mod rotation;
pub mod settle;
pub mod staff;
pub mod table;
pub mod ten_thousand;
pub mod text;
pub mod tripoley;
