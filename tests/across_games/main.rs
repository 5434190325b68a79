//! What every game's engine shares: the same cards or dice in any order
//! give the same result, and player names are free text (in the core and
//! on every start form); `pitbook drill` across the games (`cli_drill`).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod cli_drill;
mod drill_record;
mod free_text_names;
mod http_free_text_names;
mod permutation_props;
