//! Bad input: each is refused as bad input (exit 2 / HTTP 422) with a
//! message naming the field path and the value.

use serde_json::{Value, json};

use super::test_deals::*;
use super::*;

/// A change to a good input, and what the refusal must say.
type Case = (fn(&mut Value), &'static str);

fn with(mutate: impl FnOnce(&mut Value)) -> Value {
    let mut input = base(&[("Ann", "As Ks Qs Js 9s"), ("Bo", "2c 3c 4c 5c 7d")]);
    mutate(&mut input);
    input
}

fn refused(input: &Value, needle: &str) {
    let message = bad(input);
    assert!(message.contains(needle), "{message:?} lacks {needle:?}");
}

/// Each case's change to the base input is refused with its message.
fn refused_all(cases: &[Case]) {
    for &(mutate, needle) in cases {
        refused(&with(mutate), needle);
    }
}

#[test]
fn the_deal_must_be_the_52_cards() {
    refused(
        &with(|v| {
            let ann = v["hands"]["Ann"].as_str().unwrap().replace("9s", "");
            v["hands"]["Ann"] = json!(ann);
        }),
        "hands: 51 cards dealt; the deal is exactly the 52 cards (missing: 9s)",
    );
    refused(
        &with(|v| v["hands"]["Bo"] = json!(format!("{} As", v["hands"]["Bo"].as_str().unwrap()))),
        "hands.Bo: As is dealt twice (also in hands.Ann)",
    );
    refused(
        &with(|v| v["hands"]["Ann"] = json!("As Xx")),
        "hands.Ann: unknown card \"Xx\"",
    );
    refused(
        &with(|v| v["hands"]["Ann"] = json!("As JK")),
        "hands.Ann: the joker is not in a Tripoley deck",
    );
    refused(
        &with(|v| v["hands"]["Ann"] = json!("As as")),
        "hands.Ann: As is named twice",
    );
    refused(
        &with(|v| v["hands"]["Ann"] = json!(5)),
        "hands.Ann: invalid type: integer `5`",
    );
    refused(
        &with(|v| {
            v["hands"] = deal(&TABLE, &[("Ann", "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As")]);
        }),
        "hands: hand sizes Ann 13",
    );
    refused(
        &with(|v| {
            let spare = v["hands"].as_object_mut().unwrap().remove("spare").unwrap();
            v["hands"]["Ann"] = json!(format!(
                "{} {}",
                v["hands"]["Ann"].as_str().unwrap(),
                spare.as_str().unwrap()
            ));
        }),
        "hands: no cards given for \"spare\"",
    );
    refused(
        &with(|v| drop(v["hands"].as_object_mut().unwrap().remove("Dee"))),
        "hands: no cards given for \"Dee\"",
    );
}

#[test]
fn every_name_must_be_at_the_table() {
    let cases: [Case; 8] = [
        (
            |v| v["dealer"] = json!("Zed"),
            "dealer: \"Zed\" is not among the players",
        ),
        (
            |v| v["chips"]["Zed"] = json!(5),
            "chips.Zed: \"Zed\" is not at the table",
        ),
        (
            |v| v["hands"]["Zed"] = json!("2c"),
            "hands.Zed: \"Zed\" is not at the table",
        ),
        (
            |v| v["poker"] = json!({"contributions": {"Zed": 1}}),
            "poker.contributions.Zed: \"Zed\" is not at the table",
        ),
        (
            |v| v["poker"] = json!({"folded": ["Bo", "Zed"]}),
            "poker.folded[1]: \"Zed\" is not at the table",
        ),
        (
            |v| v["michigan"]["out"] = json!("Zed"),
            "michigan.out: \"Zed\" is not at the table",
        ),
        (
            |v| v["michigan"]["cards_left"]["Zed"] = json!(1),
            "michigan.cards_left.Zed: \"Zed\" is not at the table",
        ),
        (
            |v| v["spare"] = json!({"auction": {"buyer": "Zed", "price": 1}}),
            "spare.auction.buyer: \"Zed\" is not at the table",
        ),
    ];
    refused_all(&cases);
    refused(
        &with(|v| drop(v["chips"].as_object_mut().unwrap().remove("Dee"))),
        "chips: no chips given for \"Dee\"",
    );
}

#[test]
fn the_players_are_checked() {
    let cases: [(Value, &str); 6] = [
        (
            json!(["Ann"]),
            "players: 1 players; Tripoley is played by 2 to 9",
        ),
        (
            json!(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]),
            "players: 10 players",
        ),
        (
            json!(["Ann", "Ann"]),
            "players[1]: \"Ann\" is at the table twice",
        ),
        (json!(["Ann", "Spare"]), "players[1]: \"Spare\" is reserved"),
        (
            json!(["Ann", "Bo\u{200B}"]),
            "players[1]: \"Bo\\u{200B}\" contains U+200B",
        ),
        (
            json!(["Jos\u{e9}", "Jose\u{301}"]),
            "players[1]: \"Jose\u{301}\" is at the table twice",
        ),
    ];
    for (players, needle) in cases {
        refused(&with(|v| v["players"] = players), needle);
    }
    refused(
        &with(|v| v["players"] = json!(["Ann", "x".repeat(41)])),
        "is 41 characters; at most 40 are allowed",
    );
}

#[test]
fn numbers_are_whole_and_within_limits() {
    let cases: [Case; 12] = [
        (
            |v| v["chips"]["Ann"] = json!(-1),
            "chips.Ann: -1 is not a number of chips from 0 to 1000000",
        ),
        (
            |v| v["chips"]["Ann"] = json!(1_000_001),
            "chips.Ann: 1000001 is not a number of chips",
        ),
        (
            |v| v["chips"]["Ann"] = json!(2.5),
            "chips.Ann: invalid type: floating point `2.5`",
        ),
        (
            |v| v["board"] = json!({"pot": -3}),
            "board.pot: -3 is not a number of chips",
        ),
        (
            |v| v["ante"] = json!(0),
            "ante: 0 is not an ante from 1 to 1000 chips",
        ),
        (|v| v["ante"] = json!(1001), "ante: 1001 is not an ante"),
        (
            |v| v["spare"] = json!({"auction": {"buyer": "Bo", "price": -2}}),
            "spare.auction.price: -2 is not a number of chips",
        ),
        (
            |v| v["poker"] = json!({"contributions": {"Bo": -1}}),
            "poker.contributions.Bo: -1 is not a number of chips",
        ),
        (
            |v| v["michigan"]["cards_left"]["Bo"] = json!(99),
            "michigan.cards_left.Bo: 99 is not a number of cards",
        ),
        (
            |v| v["chip_value"] = json!("0"),
            "chip_value: \"0.00\" is not a chip value",
        ),
        (
            |v| v["chip_value"] = json!(0.25),
            "chip_value: invalid type: floating point `0.25`",
        ),
        (
            |v| v["chip_value"] = json!("2000000"),
            "chip_value: \"2000000.00\" is not a chip value",
        ),
    ];
    refused_all(&cases);
}

#[test]
fn unknown_fields_and_bad_json_are_refused() {
    let cases: [Case; 6] = [
        (
            |v| v["colour"] = json!("red"),
            "colour: unknown field `colour`",
        ),
        (
            |v| v["board"] = json!({"aces": 1}),
            "board.aces: unknown field `aces`",
        ),
        (
            |v| v["poker"]["bets"] = json!({}),
            "poker.bets: unknown field `bets`",
        ),
        (
            |v| v["michigan"]["winner"] = json!("Ann"),
            "michigan.winner: unknown field `winner`",
        ),
        (
            |v| v["spare"] = json!({"swap": true}),
            "spare.swap: unknown field `swap`",
        ),
        (
            |v| v["profile"] = json!("vegas"),
            "profile: unknown variant `vegas`, expected `cadaco` or `classic`",
        ),
    ];
    refused_all(&cases);
    let text = r#"{"profile": "classic", "players": ["Ann", "Bo"], "dealer": "Ann", "chips": {"Ann": 1, "Ann": 2}}"#;
    let err = parse::<RoundInput>(text.as_bytes()).unwrap_err();
    assert!(
        err.to_string().starts_with("chips: \"Ann\" is given twice"),
        "{err}"
    );
    let err = parse::<RoundInput>(b"{\"profile\": ").unwrap_err();
    assert!(
        err.to_string().starts_with("profile: EOF while parsing"),
        "{err}"
    );
    let err = parse::<RoundInput>(&vec![b' '; INPUT_BYTES_MAX + 1]).unwrap_err();
    assert_eq!(
        err.to_string(),
        "body: 65537 bytes is more than the limit of 65536"
    );
}

#[test]
fn the_spare_hand_is_classic_only_and_paid_from_the_buyers_chips() {
    let cases: [Case; 5] = [
        (
            |v| {
                v["profile"] = json!("cadaco");
                v["spare"] = json!({"auction": {"buyer": "Bo", "price": 2}});
            },
            "spare.auction: the spare hand is not played under the cadaco profile (classic only)",
        ),
        (
            |v| {
                v["profile"] = json!("cadaco");
                v["spare"] = json!({"dealer_swaps": true});
            },
            "spare.dealer_swaps: the spare hand is not played under the cadaco profile",
        ),
        (
            |v| v["spare"] = json!({"auction": {"buyer": "Bo", "price": 42}}),
            "spare.auction.price: 42 is more than the 41 chips \"Bo\" has after the ante",
        ),
        (
            |v| v["spare"] = json!({"auction": {"buyer": "Dee", "price": 1}}),
            "spare.auction.buyer: \"Dee\" is the dealer, who sells the spare",
        ),
        (
            |v| {
                v["chips"]["Bo"] = json!(3);
                v["hands"] = deal(&["Ann", "Cy", "Dee"], &[]);
                v["michigan"] = json!({"out": "Ann", "cards_left": {"Cy": 1, "Dee": 1}});
                v["spare"] = json!({"auction": {"buyer": "Bo", "price": 1}});
            },
            "spare.auction.buyer: \"Bo\" sits this round out",
        ),
    ];
    refused_all(&cases);
}

#[test]
fn the_poker_result_is_checked() {
    let cases: [Case; 7] = [
        (
            |v| v["poker"] = json!({"shown": {"Ann": "As Ks Qs Js 2c"}}),
            "poker.shown.Ann: 2c is not in \"Ann\"'s hand",
        ),
        (
            |v| v["poker"] = json!({"shown": {"Ann": "As Ks Qs Js"}}),
            "poker.shown.Ann: 4 cards shown; a poker hand is exactly 5",
        ),
        (
            |v| v["poker"] = json!({"folded": ["Ann"], "shown": {"Ann": "As Ks Qs Js 9s"}}),
            "poker.shown.Ann: \"Ann\" folded and shows nothing",
        ),
        (
            |v| v["poker"] = json!({"contributions": {"Ann": 5, "Bo": 3}}),
            "poker.contributions.Bo: 3 is neither the 5 the most any player still in put in nor all-in",
        ),
        (
            |v| v["poker"] = json!({"folded": ["Ann", "Bo", "Cy", "Dee"]}),
            "poker.folded: every player in the round folded",
        ),
        (
            |v| v["poker"] = json!({"folded": ["Bo", "Bo"]}),
            "poker.folded[1]: \"Bo\" is listed twice",
        ),
        (
            |v| v["poker"] = json!({"contributions": {"Ann": 500}}),
            "poker.contributions.Ann: 500 is more than the",
        ),
    ];
    refused_all(&cases);
}

#[test]
fn the_michigan_result_is_checked() {
    let cases: [Case; 6] = [
        (
            |v| v["michigan"]["cards_left"]["Ann"] = json!(2),
            "michigan.cards_left.Ann: 2, but \"Ann\" went out (played every card) and has none left",
        ),
        (
            |v| v["michigan"]["cards_left"]["Bo"] = json!(0),
            "michigan.cards_left.Bo: 0, but only \"Ann\" went out",
        ),
        (
            |v| {
                drop(
                    v["michigan"]["cards_left"]
                        .as_object_mut()
                        .unwrap()
                        .remove("Cy"),
                )
            },
            "michigan.cards_left: no count given for \"Cy\"",
        ),
        (
            |v| v["michigan"]["blocked"] = json!(true),
            "michigan.blocked: true, but michigan.out names a winner",
        ),
        (
            |v| v["michigan"] = json!({"cards_left": {}}),
            "michigan: give \"out\" (the first player to play every card) or \"blocked\": true",
        ),
        (
            |v| {
                v["michigan"] =
                    json!({"blocked": true, "cards_left": {"Ann": 1, "Bo": 1, "Cy": 1, "Dee": 0}})
            },
            "michigan.cards_left.Dee: 0, but play blocked",
        ),
    ];
    refused_all(&cases);
}

#[test]
fn a_player_sitting_out_takes_no_part() {
    let sitting_out = |v: &mut Value| {
        v["chips"]["Cy"] = json!(8);
        v["hands"] = deal(&["Ann", "Bo", "Dee"], &[]);
        v["michigan"] = json!({"out": "Ann", "cards_left": {"Bo": 1, "Dee": 1}});
    };
    refused(
        &with(|v| {
            sitting_out(v);
            v["hands"] = deal(&TABLE, &[]);
        }),
        "hands.Cy: \"Cy\" cannot ante, sits this round out and is dealt no cards",
    );
    refused(
        &with(|v| {
            sitting_out(v);
            v["poker"] = json!({"folded": ["Cy"]});
        }),
        "poker.folded[0]: \"Cy\" sits this round out",
    );
    refused(
        &with(|v| {
            sitting_out(v);
            v["michigan"]["cards_left"]["Cy"] = json!(1);
        }),
        "michigan.cards_left.Cy: \"Cy\" sits this round out",
    );
    refused(
        &with(|v| {
            v["chips"] = json!({"Ann": 50, "Bo": 8, "Cy": 0, "Dee": 3});
        }),
        "chips: only 1 player(s) can ante 9 chips",
    );
}
