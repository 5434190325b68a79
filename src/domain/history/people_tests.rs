//! Who was in a hand and with what money, from its fold.

use super::*;
use crate::common::money::Money;
use crate::double_hand_poker::hand_record::{HandEvent, HandState};

fn events(list: &[serde_json::Value]) -> Vec<HandEvent> {
    list.iter()
        .map(|v| HandEvent::from_json(&v.to_string()).unwrap())
        .collect()
}

fn hand(list: &[serde_json::Value]) -> HandState {
    HandState::apply_command(None, &events(list)).unwrap().0
}

fn m(text: &str) -> Money {
    Money::parse(text).unwrap()
}

fn opening() -> Vec<serde_json::Value> {
    use serde_json::json;
    vec![
        json!({"type": "hand_opened", "table": "T1", "dealer": "dana"}),
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}),
        json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}),
        json!({"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"}),
        json!({"type": "wager_placed", "id": "w3", "seat": 4, "bettor": "Ann", "amount": "20", "backline": true}),
    ]
}

fn person(role: Role, name: &str, staked: &str, got: Option<(&str, &str)>) -> Person {
    Person {
        role,
        name: name.into(),
        staked: m(staked),
        received: got.map(|g| m(g.0)),
        net: got.map(|g| m(g.1)),
    }
}

#[test]
fn an_open_hand_has_stakes_and_no_results() {
    let people = HandPeople::of(&hand(&opening())).unwrap();
    assert_eq!(people.pd.as_deref(), Some("Pat"));
    assert_eq!(
        (people.pd_net, people.wagered, people.max_wager),
        (None, m("140"), Some(m("60")))
    );
    assert_eq!(
        people.people,
        vec![
            person(Role::Pd, "Pat", "200", None),
            person(Role::Bettor, "Ann", "80", None),
            person(Role::Bettor, "Bo", "60", None),
        ]
    );
}

#[test]
fn a_closed_hand_has_each_persons_money_from_its_settlement() {
    use serde_json::json;
    let mut list = opening();
    list.extend([
        json!({"type": "action_set", "seat": 4}),
        json!({"type": "outcome_recorded", "seat": 4, "outcome": "pd"}),
        json!({"type": "outcome_recorded", "seat": 5, "outcome": "player"}),
        json!({"type": "steps_confirmed", "wagers": ["w1", "w3", "w2"]}),
        json!({"type": "hand_closed"}),
    ]);
    let people = HandPeople::of(&hand(&list)).unwrap();
    // Ann loses 80 to the PD, Bo wins 60 from it: the PD is up 20.
    assert_eq!(
        people.people,
        vec![
            person(Role::Pd, "Pat", "200", Some(("220.00", "20.00"))),
            person(Role::Bettor, "Ann", "80", Some(("0.00", "-80.00"))),
            person(Role::Bettor, "Bo", "60", Some(("120.00", "60.00"))),
        ]
    );
    assert_eq!(people.pd_net, Some(m("20")));
    assert!(!people.corrected);
    // Each person's net is what they received less what they staked.
    for p in &people.people {
        assert_eq!(p.net, p.received.map(|r| r - p.staked), "{p:?}");
    }
}

#[test]
fn a_voided_hand_returns_every_stake() {
    let mut list = opening();
    list.push(serde_json::json!({"type": "hand_voided", "reason": "misdeal"}));
    let people = HandPeople::of(&hand(&list)).unwrap();
    for p in &people.people {
        assert_eq!(
            (p.received, p.net),
            (Some(p.staked), Some(Money::ZERO)),
            "{p:?}"
        );
    }
    assert_eq!(people.pd_net, Some(Money::ZERO));
}

#[test]
fn a_hand_without_a_pd_has_no_one_yet() {
    let people = HandPeople::of(&hand(&opening()[..1])).unwrap();
    assert_eq!(people, HandPeople::default());
}
