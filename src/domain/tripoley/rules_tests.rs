//! The rules of ../shared/rules/tripoley.md, one test (or one table) each.
//! Four players with 50 chips unless a test says otherwise; Dee deals; the
//! ante is 1, so every section holds 4 after the antes.

use serde_json::json;

use super::test_deals::*;
use super::*;

/// Each `kind` step as (who paid, chips, shortfall).
fn payments(out: &RoundOutput, kind: StepKind) -> Vec<(&str, u64, Option<u64>)> {
    steps(out, kind)
        .iter()
        .map(|s| (s.from.as_deref().unwrap_or(""), s.chips, s.shortfall))
        .collect()
}

#[test]
fn a_money_card_in_the_dead_hand_carries_its_section_over() {
    let cases = [
        ("Ah", Section::Ace, "ace"),
        ("Kh", Section::King, "king"),
        ("Qh", Section::Queen, "queen"),
        ("Jh", Section::Jack, "jack"),
        ("Th", Section::Ten, "ten"),
    ];
    for (card, section, key) in cases {
        let others: Vec<&str> = cases.iter().map(|c| c.0).filter(|&c| c != card).collect();
        let others = others.join(" ");
        let mut input = base(&[("spare", card), ("Ann", &others)]);
        input["board"] = json!({ key: 6 });
        let out = ok(&input);
        let steps = section_step(&out, section);
        assert_eq!(steps.len(), 1, "{card}");
        assert_eq!(steps[0].kind, StepKind::CarryOver, "{card}");
        assert_eq!(steps[0].remainder, 10, "{card}");
        assert_eq!(steps[0].chips, 0, "{card}");
        assert!(steps[0].explanation.contains("dead hand"), "{card}");
        assert_eq!(out.outcome.board.get(section), 10, "{card}");
        // The other heart sections pay their holders.
        for (_, other, _) in cases.iter().filter(|c| c.1 != section) {
            assert_eq!(out.outcome.board.get(*other), 0, "{card}: {other:?}");
        }
    }
}

#[test]
fn a_money_card_pays_its_holder_the_section() {
    let mut input = base(&[("Bo", "Ah")]);
    input["board"] = json!({"ace": 7});
    let out = ok(&input);
    let step = section_step(&out, Section::Ace)[0];
    assert_eq!(
        (
            step.kind,
            step.from.as_deref(),
            step.to.as_deref(),
            step.chips
        ),
        (StepKind::MoneyCard, Some("board"), Some("Bo"), 11)
    );
    assert_eq!(
        step.explanation,
        "Bo holds the Ah: takes the 11 chips on Ace."
    );
}

#[test]
fn king_queen_needs_both_cards_in_one_hand() {
    type Case<'a> = (&'a [(&'a str, &'a str)], Option<&'a str>);
    let cases: [Case; 4] = [
        (&[("Ann", "Kh Qh")], Some("Ann")),
        (&[("Ann", "Kh"), ("Bo", "Qh")], None),
        (&[("spare", "Kh"), ("Ann", "Qh")], None),
        (&[("Ann", "Kh"), ("spare", "Qh")], None),
    ];
    for (fixed, winner) in cases {
        let mut input = base(fixed);
        input["board"] = json!({"king_queen": 3});
        let out = ok(&input);
        let step = section_step(&out, Section::KingQueen)[0];
        match winner {
            Some(name) => {
                assert_eq!(step.kind, StepKind::MoneyCard, "{fixed:?}");
                assert_eq!((step.to.as_deref(), step.chips), (Some(name), 7));
                assert_eq!(out.outcome.board.get(Section::KingQueen), 0);
            }
            None => {
                assert_eq!(step.kind, StepKind::CarryOver, "{fixed:?}");
                assert_eq!(step.remainder, 7, "{fixed:?}");
                assert_eq!(out.outcome.board.get(Section::KingQueen), 7);
            }
        }
    }
}

#[test]
fn eight_nine_ten_in_any_suit_split_in_whole_chips_remainder_stays() {
    // (fixed cards, 8-9-10 carried over, expected (name, share), remainder)
    type Case<'a> = (&'a [(&'a str, &'a str)], u64, &'a [(&'a str, u64)], u64);
    let cases: [Case; 5] = [
        (&[("Ann", "8s 9s Ts")], 0, &[("Ann", 4)], 0),
        (
            &[("Ann", "8s 9s Ts"), ("Bo", "8d 9d Td")],
            5,
            &[("Ann", 4), ("Bo", 4)],
            1,
        ),
        (
            &[("Ann", "8s 9s Ts"), ("Bo", "8d 9d Td"), ("Dee", "8c 9c Tc")],
            7,
            &[("Ann", 3), ("Bo", 3), ("Dee", 3)],
            2,
        ),
        // Two suits in one hand: one share.
        (
            &[("Ann", "8s 9s Ts 8d 9d Td"), ("Cy", "8c 9c Tc")],
            1,
            &[("Ann", 2), ("Cy", 2)],
            1,
        ),
        // Every 8 in the dead hand: nobody holds it, the section carries over.
        (&[("spare", "8s 8h 8d 8c")], 3, &[], 7),
    ];
    for (fixed, carried, shares, remainder) in cases {
        let mut input = base(fixed);
        input["board"] = json!({"eight_nine_ten": carried});
        let out = ok(&input);
        let steps = section_step(&out, Section::EightNineTen);
        if shares.is_empty() {
            assert_eq!(steps.len(), 1);
            assert_eq!(steps[0].kind, StepKind::CarryOver);
        } else {
            let got: Vec<(&str, u64)> = steps
                .iter()
                .map(|s| (s.to.as_deref().unwrap_or(""), s.chips))
                .collect();
            assert_eq!(got, shares, "{fixed:?}");
            assert!(steps.iter().all(|s| s.kind == StepKind::EightNineTen));
        }
        assert!(steps.iter().all(|s| s.remainder == remainder), "{fixed:?}");
        assert_eq!(
            out.outcome.board.get(Section::EightNineTen),
            remainder,
            "{fixed:?}"
        );
    }
}

#[test]
fn the_kitty_winner_collects_per_card_but_never_more_than_a_player_has() {
    let mut input = base(&[NO_PAYOUTS]);
    input["chips"]["Cy"] = json!(10);
    input["poker"] = json!({"folded": ["Bo", "Cy", "Dee"]});
    input["michigan"] = json!({"out": "Ann", "cards_left": {"Bo": 3, "Cy": 5, "Dee": 2}});
    let out = ok(&input);
    let kitty = steps(&out, StepKind::Kitty)[0];
    assert_eq!((kitty.to.as_deref(), kitty.chips), (Some("Ann"), 4));
    let paid = payments(&out, StepKind::CardPayment);
    assert_eq!(
        paid,
        [("Bo", 3, Some(0)), ("Cy", 1, Some(4)), ("Dee", 2, Some(0))]
    );
    assert_eq!(
        steps(&out, StepKind::CardPayment)[1].explanation,
        "Cy pays Ann 1 chip per card left (5), but has only 1 chip: 4 short."
    );
    assert_eq!(chips_of(&out, "Ann"), 41 + 4 + 4 + 6);
    assert_eq!(chips_of(&out, "Cy"), 0);
}

#[test]
fn blocked_play_pays_the_kitty_one_chip_per_card_left() {
    let mut input = base(&[NO_PAYOUTS]);
    input["chips"]["Cy"] = json!(10);
    input["poker"] = json!({"folded": ["Bo", "Cy", "Dee"]});
    input["michigan"] =
        json!({"blocked": true, "cards_left": {"Ann": 2, "Bo": 3, "Cy": 5, "Dee": 1}});
    let out = ok(&input);
    let paid = payments(&out, StepKind::BlockedPayment);
    assert_eq!(
        paid,
        [
            ("Ann", 2, Some(0)),
            ("Bo", 3, Some(0)),
            ("Cy", 1, Some(4)),
            ("Dee", 1, Some(0))
        ]
    );
    assert_eq!(out.outcome.board.get(Section::Kitty), 4 + 7);
    input["profile"] = json!("cadaco");
    assert!(bad(&input).contains("michigan.blocked: true, but under the cadaco profile"));
}

#[test]
fn a_player_who_cannot_ante_sits_the_round_out() {
    let players = ["Ann", "Bo", "Cy", "Dee"];
    let mut input = base(&[]);
    input["chips"]["Cy"] = json!(8);
    input["hands"] = deal(&["Ann", "Bo", "Dee"], &[]);
    input["michigan"] = json!({"out": "Ann", "cards_left": {"Bo": 2, "Dee": 4}});
    let out = ok(&input);
    let first = &out.outcome.steps[0..3];
    assert_eq!(first[0].kind, StepKind::Ante);
    assert_eq!(
        (first[2].kind, first[2].from.as_deref(), first[2].chips),
        (StepKind::SitsOut, Some("Cy"), 0)
    );
    assert_eq!(
        first[2].explanation,
        "Cy has 8 chips, less than the ante of 9 chips: Cy sits this round out."
    );
    assert_eq!(chips_of(&out, "Cy"), 8);
    assert!(
        out.outcome
            .steps
            .iter()
            .filter(|s| s.kind != StepKind::SitsOut)
            .all(|s| { s.from.as_deref() != Some("Cy") && s.to.as_deref() != Some("Cy") })
    );
    assert_eq!(steps(&out, StepKind::Ante).len(), 3);
    assert_eq!(players.len(), out.outcome.chips.0.len());
    // With ante 2 a player needs 18 chips.
    input["ante"] = json!(2);
    input["chips"]["Bo"] = json!(17);
    input["hands"] = deal(&["Ann", "Dee"], &[]);
    input["michigan"] = json!({"out": "Ann", "cards_left": {"Dee": 4}});
    let out = ok(&input);
    assert_eq!(steps(&out, StepKind::SitsOut).len(), 2);
    assert_eq!(
        out.outcome.board.get(Section::Ace),
        0,
        "Ann or Dee hold the Ah"
    );
    assert_eq!(out.outcome.board.get(Section::Kitty), 0);
}

#[test]
fn chip_value_gives_balances_in_money_and_the_deal_moves_left() {
    let mut input = base(&[]);
    input["chip_value"] = json!("0.25");
    let out = ok(&input);
    let json = serde_json::to_value(&out).unwrap();
    assert_eq!(json["chip_value"], "0.25");
    for name in TABLE {
        let chips = chips_of(&out, name);
        let money = json["money"][name].as_str().unwrap().to_string();
        let cents = chips * 25;
        assert_eq!(
            money,
            format!("{}.{:02}", cents / 100, cents % 100),
            "{name}"
        );
    }
    assert_eq!(json["next_dealer"], "Ann");
    assert_eq!(json["total"], 200);
    let net: i64 = out.outcome.net.0.iter().map(|(_, n)| n).sum::<i64>();
    assert_eq!(net, -(out.outcome.board.total() as i64));
}
