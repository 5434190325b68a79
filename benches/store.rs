//! Durable closed hands per second and verification speed, on SQLite
//! (WAL, synchronous=FULL) and PostgreSQL. A hand is one command: a 6-seat
//! hand (7-seat table with the PD) with a backline bet on every seat — 24
//! events in one transaction, like a hand recorded whole.
//!
//! cargo bench --bench store                      # both databases
//! PITBOOK_BENCH_HANDS=2000 cargo bench --bench store
//!
//! PITBOOK_BENCH_KEEP_SQLITE=/tmp/log.db keeps a copy of the SQLite log.
//! PITBOOK_BENCH_ONLY=sqlite|postgres runs one database.
//!
//! PostgreSQL: PITBOOK_TEST_POSTGRES_URL (default the local trust-auth
//! server); a fresh database is created and dropped
//! (PITBOOK_BENCH_KEEP_POSTGRES=1 keeps it and prints its name).

use std::time::Instant;

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

use pitbook::domain::common::audit::AuditKey;
use pitbook::store::Db;
use pitbook::store::double_hand_poker::hands::{self, HandCommand};
use pitbook::store::double_hand_poker::writer::HandWriter;
use serde_json::json;

fn command(n: usize) -> HandCommand {
    let mut events = vec![
        json!({"type": "hand_opened", "table": "T1"}),
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "500"}),
        json!({"type": "collection_taken"}),
    ];
    let mut ids = Vec::new();
    for seat in 2..=7 {
        for (k, backline) in [(0, false), (1, true)] {
            let id = format!("s{seat}w{k}");
            events.push(json!({"type": "wager_placed", "id": id, "seat": seat, "bettor": format!("P{seat}{k}"),
                               "amount": format!("{}.50", 20 + seat * 5 + k), "backline": backline}));
            ids.push(id);
        }
    }
    events.push(json!({"type": "action_set", "dice": [(n % 6) + 1, 3, 4]}));
    for seat in 2..=7 {
        let outcome = ["player", "pd", "push"][(seat + n) % 3];
        events.push(json!({"type": "outcome_recorded", "seat": seat, "outcome": outcome}));
    }
    events.push(json!({"type": "steps_confirmed", "wagers": []}));
    events.push(json!({"type": "hand_closed"}));
    let command =
        json!({"idempotency_key": format!("bench-{n}"), "actor": "dana", "events": events});
    let mut command: HandCommand = serde_json::from_value(command).expect("command");
    // Confirm the steps in action order, which depends on the dice.
    let confirm = action_order(&command);
    let len = command.events.len();
    command.events[len - 2] =
        serde_json::from_value(json!({"type": "steps_confirmed", "wagers": confirm}))
            .expect("event");
    command
}

fn action_order(command: &HandCommand) -> Vec<String> {
    use pitbook::domain::double_hand_poker::hand_record::HandState;
    let upto = command.events.len() - 2;
    // Folded as the store records it: the opening names its dealer.
    let mut events = command.events[..upto].to_vec();
    if let pitbook::domain::double_hand_poker::hand_record::HandEvent::HandOpened {
        dealer, ..
    } = &mut events[0]
    {
        *dealer = command.actor.clone();
    }
    let state = HandState::fold(&events).expect("fold");
    let scenario = state.scenario().expect("scenario");
    let settlement = pitbook::domain::double_hand_poker::settle::settle(&scenario).expect("settle");
    settlement
        .steps
        .iter()
        .map(|s| s.wager.to_string())
        .collect()
}

/// Tables submitting hands at once: the writer group-commits them.
const TABLES: usize = 32;

async fn run(name: &str, db: &Db, key: &AuditKey, hands_count: usize) {
    // Hands open only at configured tables: T1, with the seed's schedules.
    let table: pitbook::domain::double_hand_poker::table::TableConfig =
        serde_json::from_value(json!({
        "name": "T1", "profile": "lucky-chances", "seats": 7,
        "player_schedule": [{"from": "0.01", "to": "100", "fee": "1"}],
        "bank_schedule": [{"from": "0.01", "to": "5000", "fee": "2"}]}))
        .expect("table");
    pitbook::store::double_hand_poker::tables::create(db, key, "bench", &table)
        .await
        .expect("create the table");
    let commands: Vec<HandCommand> = (0..hands_count).map(command).collect();
    let events: usize = commands[0].events.len();

    // One transaction (one fsync) per hand: the floor the disk sets.
    let single = hands_count.min(300);
    let start = Instant::now();
    for c in &commands[..single] {
        hands::execute(db, key, None, c).await.expect("execute");
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: one hand per transaction: {:.0} durable hands/s ({single} hands)",
        single as f64 / secs
    );

    // The server's path: TABLES tables at once through the group-commit writer.
    let writer = HandWriter::spawn(db.clone(), key.clone()).expect("the hand writer");
    let mut queues: Vec<Vec<HandCommand>> = vec![Vec::new(); TABLES];
    for (i, mut c) in commands.into_iter().enumerate().skip(single) {
        c.idempotency_key = format!("bench-writer-{i}");
        queues[i % TABLES].push(c);
    }
    let submitted: usize = queues.iter().map(Vec::len).sum();
    let start = Instant::now();
    let tasks: Vec<_> = queues
        .into_iter()
        .map(|queue| {
            let writer = writer.clone();
            tokio::spawn(async move {
                for c in queue {
                    writer.submit(None, c).await.expect("submit");
                }
            })
        })
        .collect();
    for t in tasks {
        t.await.expect("table task");
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{name}: group commit, {TABLES} tables: {submitted} closed hands ({events} events each) in {secs:.2} s = {:.0} durable hands/s",
        submitted as f64 / secs
    );

    let start = Instant::now();
    let report = pitbook::store::verify::verify(db, key, 1, None)
        .await
        .expect("verify");
    let secs = start.elapsed().as_secs_f64();
    assert!(report.ok(), "{report:?}");
    println!(
        "{name}: verified {} records and {} settlements in {secs:.2} s = {:.0} records/s",
        report.count,
        report.hands_settled,
        report.count as f64 / secs
    );
}

fn main() {
    let hands_count: usize = std::env::var("PITBOOK_BENCH_HANDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(5000);
    let key = AuditKey::from_text(&"ab".repeat(32)).expect("key");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let only = std::env::var("PITBOOK_BENCH_ONLY").unwrap_or_default();
    rt.block_on(async {
        if only != "postgres" {
            sqlite(&key, hands_count).await;
        }
        if only != "sqlite" {
            postgres(&key, hands_count).await;
        }
    });
}

async fn sqlite(key: &AuditKey, hands_count: usize) {
    let dir = tempfile::tempdir().expect("temp dir");
    let url = format!("sqlite:{}", dir.path().join("bench.db").display());
    let db = Db::open(&url).await.expect("sqlite");
    run("sqlite (WAL, synchronous=FULL)", &db, key, hands_count).await;
    // For profiling `pitbook audit verify` on the same log (the key is
    // PITBOOK_AUDIT_KEY=abab…ab, 64 characters).
    if let (Ok(keep), Db::Sqlite(pool)) = (std::env::var("PITBOOK_BENCH_KEEP_SQLITE"), &db) {
        sqlx::query("VACUUM INTO $1")
            .bind(&keep)
            .execute(pool)
            .await
            .expect("keep the SQLite database");
        println!("kept the SQLite database at {keep}");
    }
    db.close().await;
}

async fn postgres(key: &AuditKey, hands_count: usize) {
    let admin_url = std::env::var("PITBOOK_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".into());
    let admin = sqlx::PgPool::connect(&admin_url).await.expect("postgres");
    let name = format!("pitbook_bench_{}", uuid::Uuid::new_v4().simple());
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&admin)
        .await
        .expect("create db");
    let base = admin_url
        .rsplit_once('/')
        .map(|(b, _)| b.to_string())
        .unwrap_or(admin_url.clone());
    let db = Db::open(&format!("{base}/{name}")).await.expect("open pg");
    run("postgres", &db, key, hands_count).await;
    db.close().await;
    if std::env::var("PITBOOK_BENCH_KEEP_POSTGRES").is_ok() {
        println!("kept the PostgreSQL database {base}/{name}");
        return;
    }
    sqlx::query(&format!("DROP DATABASE {name} WITH (FORCE)"))
        .execute(&admin)
        .await
        .expect("drop db");
}
