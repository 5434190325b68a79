//! `pitbook history export` and `pitbook history check` on both databases:
//! filters in both formats, exact decimals in the CSV, a fresh export
//! checking clean, and each kind of tampering reported (a settlement
//! amount, a record under the key, a dropped line or record); a file that
//! is not an export and a bad filter refused (exit 2) with nothing written.

use std::process::Command;

use crate::common::{Backend, TEST_KEY_HEX, TestApp, spawn_app, test_key};
use crate::http_numbers::{play, whole_hand};
use pitbook::domain::history_export::ExportedHand;

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");

/// Three closed hands, newest first: T2 #1, T1 #2, T1 #1. In each, Ann
/// (seat 4, the ACTION seat) loses to the PD and Bo (seat 5) wins.
pub async fn three_hands(backend: Backend) -> TestApp {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    app.configured_table("T2", false).await;
    play(&app, whole_hand("T1", "200", "60", "60")).await;
    play(&app, whole_hand("T1", "500", "100", "20")).await;
    play(&app, whole_hand("T2", "300", "40", "50")).await;
    app
}

/// Runs pitbook; returns (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(BIN)
        .args(args)
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .env_remove("RUST_LOG")
        .output()
        .expect("run pitbook");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8 stdout"),
        String::from_utf8(out.stderr).expect("utf-8 stderr"),
    )
}

fn export(app: &TestApp, filters: &[&str]) -> String {
    let args = [
        &["history", "export", "--database-url", &app.database.url],
        filters,
    ]
    .concat();
    let (code, stdout, stderr) = run(&args);
    assert_eq!(code, 0, "{filters:?}: {stderr}");
    stdout
}

fn hands(jsonl: &str) -> Vec<ExportedHand> {
    jsonl
        .lines()
        .map(|l| serde_json::from_str(l).expect("a line of the format"))
        .collect()
}

fn named(jsonl: &str) -> Vec<String> {
    hands(jsonl)
        .iter()
        .map(|h| format!("{} #{}", h.table, h.number.unwrap()))
        .collect()
}

async fn export_keeps_the_filters_hands_in_both_formats(backend: Backend) {
    let app = three_hands(backend).await;
    let all = export(&app, &[]);
    assert_eq!(named(&all), ["T2 #1", "T1 #2", "T1 #1"]);
    let first = &hands(&all)[0];
    assert_eq!(first.format, "pitbook-hand-history/1");
    assert_eq!(first.records.len(), 9, "every record of the hand");
    assert_eq!(first.previous, None);
    assert_eq!(hands(&all)[1].previous.as_deref(), Some(first.id.as_str()));
    for (filters, want) in [
        (&["--table", "T1"][..], &["T1 #2", "T1 #1"][..]),
        (&["--wager-at-least", "100"], &["T1 #2"]),
        (&["--player", "ann", "--number", "1"], &["T2 #1", "T1 #1"]),
        (&["--status", "voided"], &[]),
        (&["--training"], &[]),
        (&["--real", "--bank-at-least", "300"], &["T2 #1", "T1 #2"]),
    ] {
        assert_eq!(named(&export(&app, filters)), want, "{filters:?}");
    }
    // --out writes the same file, and nothing partial is left.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t1.jsonl");
    let path_text = path.display().to_string();
    export(&app, &["--table", "T1", "--out", &path_text]);
    assert_eq!(
        std::fs::read_to_string(&path).unwrap(),
        export(&app, &["--table", "T1"])
    );
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);

    let csv_text = export(&app, &["--table", "T1", "--format", "csv"]);
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().unwrap().clone();
    let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.unwrap()).collect();
    assert_eq!(rows.len(), 4, "a row per wager:\n{csv_text}");
    let cell = |row: &csv::StringRecord, name: &str| {
        row[header.iter().position(|h| h == name).expect(name)].to_string()
    };
    // T1 #2: Ann 100 on the ACTION seat loses to the PD; Bo 20 wins.
    let wanted = [
        ("hand_number", "2", "2"),
        ("table", "T1", "T1"),
        ("status", "closed", "closed"),
        ("pd", "Pat", "Pat"),
        ("seat", "4", "5"),
        ("bettor", "Ann", "Bo"),
        ("amount", "100.00", "20.00"),
        ("covered", "100.00", "20.00"),
        ("no_action", "0.00", "0.00"),
        ("outcome", "pd", "player"),
        ("paid", "0.00", "40.00"),
        ("net", "-100.00", "20.00"),
        ("collection", "0.00", "0.00"),
    ];
    for (name, ann, bo) in wanted {
        assert_eq!(
            (cell(&rows[0], name), cell(&rows[1], name)),
            (ann.to_string(), bo.to_string()),
            "{name}"
        );
    }
    assert_eq!(cell(&rows[3], "net"), "60.00", "T1 #1: Bo's 60 won");
}

fn check(file: &std::path::Path, with_key: bool) -> (i32, String, String) {
    let dir = file.parent().unwrap();
    let key_file = dir.join("audit.key");
    std::fs::write(&key_file, TEST_KEY_HEX).unwrap();
    let file = file.display().to_string();
    let key = key_file.display().to_string();
    let mut args = vec!["history", "check", file.as_str()];
    if with_key {
        args.extend(["--audit-key-file", key.as_str()]);
    }
    run(&args)
}

/// The export with line `index` changed by `change`.
fn edited(jsonl: &str, index: usize, change: impl Fn(&mut ExportedHand)) -> String {
    let mut lines: Vec<String> = jsonl.lines().map(str::to_string).collect();
    let mut hand: ExportedHand = serde_json::from_str(&lines[index]).unwrap();
    change(&mut hand);
    lines[index] = serde_json::to_string(&hand).unwrap();
    lines.join("\n") + "\n"
}

/// Record `r`'s payload changed, its hash recomputed with the key when
/// `rehash` (as someone holding the key would).
fn repay(hand: &mut ExportedHand, r: usize, change: impl Fn(&mut serde_json::Value), rehash: bool) {
    let record = &mut hand.records[r];
    let mut payload: serde_json::Value = serde_json::from_str(&record.payload).unwrap();
    change(&mut payload);
    record.payload = payload.to_string();
    if rehash {
        record.hash = test_key().record_hash(&record.fields());
    }
}

async fn check_passes_a_fresh_export_and_reports_each_tampering(backend: Backend) {
    let app = three_hands(backend).await;
    let jsonl = export(&app, &[]);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("hands.jsonl");
    std::fs::write(&file, &jsonl).unwrap();
    let (code, stdout, stderr) = check(&file, true);
    assert_eq!(code, 0, "{stdout}{stderr}");
    assert!(
        stdout.starts_with("OK: 3 hands checked: 3 settlements recomputed, 27 records, 27 record hashes checked with the key"),
        "{stdout}"
    );
    let (code, stdout, _) = check(&file, false);
    assert_eq!(code, 0);
    assert!(stdout.contains("record hashes not checked"), "{stdout}");

    let paid_more = |p: &mut serde_json::Value| {
        p["settlement"]["steps"][1]["to_bettor"] = serde_json::json!("400.00")
    };
    let last = 8; // the hand_closed record, carrying the settlement
    let cases: Vec<(&str, String, bool, &str)> = vec![
        (
            "a settlement amount changed in the record, rehashed with the key",
            edited(&jsonl, 1, |h| repay(h, last, paid_more, true)),
            false,
            "line 2: hand T1 #2 (",
        ),
        (
            "a settlement amount changed on the line",
            edited(&jsonl, 1, |h| {
                h.wagers[1].result.as_mut().unwrap().paid =
                    serde_json::from_value(serde_json::json!("400.00")).unwrap()
            }),
            false,
            "wagers: the line states what its records do not",
        ),
        (
            "a record's actor changed (the HMAC, with the key)",
            edited(&jsonl, 2, |h| h.records[3].actor = "mallory".into()),
            true,
            "hash mismatch",
        ),
        (
            "a record dropped from a hand",
            edited(&jsonl, 0, |h| {
                h.records.remove(5);
            }),
            false,
            "line 1: hand T2 #1 (",
        ),
        (
            "a line dropped",
            {
                let lines: Vec<&str> = jsonl.lines().collect();
                format!("{}\n{}\n", lines[0], lines[2])
            },
            false,
            "line 2: hand T1 #1 (",
        ),
    ];
    for (what, text, with_key, expected) in cases {
        std::fs::write(&file, &text).unwrap();
        let (code, stdout, stderr) = check(&file, with_key);
        assert_eq!(code, 1, "{what}: {stdout}{stderr}");
        assert!(stdout.contains(expected), "{what}: {stdout}");
        assert!(
            stdout.lines().last().unwrap().starts_with("FAILED: 1 of "),
            "{what}: {stdout}"
        );
    }
    // The settlement recomputed differs from the one recorded.
    std::fs::write(
        &file,
        edited(&jsonl, 1, |h| repay(h, last, paid_more, true)),
    )
    .unwrap();
    let (_, stdout, _) = check(&file, true);
    assert!(
        stdout.contains("the recorded settlement differs"),
        "{stdout}"
    );
    // A moved line breaks the chain of lines too.
    let lines: Vec<&str> = jsonl.lines().collect();
    std::fs::write(&file, format!("{}\n{}\n{}\n", lines[1], lines[0], lines[2])).unwrap();
    let (code, stdout, _) = check(&file, false);
    assert_eq!(code, 1, "{stdout}");
    assert!(stdout.contains("previous: the line names"), "{stdout}");
}

async fn bad_input_is_exit_2_naming_the_field_or_line_and_writes_nothing(backend: Backend) {
    let app = three_hands(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.csv").display().to_string();
    for (filters, needle) in [
        (
            &["--bank-at-least", "-5"][..],
            "--bank-at-least: -5 is negative",
        ),
        (
            &["--status", "settled"],
            "--status: \"settled\" is not a status",
        ),
        (&["--date", "2026-13-01"], "date"),
        (&["--table", "T9"], "--table: \"T9\" is not a table"),
        (&["--number", "0"], "--number: "),
    ] {
        let args = [
            &[
                "history",
                "export",
                "--database-url",
                &app.database.url,
                "--out",
                &out,
            ][..],
            filters,
        ]
        .concat();
        let (code, stdout, stderr) = run(&args);
        assert_eq!(code, 2, "{filters:?}: {stderr}");
        assert_eq!(stdout, "", "{filters:?}");
        assert!(stderr.contains(needle), "{filters:?}: {stderr}");
        assert_eq!(
            std::fs::read_dir(dir.path()).unwrap().count(),
            0,
            "nothing written"
        );
    }
    let file = dir.path().join("not-an-export.jsonl");
    let good = export(&app, &["--table", "T2"]);
    for (text, needle) in [
        ("seq,recorded_at,actor\n".to_string(), "line 1: not JSON"),
        (format!("{good}{{\"seq\": 1}}\n"), "line 2: format: missing"),
        (format!("{good}\n{good}"), "line 2: blank"),
        (
            good.replace("\"amount\":\"40.00\"", "\"amount\":40"),
            "line 1: wagers[0].amount: invalid type",
        ),
    ] {
        std::fs::write(&file, &text).unwrap();
        let (code, _, stderr) = check(&file, false);
        assert_eq!(code, 2, "{needle}: {stderr}");
        assert!(stderr.contains(needle), "{needle}: {stderr}");
    }
}

async fn every_exported_line_meets_the_documented_schema(backend: Backend) {
    let app = three_hands(backend).await;
    // An open hand with a wager taken back, beside the closed ones.
    let open = serde_json::json!({"idempotency_key": "open-1", "events": [
        {"type": "hand_opened", "table": "T2"},
        {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "100", "option": "bank_one"},
        {"type": "wager_placed", "id": "w1", "seat": 3, "bettor": "Cy", "amount": "10"},
        {"type": "wager_removed", "id": "w1", "reason": "placed on the wrong seat"}
    ]});
    play(&app, open).await;
    let schema: serde_json::Value =
        serde_json::from_str(include_str!("../../docs/hand-history.schema.json"))
            .expect("the schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let jsonl = export(&app, &[]);
    assert_eq!(jsonl.lines().count(), 4);
    for line in jsonl.lines() {
        let value: serde_json::Value = serde_json::from_str(line).unwrap();
        if let Err(e) = validator.validate(&value) {
            panic!("{e} at {}:\n{line}", e.instance_path());
        }
    }
    // The schema is not a formality: a money amount as a JSON number fails it.
    let mut number: serde_json::Value =
        serde_json::from_str(jsonl.lines().next().unwrap()).unwrap();
    number["pd"]["bank"] = serde_json::json!(100);
    assert!(!validator.is_valid(&number));
}

/// An export that cannot be written (stdout a full device) stops at once with the
/// write's error, its reader — a batch or more ahead — stopped with it,
/// rather than hanging (three batches of bench hands).
async fn a_failed_write_stops_the_export_and_its_reader(backend: Backend) {
    let test_db = crate::common::TestDb::new(backend).await;
    let url = test_db.url.clone();
    let (code, out, err) = run(&[
        "bench",
        "hands",
        "--hands",
        "1200",
        "--tables",
        "3",
        "--queries",
        "0",
        "--database-url",
        &url,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let full = std::fs::OpenOptions::new()
        .write(true)
        .open("/dev/full")
        .expect("/dev/full");
    let mut child = Command::new(BIN)
        .args(["history", "export", "--database-url", &url])
        .stdout(full)
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .env_remove("RUST_LOG")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run pitbook");
    let started = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if started.elapsed() > std::time::Duration::from_secs(120) {
            child.kill().ok();
            panic!("the export hung after its write failed");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
    assert!(!status.success(), "{err}");
    assert!(err.contains("writing the export"), "{err}");
    // Given as --out, a device is written, not replaced by a file.
    let (code, _, err) = run(&[
        "history",
        "export",
        "--database-url",
        &url,
        "--out",
        "/dev/full",
    ]);
    let device = std::fs::metadata("/dev/full").expect("/dev/full");
    assert!(!device.is_file(), "/dev/full was replaced by a file");
    assert_ne!(code, 0, "{err}");
    assert!(err.contains("writing the export"), "{err}");
}

on_both_databases!(
    every_exported_line_meets_the_documented_schema,
    export_keeps_the_filters_hands_in_both_formats,
    check_passes_a_fresh_export_and_reports_each_tampering,
    bad_input_is_exit_2_naming_the_field_or_line_and_writes_nothing,
    a_failed_write_stops_the_export_and_its_reader,
);
