//! What every game's engine shares: the same cards or dice in any order
//! give the same result, and player names are free text.

mod free_text_names;
mod permutation_props;
