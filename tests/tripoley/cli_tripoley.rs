//! The real binary: `pitbook tripoley round | final [FILE] [--pretty]` —
//! FILE or stdin, one line of JSON that is the domain's (and the API's) body,
//! `--pretty` indented — and every kind of bad input (exit 2, one line on
//! stderr naming the field and value, nothing on stdout).

use std::io::Write;

use pitbook::domain::tripoley;
use serde_json::{Value, json};

use crate::common::cli::{bad, ok, pitbook, with_stdin};

const ROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tripoley/round.json");
const FINAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tripoley/final.json");

fn file_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

fn temp_json(value: &Value) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(value.to_string().as_bytes()).expect("write");
    f
}

#[test]
fn round_prints_the_domains_json_on_one_line() {
    let text = std::fs::read_to_string(ROUND).unwrap();
    let expected = tripoley::round_json(text.as_bytes(), false).unwrap() + "\n";
    assert_eq!(ok(&["tripoley", "round", ROUND]), expected);
    assert_eq!(expected.lines().count(), 1);
    let body: Value = serde_json::from_str(&expected).unwrap();
    assert_eq!(
        body["chips"],
        json!({"Ann": 38, "Bo": 43, "Cy": 0, "Dee": 23})
    );
    assert_eq!(body["total"], 116);
    let pretty = ok(&["tripoley", "round", ROUND, "--pretty"]);
    assert_eq!(
        pretty,
        tripoley::round_json(text.as_bytes(), true).unwrap() + "\n"
    );
    assert_eq!(serde_json::from_str::<Value>(&pretty).unwrap(), body);
}

#[test]
fn stdin_is_read_without_a_file_or_with_a_dash() {
    let text = std::fs::read_to_string(ROUND).unwrap();
    let expected = ok(&["tripoley", "round", ROUND]);
    for args in [&["tripoley", "round"][..], &["tripoley", "round", "-"][..]] {
        let (code, stdout, stderr) = with_stdin(args, &text);
        assert_eq!((code, stderr.as_str()), (0, ""), "{args:?}");
        assert_eq!(stdout, expected, "{args:?}");
    }
    let (code, stdout, stderr) = with_stdin(&["tripoley", "round"], "{\"profile\": \"classic\"");
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(stderr.contains("EOF while parsing"), "{stderr}");
}

#[test]
fn final_prints_the_last_hands_payouts() {
    let text = std::fs::read_to_string(FINAL).unwrap();
    let out = ok(&["tripoley", "final", FINAL]);
    assert_eq!(
        out,
        tripoley::final_json(text.as_bytes(), false).unwrap() + "\n"
    );
    let body: Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        body["chips"],
        json!({"Ann": 43, "Bo": 43, "Cy": 6, "Dee": 23})
    );
    assert!(body["board"].as_object().unwrap().values().all(|v| v == 0));
    let (code, stdout, _) = with_stdin(&["tripoley", "final"], &text);
    assert_eq!((code, stdout), (0, out));
}

/// The example round with one change.
fn round_with(change: impl FnOnce(&mut Value)) -> tempfile::NamedTempFile {
    let mut v = file_json(ROUND);
    change(&mut v);
    temp_json(&v)
}

fn refused(file: &tempfile::NamedTempFile, needle: &str) {
    bad(
        &["tripoley", "round", file.path().to_str().unwrap()],
        needle,
    );
}

#[test]
fn bad_rounds_exit_2_naming_the_field_and_value() {
    type Case = (fn(&mut Value), &'static str);
    let cases: [Case; 14] = [
        (
            |v| v["hands"]["Ann"] = json!("Ah 8s 9s Ts As Ad 8c"),
            "hands: 48 cards dealt; the deal is exactly the 52 cards",
        ),
        (
            |v| v["hands"]["Dee"] = json!("Qh Ah"),
            "hands.Dee: Ah is dealt twice (also in hands.Ann)",
        ),
        (
            |v| v["chips"]["Zed"] = json!(4),
            "chips.Zed: \"Zed\" is not at the table",
        ),
        (
            |v| v["dealer"] = json!("Zed"),
            "dealer: \"Zed\" is not among the players",
        ),
        (
            |v| v["profile"] = json!("cadaco"),
            "spare.auction: the spare hand is not played under the cadaco profile",
        ),
        (
            |v| v["spare"]["auction"]["price"] = json!(4),
            "spare.auction.price: 4 is more than the 3 chips \"Cy\" has after the ante",
        ),
        (
            |v| v["poker"]["shown"]["Bo"] = json!("6h 7c 8d 9d Ts"),
            "poker.shown.Bo: Ts is not in \"Bo\"'s hand",
        ),
        (
            |v| v["poker"]["contributions"]["Bo"] = json!(8),
            "poker.contributions.Bo: 8 is neither the 10 the most any player still in put in nor all-in",
        ),
        (
            |v| v["michigan"]["cards_left"]["Ann"] = json!(1),
            "michigan.cards_left.Ann: 1, but \"Ann\" went out",
        ),
        (
            |v| v["poker"]["raises"] = json!(2),
            "poker.raises: unknown field `raises`",
        ),
        (
            |v| v["chips"]["Bo"] = json!(-5),
            "chips.Bo: -5 is not a number of chips from 0 to 1000000",
        ),
        (
            |v| v["board"]["pot"] = json!(10_000_000),
            "board.pot: 10000000 is not a number of chips from 0 to 1000000",
        ),
        (
            |v| v["ante"] = json!(0),
            "ante: 0 is not an ante from 1 to 1000 chips",
        ),
        (
            |v| v["chip_value"] = json!(0.25),
            "chip_value: invalid type: floating point `0.25`",
        ),
    ];
    for (change, needle) in cases {
        refused(&round_with(change), needle);
    }
}

#[test]
fn bad_final_input_exits_2() {
    let mut v = file_json(FINAL);
    v["hands"]["Ann"] = json!("Ks Kd 9c 7h");
    bad(
        &["tripoley", "final", temp_json(&v).path().to_str().unwrap()],
        "hands.Ann: 4 cards; the last hand is exactly 5",
    );
    let mut v = file_json(FINAL);
    v["hands"]["Dee"] = json!("As Jd 8c 6h Kd");
    bad(
        &["tripoley", "final", temp_json(&v).path().to_str().unwrap()],
        "hands.Dee: Kd is dealt twice (also in hands.Ann)",
    );
}

#[test]
fn a_missing_file_is_an_environment_failure() {
    let (code, stdout, stderr) = pitbook(&["tripoley", "round", "/nonexistent/round.json"]);
    assert_eq!((code, stdout.as_str()), (1, ""));
    assert!(
        stderr.contains("cannot read /nonexistent/round.json"),
        "{stderr}"
    );
}

#[test]
fn an_oversized_input_is_bad_input() {
    let big = " ".repeat(tripoley::INPUT_BYTES_MAX + 1);
    let (code, stdout, stderr) = with_stdin(&["tripoley", "round"], &big);
    assert_eq!((code, stdout.as_str()), (2, ""));
    assert!(
        stderr.contains("body: 65537 bytes is more than the limit of 65536"),
        "{stderr}"
    );
}
