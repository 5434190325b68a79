//! Tests of the hand-history export: the same line every time, the seed
//! hand's money, each status, cards and settings, CSV rows and notes (the
//! checks of exported lines are in `check_tests.rs`); and the fixtures both
//! use.

use serde_json::{Value, json};

use super::*;
use crate::common::audit::{AuditKey, GENESIS_HASH};
use crate::double_hand_poker::hand_record::{HandEvent, HandState};

const HAND: &str = "0193a6f0-0000-7000-8000-000000000001";

pub(super) fn key() -> AuditKey {
    AuditKey::from_bytes(&[0xab; 32]).unwrap()
}

/// The seed's $200 example, as the dealer `dana` records it.
pub(super) fn seed_events() -> Vec<Value> {
    vec![
        json!({"type": "hand_opened", "table": "T1", "dealer": "dana", "profile": "lucky-chances",
               "options": {}, "seats": 7, "posted": {"wager_min": "5.00"}}),
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}),
        json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}),
        json!({"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"}),
        json!({"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"}),
        json!({"type": "action_set", "seat": 4}),
        json!({"type": "outcome_recorded", "seat": 4, "outcome": "pd"}),
        json!({"type": "outcome_recorded", "seat": 5, "outcome": "player"}),
        json!({"type": "outcome_recorded", "seat": 6, "outcome": "player"}),
        json!({"type": "steps_confirmed", "wagers": ["w1", "w2"]}),
        json!({"type": "steps_confirmed", "wagers": ["w3"]}),
        json!({"type": "hand_closed"}),
    ]
}

/// The hand's records as the store writes them: each event applied with
/// every check, recorded (with its settlement), numbered from seq 101,
/// chained and hashed with [`key`]. A supervisor's events are `sam`'s.
fn records_of(events: &[Value]) -> Vec<ExportRecord> {
    let key = key();
    let mut state = None;
    let mut prev = GENESIS_HASH.to_string();
    let mut out = Vec::new();
    for (i, value) in events.iter().enumerate() {
        let event: HandEvent = serde_json::from_value(value.clone()).expect("event");
        let (next, recorded) = HandState::apply(state.take(), &event).expect("applies");
        state = Some(next);
        let recorded = recorded.unwrap_or(event);
        let mut r = ExportRecord {
            seq: 101 + i as i64,
            recorded_at: format!("2026-12-01T19:42:{:02}.000000Z", i),
            actor: if recorded.is_supervisor_only() {
                "sam"
            } else {
                "dana"
            }
            .to_string(),
            table_id: Some("T1".into()),
            hand_id: Some(HAND.into()),
            event_type: recorded.type_name().to_string(),
            payload: serde_json::to_string(&recorded).unwrap(),
            prev_hash: prev.clone(),
            hash: String::new(),
        };
        r.hash = key.record_hash(&r.fields());
        prev = r.hash.clone();
        out.push(r);
    }
    out
}

pub(super) fn export(events: &[Value]) -> ExportedHand {
    build(HandSource {
        id: HAND.into(),
        number: Some(7),
        records: records_of(events),
    })
    .expect("builds")
}

/// The rules file's seed hand, exported (for the line writer's tests).
pub(super) fn exported_seed_hand() -> ExportedHand {
    export(&seed_events())
}

pub(super) fn line_of(hand: &ExportedHand) -> String {
    serde_json::to_string(hand).unwrap()
}

/// Checks a line as `history check` does, with the key.
pub(super) fn check_line(line: &str) -> HandCheck {
    let hand = read_line(1, line).expect("reads");
    check_hand(hand, Some(&key()), &mut Links::default())
}

#[test]
fn a_hand_exports_to_the_same_line_every_time() {
    let hand = export(&seed_events());
    let got: Value = serde_json::from_str(&line_of(&hand)).unwrap();
    let expected: Value = serde_json::from_str(include_str!("seed_hand.json")).unwrap();
    // What the line states beside its records (the records are checked below).
    let mut summary = got.clone();
    summary["records"] = json!([]);
    if std::env::var_os("HISTORY_EXPORT_BLESS").is_some() {
        println!("{}", serde_json::to_string_pretty(&summary).unwrap());
    }
    assert_eq!(summary, expected);
    let records = got["records"].as_array().unwrap();
    assert_eq!(records.len(), 12);
    assert_eq!(records[0]["seq"], 101);
    assert_eq!(records[0]["prev_hash"], GENESIS_HASH);
    assert_eq!(records[11]["event_type"], "hand_closed");
    // The payload is the exact text the hash covers.
    assert!(
        records[11]["payload"]
            .as_str()
            .unwrap()
            .starts_with(r#"{"type":"hand_closed","settlement":{"#)
    );
}

#[test]
fn the_seed_hand_pays_as_the_rules_example_says() {
    let hand = export(&seed_events());
    assert_eq!(hand.status, Status::Closed);
    assert_eq!(
        hand.closed_at.as_deref(),
        Some("2026-12-01T19:42:11.000000Z")
    );
    let paid: Vec<(String, String, String, String)> = hand
        .wagers
        .iter()
        .map(|w| {
            let r = w.result.as_ref().unwrap();
            (
                w.id.clone(),
                r.covered.to_canonical(),
                r.paid.to_canonical(),
                r.net.to_canonical(),
            )
        })
        .collect();
    let row = |id: &str, covered: &str, paid: &str, net: &str| {
        (
            id.to_string(),
            covered.to_string(),
            paid.to_string(),
            net.to_string(),
        )
    };
    assert_eq!(
        paid,
        vec![
            row("w1", "60.00", "0.00", "-60.00"),
            row("w2", "60.00", "120.00", "60.00"),
            // Only 80 of the bank is still in action: 20 returned with no action.
            row("w3", "80.00", "180.00", "80.00"),
        ]
    );
    assert_eq!(hand.action.as_ref().unwrap().seat, 4);
    assert_eq!(
        hand.pd
            .as_ref()
            .unwrap()
            .result
            .as_ref()
            .unwrap()
            .net
            .to_canonical(),
        "-80.00"
    );
}

#[test]
fn each_status_is_stated_with_its_times() {
    let mut seed = seed_events();
    let betting: Vec<Value> = seed[..3].to_vec();
    let dealt: Vec<Value> = seed[..7].to_vec();
    let mut corrected = seed.clone();
    corrected.push(
        json!({"type": "outcome_corrected", "seat": 4, "outcome": "push", "reason": "misread"}),
    );
    let mut voided = seed[..5].to_vec();
    voided.push(json!({"type": "hand_voided", "reason": "deck short"}));
    seed.truncate(12);
    // (events, status, closed_at, voided_at, corrections, wagers with a result)
    type Case<'a> = (
        &'a [Value],
        Status,
        Option<&'a str>,
        Option<&'a str>,
        usize,
        usize,
    );
    let cases: [Case<'_>; 5] = [
        (&betting, Status::Open, None, None, 0, 0),
        (&dealt, Status::Open, None, None, 0, 0),
        (
            &seed,
            Status::Closed,
            Some("2026-12-01T19:42:11.000000Z"),
            None,
            0,
            3,
        ),
        (
            &corrected,
            Status::Corrected,
            Some("2026-12-01T19:42:11.000000Z"),
            None,
            1,
            3,
        ),
        (
            &voided,
            Status::Voided,
            None,
            Some("2026-12-01T19:42:05.000000Z"),
            0,
            0,
        ),
    ];
    for (events, status, closed_at, voided_at, corrections, results) in cases {
        let hand = export(events);
        let what = format!("{} events", events.len());
        assert_eq!(hand.status, status, "{what}");
        assert_eq!(hand.closed_at.as_deref(), closed_at, "{what}");
        assert_eq!(hand.voided_at.as_deref(), voided_at, "{what}");
        assert_eq!(hand.corrections.len(), corrections, "{what}");
        let with_result = hand.wagers.iter().filter(|w| w.result.is_some()).count();
        assert_eq!(with_result, results, "{what}");
        // Every line checks out as written.
        assert_eq!(
            check_line(&line_of(&hand)).problems,
            Vec::<String>::new(),
            "{what}"
        );
    }
    // The correction is paid: seat 4 pushes, so Ann gets her 60 back.
    let hand = export(&corrected);
    let w1 = hand.wagers[0].result.as_ref().unwrap();
    assert_eq!(
        (w1.outcome.to_string(), w1.paid.to_canonical()),
        ("push".into(), "60.00".into())
    );
    assert_eq!(hand.corrections[0].by, "sam");
    assert_eq!(hand.void, None);
    assert_eq!(export(&voided).void.unwrap().reason, "deck short");
}

#[test]
fn cards_and_settings_are_exported_where_entered() {
    let events = vec![
        json!({"type": "hand_opened", "table": "T1", "dealer": "dana", "seats": 7}),
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "100"}),
        json!({"type": "wager_placed", "id": "w1", "seat": 2, "bettor": "Ann", "amount": "10"}),
        json!({"type": "action_set", "dice": [1, 1, 1]}),
        json!({"type": "hand_recorded", "seat": 1, "hand": {"high": "As Ad Kc Qh 2s", "low": "Ks Kd"}}),
        json!({"type": "hand_recorded", "seat": 2, "hand": {"cards": "2c 3d 4h 5s 7c 9d Jh", "set": "house"}}),
        json!({"type": "steps_confirmed", "wagers": ["w1"]}),
        json!({"type": "hand_closed"}),
    ];
    let hand = export(&events);
    assert_eq!(
        hand.action,
        Some(Action {
            dice: Some(vec![1, 1, 1]),
            seat: 3
        })
    );
    let seats: Vec<(i64, bool)> = hand
        .results
        .iter()
        .map(|r| (r.seat, r.hand.is_some()))
        .collect();
    assert_eq!(seats, vec![(1, true), (2, true)]);
    assert_eq!(
        hand.wagers[0].result.as_ref().unwrap().outcome.to_string(),
        "pd"
    );
    assert_eq!(check_line(&line_of(&hand)).problems, Vec::<String>::new());
}

/// A record's payload changed; `rehash` recomputes its hash (as someone
/// holding the key, or writing a chain of their own, would).
pub(super) fn with_payload(
    line: &str,
    index: usize,
    change: impl Fn(&mut Value),
    rehash: bool,
) -> String {
    let mut hand: ExportedHand = serde_json::from_str(line).unwrap();
    let r = &mut hand.records[index];
    let mut payload: Value = serde_json::from_str(&r.payload).unwrap();
    change(&mut payload);
    r.payload = serde_json::to_string(&payload).unwrap();
    if rehash {
        r.hash = key().record_hash(&r.fields());
    }
    line_of(&hand)
}

#[test]
fn csv_rows_are_one_per_wager_with_formulas_neutralised() {
    let mut events = seed_events();
    events[2]["bettor"] = json!("=HYPERLINK(\"x\")");
    let rows = csv_rows(&export(&events), "2026-12-01 11:42:00 PST");
    assert_eq!(rows.len(), 3);
    let by_name = |r: &[String; 19], name: &str| {
        r[CSV_HEADER.iter().position(|h| *h == name).unwrap()].clone()
    };
    assert_eq!(by_name(&rows[0], "bettor"), "'=HYPERLINK(\"x\")");
    assert_eq!(by_name(&rows[0], "hand_number"), "7");
    assert_eq!(
        by_name(&rows[0], "opened_at_local"),
        "2026-12-01 11:42:00 PST"
    );
    assert_eq!(by_name(&rows[0], "net"), "-60.00");
    assert_eq!(by_name(&rows[2], "no_action"), "20.00");
    assert_eq!(by_name(&rows[2], "paid"), "180.00");
    assert_eq!(by_name(&rows[2], "pd"), "Pat");

    let mut voided = seed_events()[..5].to_vec();
    voided.push(json!({"type": "hand_voided", "reason": "deck short"}));
    let rows = csv_rows(&export(&voided), "");
    let outcome_paid: Vec<(String, String)> = rows
        .iter()
        .map(|r| (by_name(r, "outcome"), by_name(r, "paid")))
        .collect();
    assert_eq!(outcome_paid[2], ("void".into(), "100.00".into()));
}

/// `records` with a record of `event_type` and `payload` appended by `sam`,
/// chained and hashed as the store would.
fn with_record(
    mut records: Vec<ExportRecord>,
    event_type: &str,
    payload: Value,
) -> Vec<ExportRecord> {
    let last = records.last().unwrap().clone();
    let mut r = ExportRecord {
        seq: last.seq + 1,
        recorded_at: "2026-12-01T20:00:00.000000Z".into(),
        actor: "sam".into(),
        event_type: event_type.into(),
        payload: payload.to_string(),
        prev_hash: last.hash.clone(),
        hash: String::new(),
        ..last
    };
    r.hash = key().record_hash(&r.fields());
    records.push(r);
    records
}

#[test]
fn notes_are_shown_and_a_kind_not_rendered_is_still_exported_and_checked() {
    let records = with_record(
        records_of(&seed_events()),
        "hand_note_added",
        json!({"type": "hand_note_added", "text": "Ann disputed seat 4; surveillance: settlement stands"}),
    );
    let records = with_record(
        records,
        "hand_flagged",
        json!({"type": "hand_flagged", "level": 2}),
    );
    let hand = build(HandSource {
        id: HAND.into(),
        number: Some(7),
        records,
    })
    .expect("a kind the fold does not know does not stop the export");
    assert_eq!(
        hand.notes,
        vec![Note {
            seq: 113,
            at: "2026-12-01T20:00:00.000000Z".into(),
            by: "sam".into(),
            text: "Ann disputed seat 4; surveillance: settlement stands".into(),
        }]
    );
    assert_eq!(hand.records.len(), 14, "every record of the hand");
    assert_eq!(hand.status, Status::Closed);
    let line = line_of(&hand);
    assert_eq!(check_line(&line).problems, Vec::<String>::new());
    // The note's text is covered by its record's hash, and the line by the rebuild.
    let edited = with_payload(&line, 12, |p| p["text"] = json!("no dispute"), false);
    let problems = check_line(&edited).problems;
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("seq 113: hash mismatch")),
        "{problems:?}"
    );
    assert!(
        problems.iter().any(|p| p.starts_with("notes: ")),
        "{problems:?}"
    );
    // A known kind that does not parse is still refused.
    let broken = with_record(
        records_of(&seed_events()),
        "wager_placed",
        json!({"type": "wager_placed"}),
    );
    let refused = build_summary(HAND, None, &broken).unwrap_err();
    assert!(
        matches!(refused, BuildError::Unreadable { seq: 113, .. }),
        "{refused}"
    );
}
