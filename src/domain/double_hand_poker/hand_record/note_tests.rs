//! `hand_note_added`: accepted in every phase, changing nothing but the
//! version; its text checked as free text when new and when replayed.

use serde_json::json;

use super::tests::{ev, run, seed_hand};
use super::*;

fn note(text: &str) -> HandEvent {
    ev(json!({"type": "hand_note_added", "text": text}))
}

/// The hand after its first `n` events, then a note.
fn noted_after(n: usize, text: &str) -> Result<(HandState, Vec<HandEvent>), HandError> {
    let mut events = seed_hand()[..n].to_vec();
    events.push(note(text));
    run(&events)
}

#[test]
fn a_note_is_accepted_in_every_phase_and_changes_no_money() {
    let hand = seed_hand();
    for n in 1..=hand.len() {
        let (without, _) = run(&hand[..n]).unwrap();
        let (with, recorded) = noted_after(n, "player disputed seat 4").unwrap();
        assert_eq!(with.version, without.version + 1, "after {n} events");
        assert_eq!(with.phase(), without.phase(), "after {n} events");
        assert_eq!(with.settlement(), without.settlement(), "after {n} events");
        assert_eq!(with.wagers(), without.wagers(), "after {n} events");
        // Replayed, the stream gives the same state.
        assert_eq!(HandState::fold(&recorded).unwrap(), with);
    }
    // A voided hand takes notes too, and stays voided.
    let mut voided = hand[..4].to_vec();
    voided.push(ev(json!({"type": "hand_voided", "reason": "misdeal"})));
    voided.push(note("checked against surveillance"));
    let (state, _) = run(&voided).unwrap();
    assert_eq!(state.phase(), Phase::Voided);
    // And a hand still goes on after a note.
    let mut events = hand[..3].to_vec();
    events.push(note("Ann asked for the floor"));
    events.extend_from_slice(&hand[3..]);
    let (state, _) = run(&events).unwrap();
    assert_eq!(state.phase(), Phase::Closed);
}

#[test]
fn a_note_is_free_text_recorded_trimmed_and_refused_when_empty_or_long() {
    let (_, recorded) = noted_after(12, "  settlement stands\n").unwrap();
    assert_eq!(recorded.last(), Some(&note("settlement stands")));
    let long = "x".repeat(NOTE_CHARS_MAX + 1);
    for bad in ["", "   ", long.as_str(), "bidi \u{202e} text"] {
        let e = noted_after(12, bad).unwrap_err();
        let field = crate::common::field_error::AsFieldError::field_error(&e)
            .expect("a refused note names its field");
        assert_eq!(field.field(), "event.text", "{bad:?}: {e}");
    }
    assert!(noted_after(12, &"x".repeat(NOTE_CHARS_MAX)).is_ok());
    // A note that was not recorded as checked text does not replay.
    let mut events = run(&seed_hand()).unwrap().1;
    events.push(note(" untrimmed "));
    assert!(HandState::fold(&events).is_err());
}

#[test]
fn a_note_is_not_opening_a_hand_and_reads_back_unchanged() {
    assert!(matches!(
        HandState::fold(&[note("first")]),
        Err(HandError::NotOpened)
    ));
    let text = r#"{"type":"hand_note_added","text":"seat 3 \"disputed\""}"#;
    let event = HandEvent::from_json(text).unwrap();
    assert_eq!(event, note("seat 3 \"disputed\""));
    assert_eq!(event.type_name(), "hand_note_added");
    assert!(event.is_note() && !event.is_supervisor_only());
    assert_eq!(
        HandEvent::parse_tracked(json!({"type": "hand_note_added", "text": 5}))
            .unwrap_err()
            .0,
        ".text"
    );
}
