//! The table setter against the house way it was built from: a sample of
//! hands under every option here, every hand under the default options in
//! the census (release).

use super::*;
use crate::cards::seven::for_each_seven;
use crate::double_hand_poker::house_way::by_name;
use crate::double_hand_poker::options::{HouseWayName, JokerRule, WheelRule};

fn every_option() -> Vec<RuleOptions> {
    let mut all = Vec::new();
    for joker in [JokerRule::Bug, JokerRule::Wild] {
        for wheel in [WheelRule::Lowest, WheelRule::SecondHighest] {
            all.push(RuleOptions {
                joker,
                wheel,
                ..RuleOptions::default()
            });
        }
    }
    all
}

/// Hands dealt at random (a fixed xorshift), flushes included.
fn sample_hands(n: usize) -> Vec<[Card; 7]> {
    let mut x = 0x2545_F491_4F6C_DD1Du64;
    (0..n)
        .map(|_| {
            let mut hand: Vec<Card> = Vec::with_capacity(7);
            while hand.len() < 7 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let card = Card::from_index((x % 53) as u8).unwrap_or(Card::JOKER);
                if !hand.contains(&card) {
                    hand.push(card);
                }
            }
            hand.try_into().unwrap()
        })
        .collect()
}

#[test]
fn the_table_gives_each_hand_the_values_its_house_way_sets() {
    let states = RankStates::get();
    let hands = sample_hands(3_000);
    // Every house way under the default options, the reference under each
    // joker and wheel rule (a table is 292,253 settings: slow in debug).
    let cases = HouseWayName::ALL.into_iter().map(|house_way| RuleOptions {
        house_way,
        ..RuleOptions::default()
    });
    for opts in cases.chain(every_option()) {
        let way = opts.house_way().unwrap();
        let table = SetterTable::of(&opts).unwrap();
        for hand in &hands {
            let set = way.set_ranked(hand, &opts);
            let dealt = Dealt::of(states, hand);
            assert_eq!(
                table.values.get(dealt),
                Some((set.high, set.low)),
                "{} by {} under {opts:?}",
                crate::cards::format_cards(hand),
                way.name()
            );
        }
    }
}

/// Every one of the 154,143,080 hands, each shipped house way: the table
/// holds the hand's rank pattern (and flush) and its values are the house
/// way's. Run in release: `cargo test
/// --release --lib -- --ignored census`.
#[test]
#[ignore = "the census: run in release"]
fn census_the_table_sets_every_hand_as_its_house_way() {
    let opts = RuleOptions::default();
    let deck: Vec<Card> = (0..53).filter_map(Card::from_index).collect();
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get());
    for name in HouseWayName::ALL {
        let way = by_name(name).unwrap();
        let opts = RuleOptions {
            house_way: name,
            ..opts
        };
        let table = SetterTable::of(&opts).unwrap();
        let table = &*table;
        let hands: u64 = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..threads)
                .map(|t| {
                    let (deck, opts) = (&deck, &opts);
                    scope.spawn(move || {
                        let mut count = 0u64;
                        for first in (0..47).filter(|a| a % threads == t) {
                            for_each_seven(deck, first, |hand, dealt| {
                                count += 1;
                                let set = way.set_ranked(hand, opts);
                                assert_eq!(
                                    table.values.get(dealt),
                                    Some((set.high, set.low)),
                                    "{hand:?} by {}",
                                    way.name()
                                );
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
}
