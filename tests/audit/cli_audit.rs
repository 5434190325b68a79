//! The real binary: `pitbook audit verify | anchor | export`, key handling,
//! and a crash (SIGKILL) in the middle of a stream of commands.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::{Backend, TEST_KEY_HEX, TestDb, tamper};
use serde_json::json;

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");

/// Starts `pitbook serve` on port 0; returns the child and its address.
fn start_server(url: &str, dir: &std::path::Path, key: Option<&str>) -> (Child, String) {
    let mut cmd = Command::new(BIN);
    cmd.args([
        "serve",
        "--bind",
        "127.0.0.1:0",
        "--log-format",
        "json",
        "--database-url",
        url,
    ])
    .current_dir(dir)
    .env_remove("PITBOOK_AUDIT_KEY")
    .stderr(Stdio::piped());
    if let Some(key) = key {
        cmd.env("PITBOOK_AUDIT_KEY", key);
    }
    let mut child = cmd.spawn().expect("spawn pitbook");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("server exited before listening")
            .expect("log line");
        let record: serde_json::Value = serde_json::from_str(&line).expect("json log");
        if record["message"] == "pitbook listening" {
            break record["address"].as_str().expect("address").to_string();
        }
    };
    // Keep draining stderr so the server never blocks on a full pipe.
    std::thread::spawn(move || for _ in lines.by_ref() {});
    (child, address)
}

fn audit(args: &[&str], url: &str, key: &str) -> (i32, String, String) {
    let out = Command::new(BIN)
        .arg("audit")
        .args(args)
        .args(["--database-url", url])
        .env("PITBOOK_AUDIT_KEY", key)
        .output()
        .expect("run pitbook audit");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// A supervisor `dana` and an API token for her, made with the CLI against
/// the server's database (two audit records: the account and the token).
fn api_token(url: &str, key: Option<&str>, dir: &std::path::Path) -> String {
    let run = |args: &[&str], stdin: &str| {
        let mut cmd = Command::new(BIN);
        cmd.args(args)
            .args(["--database-url", url])
            .current_dir(dir)
            .env_remove("PITBOOK_AUDIT_KEY")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(key) = key {
            cmd.env("PITBOOK_AUDIT_KEY", key);
        }
        let mut child = cmd.spawn().expect("spawn pitbook user");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(stdin.as_bytes())
            .expect("write stdin");
        let out = child.wait_with_output().expect("pitbook user");
        assert!(
            out.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).trim().to_string()
    };
    run(
        &["user", "add", "dana", "--role", "supervisor"],
        "a-long-enough-password\n",
    );
    run(&["user", "token", "dana"], "")
}

fn hand_command(table: &str) -> serde_json::Value {
    json!({"idempotency_key": uuid::Uuid::new_v4().to_string(), "actor": "dana", "events": [
        {"type": "hand_opened", "table": table},
        {"type": "pd_set", "seat": 2, "player": "Pat", "bank": "150.50"},
        {"type": "wager_placed", "id": "a", "seat": 3, "bettor": "Ann", "amount": "40"},
        {"type": "wager_placed", "id": "b", "seat": 3, "bettor": "Bo", "amount": "25.25", "backline": true},
        {"type": "action_set", "dice": [6, 5, 4]},
        {"type": "outcome_recorded", "seat": 3, "outcome": "player"},
        {"type": "steps_confirmed", "wagers": ["a", "b"]},
        {"type": "hand_closed"}
    ]})
}

async fn post_hands(address: &str, token: &str, count: usize) {
    crate::common::configure_table(&format!("http://{address}"), token, "T9", false).await;
    let client = crate::common::bearer_client(token);
    for _ in 0..count {
        let r = client
            .post(format!("http://{address}/api/v1/hands"))
            .json(&hand_command("T9"))
            .send()
            .await
            .expect("post");
        assert_eq!(r.status().as_u16(), 201);
    }
}

fn kill(child: &mut Child, signal: &str) {
    let status = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    child.wait().expect("wait");
}

async fn verify_anchor_and_export(backend: Backend) {
    let db = TestDb::new(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, address) = start_server(&db.url, dir.path(), Some(TEST_KEY_HEX));
    let token = api_token(&db.url, Some(TEST_KEY_HEX), dir.path());
    post_hands(&address, &token, 3).await;
    kill(&mut server, "-TERM");

    let (code, out, err) = audit(&["verify"], &db.url, TEST_KEY_HEX);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("OK: 29 records verified, 3 settlements recomputed"),
        "{out}"
    );

    // From the middle of a hand: its earlier events are replayed from the log.
    let (code, out, err) = audit(&["verify", "--from", "7"], &db.url, TEST_KEY_HEX);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with("OK: 23 records verified, 3 settlements recomputed"),
        "{out}"
    );

    let (code, anchor, _) = audit(&["anchor"], &db.url, TEST_KEY_HEX);
    assert_eq!(code, 0);
    let anchor = anchor.trim().to_string();
    assert!(
        anchor.starts_with("29:") && anchor.len() == 3 + 64,
        "{anchor}"
    );
    let (code, out, _) = audit(
        &["verify", "--anchor", &anchor, "--json"],
        &db.url,
        TEST_KEY_HEX,
    );
    assert_eq!(code, 0, "{out}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("json report");
    assert_eq!(report["count"], 29);

    let (code, out, _) = audit(
        &["export", "--from", "9", "--to", "16", "--format", "jsonl"],
        &db.url,
        TEST_KEY_HEX,
    );
    assert_eq!(code, 0);
    let lines: Vec<serde_json::Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("jsonl"))
        .collect();
    assert_eq!(lines.len(), 8);
    assert_eq!(
        (lines[0]["seq"].as_i64(), lines[7]["seq"].as_i64()),
        (Some(9), Some(16))
    );
    let (code, out, _) = audit(
        &[
            "export",
            "--from",
            "2000-01-01T00:00:00Z",
            "--format",
            "csv",
        ],
        &db.url,
        TEST_KEY_HEX,
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 30, "header + 29 records");
    assert!(
        out.lines()
            .next()
            .unwrap()
            .starts_with("seq,recorded_at,actor")
    );

    // The key's registration at the first start is the chain's first record.
    let (code, out, _) = audit(&["export", "--to", "1"], &db.url, TEST_KEY_HEX);
    assert_eq!(code, 0);
    let first: serde_json::Value = serde_json::from_str(out.trim()).expect("one record");
    assert_eq!(
        (first["event_type"].as_str(), first["actor"].as_str()),
        (Some("audit_key_registered"), Some("system"))
    );

    // Bad input: exit 2, nothing on stdout.
    for args in [
        &["verify", "--anchor", "nonsense"][..],
        &["verify", "--from", "0"],
        &["export", "--from", "yesterday"],
    ] {
        let (code, out, err) = audit(args, &db.url, TEST_KEY_HEX);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert_eq!(err.lines().count(), 1, "{err}");
    }

    // Tampering: exit 1 and the first bad seq.
    tamper(
        &db.db,
        &["UPDATE audit_log SET actor = 'mallory' WHERE seq = 11"],
    )
    .await;
    let (code, out, _) = audit(&["verify"], &db.url, TEST_KEY_HEX);
    assert_eq!(code, 1);
    assert!(out.starts_with("FAILED at seq 11: hash_mismatch"), "{out}");
}

async fn a_crash_mid_stream_leaves_no_partial_command(backend: Backend) {
    let db = TestDb::new(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, address) = start_server(&db.url, dir.path(), Some(TEST_KEY_HEX));
    let token = api_token(&db.url, Some(TEST_KEY_HEX), dir.path());
    for i in 0..4 {
        crate::common::configure_table(
            &format!("http://{address}"),
            &token,
            &format!("T{i}"),
            false,
        )
        .await;
    }
    // Four writers stream whole-hand commands until the server dies.
    let writers: Vec<_> = (0..4)
        .map(|i| {
            let address = address.clone();
            let token = token.clone();
            tokio::spawn(async move {
                let client = crate::common::bearer_client(&token);
                let mut ok = 0;
                for _ in 0..10_000 {
                    let sent = client
                        .post(format!("http://{address}/api/v1/hands"))
                        .json(&hand_command(&format!("T{i}")))
                        .send()
                        .await;
                    match sent {
                        Ok(r) if r.status().as_u16() == 201 => ok += 1,
                        _ => break,
                    }
                }
                ok
            })
        })
        .collect();
    tokio::time::sleep(std::time::Duration::from_millis(700)).await;
    kill(&mut server, "-KILL");
    let mut acknowledged = 0;
    for w in writers {
        acknowledged += w.await.expect("writer");
    }
    assert!(acknowledged > 0, "some commands ran before the crash");

    // After restart: the chain verifies, and every acknowledged hand is there whole.
    let (mut server, address) = start_server(&db.url, dir.path(), Some(TEST_KEY_HEX));
    let (code, out, err) = audit(&["verify", "--json"], &db.url, TEST_KEY_HEX);
    assert_eq!(code, 0, "{out}{err}");
    let report: serde_json::Value = serde_json::from_str(&out).unwrap();
    let records = report["count"].as_u64().unwrap();
    let hands = report["hands_settled"].as_u64().unwrap();
    assert_eq!(
        records,
        4 + 4 + hands * 8,
        "the key registration, the first admin account, dana and her token, the four tables, then only whole commands: 8 records per hand"
    );
    assert!(
        hands >= acknowledged,
        "{hands} hands stored, {acknowledged} acknowledged"
    );
    post_hands(&address, &token, 1).await;
    kill(&mut server, "-TERM");
}

#[tokio::test]
async fn postgres_without_a_key_refuses_to_start() {
    let db = TestDb::new(Backend::Postgres).await;
    let dir = tempfile::tempdir().unwrap();
    let out = Command::new(BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &db.url])
        .current_dir(dir.path())
        .env_remove("PITBOOK_AUDIT_KEY")
        .env_remove("PITBOOK_AUDIT_KEY_FILE")
        .output()
        .expect("run");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.contains("PITBOOK_AUDIT_KEY"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

async fn the_wrong_key_for_an_existing_chain_is_refused(backend: Backend) {
    let db = TestDb::new(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let (mut server, _) = start_server(&db.url, dir.path(), Some(TEST_KEY_HEX));
    kill(&mut server, "-TERM");
    let out = Command::new(BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--database-url", &db.url])
        .env("PITBOOK_AUDIT_KEY", "cd".repeat(32))
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fingerprint"));
}

#[tokio::test]
async fn the_embedded_default_creates_a_private_key_file_on_first_start() {
    let dir = tempfile::tempdir().unwrap();
    let (mut server, address) = start_server("sqlite:pitbook.db", dir.path(), None);
    let token = api_token("sqlite:pitbook.db", None, dir.path());
    post_hands(&address, &token, 1).await;
    kill(&mut server, "-TERM");
    let key_path = dir.path().join("pitbook.db.audit-key");
    let key = std::fs::read_to_string(&key_path).expect("key file beside the database");
    use std::os::unix::fs::PermissionsExt;
    assert_eq!(
        std::fs::metadata(&key_path).unwrap().permissions().mode() & 0o777,
        0o600
    );
    let url = format!("sqlite:{}", dir.path().join("pitbook.db").display());
    let (code, out, _) = audit(&["verify"], &url, key.trim());
    assert_eq!(code, 0, "{out}");
}

mod sqlite {
    #[tokio::test]
    async fn verify_anchor_and_export() {
        super::verify_anchor_and_export(super::Backend::Sqlite).await
    }
    #[tokio::test]
    async fn a_crash_mid_stream_leaves_no_partial_command() {
        super::a_crash_mid_stream_leaves_no_partial_command(super::Backend::Sqlite).await
    }
    #[tokio::test]
    async fn the_wrong_key_for_an_existing_chain_is_refused() {
        super::the_wrong_key_for_an_existing_chain_is_refused(super::Backend::Sqlite).await
    }
}

mod postgres {
    #[tokio::test]
    async fn verify_anchor_and_export() {
        super::verify_anchor_and_export(super::Backend::Postgres).await
    }
    #[tokio::test]
    async fn a_crash_mid_stream_leaves_no_partial_command() {
        super::a_crash_mid_stream_leaves_no_partial_command(super::Backend::Postgres).await
    }
    #[tokio::test]
    async fn the_wrong_key_for_an_existing_chain_is_refused() {
        super::the_wrong_key_for_an_existing_chain_is_refused(super::Backend::Postgres).await
    }
}
