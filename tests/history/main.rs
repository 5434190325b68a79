//! Reviewing hand histories: hand numbers, the search (`/history`,
//! `GET /api/v1/hands`), a player's history, and `audit verify`'s check
//! of the search's projection.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod http_numbers;

mod http_search;

mod http_notes;

mod http_replay;

mod http_record_words;
