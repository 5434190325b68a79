//! `audit verify` walks the log in rounds and compares each round's
//! `hands` rows (those whose last record is in the round) before reading
//! the next. A hand corrected rounds after it closed has a view in both:
//! each edit of its row must be reported alike however the walk is split
//! (`verify_split_every_way` checks rounds down to one record), at the
//! record its field comes from — its number at its opening record, the
//! rest at its last record.

use crate::audit_tamper_hand_search::four_hands;
use crate::common::{Backend, TestApp, scalar_i64, tamper, test_key};
use pitbook::store::Db;
use serde_json::json;

/// Hand #2 (closed, then corrected after #3 closed): its first and last seq.
const SECOND_SEQS: &str = "SELECT MIN(seq) FROM audit_log WHERE hand_id = \
    (SELECT id FROM hands WHERE number = 2)";
const SECOND_LAST: &str = "SELECT MAX(seq) FROM audit_log WHERE hand_id = \
    (SELECT id FROM hands WHERE number = 2)";

async fn edits_of_a_hand_corrected_rounds_later_are_reported_alike(backend: Backend) {
    // (edit, what the message names, reported at its opening record)
    let edits: &[(&str, &str, bool)] = &[
        (
            "UPDATE hands SET number = 12 WHERE number = 2",
            "the stored number is 12; its events give 2",
            true,
        ),
        (
            "UPDATE hands SET settlement_seq = settlement_seq - 10 WHERE number = 2",
            "the stored settlement_seq",
            false,
        ),
        (
            "UPDATE hands SET last_seq = last_seq - 10 WHERE number = 2",
            "the stored last_seq",
            false,
        ),
        (
            "UPDATE hands SET last_seq = last_seq + 1 WHERE number = 2",
            "the stored last_seq",
            false,
        ),
        (
            "UPDATE hands SET status = 'voided' WHERE number = 2",
            "the stored status",
            false,
        ),
        (
            "UPDATE hands SET pd_name = 'Mallory' WHERE number = 2",
            "pd_name",
            false,
        ),
        (
            "UPDATE hand_people SET net_e4 = net_e4 + 10000 WHERE role = 'pd' \
             AND hand_id = (SELECT id FROM hands WHERE number = 2)",
            "hand_people holds pd",
            false,
        ),
        (
            "DELETE FROM hands WHERE number = 2",
            "its events are in the log but the hands table has no row",
            false,
        ),
    ];
    for &(edit, names, at_opening) in edits {
        let app = four_hands(backend).await;
        let db = &app.database.db;
        let (first, last) = (
            scalar_i64(db, SECOND_SEQS).await,
            scalar_i64(db, SECOND_LAST).await,
        );
        let report = crate::common::verify_split_every_way(db, &test_key(), 1, Vec::new()).await;
        assert!(report.ok(), "untouched: {report:?}");
        tamper(db, &[edit]).await;
        let report = crate::common::verify_split_every_way(db, &test_key(), 1, Vec::new()).await;
        let problem = report
            .problem
            .unwrap_or_else(|| panic!("{edit}: undetected"));
        assert_eq!(problem.kind, "projection", "{edit}: {problem:?}");
        assert!(problem.message.contains(names), "{edit}: {problem:?}");
        let at = if at_opening { first } else { last };
        assert_eq!(problem.seq, at, "{edit}: {problem:?}");
    }
}

/// Hand #1's id.
async fn first_hand(db: &Db) -> String {
    let sql = "SELECT id FROM hands WHERE number = 1";
    match db {
        Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .expect(sql)
}

/// A note on a closed hand, as a supervisor adds one.
async fn note(app: &TestApp, id: &str) {
    let (status, hand) = app.get_json(&format!("/api/v1/hands/{id}")).await;
    assert_eq!(status, 200, "{hand}");
    let body = json!({"idempotency_key": "note-1", "expected_version": hand["version"],
        "text": "checked against surveillance"});
    let (status, body, _) = app
        .post_json(&format!("/api/v1/hands/{id}/notes"), &body)
        .await;
    assert_eq!(status, 200, "{body}");
}

/// A note rounds after a hand closed settles nothing: the round that
/// replays it folds the hand's earlier records from the log, settlement
/// record included, and still checks the row's.
async fn a_settlement_record_edited_under_a_later_note_is_reported(backend: Backend) {
    let app = four_hands(backend).await;
    let db = &app.database.db;
    let id = first_hand(db).await;
    note(&app, &id).await;
    let report = crate::common::verify_split_every_way(db, &test_key(), 1, Vec::new()).await;
    assert!(report.ok(), "untouched: {report:?}");
    tamper(
        db,
        &["UPDATE hands SET settlement_seq = settlement_seq - 1 WHERE number = 1"],
    )
    .await;
    let report = crate::common::verify_split_every_way(db, &test_key(), 1, Vec::new()).await;
    let problem = report
        .problem
        .expect("an edited settlement record is reported");
    let last =
        "SELECT MAX(seq) FROM audit_log WHERE hand_id = (SELECT id FROM hands WHERE number = 1)";
    assert_eq!(problem.seq, scalar_i64(db, last).await, "{problem:?}");
    assert!(
        problem.message.contains("the stored settlement_seq"),
        "{problem:?}"
    );
}

on_both_databases!(
    edits_of_a_hand_corrected_rounds_later_are_reported_alike,
    a_settlement_record_edited_under_a_later_note_is_reported,
);
