//! Migration 0010 moves a hand's settlement out of the projection: on a
//! database written before it, each settled hand must then point at the
//! record carrying its settlement (its close, or its latest correction).

use crate::common::{Backend, TestDb};
use crate::migration_upgrades::migrations_before;
use sqlx::Row;

/// (seq, hand, event type) of the old database's log.
const RECORDS: [(i64, Option<&str>, &str); 7] = [
    (1, None, "audit_key_registered"),
    (2, Some("h-closed"), "hand_opened"),
    (3, Some("h-closed"), "hand_closed"),
    (4, Some("h-corrected"), "hand_opened"),
    (5, Some("h-corrected"), "hand_closed"),
    (6, Some("h-corrected"), "outcome_corrected"),
    (7, Some("h-open"), "hand_opened"),
];

/// (hand, stored settlement, last seq) of the old projection.
const HANDS: [(&str, Option<&str>, i64); 3] = [
    ("h-closed", Some("{}"), 3),
    ("h-corrected", Some("{}"), 6),
    ("h-open", None, 7),
];

async fn settled_hands_point_at_their_settlement_record(backend: Backend) {
    let test_db = TestDb::unmigrated(backend).await;
    let insert_record = "INSERT INTO audit_log (seq, recorded_at, actor, table_id, hand_id, \
                         event_type, payload, prev_hash, hash) \
                         VALUES ($1, '2026-11-01T10:00:00.000000Z', 'dana', 'T1', $2, $3, '{}', 'p', 'h')";
    let insert_hand = "INSERT INTO hands (id, table_id, game, dealer, status, version, \
                       settlement, opened_at, updated_at, last_seq) \
                       VALUES ($1, 'T1', 'double-hand-poker', 'dana', 'closed', 2, $2, \
                       '2026-11-01T10:00:00Z', '2026-11-01T10:00:00Z', $3)";
    macro_rules! old_database {
        ($pool:expr) => {{
            migrations_before(backend, 10)
                .run($pool)
                .await
                .expect("migrations to 0009");
            for (seq, hand, event_type) in RECORDS {
                sqlx::query(insert_record)
                    .bind(seq)
                    .bind(hand)
                    .bind(event_type)
                    .execute($pool)
                    .await
                    .expect("record");
            }
            for (id, settlement, last_seq) in HANDS {
                sqlx::query(insert_hand)
                    .bind(id)
                    .bind(settlement)
                    .bind(last_seq)
                    .execute($pool)
                    .await
                    .expect("hand");
            }
        }};
    }
    match &test_db.db {
        pitbook::store::Db::Sqlite(pool) => old_database!(pool),
        pitbook::store::Db::Postgres(pool) => old_database!(pool),
    }

    // Migrating it as the server does at start applies 0010.
    let db = &test_db.db;
    db.migrate().await.expect("migrate");
    let sql = "SELECT id, settlement_seq FROM hands ORDER BY id";
    macro_rules! settled {
        ($pool:expr) => {
            sqlx::query(sql)
                .fetch_all($pool)
                .await
                .expect("hands")
                .iter()
                .map(|r| (r.get::<String, _>(0), r.get::<Option<i64>, _>(1)))
                .collect::<Vec<_>>()
        };
    }
    let rows = match db {
        pitbook::store::Db::Sqlite(pool) => settled!(pool),
        pitbook::store::Db::Postgres(pool) => settled!(pool),
    };
    assert_eq!(
        rows,
        vec![
            ("h-closed".to_string(), Some(3)),
            ("h-corrected".to_string(), Some(6)),
            ("h-open".to_string(), None),
        ]
    );
}

on_both_databases!(settled_hands_point_at_their_settlement_record);
