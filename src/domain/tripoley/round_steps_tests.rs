//! A round kept step by step: the same payouts as the round entered whole,
//! the steps refused out of order, the Michigan card by card or as a result,
//! and the round in progress as the fold of its steps.

use super::betting::BetAction;
use super::game::{GameSetup, RoundEntry, TripoleyGame};
use super::michigan_play::Turn;
use super::round_steps::{Phase, RoundStep};
use super::*;
use crate::common::money::Money;

const DEAL: [(&str, &str); 5] = [
    ("Ann", "Ah 8s 9s Ts As Ad 8c 2d Jd 9c Ac"),
    ("Bo", "8d 9d Td Th 7c 6h 5h 3d Qd Tc"),
    ("Cy", "Jh 2c 4s 6s Js 2h 7h 4d 3c Jc"),
    ("Dee", "Qh 3s 5s 7s Qs 3h 8h 6d 5c Qc"),
    ("spare", "Kh Kd 4c 5d 2s Ks 4h 9h 7d 6c Kc"),
];

fn game(profile: Profile) -> TripoleyGame {
    TripoleyGame::start(&GameSetup {
        profile,
        players: ["Dee", "Ann", "Bo", "Cy"].map(String::from).to_vec(),
        chips_each: 40,
        chip_value: Money::parse("0.25").unwrap(),
        ante: 1,
        bet_limit: 10,
    })
    .unwrap()
}

fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
    v.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

fn bet(player: &str, action: BetAction) -> RoundStep {
    RoundStep::Bet {
        player: player.into(),
        action,
    }
}

/// Applies steps that must all be accepted; the last game and result.
fn steps(mut g: TripoleyGame, list: &[RoundStep]) -> (TripoleyGame, Option<RoundOutput>) {
    let mut last = None;
    for s in list {
        let (next, out) = g.apply_step(s).unwrap_or_else(|e| panic!("{s:?}: {e}"));
        g = next;
        last = out;
    }
    (g, last)
}

/// Ante, deal, Cy buys the spare for 2, money cards, Ann bets 10, Bo and
/// Cy call, Dee folds; the showdown.
fn to_michigan() -> Vec<RoundStep> {
    vec![
        RoundStep::Ante,
        RoundStep::Deal {
            hands: pairs(&DEAL),
        },
        RoundStep::Spare {
            dealer_swaps: false,
            auction: Some(("Cy".into(), 2)),
        },
        RoundStep::MoneyCards,
        bet("Ann", BetAction::Bet { chips: 10 }),
        bet("Bo", BetAction::Call),
        bet("Cy", BetAction::Call),
        bet("Dee", BetAction::Fold),
        RoundStep::Showdown {
            shown: pairs(&[("Ann", "As Ad 8s 8c Ts"), ("Bo", "6h 7c 8d 9d Td")]),
        },
    ]
}

#[test]
fn a_round_kept_step_by_step_pays_what_the_whole_round_pays() {
    let g = game(Profile::Classic);
    let mut list = to_michigan();
    list.push(RoundStep::MichiganResult {
        out: Some("Ann".into()),
        blocked: false,
        cards_left: vec![("Bo".into(), 3), ("Cy".into(), 6), ("Dee".into(), 2)],
    });
    let (after, out) = steps(g.clone(), &list);
    let out = out.expect("the round is paid out");
    let whole = RoundEntry {
        hands: pairs(&DEAL),
        auction: Some(("Cy".into(), 2)),
        contributions: vec![
            ("Ann".into(), 10),
            ("Bo".into(), 10),
            ("Cy".into(), 10),
            ("Dee".into(), 0),
        ],
        folded: vec!["Dee".into()],
        shown: pairs(&[("Ann", "As Ad 8s 8c Ts"), ("Bo", "6h 7c 8d 9d Td")]),
        out: Some("Ann".into()),
        cards_left: vec![("Bo".into(), 3), ("Cy".into(), 6), ("Dee".into(), 2)],
        ..RoundEntry::default()
    };
    let (expected, expected_out) = g.apply_round(&whole).unwrap();
    assert_eq!(out, expected_out);
    assert_eq!(after.chips, expected.chips);
    assert_eq!(after.board, expected.board);
    assert!(after.current.is_empty());
    assert_eq!(after.rounds.len(), 1);
    assert_eq!(after.dealer_name(), "Ann");
}

#[test]
fn the_round_in_progress_is_the_fold_of_its_steps() {
    let list = to_michigan();
    let (g, out) = steps(game(Profile::Classic), &list[..6]);
    assert!(out.is_none());
    assert_eq!(g.current, list[..6]);
    let p = g.progress().unwrap();
    assert_eq!(p.phase, Phase::Betting);
    let betting = p.betting.as_ref().unwrap();
    assert_eq!(betting.to_act(), Some("Cy"));
    assert_eq!(betting.said(), ["Ann bets 10 chips.", "Bo calls 10 chips."]);
    // The whole round may not be entered, nor the game ended, meanwhile.
    let e = g.apply_round(&RoundEntry::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("round: round 1 is being kept step by step")
    );
    assert!(g.finish(&[]).is_err());
    // Rebuilt from the start it is the same game.
    assert_eq!(g.replayed(40).unwrap(), g);
}

#[test]
fn steps_out_of_order_or_refused_by_the_engine_record_nothing() {
    let g = game(Profile::Classic);
    let e = g.apply_step(&RoundStep::MoneyCards).unwrap_err();
    assert_eq!(
        e.to_string(),
        "step: \"money_cards\" is not the next step: the round is at the ante"
    );
    let (g, _) = steps(g, &[RoundStep::Ante]);
    let mut bad = pairs(&DEAL);
    bad[0].1 = bad[0].1.replace("Ah", "Kh");
    let e = g.apply_step(&RoundStep::Deal { hands: bad }).unwrap_err();
    assert!(e.to_string().contains("Kh is dealt twice"), "{e}");
    let (g, _) = steps(g, &to_michigan()[1..5]);
    let e = g.apply_step(&bet("Cy", BetAction::Call)).unwrap_err();
    assert_eq!(
        e.to_string(),
        "player: \"Cy\" acts out of turn: it is \"Bo\"'s turn"
    );
    let e = g
        .apply_step(&bet("Bo", BetAction::Raise { chips: 11 }))
        .unwrap_err();
    assert!(e.to_string().contains("bet limit of 10"), "{e}");
    assert_eq!(g.current.len(), 5);
}

#[test]
fn the_michigan_card_by_card_completes_the_round() {
    let (mut g, _) = steps(game(Profile::Classic), &to_michigan());
    // Classic: the poker winner leads: Cy, shown nothing, plays the best
    // five of the hand (four kings, from the spare).
    let p = g.progress().unwrap();
    assert!(
        matches!(p.michigan.as_ref().unwrap().turn(), Turn::Lead { ref player, .. } if player == "Cy")
    );
    for _ in 0..60 {
        let turn = g.progress().unwrap().michigan.unwrap().turn();
        let (player, card) = match turn {
            Turn::Lead { player, cards } => (player, cards[0]),
            Turn::Follow { player, card } => (player, card),
            other => panic!("{other:?}"),
        };
        let step = RoundStep::MichiganCard {
            player,
            card: card.to_string(),
        };
        let (next, out) = g.apply_step(&step).unwrap();
        g = next;
        if let Some(out) = out {
            assert!(g.current.is_empty());
            let played = &g.rounds[0].input["michigan"];
            assert!(played["out"].is_string() || played["blocked"] == true);
            assert_eq!(out.outcome.total, 160);
            return;
        }
        // A result may not replace cards already played.
        let e = g
            .apply_step(&RoundStep::MichiganResult {
                out: Some("Ann".into()),
                blocked: false,
                cards_left: vec![],
            })
            .unwrap_err();
        assert!(e.to_string().contains("card by card"), "{e}");
    }
    panic!("the Michigan play did not end");
}

#[test]
fn cadaco_skips_the_spare_and_a_lone_player_left_skips_the_showdown() {
    let (g, _) = steps(
        game(Profile::Cadaco),
        &[
            RoundStep::Ante,
            RoundStep::Deal {
                hands: pairs(&DEAL),
            },
        ],
    );
    assert_eq!(g.progress().unwrap().phase, Phase::MoneyCards);
    // Cadaco: the dealer (Dee) opens; everyone else folds to her bet.
    let (g, _) = steps(
        g,
        &[
            RoundStep::MoneyCards,
            bet("Dee", BetAction::Bet { chips: 3 }),
            bet("Ann", BetAction::Fold),
            bet("Bo", BetAction::Fold),
            bet("Cy", BetAction::Fold),
        ],
    );
    let p = g.progress().unwrap();
    assert_eq!(p.phase, Phase::Michigan);
    assert_eq!(p.entry.folded, ["Ann", "Bo", "Cy"]);
    // Cadaco: the dealer leads the Michigan.
    assert!(matches!(p.michigan.unwrap().turn(), Turn::Lead { ref player, .. } if player == "Dee"));
}

#[test]
fn the_balances_follow_each_recorded_step() {
    let list = to_michigan();
    let now = |k: usize| {
        let (g, _) = steps(game(Profile::Classic), &list[..k]);
        g.progress().unwrap().now(&g).chips
    };
    // Seating order Dee (dealer), Ann, Bo, Cy; 40 chips each, ante 9.
    assert_eq!(now(0), [40, 40, 40, 40]);
    assert_eq!(now(1), [31, 31, 31, 31], "the antes");
    assert_eq!(now(2), [31, 31, 31, 31], "the deal moves no chips");
    assert_eq!(now(3), [33, 31, 31, 29], "Cy pays Dee 2 for the spare");
    // The money cards: what the betting begins with.
    let (g, _) = steps(game(Profile::Classic), &list[..4]);
    let before = g.progress().unwrap().before.unwrap();
    let stacks: Vec<u64> = before.chips.iter().map(|c| c.1).collect();
    assert_eq!(now(4), stacks);
    assert!(now(4).iter().sum::<u64>() > now(3).iter().sum::<u64>());
    let less = |mut v: Vec<u64>, seat: usize, n: u64| {
        v[seat] -= n;
        v
    };
    assert_eq!(now(5), less(now(4), 1, 10), "Ann bets 10");
    assert_eq!(now(6), less(now(5), 2, 10), "Bo calls");
    assert_eq!(now(7), less(now(6), 3, 10), "Cy calls");
    assert_eq!(now(8), now(7), "Dee folds");
    // The showdown pays the Pot: the winner's stack grows by at least the bets.
    let (after, before) = (now(9), now(8));
    assert!(after.iter().sum::<u64>() >= before.iter().sum::<u64>() + 30);
    for k in 0..=9 {
        assert!(now(k).iter().sum::<u64>() <= 160, "step {k}");
    }
}

#[test]
fn the_board_follows_each_recorded_step_with_the_balances() {
    let list = to_michigan();
    let now = |k: usize| {
        let (g, _) = steps(game(Profile::Classic), &list[..k]);
        g.progress().unwrap().now(&g)
    };
    let board = |k: usize| now(k).board;
    // Board order: Ace, King, Queen, Jack, Ten, King-Queen, 8-9-10, Kitty, Pot.
    assert_eq!(board(0), [0; 9]);
    assert_eq!(board(1), [4; 9], "the antes: 4 players, 1 on each section");
    assert_eq!(
        board(3),
        [4; 9],
        "the spare's price moves no chip onto the board"
    );
    // The money cards: Cy bought the spare (the Kh) and put down the Jh, so
    // the Jack and King-Queen carry over; the 8-9-10 is split (Ann, Bo).
    assert_eq!(board(4), [0, 0, 0, 4, 0, 4, 0, 4, 4]);
    let (g, _) = steps(game(Profile::Classic), &list[..4]);
    let before = g.progress().unwrap().before.unwrap();
    let engine: Vec<u64> = Section::ALL.iter().map(|&s| before.board.get(s)).collect();
    assert_eq!(
        board(4),
        engine,
        "the engine's board when the betting begins"
    );
    assert_eq!(board(5)[8], 14, "Ann's 10 on the Pot");
    assert_eq!(board(7)[8], 34, "Bo and Cy call");
    assert_eq!(board(8), board(7), "Dee folds");
    assert_eq!(board(9)[8], 0, "the Pot shown down and paid");
    for k in 0..=list.len() {
        let t = now(k);
        let total = t.chips.iter().sum::<u64>() + t.board.iter().sum::<u64>();
        assert_eq!(total, 160, "players + board after step {k}");
    }
}
