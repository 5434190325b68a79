//! Outcomes decided from the hands by the hand-rules engine.

use pitbook::domain::double_hand_poker::settle::settle_json;
use serde_json::{Value, json};

/// PD on seat 1 with K-K behind and Q-9 in front; five player seats.
fn deal() -> Value {
    json!({
        "pd": {"seat": 1, "player": "Dana", "bank": "500"},
        "action": {"seat": 2},
        "wagers": [
            {"id": "a", "seat": 2, "bettor": "Ann", "amount": "10"},
            {"id": "b", "seat": 3, "bettor": "Bo", "amount": "10"},
            {"id": "b2", "seat": 3, "bettor": "Ann", "amount": "5", "backline": true},
            {"id": "c", "seat": 4, "bettor": "Cy", "amount": "10"},
            {"id": "d", "seat": 5, "bettor": "Di", "amount": "10"},
            {"id": "e", "seat": 6, "bettor": "Eve", "amount": "10"}
        ],
        "hands": {
            "1": {"high": "Ks Kd 7c 5h 3d", "low": "Qh 9s"},
            "2": {"high": "As Ad 8c 6h 2d", "low": "Qs Th"},
            "3": {"high": "Kh Kc 7d 5s 3c", "low": "Qd 9c"},
            "4": {"high": "Jh Jc Td 4h 2s", "low": "Ac Tc"},
            "5": {"high": "9d 8h 6c 4d 2h", "low": "Ah 3s"},
            "6": {"cards": "2c 3h 4s 5d 6s Jd Js", "set": "house"}
        }
    })
}

fn run(input: &Value) -> Value {
    let out = settle_json(&input.to_string()).unwrap_or_else(|e| panic!("{e}"));
    serde_json::from_str(&out).unwrap()
}

fn err(input: &Value) -> String {
    let e = settle_json(&input.to_string()).expect_err("expected an error");
    assert!(e.is_bad_input());
    e.to_string()
}

fn outcome_of(out: &Value, wager: &str) -> String {
    let st = out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["wager"] == wager)
        .unwrap();
    st["outcome"].as_str().unwrap().to_owned()
}

fn hand_of(out: &Value, seat: u64) -> &Value {
    out["hands"]
        .as_array()
        .unwrap()
        .iter()
        .find(|h| h["seat"] == seat)
        .unwrap()
}

#[test]
fn hands_decide_each_seat_against_the_pd() {
    let out = run(&deal());
    assert_eq!(outcome_of(&out, "a"), "player");
    assert_eq!(outcome_of(&out, "b"), "pd");
    assert_eq!(
        outcome_of(&out, "b2"),
        "pd",
        "a backline bet shares its seat's hand"
    );
    assert_eq!(outcome_of(&out, "c"), "push");
    assert_eq!(outcome_of(&out, "d"), "pd");
    assert_eq!(outcome_of(&out, "e"), "player");
    let pd = hand_of(&out, 1);
    assert_eq!(pd["role"], "pd");
    assert_eq!(pd["name"], "Dana");
    assert_eq!(pd["high"], "Kd Ks 7c 5h 3d");
    assert!(pd.get("outcome").is_none());
    assert_eq!(hand_of(&out, 2)["name"], "Ann");
    assert_eq!(hand_of(&out, 2)["set_by"], "player");
}

#[test]
fn copies_go_to_the_pd() {
    let out = run(&deal());
    let bo = hand_of(&out, 3);
    assert_eq!(bo["outcome"], "pd");
    let why = bo["explanation"].as_str().unwrap();
    assert!(why.contains("copy"), "{why}");
    // One hand higher and the other copied is a push.
    let mut input = deal();
    input["hands"]["3"] = json!({"high": "Kh Kc Qc 5s 3c", "low": "Qd 9c"});
    assert_eq!(outcome_of(&run(&input), "b"), "push");
}

#[test]
fn a_fouled_player_hand_loses_by_default() {
    let out = run(&deal());
    let di = hand_of(&out, 5);
    assert_eq!(di["fouled"], true);
    assert_eq!(di["outcome"], "pd");
    assert!(
        di["explanation"].as_str().unwrap().contains("fouled"),
        "{}",
        di["explanation"]
    );
}

#[test]
fn a_fouled_player_hand_is_reset_when_the_option_says_so() {
    let mut input = deal();
    input["options"] = json!({"foul": "reset_house_way"});
    let out = run(&input);
    let di = hand_of(&out, 5);
    assert_eq!(di["fouled"], true);
    assert!(
        di["explanation"]
            .as_str()
            .unwrap()
            .contains("re-set by house way"),
        "{}",
        di["explanation"]
    );
    // A fouled hand (A-A in front of a 9-high back) that the house way
    // turns into a push: A-A behind beats K-K, 9-8 in front loses to Q-9.
    let mut input = deal();
    input["hands"]["5"] = json!({"high": "9d 8h 6c 4d 2h", "low": "Ah Ac"});
    input["hands"]["4"] = json!({"high": "Jh Jc Td 4h 2s", "low": "As Tc"});
    input["hands"]["2"] = json!({"high": "Kc Qs 8c 6h 2d", "low": "Qd Th"});
    input["hands"]["3"] = json!({"high": "Kh 7s 7d 5s 3c", "low": "Ad 9c"});
    assert_eq!(outcome_of(&run(&input), "d"), "pd");
    input["options"] = json!({"foul": "reset_house_way"});
    assert_eq!(outcome_of(&run(&input), "d"), "push");
}

#[test]
fn the_house_way_sets_seven_cards_and_names_its_rule() {
    let out = run(&deal());
    let eve = hand_of(&out, 6);
    assert_eq!(eve["set_by"], "house");
    assert!(eve["house_way_rule"].is_string());
    assert_eq!(eve["low"], "Jd Js");
    assert_eq!(eve["high"], "6s 5d 4s 3h 2c");
    assert_eq!(eve["fouled"], false);
    assert_eq!(eve["outcome"], "player");
}

#[test]
fn a_fouled_pd_hand_is_reset_by_house_way() {
    let mut input = deal();
    // PD fouled: K-high behind, Q-Q in front.
    input["hands"]["1"] = json!({"high": "Ks 7c 5h 3d 2c", "low": "Qh Qc"});
    input["hands"]["4"] = json!({"high": "Jh Jd Td 4h 2s", "low": "Ac Tc"});
    input["hands"]["6"] = json!({"cards": "9h 3h 4s 5d 6s 8s Js", "set": "house"});
    let out = run(&input);
    assert_eq!(hand_of(&out, 1)["fouled"], true);
    let why = hand_of(&out, 2)["explanation"].as_str().unwrap().to_owned();
    assert!(
        why.contains("PD hand") && why.contains("re-set by house way"),
        "{why}"
    );
}

/// A hand set "house" follows the table's house way (option `house_way`,
/// docs/house-ways.md): a pair with a straight is played pair behind by the
/// reference (the straight would leave a worse front) and straight behind
/// at Foxwoods.
#[test]
fn a_hand_set_house_way_follows_the_tables_house_way() {
    let mut input = deal();
    input["hands"]["6"] = json!({"cards": "7s 7h 8s 9h Ts Jd 3h", "set": "house"});
    let reference = run(&input);
    let rule = hand_of(&reference, 6)["house_way_rule"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(rule, "One pair: pair behind, two highest cards in front");
    input["options"] = json!({"house_way": "foxwoods"});
    let fox = run(&input);
    let rule = hand_of(&fox, 6)["house_way_rule"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(rule, "One pair: straight behind, highest front it leaves");
    input["options"] = json!({"house_way": "nowhere"});
    assert!(err(&input).contains("options.house_way"), "{}", err(&input));
}

#[test]
fn duplicate_cards_across_seats() {
    let mut input = deal();
    input["hands"]["6"] = json!({"cards": "2c 3h 4s 5d 6s Jd As", "set": "house"});
    assert_eq!(
        err(&input),
        "hands: card \"As\" is in the hands of both seat 2 and seat 6"
    );
    let mut input = deal();
    input["hands"]["2"] = json!({"high": "As Ad 8c 6h 2d", "low": "As Th"});
    assert_eq!(err(&input), "hands.2: card \"As\" appears twice");
    let mut input = deal();
    input["hands"]["3"] = json!({"high": "Kh Kc 7d 5s 3c", "low": "Qh 9c"});
    assert_eq!(
        err(&input),
        "hands: card \"Qh\" is in the hands of both seat 1 and seat 3"
    );
}

#[test]
fn missing_and_misplaced_hands() {
    let mut input = deal();
    input["hands"].as_object_mut().unwrap().remove("1");
    assert_eq!(
        err(&input),
        "hands: seat 1 has no hand (it is the PD's seat; every seat is decided against it)"
    );
    let mut input = deal();
    input["hands"].as_object_mut().unwrap().remove("4");
    assert_eq!(
        err(&input),
        "hands: seat 4 has no hand (the seat has wagers)"
    );
    let mut input = deal();
    input["hands"]["7"] = json!({"high": "Tc 9h 8h 7h 2c", "low": "Th 4c"});
    assert!(err(&input).starts_with("hands.7: seat 7 has no wagers, so its pile is out of play"));
    let mut input = deal();
    input["hands"]["8"] = json!({"high": "Tc 9h 8h 7h 2c", "low": "Th 4c"});
    assert_eq!(
        err(&input),
        "hands.8: 8 is not a seat at this 7-seat table (1..7)"
    );
}

#[test]
fn badly_written_hands() {
    for (hand, want) in [
        (
            json!({"high": "As Ad 8c 6h 2d", "low": "Qs Xx"}),
            "hands.2: unknown card \"Xx\"",
        ),
        (
            json!({"high": "As Ad 8c 6h", "low": "Qs Th"}),
            "hands.2: high hand: expected 5 cards, got 4",
        ),
        (
            json!({"high": "As Ad 8c 6h 2d"}),
            "hands.2: give \"high\" (5 cards) and \"low\" (2 cards)",
        ),
        (
            json!({"cards": "As Ad 8c 6h 2d Qs Th"}),
            "hands.2: seven \"cards\" need \"set\": \"house\"",
        ),
        (
            json!({"cards": "As Ad 8c 6h 2d Qs", "set": "house"}),
            "hands.2: expected 7 cards, got 6",
        ),
        (
            json!({"high": "As Ad 8c 6h 2d", "low": "Qs Th", "set": "house"}),
            "hands.2: give \"high\"",
        ),
        (
            json!({"cards": "As Ad 8c 6h 2d Qs Th", "set": "dealer"}),
            "hands.2.set: unknown variant `dealer`",
        ),
        (
            json!({"high": "As Ad 8c 6h 2d", "low": 7}),
            "hands.2.low: invalid type: integer `7`",
        ),
    ] {
        let mut input = deal();
        input["hands"]["2"] = hand;
        let e = err(&input);
        assert!(e.starts_with(want), "{e:?} should start with {want:?}");
    }
    let mut input = deal();
    input["hands"]["2"] =
        json!({"high": format!("As Ad 8c 6h 2d{}", " ".repeat(60)), "low": "Qs Th"});
    assert_eq!(
        err(&input),
        "hands.2.high: 74 characters is more than the limit of 64 characters"
    );
}

#[test]
fn the_joker_only_when_the_deck_has_one() {
    let mut input = deal();
    input["hands"]["2"] = json!({"high": "As JK 8c 6h 2d", "low": "Qs Th"});
    assert_eq!(outcome_of(&run(&input), "a"), "player");
    input["options"] = json!({"joker": "none"});
    assert_eq!(
        err(&input),
        "hands.2: the joker is not in play under this profile"
    );
}
