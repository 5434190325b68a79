//! Settlement rules, step by step, through the JSON contract (the same path
//! the CLI and HTTP use): `settle_json` in, the output JSON read back.

use pitbook::domain::double_hand_poker::settle::{parse_scenario, settle, settle_json};
use serde_json::{Value, json};

fn run(input: Value) -> Value {
    let out = settle_json(&input.to_string()).unwrap_or_else(|e| panic!("settle failed: {e}"));
    serde_json::from_str(&out).unwrap()
}

/// A hand at a 7-seat table, PD Dana on seat 1 with `bank`.
fn table(bank: &str, action_seat: u8, wagers: Value, outcomes: Value) -> Value {
    json!({
        "pd": {"seat": 1, "player": "Dana", "bank": bank},
        "action": {"seat": action_seat},
        "wagers": wagers,
        "outcomes": outcomes,
    })
}

fn w(id: &str, seat: u8, bettor: &str, amount: &str) -> Value {
    json!({"id": id, "seat": seat, "bettor": bettor, "amount": amount})
}

fn bl(id: &str, seat: u8, bettor: &str, amount: &str) -> Value {
    json!({"id": id, "seat": seat, "bettor": bettor, "amount": amount, "backline": true})
}

fn s(v: &Value) -> &str {
    v.as_str().unwrap_or_else(|| panic!("{v} is not a string"))
}

/// The ids of the steps, in action order.
fn order(out: &Value) -> Vec<&str> {
    out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| s(&st["wager"]))
        .collect()
}

/// Asserts a step's money: covered, no_action, before, after, to_bettor, to_pd.
fn step(out: &Value, i: usize, want: [&str; 6]) {
    let st = &out["steps"][i];
    let got = [
        "covered",
        "no_action",
        "in_action_before",
        "in_action_after",
        "to_bettor",
        "to_pd",
    ]
    .map(|k| s(&st[k]));
    assert_eq!(got, want, "step {i}: {st}");
}

fn total<'a>(out: &'a Value, who: &str) -> [&'a str; 3] {
    let t = &out["totals"][who];
    [s(&t["received"]), s(&t["net"]), s(&t["fee"])]
}

#[test]
fn the_seeds_200_example_step_by_step() {
    let out = run(table(
        "200",
        4,
        json!([
            w("w1", 4, "Ann", "60"),
            w("w2", 5, "Bo", "60"),
            w("w3", 6, "Cy", "100"),
            w("w4", 7, "Di", "40")
        ]),
        json!({"4": "pd", "5": "player", "6": "pd", "7": "player"}),
    ));
    assert_eq!(out["action_seat"], 4);
    assert_eq!(order(&out), ["w1", "w2", "w3", "w4"]);
    // $60 loses: the player's $60 and $60 of the bank go to the PD; $140 left.
    step(
        &out,
        0,
        ["60.00", "0.00", "200.00", "140.00", "0.00", "120.00"],
    );
    assert_eq!(
        out["steps"][0]["explanation"],
        "Seat 4, Ann, $60 loses: collect $60 for the bank; $140 left in action"
    );
    // $60 wins: $60 back plus $60 of the bank; $80 left.
    step(
        &out,
        1,
        ["60.00", "0.00", "140.00", "80.00", "120.00", "0.00"],
    );
    assert_eq!(
        out["steps"][1]["explanation"],
        "Seat 5, Bo, $60 wins: pay $60 from the bank; $80 left in action"
    );
    // $100 loses, only $80 covered: $20 goes back with no action.
    step(
        &out,
        2,
        ["80.00", "20.00", "80.00", "0.00", "20.00", "160.00"],
    );
    assert_eq!(
        out["steps"][2]["explanation"],
        "Seat 6, Cy, $100 loses: collect $80 for the bank and return $20 with no action; the bank is used up"
    );
    // The bank is used up: $40 gets no action.
    step(&out, 3, ["0.00", "40.00", "0.00", "0.00", "40.00", "0.00"]);
    assert_eq!(
        out["steps"][3]["explanation"],
        "Seat 7, Di, $40 gets no action: return $40; the bank is used up"
    );
    assert_eq!(out["pd_returned"], "0.00");
    assert_eq!(total(&out, "Ann"), ["0.00", "-60.00", "0.00"]);
    assert_eq!(total(&out, "Bo"), ["120.00", "60.00", "0.00"]);
    assert_eq!(total(&out, "Cy"), ["20.00", "-80.00", "0.00"]);
    assert_eq!(total(&out, "Di"), ["40.00", "0.00", "0.00"]);
    assert_eq!(total(&out, "pd"), ["280.00", "80.00", "0.00"]);
    assert_eq!(out["house_collection"], "0.00");
    assert_eq!(out["conservation"]["money_in"], "460.00");
    assert_eq!(out["conservation"]["money_out"], "460.00");
}

#[test]
fn the_output_has_every_contract_field_and_money_as_strings() {
    let out = run(table(
        "200",
        4,
        json!([w("w1", 4, "Ann", "60")]),
        json!({"4": "push"}),
    ));
    for k in [
        "action_seat",
        "steps",
        "pd_returned",
        "totals",
        "house_collection",
    ] {
        assert!(out.get(k).is_some(), "missing {k}");
    }
    let st = &out["steps"][0];
    for k in [
        "wager",
        "seat",
        "bettor",
        "amount",
        "outcome",
        "covered",
        "no_action",
        "in_action_before",
        "in_action_after",
        "to_bettor",
        "to_pd",
        "breakage",
        "explanation",
    ] {
        assert!(st.get(k).is_some(), "step is missing {k}");
    }
    for k in [
        "amount",
        "covered",
        "no_action",
        "in_action_before",
        "in_action_after",
        "to_bettor",
        "to_pd",
        "breakage",
    ] {
        assert!(st[k].is_string(), "{k} must be a string");
    }
    for k in ["received", "net", "fee"] {
        assert!(out["totals"]["Ann"][k].is_string() && out["totals"]["pd"][k].is_string());
    }
    assert!(out["pd_returned"].is_string() && out["house_collection"].is_string());
    assert_eq!(st["outcome"], "push");
}

#[test]
fn bank_exhausted_mid_wager() {
    let out = run(table(
        "100",
        2,
        json!([
            w("a", 2, "Ann", "70"),
            w("b", 3, "Bo", "50"),
            w("c", 4, "Cy", "25")
        ]),
        json!({"2": "player", "3": "player", "4": "pd"}),
    ));
    step(
        &out,
        0,
        ["70.00", "0.00", "100.00", "30.00", "140.00", "0.00"],
    );
    step(
        &out,
        1,
        ["30.00", "20.00", "30.00", "0.00", "80.00", "0.00"],
    );
    assert_eq!(
        out["steps"][1]["explanation"],
        "Seat 3, Bo, $50 wins: pay $30 from the bank on $30 covered and return $20 with no action; the bank is used up"
    );
    step(&out, 2, ["0.00", "25.00", "0.00", "0.00", "25.00", "0.00"]);
    assert_eq!(total(&out, "pd"), ["0.00", "-100.00", "0.00"]);
    assert_eq!(out["pd_returned"], "0.00");
}

#[test]
fn bank_larger_than_all_wagers() {
    let out = run(table(
        "1000",
        2,
        json!([
            w("a", 2, "Ann", "50"),
            w("b", 3, "Bo", "30"),
            w("c", 4, "Cy", "20")
        ]),
        json!({"2": "pd", "3": "player", "4": "push"}),
    ));
    step(
        &out,
        0,
        ["50.00", "0.00", "1000.00", "950.00", "0.00", "100.00"],
    );
    step(
        &out,
        1,
        ["30.00", "0.00", "950.00", "920.00", "60.00", "0.00"],
    );
    step(
        &out,
        2,
        ["20.00", "0.00", "920.00", "920.00", "20.00", "0.00"],
    );
    assert_eq!(
        out["steps"][2]["explanation"],
        "Seat 4, Cy, $20 pushes: return $20; $920 left in action"
    );
    assert_eq!(out["pd_returned"], "920.00");
    assert_eq!(total(&out, "pd"), ["1020.00", "20.00", "0.00"]);
}

#[test]
fn action_seat_on_the_pd_starts_at_the_next_seat() {
    let wagers = json!([
        w("s1", 1, "Ann", "10"),
        w("s2", 2, "Bo", "10"),
        w("s4", 4, "Cy", "10"),
        w("s7", 7, "Di", "10")
    ]);
    let mut input = table(
        "100",
        3,
        wagers,
        json!({"1": "pd", "2": "pd", "4": "pd", "7": "pd"}),
    );
    input["pd"]["seat"] = json!(3);
    assert_eq!(order(&run(input.clone())), ["s4", "s7", "s1", "s2"]);
    // Dice totalling 8 count to the PD itself (positions 1, 8, 15).
    input["action"] = json!({"dice": [2, 3, 3]});
    let out = run(input.clone());
    assert_eq!(out["action_seat"], 3);
    assert_eq!(out["action_dice"], json!([2, 3, 3]));
    assert_eq!(order(&out), ["s4", "s7", "s1", "s2"]);
    input["action"] = json!({"dice": [5, 5, 5]});
    assert_eq!(order(&run(input)), ["s4", "s7", "s1", "s2"]);
}

#[test]
fn empty_seats_are_skipped_and_the_order_wraps() {
    let wagers = json!([
        w("s2", 2, "Ann", "10"),
        w("s4", 4, "Bo", "10"),
        w("s6", 6, "Cy", "10")
    ]);
    let outcomes = json!({"2": "pd", "4": "pd", "6": "pd"});
    assert_eq!(
        order(&run(table("100", 6, wagers.clone(), outcomes.clone()))),
        ["s6", "s2", "s4"]
    );
    // The ACTION seat itself may be empty: the first seat after it with wagers starts.
    assert_eq!(
        order(&run(table("100", 5, wagers.clone(), outcomes.clone()))),
        ["s6", "s2", "s4"]
    );
    assert_eq!(
        order(&run(table("100", 7, wagers.clone(), outcomes.clone()))),
        ["s2", "s4", "s6"]
    );
    assert_eq!(
        order(&run(table("100", 3, wagers, outcomes))),
        ["s4", "s6", "s2"]
    );
}

#[test]
fn dice_name_the_action_seat() {
    // PD seat 1, 4+5+3 = 12 → position 5 → seat 5.
    let wagers = json!([w("s3", 3, "Ann", "10"), w("s5", 5, "Bo", "10")]);
    let mut input = table("100", 1, wagers, json!({"3": "pd", "5": "pd"}));
    input["action"] = json!({"dice": [4, 5, 3]});
    let out = run(input.clone());
    assert_eq!(out["action_seat"], 5);
    assert_eq!(order(&out), ["s5", "s3"]);
    // PD seat 6, 1+1+2 = 4 → positions 6, 7, 1, 2 → seat 2.
    input["pd"]["seat"] = json!(6);
    input["action"] = json!({"dice": [1, 1, 2]});
    let out = run(input);
    assert_eq!(out["action_seat"], 2);
    assert_eq!(order(&out), ["s3", "s5"]);
}

/// Seat 4: backline b1 placed before the primary, then b2..b4.
fn backline_table(order_option: &str) -> Value {
    let mut input = table(
        "100",
        4,
        json!([
            bl("b1", 4, "Bea", "20"),
            w("p", 4, "Ann", "50"),
            bl("b2", 4, "Cal", "40"),
            bl("b3", 4, "Dot", "20"),
            bl("b4", 4, "Eve", "40"),
        ]),
        json!({"4": "pd"}),
    );
    input["options"] = json!({"backline_order": order_option});
    input
}

#[test]
fn backlines_in_placement_order_after_the_primary() {
    let out = run(backline_table("placement"));
    assert_eq!(order(&out), ["p", "b1", "b2", "b3", "b4"]);
    step(
        &out,
        0,
        ["50.00", "0.00", "100.00", "50.00", "0.00", "100.00"],
    );
    step(
        &out,
        1,
        ["20.00", "0.00", "50.00", "30.00", "0.00", "40.00"],
    );
    step(
        &out,
        2,
        ["30.00", "10.00", "30.00", "0.00", "10.00", "60.00"],
    );
    assert_eq!(
        out["steps"][2]["explanation"],
        "Seat 4, Cal (backline), $40 loses: collect $30 for the bank and return $10 with no action; the bank is used up"
    );
    step(&out, 3, ["0.00", "20.00", "0.00", "0.00", "20.00", "0.00"]);
    step(&out, 4, ["0.00", "40.00", "0.00", "0.00", "40.00", "0.00"]);
}

#[test]
fn backlines_largest_first_with_ties_in_placement_order() {
    let out = run(backline_table("largest_first"));
    assert_eq!(order(&out), ["p", "b2", "b4", "b1", "b3"]);
    step(
        &out,
        1,
        ["40.00", "0.00", "50.00", "10.00", "0.00", "80.00"],
    );
    step(
        &out,
        2,
        ["10.00", "30.00", "10.00", "0.00", "30.00", "20.00"],
    );
    step(&out, 3, ["0.00", "20.00", "0.00", "0.00", "20.00", "0.00"]);
}

fn push_table(consumes: bool) -> Value {
    let mut input = table(
        "100",
        2,
        json!([w("a", 2, "Ann", "60"), w("b", 3, "Bo", "60")]),
        json!({"2": "push", "3": "player"}),
    );
    input["options"] = json!({"push_consumes_action": consumes});
    input
}

#[test]
fn a_push_keeps_the_bank_in_action_by_default() {
    let out = run(push_table(false));
    step(
        &out,
        0,
        ["60.00", "0.00", "100.00", "100.00", "60.00", "0.00"],
    );
    assert_eq!(
        out["steps"][0]["explanation"],
        "Seat 2, Ann, $60 pushes: return $60; $100 left in action"
    );
    step(
        &out,
        1,
        ["60.00", "0.00", "100.00", "40.00", "120.00", "0.00"],
    );
    assert_eq!(out["pd_returned"], "40.00");
    assert_eq!(total(&out, "pd"), ["40.00", "-60.00", "0.00"]);
}

#[test]
fn a_push_consumes_action_when_the_option_says_so() {
    let out = run(push_table(true));
    step(
        &out,
        0,
        ["60.00", "0.00", "100.00", "40.00", "60.00", "60.00"],
    );
    assert_eq!(
        out["steps"][0]["explanation"],
        "Seat 2, Ann, $60 pushes: return $60; $60 of the bank leaves action; $40 left in action"
    );
    step(
        &out,
        1,
        ["40.00", "20.00", "40.00", "0.00", "100.00", "0.00"],
    );
    assert_eq!(out["pd_returned"], "0.00");
    assert_eq!(total(&out, "pd"), ["60.00", "-40.00", "0.00"]);
    assert_eq!(total(&out, "Ann"), ["60.00", "0.00", "0.00"]);
}

#[test]
fn three_to_two_payout_with_breakage() {
    let mut input = table(
        "100",
        2,
        json!([
            {"id": "a", "seat": 2, "bettor": "Ann", "amount": "25.05", "payout": "3:2"},
            {"id": "b", "seat": 3, "bettor": "Bo", "amount": "50", "payout": "3:2"},
        ]),
        json!({"2": "player", "3": "pd"}),
    );
    let out = run(input.clone());
    // 25.05 × 3/2 = 37.575 → pays 37.57, breakage 0.005 stays with the PD.
    step(
        &out,
        0,
        ["25.05", "0.00", "100.00", "62.43", "62.62", "0.00"],
    );
    assert_eq!(out["steps"][0]["breakage"], "0.005");
    assert_eq!(out["steps"][0]["payout"], "3:2");
    assert_eq!(
        out["steps"][0]["explanation"],
        "Seat 2, Ann, $25.05 at 3:2 wins: pay $37.57 from the bank (breakage $0.005 stays with the bank); $62.43 left in action"
    );
    // $62.43 covers floor(62.43 × 2/3) = $41.62 of a 3:2 bet; the covering
    // money floor(41.62 × 3/2) = $62.43 leaves action.
    step(
        &out,
        1,
        ["41.62", "8.38", "62.43", "0.00", "8.38", "104.05"],
    );
    assert_eq!(out["steps"][1]["breakage"], "0.00");
    assert_eq!(total(&out, "pd"), ["104.05", "4.05", "0.00"]);

    // Whole-dollar table: $5 at 3:2 pays $7, $0.50 breakage.
    input["options"] = json!({"min_unit": "1"});
    input["wagers"] =
        json!([{"id": "a", "seat": 2, "bettor": "Ann", "amount": "5", "payout": "3:2"}]);
    input["outcomes"] = json!({"2": "player"});
    let out = run(input.clone());
    step(
        &out,
        0,
        ["5.00", "0.00", "100.00", "93.00", "12.00", "0.00"],
    );
    assert_eq!(out["steps"][0]["breakage"], "0.50");

    // A bank too small to cover one unit at 3:2 gives no action and is returned.
    input["options"] = json!({});
    input["pd"]["bank"] = json!("0.01");
    let out = run(input);
    step(&out, 0, ["0.00", "5.00", "0.01", "0.01", "5.00", "0.00"]);
    assert_eq!(
        out["steps"][0]["explanation"],
        "Seat 2, Ann, $5 at 3:2 gets no action: return $5; the $0.01 left in action cannot cover it"
    );
    assert_eq!(out["pd_returned"], "0.01");
}

#[test]
fn collection_brackets_at_their_edges() {
    let mut input = table(
        "200",
        2,
        json!([
            w("a", 2, "Ann", "99.99"),
            w("b", 3, "Bo", "100"),
            w("c", 4, "Cy", "5000"),
            bl("d", 4, "Ann", "0.01")
        ]),
        json!({"2": "pd", "3": "player", "4": "player"}),
    );
    input["collection"] = json!({
        "player": [{"from": "100", "to": "5000", "fee": "2"}, {"from": "0", "to": "99.99", "fee": "1"}],
        "bank": [{"from": "0", "to": "200", "fee": "0.50"}, {"from": "200.01", "to": "5000", "fee": "3"}],
    });
    let out = run(input.clone());
    let fees: Vec<&str> = out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| s(&st["fee"]))
        .collect();
    assert_eq!(fees, ["1.00", "2.00", "2.00", "1.00"]);
    // Ann pays on both wagers; Cy's $5000 got only partial action and Ann's
    // backline none, but fees are not returned.
    assert_eq!(out["steps"][3]["covered"], "0.00");
    assert_eq!(total(&out, "Ann")[2], "2.00");
    assert_eq!(total(&out, "Cy")[2], "2.00");
    assert_eq!(total(&out, "pd")[2], "0.50");
    assert_eq!(out["house_collection"], "6.50");
    assert_eq!(out["conservation"]["fees_taken"], "6.50");
    // Net excludes the fee: Ann lost 99.99 and got her 0.01 back.
    assert_eq!(total(&out, "Ann")[1], "-99.99");

    // One cent past the last bracket is an error naming the wager.
    input["pd"]["bank"] = json!("5000.01");
    let e = settle_json(&input.to_string()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "pd.bank: no bracket covers bank 5000.01; add one (with \"fee\": \"0\" if it pays nothing)"
    );
    input["pd"]["bank"] = json!("200.01");
    assert_eq!(total(&run(input.clone()), "pd")[2], "3.00");
    input["wagers"][2]["amount"] = json!("5000.01");
    let e = settle_json(&input.to_string()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("wagers[2].amount: no bracket covers wager \"c\" amount 5000.01"),
        "{e}"
    );
}

#[test]
fn without_a_schedule_there_is_no_fee() {
    let mut input = table(
        "200",
        2,
        json!([w("a", 2, "Ann", "50")]),
        json!({"2": "pd"}),
    );
    input["collection"] = json!({"bank": [{"from": "0", "to": "1000", "fee": "2"}]});
    let out = run(input);
    assert_eq!(total(&out, "Ann")[2], "0.00");
    assert_eq!(out["house_collection"], "2.00");
}

#[test]
fn typed_api_matches_the_json_path() {
    let input = table(
        "200",
        4,
        json!([w("w1", 4, "Ann", "60"), w("w2", 5, "Bo", "60")]),
        json!({"4": "pd", "5": "player"}),
    );
    let scenario = parse_scenario(&input.to_string()).unwrap();
    let settlement = settle(&scenario).unwrap();
    assert_eq!(settlement.steps.len(), 2);
    assert_eq!(
        settlement.steps[0].explanation(),
        "Seat 4, Ann, $60 loses: collect $60 for the bank; $140 left in action"
    );
    assert_eq!(
        settlement.totals.get("pd").unwrap().net.to_canonical(),
        "0.00"
    );
    let json: Value = serde_json::to_value(&settlement).unwrap();
    assert_eq!(json, run(input));
}

#[test]
fn profile_and_options_are_applied_and_reported() {
    let mut input = table(
        "200",
        2,
        json!([w("a", 2, "Ann", "50")]),
        json!({"2": "pd"}),
    );
    input["profile"] = json!("nevada");
    input["options"] =
        json!({"push_consumes_action": true, "min_unit": "0.25", "foul": "reset_house_way"});
    let out = run(input.clone());
    assert_eq!(out["rules"]["profile"], "nevada");
    assert_eq!(out["rules"]["wheel"], "second_highest");
    assert_eq!(out["rules"]["push_consumes_action"], true);
    assert_eq!(out["rules"]["min_unit"], "0.25");
    input["wagers"][0]["amount"] = json!("50.10");
    let e = settle_json(&input.to_string()).unwrap_err();
    assert_eq!(
        e.to_string(),
        "wagers[0].amount: 50.10 is finer than the table's smallest unit 0.25"
    );
}

#[test]
fn no_wagers_returns_the_bank() {
    let out = run(table("200", 2, json!([]), json!({})));
    assert_eq!(out["steps"], json!([]));
    assert_eq!(out["pd_returned"], "200.00");
    assert_eq!(total(&out, "pd"), ["200.00", "0.00", "0.00"]);
}
