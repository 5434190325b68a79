//! Tests of the reference house way: every rule and exception, the wheel
//! option, the fallback from a fouling rule and the ace-and-joker splits
//! (the properties are in `house_way_property_tests.rs`).

use super::*;
use crate::cards::test_hands::seven;
use crate::double_hand_poker::options::{Profile, WheelRule};
use crate::double_hand_poker::test_options::{lucky, wild};

/// (seven cards, expected high, expected low, words of the rule)
const CASES: &[(&str, &str, &str, &str)] = &[
    // 1. Five aces.
    (
        "As Ah Ad Ac JK 9s 5d",
        "Ad Ac JK 9s 5d",
        "As Ah",
        "Five aces: pair of aces in front",
    ),
    (
        "As Ah Ad Ac JK Ks Kd",
        "As Ah Ad Ac JK",
        "Ks Kd",
        "Five aces with a pair of kings",
    ),
    (
        "As Ah Ad Ac JK Qs Qd",
        "Ad Ac JK Qs Qd",
        "As Ah",
        "Five aces: pair of aces in front",
    ),
    // 2. Four of a kind.
    (
        "5s 5h 5d 5c Ks Qd 9c",
        "5s 5h 5d 5c 9c",
        "Ks Qd",
        "(2s to 6s): kept together",
    ),
    (
        "2s 2h 2d 2c As Kd 9c",
        "2s 2h 2d 2c 9c",
        "As Kd",
        "(2s to 6s): kept together",
    ),
    (
        "9s 9h 9d 9c Ks Qd 4c",
        "9d 9c Ks Qd 4c",
        "9s 9h",
        "(7s to jacks): split",
    ),
    (
        "7s 7h 7d 7c Ks Qd 4c",
        "7d 7c Ks Qd 4c",
        "7s 7h",
        "(7s to jacks): split",
    ),
    (
        "Js Jh Jd Jc As Qd 4c",
        "Js Jh Jd Jc 4c",
        "As Qd",
        "(7s to jacks) with an ace: kept",
    ),
    (
        "9s 9h 9d 9c JK Qd 4c",
        "9s 9h 9d 9c 4c",
        "JK Qd",
        "(7s to jacks) with an ace: kept",
    ),
    (
        "Qs Qh Qd Qc As Kd 4c",
        "Qd Qc As Kd 4c",
        "Qs Qh",
        "(queens to aces): split",
    ),
    (
        "As Ah Ad Ac Ks Qd 4c",
        "Ad Ac Ks Qd 4c",
        "As Ah",
        "(queens to aces): split",
    ),
    (
        "As Ah Ad JK Ks Qd 4c",
        "Ad JK Ks Qd 4c",
        "As Ah",
        "(queens to aces): split",
    ),
    (
        "5s 5h 5d 5c Ks Kd 9c",
        "5s 5h 5d 5c 9c",
        "Ks Kd",
        "Four of a kind and a pair",
    ),
    (
        "Qs Qh Qd Qc 3s 3d 3c",
        "Qs Qh Qd Qc 3c",
        "3s 3d",
        "Four of a kind and a pair",
    ),
    (
        "9s 9h 9d 9c As JK 4c",
        "9s 9h 9d 9c 4c",
        "As JK",
        "Four of a kind and a pair",
    ),
    // 3. Full house.
    (
        "Ks Kh Kd 4c 4s 9d 2c",
        "Ks Kh Kd 9d 2c",
        "4c 4s",
        "Full house: split, pair in front",
    ),
    (
        "Ks Kh Kd 4c 4s 9d 9c",
        "Ks Kh Kd 4c 4s",
        "9d 9c",
        "Full house: split, pair in front",
    ),
    (
        "Ks Kh Kd Ac JK 9d 2c",
        "Ks Kh Kd 9d 2c",
        "Ac JK",
        "Full house: split, pair in front",
    ),
    (
        "Ks Kh Kd 7c 7s 7d 2c",
        "Kd 7c 7s 7d 2c",
        "Ks Kh",
        "Two three of a kinds",
    ),
    (
        "7s 7h 7d 2c 2s Ad Kc",
        "7s 7h 7d 2c 2s",
        "Ad Kc",
        "Full house with 2s and A-K",
    ),
    (
        "7s 7h 7d 2c 2s JK Kc",
        "7s 7h 7d 2c 2s",
        "JK Kc",
        "Full house with 2s and A-K",
    ),
    (
        "7s 7h 7d 3c 3s Ad Kc",
        "7s 7h 7d Ad Kc",
        "3c 3s",
        "Full house: split, pair in front",
    ),
    (
        "7s 7h 7d 2c 2s Ad Qc",
        "7s 7h 7d Ad Qc",
        "2c 2s",
        "Full house: split, pair in front",
    ),
    // 4. Three pair.
    (
        "Ks Kh 9d 9c 4s 4d 2c",
        "9d 9c 4s 4d 2c",
        "Ks Kh",
        "Three pair: highest pair in front",
    ),
    (
        "As JK 9d 9c 4s 4d 2c",
        "9d 9c 4s 4d 2c",
        "As JK",
        "Three pair: highest pair in front",
    ),
    // 5. Two pair.
    (
        "Ks Kh 9d 9c As 4d 2c",
        "Ks Kh As 4d 2c",
        "9d 9c",
        "Two pair: split, lower pair in front",
    ),
    (
        "Js Jh 9d 9c As 4d 2c",
        "Js Jh As 4d 2c",
        "9d 9c",
        "Two pair: split, lower pair in front",
    ),
    (
        "Ts Th 9d 9c As 4d 2c",
        "Ts Th 9d 9c 2c",
        "As 4d",
        "Two pair with ace: pairs kept behind",
    ),
    (
        "3s 3h 2d 2c As Kd Qc",
        "3s 3h 2d 2c Qc",
        "As Kd",
        "Two pair with ace: pairs kept behind",
    ),
    (
        "Ts Th 9d 9c JK 4d 2c",
        "Ts Th 9d 9c 2c",
        "JK 4d",
        "Two pair with ace: pairs kept behind",
    ),
    (
        "Ts Th 9d 9c Ks 4d 2c",
        "Ts Th Ks 4d 2c",
        "9d 9c",
        "Two pair: split, lower pair in front",
    ),
    (
        "As JK 5s 5h 2d 3c 4h",
        "As JK 2d 3c 4h",
        "5s 5h",
        "Two pair: straight behind, pair in",
    ),
    (
        "As JK 5c 5h 2s 3s 8s",
        "As JK 2s 3s 8s",
        "5c 5h",
        "Two pair: flush behind, pair in",
    ),
    // 6. Three of a kind.
    (
        "As Ah Ad Kc 9s 5d 2c",
        "Ah Ad 9s 5d 2c",
        "As Kc",
        "Three aces: split, ace in front",
    ),
    (
        "As Ah JK Kc 9s 5d 2c",
        "Ah JK 9s 5d 2c",
        "As Kc",
        "Three aces: split, ace in front",
    ),
    (
        "7s 7h 7d Kc 9s 5d 2c",
        "7s 7h 7d 5d 2c",
        "Kc 9s",
        "Three of a kind: kept behind",
    ),
    (
        "7s 7h 7d 8c 9s Td Jc",
        "7d 8c 9s Td Jc",
        "7s 7h",
        "Three of a kind: straight behind",
    ),
    (
        "7s 7h 7d As 9s 2s 4s",
        "7s As 9s 2s 4s",
        "7h 7d",
        "Three of a kind: flush behind",
    ),
    // 7. Straights and flushes.
    (
        "As Kd 9s 7s 4s 2s 3h",
        "As 9s 7s 4s 2s",
        "Kd 3h",
        "No pair: flush behind, best front",
    ),
    (
        "9s 8h 7d 6c 5s Kd Qh",
        "9s 8h 7d 6c 5s",
        "Kd Qh",
        "No pair: straight behind",
    ),
    (
        "Ts 9h 8d 7c 6s 5h 4d",
        "8d 7c 6s 5h 4d",
        "Ts 9h",
        "No pair: straight behind",
    ),
    (
        "Ks 9s 7s 4s JK Qd 2h",
        "Ks 9s 7s 4s JK",
        "Qd 2h",
        "No pair: flush behind",
    ),
    (
        "9s 8s 7s 6s 5s Ah Kd",
        "9s 8s 7s 6s 5s",
        "Ah Kd",
        "No pair: straight flush behind",
    ),
    (
        "9s 8h 7d 6c JK Ad Kh",
        "9s 8h 7d 6c JK",
        "Ad Kh",
        "One pair: straight behind",
    ),
    (
        "9s 8h 7d 6c 5s Ks Kh",
        "9s 8h 7d 6c 5s",
        "Ks Kh",
        "One pair: straight behind, front at",
    ),
    (
        "9s 8h 7d 6c 5s 5h Kd",
        "5s 5h 8h 7d 6c",
        "Kd 9s",
        "One pair: pair behind",
    ),
    (
        "As 9s 7s 4s JK Kd 2h",
        "As JK 7s 4s 2h",
        "Kd 9s",
        "One pair: pair behind",
    ),
    // 8. One pair.
    (
        "Ks Kh 9d 7c 5s 3d 2c",
        "Ks Kh 5s 3d 2c",
        "9d 7c",
        "One pair: pair behind",
    ),
    (
        "As JK 9d 7c 6s 3d 2h",
        "As JK 6s 3d 2h",
        "9d 7c",
        "One pair: pair behind",
    ),
    // 9. No pair.
    (
        "Ks Jh 9d 7c 5s 3d 2c",
        "Ks 7c 5s 3d 2c",
        "Jh 9d",
        "No pair: highest card behind",
    ),
    (
        "JK Kh 9d 7c 5s 3d 2c",
        "JK 7c 5s 3d 2c",
        "Kh 9d",
        "No pair: highest card behind",
    ),
];

#[test]
fn every_rule_and_exception() {
    let o = lucky();
    for &(cards, high, low, rule) in CASES {
        let got = ReferenceHouseWay.set(&seven(cards), &o);
        let want = SetHand::parse(high, low, &o).expect(high);
        assert_eq!(got.hand, want, "{cards}: got {} ({})", got.hand, got.rule);
        assert!(
            got.rule.contains(rule),
            "{cards}: rule {:?} lacks {rule:?}",
            got.rule
        );
        assert!(!got.hand.is_fouled(&o), "{cards}");
    }
}

#[test]
fn the_wheel_option_changes_the_best_straight() {
    // 2-3-4-5 + joker behind, A-K in front: the joker makes a six-high
    // straight under lowest, the (better) wheel under second_highest.
    let cards = seven("As 2d 3c 4h 5s JK Kd");
    let nevada = RuleOptions::for_profile(Profile::Nevada);
    assert_eq!(nevada.wheel, WheelRule::SecondHighest);
    for (o, name) in [
        (lucky(), "Straight, six high"),
        (nevada, "Straight, five high"),
    ] {
        let got = ReferenceHouseWay.set(&cards, &o);
        assert_eq!(got.hand.to_string(), "JK 5s 4h 3c 2d | As Kd");
        assert!(
            got.rule.contains("One pair: straight behind"),
            "{}",
            got.rule
        );
        assert_eq!(got.hand.high_rank(&o).name(), name);
    }
}

#[test]
fn a_fouling_rule_falls_back_to_a_legal_setting() {
    // Wild: rule 8 puts JK + K in front (a pair of kings) before a pair of
    // fives: a foul, so the legal setting with the best front is played.
    let got = ReferenceHouseWay.set(&seven("5s 5h Kd Qc 9s 3d JK"), &wild());
    assert!(!got.hand.is_fouled(&wild()), "{}", got.hand);
    assert!(
        got.rule.contains("would foul: played the legal setting"),
        "{}",
        got.rule
    );
    assert_eq!(got.hand.to_string(), "JK Kd Qc 9s 3d | 5h 5s");
}

/// Splitting aces that include the joker: which natural ace goes in front is
/// the best back, whatever order the cards were typed in.
/// (cards in several orders, expected high, expected low, words of the rule)
const ACE_JOKER_SPLITS: &[(&[&str], &str, &str, &str)] = &[
    (
        &[
            "Ah Ad Ac JK Kh Qh Jh",
            "Ac Ad Ah JK Kh Qh Jh",
            "JK Kh Qh Jh Ad Ah Ac",
        ],
        "Ah JK Kh Qh Jh",
        "Ad Ac",
        "Four of a kind (queens to aces): split",
    ),
    (
        &["As Ad Ac JK 9d 8d 7d", "Ac Ad As JK 9d 8d 7d"],
        "Ad JK 9d 8d 7d",
        "As Ac",
        "Four of a kind (queens to aces): split",
    ),
    (
        &[
            "Ah Ac JK 2h 3h 4h 9d",
            "Ac Ah JK 2h 3h 4h 9d",
            "9d 4h 3h 2h JK Ac Ah",
        ],
        "Ah JK 4h 3h 2h",
        "Ac 9d",
        "Three aces: split, ace in front",
    ),
    (
        &["As Ac JK Tc 8c 5c Kd", "Ac As JK Tc 8c 5c Kd"],
        "Ac JK Tc 8c 5c",
        "As Kd",
        "Three aces: split, ace in front",
    ),
    // No flush either way: the same setting whatever the order (spades,
    // hearts, diamonds, clubs first among equals).
    (
        &["Ac Ah JK 9s 7d 4c 2h", "Ah Ac JK 9s 7d 4c 2h"],
        "Ac JK 7d 4c 2h",
        "Ah 9s",
        "Three aces: split, ace in front",
    ),
];

#[test]
fn ace_and_joker_splits_keep_the_best_back_in_any_order() {
    for o in [lucky(), wild()] {
        for &(orders, high, low, rule) in ACE_JOKER_SPLITS {
            let want = SetHand::parse(high, low, &o).expect(high);
            for &cards in orders {
                let got = ReferenceHouseWay.set(&seven(cards), &o);
                assert_eq!(got.hand, want, "{cards}: got {} ({})", got.hand, got.rule);
                assert!(got.rule.contains(rule), "{cards}: {}", got.rule);
            }
        }
    }
}
