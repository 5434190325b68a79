//! Tests of `eval`: table-driven names, tie-breaks and joker uses. The
//! brute-force reference and property tests are in `eval_reference_tests.rs`.

use super::*;
use crate::cards::test_hands::{five, lucky, nevada, wild};
use crate::cards::{Card, parse_cards};

fn two(text: &str) -> [Card; 2] {
    <[Card; 2]>::try_from(parse_cards(text).expect(text).as_slice()).expect(text)
}
fn r5(text: &str, opts: &CardRules) -> HandRank {
    eval5(&five(text), opts)
}
fn r2(text: &str, opts: &CardRules) -> HandRank {
    eval2(&two(text), opts)
}

#[test]
fn names_of_every_category() {
    let cases = [
        ("As Ah Ad Ac JK", "Five aces", Category::FiveOfAKind),
        ("As Ks Qs Js Ts", "Royal flush", Category::StraightFlush),
        (
            "9h 8h 7h 6h 5h",
            "Straight flush, nine high",
            Category::StraightFlush,
        ),
        (
            "5d 4d 3d 2d Ad",
            "Straight flush, five high",
            Category::StraightFlush,
        ),
        (
            "Qs Qh Qd Qc 2s",
            "Four of a kind, queens",
            Category::FourOfAKind,
        ),
        (
            "Ks Kh Kd 4c 4s",
            "Full house, kings over fours",
            Category::FullHouse,
        ),
        ("As 9s 7s 4s 2s", "Flush, ace high", Category::Flush),
        ("Ts 9h 8d 7c 6s", "Straight, ten high", Category::Straight),
        ("Ah Kd Qc Js Th", "Straight, ace high", Category::Straight),
        ("5s 4h 3d 2c Ah", "Straight, five high", Category::Straight),
        (
            "7s 7h 7d Kc 2s",
            "Three of a kind, sevens",
            Category::ThreeOfAKind,
        ),
        (
            "As Ah Kd Kc 2s",
            "Two pair, aces and kings",
            Category::TwoPair,
        ),
        (
            "6s 6h 3d 3c 2s",
            "Two pair, sixes and threes",
            Category::TwoPair,
        ),
        ("As Ah Kd Qc 2s", "Pair of aces", Category::Pair),
        ("As Jh 9d 7c 2s", "Ace high", Category::HighCard),
        ("9s 7h 5d 4c 2s", "Nine high", Category::HighCard),
    ];
    for (text, name, cat) in cases {
        let r = r5(text, &lucky());
        assert_eq!(r.name(), name, "{text}");
        assert_eq!(r.category(), cat, "{text}");
        assert_eq!(r.to_string(), name);
    }
}

#[test]
fn category_order_is_the_rules_order() {
    let ladder = [
        "As Jh 9d 7c 2s",
        "2s 2h 4d 5c 7s",
        "3s 3h 2d 2c 4s",
        "2s 2h 2d 3c 4s",
        "5s 4h 3d 2c Ah",
        "7s 5s 4s 3s 2s",
        "2s 2h 2d 3c 3s",
        "2s 2h 2d 2c 3s",
        "5d 4d 3d 2d Ad",
        "As Ks Qs Js Ts",
        "As Ah Ad Ac JK",
    ];
    for w in ladder.windows(2) {
        assert!(
            r5(w[0], &lucky()) < r5(w[1], &lucky()),
            "{} < {}",
            w[0],
            w[1]
        );
    }
}

#[test]
fn tie_breaks_inside_each_category() {
    // (better, worse) under the default options; suits never matter.
    let better = [
        ("As Kh 9d 7c 4s", "As Kh 9d 7c 3s"),
        ("As Kh 9d 7c 4s", "Ad Qh Jd Tc 8s"),
        ("Ac Ah 5d 4c 3s", "Kc Kh Ad Qc Js"),
        ("Ac Ah Kd 7c 4s", "Ad As Qh Jd Ts"),
        ("Ac Ah Kd 7c 4s", "Ad As Kh 7d 3s"),
        ("Ac Ah 2d 2c 3s", "Kc Kh Qd Qc As"),
        ("Ac Ah 3d 3c 2s", "Ad As 2h 2d Ks"),
        ("Ac Ah Kd Kc 3s", "Ad As Kh Ks 2h"),
        ("8c 8h 8d 2c 3s", "7c 7h 7d Ac Ks"),
        ("Tc 9h 8d 7c 6s", "9c 8h 7d 6c 5s"),
        ("6c 5h 4d 3c 2s", "5c 4h 3d 2c As"),
        ("As Ks 9s 7s 4s", "Ah Qh Jh Th 8h"),
        ("As Ks 9s 7s 4s", "Ah Kh 9h 7h 3h"),
        ("Kc Kh Kd 4c 4s", "Qc Qh Qd Ac As"),
        ("9c 9h 9d 9s Ah", "9c 9h 9d 9s Kh"),
        ("Tc 9c 8c 7c 6c", "9h 8h 7h 6h 5h"),
    ];
    for (b, w) in better {
        assert!(r5(b, &lucky()) > r5(w, &lucky()), "{b} > {w}");
    }
    let equal = [
        ("As Kh 9d 7c 4s", "Ah Ks 9c 7d 4h"),
        ("Tc 9h 8d 7c 6s", "Th 9c 8s 7d 6h"),
    ];
    for (x, y) in equal {
        assert_eq!(r5(x, &lucky()), r5(y, &lucky()), "{x} = {y}");
    }
    // Under wild, kickers of trips, full houses and five of a kind also break ties.
    assert!(r5("7c 7h JK Ac Ks", &wild()) > r5("7c 7h 7d Ac Qs", &wild()));
    assert!(r5("Kc Kh JK 4c 4s", &wild()) > r5("Kc Kh Kd 3c 3s", &wild()));
    assert!(r5("As Ah Ad Ac JK", &wild()) > r5("Ks Kh Kd Kc JK", &wild()));
}

#[test]
fn wheel_option() {
    let wheel = "5s 4h 3d 2c Ah";
    let six_high = "6s 5h 4d 3c 2h";
    let king_high = "Ks Qh Jd Tc 9h";
    let ace_high = "As Kh Qd Jc Th";
    assert!(r5(wheel, &lucky()) < r5(six_high, &lucky()));
    assert!(r5(wheel, &nevada()) > r5(king_high, &nevada()));
    assert!(r5(wheel, &nevada()) < r5(ace_high, &nevada()));
    assert_eq!(r5(wheel, &nevada()).name(), "Straight, five high");
    let sf_wheel = "5d 4d 3d 2d Ad";
    assert!(r5(sf_wheel, &nevada()) > r5("Kd Qd Jd Td 9d", &nevada()));
    assert!(r5(sf_wheel, &nevada()) < r5("Ad Kd Qd Jd Td", &nevada()));
    assert!(r5(sf_wheel, &lucky()) < r5("6d 5d 4d 3d 2d", &lucky()));
    // With the joker: 2-3-4-5 + JK is a six-high straight under lowest, but
    // the wheel (the better straight) under second_highest.
    assert_eq!(r5("2s 3h 4d 5c JK", &lucky()).name(), "Straight, six high");
    assert_eq!(r5("2s 3h 4d 5c JK", &nevada()), r5(wheel, &nevada()));
    assert_eq!(
        r5("2s 3s 4s 5s JK", &nevada()).name(),
        "Straight flush, five high"
    );
    assert_eq!(
        r5("2s 3s 4s 5s JK", &lucky()).name(),
        "Straight flush, six high"
    );
}

#[test]
fn joker_completes_a_straight_at_each_position() {
    for opts in [lucky(), wild()] {
        // The joker replaces each card in turn; replacing the lowest card it
        // takes the higher end instead (the best straight).
        let n = "Straight, nine high";
        let t = "Straight, ten high";
        let a = "Straight, ace high";
        let six = "Straight, six high";
        let straights = [
            ("9s 8h 7d 6c 5s", [n, n, n, n, t]),
            ("As Kh Qd Jc Ts", [a, a, a, a, a]),
            (
                "6s 5h 4d 3c 2s",
                [six, six, six, six, "Straight, seven high"],
            ),
        ];
        for (text, names) in straights {
            let cards = five(text);
            for pos in 0..5 {
                let mut with = cards;
                with[pos] = Card::JOKER;
                assert_eq!(
                    eval5(&with, opts).name(),
                    names[pos],
                    "{text} joker at {pos}"
                );
            }
        }
        // Inside straights: the joker fills the gap.
        assert_eq!(r5("9s 8h 6d 5c JK", &opts).name(), "Straight, nine high");
        // Open-ended: the joker takes the higher end.
        assert_eq!(r5("9s 8h 7d 6c JK", &opts).name(), "Straight, ten high");
    }
    // The wheel with the joker as 2, 3 or 4 (as the ace or the five it takes
    // the six-high straight: see `wheel_option`).
    for text in ["As JK 3h 4d 5c", "As 2s JK 4d 5c", "As 2s 3h JK 5c"] {
        assert_eq!(r5(text, &lucky()).name(), "Straight, five high", "{text}");
    }
}

/// The card rules a table row is evaluated under.
type Rules = fn() -> CardRules;

/// (hand with the joker, card rules, its name).
const JOKER_NAMES: &[(&str, Rules, &str)] = &[
    // The rules file's example: A♠ 9♠ 7♠ 4♠ + joker is the flush A-K-9-7-4.
    ("A♠ 9♠ 7♠ 4♠ JK", lucky, "Flush, ace high"),
    ("Qs Js Ts 9s JK", lucky, "Straight flush, king high"),
    ("Ks Qs Js Ts JK", lucky, "Royal flush"),
    ("As Ks Qs Ts JK", lucky, "Royal flush"),
    // As an ace: pairs, trips, quads, full house, five aces.
    ("Ah Kd 7c 4s JK", lucky, "Pair of aces"),
    ("Kh Qd 7c 4s JK", lucky, "Ace high"),
    ("Ah Ad 7c 4s JK", lucky, "Three of a kind, aces"),
    ("As Ah Kd Kc JK", lucky, "Full house, aces over kings"),
    ("As Ah Ad Kc JK", lucky, "Four of a kind, aces"),
    ("Ks Kh Kd Kc JK", lucky, "Four of a kind, kings"),
    // A bug never pairs a non-ace; a wild joker does.
    ("Kh Kd 7c 4s JK", wild, "Three of a kind, kings"),
    ("Ks Kh Kd Kc JK", wild, "Five kings"),
    ("Kh Kd 7c 7s JK", wild, "Full house, kings over sevens"),
    ("Kh Qd 7c 4s JK", wild, "Pair of kings"),
];

/// (hand with the joker, the hand without it that it equals, card rules).
const JOKER_EQUALS: &[(&str, &str, Rules)] = &[
    ("A♠ 9♠ 7♠ 4♠ JK", "As Ks 9s 7s 4s", lucky),
    ("Ks 9s 7s 4s JK", "As Ks 9s 7s 4s", lucky),
    ("Kh Kd 7c 4s JK", "Kh Kd Ac 7c 4s", lucky),
    ("Kh Kd Ks 4s JK", "Kh Kd Ks As 4s", lucky),
    // Under wild a flush still beats pairing: the joker is a card not in the hand.
    ("As 9s 7s 4s JK", "As Ks 9s 7s 4s", wild),
];

#[test]
fn joker_in_a_flush_and_as_an_ace() {
    for &(text, rules, name) in JOKER_NAMES {
        assert_eq!(
            r5(text, &rules()).name(),
            name,
            "{text} under {:?}",
            rules()
        );
    }
    for &(with_joker, without, rules) in JOKER_EQUALS {
        assert_eq!(
            r5(with_joker, &rules()),
            r5(without, &rules()),
            "{with_joker} = {without} under {:?}",
            rules()
        );
    }
}

#[test]
fn five_aces_beats_a_royal_flush() {
    for opts in [lucky(), nevada(), wild()] {
        let five_aces = r5("As Ah Ad Ac JK", &opts);
        assert_eq!(five_aces.category(), Category::FiveOfAKind);
        assert!(five_aces > r5("As Ks Qs Js Ts", &opts));
        assert!(five_aces > r5("Ks Qs Js Ts JK", &opts));
    }
}

#[test]
fn two_card_hands() {
    let o = lucky();
    assert_eq!(r2("As Ad", &o).name(), "Pair of aces");
    assert_eq!(r2("JK As", &o).name(), "Pair of aces");
    assert_eq!(r2("Ah JK", &o).name(), "Pair of aces");
    assert_eq!(r2("JK Kd", &o).name(), "Ace high");
    assert_eq!(r2("JK Kd", &o), r2("As Kd", &o));
    assert_eq!(r2("JK Kd", &wild()).name(), "Pair of kings");
    assert_eq!(r2("As 3d", &o).name(), "Ace high");
    assert_eq!(r2("9c 9d", &o).name(), "Pair of nines");
    assert!(r2("2c 2d", &o) > r2("As Kd", &o));
    assert!(r2("As Kd", &o) > r2("As Qd", &o));
    assert!(r2("As 3d", &o) > r2("Ks Qd", &o));
    assert!(r2("3s 3d", &o) > r2("2s 2d", &o));
    assert_eq!(r2("Ks Qd", &o), r2("Qh Kc", &o));
}

#[test]
fn five_against_two_compares_category_pair_then_cards_in_order() {
    let o = lucky();
    // The rules file's example: K Q 7 4 2 behind A 3 is fouled.
    assert!(r5("Ks Qd 7c 4h 2s", &o) < r2("Ah 3c", &o));
    assert!(r5("As Qd 7c 4h 2s", &o) > r2("Kh Jc", &o));
    assert!(r5("As Kd 7c 4h 2s", &o) > r2("Ah Qc", &o));
    // All of the front's cards matched: a card beats no card.
    assert!(r5("As Kd 7c 4h 2s", &o) > r2("Ah Kc", &o));
    assert!(r5("As Ad 7c 4h 2s", &o) > r2("Ah JK", &o));
    assert!(r5("5s 5d 7c 4h 2s", &o) < r2("6h 6c", &o));
    assert!(r5("5s 5d 7c 4h 2s", &o) > r2("Ah Kc", &o));
}

#[test]
fn eval_any_checks_input() {
    let o = lucky();
    let cards = parse_cards("As Kd").unwrap();
    assert_eq!(eval_any(&cards, o).unwrap().name(), "Ace high");
    let three = parse_cards("As Kd Qh").unwrap();
    assert_eq!(
        eval_any(&three, o).unwrap_err().to_string(),
        "expected 5 or 2 cards, got 3"
    );
    let none = CardRules {
        joker: JokerRule::None,
        ..o
    };
    let j = parse_cards("JK Kd").unwrap();
    assert!(eval_any(&j, none).is_err());
}
