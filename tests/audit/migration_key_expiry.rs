//! Migration 0031 lets idempotency keys expire: on a database written
//! before it, a kept key whose result opened its hand is marked to be kept
//! for good, and every other key may expire.

use crate::common::{Backend, TestDb};
use crate::migration_upgrades::migrations_before;
use pitbook::store::Db;

/// (key, stored result) of the old database.
const KEYS: [(&str, &str); 3] = [
    (
        "open",
        r#"{"hand_id":"h1","phase":"betting","records":[{"event_type":"hand_opened","hash":"a","seq":2}],"version":1}"#,
    ),
    (
        "open-and-seat",
        r#"{"hand_id":"h2","phase":"betting","records":[{"event_type":"hand_opened","hash":"b","seq":3},{"event_type":"pd_set","hash":"c","seq":4}],"version":2}"#,
    ),
    (
        "wager",
        r#"{"hand_id":"h1","phase":"betting","records":[{"event_type":"wager_placed","hash":"d","seq":5}],"version":2}"#,
    ),
];

async fn kept_keys_that_opened_a_hand_are_marked_to_stay(backend: Backend) {
    let test_db = TestDb::unmigrated(backend).await;
    let insert = "INSERT INTO idempotency_keys (key, request_hash, response_status, \
                  response_body, created_at) VALUES ($1, 'h', 200, $2, '2026-11-01T10:00:00.000000Z')";
    macro_rules! old_database {
        ($pool:expr) => {{
            migrations_before(backend, 31)
                .run($pool)
                .await
                .expect("migrations to 0030");
            for (key, body) in KEYS {
                sqlx::query(insert)
                    .bind(key)
                    .bind(body)
                    .execute($pool)
                    .await
                    .expect("key");
            }
        }};
    }
    match &test_db.db {
        Db::Sqlite(pool) => old_database!(pool),
        Db::Postgres(pool) => old_database!(pool),
    }
    let db = &test_db.db;
    db.migrate().await.expect("migrate");
    let sql = "SELECT key, opens_hand FROM idempotency_keys ORDER BY key";
    let rows: Vec<(String, i32)> = match db {
        Db::Sqlite(pool) => sqlx::query_as(sql).fetch_all(pool).await,
        Db::Postgres(pool) => sqlx::query_as(sql).fetch_all(pool).await,
    }
    .expect("keys");
    let expected =
        [("open", 1), ("open-and-seat", 1), ("wager", 0)].map(|(k, o)| (k.to_string(), o));
    assert_eq!(rows, expected);
}

on_both_databases!(kept_keys_that_opened_a_hand_are_marked_to_stay);
