//! Shared by `cli_settle` and `http_settle`: the examples of
//! docs/settle.md and every kind of bad input it refuses, so the CLI and
//! the HTTP API are tested on exactly the same texts.
#![allow(dead_code)]

use crate::common::docs::json_block_in;
use serde_json::{Value, json};

/// The body of the ```json block after `<!-- example:{name} {part} -->` in
/// docs/settle.md (`name`: `seed` or `hands`; `part`: `input` or `output`).
pub fn doc_block(name: &str, part: &str) -> String {
    json_block_in("settle.md", &format!("<!-- example:{name} {part} -->"))
}

/// The seed's $200 example: input text as in the docs.
pub fn seed_input() -> String {
    doc_block("seed", "input")
}

/// The seed's $200 example: the settlement as the docs show it (indented,
/// ending in a newline, i.e. what `pitbook settle --pretty` prints).
pub fn seed_output_pretty() -> String {
    doc_block("seed", "output")
}

/// JSON text without the whitespace between tokens (strings untouched):
/// the docs' indented output as the one line the API and CLI print.
pub fn compact(json_text: &str) -> String {
    let mut out = String::with_capacity(json_text.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json_text.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if c == '"' {
            in_string = true;
            out.push(c);
        } else if !c.is_whitespace() {
            out.push(c);
        }
    }
    out
}

/// The seed example's input as a JSON value, to derive bad inputs from.
pub fn seed() -> Value {
    serde_json::from_str(&seed_input()).expect("seed input is JSON")
}

/// The seed example given as hands instead of outcomes (same seats).
fn seed_with_hands(hands: Value) -> Value {
    let mut v = seed();
    v.as_object_mut().unwrap().remove("outcomes");
    v["hands"] = hands;
    v
}

fn with(edit: impl FnOnce(&mut Value)) -> String {
    let mut v = seed();
    edit(&mut v);
    v.to_string()
}

/// A bad input: what it is, the text, and a part of the one-line error that
/// names the field and the value.
pub struct BadCase {
    pub what: &'static str,
    pub input: String,
    pub needle: &'static str,
}

fn case(what: &'static str, input: String, needle: &'static str) -> BadCase {
    BadCase {
        what,
        input,
        needle,
    }
}

/// Every kind of bad input docs/settle.md refuses, a few cases of each.
pub fn bad_cases() -> Vec<BadCase> {
    vec![
        // Malformed JSON.
        case(
            "truncated JSON",
            r#"{"pd": {"seat": 1"#.into(),
            "EOF while parsing an object at line 1 column 17",
        ),
        case(
            "not JSON at all",
            "not json".into(),
            "input: expected ident at line 1 column 2",
        ),
        case(
            "empty input",
            String::new(),
            "input: EOF while parsing a value",
        ),
        case(
            "trailing characters",
            format!("{} x", seed()),
            "input: trailing characters",
        ),
        // Unknown fields.
        case(
            "unknown top-level field",
            with(|v| v["colour"] = json!("red")),
            "colour: unknown field `colour`",
        ),
        case(
            "unknown wager field",
            with(|v| v["wagers"][2]["tip"] = json!("5")),
            "wagers[2].tip: unknown field `tip`",
        ),
        case(
            "unknown pd field",
            with(|v| v["pd"]["chips"] = json!("5")),
            "pd.chips: unknown field `chips`",
        ),
        // Missing bank.
        case(
            "missing bank",
            with(|v| {
                v["pd"].as_object_mut().unwrap().remove("bank");
            }),
            "pd: missing field `bank`",
        ),
        // Amounts ≤ 0 or with too many decimals.
        case(
            "zero amount",
            with(|v| v["wagers"][1]["amount"] = json!("0")),
            "wagers[1].amount: 0.00 must be greater than 0",
        ),
        case(
            "negative amount",
            with(|v| v["wagers"][0]["amount"] = json!("-5")),
            "wagers[0].amount: -5.00 must be greater than 0",
        ),
        case(
            "zero bank",
            with(|v| v["pd"]["bank"] = json!("0")),
            "pd.bank: 0.00 must be greater than 0",
        ),
        case(
            "amount with too many decimals",
            with(|v| v["wagers"][3]["amount"] = json!("40.005")),
            "wagers[3].amount: 40.005 is finer than the table's smallest unit 0.01",
        ),
        case(
            "bank with too many decimals",
            with(|v| v["pd"]["bank"] = json!("200.001")),
            "pd.bank: 200.001 is finer than the table's smallest unit 0.01",
        ),
        // Duplicate wager ids.
        case(
            "duplicate wager id",
            with(|v| v["wagers"][2]["id"] = json!("w1")),
            "wagers[2].id: \"w1\" is already the id of wagers[0]",
        ),
        // A wager on the PD seat.
        case(
            "wager on the PD seat",
            with(|v| v["wagers"][1]["seat"] = json!(1)),
            "wagers[1].seat: 1 is the PD's seat",
        ),
        // A seat outside the table.
        case(
            "wager seat outside the table",
            with(|v| v["wagers"][0]["seat"] = json!(8)),
            "wagers[0].seat: 8 is not a seat at this 7-seat table (1..7)",
        ),
        case(
            "PD seat outside the table",
            with(|v| v["pd"]["seat"] = json!(0)),
            "pd.seat: 0 is not a seat at this 7-seat table (1..7)",
        ),
        case(
            "ACTION seat outside a smaller table",
            with(|v| {
                v["seats"] = json!(3);
                v["wagers"] = json!([{"id": "w1", "seat": 2, "bettor": "Ann", "amount": "60"}]);
                v["outcomes"] = json!({"2": "pd"});
            }),
            "action.seat: 4 is not a seat at this 3-seat table (1..3)",
        ),
        // A backline wager on a seat with no hand.
        case(
            "backline wager on a seat without a primary wager",
            with(|v| {
                v["wagers"].as_array_mut().unwrap().push(
                    json!({"id": "w5", "seat": 3, "bettor": "Eve", "amount": "10", "backline": true}),
                );
            }),
            "wagers[4]: backline wager \"w5\" is on seat 3, which has no primary wager and so no hand",
        ),
        case(
            "seat with wagers missing from the hands",
            seed_with_hands(json!({
                "1": {"high": "As Ks Qd Jc 9h", "low": "8s 8d"},
                "4": {"cards": "2c 3c 4c 5c 6c Kd Kh", "set": "house"}
            }))
            .to_string(),
            "hands: seat 5 has no hand (the seat has wagers)",
        ),
        // An outcome missing for a seat with wagers.
        case(
            "outcome missing for a seat with wagers",
            with(|v| {
                v["outcomes"].as_object_mut().unwrap().remove("6");
            }),
            "outcomes: seat 6 has wagers but no outcome",
        ),
        // Hands with duplicate cards across seats.
        case(
            "the same card in two seats' hands",
            seed_with_hands(json!({
                "1": {"high": "As Ks Qd Jc 9h", "low": "8s 8d"},
                "4": {"cards": "As 3c 4c 5c 6c Kd Kh", "set": "house"},
                "5": {"high": "2h 3h 4h 5h 7d", "low": "Tc Td"},
                "6": {"high": "2s 3s 4s 5s 7c", "low": "Jh Js"},
                "7": {"high": "2d 3d 4d 5d 7h", "low": "Qc Qh"}
            }))
            .to_string(),
            "hands: card \"As\" is in the hands of both seat 1 and seat 4",
        ),
        // Dice outside 1..6.
        case(
            "a die of 7",
            with(|v| v["action"] = json!({"dice": [4, 7, 3]})),
            "action.dice[1]: 7 is not a die value (1..6)",
        ),
        case(
            "a die of 0",
            with(|v| v["action"] = json!({"dice": [0, 5, 3]})),
            "action.dice[0]: 0 is not a die value (1..6)",
        ),
        // Money given as a JSON number.
        case(
            "bank as a JSON integer",
            with(|v| v["pd"]["bank"] = json!(200)),
            "pd.bank: invalid type: integer `200`, expected money as a decimal string",
        ),
        case(
            "amount as a JSON float",
            with(|v| v["wagers"][0]["amount"] = json!(60.5)),
            "wagers[0].amount: invalid type: floating point `60.5`",
        ),
    ]
}
