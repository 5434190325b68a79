//! Double-hand poker: the settlement engine (rules, errors, hands, properties,
//! docs/settle.md's examples), the hand tools (docs/hands.md's examples, the
//! CLI, the API), hands at tables in the store and over HTTP (the JSON API,
//! table rules, the guided hand's pages, the PD rotation) and `pitbook settle`.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod batch_writes;
mod cli_hands;
mod cli_house_way_files;
mod cli_settle;
mod hand_store;
mod hands_docs;
mod http_by_touch;
mod http_field_errors;
mod http_hand_value;
mod http_hands;
mod http_hands_shown;
mod http_house_ways;
mod http_mistakes;
mod http_mixed_results;
mod http_pd_rotation;
mod http_play;
mod http_settle;
mod http_table_rules;
mod http_tables_form;
mod http_wager_lines;
mod http_wagers_again;
mod http_what_happened;
mod key_expiry;
mod settle_docs;
mod settle_errors;
mod settle_hands;
mod settle_props;
mod settle_rules;
mod shell_settle;
