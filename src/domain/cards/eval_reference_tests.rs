//! Tests of `eval` against an independent, obviously-correct brute-force
//! reference (and against rs_poker), plus property tests.

use std::cmp::Ordering;

use proptest::prelude::*;

use super::*;
use crate::cards::Card;
use crate::cards::test_hands::{five, lucky, nevada, wild};

/// (category, tie-break keys in half-rank units), compared lexicographically.
type RefValue = (u8, Vec<u8>);

fn reference(cards: &[(u8, Option<u8>); 5], wheel_high: bool) -> RefValue {
    let mut counts = [0u8; 13];
    for &(r, _) in cards {
        counts[r as usize] += 1;
    }
    let mut groups: Vec<(u8, u8)> = (0..13u8)
        .filter(|&r| counts[r as usize] > 0)
        .map(|r| (counts[r as usize], r))
        .collect();
    groups.sort_unstable_by(|x, y| y.cmp(x));
    let keys: Vec<u8> = groups.iter().map(|g| g.1 * 2).collect();
    let flush = cards.iter().all(|c| c.1.is_some() && c.1 == cards[0].1);
    let straight = if groups.len() == 5 && groups[0].1 - groups[4].1 == 4 {
        Some(groups[0].1 * 2)
    } else if keys == [24, 6, 4, 2, 0] {
        Some(if wheel_high { 23 } else { 6 })
    } else {
        None
    };
    let shape: Vec<u8> = groups.iter().map(|g| g.0).collect();
    match (shape.as_slice(), straight, flush) {
        ([5], _, _) => (9, keys),
        (_, Some(s), true) => (8, vec![s]),
        ([4, 1], _, _) => (7, keys),
        ([3, 2], _, _) => (6, keys),
        (_, None, true) => (5, keys),
        (_, Some(s), false) => (4, vec![s]),
        ([3, 1, 1], _, _) => (3, keys),
        ([2, 2, 1], _, _) => (2, keys),
        ([2, 1, 1, 1], _, _) => (1, keys),
        _ => (0, keys),
    }
}

/// The best reading of the joker by brute force over the 52 cards.
fn reference_any(hand: &[Card; 5], o: &CardRules) -> RefValue {
    let wh = o.wheel == WheelRule::SecondHighest;
    let real: Vec<Card> = hand.iter().copied().filter(|c| !c.is_joker()).collect();
    let as_pair = |c: Card| (c.index() >> 2, Some(c.index() & 3));
    if real.len() == 5 {
        let cs: [(u8, Option<u8>); 5] = std::array::from_fn(|i| as_pair(real[i]));
        return reference(&cs, wh);
    }
    let mut best = (0, vec![]);
    for sub in Card::deck().filter(|c| !c.is_joker()) {
        let dup = real.contains(&sub);
        let mut cs: [(u8, Option<u8>); 5] = std::array::from_fn(|i| {
            if i < 4 {
                as_pair(real[i])
            } else {
                as_pair(sub)
            }
        });
        if dup {
            cs[4].1 = None;
        }
        let v = reference(&cs, wh);
        let allowed = o.joker == JokerRule::Wild
            || sub.index() >> 2 == 12
            || (!dup && matches!(v.0, 4 | 5 | 8));
        if allowed && v > best {
            best = v;
        }
    }
    best
}

fn xorshift(state: &mut u64) -> u64 {
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    *state
}

fn random_hand(state: &mut u64, with_joker: bool) -> [Card; 5] {
    let mut deck: Vec<Card> = Card::deck().filter(|c| !c.is_joker()).collect();
    let mut out = [Card::JOKER; 5];
    let take = if with_joker { 4 } else { 5 };
    for slot in out.iter_mut().take(take) {
        let i = (xorshift(state) % deck.len() as u64) as usize;
        *slot = deck.swap_remove(i);
    }
    let p = (xorshift(state) % 5) as usize;
    out.swap(4, p);
    out
}

fn check_against_reference(opts: &CardRules, with_joker: bool, n: usize, seed: u64) {
    let mut s = seed;
    let mut rows: Vec<(RefValue, HandRank, [Card; 5])> = (0..n)
        .map(|_| {
            let h = random_hand(&mut s, with_joker);
            (reference_any(&h, opts), eval5(&h, opts), h)
        })
        .collect();
    // Plus every category, so rare ones are compared too.
    for text in [
        "As Ah Ad Ac JK",
        "5d 4d 3d 2d Ad",
        "As Ks Qs Js Ts",
        "9c 9h 9d 9s Ah",
    ] {
        let h = five(text);
        rows.push((reference_any(&h, opts), eval5(&h, opts), h));
    }
    rows.sort_by(|x, y| x.0.cmp(&y.0));
    for w in rows.windows(2) {
        let want = w[0].0.cmp(&w[1].0);
        let got = w[0].1.cmp(&w[1].1);
        assert_eq!(got, want, "{:?} vs {:?} ({:?})", w[0].2, w[1].2, opts.joker);
        assert_eq!(w[0].1.category() as u8, w[0].0.0, "{:?}", w[0].2);
    }
}

#[test]
fn matches_the_brute_force_reference() {
    for (i, opts) in [
        lucky(),
        nevada(),
        wild(),
        CardRules {
            joker: JokerRule::Wild,
            ..nevada()
        },
    ]
    .iter()
    .enumerate()
    {
        check_against_reference(opts, false, 20_000, 0x9E37_79B9 + i as u64);
        check_against_reference(opts, true, 20_000, 0x1234_5678 + i as u64);
    }
}

#[test]
fn agrees_with_rs_poker_on_joker_free_hands() {
    use rs_poker::core::{Card as RsCard, Rankable, Suit as RsSuit, Value};
    let to_rs = |c: Card| {
        RsCard::new(
            Value::from_u8(c.index() >> 2),
            RsSuit::from_u8(c.index() & 3),
        )
    };
    let mut s = 42u64;
    let mut rows: Vec<(rs_poker::core::Rank, HandRank)> = (0..20_000)
        .map(|_| {
            let h = random_hand(&mut s, false);
            let rs: Vec<RsCard> = h.iter().map(|&c| to_rs(c)).collect();
            (rs.rank_five(), eval5(&h, lucky()))
        })
        .collect();
    rows.sort_by_key(|x| x.0);
    for w in rows.windows(2) {
        assert_eq!(w[0].1.cmp(&w[1].1), w[0].0.cmp(&w[1].0), "{w:?}");
    }
}

fn any_hand() -> impl Strategy<Value = [Card; 5]> {
    proptest::sample::subsequence((0u8..=52).collect::<Vec<_>>(), 5)
        .prop_shuffle()
        .prop_map(|v| std::array::from_fn(|i| Card::from_index(v[i]).unwrap_or(Card::JOKER)))
}

fn any_options() -> impl Strategy<Value = CardRules> {
    (any::<bool>(), any::<bool>()).prop_map(|(w, n)| CardRules {
        joker: if w { JokerRule::Wild } else { JokerRule::Bug },
        wheel: if n {
            WheelRule::SecondHighest
        } else {
            WheelRule::Lowest
        },
    })
}

proptest! {
    #[test]
    fn evaluation_ignores_card_order(h in any_hand(), o in any_options(), k in 0usize..120) {
        let mut p = h;
        // The k-th permutation (Lehmer code) of the five cards.
        let mut k = k;
        for i in (1..5).rev() {
            p.swap(i, k % (i + 1));
            k /= i + 1;
        }
        prop_assert_eq!(eval5(&h, o), eval5(&p, o));
        prop_assert_eq!(eval2(&[h[0], h[1]], o), eval2(&[h[1], h[0]], o));
    }

    #[test]
    fn ranking_is_consistent_with_category_order(a in any_hand(), b in any_hand(), o in any_options()) {
        let (x, y) = (eval5(&a, o), eval5(&b, o));
        if x.category() != y.category() {
            prop_assert_eq!(x.category().cmp(&y.category()), x.cmp(&y));
        }
        // A total order: exactly one of <, =, > and it agrees with the reference.
        let want = reference_any(&a, &o).cmp(&reference_any(&b, &o));
        prop_assert_eq!(x.cmp(&y), want);
        prop_assert!(matches!(x.cmp(&y), Ordering::Less | Ordering::Equal | Ordering::Greater));
    }

    #[test]
    fn names_never_panic(a in any_hand(), o in any_options()) {
        prop_assert!(!eval5(&a, o).name().is_empty());
        prop_assert!(!eval2(&[a[0], a[1]], o).name().is_empty());
    }
}
