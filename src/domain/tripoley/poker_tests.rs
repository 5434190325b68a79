//! The poker round: shown cards, matched or all-in contributions, side pots,
//! folds, split pots, the best five, the betting order. Four players with 50
//! chips unless a test says otherwise; Dee deals; every section holds 4
//! after the antes.

use serde_json::json;

use super::test_deals::*;
use super::*;

#[test]
fn shown_cards_must_come_from_the_hand_after_the_spare() {
    let fixed = [
        NO_PAYOUTS,
        ("Bo", "2c 3c 4c 5c 7d"),
        ("Dee", "As Ks Qs Js 9s"),
        ("Cy", "Ad Kd Qd Jd 9d"),
    ];
    let mut input = base(&fixed);
    input["poker"] = json!({"shown": {"Bo": "2c 3c 4c 5c As"}});
    assert!(bad(&input).contains("poker.shown.Bo: As is not in \"Bo\"'s hand"));

    // Cy buys the spare: Cy's old cards are dead, the spare's are Cy's.
    input["spare"] = json!({"auction": {"buyer": "Cy", "price": 2}});
    input["poker"] = json!({"shown": {"Cy": "Ad Kd Qd Jd 9d"}});
    assert!(bad(&input).contains("poker.shown.Cy: Ad is not in \"Cy\"'s hand"));
    input["poker"] = json!({"shown": {"Cy": "Ah Kh Qh Jh Th"}});
    let out = ok(&input);
    let pot = steps(&out, StepKind::Pot);
    assert_eq!(pot.len(), 1);
    assert_eq!(pot[0].to.as_deref(), Some("Cy"));
    assert!(
        pot[0].explanation.contains("Royal flush (Ah Kh Qh Jh Th)"),
        "{}",
        pot[0].explanation
    );
    // The hearts Cy bought pay Cy.
    assert_eq!(
        section_step(&out, Section::Ace)[0].to.as_deref(),
        Some("Cy")
    );
}

#[test]
fn the_dealer_swaps_first_then_sells_the_old_hand() {
    let fixed = [
        ("Dee", "2c 3c 4c 5c 7d Kh"),
        ("spare", "Ad Kd Qd Jd 9d Ah"),
        ("Bo", "Qh"),
    ];
    let mut input = base(&fixed);
    input["spare"] = json!({"dealer_swaps": true, "auction": {"buyer": "Bo", "price": 3}});
    input["poker"] = json!({"folded": ["Ann", "Cy"], "shown": {"Dee": "Ad Kd Qd Jd 9d", "Bo": "2c 3c 4c 5c 7d"}});
    let out = ok(&input);
    let kinds: Vec<StepKind> = out.outcome.steps.iter().map(|s| s.kind).take(6).collect();
    assert_eq!(kinds[4..], [StepKind::SpareSwap, StepKind::SpareAuction]);
    let sale = steps(&out, StepKind::SpareAuction)[0];
    assert_eq!(
        (sale.from.as_deref(), sale.to.as_deref(), sale.chips),
        (Some("Bo"), Some("Dee"), 3)
    );
    // The spare's Ah went to Dee, Dee's old Kh to Bo, Bo's old Qh is dead.
    assert_eq!(
        section_step(&out, Section::Ace)[0].to.as_deref(),
        Some("Dee")
    );
    assert_eq!(
        section_step(&out, Section::King)[0].to.as_deref(),
        Some("Bo")
    );
    assert_eq!(
        section_step(&out, Section::Queen)[0].kind,
        StepKind::CarryOver
    );
    assert_eq!(steps(&out, StepKind::Pot)[0].to.as_deref(), Some("Dee"));
}

#[test]
fn a_player_still_in_matches_the_most_put_in_or_is_all_in() {
    // Stacks when the betting begins: Ann 41, Bo 41, Cy 11, Dee 41.
    let cases = [
        (
            json!({"Ann": 10, "Bo": 10, "Cy": 10, "Dee": 10}),
            json!([]),
            None,
        ),
        (
            json!({"Ann": 20, "Bo": 20, "Cy": 11, "Dee": 20}),
            json!([]),
            None,
        ),
        (
            json!({"Ann": 41, "Bo": 41, "Cy": 11, "Dee": 41}),
            json!([]),
            None,
        ),
        (
            json!({"Ann": 20, "Bo": 10, "Dee": 20}),
            json!(["Bo", "Cy"]),
            None,
        ),
        (
            json!({"Ann": 10, "Bo": 10, "Cy": 11, "Dee": 10}),
            json!([]),
            Some("poker.contributions.Ann: 10 is neither the 11"),
        ),
        (
            json!({"Ann": 20, "Bo": 15, "Cy": 11, "Dee": 20}),
            json!([]),
            Some("poker.contributions.Bo: 15 is neither the 20"),
        ),
        (
            json!({"Ann": 20, "Bo": 25, "Cy": 11, "Dee": 20}),
            json!(["Bo"]),
            Some("poker.contributions.Bo: 25 from a player who folded"),
        ),
        (
            json!({"Cy": 12}),
            json!([]),
            Some("poker.contributions.Cy: 12 is more than the 11 chips"),
        ),
    ];
    for (contributions, folded, error) in cases {
        let mut input = base(&[NO_PAYOUTS]);
        input["chips"]["Cy"] = json!(20);
        input["poker"] = json!({"contributions": contributions, "folded": folded});
        match error {
            None => {
                ok(&input);
            }
            Some(needle) => {
                let message = bad(&input);
                assert!(message.contains(needle), "{message} lacks {needle}");
            }
        }
    }
}

#[test]
fn side_pots_each_go_to_the_best_hand_eligible() {
    let mut input = base(&[
        NO_PAYOUTS,
        ("Dee", "As Ad Ac Ks Kd"),
        ("Cy", "Qs Qd Qc 2s 3d"),
        ("Bo", "Js Jd 4s 4d 5c"),
        ("Ann", "9s 7d 6c 4c 2d"),
    ]);
    input["chips"] = json!({"Ann": 50, "Bo": 50, "Cy": 20, "Dee": 14});
    input["poker"] = json!({
        "contributions": {"Ann": 30, "Bo": 30, "Cy": 11, "Dee": 5},
        "shown": {"Ann": "9s 7d 6c 4c 2d", "Bo": "Js Jd 4s 4d 5c", "Cy": "Qs Qd Qc 2s 3d", "Dee": "As Ad Ac Ks Kd"}
    });
    let out = ok(&input);
    let pots: Vec<(Option<u32>, &str, u64)> = steps(&out, StepKind::Pot)
        .iter()
        .map(|s| (s.pot, s.to.as_deref().unwrap_or(""), s.chips))
        .collect();
    assert_eq!(
        pots,
        [
            (Some(0), "Dee", 24),
            (Some(1), "Cy", 18),
            (Some(2), "Bo", 38)
        ]
    );
    assert_eq!(
        steps(&out, StepKind::Pot)[0].explanation,
        "Main pot of 24 chips (4 on the section, 20 in bets): Dee wins with Full house, aces over kings (Ac Ad As Kd Ks)."
    );
    // After the Michigan play (Ann out: the Kitty's 4 and 1 chip from each).
    let after: Vec<u64> = TABLE.iter().map(|n| chips_of(&out, n)).collect();
    assert_eq!(after, [18, 48, 17, 23]);
    assert_eq!(out.outcome.board.get(Section::Pot), 0);
}

#[test]
fn pot_layers_from_contributions() {
    type Case<'a> = (&'a [u64], &'a [bool], &'a [(u64, &'a [usize])]);
    let cases: [Case; 4] = [
        (&[0, 0, 0], &[true, true, true], &[(0, &[0, 1, 2])]),
        (&[10, 10, 4], &[true, true, false], &[(24, &[0, 1])]),
        (
            &[30, 30, 11, 5],
            &[true; 4],
            &[(20, &[0, 1, 2, 3]), (18, &[0, 1, 2]), (38, &[0, 1])],
        ),
        // An all-in player with no chips left is in the main pot only.
        (
            &[0, 8, 8, 3],
            &[true, true, true, false],
            &[(0, &[0, 1, 2]), (19, &[1, 2])],
        ),
    ];
    for (contributions, still_in, expected) in cases {
        let got = pot_layers(contributions, still_in);
        let want: Vec<PotLayer> = expected
            .iter()
            .map(|(amount, eligible)| PotLayer {
                amount: *amount,
                eligible: eligible.to_vec(),
            })
            .collect();
        assert_eq!(got, want, "{contributions:?}");
    }
}

#[test]
fn all_but_one_folded_takes_the_pot_without_a_showdown() {
    let mut input = base(&[NO_PAYOUTS]);
    input["poker"] =
        json!({"contributions": {"Ann": 10, "Bo": 10, "Dee": 4}, "folded": ["Bo", "Cy", "Dee"]});
    let out = ok(&input);
    let pot = steps(&out, StepKind::Pot);
    assert_eq!(pot.len(), 1);
    assert_eq!(
        (pot[0].to.as_deref(), pot[0].chips, pot[0].pot),
        (Some("Ann"), 28, None)
    );
    assert_eq!(
        pot[0].explanation,
        "Everyone else folded: Ann takes the Pot, 28 chips (4 on the section and 24 in bets), without showing."
    );
    input["poker"]["shown"] = json!({"Ann": "2s 3s 4s 5s 6s"});
    assert!(bad(&input).contains("poker.shown.Ann: there is no showdown"));
}

#[test]
fn equal_best_hands_split_and_the_remainder_stays_on_the_pot() {
    let mut input = base(&[
        NO_PAYOUTS,
        ("Ann", "As Ks Qs Js 9d"),
        ("Bo", "Ad Kd Qd Jd 9c"),
    ]);
    input["board"] = json!({"pot": 6});
    input["poker"] = json!({
        "contributions": {"Ann": 5, "Bo": 5, "Cy": 5},
        "folded": ["Cy", "Dee"],
        "shown": {"Ann": "As Ks Qs Js 9d", "Bo": "Ad Kd Qd Jd 9c"}
    });
    let out = ok(&input);
    let pot = steps(&out, StepKind::Pot);
    let got: Vec<(&str, u64, u64)> = pot
        .iter()
        .map(|s| (s.to.as_deref().unwrap_or(""), s.chips, s.remainder))
        .collect();
    assert_eq!(got, [("Ann", 12, 1), ("Bo", 12, 1)]);
    assert_eq!(out.outcome.board.get(Section::Pot), 1);
}

#[test]
fn the_best_five_are_chosen_when_no_cards_were_shown() {
    let mut input = base(&[NO_PAYOUTS, ("Bo", "7c 7d 7s 2c 2d")]);
    input["poker"] = json!({"folded": ["Ann", "Cy"], "shown": {"Dee": "Ad Kd Qd Jd 9d"}});
    input["hands"] = deal(
        &TABLE,
        &[
            NO_PAYOUTS,
            ("Bo", "7c 7d 7s 2c 2d"),
            ("Dee", "Ad Kd Qd Jd 9d"),
        ],
    );
    let out = ok(&input);
    let pot = steps(&out, StepKind::Pot)[0];
    assert_eq!(pot.to.as_deref(), Some("Bo"));
    assert!(
        pot.explanation.contains("the best five of the hand"),
        "{}",
        pot.explanation
    );
}

#[test]
fn betting_order_follows_the_profile() {
    let mut input = base(&[NO_PAYOUTS]);
    input["poker"] = json!({"contributions": {"Ann": 2, "Bo": 2, "Cy": 2, "Dee": 2}});
    let bettors = |out: &RoundOutput| -> Vec<String> {
        steps(out, StepKind::Bet)
            .iter()
            .map(|s| s.from.clone().unwrap_or_default())
            .collect()
    };
    assert_eq!(bettors(&ok(&input)), ["Ann", "Bo", "Cy", "Dee"]);
    input["profile"] = json!("cadaco");
    assert_eq!(bettors(&ok(&input)), ["Dee", "Ann", "Bo", "Cy"]);
}

#[test]
fn best_five_finds_the_best_poker_hand() {
    use crate::cards::parse_cards;
    let cases = [
        ("2c 3c 4c 5c 6c Ad Ah", "Straight flush, six high"),
        ("As Ad Ah Ks Kd 2c 3c", "Full house, aces over kings"),
        ("Ah 2c 3d 4s 5h 9c", "Straight, five high"),
        ("2c 4d 6h 8s Tc Qd", "Queen high"),
    ];
    for (hand, name) in cases {
        let best = best_five(&parse_cards(hand).unwrap()).unwrap();
        assert_eq!(best.rank.name(), name, "{hand}");
    }
    assert_eq!(best_five(&parse_cards("As Kd").unwrap()), None);
}
