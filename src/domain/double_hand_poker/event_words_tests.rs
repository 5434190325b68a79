//! Every event kind in words, each read against the hand before it.

use serde_json::json;

use super::*;

fn ev(value: serde_json::Value) -> HandEvent {
    serde_json::from_value(value).expect("event json")
}

/// A hand through every kind of event, each with its sentence.
#[test]
fn every_event_kind_reads_as_a_sentence() {
    let table = [
        (
            json!({"type": "hand_opened", "table": "DHP-1", "dealer": "dana"}),
            "Hand opened at table DHP-1, dealer dana",
        ),
        (
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200",
                   "option": "bank_one", "declined": [{"seat": 2, "player": "Ann"}]}),
            "Pat is the PD on seat 1, banking 200.00 (banks one hand, then passes the option); refused first: Ann (seat 2)",
        ),
        (
            json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}),
            "Ann bets 60.00 on seat 4",
        ),
        (
            json!({"type": "wager_placed", "id": "w2", "seat": 4, "bettor": "Gus", "amount": "10", "backline": true}),
            "Gus bets 10.00 backline on seat 4",
        ),
        (
            json!({"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"}),
            "Cy bets 100.00 on seat 6",
        ),
        (
            json!({"type": "wager_removed", "id": "w3", "reason": "entered by mistake"}),
            "Cy's 100.00 on seat 6 removed: entered by mistake",
        ),
        (
            json!({"type": "collection_taken"}),
            "The collection is taken by the table's schedules",
        ),
        // 3 + 4 + 6 = 13: the 6th position clockwise from the PD's seat 1.
        (
            json!({"type": "action_set", "dice": [3, 4, 6]}),
            "The PD rolls 3, 4, 6: ACTION on seat 6",
        ),
        (
            json!({"type": "outcome_recorded", "seat": 4, "outcome": "player"}),
            "Seat 4: the player wins",
        ),
        (
            json!({"type": "hand_recorded", "seat": 1, "hand": {"cards": "As Ah Kd Kc 9d 4s 2h", "set": "house"}}),
            "The PD's hand (Pat, seat 1): cards As Ah Kd Kc 9d 4s 2h, set by the house way",
        ),
        (
            json!({"type": "hand_recorded", "seat": 4, "hand": {"high": "Qs Qh Jd Jc 8d", "low": "7s 3h"}}),
            "Seat 4's hand: high Qs Qh Jd Jc 8d, low 7s 3h",
        ),
        (
            json!({"type": "steps_confirmed", "wagers": ["w1", "w2"]}),
            "Settlement steps confirmed: Ann's 60.00 on seat 4; Gus's 10.00 backline on seat 4",
        ),
        (
            json!({"type": "hand_closed"}),
            "The hand is closed and settled",
        ),
        (
            json!({"type": "outcome_corrected", "seat": 4, "outcome": "push", "reason": "misread"}),
            "Correction of seat 4: push (reason: misread); the hand is settled again",
        ),
        (
            json!({"type": "hand_note_added", "text": "player disputed seat 4"}),
            "Note: player disputed seat 4",
        ),
        (
            json!({"type": "hand_voided", "reason": "deck short"}),
            "The hand is voided (reason: deck short); every bet is returned",
        ),
    ];
    let events: Vec<HandEvent> = table.iter().map(|(e, _)| ev(e.clone())).collect();
    let words = sentences(&events);
    for ((event, want), got) in table.iter().zip(&words) {
        assert_eq!(got, want, "{event}");
    }
    assert_eq!(words.len(), table.len());
}

#[test]
fn the_action_seat_given_directly_and_a_wager_unknown_are_still_worded() {
    let cases = [
        (json!({"type": "action_set", "seat": 3}), "ACTION on seat 3"),
        (
            json!({"type": "wager_removed", "id": "w9", "reason": "typo"}),
            "wager w9 removed: typo",
        ),
        (
            json!({"type": "outcome_recorded", "seat": 2, "outcome": "pd"}),
            "Seat 2: the PD wins",
        ),
        (
            json!({"type": "hand_opened", "table": "T1"}),
            "Hand opened at table T1",
        ),
    ];
    for (event, want) in cases {
        assert_eq!(sentence(None, &ev(event.clone())), want, "{event}");
    }
}

#[test]
fn a_recorded_close_names_the_house_collection() {
    let events: Vec<HandEvent> = [
        json!({"type": "hand_opened", "table": "T1", "dealer": "dana"}),
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}),
        json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}),
        json!({"type": "action_set", "seat": 4}),
        json!({"type": "outcome_recorded", "seat": 4, "outcome": "pd"}),
        json!({"type": "steps_confirmed", "wagers": ["w1"]}),
        json!({"type": "hand_closed"}),
    ]
    .into_iter()
    .map(ev)
    .collect();
    // As the store records it: the close carries its settlement.
    let mut state = None;
    let mut recorded = Vec::new();
    for e in &events {
        let (next, as_recorded) = HandState::apply(state.take(), e).unwrap();
        state = Some(next);
        recorded.push(as_recorded.unwrap_or_else(|| e.clone()));
    }
    let words = sentences(&recorded);
    assert_eq!(
        words.last().unwrap(),
        "The hand is closed and settled; the house collects 0.00"
    );
}
