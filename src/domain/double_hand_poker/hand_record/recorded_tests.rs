//! Hands recorded by an earlier build of pitbook (`bench hands`): five
//! closed then voided, five corrected after close, four closed. Each
//! replays to the settlement it recorded (a close or a correction whose
//! recomputed settlement differs is refused), and each event reads and
//! writes back byte for byte: the record's JSON shape lives in serde alone.

use super::{HandEvent, HandState, Phase};

const RECORDED: &str = include_str!("fixtures/recorded_hands.jsonl");

#[test]
fn hands_recorded_by_an_earlier_build_replay_unchanged() {
    let mut voided = 0;
    let mut corrected = 0;
    let hands: Vec<&str> = RECORDED.trim_end().split("\n\n").collect();
    assert_eq!(hands.len(), 14);
    for hand in hands {
        let events: Vec<HandEvent> = hand
            .lines()
            .map(|line| HandEvent::from_json(line).expect("an event"))
            .collect();
        for (line, event) in hand.lines().zip(&events) {
            assert_eq!(serde_json::to_string(event).expect("writes"), line);
        }
        let state = HandState::fold(&events).expect("replays");
        assert!(state.settlement().is_some(), "every one was closed");
        voided += usize::from(state.phase() == Phase::Voided);
        corrected += usize::from(state.corrections() > 0);
    }
    assert_eq!((voided, corrected), (5, 5));
}
