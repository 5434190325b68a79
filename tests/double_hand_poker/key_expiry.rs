//! Idempotency keys expire: past the retention a hand command's key is
//! pruned, and a repeat of the command is refused as stale (409) with
//! nothing recorded; a key that opened a hand is kept for good, so a late
//! repeat of the open returns its hand and opens no other — on both
//! databases. Pruning goes a chunk a statement until none is left.

use std::time::Duration;

use crate::common::{Backend, TestApp, spawn_app};
use pitbook::store::Db;
use pitbook::store::double_hand_poker::idempotency::{PRUNE_CHUNK, cutoff, prune_expired_keys};
use serde_json::json;

async fn head_seq(app: &TestApp) -> i64 {
    pitbook::store::verify::anchor(&app.database.db)
        .await
        .expect("anchor")
        .map_or(0, |a| a.seq)
}

async fn keys_left(db: &Db) -> (i64, i64) {
    let sql = "SELECT COUNT(*), COALESCE(SUM(opens_hand), 0) FROM idempotency_keys";
    let (all, opens): (i64, i64) = match db {
        Db::Sqlite(p) => sqlx::query_as(sql).fetch_one(p).await,
        Db::Postgres(p) => sqlx::query_as(sql).fetch_one(p).await,
    }
    .expect("count the keys");
    (all, opens)
}

/// A cutoff a day from now: every key made so far has expired.
fn past_every_key() -> String {
    cutoff(
        chrono::Utc::now() + chrono::Duration::days(1),
        Duration::from_secs(60),
    )
}

async fn an_expired_key_is_refused_as_stale_and_an_opens_key_is_kept(backend: Backend) {
    let app = spawn_app(backend).await;
    let db = &app.database.db;
    app.configured_table("T1", true).await;
    let open = json!({"idempotency_key": "open-1",
                      "events": [{"type": "hand_opened", "table": "T1"}]});
    let (status, opened, _) = app.post_json("/api/v1/hands", &open).await;
    assert_eq!(status, 201, "{opened}");
    let hand = opened["hand_id"].as_str().expect("hand id");
    let path = format!("/api/v1/hands/{hand}/commands");
    let pd = json!({"idempotency_key": "pd-1", "expected_version": 1,
                    "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]});
    let (status, first, _) = app.post_json(&path, &pd).await;
    assert_eq!(status, 200, "{first}");
    // Within the retention nothing goes, and a repeat is the first result.
    assert_eq!(
        prune_expired_keys(db, "2000-01-01T00:00:00.000000Z")
            .await
            .unwrap(),
        0
    );
    let (status, again, replayed) = app.post_json(&path, &pd).await;
    assert_eq!((status, &again, replayed), (200, &first, true));
    // Past it the command's key goes; the open's stays.
    assert_eq!(prune_expired_keys(db, &past_every_key()).await.unwrap(), 1);
    assert_eq!(keys_left(db).await, (1, 1));
    let head = head_seq(&app).await;
    let (status, stale, replayed) = app.post_json(&path, &pd).await;
    assert_eq!((status, replayed), (409, false), "{stale}");
    assert!(
        stale["message"].as_str().unwrap().contains("version 2"),
        "{stale}"
    );
    let (status, again, replayed) = app.post_json("/api/v1/hands", &open).await;
    assert_eq!((status, replayed), (200, true), "{again}");
    assert_eq!(again, opened);
    assert_eq!(head_seq(&app).await, head, "nothing recorded");
    let (_, found) = app.get_json("/api/v1/hands?table=T1").await;
    assert_eq!(
        found["hands"].as_array().expect("hands").len(),
        1,
        "{found}"
    );
}

async fn pruning_goes_a_chunk_at_a_time_until_none_has_expired(backend: Backend) {
    let app = spawn_app(backend).await;
    let db = &app.database.db;
    let rows = 2 * PRUNE_CHUNK + 7;
    let insert = "INSERT INTO idempotency_keys (key, request_hash, response_status, \
        response_body, created_at, opens_hand) VALUES ($1, 'h', 200, '{}', $2, $3)";
    for i in 0..rows + 3 {
        // Three opening keys, and one command key made after the cutoff.
        let (at, opens) = match i {
            i if i < 3 => ("2026-01-01T00:00:00.000000Z", 1),
            i if i == rows + 2 => ("2026-06-01T00:00:00.000000Z", 0),
            _ => ("2026-01-02T00:00:00.000000Z", 0),
        };
        let key = format!("k{i}");
        match db {
            Db::Sqlite(p) => sqlx::query(insert)
                .bind(&key)
                .bind(at)
                .bind(opens)
                .execute(p)
                .await
                .map(drop),
            Db::Postgres(p) => sqlx::query(insert)
                .bind(&key)
                .bind(at)
                .bind(opens)
                .execute(p)
                .await
                .map(drop),
        }
        .expect("a key");
    }
    let deleted = prune_expired_keys(db, "2026-03-01T00:00:00.000000Z")
        .await
        .unwrap();
    assert_eq!(deleted, (rows - 1) as u64);
    assert_eq!(keys_left(db).await, (4, 3));
}

on_both_databases!(
    an_expired_key_is_refused_as_stale_and_an_opens_key_is_kept,
    pruning_goes_a_chunk_at_a_time_until_none_has_expired,
);
