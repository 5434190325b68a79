//! Properties of the reference house way: every order of a hand gives one
//! setting, it never fouls and it uses the seven cards, on many random and
//! generated hands.

use proptest::prelude::*;

use super::*;
use crate::cards::parse_cards;
use crate::cards::test_hands::seven;
use crate::double_hand_poker::options::{JokerRule, Profile, WheelRule};
use crate::double_hand_poker::test_options::{lucky, wild};

/// Every one of the 5,040 orders of a hand gives one setting and one rule.
#[test]
fn every_order_of_the_examples_gives_one_setting() {
    let hands = [
        "Ah Ad Ac JK Kh Qh Jh",
        "Ah Ac JK 2h 3h 4h 9d",
        "9s 9h 9d 9c JK Qd 4c",
        "5s 5h Kd Qc 9s 3d JK",
        "Ks Kh Kd 4c 4s 4d 2c",
        "As 2d 3c 4h 5s JK Kd",
    ];
    for o in [lucky(), wild()] {
        for text in hands {
            let cards = seven(text);
            let want = ReferenceHouseWay.set(&cards, &o);
            let mut perm = cards;
            for_each_permutation(&mut perm, 7, &mut |p| {
                assert_eq!(ReferenceHouseWay.set(p, &o), want, "{p:?} vs {text}");
            });
        }
    }
}

/// Heap's algorithm over the first `k` cards.
fn for_each_permutation(cards: &mut [Card; 7], k: usize, f: &mut dyn FnMut(&[Card; 7])) {
    if k <= 1 {
        f(cards);
        return;
    }
    for i in 0..k - 1 {
        for_each_permutation(cards, k - 1, f);
        cards.swap(if k.is_multiple_of(2) { i } else { 0 }, k - 1);
    }
    for_each_permutation(cards, k - 1, f);
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn check(cards: &[Card; 7], o: &RuleOptions) -> Result<(), TestCaseError> {
    let got = ReferenceHouseWay.set(cards, o);
    prop_assert!(
        !got.hand.is_fouled(o),
        "{:?} -> {} ({})",
        cards,
        got.hand,
        got.rule
    );
    let mut used = got.hand.cards();
    used.sort();
    let mut want = *cards;
    want.sort();
    prop_assert_eq!(used, want);
    prop_assert!(!got.rule.is_empty());
    Ok(())
}

#[test]
fn never_fouls_on_many_random_hands() {
    let deck: Vec<Card> = Card::deck().collect();
    let opts = [
        lucky(),
        wild(),
        RuleOptions::for_profile(Profile::Nevada),
        RuleOptions {
            joker: JokerRule::Wild,
            ..RuleOptions::for_profile(Profile::Nevada)
        },
    ];
    let mut s = 7u64;
    for n in 0..40_000 {
        let mut d = deck.clone();
        let cards: [Card; 7] = std::array::from_fn(|_| {
            let i = (xorshift(&mut s) % d.len() as u64) as usize;
            d.swap_remove(i)
        });
        check(&cards, &opts[n % 4]).unwrap();
    }
}

proptest! {
    #[test]
    fn house_way_never_fouls_and_uses_the_seven_cards(
        v in proptest::sample::subsequence((0u8..=52).collect::<Vec<_>>(), 7).prop_shuffle(),
        w in any::<bool>(),
        n in any::<bool>(),
    ) {
        let cards: [Card; 7] = std::array::from_fn(|i| Card::from_index(v[i]).unwrap_or(Card::JOKER));
        let o = RuleOptions {
            joker: if w { JokerRule::Wild } else { JokerRule::Bug },
            wheel: if n { WheelRule::SecondHighest } else { WheelRule::Lowest },
            ..RuleOptions::default()
        };
        check(&cards, &o)?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]
    /// The same seven cards in any order: the same setting (the same cards
    /// behind and in front) and the same rule.
    #[test]
    fn house_way_does_not_depend_on_the_order_of_the_cards(
        v in proptest::sample::subsequence((0u8..=52).collect::<Vec<_>>(), 7).prop_shuffle(),
        order in Just((0usize..7).collect::<Vec<_>>()).prop_shuffle(),
        w in any::<bool>(),
        n in any::<bool>(),
    ) {
        let cards: [Card; 7] = std::array::from_fn(|i| Card::from_index(v[i]).unwrap_or(Card::JOKER));
        let permuted: [Card; 7] = std::array::from_fn(|i| cards[order[i]]);
        let o = RuleOptions {
            joker: if w { JokerRule::Wild } else { JokerRule::Bug },
            wheel: if n { WheelRule::SecondHighest } else { WheelRule::Lowest },
            ..RuleOptions::default()
        };
        prop_assert_eq!(ReferenceHouseWay.set(&cards, &o), ReferenceHouseWay.set(&permuted, &o));
    }
}

/// Aces, the joker and a suit's straight cards: the hands where which ace
/// stays behind with the joker decides a flush or a straight flush.
const ACE_JOKER_POOL: &str = "As Ah Ad Ac JK Kh Qh Jh Th 2h 3h 4h 5h 9d Kd 8d";

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]
    #[test]
    fn ace_and_joker_hands_do_not_depend_on_the_order_of_the_cards(
        v in proptest::sample::subsequence((0usize..16).collect::<Vec<_>>(), 7).prop_shuffle(),
        order in Just((0usize..7).collect::<Vec<_>>()).prop_shuffle(),
        w in any::<bool>(),
    ) {
        let pool = parse_cards(ACE_JOKER_POOL).unwrap();
        let cards: [Card; 7] = std::array::from_fn(|i| pool[v[i]]);
        let permuted: [Card; 7] = std::array::from_fn(|i| cards[order[i]]);
        let o = if w { wild() } else { lucky() };
        prop_assert_eq!(ReferenceHouseWay.set(&cards, &o), ReferenceHouseWay.set(&permuted, &o));
        check(&cards, &o)?;
    }
}
