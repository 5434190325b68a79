//! Every bad input gives a clear error naming the field and the value, and
//! is reported as bad input (CLI exit 2, HTTP 422).

use pitbook::domain::double_hand_poker::settle::{SettleError, limits, settle_json};
use serde_json::{Value, json};

fn base() -> Value {
    json!({
        "pd": {"seat": 1, "player": "Dana", "bank": "200"},
        "action": {"seat": 4},
        "wagers": [
            {"id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
            {"id": "w2", "seat": 4, "bettor": "Bo", "amount": "25", "backline": true, "payout": "3:2"}
        ],
        "outcomes": {"4": "pd"},
    })
}

fn err_text(text: &str) -> SettleError {
    let e = settle_json(text).expect_err("expected an error");
    assert!(e.is_bad_input(), "{e}");
    e
}

fn err(input: &Value) -> String {
    err_text(&input.to_string()).to_string()
}

fn assert_starts(msg: &str, prefix: &str) {
    assert!(
        msg.starts_with(prefix),
        "{msg:?} should start with {prefix:?}"
    );
}

#[test]
fn the_base_scenario_is_valid() {
    settle_json(&base().to_string()).unwrap();
}

#[test]
fn malformed_json() {
    assert_starts(
        &err_text("{").to_string(),
        "input: EOF while parsing an object",
    );
    assert_starts(&err_text("").to_string(), "input: EOF while parsing");
    assert_starts(
        &err_text(&format!("{} x", base())).to_string(),
        "input: trailing characters",
    );
    assert_starts(&err_text("{\"pd\": {\"seat\": 1,}}").to_string(), "pd");
    assert!(matches!(err_text("nonsense"), SettleError::Json { .. }));
}

#[test]
fn arrays_in_place_of_objects() {
    let mut input = base();
    input["pd"] = json!([1, "Dana", "200"]);
    assert_starts(&err(&input), "pd: expected an object");
    let mut input = base();
    input["wagers"][1] = json!(["w2", 4, "Bo", "25", true, "3:2"]);
    assert_starts(&err(&input), "wagers[1]: expected an object");
    assert_starts(&err_text("[]").to_string(), "input:");
}

#[test]
fn unknown_fields_at_every_level() {
    let cases = [
        ("/extra", "extra: unknown field `extra`"),
        ("/pd/extra", "pd.extra: unknown field `extra`"),
        ("/action/extra", "action.extra: unknown field `extra`"),
        (
            "/wagers/0/colour",
            "wagers[0].colour: unknown field `colour`",
        ),
        ("/options/pushes", "options.pushes: unknown field `pushes`"),
    ];
    for (pointer, want) in cases {
        let mut input = base();
        let (parent, key) = pointer.rsplit_once('/').unwrap();
        if input.pointer(parent).is_none() {
            input[&parent[1..]] = json!({});
        }
        input.pointer_mut(parent).unwrap()[key] = json!(1);
        assert_starts(&err(&input), want);
    }
    let mut input = base();
    input["collection"] = json!({"player": [{"from": "0", "to": "10", "fee": "1", "cap": "2"}]});
    assert_starts(
        &err(&input),
        "collection.player[0].cap: unknown field `cap`",
    );
    input["collection"] = json!({"players": []});
    assert_starts(&err(&input), "collection.players: unknown field `players`");
    let mut input = base();
    input.as_object_mut().unwrap().remove("outcomes");
    input["hands"] = json!({"4": {"high": "As Ks Qs Js 9s", "low": "2c 3c", "colour": 1}});
    assert_starts(&err(&input), "hands.4.colour: unknown field `colour`");
}

#[test]
fn missing_fields() {
    let mut input = base();
    input["pd"].as_object_mut().unwrap().remove("bank");
    assert_starts(&err(&input), "pd: missing field `bank`");
    for key in ["pd", "action", "wagers"] {
        let mut input = base();
        input.as_object_mut().unwrap().remove(key);
        assert_starts(&err(&input), &format!("input: missing field `{key}`"));
    }
    let mut input = base();
    input["wagers"][0].as_object_mut().unwrap().remove("amount");
    assert_starts(&err(&input), "wagers[0]: missing field `amount`");
}

#[test]
fn money_as_a_json_number_is_refused() {
    let mut input = base();
    input["pd"]["bank"] = json!(200);
    assert_starts(
        &err(&input),
        "pd.bank: invalid type: integer `200`, expected money as a decimal string",
    );
    let mut input = base();
    input["wagers"][0]["amount"] = json!(60.5);
    assert_starts(
        &err(&input),
        "wagers[0].amount: invalid type: floating point `60.5`",
    );
    let mut input = base();
    input["collection"] = json!({"bank": [{"from": 0, "to": "10", "fee": "1"}]});
    assert_starts(
        &err(&input),
        "collection.bank[0].from: invalid type: integer `0`",
    );
}

#[test]
fn amounts_not_positive_or_badly_written() {
    let cases = [
        ("0", "wagers[0].amount: 0.00 must be greater than 0"),
        ("-5", "wagers[0].amount: -5.00 must be greater than 0"),
        ("1e3", "wagers[0].amount: \"1e3\" is not a decimal amount"),
        ("", "wagers[0].amount: \"\" is not a decimal amount"),
        ("ten", "wagers[0].amount: \"ten\" is not a decimal amount"),
    ];
    for (amount, want) in cases {
        let mut input = base();
        input["wagers"][0]["amount"] = json!(amount);
        assert_starts(&err(&input), want);
    }
    let mut input = base();
    input["pd"]["bank"] = json!("0");
    assert_starts(&err(&input), "pd.bank: 0.00 must be greater than 0");
}

#[test]
fn amounts_with_too_many_decimals() {
    let mut input = base();
    input["wagers"][1]["amount"] = json!("25.005");
    assert_eq!(
        err(&input),
        "wagers[1].amount: 25.005 is finer than the table's smallest unit 0.01"
    );
    let mut input = base();
    input["pd"]["bank"] = json!("200.001");
    assert_eq!(
        err(&input),
        "pd.bank: 200.001 is finer than the table's smallest unit 0.01"
    );
    let mut input = base();
    input["collection"] = json!({"player": [{"from": "0", "to": "100", "fee": "0.5"}]});
    input["options"] = json!({"min_unit": "1"});
    assert_eq!(
        err(&input),
        "collection.player[0].fee: 0.50 is finer than the table's smallest unit 1"
    );
}

#[test]
fn duplicate_wager_ids() {
    let mut input = base();
    input["wagers"][1]["id"] = json!("w1");
    assert_eq!(
        err(&input),
        "wagers[1].id: \"w1\" is already the id of wagers[0]"
    );
}

#[test]
fn a_wager_on_the_pd_seat() {
    let mut input = base();
    input["wagers"][1]["seat"] = json!(1);
    assert_eq!(
        err(&input),
        "wagers[1].seat: 1 is the PD's seat; the bank cannot be bet against itself"
    );
}

#[test]
fn seats_outside_the_table() {
    let mut input = base();
    input["wagers"][0]["seat"] = json!(8);
    assert_eq!(
        err(&input),
        "wagers[0].seat: 8 is not a seat at this 7-seat table (1..7)"
    );
    input["wagers"][0]["seat"] = json!(0);
    assert_eq!(
        err(&input),
        "wagers[0].seat: 0 is not a seat at this 7-seat table (1..7)"
    );
    let mut input = base();
    input["pd"]["seat"] = json!(9);
    assert_eq!(
        err(&input),
        "pd.seat: 9 is not a seat at this 7-seat table (1..7)"
    );
    let mut input = base();
    input["action"] = json!({"seat": -1});
    assert_eq!(
        err(&input),
        "action.seat: -1 is not a seat at this 7-seat table (1..7)"
    );
    let mut input = base();
    input["seats"] = json!(11);
    assert_eq!(err(&input), "seats: 11 is not a table size (2..10)");
    input["seats"] = json!(1);
    assert_eq!(err(&input), "seats: 1 is not a table size (2..10)");
    let mut input = base();
    input["seats"] = json!(3);
    assert_eq!(
        err(&input),
        "action.seat: 4 is not a seat at this 3-seat table (1..3)"
    );
    let mut input = base();
    input["outcomes"] = json!({"4": "pd", "12": "pd"});
    assert_eq!(
        err(&input),
        "outcomes.12: 12 is not a seat at this 7-seat table (1..7)"
    );
}

#[test]
fn a_backline_wager_on_a_seat_with_no_hand() {
    let mut input = base();
    input["wagers"][1]["seat"] = json!(5);
    assert_eq!(
        err(&input),
        "wagers[1]: backline wager \"w2\" is on seat 5, which has no primary wager and so no hand"
    );
}

#[test]
fn two_primary_wagers_on_one_seat() {
    let mut input = base();
    input["wagers"][1]["backline"] = json!(false);
    assert_eq!(
        err(&input),
        "wagers[1]: seat 4 already has the primary wager \"w1\"; mark other bets on that seat \"backline\": true"
    );
}

#[test]
fn an_outcome_missing_for_a_seat_with_wagers() {
    let mut input = base();
    input["wagers"][1] = json!({"id": "w2", "seat": 6, "bettor": "Bo", "amount": "25"});
    assert_eq!(
        err(&input),
        "outcomes: seat 6 has wagers but no outcome (give \"6\": \"player\", \"pd\" or \"push\")"
    );
}

#[test]
fn outcomes_that_do_not_fit_the_table() {
    let cases = [
        (
            json!({"4": "pd", "1": "pd"}),
            "outcomes.1: seat 1 is the PD's seat",
        ),
        (
            json!({"4": "pd", "5": "pd"}),
            "outcomes.5: seat 5 has no wagers",
        ),
        (
            json!({"04": "pd"}),
            "outcomes.04: \"04\" is not a seat number",
        ),
        (
            json!({"four": "pd"}),
            "outcomes.four: \"four\" is not a seat number",
        ),
        (
            json!({"4": "win"}),
            "outcomes.4: unknown variant `win`, expected one of `player`, `pd`, `push`",
        ),
        (json!({"4": 1}), "outcomes.4: "),
    ];
    for (outcomes, want) in cases {
        let mut input = base();
        input["outcomes"] = outcomes;
        assert_starts(&err(&input), want);
    }
    let text = base().to_string().replace(
        r#""outcomes":{"4":"pd"}"#,
        r#""outcomes":{"4":"pd","4":"push"}"#,
    );
    assert_starts(
        &err_text(&text).to_string(),
        "outcomes: seat \"4\" is given twice",
    );
}

#[test]
fn dice_outside_one_to_six() {
    for (dice, want) in [
        (
            json!([0, 1, 1]),
            "action.dice[0]: 0 is not a die value (1..6)",
        ),
        (
            json!([1, 7, 1]),
            "action.dice[1]: 7 is not a die value (1..6)",
        ),
        (
            json!([1, 1, -3]),
            "action.dice[2]: -3 is not a die value (1..6)",
        ),
        (json!([1, 2]), "action.dice: expected 3 dice, got 2"),
        (json!([1, 2, 3, 4]), "action.dice: expected 3 dice, got 4"),
    ] {
        let mut input = base();
        input["action"] = json!({"dice": dice});
        assert_eq!(err(&input), want);
    }
    let mut input = base();
    input["action"] = json!({"dice": [1, 2, 3], "seat": 4});
    assert_eq!(err(&input), "action: give \"dice\" or \"seat\", not both");
    input["action"] = json!({});
    assert_starts(&err(&input), "action: give \"dice\"");
    input["action"] = json!({"dice": ["1", 2, 3]});
    assert_starts(&err(&input), "action.dice[0]: invalid type: string \"1\"");
}

#[test]
fn both_or_neither_of_outcomes_and_hands() {
    let mut input = base();
    input["hands"] = json!({});
    assert_eq!(
        err(&input),
        "outcomes, hands: give exactly one of them, not both"
    );
    input.as_object_mut().unwrap().remove("hands");
    input.as_object_mut().unwrap().remove("outcomes");
    assert_starts(&err(&input), "outcomes, hands: give one of them");
}

#[test]
fn bad_payout_ratios() {
    for (payout, reason) in [
        ("0:1", "neither side may be 0"),
        ("3:0", "neither side may be 0"),
        ("x", "write it as \"p:q\""),
        ("3:2:1", "each side must be a whole number"),
        ("1:2", "payouts below even money"),
        ("101:1", "each side must be at most 100"),
    ] {
        let mut input = base();
        input["wagers"][1]["payout"] = json!(payout);
        assert_starts(
            &err(&input),
            &format!("wagers[1].payout: \"{payout}\" is not a payout ratio: {reason}"),
        );
    }
    let mut input = base();
    input["wagers"][1]["payout"] = json!(1.5);
    assert_starts(
        &err(&input),
        "wagers[1].payout: invalid type: floating point",
    );
}

#[test]
fn names_and_ids() {
    let long = "x".repeat(limits::NAME_CHARS_MAX + 1);
    let ok = "é".repeat(limits::NAME_CHARS_MAX);
    let mut input = base();
    input["wagers"][0]["bettor"] = json!(ok);
    settle_json(&input.to_string()).unwrap();
    input["wagers"][0]["bettor"] = json!(long);
    assert_eq!(
        err(&input),
        "wagers[0].bettor: 65 characters is more than the limit of 64 characters"
    );
    for (field, value, want) in [
        ("bettor", "", "wagers[0].bettor: \"\" is empty"),
        ("bettor", "  ", "wagers[0].bettor: \"  \" is empty"),
        (
            "bettor",
            "Ann ",
            "wagers[0].bettor: \"Ann \" has spaces at an end",
        ),
        (
            "bettor",
            "A\nnn",
            "wagers[0].bettor: \"A\\nnn\" has spaces at an end or control characters",
        ),
        ("bettor", "pd", "wagers[0].bettor: \"pd\" is reserved"),
        ("id", "", "wagers[0].id: \"\" is empty"),
    ] {
        let mut input = base();
        input["wagers"][0][field] = json!(value);
        assert_starts(&err(&input), want);
    }
    let mut input = base();
    input["pd"]["player"] = json!(" ");
    assert_starts(&err(&input), "pd.player: \" \" is empty");
}

#[test]
fn limits_on_counts_and_sizes() {
    // Wagers: the limit passes, one more fails.
    let wagers = |n: usize| -> Value {
        let mut v = vec![json!({"id": "p", "seat": 4, "bettor": "Ann", "amount": "1"})];
        v.extend((1..n).map(|i| json!({"id": format!("b{i}"), "seat": 4, "bettor": "Bo", "amount": "1", "backline": true})));
        Value::Array(v)
    };
    let mut input = base();
    input["wagers"] = wagers(limits::WAGERS_MAX);
    settle_json(&input.to_string()).unwrap();
    input["wagers"] = wagers(limits::WAGERS_MAX + 1);
    assert_eq!(
        err(&input),
        "wagers: 201 wagers is more than the limit of 200"
    );

    // Amounts.
    let mut input = base();
    input["pd"]["bank"] = json!("1000000000");
    settle_json(&input.to_string()).unwrap();
    input["pd"]["bank"] = json!("1000000000.01");
    assert_eq!(
        err(&input),
        "pd.bank: 1000000000.01 is more than the limit of 1000000000.00"
    );
    input["pd"]["bank"] = json!("1".repeat(30));
    assert_starts(&err(&input), "pd.bank: \"111");

    // Brackets.
    let brackets = |n: usize| -> Value {
        Value::Array((0..n).map(|i| json!({"from": format!("{}", i * 100), "to": format!("{}.99", i * 100 + 99), "fee": "1"})).collect())
    };
    let mut input = base();
    input["collection"] = json!({"player": brackets(limits::BRACKETS_MAX)});
    settle_json(&input.to_string()).unwrap();
    input["collection"] = json!({"player": brackets(limits::BRACKETS_MAX + 1)});
    assert_eq!(
        err(&input),
        "collection.player: 51 brackets is more than the limit of 50"
    );

    // Seats in a seat map.
    let mut input = base();
    let many: serde_json::Map<String, Value> =
        (1..=11).map(|i| (format!("s{i}"), json!("pd"))).collect();
    input["outcomes"] = Value::Object(many);
    assert_starts(&err(&input), "outcomes: more than 10 seats given");

    // Input size.
    let big = format!("{}{}", " ".repeat(limits::INPUT_BYTES_MAX), base());
    assert_eq!(
        err_text(&big).to_string(),
        format!(
            "input: {} bytes is more than the limit of 262144 bytes",
            big.len()
        )
    );

    // Smallest unit.
    let mut input = base();
    input["options"] = json!({"min_unit": "0.0001"});
    settle_json(&input.to_string()).unwrap();
    input["options"] = json!({"min_unit": "0.00001"});
    assert_starts(
        &err(&input),
        "options.min_unit: 0.00001 is not a supported smallest unit",
    );
    input["options"] = json!({"min_unit": "0"});
    assert_starts(
        &err(&input),
        "options.min_unit: min_unit 0.00 must be greater than 0",
    );
}

#[test]
fn bad_profile_and_option_values() {
    let mut input = base();
    input["profile"] = json!("vegas");
    assert_starts(&err(&input), "profile: unknown variant `vegas`");
    let mut input = base();
    input["options"] = json!({"backline_order": "random"});
    assert_starts(
        &err(&input),
        "options.backline_order: unknown variant `random`",
    );
    input["options"] = json!({"push_consumes_action": "yes"});
    assert_starts(
        &err(&input),
        "options.push_consumes_action: invalid type: string \"yes\"",
    );
}

#[test]
fn bad_collection_schedules() {
    let mut input = base();
    input["collection"] = json!({"player": [{"from": "0", "to": "50", "fee": "1"}]});
    assert_starts(
        &err(&input),
        "wagers[0].amount: no bracket covers wager \"w1\" amount 60.00",
    );
    input["collection"] = json!({"player": [{"from": "0", "to": "100", "fee": "1"}, {"from": "50", "to": "200", "fee": "2"}]});
    assert_starts(
        &err(&input),
        "collection.player: brackets 0.00..100.00 and 50.00..200.00 overlap",
    );
    input["collection"] = json!({"bank": [{"from": "0", "to": "1000", "fee": "-1"}]});
    assert_eq!(
        err(&input),
        "collection.bank[0].fee: -1.00 must not be negative"
    );
}

#[test]
fn internal_errors_are_not_bad_input() {
    let e = SettleError::Conservation {
        check: "money in = money out",
        left: pitbook::domain::common::money::Money::from_units(1),
        right: pitbook::domain::common::money::Money::ZERO,
    };
    assert!(!e.is_bad_input());
    assert_starts(
        &e.to_string(),
        "internal error: settlement invariant \"money in = money out\" failed",
    );
    assert!(!SettleError::Internal("x".into()).is_bad_input());
}
