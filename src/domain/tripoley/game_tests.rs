//! Tests of `game`.

use proptest::prelude::*;

use super::*;
use crate::cards::Card;
use crate::tripoley::test_deals::deal_in_turn;

fn setup(players: &[&str], chips: i64, profile: Profile) -> GameSetup {
    GameSetup {
        profile,
        players: players.iter().map(|p| p.to_string()).collect(),
        chips_each: chips,
        chip_value: Money::parse("0.25").unwrap(),
        ante: 1,
        bet_limit: 10,
    }
}

/// A random entry for `game`'s next round from `seed` and a shuffled deck.
fn random_entry(game: &TripoleyGame, deck: &[u8], seed: u64) -> RoundEntry {
    let mut s = seed;
    let mut next = |below: u64| {
        s = s
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        if below == 0 { 0 } else { (s >> 33) % below }
    };
    let n = game.players.len();
    let full = game.ante * 9;
    let order: Vec<usize> = (1..=n)
        .map(|i| (game.dealer + i) % n)
        .filter(|&p| game.chips[p] >= full)
        .collect();
    let (hands, spare) = deal_in_turn(deck, &order, n);
    let text = |c: &[Card]| c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ");
    let mut entry = RoundEntry::default();
    for &p in &order {
        entry.hands.push((game.players[p].clone(), text(&hands[p])));
    }
    entry.hands.push(("spare".into(), text(&spare)));
    let stack = |p: usize| game.chips[p] - full;
    // Everyone still in puts in the same (capped by their stack); some fold.
    // (the least stack after the ante: money cards only add to stacks).
    let least = order.iter().map(|&p| stack(p)).min().unwrap_or(0);
    let bet = next(game.bet_limit.min(least) + 1);
    for &p in &order {
        let folds = next(3) == 0 && p != order[0];
        let c = if folds { 0 } else { bet };
        entry
            .contributions
            .push((game.players[p].clone(), c as i64));
        if folds {
            entry.folded.push(game.players[p].clone());
        }
    }
    let out = order[next(order.len() as u64) as usize];
    entry.out = Some(game.players[out].clone());
    for &p in order.iter().filter(|&&p| p != out) {
        let left = 1 + next(hands[p].len() as u64);
        entry
            .cards_left
            .push((game.players[p].clone(), left as i64));
    }
    entry
}

#[test]
fn a_cadaco_spare_auction_is_refused_and_a_finished_game_takes_nothing() {
    let game = TripoleyGame::start(&setup(&["Ann", "Bo"], 30, Profile::Cadaco)).unwrap();
    let deck: Vec<u8> = (0..52).collect();
    let mut entry = random_entry(&game, &deck, 7);
    entry.auction = Some(("Bo".into(), 1));
    let e = game.apply_round(&entry).unwrap_err();
    assert!(e.to_string().contains("cadaco"), "{e}");
    let hands = [
        ("Ann".to_string(), "Ah Kh Qh Jh Th".to_string()),
        ("Bo".to_string(), "2c 3c 4c 5c 7d".to_string()),
    ];
    let (done, out) = game.finish(&hands).unwrap();
    assert!(done.finished());
    assert_eq!(out.chips.get("Ann"), Some(&30));
    assert!(done.finish(&hands).is_err());
    assert!(done.apply_round(&entry).is_err());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn random_games_conserve_chips_and_replay(
        n in 2usize..=6,
        chips in 9i64..60,
        classic in any::<bool>(),
        decks in proptest::collection::vec(Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(), 4),
        seed in any::<u64>(),
    ) {
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let refs: Vec<&str> = names.iter().map(String::as_str).collect();
        let profile = if classic { Profile::Classic } else { Profile::Cadaco };
        let mut game = TripoleyGame::start(&setup(&refs, chips, profile)).unwrap();
        let total = chips as u64 * n as u64;
        for (k, deck) in decks.iter().enumerate() {
            if game.chips.iter().filter(|&&c| c >= 9).count() < 2 {
                break;
            }
            let entry = random_entry(&game, deck, seed ^ k as u64);
            let dealer = game.dealer;
            let (next, _) = game.apply_round(&entry).unwrap_or_else(|e| panic!("{e}"));
            prop_assert_eq!(next.chips.iter().sum::<u64>() + next.board.iter().sum::<u64>(), total);
            prop_assert_eq!(next.dealer, (dealer + 1) % n);
            game = next;
        }
        let hands: Vec<(String, String)> = names.iter().enumerate().map(|(i, p)| {
            let five: Vec<String> = (0..5).filter_map(|j| Card::from_index((i * 5 + j) as u8)).map(|c| c.to_string()).collect();
            (p.clone(), five.join(" "))
        }).collect();
        let (done, _) = game.finish(&hands).unwrap();
        prop_assert_eq!(done.chips.iter().sum::<u64>(), total);
        prop_assert!(done.board.iter().all(|&c| c == 0));
        prop_assert_eq!(done.replayed(chips).unwrap(), done);
    }
}
