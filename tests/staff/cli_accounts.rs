//! `pitbook user list|disable|enable|set-role|reset-password` through the
//! real binary on both databases: each change is audited with the actor
//! `cli` and the account under `username`; bad input exits 2 naming the
//! value and writes nothing; a reset password is printed once and must be
//! changed at the next login.

use std::process::Command;

use crate::common::{Backend, TEST_KEY_HEX, TestDb, log_records, test_key};
use pitbook::domain::staff::Role;
use pitbook::store::staff::{LoginGuard, add_user, issue_token, login, token_user};

/// Runs `pitbook user ARGS --database-url URL`; returns (code, stdout, stderr).
async fn user(url: &str, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_pitbook"));
    command
        .arg("user")
        .args(args)
        .args(["--database-url", url])
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .env_remove("RUST_LOG");
    let out = tokio::task::spawn_blocking(move || command.output().expect("run pitbook"))
        .await
        .expect("join");
    (
        out.status.code().expect("exit code"),
        String::from_utf8(out.stdout).expect("utf-8"),
        String::from_utf8(out.stderr).expect("utf-8"),
    )
}

async fn ok(url: &str, args: &[&str]) -> String {
    let (code, stdout, stderr) = user(url, args).await;
    assert_eq!(code, 0, "{args:?}: {stderr}");
    stdout
}

/// Exit 2, nothing on stdout, an error line (the last) containing `needle`.
async fn refused(url: &str, args: &[&str], needle: &str) {
    let (code, stdout, stderr) = user(url, args).await;
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}");
    let last = stderr.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: "), "{stderr}");
    assert!(
        last.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

const PASSWORD: &str = "correct-horse-battery";

async fn accounts_are_run_from_the_command_line(backend: Backend) {
    let database = TestDb::new(backend).await;
    let (db, url) = (&database.db, database.url.as_str());
    for (name, role) in [("ada", Role::Admin), ("dana", Role::Dealer)] {
        add_user(db, &test_key(), "test", name, role, PASSWORD, false)
            .await
            .expect("add");
    }
    let (token, _) = issue_token(db, &test_key(), "test", "dana", "laptop")
        .await
        .expect("token");
    let listed = ok(url, &["list"]).await;
    let lines: Vec<&str> = listed.lines().collect();
    assert_eq!(lines.len(), 3, "{listed}");
    assert!(
        lines[1].starts_with("ada ") && lines[1].ends_with("admin       active"),
        "{listed}"
    );
    assert!(
        lines[2].starts_with("dana ") && lines[2].contains("dealer"),
        "{listed}"
    );

    let before = log_records(db).await.len();
    refused(url, &["disable", "nobody"], "NAME: no user \"nobody\"").await;
    refused(url, &["disable", "Dana!"], "NAME: ").await;
    refused(
        url,
        &["enable", "dana"],
        "NAME: \"dana\" is already enabled",
    )
    .await;
    refused(
        url,
        &["set-role", "dana", "boss"],
        "ROLE: \"boss\" is not a role",
    )
    .await;
    refused(
        url,
        &["set-role", "dana", "dealer"],
        "ROLE: \"dana\" is already dealer",
    )
    .await;
    refused(
        url,
        &["set-role", "ada", "dealer"],
        "ROLE: \"ada\" is the last enabled admin",
    )
    .await;
    refused(
        url,
        &["disable", "ada"],
        "NAME: \"ada\" is the last enabled admin",
    )
    .await;
    refused(
        url,
        &["reset-password", "nobody"],
        "NAME: no user \"nobody\"",
    )
    .await;
    assert_eq!(log_records(db).await.len(), before, "nothing written");

    let out = ok(url, &["disable", "dana"]).await;
    assert_eq!(
        out,
        "disabled \"dana\": 0 sessions ended, its API tokens stopped\n"
    );
    assert!(token_user(db, &token).await.expect("lookup").is_none());
    assert!(ok(url, &["list"]).await.contains("disabled"));
    assert_eq!(ok(url, &["enable", "dana"]).await, "enabled \"dana\"\n");
    assert!(token_user(db, &token).await.expect("lookup").is_some());
    assert_eq!(
        ok(url, &["set-role", "dana", "supervisor"]).await,
        "\"dana\" is now supervisor (was dealer)\n"
    );

    let (code, stdout, stderr) = user(url, &["reset-password", "dana"]).await;
    assert_eq!(code, 0, "{stderr}");
    let password = stdout.strip_suffix('\n').expect("one line");
    assert_eq!(password.len(), 24, "{stdout:?}");
    assert!(stderr.contains("shown once"), "{stderr}");
    let key = test_key();
    let (_, signed_in) = login(
        db,
        &key,
        &LoginGuard::default(),
        "dana",
        password,
        "127.0.0.1".parse().expect("ip"),
    )
    .await
    .expect("the one-time password signs in");
    assert!(signed_in.must_change_password);
    assert_eq!(signed_in.role, Role::Supervisor);

    let changes: Vec<_> = log_records(db)
        .await
        .into_iter()
        .skip(before)
        .filter(|(e, _, _)| e != "login")
        .collect();
    let cli = |e: &str, p: serde_json::Value| (e.to_string(), "cli".to_string(), p);
    assert_eq!(
        changes,
        [
            cli("user_disabled", serde_json::json!({"username": "dana"})),
            cli("user_enabled", serde_json::json!({"username": "dana"})),
            cli(
                "role_changed",
                serde_json::json!({"username": "dana", "from": "dealer", "to": "supervisor"})
            ),
            cli("password_reset", serde_json::json!({"username": "dana"})),
        ]
    );
    let report = pitbook::store::verify::verify(db, &key, 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

on_both_databases!(accounts_are_run_from_the_command_line,);
