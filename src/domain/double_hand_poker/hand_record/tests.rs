use serde_json::json;

use super::*;
use crate::double_hand_poker::settle::SettleError;

/// An event from its JSON (shared with `mixed_tests.rs`).
pub(super) fn ev(value: serde_json::Value) -> HandEvent {
    serde_json::from_value(value).expect("event json")
}

/// The seed's $200 example as a stream of dealer actions.
pub(super) fn seed_hand() -> Vec<HandEvent> {
    vec![
        ev(json!({"type": "hand_opened", "table": "T1", "dealer": "dana"})),
        ev(json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"})),
        ev(json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"})),
        ev(json!({"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"})),
        ev(json!({"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"})),
        ev(json!({"type": "action_set", "seat": 4})),
        ev(json!({"type": "outcome_recorded", "seat": 4, "outcome": "pd"})),
        ev(json!({"type": "outcome_recorded", "seat": 5, "outcome": "player"})),
        ev(json!({"type": "outcome_recorded", "seat": 6, "outcome": "player"})),
        ev(json!({"type": "steps_confirmed", "wagers": ["w1", "w2"]})),
        ev(json!({"type": "steps_confirmed", "wagers": ["w3"]})),
        ev(json!({"type": "hand_closed"})),
    ]
}

/// Applies events one by one as the store does; returns the recorded ones.
pub(super) fn run(events: &[HandEvent]) -> Result<(HandState, Vec<HandEvent>), HandError> {
    let mut state = None;
    let mut recorded = Vec::new();
    for e in events {
        let (next, rec) = HandState::apply(state.take(), e)?;
        state = Some(next);
        recorded.push(rec.unwrap_or_else(|| e.clone()));
    }
    Ok((state.expect("at least one event"), recorded))
}

#[test]
fn the_seed_example_closes_with_its_settlement() {
    let (state, recorded) = run(&seed_hand()).unwrap();
    assert_eq!(state.phase(), Phase::Closed);
    assert_eq!(state.version, 12);
    let s: serde_json::Value = serde_json::from_str(state.settlement().unwrap().text()).unwrap();
    let steps = s["steps"].as_array().unwrap();
    assert_eq!(steps[0]["in_action_after"], "140.00");
    assert_eq!(steps[1]["in_action_after"], "80.00");
    assert_eq!(steps[2]["covered"], "80.00");
    assert_eq!(steps[2]["no_action"], "20.00");
    // The recorded close carries the computed settlement; replaying the
    // recorded stream gives the same state.
    assert!(matches!(
        &recorded[11],
        HandEvent::HandClosed {
            settlement: Some(_)
        }
    ));
    assert_eq!(HandState::fold(&recorded).unwrap(), state);
}

#[test]
fn a_tampered_settlement_is_detected_on_replay() {
    let (_, mut recorded) = run(&seed_hand()).unwrap();
    let HandEvent::HandClosed {
        settlement: Some(s),
    } = &mut recorded[11]
    else {
        panic!("close")
    };
    let mut value: serde_json::Value = serde_json::from_str(s.text()).unwrap();
    value["pd_returned"] = json!("5.00");
    *s = RecordedSettlement::from_text(&value.to_string()).unwrap();
    assert_eq!(
        HandState::fold(&recorded).unwrap_err(),
        HandError::SettlementMismatch
    );
}

#[test]
fn only_a_change_in_money_counts_as_a_different_settlement() {
    let (state, _) = run(&seed_hand()).unwrap();
    let scenario = state.scenario().unwrap();
    let computed = crate::double_hand_poker::settle::settle(&scenario).unwrap();
    let recorded = state.settlement().unwrap();
    assert!(recorded.matches(&computed));
    let text = recorded.text();
    for (from, to) in [
        ("\"140.00\"", "\"141.00\""),
        ("\"w2\"", "\"w9\""),
        ("\"action_seat\":4", "\"action_seat\":5"),
    ] {
        assert!(text.contains(from), "{from}");
        let changed = RecordedSettlement::from_text(&text.replacen(from, to, 1)).unwrap();
        assert!(!changed.matches(&computed), "{from} → {to} must not match");
    }
    // The same amounts written another way are the same money.
    let respelled = RecordedSettlement::from_text(&text.replace("\"140.00\"", "\"140\"")).unwrap();
    assert!(respelled.matches(&computed));
}

#[test]
fn the_state_machine_refuses_out_of_order_events() {
    let hand = seed_hand();
    let wager_after_dice = [&hand[..6], &[hand[2].clone()]].concat();
    assert!(matches!(
        run(&wager_after_dice),
        Err(HandError::WrongPhase {
            event: "wager_placed",
            phase: "dealt",
            ..
        })
    ));

    let second_close = [&hand[..], &[hand[11].clone()]].concat();
    assert!(matches!(
        run(&second_close),
        Err(HandError::WrongPhase {
            event: "hand_closed",
            phase: "closed",
            ..
        })
    ));

    let close_early = [&hand[..10], &[hand[11].clone()]].concat();
    assert_eq!(
        run(&close_early).unwrap_err(),
        HandError::StepsNotConfirmed(vec!["w3".into()])
    );

    let wrong_order = [
        &hand[..9],
        &[ev(json!({"type": "steps_confirmed", "wagers": ["w2"]}))],
    ]
    .concat();
    assert_eq!(
        run(&wrong_order).unwrap_err(),
        HandError::StepOrder {
            id: "w2".into(),
            expected: "w1".into()
        }
    );

    assert_eq!(run(&hand[1..2]).unwrap_err(), HandError::NotOpened);
    let reopen = [&hand[..1], &hand[..1]].concat();
    assert_eq!(run(&reopen).unwrap_err(), HandError::AlreadyOpened);

    let wager_before_pd = [&hand[..1], &hand[2..3]].concat();
    assert!(matches!(
        run(&wager_before_pd),
        Err(HandError::WrongPhase { .. })
    ));
}

/// The first `n` events of `hand`, then `event`.
fn then(hand: &[HandEvent], n: usize, event: serde_json::Value) -> Vec<HandEvent> {
    [&hand[..n], &[ev(event)]].concat()
}

#[test]
fn bad_wagers_are_refused_with_the_settlement_rules() {
    let hand = seed_hand();
    type Refused = fn(&SettleError) -> bool;
    let cases: [(&str, Vec<HandEvent>, Refused); 5] = [
        (
            "a wager on the PD's seat",
            then(
                &hand,
                2,
                json!({"type": "wager_placed", "id": "x", "seat": 1, "bettor": "Z", "amount": "5"}),
            ),
            |e| matches!(e, SettleError::WagerOnPdSeat { seat: 1, .. }),
        ),
        (
            "a wager id twice",
            [&hand[..3], &hand[2..3]].concat(),
            |e| matches!(e, SettleError::DuplicateWagerId { .. }),
        ),
        (
            "an amount finer than the unit",
            then(
                &hand,
                2,
                json!({"type": "wager_placed", "id": "x", "seat": 3, "bettor": "Z", "amount": "5.001"}),
            ),
            |e| matches!(e, SettleError::Money(_)),
        ),
        (
            "a seat outside the table",
            then(
                &hand,
                2,
                json!({"type": "wager_placed", "id": "x", "seat": 9, "bettor": "Z", "amount": "5"}),
            ),
            |e| matches!(e, SettleError::SeatOutsideTable { .. }),
        ),
        (
            "a die of 7",
            then(&hand, 5, json!({"type": "action_set", "dice": [1, 2, 7]})),
            |e| matches!(e, SettleError::Die { value: 7, .. }),
        ),
    ];
    for (name, events, refused) in cases {
        match run(&events) {
            Err(HandError::Rules(e)) => assert!(refused(&e), "{name}: {e:?}"),
            other => panic!("{name}: {other:?}"),
        }
    }
    let no_wager_seat = then(
        &hand,
        6,
        json!({"type": "outcome_recorded", "seat": 2, "outcome": "pd"}),
    );
    assert_eq!(
        run(&no_wager_seat).unwrap_err(),
        HandError::NoWagersOnSeat("2".into())
    );
}

#[test]
fn mistakes_before_close_are_new_events() {
    let hand = seed_hand();
    let mut events = hand[..5].to_vec();
    events.push(ev(
        json!({"type": "wager_removed", "id": "w3", "reason": "wrong seat"}),
    ));
    events.push(ev(
        json!({"type": "wager_placed", "id": "w3", "seat": 7, "bettor": "Cy", "amount": "100"}),
    ));
    let (state, _) = run(&events).unwrap();
    assert_eq!(
        state.wagers().iter().map(|w| w.seat).collect::<Vec<_>>(),
        [4, 5, 7]
    );

    // Re-recording an outcome replaces it and resets the confirmations.
    let mut events = hand[..10].to_vec();
    events.push(ev(
        json!({"type": "outcome_recorded", "seat": 4, "outcome": "push"}),
    ));
    let (state, _) = run(&events).unwrap();
    assert!(state.confirmed().is_empty());
}

#[test]
fn a_supervisor_correction_recomputes_and_a_void_ends_the_hand() {
    let mut events = seed_hand();
    events.push(ev(json!({"type": "outcome_corrected", "seat": 4, "outcome": "player", "reason": "misread the low hand"})));
    let (state, recorded) = run(&events).unwrap();
    let s: serde_json::Value = serde_json::from_str(state.settlement().unwrap().text()).unwrap();
    assert_eq!(s["steps"][0]["to_bettor"], "120.00");
    assert!(matches!(
        &recorded[12],
        HandEvent::OutcomeCorrected {
            settlement: Some(_),
            ..
        }
    ));
    assert_eq!(HandState::fold(&recorded).unwrap(), state);

    events.push(ev(
        json!({"type": "hand_voided", "reason": "table dispute"}),
    ));
    let voided = run(&events).unwrap().0;
    assert_eq!(voided.phase(), Phase::Voided);
    // A hand closed and then voided keeps what it settled and its
    // corrections (its row and its reports show them).
    assert_eq!(voided.settlement(), state.settlement());
    assert_eq!(voided.corrections(), 1);
    assert_eq!(voided.wagers(), state.wagers());
    events.push(ev(json!({"type": "hand_voided", "reason": "again"})));
    assert!(matches!(run(&events), Err(HandError::WrongPhase { .. })));

    let no_reason = [
        &seed_hand()[..],
        &[ev(json!({"type": "hand_voided", "reason": " "}))],
    ]
    .concat();
    assert!(matches!(run(&no_reason), Err(HandError::Refused { .. })));
}

#[test]
fn unknown_event_fields_and_types_are_refused() {
    assert!(
        serde_json::from_value::<HandEvent>(
            json!({"type": "pd_set", "seat": 1, "player": "P", "bank": "5", "x": 1})
        )
        .is_err()
    );
    assert!(serde_json::from_value::<HandEvent>(json!({"type": "shuffle"})).is_err());
    assert!(
        serde_json::from_value::<HandEvent>(
            json!({"type": "pd_set", "seat": 1, "player": "P", "bank": 5})
        )
        .is_err()
    );
}

#[test]
fn a_pd_set_recorded_before_options_reads_and_writes_back_unchanged() {
    // As recorded before `option` and `declined` existed.
    let old = r#"{"type":"pd_set","seat":1,"player":"Pat","bank":"200.00"}"#;
    let event = HandEvent::from_json(old).expect("old pd_set");
    assert_eq!(
        event,
        HandEvent::PdSet {
            seat: 1,
            player: "Pat".into(),
            bank: crate::common::money::Money::parse("200").expect("money"),
            option: None,
            declined: Vec::new(),
        }
    );
    assert_eq!(serde_json::to_string(&event).expect("json"), old);
    // The seed hand folds, and closes with the same settlement, as before.
    let (state, recorded) = run(&seed_hand()).expect("seed hand");
    assert_eq!(state.pd_choice(), &PdChoice::default());
    assert_eq!(HandState::fold(&recorded).expect("replay"), state);
}

#[test]
fn a_pd_set_records_the_option_and_the_refusals() {
    let new = r#"{"type":"pd_set","seat":3,"player":"Bo","bank":"200.00","option":"bank_one","declined":[{"seat":2,"player":"Ann"}]}"#;
    let event = HandEvent::from_json(new).expect("new pd_set");
    assert_eq!(serde_json::to_string(&event).expect("json"), new);
    let mut events = seed_hand();
    events[1] = event;
    // The seed's wagers are at seats 4..6; seat 3 is the PD now.
    let (state, recorded) = run(&events).expect("hand");
    assert_eq!(
        state.pd_choice(),
        &PdChoice {
            option: Some(PdOption::BankOne),
            declined: vec![Declined {
                seat: 2,
                player: "Ann".into()
            }],
        }
    );
    assert_eq!(HandState::fold(&recorded).expect("replay"), state);

    // A refusal from the PD's own seat, or off the table: refused, named.
    for (declined, field) in [
        (json!([{"seat": 3, "player": "Bo"}]), "declined[0].seat"),
        (
            json!([{"seat": 2, "player": "Ann"}, {"seat": 8, "player": "Al"}]),
            "declined[1].seat",
        ),
    ] {
        let mut events = seed_hand();
        events[1] = ev(
            json!({"type": "pd_set", "seat": 3, "player": "Bo", "bank": "200",
                              "option": "bank_two", "declined": declined}),
        );
        let err = run(&events).expect_err("refused");
        assert!(
            matches!(&err, HandError::Refused { field: f, .. } if f == field),
            "{err}"
        );
        assert!(err.is_bad_input() && !err.is_state_conflict(), "{err}");
    }
}

/// `from_json` reads the frequent events (and a recorded close) without
/// serde's buffering: it must read exactly what the derived form reads, and
/// refuse what it refuses.
#[test]
fn recorded_events_read_the_same_by_the_fast_paths() {
    let (_, recorded) = run(&seed_hand()).expect("seed hand");
    let mut payloads: Vec<String> = recorded
        .iter()
        .map(|e| serde_json::to_string(e).expect("json"))
        .collect();
    payloads.extend([
        r#"{"type":"wager_placed","id":"w9","seat":3,"bettor":"Al","amount":"5.00","backline":true,"payout":"3:2"}"#.into(),
        r#"{"seat":3,"type":"outcome_recorded","outcome":"pd"}"#.into(),
    ]);
    for payload in &payloads {
        let read = HandEvent::from_json(payload).expect(payload);
        if read.settlement().is_none() {
            // serde's own reading cannot carry a settlement (raw JSON).
            let derived: HandEvent = serde_json::from_str(payload).expect(payload);
            assert_eq!(read, derived);
        }
    }
    // Every recorded payload reads back to itself, the close included.
    for (event, payload) in recorded.iter().zip(&payloads) {
        let read = HandEvent::from_json(payload).expect(payload);
        assert_eq!(&read, event);
        assert_eq!(&serde_json::to_string(&read).expect("json"), payload);
    }
    assert!(
        payloads
            .iter()
            .any(|p| p.starts_with(r#"{"type":"hand_closed","settlement":{"#))
    );
    for refused in [
        r#"{"type":"wager_placed","id":"w9","seat":3,"bettor":"Al","amount":"5.00","extra":1}"#,
        r#"{"type":"wager_placed","id":"w9","seat":3,"bettor":"Al","amount":5}"#,
        r#"{"type":"outcome_recorded","seat":3}"#,
        r#"{"type":"outcome_recorded","seat":3,"outcome":"pd","hand":null}"#,
    ] {
        assert!(
            serde_json::from_str::<HandEvent>(refused).is_err(),
            "{refused}"
        );
        assert!(HandEvent::from_json(refused).is_err(), "{refused}");
    }
}

/// A recorded close's settlement is read as text and parsed when checked:
/// one that is not valid JSON, or has anything after it, never matches.
#[test]
fn a_malformed_recorded_settlement_does_not_replay() {
    let (_, recorded) = run(&seed_hand()).expect("seed hand");
    let close = serde_json::to_string(recorded.last().expect("close")).expect("json");
    let mut events = recorded.clone();
    for broken in [
        close.replacen(r#""steps":["#, r#""steps":[,"#, 1),
        close.replacen(
            r#"{"type":"hand_closed","settlement":{"#,
            r#"{"type":"hand_closed","settlement":{"x":1},"y":{"#,
            1,
        ),
    ] {
        let event = HandEvent::from_json(&broken).expect("read as text");
        *events.last_mut().expect("close") = event;
        assert!(HandState::fold(&events).is_err(), "{broken}");
    }
}
