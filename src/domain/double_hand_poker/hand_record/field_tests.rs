//! A refused event names the field the settlement's own checks name: the
//! same field for a hand's command, for `settle` and for a recorded hand
//! replayed (ARCHITECTURE.md: an event keeps the contract's fields).

use serde_json::json;

use super::tests::{ev, run, seed_hand};
use super::*;
use crate::common::field_error::AsFieldError;

/// (field, message) of `events`' refusal, applied as one command after the
/// seed hand's first `upto` events.
fn refused(upto: usize, event: serde_json::Value) -> (String, String) {
    let (state, _) = run(&seed_hand()[..upto]).unwrap();
    let error = HandState::apply_command(Some(state), &[ev(event)]).unwrap_err();
    let fe = error.field_error().expect("a field");
    (fe.field().to_string(), fe.message().to_string())
}

#[test]
fn a_commands_refusals_name_the_settlements_fields() {
    let wager = |extra: serde_json::Value| {
        let mut w =
            json!({"type": "wager_placed", "id": "w9", "seat": 7, "bettor": "Di", "amount": "10"});
        w.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        w
    };
    let cases = [
        (
            3,
            wager(json!({"seat": 8})),
            "wagers[1].seat",
            "8 is not a seat at this 7-seat table (1..7)",
        ),
        (
            3,
            wager(json!({"payout": "abc"})),
            "wagers[1].payout",
            r#""abc" is not a payout ratio: write it as "p:q", e.g. "3:2""#,
        ),
        (
            3,
            wager(json!({"payout": "1:2"})),
            "wagers[1].payout",
            r#""1:2" is not a payout ratio: payouts below even money"#,
        ),
        (
            3,
            wager(json!({"id": "w1"})),
            "wagers[1].id",
            r#""w1" is already the id of wagers[0]"#,
        ),
        (
            3,
            wager(json!({"bettor": " "})),
            "events[0].bettor",
            r#"" " is empty"#,
        ),
        (
            2,
            json!({"type": "pd_set", "seat": 9, "player": "Pat", "bank": "200"}),
            "pd.seat",
            "9 is not a seat at this 7-seat table (1..7)",
        ),
        (
            5,
            json!({"type": "action_set", "dice": [7, 1, 1]}),
            "action.dice[0]",
            "7 is not a die value (1..6)",
        ),
        (
            5,
            json!({"type": "action_set", "dice": [1, 1]}),
            "action.dice",
            "expected 3 dice, got 2",
        ),
        (
            5,
            json!({"type": "action_set", "seat": 12}),
            "action.seat",
            "12 is not a seat at this 7-seat table (1..7)",
        ),
        (
            5,
            json!({"type": "action_set", "dice": [1, 1, 1], "seat": 3}),
            "action",
            r#"give "dice" or "seat", not both"#,
        ),
    ];
    for (upto, event, field, message) in cases {
        let (got_field, got_message) = refused(upto, event.clone());
        assert_eq!(got_field, field, "{event}");
        assert!(got_message.starts_with(message), "{event}: {got_message}");
    }
}

#[test]
fn a_recorded_wager_refused_on_replay_names_the_same_field() {
    let (_, mut recorded) = run(&seed_hand()).unwrap();
    let HandEvent::WagerPlaced { payout, .. } = &mut recorded[3] else {
        panic!("the second wager")
    };
    *payout = Some("abc".into());
    let error = HandState::fold(&recorded).unwrap_err();
    let fe = error.field_error().expect("a field");
    assert_eq!(fe.field(), "wagers[1].payout", "{error}");
}
