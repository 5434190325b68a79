//! Double Hand Poker's storage: card tables and dealer assignments, a hand
//! command (`hands/`), and the group-commit writer that runs the commands.

pub mod hands;
pub mod tables;
pub mod writer;
