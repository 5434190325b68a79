//! What every game's engine shares: the same cards or dice in any order
//! give the same result, and player names are free text (in the core and
//! on every start form).

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod free_text_names;
mod http_free_text_names;
mod permutation_props;
