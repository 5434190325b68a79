//! A hand is held to the rules its `hand_opened` recorded from the table,
//! on new events and on replay alike.

use serde_json::json;

use super::{HandError, HandEvent, HandState, Origin, opened_at};
use crate::double_hand_poker::table::TableConfig;

fn table() -> TableConfig {
    serde_json::from_value(json!({
        "name": "T1", "profile": "lucky-chances", "seats": 7, "options": {"min_unit": "1"},
        "wager_min": "5", "wager_max": "100",
        "player_schedule": [{"from": "1", "to": "100", "fee": "1"}],
        "bank_schedule": [{"from": "1", "to": "5000", "fee": "2"}]}))
    .unwrap()
}

fn ev(v: serde_json::Value) -> HandEvent {
    serde_json::from_value(v).expect("event")
}

/// The hand opened at [`table`] with its PD set; then `event` with `check`.
fn after(event: serde_json::Value, check: Origin) -> Result<Option<HandEvent>, HandError> {
    let mut state = None;
    for e in [
        opened_at(&table(), "dana", Vec::new()),
        ev(json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"})),
    ] {
        state = Some(HandState::apply(state, &e).expect("setup").0);
    }
    HandState::apply_as(state, &ev(event), check).map(|(_, recorded)| recorded)
}

fn wager(seat: i64, amount: &str) -> serde_json::Value {
    json!({"type": "wager_placed", "id": "w", "seat": seat, "bettor": "Ann", "amount": amount})
}

#[test]
fn wagers_are_held_to_the_recorded_limits_unit_and_seats_on_replay_too() {
    for check in [Origin::New, Origin::Recorded] {
        for (event, field) in [
            (wager(4, "4"), Some("amount")),
            (wager(4, "5"), None),
            (wager(4, "100"), None),
            (wager(4, "100.5"), Some("amount")),
            (wager(4, "101"), Some("amount")),
            (wager(8, "50"), Some("seat")),
            (wager(0, "50"), Some("seat")),
        ] {
            let got = after(event.clone(), check);
            match field {
                None => assert!(got.is_ok(), "{check:?} {event}: {got:?}"),
                Some(f) => assert!(
                    matches!(&got, Err(HandError::Refused { field, .. }) if field == f),
                    "{check:?} {event}: {got:?}"
                ),
            }
        }
    }
}

#[test]
fn the_collection_is_the_posted_schedules() {
    let taken = after(json!({"type": "collection_taken"}), Origin::New).unwrap();
    let Some(HandEvent::CollectionTaken { player, bank }) = taken else {
        panic!("recorded with the posted schedules: {taken:?}");
    };
    assert_eq!(player, table().player_schedule);
    assert_eq!(bank, table().bank_schedule);
    let zero_fee =
        json!({"type": "collection_taken", "player": [{"from": "1", "to": "5000", "fee": "0"}]});
    for check in [Origin::New, Origin::Recorded] {
        let got = after(zero_fee.clone(), check);
        assert!(
            matches!(&got, Err(HandError::Refused { field, .. }) if field == "player"),
            "{got:?}"
        );
    }
}

#[test]
fn names_are_recorded_normalised_and_must_replay_so() {
    let typed = json!({"type": "wager_placed", "id": "w", "seat": 4, "bettor": " Jose\u{301} ", "amount": "50"});
    let recorded = after(typed.clone(), Origin::New).unwrap();
    let Some(HandEvent::WagerPlaced { bettor, .. }) = recorded else {
        panic!("{recorded:?}");
    };
    assert_eq!(bettor, "Jos\u{e9}");
    assert!(after(typed, Origin::Recorded).is_err(), "not as recorded");
    let hidden = json!({"type": "wager_placed", "id": "w", "seat": 4, "bettor": "Ann\u{200b}", "amount": "50"});
    assert!(after(hidden, Origin::New).is_err());
}

#[test]
fn a_client_may_send_only_the_table_name() {
    let sent = ev(json!({"type": "hand_opened", "table": " T1 "}));
    assert_eq!(super::open_request(&sent, "dana").unwrap(), "T1");
    for (extra, field) in [
        (json!({"seats": 10}), "seats"),
        (json!({"profile": "nevada"}), "profile"),
        (json!({"options": {}}), "options"),
        (json!({"posted": {}}), "posted"),
        (json!({"dealer": "eve"}), "dealer"),
    ] {
        let mut v = json!({"type": "hand_opened", "table": "T1"});
        for (k, x) in extra.as_object().unwrap() {
            v[k] = x.clone();
        }
        let got = super::open_request(&ev(v), "dana");
        assert!(
            matches!(&got, Err(HandError::Refused { field: f, .. }) if f == field),
            "{got:?}"
        );
    }
    let same_dealer = ev(json!({"type": "hand_opened", "table": "T1", "dealer": "dana"}));
    assert!(super::open_request(&same_dealer, "dana").is_ok());
}
