//! Double Hand Poker's storage: card tables and dealer assignments, the
//! house ways supervisors loaded, a hand command (`hands/`), and the
//! group-commit writer that runs the commands.

mod hand_list;
pub mod hands;
pub mod house_ways;
pub mod idempotency;
pub mod tables;
pub mod writer;
