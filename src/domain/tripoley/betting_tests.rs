//! The betting round action by action: turn order, the limit, all-ins,
//! the end of the round; and over many random rounds, what it produces is
//! always a `poker` contract the round engine accepts, chips conserved.

use proptest::collection::vec;
use proptest::prelude::*;
use serde_json::{Map, Value, json};

use super::betting::{BetAction, Betting, Offer};
use super::test_deals::{Choices, deal_in_turn};
use super::*;
use crate::cards::Card;

fn players(stacks: &[(&str, u64)]) -> Vec<(String, u64)> {
    stacks.iter().map(|&(n, c)| (n.to_string(), c)).collect()
}

fn act(b: &Betting, p: &str, a: BetAction) -> Betting {
    b.apply(p, a).unwrap_or_else(|e| panic!("{p} {a:?}: {e}"))
}

fn refused(b: &Betting, p: &str, a: BetAction) -> String {
    b.apply(p, a).expect_err("refused").to_string()
}

/// The round is over and each player put in what `put_in` says.
fn assert_over_with_put_in(b: &Betting, put_in: &[(&str, u64)]) {
    assert!(b.is_over(), "{put_in:?}: the round is not over");
    assert_eq!(b.result().unwrap().0, players(put_in));
}

const BET: fn(u64) -> BetAction = |chips| BetAction::Bet { chips };
const RAISE: fn(u64) -> BetAction = |chips| BetAction::Raise { chips };

#[test]
fn players_act_in_turn_and_a_raise_reopens_the_round() {
    let b = Betting::start(&players(&[("Ann", 30), ("Bo", 30), ("Cy", 30)]), 10);
    assert_eq!(b.to_act(), Some("Ann"));
    assert_eq!(
        refused(&b, "Bo", BetAction::Check),
        "player: \"Bo\" acts out of turn: it is \"Ann\"'s turn"
    );
    let b = act(&b, "Ann", BetAction::Check);
    let b = act(&b, "Bo", BET(5));
    let b = act(&b, "Cy", RAISE(10));
    // Ann checked, Bo bet: both face the raise again.
    assert_eq!(b.to_act(), Some("Ann"));
    let b = act(&b, "Ann", BetAction::Call);
    let b = act(&b, "Bo", BetAction::Fold);
    assert!(b.is_over());
    assert_eq!(
        b.said(),
        [
            "Ann checks.",
            "Bo bets 5 chips.",
            "Cy raises 10 chips to 15.",
            "Ann calls 15 chips.",
            "Bo folds."
        ]
    );
    let (contributions, folded) = b.result().unwrap();
    assert_eq!(
        contributions,
        players(&[("Ann", 15), ("Bo", 5), ("Cy", 15)])
    );
    assert_eq!(folded, ["Bo"]);
    assert_eq!(
        refused(&b, "Cy", BetAction::Check),
        "action: the betting round is over; \"Cy\" cannot act"
    );
}

#[test]
fn bets_and_raises_above_the_limit_are_refused() {
    let b = Betting::start(&players(&[("Ann", 100), ("Bo", 100)]), 10);
    assert_eq!(
        refused(&b, "Ann", BET(11)),
        "chips: 11 is more than the bet limit of 10 a bet"
    );
    let b = act(&b, "Ann", BET(10));
    assert_eq!(
        refused(&b, "Bo", RAISE(11)),
        "chips: 11 is more than the bet limit of 10 a raise"
    );
    // All-in with 100 would raise by 90.
    assert!(refused(&b, "Bo", BetAction::AllIn).contains("more than the bet limit of 10"));
    assert_eq!(
        b.offers(),
        [
            Offer::Call {
                chips: 10,
                all_in: false
            },
            Offer::Raise {
                to_call: 10,
                max: 10
            },
            Offer::Fold
        ]
    );
}

#[test]
fn a_call_for_more_than_a_player_has_is_all_in_and_the_round_ends() {
    let b = Betting::start(&players(&[("Ann", 20), ("Bo", 4), ("Cy", 20)]), 10);
    let b = act(&b, "Ann", BET(8));
    assert_eq!(
        b.offers(),
        [
            Offer::Call {
                chips: 4,
                all_in: true
            },
            Offer::Fold
        ]
    );
    let b = act(&b, "Bo", BetAction::Call);
    assert_eq!(b.said()[1], "Bo calls 8 chips with only 4 chips: all-in.");
    let b = act(&b, "Cy", BetAction::Call);
    assert!(b.is_over());
    let (contributions, folded) = b.result().unwrap();
    assert_eq!(contributions, players(&[("Ann", 8), ("Bo", 4), ("Cy", 8)]));
    assert!(folded.is_empty());
}

#[test]
fn wrong_actions_for_the_moment_are_refused() {
    let b = Betting::start(&players(&[("Ann", 20), ("Bo", 20)]), 10);
    assert!(refused(&b, "Ann", BetAction::Call).contains("faces no bet"));
    assert!(refused(&b, "Ann", RAISE(2)).contains("nobody has bet"));
    assert!(refused(&b, "Ann", BET(0)).contains("0 is not a bet"));
    assert!(refused(&b, "Zed", BetAction::Check).contains("\"Zed\" is not in this betting round"));
    let b = act(&b, "Ann", BET(3));
    assert!(refused(&b, "Bo", BetAction::Check).contains("faces a bet of 3 chips"));
    assert!(refused(&b, "Bo", BET(3)).contains("already a bet"));
    // Raising 10 needs 13 of Bo's 20: fine; a stack of 12 could not.
    let short = Betting::start(&players(&[("Ann", 20), ("Bo", 12)]), 10);
    let short = act(&short, "Ann", BET(3));
    assert!(refused(&short, "Bo", RAISE(10)).contains("needs 13 chips"));
    assert!(b.result().unwrap_err().to_string().contains("not over"));
}

#[test]
fn everyone_checking_ends_the_round_with_nothing_put_in() {
    let b = Betting::start(&players(&[("Ann", 20), ("Bo", 20), ("Cy", 20)]), 5);
    let b = ["Ann", "Bo", "Cy"]
        .iter()
        .fold(b, |b, p| act(&b, p, BetAction::Check));
    assert_over_with_put_in(&b, &[("Ann", 0), ("Bo", 0), ("Cy", 0)]);
}

#[test]
fn players_with_no_chips_are_all_in_from_the_start_and_never_act() {
    // Only Bo has chips behind: nobody to bet against, no action at all.
    let b = Betting::start(&players(&[("Ann", 0), ("Bo", 9)]), 5);
    assert!(b.is_over());
    let b = Betting::start(&players(&[("Ann", 0), ("Bo", 4), ("Cy", 9)]), 5);
    assert_eq!(b.to_act(), Some("Bo"));
    let b = act(&b, "Bo", BetAction::AllIn);
    assert_eq!(b.to_act(), Some("Cy"));
    let b = act(&b, "Cy", BetAction::Call);
    assert_over_with_put_in(&b, &[("Ann", 0), ("Bo", 4), ("Cy", 4)]);
}

#[test]
fn all_in_under_the_limit_raises_and_the_others_act_again() {
    let b = Betting::start(&players(&[("Ann", 30), ("Bo", 7), ("Cy", 30)]), 10);
    let b = act(&b, "Ann", BET(2));
    let b = act(&b, "Bo", BetAction::AllIn);
    let b = act(&b, "Cy", BetAction::Call);
    assert_eq!(b.to_act(), Some("Ann"));
    let b = act(&b, "Ann", BetAction::Call);
    assert_over_with_put_in(&b, &[("Ann", 7), ("Bo", 7), ("Cy", 7)]);
}

/// Random actions, each one of the offers, until the round is over.
fn random_betting(start: Betting, pick: &mut Choices) -> Betting {
    let mut b = start;
    for _ in 0..500 {
        let Some(p) = b.to_act().map(str::to_string) else {
            return b;
        };
        let offers = b.offers();
        let offer = offers[pick.next(offers.len() as u64) as usize];
        let action = match offer {
            Offer::Check => BetAction::Check,
            Offer::Bet { max } => BET(1 + pick.next(max)),
            Offer::Call { .. } => BetAction::Call,
            Offer::Raise { max, .. } => RAISE(1 + pick.next(max)),
            Offer::Fold => BetAction::Fold,
            Offer::AllIn { .. } => BetAction::AllIn,
        };
        let high_before = b.high();
        b = act(&b, &p, action);
        // No bet or raise (all-ins included) lifts the high bet by more than the limit.
        assert!(b.high() - high_before <= b.limit(), "{:?}", b.said());
    }
    panic!("the betting round did not end: {:?}", b.said());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Chips are conserved, every bet and raise is within the limit, and
    /// the result is matched-or-all-in for everyone still in.
    #[test]
    fn random_betting_rounds_are_matched_or_all_in(
        stacks in vec(0u64..60, 2..=9),
        limit in 1u64..25,
        seed in any::<u64>(),
    ) {
        let names: Vec<(String, u64)> =
            stacks.iter().enumerate().map(|(i, &c)| (format!("P{i}"), c)).collect();
        let b = random_betting(Betting::start(&names, limit), &mut Choices(seed));
        let (contributions, folded) = b.result().unwrap();
        let max_in = contributions.iter().filter(|(n, _)| !folded.contains(n)).map(|c| c.1).max().unwrap_or(0);
        for ((name, c), (_, stack)) in contributions.iter().zip(&names) {
            prop_assert!(c <= stack);
            if folded.contains(name) {
                prop_assert!(*c <= max_in);
            } else {
                prop_assert!(*c == max_in || c == stack, "{name} {c} of {stack}, max {max_in}");
            }
        }
        prop_assert!(folded.len() < names.len());
        for (_, put, left, _, _) in b.seats() {
            prop_assert!(put + left <= 60);
        }
        let total: u64 = b.seats().iter().map(|s| s.1 + s.2).sum();
        prop_assert_eq!(total, stacks.iter().sum::<u64>());
    }

    /// A random deal played to the betting, a random betting round, then
    /// the round engine: it accepts the produced contract, and the chips
    /// it moves onto the Pot are what the betting put in.
    #[test]
    fn the_engine_accepts_every_betting_round(
        chips in vec(0u64..80, 2..=9),
        deck in Just((0u8..52).collect::<Vec<u8>>()).prop_shuffle(),
        classic in any::<bool>(),
        limit in 1u64..25,
        seed in any::<u64>(),
    ) {
        let n = chips.len();
        let names: Vec<String> = (0..n).map(|i| format!("P{i}")).collect();
        let order: Vec<usize> = (1..=n).map(|i| i % n).filter(|&s| chips[s] >= 9).collect();
        prop_assume!(order.len() >= 2);
        let (hands, spare) = deal_in_turn(&deck, &order, n);
        let text = |c: &[Card]| c.iter().map(Card::to_string).collect::<Vec<_>>().join(" ");
        let mut hands_json = Map::new();
        for &s in &order {
            hands_json.insert(names[s].clone(), json!(text(&hands[s])));
        }
        hands_json.insert("spare".into(), json!(text(&spare)));
        let chips_json: Map<String, Value> =
            names.iter().cloned().zip(chips.iter().map(|&c| json!(c))).collect();
        let mut input = json!({
            "profile": if classic { "classic" } else { "cadaco" },
            "players": names, "dealer": "P0", "chips": chips_json,
            "hands": hands_json, "poker": {}, "michigan": {"cards_left": {}},
        });
        let parsed: RoundInput = parse(input.to_string().as_bytes()).unwrap();
        let before = before_betting(&parsed).unwrap();
        let stacks: Vec<(String, u64)> = before
            .betting_order
            .iter()
            .map(|p| (p.clone(), before.chips.iter().find(|c| &c.0 == p).map_or(0, |c| c.1)))
            .collect();
        let b = random_betting(Betting::start(&stacks, limit), &mut Choices(seed));
        let (contributions, folded) = b.result().unwrap();
        let out = &order[0];
        input["poker"] = json!({
            "contributions": contributions.iter().map(|(p, c)| (p.clone(), json!(c))).collect::<Map<_, _>>(),
            "folded": folded,
        });
        input["michigan"] = json!({
            "out": names[*out],
            "cards_left": order[1..].iter().map(|&s| (names[s].clone(), json!(1))).collect::<Map<_, _>>(),
        });
        let parsed: RoundInput = parse(input.to_string().as_bytes()).unwrap();
        let result = play_round(&parsed);
        let result = result.map_err(|e| TestCaseError::fail(format!("{e}: {input}")))?;
        let bets: u64 = result.outcome.steps.iter().filter(|s| s.kind == StepKind::Bet).map(|s| s.chips).sum();
        prop_assert_eq!(bets, contributions.iter().map(|c| c.1).sum::<u64>());
        prop_assert_eq!(result.outcome.total, chips.iter().sum::<u64>());
    }
}
