//! `pitbook bench shifts`: a room's shifts written through the store —
//! each opened, its dealer in the box, its hands, closed and signed — into
//! an empty database; the log verifies whole and from the record it names
//! as the last round's; bad input and a database holding hands, tables or
//! shifts are exit 2, nothing written.

use crate::cli_export::run;
use crate::common::{Backend, TestDb, scalar_i64};

/// The record number in "… opens at record N: …".
fn last_round(out: &str) -> i64 {
    let line = out
        .lines()
        .find(|l| l.starts_with("the last round of shifts opens at record "))
        .unwrap_or_else(|| panic!("no last round in {out}"));
    line["the last round of shifts opens at record ".len()..]
        .split(':')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no record number in {line}"))
}

async fn a_rooms_shifts_are_written_and_verify_from_the_last_round(backend: Backend) {
    let test_db = TestDb::new(backend).await;
    let url = test_db.url.as_str();
    let args = [
        "bench", "shifts", "--tables", "3", "--shifts", "2", "--hands", "2",
    ];
    let (code, out, err) = run(&[&args[..], &["--database-url", url]].concat());
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("wrote 6 shifts (12 hands) at 3 tables"),
        "{out}"
    );
    let db = &test_db.db;
    for (sql, expected) in [
        (
            "SELECT COUNT(*) FROM shifts WHERE closed_seq IS NOT NULL",
            6,
        ),
        (
            "SELECT COUNT(*) FROM shift_dealers WHERE dealer IS NOT NULL",
            6,
        ),
        ("SELECT COUNT(*) FROM shift_signatures WHERE hands = 2", 6),
        ("SELECT COUNT(*) FROM hands WHERE status <> 'betting'", 12),
    ] {
        assert_eq!(scalar_i64(db, sql).await, expected, "{sql}");
    }
    // Each table's last shift opens at or after the record named, and the
    // earliest of them at it.
    let from = last_round(&out);
    let opened = "SELECT MIN(last_opened) FROM (SELECT MAX(opened_seq) AS last_opened \
                  FROM shifts GROUP BY table_id) t";
    assert_eq!(scalar_i64(db, opened).await, from);

    let (code, whole, err) = run(&["audit", "verify", "--database-url", url]);
    assert_eq!(code, 0, "{whole}{err}");
    let from_text = from.to_string();
    let (code, since, err) = run(&[
        "audit",
        "verify",
        "--from",
        &from_text,
        "--database-url",
        url,
    ]);
    assert_eq!(code, 0, "{since}{err}");
    let head = scalar_i64(db, "SELECT MAX(seq) FROM audit_log").await;
    assert!(
        since.starts_with(&format!("OK: {} records verified", head - from + 1)),
        "{since}"
    );

    // Only into an empty database; nothing more is written.
    let (code, out, err) = run(&[&args[..], &["--database-url", url]].concat());
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("already holds 12 hands"), "{err}");
    assert_eq!(scalar_i64(db, "SELECT MAX(seq) FROM audit_log").await, head);
}

async fn no_tables_or_no_shifts_is_exit_2_and_writes_nothing(backend: Backend) {
    let test_db = TestDb::new(backend).await;
    let url = test_db.url.as_str();
    for (flag, value) in [("--tables", "0"), ("--shifts", "0")] {
        let (code, out, err) = run(&["bench", "shifts", flag, value, "--database-url", url]);
        assert_eq!((code, out.as_str()), (2, ""), "{flag}: {err}");
        assert!(err.contains("give 1 or more"), "{flag}: {err}");
    }
    assert_eq!(
        scalar_i64(&test_db.db, "SELECT COUNT(*) FROM audit_log").await,
        0
    );
}

/// A rerun after `--hands 0` finds the first run's tables and shifts but
/// no hands: refused as a database holding hands is, nothing written.
async fn a_database_with_tables_but_no_hands_is_exit_2(backend: Backend) {
    let test_db = TestDb::new(backend).await;
    let url = test_db.url.as_str();
    let args = [
        "bench", "shifts", "--tables", "2", "--shifts", "1", "--hands", "0",
    ];
    let (code, out, err) = run(&[&args[..], &["--database-url", url]].concat());
    assert_eq!(code, 0, "{out}{err}");
    let head = scalar_i64(&test_db.db, "SELECT MAX(seq) FROM audit_log").await;
    for bench in [
        &args[..],
        &["bench", "hands", "--hands", "5", "--queries", "0"],
    ] {
        let (code, out, err) = run(&[bench, &["--database-url", url]].concat());
        assert_eq!((code, out.as_str()), (2, ""), "{bench:?}: {err}");
        assert!(err.contains("already holds 2 tables"), "{bench:?}: {err}");
        if bench[1] == "hands" {
            assert!(err.contains("--hands 0 times the queries"), "{err}");
        }
    }
    assert_eq!(
        scalar_i64(&test_db.db, "SELECT MAX(seq) FROM audit_log").await,
        head
    );
}

on_both_databases!(
    a_rooms_shifts_are_written_and_verify_from_the_last_round,
    no_tables_or_no_shifts_is_exit_2_and_writes_nothing,
    a_database_with_tables_but_no_hands_is_exit_2,
);
