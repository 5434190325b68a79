//! The dice games (poker dice, 10,000): the CLI, the JSON API and the
//! keeper's pages.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_dice_games;
mod http_dice_games;
mod http_dice_keeper;
mod http_field_errors;
