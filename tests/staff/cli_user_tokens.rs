//! `pitbook user token` and `pitbook user revoke-token` through the real
//! binary on both databases: the token is printed once and signs in, only
//! its hash is stored, revoking by label or id stops it, the limits hold,
//! bad input exits 2 naming the value, and each change is audited.

use std::process::Command;

use crate::common::{Backend, TEST_KEY_HEX, TestDb, log_records, test_key};
use pitbook::domain::staff::Role;
use pitbook::store::Db;
use pitbook::store::staff::{TOKENS_PER_USER_MAX, add_user, issue_token, token_user};

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");

/// Runs `pitbook user ARGS --database-url URL`; returns (code, stdout, stderr).
async fn user(url: &str, args: &[&str]) -> (i32, String, String) {
    let mut command = Command::new(BIN);
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

/// Exit 2, nothing on stdout, an error line containing `needle`.
async fn refused(url: &str, args: &[&str], needle: &str) {
    let (code, stdout, stderr) = user(url, args).await;
    assert_eq!(code, 2, "{args:?}: {stderr}");
    assert_eq!(stdout, "", "{args:?}");
    assert!(
        stderr.contains(needle),
        "{args:?}: {stderr:?} lacks {needle:?}"
    );
}

/// The token on stdout (one line) and its id from the note on stderr.
fn issued(stdout: &str, stderr: &str) -> (String, String) {
    let token = stdout.strip_suffix('\n').expect("one line").to_string();
    assert!(!token.contains('\n'), "{stdout:?}");
    let hex = token.strip_prefix("pbk_").expect("pbk_ prefix");
    assert_eq!(hex.len(), 64);
    assert!(hex.bytes().all(|b| b.is_ascii_hexdigit()));
    let id = stderr
        .split("API token ")
        .nth(1)
        .and_then(|rest| rest.split(' ').next())
        .expect("the token's id on stderr")
        .to_string();
    (token, id)
}

async fn tokens_are_issued_once_and_revoked_by_label_or_id(backend: Backend) {
    let database = TestDb::new(backend).await;
    let (db, url) = (&database.db, database.url.as_str());
    add_user(
        db,
        &test_key(),
        "test",
        "dee",
        Role::Dealer,
        "a-long-password",
        false,
    )
    .await
    .expect("add dee");

    let (code, out, err) = user(url, &["token", "dee", "--label", "laptop"]).await;
    assert_eq!(code, 0, "{err}");
    assert!(err.contains("shown once"), "{err}");
    let (laptop, laptop_id) = issued(&out, &err);
    let (code, out, err) = user(url, &["token", "dee"]).await;
    assert_eq!(code, 0, "{err}");
    let (other, other_id) = issued(&out, &err);
    assert_ne!(laptop, other);
    let (id, user_of) = token_user(db, &laptop).await.unwrap().expect("signs in");
    assert_eq!(
        (id.as_str(), user_of.username.as_str()),
        (laptop_id.as_str(), "dee")
    );

    // Only the hash is stored.
    let sql = "SELECT COUNT(*) FROM api_tokens WHERE token_hash = $1 OR token_hash = $2";
    let plain: i64 = match db {
        Db::Sqlite(p) => {
            sqlx::query_scalar(sql)
                .bind(&laptop)
                .bind(&other)
                .fetch_one(p)
                .await
        }
        Db::Postgres(p) => {
            sqlx::query_scalar(sql)
                .bind(&laptop)
                .bind(&other)
                .fetch_one(p)
                .await
        }
    }
    .expect("query");
    assert_eq!(plain, 0, "no token is stored in the clear");

    let (code, out, err) = user(url, &["revoke-token", "dee", "--label", "laptop"]).await;
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        out,
        format!("revoked API token {laptop_id} (label \"laptop\") of \"dee\"\n")
    );
    assert!(token_user(db, &laptop).await.unwrap().is_none(), "revoked");
    assert!(
        token_user(db, &other).await.unwrap().is_some(),
        "the other still works"
    );
    refused(
        url,
        &["revoke-token", "dee", "--label", "laptop"],
        "--label: no live token labelled \"laptop\" for \"dee\"",
    )
    .await;

    let (code, out, err) = user(url, &["revoke-token", "dee", "--id", &other_id]).await;
    assert_eq!(code, 0, "{err}");
    assert!(out.contains(&other_id), "{out}");
    assert!(token_user(db, &other).await.unwrap().is_none());
    refused(
        url,
        &["revoke-token", "dee", "--id", &other_id],
        &format!("--id: no live token \"{other_id}\" for \"dee\""),
    )
    .await;

    let audited: Vec<(String, String, serde_json::Value)> = log_records(db)
        .await
        .into_iter()
        .filter(|(e, _, _)| e.starts_with("token_"))
        .collect();
    let expect = |e: &str, id: &str, label: &str| {
        (
            e.to_string(),
            "cli".to_string(),
            serde_json::json!({"username": "dee", "token_id": id, "label": label}),
        )
    };
    assert_eq!(
        audited,
        [
            expect("token_issued", &laptop_id, "laptop"),
            expect("token_issued", &other_id, ""),
            expect("token_revoked", &laptop_id, "laptop"),
            expect("token_revoked", &other_id, ""),
        ]
    );
    let report = pitbook::store::verify::verify(db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn bad_input_exits_2_naming_the_value_and_writes_nothing(backend: Backend) {
    let database = TestDb::new(backend).await;
    let (db, url) = (&database.db, database.url.as_str());
    add_user(
        db,
        &test_key(),
        "test",
        "dee",
        Role::Dealer,
        "a-long-password",
        false,
    )
    .await
    .expect("add dee");
    let long = "x".repeat(65);
    refused(url, &["token", "nobody"], "NAME: no user \"nobody\"").await;
    refused(url, &["token", "Dee!"], "NAME: ").await;
    refused(
        url,
        &["token", "dee", "--label", &long],
        &format!("--label: \"{long}\" is 65 characters; at most 64"),
    )
    .await;
    refused(url, &["token", "dee", "--label", "tab\there"], "--label: ").await;
    // Labels are free text (domain::common::text): nothing invisible hides in one.
    refused(
        url,
        &["token", "dee", "--label", "lap\u{200b}top"],
        "--label: \"lap\\u{200B}top\" contains U+200B",
    )
    .await;
    refused(
        url,
        &["revoke-token", "nobody", "--label", "x"],
        "NAME: no user \"nobody\"",
    )
    .await;
    refused(url, &["revoke-token", "dee"], "--id").await;
    refused(
        url,
        &["revoke-token", "dee", "--id", "a", "--label", "b"],
        "--id",
    )
    .await;
    refused(
        url,
        &["revoke-token", "dee", "--id", "no-such-id"],
        "--id: no live token \"no-such-id\"",
    )
    .await;
    let before = log_records(db).await.len();

    // At most TOKENS_PER_USER_MAX live tokens per user.
    for _ in 0..TOKENS_PER_USER_MAX {
        issue_token(db, &test_key(), "test", "dee", "bulk")
            .await
            .expect("issue");
    }
    refused(
        url,
        &["token", "dee"],
        &format!("at most {TOKENS_PER_USER_MAX}"),
    )
    .await;
    assert_eq!(
        log_records(db).await.len(),
        before + TOKENS_PER_USER_MAX as usize
    );
    // A disabled account gets none.
    let disable = "UPDATE staff_users SET disabled = TRUE WHERE username = 'dee'";
    match db {
        Db::Sqlite(p) => sqlx::query(disable).execute(p).await.map(drop),
        Db::Postgres(p) => sqlx::query(disable).execute(p).await.map(drop),
    }
    .expect("disable");
    let (code, out, err) = user(url, &["revoke-token", "dee", "--label", "bulk"]).await;
    assert_eq!(
        (code, out.lines().count()),
        (0, TOKENS_PER_USER_MAX as usize),
        "{err}"
    );
    refused(url, &["token", "dee"], "NAME: \"dee\" is disabled").await;
}

on_both_databases!(
    tokens_are_issued_once_and_revoked_by_label_or_id,
    bad_input_exits_2_naming_the_value_and_writes_nothing,
);
