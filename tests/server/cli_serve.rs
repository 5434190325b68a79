//! The real binary: the zero-configuration start, graceful shutdown, and
//! one-line errors with a non-zero exit for bad configuration.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");

#[tokio::test]
async fn serve_with_no_configuration_uses_embedded_sqlite_and_stops_on_sigterm() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(BIN)
        .args(["serve", "--bind", "127.0.0.1:0", "--log-format", "json"])
        .current_dir(dir.path())
        .env_remove("DATABASE_URL")
        .env_remove("PITBOOK_BIND")
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn pitbook");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = BufReader::new(stderr).lines();
    let address = loop {
        let line = lines
            .next()
            .expect("a log line before exit")
            .expect("utf-8 log");
        let record: serde_json::Value = serde_json::from_str(&line).expect("json log line");
        if record["message"] == "pitbook listening" {
            assert_eq!(record["backend"], "sqlite");
            assert_eq!(record["header_timeout_secs"], 10, "the default");
            assert_eq!(record["max_connections"], 1024, "the default");
            break record["address"].as_str().expect("address").to_string();
        }
    };
    let body: serde_json::Value = reqwest::get(format!("http://{address}/healthz"))
        .await
        .expect("healthz")
        .json()
        .await
        .expect("json");
    assert_eq!(body["status"], "ok");
    assert!(
        dir.path().join("pitbook.db").exists(),
        "the embedded database file is created"
    );

    let status = Command::new("kill")
        .args(["-TERM", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(status.success());
    let exit = tokio::task::spawn_blocking(move || child.wait())
        .await
        .expect("join")
        .expect("wait");
    assert!(exit.success(), "graceful shutdown exits 0, got {exit:?}");
}

fn run_failing(args: &[&str], envs: &[(&str, &str)]) -> (i32, String) {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(dir.path())
        .env_remove("DATABASE_URL");
    for (k, v) in envs {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run pitbook");
    assert!(out.stdout.is_empty(), "nothing on stdout");
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let error_lines: Vec<&str> = stderr.lines().filter(|l| l.contains("error")).collect();
    assert_eq!(error_lines.len(), 1, "one error line, got: {stderr}");
    // Nothing half-created: no database file appears for a failed start.
    assert!(!dir.path().join("pitbook.db").exists());
    (
        out.status.code().expect("exit code"),
        error_lines[0].to_string(),
    )
}

#[test]
fn an_unknown_flag_is_a_usage_error() {
    let (code, line) = run_failing(&["serve", "--colour", "red"], &[]);
    assert_eq!(code, 2);
    assert!(line.contains("--colour"), "{line}");
}

#[test]
fn a_zero_timeout_or_cap_is_a_usage_error() {
    for flag in [
        "--header-timeout-secs",
        "--body-timeout-secs",
        "--request-timeout-secs",
        "--max-connections",
    ] {
        let (code, line) = run_failing(&["serve", flag, "0"], &[]);
        assert_eq!(code, 2, "{flag}");
        assert!(line.contains(flag) && line.contains('0'), "{line}");
    }
}

#[test]
fn a_retention_of_zero_negative_or_not_a_duration_is_a_usage_error() {
    for (text, why) in [
        ("0s", "under a minute"),
        ("30s", "under a minute"),
        ("-1h", "is not a duration"),
        ("soon", "is not a duration"),
        ("48", "is not a duration"),
        ("20000d", "over ten years"),
    ] {
        let flag = format!("--idempotency-retention={text}");
        let (code, line) = run_failing(&["serve", &flag], &[]);
        assert_eq!(code, 2, "{text}");
        assert!(
            line.contains("--idempotency-retention") && line.contains(why),
            "{line}"
        );
        let (code, line) = run_failing(&["serve"], &[("PITBOOK_IDEMPOTENCY_RETENTION", text)]);
        assert_eq!(code, 2, "{text} from the environment");
        assert!(
            line.contains("--idempotency-retention") && line.contains(why),
            "{line}"
        );
    }
}

#[test]
fn an_unparseable_database_url_is_named() {
    let (code, line) = run_failing(
        &["serve", "--bind", "127.0.0.1:0"],
        &[("DATABASE_URL", "mysql://db/x")],
    );
    assert_eq!(code, 1);
    assert!(
        line.contains("DATABASE_URL") && line.contains("mysql://db/x"),
        "{line}"
    );
}

#[test]
fn an_unreachable_database_is_named() {
    let (code, line) = run_failing(
        &[
            "serve",
            "--bind",
            "127.0.0.1:0",
            "--database-url",
            "postgres://postgres@127.0.0.1:9/nothing",
        ],
        &[("PITBOOK_AUDIT_KEY", &"ab".repeat(32))],
    );
    assert_eq!(code, 1);
    assert!(
        line.contains("unreachable") && line.contains("127.0.0.1:9"),
        "{line}"
    );
}

#[test]
fn an_sqlite_file_in_a_missing_directory_is_named() {
    let (code, line) = run_failing(
        &["serve", "--database-url", "sqlite:/no/such/dir/p.db"],
        &[],
    );
    assert_eq!(code, 1);
    assert!(line.contains("/no/such/dir/p.db"), "{line}");
}
