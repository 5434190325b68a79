//! `pitbook drill`: every kind as words and as JSON, the same seed the
//! same drill, a settle drill checked with `pitbook settle`, bad kinds and
//! levels refused with exit 2 (docs/training.md).

use crate::common::cli::{bad, cli_json, ok, with_stdin};

const KINDS: [&str; 10] = [
    "action-seat",
    "action-order",
    "settle-step",
    "settle-all",
    "decide",
    "house-way",
    "collection",
    "tripoley",
    "ten-thousand",
    "poker-dice",
];

#[test]
fn every_kind_prints_one_object_and_the_same_seed_gives_the_same_drill() {
    for kind in KINDS {
        for level in ["1", "3"] {
            let args = ["drill", kind, "--level", level, "--seed", "12345"];
            let v = cli_json(&args);
            let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
            keys.sort_unstable();
            assert_eq!(
                keys,
                ["answer", "kind", "level", "question", "seed"],
                "{kind}"
            );
            let line = ok(&[&args[..], &["--json"]].concat());
            let head =
                format!("{{\"kind\":\"{kind}\",\"level\":{level},\"seed\":12345,\"question\":");
            assert!(line.starts_with(&head), "{line}");
            assert_eq!(line.lines().count(), 1);
            assert_eq!(v["kind"], kind);
            assert_eq!(v["seed"], 12345);
            assert_eq!(cli_json(&args), v, "{kind} is not deterministic");
            let words = ok(&args);
            assert!(words.starts_with(&format!("Drill {kind} (level {level}, seed 12345)\n")));
            assert!(!words.contains("Answer:"), "{words}");
            let with_answer = ok(&[&args[..], &["--answer"]].concat());
            assert!(with_answer.starts_with(&words), "{with_answer}");
            assert!(with_answer.contains("\nAnswer: "), "{with_answer}");
        }
    }
}

#[test]
fn a_settle_drill_checks_with_pitbook_settle() {
    let v = cli_json(&["drill", "settle-all", "--level", "3", "--seed", "9"]);
    let scenario = v["question"]["scenario"].to_string();
    let (code, out, err) = with_stdin(&["settle"], scenario);
    assert_eq!(code, 0, "{err}");
    let out: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(out["pd_returned"], v["answer"]["pd_returned"]);
    for (name, net) in v["answer"]["net"].as_object().unwrap() {
        assert_eq!(&out["totals"][name]["net"], net, "{name}");
    }
}

#[test]
fn without_a_seed_one_is_drawn_and_printed() {
    let v = cli_json(&["drill", "action-seat"]);
    assert!(v["seed"].as_u64().unwrap() < 1 << 53);
    let words = ok(&["drill", "decide"]);
    assert!(words.starts_with("Drill decide (level 1, seed "), "{words}");
}

#[test]
fn unknown_kinds_and_levels_exit_2() {
    bad(
        &["drill", "settle"],
        "kind: \"settle\" is not a kind of drill",
    );
    bad(
        &["drill", "decide", "--level", "4"],
        "level: 4 is not a drill level",
    );
    bad(
        &["drill", "decide", "--level", "0"],
        "level: 0 is not a drill level",
    );
    bad(&["drill", "decide", "--seed", "-1"], "--seed");
}
