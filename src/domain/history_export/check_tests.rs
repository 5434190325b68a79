//! Tests of `history check` on exported lines: tampering caught, hashes
//! left unchecked without the key, a line that is not an export named by
//! line and field, and the chain's links checked across interleaved hands.

use serde_json::{Value, json};

use super::tests::{check_line, export, key, line_of, seed_events, with_payload};
use super::*;
use crate::common::audit::{AuditKey, GENESIS_HASH};

#[test]
fn tampering_is_caught_by_the_check() {
    let line = line_of(&export(&seed_events()));
    assert_eq!(check_line(&line).problems, Vec::<String>::new());
    let edit = |change: &dyn Fn(&mut Value)| {
        let mut v: Value = serde_json::from_str(&line).unwrap();
        change(&mut v);
        v.to_string()
    };
    let settlement_paid_more =
        |p: &mut Value| p["settlement"]["steps"][2]["to_bettor"] = json!("200.00");
    let cases: Vec<(&str, String, &str)> = vec![
        (
            "the close's settlement changed and rehashed",
            with_payload(&line, 11, settlement_paid_more, true),
            "seq 112: the recorded settlement differs",
        ),
        (
            "the close's settlement changed, hash kept",
            with_payload(&line, 11, settlement_paid_more, false),
            "seq 112: hash mismatch",
        ),
        (
            "a wager's amount changed and rehashed",
            with_payload(&line, 2, |p| p["amount"] = json!("70"), true),
            "seq 112: the recorded settlement differs",
        ),
        (
            "the line says Cy was paid more",
            edit(&|v| v["wagers"][2]["result"]["paid"] = json!("200.00")),
            "wagers: the line states what its records do not",
        ),
        (
            "the line's settlement changed",
            edit(&|v| v["settlement"]["pd_returned"] = json!("1.00")),
            "settlement: the line states",
        ),
        (
            "the line says the hand was corrected",
            edit(&|v| v["status"] = json!("corrected")),
            "status: the line states",
        ),
        (
            "a record's hash changed",
            edit(&|v| v["records"][4]["hash"] = json!("00".repeat(32))),
            "seq 105: hash mismatch",
        ),
        (
            // Seq 107 could be another hand's: the gap itself is no proof,
            // but the hand no longer replays.
            "a record left out",
            edit(&|v| {
                v["records"].as_array_mut().unwrap().remove(6);
            }),
            "seq 112: the event does not replay",
        ),
        (
            "a record moved onto another chain and rehashed",
            {
                let mut hand: ExportedHand = serde_json::from_str(&line).unwrap();
                let r = &mut hand.records[4];
                r.prev_hash = "11".repeat(32);
                r.hash = key().record_hash(&r.fields());
                line_of(&hand)
            },
            "seq 105: prev_hash does not match the hash of seq 104",
        ),
        (
            "a record's actor changed",
            edit(&|v| v["records"][0]["actor"] = json!("mallory")),
            "seq 101: hash mismatch",
        ),
    ];
    for (what, tampered, expected) in cases {
        let problems = check_line(&tampered).problems;
        assert!(
            problems.iter().any(|p| p.starts_with(expected)),
            "{what}: expected a problem starting {expected:?}, got {problems:?}"
        );
    }
}

#[test]
fn without_the_key_hashes_are_not_checked_but_the_rest_is() {
    let line = line_of(&export(&seed_events()));
    let wrong = AuditKey::from_bytes(&[0xcd; 32]).unwrap();
    let hand = read_line(1, &line).unwrap();
    let checked = check_hand(hand.clone(), Some(&wrong), &mut Links::default());
    assert_eq!(
        checked.problems.len(),
        12,
        "every record fails under another key"
    );
    let checked = check_hand(hand, None, &mut Links::default());
    assert_eq!(
        (checked.hashes, checked.records, checked.settled),
        (0, 12, true)
    );
    assert!(checked.problems.is_empty());
}

#[test]
fn a_line_that_is_not_an_export_names_the_line_and_field() {
    let line = line_of(&export(&seed_events()));
    let mut wrong_version: Value = serde_json::from_str(&line).unwrap();
    wrong_version["format"] = json!("pitbook-hand-history/2");
    let mut number_money: Value = serde_json::from_str(&line).unwrap();
    number_money["wagers"][1]["amount"] = json!(60);
    let mut unknown: Value = serde_json::from_str(&line).unwrap();
    unknown["extra"] = json!(1);
    let cases: Vec<(String, Option<&str>, &str)> = vec![
        ("seq,recorded_at,actor".into(), None, "not JSON"),
        (
            "{\"seq\": 1}".into(),
            Some("format"),
            "missing: this is not a pitbook hand-history export",
        ),
        (
            wrong_version.to_string(),
            Some("format"),
            "\"pitbook-hand-history/2\" is not pitbook-hand-history/1",
        ),
        (
            number_money.to_string(),
            Some("wagers[1].amount"),
            "invalid type",
        ),
        (unknown.to_string(), Some("extra"), "unknown field"),
        (format!("{line} {{}}"), None, "not one JSON value"),
        ("[1, 2]".into(), Some("format"), "missing"),
    ];
    for (text, field, message) in cases {
        let e = read_line(9, &text).unwrap_err();
        assert_eq!(e.line, 9);
        assert_eq!(e.field.as_deref(), field, "{text:.60}: {e}");
        assert!(e.message.starts_with(message), "{text:.60}: {e}");
        assert!(e.to_string().starts_with("line 9: "), "{e}");
    }
}

#[test]
fn links_are_checked_across_hands_as_they_interleave() {
    let mut links = Links::default();
    // Hand A holds 1 and 3, hand B 2 and 4: each link closes on a later line.
    assert_eq!(links.see(1, GENESIS_HASH, "h1"), None);
    assert_eq!(links.see(3, "h2", "h3"), None);
    assert_eq!(links.see(2, "h1", "h2"), None);
    assert_eq!(links.see(4, "hX", "h4"), Some(4));
    assert_eq!(links.see(6, "h5", "h6"), None);
    assert_eq!(links.checked, 3);
    // A record a whole window of seqs later takes 6's place: 7's link to
    // 6 is no longer checked, but the ones after still are.
    let far = 6 + Links::WINDOW as i64;
    assert_eq!(links.see(far, "hF", "hG"), None);
    assert_eq!(links.see(7, "h6", "h7"), None);
    assert_eq!(links.checked, 3);
    assert_eq!(links.see(8, "h7!", "h8"), Some(8));
    assert_eq!(links.see(-2, "h-3", "h-2"), None);
    assert_eq!(links.see(-1, "h-2", "h-1"), None);
    assert_eq!(links.checked, 5);
}
