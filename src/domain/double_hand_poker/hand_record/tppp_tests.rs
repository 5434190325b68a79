//! The `california-2026` rules a hand holds by itself: the PD's acceptance
//! is recorded (`pd_offer_each_hand`), and a TPPP marked at the table when
//! the hand opened is never a bettor while another holds the bank
//! (`tppp_wagers_only_as_pd`) — on new events and on replay alike.

use serde_json::json;

use super::{HandError, HandEvent, HandState, Origin, opened_at};
use crate::double_hand_poker::table::TableConfig;

fn table(profile: &str) -> TableConfig {
    serde_json::from_value(json!({"name": "CA-1", "profile": profile, "seats": 7})).unwrap()
}

fn ev(v: serde_json::Value) -> HandEvent {
    serde_json::from_value(v).expect("event")
}

/// A hand at a `profile` table with Ted marked, then `events` with `check`.
fn play(profile: &str, events: &[serde_json::Value], check: Origin) -> Result<(), HandError> {
    let opened = opened_at(&table(profile), "dana", vec!["Ted".into()]);
    let mut state = Some(HandState::apply(None, &opened).expect("opens").0);
    for e in events {
        state = Some(HandState::apply_as(state, &ev(e.clone()), check)?.0);
    }
    Ok(())
}

fn pd(player: &str, option: Option<&str>) -> serde_json::Value {
    let mut e = json!({"type": "pd_set", "seat": 1, "player": player, "bank": "500"});
    if let Some(o) = option {
        e["option"] = json!(o);
    }
    e
}

fn bet(seat: i64, bettor: &str) -> serde_json::Value {
    json!({"type": "wager_placed", "id": format!("w{seat}"), "seat": seat, "bettor": bettor, "amount": "20"})
}

fn field_of(r: &Result<(), HandError>) -> Option<String> {
    match r {
        Err(HandError::Refused { field, .. }) => Some(field.clone()),
        _ => None,
    }
}

#[test]
fn the_profile_holds_the_offer_and_the_tppp_rules() {
    let cases: [(&str, &str, Vec<serde_json::Value>, Option<&str>); 7] = [
        (
            "no option recorded",
            "california-2026",
            vec![pd("Ann", None)],
            Some("option"),
        ),
        (
            "the acceptance recorded",
            "california-2026",
            vec![pd("Ann", Some("bank_one"))],
            None,
        ),
        (
            "a TPPP bets while Ann banks",
            "california-2026",
            vec![pd("Ann", Some("bank_one")), bet(3, "Ted")],
            Some("bettor"),
        ),
        (
            "…in any case and spacing",
            "california-2026",
            vec![pd("Ann", Some("bank_one")), bet(3, " ted ")],
            Some("bettor"),
        ),
        (
            "a player bets while the TPPP banks",
            "california-2026",
            vec![pd("Ted", Some("bank_two")), bet(3, "Bo")],
            None,
        ),
        (
            "lucky-chances: no option needed",
            "lucky-chances",
            vec![pd("Ann", None)],
            None,
        ),
        (
            "lucky-chances: a marked TPPP may bet",
            "lucky-chances",
            vec![pd("Ann", None), bet(3, "Ted")],
            None,
        ),
    ];
    for check in [Origin::New, Origin::Recorded] {
        for (name, profile, events, want) in &cases {
            let got = play(profile, events, check);
            assert_eq!(
                field_of(&got).as_deref(),
                *want,
                "{check:?} {name}: {got:?}"
            );
        }
    }
}

#[test]
fn the_refusal_names_the_rule_and_who_banks() {
    let got = play(
        "california-2026",
        &[pd("Ann", Some("bank_one")), bet(3, "Ted")],
        Origin::New,
    );
    assert_eq!(
        got.unwrap_err().to_string(),
        "event.bettor: \"Ted\" is a TPPP marked at this table: a TPPP takes wagers only while holding the bank, and Ann holds it (tppp_wagers_only_as_pd)"
    );
}

#[test]
fn a_client_may_not_send_the_tppps() {
    let sent = ev(json!({"type": "hand_opened", "table": "CA-1", "tppps": ["Ted"]}));
    let err = super::open_request(&sent, "dana").unwrap_err();
    assert!(
        matches!(&err, HandError::Refused { field, .. } if field == "tppps"),
        "{err}"
    );
}
