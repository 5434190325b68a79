//! Every kind of tampering with recorded history is detected by the
//! verifier, on both databases; concurrent writers never fork the chain.

use crate::common::{Backend, TestApp, spawn_app, tamper, test_key};
use pitbook::domain::common::audit::{Anchor, AnchorCheck, AuditKey};
use pitbook::store::verify::{self, VerifyReport};
use serde_json::json;

/// Records `hands` whole hands (each one command) and returns the app. The
/// harness's account and token come first (seq 1 and 2), then the table
/// (seq 3): a hand's nine records start at seq 4, 13, …
async fn app_with_hands(backend: Backend, hands: usize) -> TestApp {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    for _ in 0..hands {
        let (status, body, _) = app.post_json("/api/v1/hands", &whole_hand()).await;
        assert_eq!(status, 201, "{body}");
    }
    app
}

pub(crate) fn whole_hand() -> serde_json::Value {
    json!({"idempotency_key": uuid::Uuid::new_v4().to_string(), "events": [
        {"type": "hand_opened", "table": "T1"},
        {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
        {"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"},
        {"type": "action_set", "seat": 4},
        {"type": "outcome_recorded", "seat": 4, "outcome": "pd"},
        {"type": "outcome_recorded", "seat": 5, "outcome": "player"},
        {"type": "steps_confirmed", "wagers": ["w1", "w2"]},
        {"type": "hand_closed"}
    ]})
}

async fn verify_with(app: &TestApp, key: &AuditKey, anchor: Option<Anchor>) -> VerifyReport {
    let anchors = anchor
        .map(|anchor| AnchorCheck {
            anchor,
            origin: "--anchor".to_string(),
        })
        .into_iter()
        .collect();
    crate::common::verify_split_every_way(&app.database.db, key, 1, anchors).await
}

async fn an_untouched_log_verifies(backend: Backend) {
    let app = app_with_hands(backend, 3).await;
    let report = verify_with(&app, &test_key(), None).await;
    assert!(report.ok(), "{report:?}");
    assert_eq!((report.count, report.hands_settled), (3 + 27, 3));
    // From a hand's first record (seq 13), and from inside a hand (seq 8:
    // its earlier records are replayed from the log first).
    for (from, records, settled) in [(13, 18, 2), (8, 23, 3)] {
        let report =
            crate::common::verify_split_every_way(&app.database.db, &test_key(), from, Vec::new())
                .await;
        assert!(report.ok(), "from {from}: {report:?}");
        assert_eq!(
            (report.count, report.hands_settled),
            (records, settled),
            "from {from}"
        );
    }
}

async fn an_edited_payload_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 2).await;
    tamper(
        &app.database.db,
        &["UPDATE audit_log SET payload = replace(payload, 'Ann', 'Eve') WHERE seq = 6"],
    )
    .await;
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), None).await),
        (6, "hash_mismatch")
    );
}

async fn an_edited_amount_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 2).await;
    tamper(&app.database.db, &["UPDATE audit_log SET payload = replace(payload, '\"60.00\"', '\"6.00\"') WHERE seq = 16"]).await;
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), None).await),
        (16, "hash_mismatch")
    );
}

async fn an_edited_projection_settlement_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 2).await;
    tamper(
        &app.database.db,
        // The hand's settlement is taken from an earlier record of it.
        &["UPDATE hands SET settlement_seq = settlement_seq - 1"],
    )
    .await;
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), None).await).1,
        "projection"
    );
}

/// The `hands` row is a projection of the log: each of its fields edited
/// by SQL is reported, at the hand's last record, naming the field.
async fn an_edited_hands_row_is_detected(backend: Backend) {
    for (edit, field) in [
        ("UPDATE hands SET status = 'voided'", "status"),
        ("UPDATE hands SET dealer = 'mallory'", "dealer"),
        ("UPDATE hands SET bank = 2000", "bank"),
        ("UPDATE hands SET house_collection = 99", "house_collection"),
        ("UPDATE hands SET version = version + 1", "version"),
        ("UPDATE hands SET table_id = 'T2'", "table"),
        ("DELETE FROM hands", "no row"),
    ] {
        let app = app_with_hands(backend, 1).await;
        tamper(&app.database.db, &[edit]).await;
        let report = verify_with(&app, &test_key(), None).await;
        let problem = report.problem.expect(edit);
        assert_eq!(
            (problem.seq, problem.kind),
            (12, "projection"),
            "{edit}: {problem:?}"
        );
        assert!(problem.message.contains(field), "{edit}: {problem:?}");
    }
}

/// A hand row's `opened_at` is its first record's time and `updated_at` its
/// last record's: an edited time is a `projection` problem naming it.
async fn an_edited_hand_time_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 1).await;
    for (edit, undo, field) in [
        (
            "UPDATE hands SET opened_at = '2026-01-01T00:00:00.000000Z'",
            "UPDATE hands SET opened_at = updated_at",
            "opened_at is \"2026-01-01T00:00:00.000000Z\" in the row",
        ),
        (
            "UPDATE hands SET updated_at = '2099-01-01T00:00:00.000000Z'",
            "UPDATE hands SET updated_at = opened_at",
            "updated_at is \"2099-01-01T00:00:00.000000Z\" in the row",
        ),
    ] {
        tamper(&app.database.db, &[edit]).await;
        let report = verify_with(&app, &test_key(), None).await;
        let problem = report.problem.expect(edit);
        assert_eq!(
            (problem.seq, problem.kind),
            (12, "projection"),
            "{edit}: {problem:?}"
        );
        assert!(problem.message.contains(field), "{edit}: {problem:?}");
        tamper(&app.database.db, &[undo]).await;
        let report = verify_with(&app, &test_key(), None).await;
        assert!(report.ok(), "{undo}: {report:?}");
    }
}

/// The API shows a hand as its events give it, whatever its row says.
async fn the_api_shows_the_fold_not_an_edited_row(backend: Backend) {
    let app = app_with_hands(backend, 1).await;
    tamper(
        &app.database.db,
        &["UPDATE hands SET status = 'voided', dealer = 'mallory', bank = 2000"],
    )
    .await;
    let sql = "SELECT id FROM hands";
    let id: String = match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await,
    }
    .expect("hand id");
    let (status, view) = app.get_json(&format!("/api/v1/hands/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(
        (&view["status"], &view["dealer"], &view["bank"]),
        (
            &json!("closed"),
            &json!(crate::common::TEST_ADMIN),
            &json!("200.00")
        )
    );
}

async fn a_deleted_row_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 2).await;
    tamper(&app.database.db, &["DELETE FROM audit_log WHERE seq = 6"]).await;
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), None).await),
        (7, "gap")
    );
}

async fn an_inserted_row_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 1).await;
    // A forged record appended at the head, with a hash made up without the key.
    tamper(&app.database.db, &[&format!(
        "INSERT INTO audit_log (seq, recorded_at, actor, table_id, hand_id, event_type, payload, prev_hash, hash) \
         SELECT 13, recorded_at, 'mallory', table_id, NULL, 'login', '{{}}', hash, '{}' FROM audit_log WHERE seq = 12",
        "ab".repeat(32)
    )]).await;
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), None).await),
        (13, "hash_mismatch")
    );
}

async fn swapped_rows_are_detected(backend: Backend) {
    let app = app_with_hands(backend, 1).await;
    // Exchange the contents of seq 6 and 7 (the two wagers) but keep the numbering.
    tamper(
        &app.database.db,
        &[
            "UPDATE audit_log SET seq = 1000006 WHERE seq = 6",
            "UPDATE audit_log SET seq = 6 WHERE seq = 7",
            "UPDATE audit_log SET seq = 7 WHERE seq = 1000006",
        ],
    )
    .await;
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), None).await),
        (6, "hash_mismatch")
    );
}

async fn a_truncated_tail_is_caught_by_the_anchor(backend: Backend) {
    let app = app_with_hands(backend, 2).await;
    let anchor = verify::anchor(&app.database.db)
        .await
        .unwrap()
        .expect("head");
    assert_eq!(anchor.seq, 21);
    tamper(
        &app.database.db,
        &[
            "DELETE FROM hands WHERE last_seq > 12",
            "DELETE FROM audit_log WHERE seq > 12",
        ],
    )
    .await;
    // Without the anchor the shorter chain looks whole; with it, it does not.
    assert!(verify_with(&app, &test_key(), None).await.ok());
    assert_eq!(
        crate::common::problem(&verify_with(&app, &test_key(), Some(anchor)).await),
        (21, "truncated")
    );
}

async fn a_changed_key_is_detected(backend: Backend) {
    let app = app_with_hands(backend, 1).await;
    let other = AuditKey::from_text(&"cd".repeat(32)).unwrap();
    assert_eq!(
        crate::common::problem(&verify_with(&app, &other, None).await),
        (1, "hash_mismatch")
    );
}

async fn concurrent_appends_make_one_unbroken_chain(backend: Backend) {
    let app = std::sync::Arc::new(spawn_app(backend).await);
    app.configured_table("T1", false).await;
    let tasks: Vec<_> = (0..24)
        .map(|_| {
            let app = app.clone();
            tokio::spawn(async move {
                let (status, body, _) = app.post_json("/api/v1/hands", &whole_hand()).await;
                assert_eq!(status, 201, "{body}");
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("task");
    }
    let report = verify_with(&app, &test_key(), None).await;
    assert!(report.ok(), "{report:?}");
    assert_eq!((report.count, report.hands_settled), (3 + 24 * 9, 24));
}

on_both_databases!(
    an_untouched_log_verifies,
    an_edited_payload_is_detected,
    an_edited_amount_is_detected,
    an_edited_projection_settlement_is_detected,
    an_edited_hands_row_is_detected,
    an_edited_hand_time_is_detected,
    the_api_shows_the_fold_not_an_edited_row,
    a_deleted_row_is_detected,
    an_inserted_row_is_detected,
    swapped_rows_are_detected,
    a_truncated_tail_is_caught_by_the_anchor,
    a_changed_key_is_detected,
    concurrent_appends_make_one_unbroken_chain,
);
