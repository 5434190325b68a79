//! Several instances, one database: three real `pitbook serve`
//! processes on one fresh PostgreSQL database with the same audit key,
//! started at once (so they race to migrate and to create the first
//! admin), drive hands concurrently — each its own tables, and one hand
//! driven through two instances with both racing every step at the same
//! version. Then: every acknowledged command's records are in the log
//! exactly once and nothing else is, each race had exactly one winner and
//! one 409, a replay through another instance doubles nothing, and
//! `pitbook audit verify` run as a process exits 0.
//!
//! PostgreSQL only (SQLite is one process by design). Like every PostgreSQL
//! test here it does not skip: it fails when the server cannot be reached
//! (PITBOOK_TEST_POSTGRES_URL, default the local trust-auth server).

use std::collections::{BTreeMap, BTreeSet};
use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use pitbook::domain::double_hand_poker::hand_record::{HandEvent, HandState};
use pitbook::domain::staff::Role;
use serde_json::{Value, json};

use crate::common::{Backend, TEST_KEY_HEX, TEST_PASSWORD, TestDb, bearer_client, test_key};

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");
const INSTANCES: usize = 3;
/// Tables each instance drives on its own, a hand after another.
const TABLES_EACH: usize = 2;
const HANDS_PER_TABLE: usize = 2;

/// A `serve` process; killed if the test fails before stopping it.
struct Instance {
    child: Option<Child>,
    base: String,
    drain: Option<std::thread::JoinHandle<Vec<String>>>,
}

impl Instance {
    /// Starts `serve` on a free port; call [`Instance::address`] to wait
    /// for it to listen.
    fn start(url: &str, anchors: &std::path::Path) -> Child {
        Command::new(BIN)
            .args(["--log-format", "json", "serve", "--bind", "127.0.0.1:0"])
            .arg("--anchor-log")
            .arg(anchors)
            .env("DATABASE_URL", url)
            .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
            .env("RUST_LOG", "warn,pitbook::cli::serve=info")
            .env_remove("PITBOOK_BIND")
            .stderr(Stdio::piped())
            .stdout(Stdio::null())
            .spawn()
            .expect("spawn pitbook serve")
    }

    /// Reads the log until "pitbook listening"; then keeps draining it on
    /// a thread (a full pipe would stall the server).
    fn listening(mut child: Child) -> Instance {
        let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
        let mut seen = Vec::new();
        let address = loop {
            let Some(line) = lines.next() else {
                let _ = child.kill();
                panic!("serve exited before listening:\n{}", seen.join("\n"));
            };
            let line = line.expect("utf-8 log");
            let record: Value = serde_json::from_str(&line).expect("json log line");
            if record["message"] == "pitbook listening" {
                assert_eq!(record["backend"], "postgres");
                break record["address"].as_str().expect("address").to_string();
            }
            seen.push(line);
        };
        let drain = std::thread::spawn(move || lines.map_while(Result::ok).collect());
        Instance {
            child: Some(child),
            base: format!("http://{address}"),
            drain: Some(drain),
        }
    }

    /// SIGTERM, a graceful exit 0; returns the log's ERROR lines.
    fn stop(mut self) -> Vec<String> {
        let mut child = self.child.take().expect("running");
        let status = Command::new("kill")
            .args(["-TERM", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(status.success());
        let exit = child.wait().expect("wait");
        assert!(
            exit.success(),
            "{}: graceful stop exits 0: {exit:?}",
            self.base
        );
        let log = self.drain.take().expect("drain").join().expect("log");
        log.into_iter()
            .filter(|l| l.contains("\"level\":\"ERROR\""))
            .collect()
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}

/// The steps of a complete 7-seat hand at `table`, a request each, as the
/// load generator (examples/load.rs) drives them: open with the PD,
/// collection, 12 wagers, dice, 6 outcomes, the confirmations in action
/// order, close.
fn hand_steps(table: &str, n: usize) -> Vec<Vec<Value>> {
    let mut steps: Vec<Vec<Value>> = vec![
        vec![
            json!({"type": "hand_opened", "table": table}),
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "500"}),
        ],
        vec![json!({"type": "collection_taken"})],
    ];
    for seat in 2..=7 {
        for (k, backline) in [(0, false), (1, true)] {
            steps.push(vec![
                json!({"type": "wager_placed", "id": format!("s{seat}w{k}"),
                "seat": seat, "bettor": format!("P{seat}{k}"),
                "amount": format!("{}.50", 20 + seat * 5 + k), "backline": backline}),
            ]);
        }
    }
    steps.push(vec![
        json!({"type": "action_set", "dice": [(n % 6) + 1, (n / 6) % 6 + 1, 4]}),
    ]);
    for seat in 2..=7 {
        let outcome = ["player", "pd", "push"][(seat + n) % 3];
        steps.push(vec![
            json!({"type": "outcome_recorded", "seat": seat, "outcome": outcome}),
        ]);
    }
    let events: Vec<HandEvent> = steps
        .iter()
        .flatten()
        .map(|e| {
            let mut e = e.clone();
            if e["type"] == "hand_opened" {
                e["dealer"] = json!("sup");
            }
            serde_json::from_value(e).expect("event")
        })
        .collect();
    let state = HandState::fold(&events).expect("fold");
    let scenario = state.scenario().expect("scenario");
    let settlement = pitbook::domain::double_hand_poker::settle::settle(&scenario).expect("settle");
    for step in &settlement.steps {
        steps.push(vec![
            json!({"type": "steps_confirmed", "wagers": [step.wager.to_string()]}),
        ]);
    }
    steps.push(vec![json!({"type": "hand_closed"})]);
    steps
}

/// The body of step `i` of a hand (the open has no version).
fn body(i: usize, events: &[Value], version: u64) -> Value {
    let key = uuid::Uuid::new_v4().to_string();
    if i == 0 {
        json!({"idempotency_key": key, "events": events})
    } else {
        json!({"idempotency_key": key, "expected_version": version, "events": events})
    }
}

fn path(i: usize, hand: &str) -> String {
    if i == 0 {
        "/api/v1/hands".to_string()
    } else {
        format!("/api/v1/hands/{hand}/commands")
    }
}

async fn post(client: &reqwest::Client, url: String, body: &Value) -> (u16, Value) {
    let r = client.post(&url).json(body).send().await.expect(&url);
    let status = r.status().as_u16();
    (status, r.json().await.expect("json answer"))
}

/// Drives hands at `table` through `base`; returns every acknowledged
/// answer. Any refusal fails the test: no one else writes these hands.
async fn drive_table(client: reqwest::Client, base: String, table: String) -> Vec<Value> {
    let mut acked = Vec::new();
    for n in 0..HANDS_PER_TABLE {
        let (mut hand, mut version) = (String::new(), 0);
        for (i, events) in hand_steps(&table, n).into_iter().enumerate() {
            let b = body(i, &events, version);
            let (status, answer) = post(&client, format!("{base}{}", path(i, &hand)), &b).await;
            assert!(
                status == 200 || status == 201,
                "{table} hand {n} step {i}: {status} {answer}"
            );
            version = answer["version"].as_u64().expect("version");
            hand = answer["hand_id"].as_str().expect("hand_id").to_string();
            acked.push(answer);
        }
    }
    acked
}

/// Drives one hand at `table` through two instances at once: every step is
/// sent to both, same version, different idempotency keys. Exactly one is
/// acknowledged and the other answered 409 (stale version), whichever
/// arrives second; then the winner's body is replayed through the loser's
/// instance and answers the same records (nothing doubled).
async fn race_hand(client: reqwest::Client, bases: [String; 2], table: String) -> Vec<Value> {
    let mut acked = Vec::new();
    let (mut hand, mut version) = (String::new(), 0);
    for (i, events) in hand_steps(&table, 7).into_iter().enumerate() {
        let bodies = [body(i, &events, version), body(i, &events, version)];
        if i == 0 {
            // Two opens are two hands, not a race: open through one.
            let (status, answer) =
                post(&client, format!("{}{}", bases[0], path(0, "")), &bodies[0]).await;
            assert!(status == 200 || status == 201, "open: {status} {answer}");
            hand = answer["hand_id"].as_str().expect("hand_id").to_string();
            version = answer["version"].as_u64().expect("version");
            acked.push(answer);
            continue;
        }
        let url = |k: usize| format!("{}{}", bases[k], path(i, &hand));
        let (a, b) = tokio::join!(
            post(&client, url(0), &bodies[0]),
            post(&client, url(1), &bodies[1])
        );
        let (winner, answer, loser) = match (a, b) {
            ((200, answer), (409, refusal)) => (0, answer, refusal),
            ((409, refusal), (200, answer)) => (1, answer, refusal),
            (a, b) => panic!("step {i}: one 200 and one 409 expected, got {a:?} and {b:?}"),
        };
        assert!(
            loser.to_string().contains(&format!("{version}")),
            "the 409 names the stale version: {loser}"
        );
        let (status, replay) = post(&client, url(1 - winner), &bodies[winner]).await;
        assert_eq!(status, 200, "replay: {replay}");
        assert_eq!(
            replay["records"], answer["records"],
            "a replay writes nothing"
        );
        version = answer["version"].as_u64().expect("version");
        acked.push(answer);
    }
    acked
}

#[tokio::test]
async fn three_instances_on_one_postgres_database_keep_one_chain() {
    let database = TestDb::unmigrated(Backend::Postgres).await;
    let dir = tempfile::tempdir().expect("temp dir");
    // All three at once: they race to migrate and to make the first admin.
    let children: Vec<Child> = (0..INSTANCES)
        .map(|k| Instance::start(&database.url, &dir.path().join(format!("anchors-{k}"))))
        .collect();
    let instances: Vec<Instance> = children.into_iter().map(Instance::listening).collect();
    let admins: i64 = match &database.db {
        pitbook::store::Db::Postgres(p) => {
            sqlx::query_scalar("SELECT COUNT(*) FROM staff_users WHERE username = 'admin'")
                .fetch_one(p)
                .await
                .expect("count admins")
        }
        pitbook::store::Db::Sqlite(_) => unreachable!("PostgreSQL only"),
    };
    assert_eq!(admins, 1, "one first admin, however many instances start");

    let db = &database.db;
    pitbook::store::staff::add_user(
        db,
        &test_key(),
        "test",
        "sup",
        Role::Supervisor,
        TEST_PASSWORD,
        false,
    )
    .await
    .expect("add supervisor");
    let (token, _) = pitbook::store::staff::issue_token(db, &test_key(), "test", "sup", "test")
        .await
        .expect("token");
    let client = bearer_client(&token);
    let bases: Vec<String> = instances.iter().map(|i| i.base.clone()).collect();
    let mut tables = Vec::new();
    for (k, base) in bases.iter().enumerate() {
        for t in 0..TABLES_EACH {
            let name = format!("M{k}-{t}");
            crate::common::configure_table(base, &token, &name, true).await;
            tables.push((base.clone(), name));
        }
    }
    crate::common::configure_table(&bases[2], &token, "SHARED", true).await;

    let mut tasks = tokio::task::JoinSet::new();
    for (base, table) in tables {
        tasks.spawn(drive_table(client.clone(), base, table));
    }
    tasks.spawn(race_hand(
        client.clone(),
        [bases[0].clone(), bases[1].clone()],
        "SHARED".to_string(),
    ));
    let mut acked = Vec::new();
    while let Some(done) = tasks.join_next().await {
        acked.extend(done.expect("a driver panicked"));
    }
    let hands_driven = INSTANCES * TABLES_EACH * HANDS_PER_TABLE + 1;
    let closed = acked.iter().filter(|a| a["phase"] == "closed").count();
    assert_eq!(closed, hands_driven, "every hand driven to its close");

    // Every acknowledged record, by seq: once, and as the log holds it.
    let mut by_seq: BTreeMap<i64, (String, String, String)> = BTreeMap::new();
    for answer in &acked {
        let hand = answer["hand_id"].as_str().expect("hand_id").to_string();
        for r in answer["records"].as_array().expect("records") {
            let seq = r["seq"].as_i64().expect("seq");
            let entry = (
                hand.clone(),
                r["event_type"].as_str().expect("type").to_string(),
                r["hash"].as_str().expect("hash").to_string(),
            );
            assert!(
                by_seq.insert(seq, entry).is_none(),
                "seq {seq} acknowledged twice"
            );
        }
    }
    let pool = match db {
        pitbook::store::Db::Postgres(p) => p,
        pitbook::store::Db::Sqlite(_) => unreachable!("PostgreSQL only"),
    };
    let logged: Vec<(i64, String, String, String)> = sqlx::query_as(
        "SELECT seq, hand_id, event_type, hash FROM audit_log WHERE hand_id IS NOT NULL ORDER BY seq",
    )
    .fetch_all(pool)
    .await
    .expect("hand records");
    let logged: BTreeMap<i64, (String, String, String)> = logged
        .into_iter()
        .map(|(seq, hand, kind, hash)| (seq, (hand, kind, hash)))
        .collect();
    assert_eq!(
        logged, by_seq,
        "the log's hand records are exactly the acknowledged ones: none lost, none doubled"
    );
    // One chain: seqs 1..=N with no gap, each record's prev_hash its
    // predecessor's hash (audit verify below checks the HMACs too).
    let chain: Vec<(i64, String, String)> =
        sqlx::query_as("SELECT seq, prev_hash, hash FROM audit_log ORDER BY seq")
            .fetch_all(pool)
            .await
            .expect("chain");
    for pair in chain.windows(2) {
        assert_eq!(pair[1].0, pair[0].0 + 1, "a gap after seq {}", pair[0].0);
        assert_eq!(
            pair[1].1, pair[0].2,
            "seq {} does not follow seq {}",
            pair[1].0, pair[0].0
        );
    }
    assert_eq!(chain.first().map(|r| r.0), Some(1));
    let hands: BTreeSet<&str> = by_seq.values().map(|(h, _, _)| h.as_str()).collect();
    assert_eq!(hands.len(), hands_driven);

    for instance in instances {
        let errors = instance.stop();
        assert!(errors.is_empty(), "no ERROR in the logs: {errors:?}");
    }
    let verify = Command::new(BIN)
        .args(["audit", "verify"])
        .env("DATABASE_URL", &database.url)
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .env_remove("RUST_LOG")
        .output()
        .expect("run audit verify");
    assert!(
        verify.status.success(),
        "audit verify: {}\n{}",
        String::from_utf8_lossy(&verify.stdout),
        String::from_utf8_lossy(&verify.stderr)
    );
}
