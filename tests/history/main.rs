//! Reviewing hand histories: hand numbers, the search (`/history`,
//! `GET /api/v1/hands`), a player's history, `audit verify`'s check
//! of the search's projection, and the export with its offline check
//! (`pitbook history export|check`, `cli_export`; the routes, `http_export`),
//! notes on hands, the record in sentences and the replay; shifts, and a
//! room's shifts written by `pitbook bench shifts` (`cli_bench_shifts`).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_bench_shifts;
mod cli_export;
mod http_export;
mod http_floor;
mod http_notes;
mod http_numbers;
mod http_record_words;
mod http_replay;
mod http_rotation;
mod http_search;
mod http_shifts;
mod store_totals;
