use super::*;
use crate::cards::eval::Category;
use crate::cards::parse_cards;

const ALL_RULES: [EvalRules; 4] = [
    EvalRules {
        wild: false,
        wheel_high: false,
    },
    EvalRules {
        wild: false,
        wheel_high: true,
    },
    EvalRules {
        wild: true,
        wheel_high: false,
    },
    EvalRules {
        wild: true,
        wheel_high: true,
    },
];

fn seven(text: &str) -> [Card; 7] {
    parse_cards(text).unwrap().try_into().unwrap()
}

#[test]
fn the_states_are_every_rank_multiset_of_up_to_seven_cards() {
    let states = RankStates::get();
    // Known counts of rank patterns: 49,205 of seven real cards; with the
    // joker, the 18,395 patterns of six.
    assert_eq!(states.sevens().count(), 49_205 + 18_395);
    for (_, hand) in states.sevens().take(5_000) {
        let dealt = Dealt::of(states, &hand);
        assert_eq!(
            dealt.flush_lane(),
            None,
            "{}",
            crate::cards::format_cards(&hand)
        );
        let mut sorted = hand.to_vec();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), 7, "seven different cards");
    }
}

#[test]
fn a_flush_is_possible_with_five_of_a_suit_the_joker_counting_in_each() {
    let states = RankStates::get();
    let lane = |text: &str| Dealt::of(states, &seven(text)).flush_lane();
    // Rank bits: two = 0 … ace = 12, the joker 13.
    let bits = |ranks: &[u8]| Some(ranks.iter().map(|r| 1usize << r).sum());
    assert_eq!(lane("2s 5s 9s Js Ks 3h 4d"), bits(&[0, 3, 7, 9, 11]));
    assert_eq!(lane("2h 5h 9h Jh JK 3s 4d"), bits(&[0, 3, 7, 9, 13]));
    assert_eq!(lane("2c 5c 9c Jc Kc Ac 4d"), bits(&[0, 3, 7, 9, 11, 12]));
    assert_eq!(lane("2s 5s 9s Js 3h 4d 6c"), None);
    assert_eq!(lane("2s 5s 9s JK 3h 4d 6c"), None);
}

/// Every seven of a small deck heavy in one suit (flushes, straight
/// flushes, the joker in and out of them): the table's best five equals
/// the best of the 21 evaluations, under every rule set.
#[test]
fn the_table_gives_the_best_of_the_21_evaluations() {
    let deck = parse_cards("2s 3s 4s 5s 6s 9s Ts Js Qs Ks As 5h Th Ah 5d Ad 3c JK").unwrap();
    for rules in ALL_RULES {
        let table = SevenTable::get(rules);
        let mut hands = 0;
        for first in 0..deck.len() - 6 {
            for_each_seven(&deck, first, |hand, dealt| {
                hands += 1;
                assert_eq!(
                    table.best(dealt),
                    best_of_seven_by_subsets(hand, rules),
                    "{} under {rules:?}",
                    crate::cards::format_cards(hand)
                );
            });
        }
        assert_eq!(hands, 31_824, "C(18, 7)");
    }
}

#[test]
fn the_table_agrees_on_hands_dealt_from_the_whole_deck() {
    let deck: Vec<Card> = (0..53).filter_map(Card::from_index).collect();
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..20_000 {
        let mut hand = Vec::with_capacity(7);
        while hand.len() < 7 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let card = deck[(x % 53) as usize];
            if !hand.contains(&card) {
                hand.push(card);
            }
        }
        let hand: [Card; 7] = hand.try_into().unwrap();
        for rules in ALL_RULES {
            assert_eq!(
                SevenTable::get(rules).best_of(&hand),
                best_of_seven_by_subsets(&hand, rules)
            );
        }
    }
}

/// The census of the 52-card deck against the published counts of the
/// best five of seven (133,784,560 hands). Run in release:
/// `cargo test --release --lib -- --ignored census`.
#[test]
#[ignore = "the census: run in release"]
fn census_of_the_52_card_deck_gives_the_published_counts() {
    let deck: Vec<Card> = (0..52).filter_map(Card::from_index).collect();
    let rules = ALL_RULES[0];
    let counts = (0..deck.len() - 6)
        .map(|first| census_part(&deck, first, rules))
        .fold([0u64; 10], |mut all, part| {
            all.iter_mut().zip(part).for_each(|(a, b)| *a += b);
            all
        });
    let expect = [
        (Category::HighCard, 23_294_460),
        (Category::Pair, 58_627_800),
        (Category::TwoPair, 31_433_400),
        (Category::ThreeOfAKind, 6_461_620),
        (Category::Straight, 6_180_020),
        (Category::Flush, 4_047_644),
        (Category::FullHouse, 3_473_184),
        (Category::FourOfAKind, 224_848),
        (Category::StraightFlush, 41_584),
        (Category::FiveOfAKind, 0),
    ];
    for (category, n) in expect {
        assert_eq!(counts[category as usize], n, "{category}");
    }
}
