//! Tripoley: docs/tripoley.md's examples, the CLI, the JSON API, and the
//! games kept at the table (pages and round steps).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_tripoley;
mod http_board;
mod http_field_errors;
mod http_spare_and_balances;
mod http_tripoley;
mod http_tripoley_games;
mod http_tripoley_steps;
mod tripoley_docs;
