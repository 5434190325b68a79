//! Property tests over many random rounds: random tables, deals, spare
//! swaps and auctions, contributions and folds, Michigan results. Chips are
//! conserved, replaying the steps gives the result, no split leaves as many
//! chips as it has sharers, and no payment exceeds what was owed.

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::test_deals::{Choices, deal_in_turn};
use super::*;
use crate::cards::Card;

fn cards_text(cards: &[Card]) -> Value {
    json!(cards.iter().map(Card::to_string).collect::<Vec<_>>())
}

/// Replays `steps` on the starting chips and board, as the round in
/// progress does (`table_now.rs`).
fn replay(steps: &[Step], names: &[String], chips: &mut [u64], board: &mut Board) {
    let mut now = TableNow {
        chips: chips.to_vec(),
        board: Section::ALL.iter().map(|&s| board.get(s)).collect(),
    };
    now.moves(names, steps.iter());
    chips.copy_from_slice(&now.chips);
    *board = start_board(&now.board);
}

/// Splits paid in several steps leave fewer chips than they have sharers.
fn check_splits(steps: &[Step]) {
    type Group<'a> = ((StepKind, Option<u32>), Vec<&'a Step>);
    let mut groups: Vec<Group> = Vec::new();
    for step in steps.iter().filter(|s| {
        matches!(
            s.kind,
            StepKind::EightNineTen | StepKind::Pot | StepKind::FinalPot
        )
    }) {
        let key = (step.kind, step.pot);
        match groups.iter_mut().find(|g| g.0 == key) {
            Some(g) => g.1.push(step),
            None => groups.push((key, vec![step])),
        }
    }
    for (_, group) in groups {
        let sharers = group.len() as u64;
        assert!(group.iter().all(|s| s.remainder < sharers), "{group:?}");
        let max = group.iter().map(|s| s.chips).max().unwrap_or(0);
        let min = group.iter().map(|s| s.chips).min().unwrap_or(0);
        assert!(max - min <= 1, "{group:?}");
    }
}

type Table = (
    usize,
    Vec<u64>,
    Vec<u64>,
    u64,
    bool,
    usize,
    Vec<u8>,
    Vec<bool>,
    u64,
    u64,
);

fn tables() -> impl Strategy<Value = Table> {
    (2usize..=9).prop_flat_map(|n| {
        (
            Just(n),
            vec(0u64..80, n),
            vec(0u64..30, 9),
            1u64..=2,
            any::<bool>(),
            0..n,
            Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
            vec(any::<bool>(), n),
            0u64..60,
            any::<u64>(),
        )
    })
}

fn random_round(t: &Table) -> Option<(Value, Vec<u64>, u64)> {
    let (n, chips, board, ante, classic, dealer, deck, folds, target, seed) = t;
    let (n, ante, dealer) = (*n, *ante, *dealer);
    let mut pick = Choices(*seed);
    let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
    let in_round: Vec<bool> = chips.iter().map(|&c| c >= 9 * ante).collect();
    if in_round.iter().filter(|&&p| p).count() < 2 {
        return None;
    }
    // Deal one at a time from the dealer's left, the spare last in each turn.
    let order: Vec<usize> = (1..=n)
        .map(|i| (dealer + i) % n)
        .filter(|&s| in_round[s])
        .collect();
    let (mut hands, mut spare) = deal_in_turn(deck, &order, n);
    let mut hands_json = Map::new();
    for &s in &order {
        hands_json.insert(names[s].clone(), cards_text(&hands[s]));
    }
    hands_json.insert("spare".into(), cards_text(&spare));
    let mut input = json!({
        "profile": if *classic { "classic" } else { "cadaco" },
        "players": names,
        "dealer": names[dealer],
        "chips": names.iter().cloned().zip(chips.iter().map(|&c| json!(c))).collect::<Map<_, _>>(),
        "board": Section::ALL.iter().map(|s| s.key().to_string()).zip(board.iter().map(|&c| json!(c))).collect::<Map<_, _>>(),
        "ante": ante,
        "hands": hands_json,
        "poker": {},
        "michigan": {}
    });
    if *classic && in_round[dealer] {
        let swaps = pick.next(2) == 1;
        if swaps {
            std::mem::swap(&mut hands[dealer], &mut spare);
        }
        input["spare"] = json!({"dealer_swaps": swaps});
        let buyers: Vec<usize> = order.iter().copied().filter(|&s| s != dealer).collect();
        if pick.next(2) == 1 {
            let buyer = buyers[pick.next(buyers.len() as u64) as usize];
            let price = pick.next(chips[buyer] - 9 * ante + 1);
            input["spare"]["auction"] = json!({"buyer": names[buyer], "price": price});
            std::mem::swap(&mut hands[buyer], &mut spare);
        }
    }
    // Michigan: someone out, or (classic) blocked.
    let blocked = *classic && pick.next(4) == 0;
    let out = if blocked {
        None
    } else {
        Some(order[pick.next(order.len() as u64) as usize])
    };
    let mut left = Map::new();
    for &s in order.iter().filter(|&&s| Some(s) != out) {
        left.insert(
            names[s].clone(),
            json!(1 + pick.next(hands[s].len() as u64)),
        );
    }
    input["michigan"] = match out {
        Some(w) => json!({"out": names[w], "cards_left": left}),
        None => json!({"blocked": true, "cards_left": left}),
    };
    let still_in: Vec<bool> = {
        let mut s: Vec<bool> = (0..n).map(|i| in_round[i] && !folds[i]).collect();
        if !s.contains(&true) {
            s[order[0]] = true;
        }
        s
    };
    Some((
        input,
        still_in.iter().map(|&b| u64::from(b)).collect(),
        *target + 1000 * pick.next(2),
    ))
}

fn start_board(chips: &[u64]) -> Board {
    let mut board = Board::default();
    for (s, &c) in Section::ALL.iter().zip(chips) {
        board.set(*s, c);
    }
    board
}

/// Each player's chips when the betting begins, from the steps before it.
fn stacks(out: &RoundOutput, names: &[String], chips: &[u64], board: &[u64]) -> Vec<u64> {
    let before: Vec<Step> = out
        .outcome
        .steps
        .iter()
        .take_while(|s| !matches!(s.kind, StepKind::Bet | StepKind::Pot))
        .cloned()
        .collect();
    let mut chips = chips.to_vec();
    replay(&before, names, &mut chips, &mut start_board(board));
    chips
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn random_rounds_conserve_chips_and_replay(t in tables()) {
        let Some((mut input, still_in, target)) = random_round(&t) else { return Ok(()) };
        let names: Vec<String> = (0..t.0).map(|i| format!("P{i}")).collect();
        let chips = t.1.clone();
        let checked = play_round(&parse::<RoundInput>(input.to_string().as_bytes()).unwrap()).unwrap();
        let stack = stacks(&checked, &names, &chips, &t.2);
        // Contributions: still in, the target or all-in; folded, at most the
        // most a player still in put in.
        let in_round: Vec<bool> = chips.iter().map(|&c| c >= 9 * t.3).collect();
        let max_in = (0..t.0).filter(|&s| still_in[s] == 1).map(|s| target.min(stack[s])).max().unwrap_or(0);
        let mut pick = Choices(t.9 ^ 0x5555);
        let mut contributions = Map::new();
        let mut folded = Vec::new();
        for s in (0..t.0).filter(|&s| in_round[s]) {
            let c = if still_in[s] == 1 {
                target.min(stack[s])
            } else {
                folded.push(names[s].clone());
                pick.next(max_in.min(stack[s]) + 1)
            };
            contributions.insert(names[s].clone(), json!(c));
        }
        input["poker"] = json!({"contributions": contributions, "folded": folded});
        let out = play_round(&parse::<RoundInput>(input.to_string().as_bytes()).unwrap())
            .unwrap_or_else(|e| panic!("{e}\n{input}"));
        let o = &out.outcome;
        let before: u64 = chips.iter().sum::<u64>() + t.2.iter().sum::<u64>();
        let after: u64 = o.chips.0.iter().map(|(_, c)| c).sum::<u64>() + o.board.total();
        prop_assert_eq!(before, after);
        prop_assert_eq!(o.total, before);
        // Replaying the steps from the start gives the result.
        let mut replayed = chips.clone();
        let mut board = start_board(&t.2);
        replay(&o.steps, &names, &mut replayed, &mut board);
        let result: Vec<u64> = o.chips.0.iter().map(|(_, c)| *c).collect();
        prop_assert_eq!(replayed, result);
        prop_assert_eq!(board, o.board);
        check_splits(&o.steps);
        for step in o.steps.iter().filter(|s| matches!(s.kind, StepKind::CardPayment | StepKind::BlockedPayment)) {
            let name = step.from.as_deref().unwrap_or("");
            let owed = input["michigan"]["cards_left"][name].as_u64().unwrap();
            prop_assert_eq!(step.chips + step.shortfall.unwrap_or(0), owed);
        }
        for s in (0..t.0).filter(|&s| !in_round[s]) {
            prop_assert_eq!(*o.net.get(&names[s]).unwrap(), 0);
        }
    }

    #[test]
    fn random_last_hands_empty_the_board_and_conserve_chips(
        n in 2usize..=9,
        chips in vec(0u64..100, 9),
        board in vec(0u64..50, 9),
        deck in Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
        dealer in 0usize..9,
    ) {
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let cards: Vec<Card> = deck.iter().filter_map(|&i| Card::from_index(i)).collect();
        let input = json!({
            "players": names,
            "dealer": names[dealer % n],
            "chips": names.iter().cloned().zip(chips.iter().map(|&c| json!(c))).collect::<Map<_, _>>(),
            "board": Section::ALL.iter().map(|s| s.key().to_string()).zip(board.iter().map(|&c| json!(c))).collect::<Map<_, _>>(),
            "hands": names.iter().enumerate().map(|(i, name)| (name.clone(), cards_text(&cards[i * 5..i * 5 + 5]))).collect::<Map<_, _>>(),
        });
        let out = play_final(&parse::<FinalInput>(input.to_string().as_bytes()).unwrap()).unwrap();
        let before: u64 = chips[..n].iter().sum::<u64>() + board.iter().sum::<u64>();
        prop_assert_eq!(out.board, Board::default());
        prop_assert_eq!(out.chips.0.iter().map(|(_, c)| c).sum::<u64>(), before);
        check_splits(&out.steps);
    }
}
