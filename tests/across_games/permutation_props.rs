//! The same cards or dice in any order give the same result: every engine
//! whose input is a set of cards or dice — 5- and 2-card evaluation, the
//! house way, deciding a position, a settlement with hands, Tripoley's
//! showdown and round, poker dice ranking and comparing, and 10,000's
//! scoring of a throw — is checked on random permutations of its input.
//! (Wagers are not permuted: their order within a seat is part of the
//! settlement's action order, docs/settle.md.)

use pitbook::domain::cards::eval::{eval2, eval5};
use pitbook::domain::cards::{Card, format_cards};
use pitbook::domain::double_hand_poker::house_way::{HouseWay, ReferenceHouseWay};
use pitbook::domain::double_hand_poker::options::{FoulRule, JokerRule, RuleOptions, WheelRule};
use pitbook::domain::double_hand_poker::setting::{SetHand, decide};
use pitbook::domain::double_hand_poker::settle::settle_json;
use pitbook::domain::{poker_dice, ten_thousand, tripoley};
use proptest::prelude::*;
use proptest::sample::subsequence;
use serde_json::{Value, json};

/// `n` distinct cards of the 53 (the joker is index 52), in random order.
fn cards(n: usize) -> impl Strategy<Value = Vec<Card>> {
    subsequence((0u8..=52).collect::<Vec<_>>(), n)
        .prop_shuffle()
        .prop_map(|v| v.into_iter().filter_map(Card::from_index).collect())
}

/// A random order of `0..n`.
fn order(n: usize) -> impl Strategy<Value = Vec<usize>> {
    Just((0..n).collect::<Vec<_>>()).prop_shuffle()
}

fn permute<T: Copy>(items: &[T], order: &[usize]) -> Vec<T> {
    order.iter().map(|&i| items[i]).collect()
}

/// Every combination of the joker and wheel options, and both foul rules.
fn options(w: bool, n: bool, f: bool) -> RuleOptions {
    RuleOptions {
        joker: if w { JokerRule::Wild } else { JokerRule::Bug },
        wheel: if n {
            WheelRule::SecondHighest
        } else {
            WheelRule::Lowest
        },
        foul: if f {
            FoulRule::ResetHouseWay
        } else {
            FoulRule::Loses
        },
        ..RuleOptions::default()
    }
}

fn seven(v: &[Card]) -> [Card; 7] {
    std::array::from_fn(|i| v[i])
}

/// A deck shuffled by a seed (xorshift), for the whole deals below.
fn shuffled(mut seed: u64, with_joker: bool) -> Vec<Card> {
    let mut deck: Vec<Card> = Card::deck()
        .filter(|c| with_joker || !c.is_joker())
        .collect();
    seed |= 1;
    for i in (1..deck.len()).rev() {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        deck.swap(i, (seed % (i as u64 + 1)) as usize);
    }
    deck
}

/// A hand's cards as text, in a random order drawn from `seed` (0: as
/// given).
fn text_in_order(cards: &[Card], seed: u64) -> String {
    let mut v = cards.to_vec();
    if seed != 0 {
        let mut s = seed | 1;
        for i in (1..v.len()).rev() {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            v.swap(i, (s % (i as u64 + 1)) as usize);
        }
    }
    format_cards(&v)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn five_and_two_card_evaluation(
        v in cards(7), o5 in order(5), w in any::<bool>(), n in any::<bool>(),
    ) {
        let o = options(w, n, false);
        let five: [Card; 5] = std::array::from_fn(|i| v[i]);
        let p: [Card; 5] = std::array::from_fn(|i| five[o5[i]]);
        prop_assert_eq!(eval5(&five, &o), eval5(&p, &o));
        prop_assert_eq!(eval2(&[v[5], v[6]], &o), eval2(&[v[6], v[5]], &o));
    }

    #[test]
    fn house_way(v in cards(7), o7 in order(7), w in any::<bool>(), n in any::<bool>()) {
        let o = options(w, n, false);
        let a = ReferenceHouseWay.set(&seven(&v), &o);
        let b = ReferenceHouseWay.set(&seven(&permute(&v, &o7)), &o);
        prop_assert_eq!(&a.hand.high, &b.hand.high);
        prop_assert_eq!(&a.hand.low, &b.hand.low);
        prop_assert_eq!(a.rule, b.rule);
    }

    /// Both hands set by a random split (fouls included), then each part's
    /// cards permuted: the same decision, played hands and explanation.
    #[test]
    fn deciding_a_position(
        v in cards(14), split in (0usize..21, 0usize..21),
        o5 in order(5), flip in any::<bool>(),
        w in any::<bool>(), n in any::<bool>(), f in any::<bool>(),
    ) {
        let o = options(w, n, f);
        let set = |c: &[Card], s: usize| {
            let (i, j) = pitbook::domain::double_hand_poker::setting::LOW_POSITIONS[s];
            SetHand::split(&seven(c), i, j)
        };
        let player = set(&v[..7], split.0);
        let pd = set(&v[7..], split.1);
        let shuffle = |h: &SetHand| {
            let high: [Card; 5] = std::array::from_fn(|i| h.high[o5[i]]);
            let low = if flip { [h.low[1], h.low[0]] } else { h.low };
            SetHand::new(high, low)
        };
        let a = decide(&player, &pd, &o, &ReferenceHouseWay);
        let b = decide(&shuffle(&player), &shuffle(&pd), &o, &ReferenceHouseWay);
        prop_assert_eq!(a.outcome, b.outcome);
        prop_assert_eq!(a.player, b.player);
        prop_assert_eq!(a.pd, b.pd);
        prop_assert_eq!(a.explanation, b.explanation);
    }

    /// A settlement whose outcomes come from the hands: every seat's cards
    /// typed in another order, and the seats of `hands` listed in another
    /// order, give the same settlement, to the byte.
    #[test]
    fn settling_with_hands(
        seed in any::<u64>(), reorder in any::<u64>(), house in any::<u8>(), joker in any::<bool>(),
        seats in order(6),
    ) {
        let deck = shuffled(seed, joker);
        let names = ["Dana", "Ann", "Bo", "Cy", "Di", "Eve"];
        // The hands object as text, its seats in `seat_order` (a JSON map
        // would sort them).
        let hands_json = |r: u64, seat_order: &[usize]| {
            let entries: Vec<String> = seat_order.iter().map(|&k| {
                let seat = k + 1;
                let c = &deck[k * 7..seat * 7];
                let r = if r == 0 { 0 } else { r.rotate_left(seat as u32 * 7) };
                let hand = if house >> seat & 1 == 1 {
                    json!({"cards": text_in_order(c, r), "set": "house"})
                } else {
                    json!({"high": text_in_order(&c[..5], r), "low": text_in_order(&c[5..], r.rotate_left(3))})
                };
                format!("\"{seat}\":{hand}")
            }).collect();
            format!("{{{}}}", entries.join(","))
        };
        let input = |r: u64, seat_order: &[usize]| {
            let wagers: Vec<Value> = (2..=6)
                .map(|s| json!({"id": format!("w{s}"), "seat": s, "bettor": names[s - 1], "amount": "10"}))
                .collect();
            let rest = json!({
                "pd": {"seat": 1, "player": "Dana", "bank": "500"},
                "action": {"seat": 2},
                "wagers": wagers,
            })
            .to_string();
            format!("{},\"hands\":{}}}", &rest[..rest.len() - 1], hands_json(r, seat_order))
        };
        let a = settle_json(&input(0, &[0, 1, 2, 3, 4, 5]));
        let b = settle_json(&input(reorder, &seats));
        match (a, b) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a.err().map(|e| e.to_string()), b.err().map(|e| e.to_string())),
        }
    }

    /// Tripoley's best five of a hand: the same five cards and value.
    #[test]
    fn tripoley_best_five(v in cards(10), o10 in order(10)) {
        let v: Vec<Card> = v.into_iter().filter(|c| !c.is_joker()).collect();
        let order: Vec<usize> = o10.into_iter().filter(|&i| i < v.len()).collect();
        let a = tripoley::best_five(&v).unwrap();
        let b = tripoley::best_five(&permute(&v, &order)).unwrap();
        prop_assert_eq!(a.rank, b.rank);
        prop_assert_eq!(a.cards, b.cards);
        prop_assert_eq!(a.describe(), b.describe());
    }

    /// A whole Tripoley round dealt from a shuffled deck, the showdown by the
    /// best five of each hand: every hand typed in another order gives the
    /// same round, to the byte.
    #[test]
    fn tripoley_round(seed in any::<u64>(), reorder in 1u64..) {
        let deck = shuffled(seed, false);
        let names = ["Ann", "Bo", "Cy", "Dee", "spare"];
        let sizes = [11usize, 10, 10, 10, 11];
        let input = |r: u64| {
            let mut hands = serde_json::Map::new();
            let mut at = 0;
            for (k, (name, size)) in names.iter().zip(sizes).enumerate() {
                let r = if r == 0 { 0 } else { r.rotate_left(k as u32 * 11) };
                hands.insert(name.to_string(), json!(text_in_order(&deck[at..at + size], r)));
                at += size;
            }
            json!({
                "profile": "classic",
                "players": ["Ann", "Bo", "Cy", "Dee"],
                "dealer": "Dee",
                "chips": {"Ann": 100, "Bo": 100, "Cy": 100, "Dee": 100},
                "board": {"king_queen": 3, "eight_nine_ten": 5, "pot": 1},
                "ante": 1,
                "hands": hands,
                "poker": {"contributions": {"Ann": 4, "Bo": 4, "Cy": 4, "Dee": 4}},
                "michigan": {"out": "Ann", "cards_left": {"Bo": 3, "Cy": 6, "Dee": 2}},
            })
            .to_string()
        };
        let a = tripoley::round_json(input(0).as_bytes(), false);
        let b = tripoley::round_json(input(reorder).as_bytes(), false);
        match (a, b) {
            (Ok(a), Ok(b)) => prop_assert_eq!(a, b),
            (a, b) => prop_assert!(false, "{:?} vs {:?}", a.err().map(|e| e.to_string()), b.err().map(|e| e.to_string())),
        }
    }

    /// Poker dice: five faces in any order rank the same and show the same;
    /// comparing hands with their dice reordered names the same winners.
    #[test]
    fn poker_dice_ranking(
        faces in proptest::collection::vec(0u8..6, 10), o5 in order(5), ranked in any::<bool>(), classic in any::<bool>(),
    ) {
        let profile = if classic { poker_dice::Profile::Classic } else { poker_dice::Profile::Caribena };
        let text = |f: &[u8]| -> Vec<String> {
            f.iter().map(|&i| poker_dice::Face::from_index(i).unwrap().symbol(profile).to_string()).collect()
        };
        let straights = if ranked { "ranked" } else { "none" };
        let (h1, h2) = (&faces[..5], &faces[5..]);
        let (p1, p2) = (permute(h1, &o5), permute(h2, &o5));
        let rank = |f: &[u8]| {
            let req: poker_dice::RankRequest = serde_json::from_value(
                json!({"faces": text(f), "profile": profile, "straights": straights}),
            ).unwrap();
            poker_dice::rank(&req).unwrap()
        };
        prop_assert_eq!(rank(h1), rank(&p1));
        let compare = |a: &[u8], b: &[u8]| {
            let req: poker_dice::CompareRequest = serde_json::from_value(
                json!({"hands": [text(a), text(b)], "profile": profile, "straights": straights}),
            ).unwrap();
            poker_dice::compare(&req).unwrap()
        };
        prop_assert_eq!(compare(h1, h2), compare(&p1, &p2));
    }

    /// 10,000: a throw's dice in any order score the same keeps and maximum.
    #[test]
    fn ten_thousand_scoring(
        (dice, p) in proptest::collection::vec(1i64..=6, 1..=6)
            .prop_flat_map(|d| (Just(d.clone()), Just(d).prop_shuffle())),
    ) {
        let score = |d: &[i64]| {
            ten_thousand::score(&serde_json::from_value(json!({"dice": d, "options": {"dice": 6}})).unwrap())
        };
        prop_assert_eq!(score(&dice), score(&p));
    }
}
