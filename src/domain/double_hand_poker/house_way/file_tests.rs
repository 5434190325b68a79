//! The house-way file format: what parses, what is refused with its line,
//! the shipped reference file setting hands exactly as the compiled
//! reference house way does, and a census part (the other shipped ways
//! are in `shipped_ways_tests.rs`).

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
            without: 0,
            at_least: Some(AtLeast::Singles(1, 2))
        }
    );
}

/// Format 2's `without`: read with the other words of a straight or
/// flush, and refused — its line, the words and why — in a format 1 file
/// and where it cannot apply.
#[test]
fn without_keeps_named_ranks_out_of_the_back_in_a_format_2_file_only() {
    let rule =
        |when: &str, play: &str| format!("house-way 2\nname x\nwhen {when}\nplay {play}\nsay x\n");
    let way = HouseWayFile::parse(&rule(
        "one pair",
        "straight or flush with pair in front without K if front at least singles 1 2",
    ))
    .unwrap();
    assert_eq!(way.version, 2);
    assert_eq!(
        way.rules[0].play,
        Play::StraightOrFlush {
            pair_front: true,
            without: 1 << 11,
            at_least: Some(AtLeast::Singles(1, 2))
        }
    );
    let two = HouseWayFile::parse(&rule("no pair", "straight or flush without A K")).unwrap();
    assert!(
        matches!(two.rules[0].play, Play::StraightOrFlush { without, .. } if without == 0x1800)
    );
    let cases: [(String, &str, &str); 7] = [
        (
            rule("one pair", "straight or flush without A").replace("house-way 2", "house-way 1"),
            "\"without\" is a house-way 2 word: this file starts \"house-way 1\"",
            "without A",
        ),
        (
            rule("one pair", "straight or flush without Z"),
            "one or two different ranks",
            "without Z",
        ),
        (
            rule("one pair", "straight or flush without A A"),
            "one or two different ranks",
            "without A A",
        ),
        (
            rule("one pair", "straight or flush without"),
            "one or two different ranks",
            "without",
        ),
        (
            rule(
                "one pair",
                "straight or flush with pair in front without A K",
            ),
            "two ranks are not a pair",
            "without A K",
        ),
        (
            rule("five aces", "straight or flush without A"),
            "cannot apply to this rule's hand",
            "without A",
        ),
        (
            rule("three of a kind 7", "straight or flush without 7"),
            "holds three or more of that rank",
            "without 7",
        ),
    ];
    for (text, why, found) in cases {
        let e = refused(&text);
        assert_eq!(e.line, 4, "{text}: {e}");
        assert!(e.message.contains(why), "{text}: {e}");
        assert_eq!(e.found, found, "{text}: {e}");
    }
    // A format 1 file without the word keeps its meaning under format 2.
    let v1 = shipped("foxwoods").unwrap();
    assert_eq!(v1.version, 1);
    let v2 = HouseWayFile::parse(
        &super::super::SHIPPED[1]
            .1
            .replace("house-way 1", "house-way 2"),
    )
    .unwrap();
    assert_eq!(v2.rules, v1.rules);
}

fn refused(text: &str) -> FileError {
    HouseWayFile::parse(text).unwrap_err()
}

#[test]
fn a_file_that_does_not_parse_names_the_line_and_what_was_expected() {
    let head = "house-way 1\nname x\n";
    let cases: [(&str, usize, &str); 10] = [
        ("", 0, "empty"),
        (
            "house way 2\n",
            1,
            "expected \"house-way 1\" or \"house-way 2\" first",
        ),
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
