//! The house-way file format: what parses, what is refused with its line,
//! and the shipped reference file setting hands exactly as the compiled
//! reference house way does.

use proptest::prelude::*;

use super::super::{HouseWay, ReferenceHouseWay, shipped};
use super::*;
use crate::cards::Card;
use crate::double_hand_poker::options::{JokerRule, RuleOptions, WheelRule};

fn reference() -> HouseWayFile {
    shipped("reference").unwrap()
}

#[test]
fn the_reference_file_parses_into_its_rules() {
    let way = reference();
    assert_eq!(way.name, "reference");
    assert_eq!(way.rules.len(), 21);
    assert_eq!(way.rules[0].hand, HandClass::FiveAces);
    assert_eq!(
        way.rules[0].conditions,
        vec![Condition::Pair(Ranks { low: 11, high: 11 })]
    );
    assert_eq!(way.rules[0].play, Play::FrontPair(FrontPair::Rank(11)));
    assert_eq!(
        way.rules[3].hand,
        HandClass::FourOfAKind(Ranks { low: 0, high: 4 })
    );
    assert_eq!(
        way.rules[15].play,
        Play::StraightOrFlush {
            pair_front: false,
            at_least: Some(AtLeast::Singles(1, 2))
        }
    );
}

fn refused(text: &str) -> FileError {
    HouseWayFile::parse(text).unwrap_err()
}

#[test]
fn a_file_that_does_not_parse_names_the_line_and_what_was_expected() {
    let head = "house-way 1\nname x\n";
    let cases: [(&str, usize, &str); 10] = [
        ("", 0, "empty"),
        ("house way 2\n", 1, "expected \"house-way 1\" first"),
        (
            "house-way 1\nwhen no pair\nplay front singles 2 3\nsay x\n",
            0,
            "names no house way",
        ),
        ("house-way 1\nname x\n", 0, "has no rules"),
        ("house-way 1\nname x y\nwhen no pair\n", 2, "a name is"),
        ("when five jacks\n", 3, "expected what the hand holds"),
        ("when no pair, pair Z\n", 3, "expected a condition"),
        ("when no pair\nplay front triple\n", 4, "expected a play"),
        (
            "when no pair\nplay front singles 2 3\n",
            3,
            "no \"say\" line",
        ),
        ("play front best\n", 3, "must follow a \"when\""),
    ];
    for (body, line, message) in cases {
        let text = if body.starts_with("house") || body.is_empty() {
            body.to_string()
        } else {
            format!("{head}{body}")
        };
        let e = refused(&text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        assert!(e.to_string().contains(message), "{text:?}: {e}");
    }
    let e = refused("house-way 1\nname x\nwhen no pair\nplay front singles 3 2\nsay x\n");
    assert_eq!((e.line, e.found.as_str()), (4, "front singles 3 2"));
    let e = refused(&"#".repeat(FILE_BYTES_MAX + 1));
    assert!(e.to_string().contains("larger than"), "{e}");
}

#[test]
fn comments_blank_lines_ten_and_ranges_are_read() {
    let way = HouseWayFile::parse(
        "  house-way 1   # the format\n\nname Mine\ntitle T\nsource a\nsource b\n\
         when three of a kind 10-K, no joker  # trips\nplay front singles 1 2\nsay kept\n",
    )
    .unwrap();
    assert_eq!(way.name, "mine");
    assert_eq!(way.sources, ["a", "b"]);
    assert_eq!(way.rules[0].line, 7);
    assert_eq!(
        way.rules[0].hand,
        HandClass::ThreeOfAKind(Ranks { low: 8, high: 11 })
    );
    assert_eq!(way.rules[0].conditions, vec![Condition::NoJoker]);
}

fn options(wild: bool, second_highest: bool) -> RuleOptions {
    RuleOptions {
        joker: if wild {
            JokerRule::Wild
        } else {
            JokerRule::Bug
        },
        wheel: if second_highest {
            WheelRule::SecondHighest
        } else {
            WheelRule::Lowest
        },
        ..RuleOptions::default()
    }
}

/// Hands where the rules' exceptions and the joker's choices decide.
const EXAMPLES: [&str; 16] = [
    "Ah Ad Ac JK Kh Ks Jh",
    "Ah Ad Ac As JK Qh Jh",
    "9s 9h 9d 9c JK Qd 4c",
    "9s 9h 9d 9c Ad Qd 4c",
    "9s 9h 9d 9c 8d Qd 4c",
    "As Ah Ad JK Kh Qh Jh",
    "Ks Kh Kd 4c 4s 4d 2c",
    "Ks Kh Kd 2c 2s Ad Kc",
    "Ts Th Kd 2c 2s Ad 9c",
    "5s 5h 6d 7c 8s 9d JK",
    "Ah Ac JK 2h 3h 4h 9d",
    "As 2d 3c 4h 5s JK Kd",
    "5s 5h Kd Qc 9s 3d JK",
    "7h 7d 7s 8h 9h Th Jh",
    "2h 4h 6h 8h Th Qc Kd",
    "Ac Kd 9s 7h 5c 3d 2h",
];

#[test]
fn the_reference_file_sets_the_examples_as_the_compiled_reference() {
    let way = reference();
    for text in EXAMPLES {
        let cards: [Card; 7] = crate::cards::test_hands::seven(text);
        for (w, n) in [(false, false), (true, false), (false, true), (true, true)] {
            let o = options(w, n);
            assert_eq!(
                way.set(&cards, &o),
                ReferenceHouseWay.set(&cards, &o),
                "{text}"
            );
            assert!(way.rule_for(&cards, &o).is_some(), "{text}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]
    /// Any seven cards, any options: the file's setting and words are the
    /// compiled reference's (the census test does every hand).
    #[test]
    fn the_reference_file_sets_any_hand_as_the_compiled_reference(
        v in proptest::sample::subsequence((0u8..=52).collect::<Vec<_>>(), 7).prop_shuffle(),
        w in any::<bool>(),
        n in any::<bool>(),
    ) {
        let cards: [Card; 7] = std::array::from_fn(|i| Card::from_index(v[i]).unwrap_or(Card::JOKER));
        let o = options(w, n);
        prop_assert_eq!(reference().set(&cards, &o), ReferenceHouseWay.set(&cards, &o));
    }
}

/// Every one of the 154,143,080 seven-card hands, on every CPU: the
/// reference file sets each exactly as the compiled reference. Slow in a
/// debug build; `.ci/run` runs it in release (`cargo test --release --lib
/// -- --ignored census`).
#[test]
#[ignore = "the census: run in release"]
fn census_the_reference_file_sets_every_hand_as_the_compiled_reference() {
    let way = reference();
    let o = RuleOptions::default();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    let hands: u64 = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let way = &way;
                let o = &o;
                scope.spawn(move || {
                    let mut count = 0u64;
                    // Hands by their lowest card, shared out round-robin.
                    for a in (0..47u8).filter(|a| usize::from(*a) % threads == t) {
                        super::super::census::for_each_hand_from(a, 53, &mut |cards| {
                            let got = way.set(cards, o);
                            let want = ReferenceHouseWay.set(cards, o);
                            assert_eq!(got, want, "{cards:?}");
                            count += 1;
                        });
                    }
                    count
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).sum()
    });
    assert_eq!(hands, 154_143_080);
}

#[test]
fn every_shipped_house_way_parses_under_its_own_name() {
    for (name, text) in super::super::SHIPPED {
        let way = HouseWayFile::parse(text).unwrap();
        assert_eq!(way.name, name);
        assert!(!way.sources.is_empty(), "{name} cites its source");
    }
}

/// The Foxwoods way's rules, one hand each (the source states rules, not
/// hands): the front it plays and the rule's words.
#[test]
fn the_foxwoods_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("foxwoods").unwrap();
    let cases = [
        ("Ah Ad Ac As JK Kh Ks", "Kh Ks", "kings in front"),
        ("Ah Ad Ac As JK Qh Qs", "As Ah", "pair of aces in front"),
        (
            "9s 9h 9d 9c Kd 5c 2h",
            "Kd 5c",
            "with a king or better: kept together",
        ),
        ("9s 9h 9d 9c Qd 5c 2h", "9s 9h", "(7s to 10s): split"),
        ("Js Jh Jd Jc Ad 5c 2h", "Js Jh", "always split"),
        ("5s 5h 5d 5c Ad Kc 2h", "Ad Kc", "never split"),
        (
            "Ts Th 4d 4c Ad 8c 2h",
            "Ad 8c",
            "both pairs behind, ace in front",
        ),
        (
            "6s 6h 4d 4c Kd 8c 2h",
            "Kd 8c",
            "with a king or better: both pairs behind",
        ),
        ("6s 6h 4d 4c Qd 8c 2h", "4d 4c", "small pair in front"),
        ("Ks Kh Qd Qc 3d 3c 2h", "Ks Kh", "highest pair in front"),
        (
            "As Ah Ad 9c 7d 4c 2h",
            "As 9c",
            "an ace and the next highest",
        ),
        (
            "7h 7d 7s 8h 9h Th Jh",
            "7s 7d",
            "straight flush behind, pair in front",
        ),
        ("Ks Kh Ad Qc Jh Th 3d", "Ad Qc", "pair behind, ace in front"),
        (
            "5s 5h 6d 7c 8s 9d Kc",
            "Kc 5s",
            "straight behind, highest front",
        ),
        ("Ac Kd 9s 7h 5c 3d 2h", "Kd 9s", "second and third highest"),
    ];
    sets_as_said(&way, &cases);
}

/// Sets each hand of `cases` by `way`: the front it plays (any order) and
/// words its rule says.
fn sets_as_said(way: &HouseWayFile, cases: &[(&str, &str, &str)]) {
    let o = RuleOptions::default();
    for (text, front, words) in cases {
        let cards: [Card; 7] = crate::cards::test_hands::seven(text);
        let got = way.set(&cards, &o);
        let mut want: Vec<Card> = crate::cards::parse_cards(front).unwrap();
        let mut low = got.hand.low.to_vec();
        want.sort();
        low.sort();
        assert_eq!(low, want, "{text}: {} ({})", got.hand, got.rule);
        assert!(got.rule.contains(words), "{text}: {}", got.rule);
    }
}

/// Every house way a table can name is shipped under that name, its
/// name the same in JSON, and `by_name` gives it.
#[test]
fn every_house_way_a_table_names_is_shipped_under_its_name() {
    use crate::double_hand_poker::options::HouseWayName;
    let shipped: Vec<&str> = super::super::SHIPPED.iter().map(|(n, _)| *n).collect();
    for w in HouseWayName::ALL {
        assert_eq!(
            serde_json::to_value(w).unwrap(),
            serde_json::Value::String(w.name().to_string())
        );
        assert!(shipped.contains(&w.name()), "{} is shipped", w.name());
        assert_eq!(super::super::by_name(w).unwrap().name(), w.name());
    }
    assert_eq!(HouseWayName::ALL.len(), super::super::SHIPPED.len());
}

/// The Atlantic City way (Bally's, the Trump Plaza two-pair rule): a hand
/// for each rule and each two-pair case of the source, and the straight
/// exception with an ace and the joker (the source gives rules, not hands).
#[test]
fn the_atlantic_city_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("atlantic-city").unwrap();
    sets_as_said(
        &way,
        &[
            // Not in the source as read: pitbook's reference rules.
            ("Ah Ad Ac As JK Kh Ks", "Kh Ks", "kings in front (pitbook's"),
            (
                "Ah Ad Ac As JK Qh Qs",
                "As Ah",
                "pair of aces in front (pitbook's",
            ),
            ("9s 9h 9d 9c 4d 4c 2h", "4d 4c", "and a pair: pair in front"),
            ("5s 5h 5d 5c Ad Kc 2h", "Ad Kc", "(2s to 6s): kept together"),
            (
                "Js Jh Jd Jc Ad 5c 2h",
                "Ad 5c",
                "with an ace: kept together",
            ),
            ("9s 9h 9d 9c Kd 5c 2h", "9s 9h", "(7s to jacks): split"),
            ("Ks Kh Kd Kc Ad 5c 2h", "Ks Kh", "(queens to aces): split"),
            // The source's rules.
            (
                "9s 9h 9d 5s 5h 5d Kc",
                "9s 9h",
                "pair from the higher in front",
            ),
            ("Ts Th Td 4s 4h As 2c", "4s 4h", "Full house: split"),
            ("Ts Th Td 2s 2h As Kc", "2s 2h", "Full house: split"),
            ("Ks Kh 8d 8c 3d 3c 2h", "Ks Kh", "Three pair: highest pair"),
            // Two pair: low-low and low-middle kept with a king or an ace.
            (
                "6s 6h 4d 4c Kd 8c 2h",
                "Kd 8c",
                "with a king or ace: both pairs",
            ),
            (
                "9s 9h 4d 4c Ad 8c 2h",
                "Ad 8c",
                "with a king or ace: both pairs",
            ),
            (
                "9s 9h 4d 4c Qd 8c 2h",
                "4d 4c",
                "split, lower pair in front",
            ),
            // Low-high and middle-middle kept with an ace only.
            ("Qs Qh 4d 4c Ad 8c 2h", "Ad 8c", "a high pair) with an ace"),
            (
                "Qs Qh 4d 4c Kd 8c 2h",
                "4d 4c",
                "split, lower pair in front",
            ),
            ("Ts Th 7d 7c JK 8c 2h", "JK 8c", "(both middle) with an ace"),
            (
                "Ts Th 7d 7c Kd 8c 2h",
                "7d 7c",
                "split, lower pair in front",
            ),
            // Middle-high, high-high and aces with any pair: always split.
            (
                "Js Jh 7d 7c Ad 8c 2h",
                "7d 7c",
                "split, lower pair in front",
            ),
            (
                "Ks Kh Qd Qc Ad 8c 2h",
                "Qd Qc",
                "split, lower pair in front",
            ),
            (
                "As Ah 3d 3c Kd 8c 2h",
                "3d 3c",
                "split, lower pair in front",
            ),
            // Three of a kind.
            (
                "7h 7d 7s 8h 9h Th Jh",
                "7s 7d",
                "straight flush behind, pair in front",
            ),
            (
                "As Ah Ad 9c 7d 4c 2h",
                "As 9c",
                "Three aces: pair of aces behind",
            ),
            (
                "7s 7h 7d Kc 9d 4c 2h",
                "Kc 9d",
                "Three of a kind: kept behind",
            ),
            // One pair: in front when a straight or flush stays behind.
            (
                "Ks Kh 5d 6c 7s 8d 9c",
                "Ks Kh",
                "straight behind, pair in front",
            ),
            ("5s 5h 6d 7c 8s 9d Kc", "Kc 9d", "One pair: pair behind"),
            // An ace-high straight with an ace and the joker: aces behind;
            // a lower straight without them is played, the aces in front.
            ("Ah JK Kd Qc Jh 5s 3d", "Kd Qc", "One pair: pair behind"),
            (
                "Ah JK Kd Qc Jh Ts 9d",
                "Ah JK",
                "straight behind, pair in front",
            ),
            // No pair.
            ("Ac Kd 8s 7h 6c 5d 4h", "Ac Kd", "No pair: straight behind"),
            ("Ac Kd 9s 7h 5c 3d 2h", "Kd 9s", "second and third highest"),
        ],
    );
}

/// The Gold Star dealer school's way: a hand for each of its rules, and
/// the two-pair rule it was given (the source gives rules, not hands).
#[test]
fn the_gold_star_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("gold-star").unwrap();
    sets_as_said(
        &way,
        &[
            (
                "Ah Ad Ac As JK Kh Ks",
                "Kh Ks",
                "five aces behind, kings in front",
            ),
            (
                "Ah Ad Ac As JK Qh Qs",
                "As Ah",
                "three aces behind, two in front",
            ),
            ("9s 9h 9d 9c 4d 4c 2h", "4d 4c", "a pair in front"),
            ("9s 9h 9d 9c 4d 4c 4h", "4d 4h", "a pair in front"),
            ("5s 5h 5d 5c Ad Kc 2h", "Ad Kc", "always kept together"),
            (
                "9s 9h 9d 9c Ad 5c 2h",
                "Ad 5c",
                "ace to play in front: kept together",
            ),
            ("9s 9h 9d 9c Kd 5c 2h", "9s 9h", "(7s to 10s): split"),
            (
                "Js Jh Jd Jc Ad 5c 2h",
                "Js Jh",
                "(jacks to aces): always split",
            ),
            (
                "9s 9h 9d 5s 5h 5d Kc",
                "9s 9h",
                "pair from the higher in front",
            ),
            (
                "Ts Th Td 2s 2h As Kc",
                "As Kc",
                "kept together, A-K in front",
            ),
            (
                "Ts Th Td 2s 2h As Qc",
                "2s 2h",
                "Full house: three of a kind behind",
            ),
            (
                "Ts Th Td 8s 8h 4s 4c",
                "8s 8h",
                "Full house: three of a kind behind",
            ),
            ("Ks Kh 8d 8c 3d 3c 2h", "Ks Kh", "Three pair: highest pair"),
            (
                "6s 6h 4d 4c Kd 8c 2h",
                "Kd 8c",
                "both pairs behind (typical",
            ),
            (
                "Qs Qh 4d 4c Ad 8c 2h",
                "Ad 8c",
                "both pairs behind (typical",
            ),
            (
                "Ts Th 7d 7c Ad 8c 2h",
                "Ad 8c",
                "both pairs behind (typical",
            ),
            (
                "Js Jh 7d 7c Ad 8c 2h",
                "7d 7c",
                "split, lower pair in front (typical",
            ),
            ("As Ah Ad 9c 7d 4c 2h", "As 9c", "Three aces: split"),
            (
                "7s 7h 7d Kc 9d 4c 2h",
                "Kc 9d",
                "Three of a kind: kept behind",
            ),
            // No rule for three of a kind with a straight flush: kept behind.
            (
                "7h 7d 7s 8h 9h Th Jh",
                "Jh Th",
                "Three of a kind: kept behind",
            ),
            // A pair of 10s or better and an ace: pair/ace, straight or not.
            (
                "Ks Kh Ad Qc Jh Th 3d",
                "Ad Qc",
                "(10s or better) with an ace",
            ),
            (
                "Ks Kh 5d 6c 7s 8d 9c",
                "Ks Kh",
                "straight behind, pair in front",
            ),
            ("5s 5h 6d 7c 8s 9d Kc", "Kc 9d", "One pair: pair behind"),
            ("Ac Kd 8s 7h 6c 5d 4h", "Ac Kd", "No pair: straight behind"),
            ("Ac Kd 9s 7h 5c 3d 2h", "Kd 9s", "next two highest in front"),
        ],
    );
}

/// One part of the census (the hands whose lowest card is the 41st):
/// a way of one rule leaves the paired hands unset, with examples; the
/// reference sets them all; two ways' differences are counted.
#[test]
fn a_census_part_counts_rules_unset_hands_and_differences() {
    use super::super::census::{EXAMPLES_MAX, check_part, diff_part};
    let o = RuleOptions::default();
    let only_no_pair = HouseWayFile::parse(
        "house-way 1\nname n\nwhen no pair\nplay front singles 2 3\nsay no pair\n",
    )
    .unwrap();
    let part = check_part(&only_no_pair, &o, 40);
    assert_eq!(part.hands, 924, "C(12, 6)");
    assert_eq!(part.by_rule[0] + part.unset, 924);
    assert!(part.unset > 0 && part.fouled == 0);
    assert_eq!(part.examples.len(), EXAMPLES_MAX);
    assert!(part.examples[0].what.contains("no rule sets it"));

    let full = check_part(&reference(), &o, 40);
    assert_eq!((full.unset, full.fouled), (0, 0));
    assert_eq!(full.by_rule.iter().sum::<u64>(), 924);

    let same = diff_part(&reference(), &ReferenceHouseWay, &o, 40);
    assert_eq!((same.hands, same.different), (924, 0));
    // From the first jack: four jacks with an ace, for one, are kept
    // together by the reference and always split at Foxwoods.
    let fox = shipped("foxwoods").unwrap();
    let jacks = diff_part(&reference(), &fox, &o, 36);
    assert_eq!(jacks.hands, 8008, "C(16, 6)");
    assert!(jacks.different > 0);
    assert!(jacks.examples.iter().all(|(_, a, b)| a.hand != b.hand));
}
