//! Bet-in-action settlement of a Double Hand Poker hand against the
//! Player-Dealer's bank (rules: `lucky-chances-action.md`).
//!
//! One path for every caller (CLI, HTTP, tests):
//! [`parse_scenario`] (JSON text → validated [`Scenario`]) then [`settle`]
//! ([`Scenario`] → [`Settlement`], serializable to the JSON contract), or
//! [`settle_json`] for both plus serialization. Pure: no IO, no clock.
//!
//! - `input`: the raw JSON contract (serde types, unknown fields refused);
//! - `scenario`: validation into a [`Scenario`];
//! - `hands`: hands → outcomes via the hand-rules engine;
//! - `collection`: collection schedules;
//! - `engine`: the settlement itself;
//! - `output`: the [`Settlement`] returned.

mod collection;
mod engine;
mod error;
mod hands;
mod input;
mod moves;
mod output;
mod ratio;
mod scenario;

pub use collection::{Bracket, Schedule};
pub use engine::settle;
pub use error::SettleError;
pub use hands::{SeatHand, SeatHands};
pub use input::{
    ActionInput, BracketInput, CollectionInput, HandInput, PdInput, ScenarioInput, SeatMap, SetBy,
    WagerInput,
};
pub use moves::{Move, Verb};
pub use output::{Conservation, Settlement, Step, Total, Totals};
pub use ratio::Ratio;
pub use scenario::{Action, Collection, DEFAULT_SEATS, PD_KEY, Pd, Scenario, TableRules, Wager};

/// docs/settle.md's seed example: Dana banks $200; Ann 60 loses, Bo 60
/// wins, Cy 100 loses, Di 40 wins; ACTION seat 4. The API document's
/// example, and a test's first case.
pub const SEED_EXAMPLE: &str = r#"{
    "pd": {"seat": 1, "player": "Dana", "bank": "200"},
    "action": {"seat": 4},
    "wagers": [
        {"id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
        {"id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"},
        {"id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"},
        {"id": "w4", "seat": 7, "bettor": "Di", "amount": "40"}
    ],
    "outcomes": {"4": "pd", "5": "player", "6": "pd", "7": "player"}
}"#;

/// Limits on every input, so no input can exhaust memory or overflow the
/// decimal arithmetic. Each one is tested.
pub mod limits {
    use crate::common::money::Money;

    /// Longest scenario JSON text accepted, in bytes.
    pub const INPUT_BYTES_MAX: usize = 256 * 1024;
    /// Most wagers in one hand.
    pub const WAGERS_MAX: usize = 200;
    /// Longest name or wager id, in characters.
    pub const NAME_CHARS_MAX: usize = 64;
    /// Largest term of a payout ratio p:q.
    pub const PAYOUT_TERM_MAX: u32 = 100;
    /// Most brackets in one collection schedule.
    pub const BRACKETS_MAX: usize = 50;
    /// Longest card text of one hand field, in characters.
    pub const CARD_TEXT_CHARS_MAX: usize = 64;
    /// Largest amount of money anywhere in the input, in whole units of
    /// currency (one billion).
    pub const AMOUNT_MAX_UNITS: i64 = 1_000_000_000;

    /// [`AMOUNT_MAX_UNITS`] as money.
    pub fn amount_max() -> Money {
        Money::from_units(AMOUNT_MAX_UNITS)
    }
    /// Finest supported `min_unit`; `min_unit` must be a multiple of it.
    pub const UNIT_MIN: &str = "0.0001";
}

/// Parses and validates scenario JSON. Serde errors name the field path
/// (`wagers[1].amount: invalid type: integer ...`).
pub fn parse_scenario(json: &str) -> Result<Scenario, SettleError> {
    Scenario::from_input(&parse_input(json)?)
}

/// Parses scenario JSON into the raw contract types, without rule checks.
pub fn parse_input(json: &str) -> Result<ScenarioInput, SettleError> {
    if json.len() > limits::INPUT_BYTES_MAX {
        return Err(SettleError::InputTooLong {
            len: json.len(),
            max: limits::INPUT_BYTES_MAX,
        });
    }
    let mut de = serde_json::Deserializer::from_str(json);
    let input: ScenarioInput = serde_path_to_error::deserialize(&mut de).map_err(json_error)?;
    // Trailing characters after the object are an error too.
    de.end().map_err(|e| SettleError::Json {
        path: "input".into(),
        message: e.to_string(),
    })?;
    // serde also accepts a struct written as an array of its fields in order;
    // the contract has objects only.
    let value: serde_json::Value = serde_json::from_str(json).map_err(|e| SettleError::Json {
        path: "input".into(),
        message: e.to_string(),
    })?;
    objects_only(&value)?;
    Ok(input)
}

fn json_error(e: serde_path_to_error::Error<serde_json::Error>) -> SettleError {
    let path = e.path().to_string();
    let path = if path == "." || path == "?" {
        "input".to_owned()
    } else {
        path
    };
    SettleError::Json {
        path,
        message: e.into_inner().to_string(),
    }
}

/// Refuses an array where the contract has an object (root, `pd`,
/// `action`, `options`, each wager, each hand, `collection`, each bracket).
fn objects_only(root: &serde_json::Value) -> Result<(), SettleError> {
    use serde_json::Value;
    fn object(path: &str, v: &Value) -> Result<(), SettleError> {
        match v {
            Value::Array(_) => Err(SettleError::Json {
                path: path.into(),
                message: "expected an object {...}, found an array".into(),
            }),
            _ => Ok(()),
        }
    }
    fn each(path: &str, v: Option<&Value>) -> Result<(), SettleError> {
        if let Some(Value::Array(items)) = v {
            for (i, item) in items.iter().enumerate() {
                object(&format!("{path}[{i}]"), item)?;
            }
        }
        Ok(())
    }
    object("input", root)?;
    for key in ["pd", "action", "options", "collection"] {
        if let Some(v) = root.get(key) {
            object(key, v)?;
        }
    }
    each("wagers", root.get("wagers"))?;
    if let Some(Value::Object(hands)) = root.get("hands") {
        for (seat, hand) in hands {
            object(&format!("hands.{seat}"), hand)?;
        }
    }
    if let Some(c) = root.get("collection") {
        each("collection.player", c.get("player"))?;
        each("collection.bank", c.get("bank"))?;
    }
    Ok(())
}

/// JSON in, settlement JSON out: `parse_scenario`, `settle`, serialize.
pub fn settle_json(json: &str) -> Result<String, SettleError> {
    let scenario = parse_scenario(json)?;
    let settlement = settle(&scenario)?;
    to_json(&settlement)
}

/// Serializes a settlement as indented JSON (fields in contract order).
pub fn to_json_pretty(settlement: &Settlement<'_>) -> Result<String, SettleError> {
    serde_json::to_string_pretty(settlement).map_err(|e| SettleError::Internal(e.to_string()))
}

/// Serializes a settlement as compact JSON.
pub fn to_json(settlement: &Settlement<'_>) -> Result<String, SettleError> {
    // Serializing plain structs, strings and maps with string keys to a
    // String cannot fail; map the impossible error rather than panic.
    serde_json::to_string(settlement).map_err(|e| SettleError::Internal(e.to_string()))
}
