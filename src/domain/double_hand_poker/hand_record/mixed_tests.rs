//! Results per seat: a seat entered as cards beside one entered as an
//! outcome, in the same hand; the seed's $200 example (Pat banks 200; Ann
//! 60 on seat 4, Bo 60 on seat 5, Cy 100 on seat 6; ACTION seat 4; the PD
//! beats seat 4, seats 5 and 6 beat the PD: 140, 80, then 80 of Cy's 100
//! covered). A supervisor corrects a seat entered as cards.

use serde_json::{Value, json};

use super::tests::{ev, run};
use super::*;
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{Scenario, SettleError};

/// The seed's hand up to the dice.
fn dealt() -> Vec<HandEvent> {
    vec![
        ev(json!({"type": "hand_opened", "table": "T1", "dealer": "dana"})),
        ev(json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"})),
        ev(json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"})),
        ev(json!({"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"})),
        ev(json!({"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"})),
        ev(json!({"type": "action_set", "seat": 4})),
    ]
}

fn outcome(seat: i64, outcome: &str) -> HandEvent {
    ev(json!({"type": "outcome_recorded", "seat": seat, "outcome": outcome}))
}

fn set_hand(seat: i64, high: &str, low: &str) -> HandEvent {
    ev(json!({"type": "hand_recorded", "seat": seat, "hand": {"high": high, "low": low}}))
}

/// The PD's king-high hand, and two seats that beat it on both hands.
fn pd_hand() -> HandEvent {
    set_hand(1, "Kh Qc 9d 7s 4c", "Jd 2h")
}
fn bo_beats_pd() -> HandEvent {
    set_hand(5, "Ah Ac 8d 6s 5c", "Kd Jc")
}
fn cy_beats_pd() -> HandEvent {
    set_hand(6, "2c 2d 2s 9h 8h", "Qs 7c")
}

fn close() -> Vec<HandEvent> {
    vec![
        ev(json!({"type": "steps_confirmed", "wagers": ["w1", "w2", "w3"]})),
        ev(json!({"type": "hand_closed"})),
    ]
}

fn settlement(state: &HandState) -> Value {
    serde_json::from_str(state.settlement().expect("closed").text()).expect("json")
}

/// What the seed's settlement says, whichever way the seats were entered.
fn assert_seed_money(name: &str, s: &Value) {
    let steps = s["steps"].as_array().expect("steps");
    let left: Vec<&str> = steps
        .iter()
        .map(|st| st["in_action_after"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["140.00", "80.00", "0.00"], "{name}");
    assert_eq!(steps[2]["covered"], "80.00", "{name}");
    assert_eq!(steps[2]["no_action"], "20.00", "{name}");
}

#[test]
fn seats_entered_either_way_settle_alike() {
    /// A case, the results recorded, the outcomes of seats 4, 5 and 6, and
    /// the seats whose hands the settlement shows.
    type Case<'a> = (&'a str, Vec<HandEvent>, [Outcome; 3], Option<&'a [u64]>);
    let cases: [Case; 4] = [
        (
            "every seat as a result",
            vec![outcome(4, "pd"), outcome(5, "player"), outcome(6, "player")],
            [Outcome::Pd, Outcome::Player, Outcome::Player],
            None,
        ),
        (
            "every seat as cards",
            vec![
                pd_hand(),
                set_hand(4, "Qh Th 8c 6d 3c", "Td 9c"),
                bo_beats_pd(),
                cy_beats_pd(),
            ],
            [Outcome::Pd, Outcome::Player, Outcome::Player],
            Some(&[1, 4, 5, 6]),
        ),
        (
            "seat 4 as a result, seats 5 and 6 as cards",
            vec![outcome(4, "pd"), pd_hand(), bo_beats_pd(), cy_beats_pd()],
            [Outcome::Pd, Outcome::Player, Outcome::Player],
            Some(&[1, 5, 6]),
        ),
        (
            "cards first, then one seat's result typed over them",
            vec![
                pd_hand(),
                set_hand(4, "Qh Th 8c 6d 3c", "Td 9c"),
                bo_beats_pd(),
                cy_beats_pd(),
                outcome(4, "pd"),
            ],
            [Outcome::Pd, Outcome::Player, Outcome::Player],
            Some(&[1, 5, 6]),
        ),
    ];
    for (name, results, want, hands) in cases {
        let events = [dealt(), results, close()].concat();
        let (state, recorded) = run(&events).unwrap_or_else(|e| panic!("{name}: {e}"));
        let scenario = state.scenario().unwrap();
        let got = [4, 5, 6].map(|s| scenario.outcome(s).expect("an outcome"));
        assert_eq!(got, want, "{name}");
        let s = settlement(&state);
        assert_seed_money(name, &s);
        let seats_shown: Option<Vec<u64>> = s["hands"]
            .as_array()
            .map(|h| h.iter().map(|x| x["seat"].as_u64().unwrap()).collect());
        assert_eq!(seats_shown.as_deref(), hands, "{name}: the hands decided");
        // The recorded stream replays to the same state and settlement.
        assert_eq!(HandState::fold(&recorded).unwrap(), state, "{name}");
    }
}

#[test]
fn a_seat_entered_as_cards_needs_the_pds_hand() {
    let events = [
        dealt(),
        vec![outcome(4, "pd"), bo_beats_pd(), cy_beats_pd()],
    ]
    .concat();
    let (state, _) = run(&events).expect("each seat is recorded");
    let err = state.scenario().unwrap_err();
    assert_eq!(
        err,
        HandError::Rules(SettleError::MissingHand {
            seat: 1,
            why: "it is the PD's seat; a seat entered as cards is decided against it",
        })
    );
    let closing = [events, close()].concat();
    assert!(run(&closing).is_err(), "no close without the PD's hand");
    // A seat with neither an outcome nor cards is named.
    let events = [dealt(), vec![pd_hand(), bo_beats_pd(), cy_beats_pd()]].concat();
    let (state, _) = run(&events).unwrap();
    assert_eq!(
        state.scenario().unwrap_err(),
        HandError::Rules(SettleError::MissingHand {
            seat: 4,
            why: "the seat has wagers"
        })
    );
    let events = [dealt(), vec![outcome(5, "pd"), pd_hand(), cy_beats_pd()]].concat();
    let (state, _) = run(&events).unwrap();
    assert_eq!(
        state.scenario().unwrap_err(),
        HandError::Rules(SettleError::MissingOutcome { seat: 4 })
    );
}

#[test]
fn a_stream_of_one_kind_reads_as_the_settle_contract() {
    // Streams recorded before results were per seat hold one kind only:
    // their scenario is exactly the public contract's.
    for results in [
        vec![outcome(4, "pd"), outcome(5, "player"), outcome(6, "player")],
        vec![
            pd_hand(),
            set_hand(4, "Qh Th 8c 6d 3c", "Td 9c"),
            bo_beats_pd(),
            cy_beats_pd(),
        ],
    ] {
        let (state, _) = run(&[dealt(), results].concat()).unwrap();
        let input = state.scenario_input();
        assert!(input.outcomes.is_none() || input.hands.is_none());
        assert_eq!(
            Scenario::from_seat_results(&input).unwrap(),
            Scenario::from_input(&input).unwrap()
        );
    }
    // The public contract still takes one of the two only.
    let (state, _) = run(&[dealt(), vec![outcome(4, "pd"), pd_hand()]].concat()).unwrap();
    assert_eq!(
        Scenario::from_input(&state.scenario_input()).unwrap_err(),
        SettleError::BothOutcomesAndHands
    );
}

#[test]
fn a_supervisor_corrects_a_seat_entered_as_cards() {
    let all_cards = vec![
        pd_hand(),
        set_hand(4, "Qh Th 8c 6d 3c", "Td 9c"),
        bo_beats_pd(),
        cy_beats_pd(),
    ];
    let closed = [dealt(), all_cards, close()].concat();
    let correct = |seat: i64, change: Value| {
        let mut e = json!({"type": "outcome_corrected", "seat": seat, "reason": "misread"});
        e.as_object_mut()
            .unwrap()
            .extend(change.as_object().unwrap().clone());
        [closed.clone(), vec![ev(e)]].concat()
    };
    // Seat 5 to a result: the PD wins it; the rest still decided by cards.
    let (state, recorded) = run(&correct(5, json!({"outcome": "pd"}))).unwrap();
    let scenario = state.scenario().unwrap();
    assert_eq!(
        [4, 5, 6].map(|s| scenario.outcome(s).unwrap()),
        [Outcome::Pd, Outcome::Pd, Outcome::Player]
    );
    let s = settlement(&state);
    assert_eq!(s["steps"][1]["to_bettor"], "0.00", "Bo now loses his 60");
    assert_eq!(
        s["steps"][1]["to_pd"], "120.00",
        "the PD keeps its 60 and takes Bo's"
    );
    assert!(matches!(
        recorded.last(),
        Some(HandEvent::OutcomeCorrected {
            settlement: Some(_),
            ..
        })
    ));
    assert_eq!(HandState::fold(&recorded).unwrap(), state);
    // Seat 6 to other cards, which lose to the PD's.
    let (state, _) = run(&correct(
        6,
        json!({"hand": {"high": "Js 8s 6c 5h 3h", "low": "4d 2s"}}),
    ))
    .unwrap();
    assert_eq!(state.scenario().unwrap().outcome(6), Some(Outcome::Pd));
    // Both, or neither: refused, naming the event.
    for change in [
        json!({"outcome": "pd", "hand": {"high": "Js 8s 6c 5h 3h", "low": "4d 2s"}}),
        json!({}),
    ] {
        assert_eq!(
            run(&correct(5, change)).unwrap_err(),
            HandError::MixedResults
        );
    }
    // A card already at the table: refused, nothing changes.
    let twice = correct(
        6,
        json!({"hand": {"high": "Kh 8s 6c 5h 3h", "low": "4d 2s"}}),
    );
    assert!(matches!(run(&twice).unwrap_err(), HandError::Cards { .. }));
}
