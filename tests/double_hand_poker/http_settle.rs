//! `POST /api/v1/settle` on both databases: 200 with exactly the settlement
//! JSON of docs/settle.md and of `pitbook settle`, 422 with a JSON error
//! naming the field and value for every bad input of `shell_settle`, and
//! nothing recorded in the database either way.

use crate::common::{Backend, TestApp, spawn_app};
use crate::shell_settle::{bad_cases, compact, doc_block, seed, seed_input, seed_output_pretty};
use pitbook::domain::double_hand_poker::settle::limits;
use pitbook::store::Db;
use serde_json::Value;

const SETTLE: &str = "/api/v1/settle";

/// POSTs `body` as it is; returns the status, the content type and the
/// body text.
async fn post_text(
    app: &TestApp,
    content_type: Option<&str>,
    body: Vec<u8>,
) -> (u16, String, String) {
    let mut request = app.client.post(app.url(SETTLE)).body(body);
    if let Some(ct) = content_type {
        request = request.header("content-type", ct);
    }
    let response = request.send().await.expect("request");
    let status = response.status().as_u16();
    let ct = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    (status, ct, response.text().await.expect("body text"))
}

/// 200, `application/json`; returns the body text.
async fn settle_ok(app: &TestApp, input: &str) -> String {
    let (status, ct, text) = post_text(app, Some("application/json"), input.into()).await;
    assert_eq!(status, 200, "{text}");
    assert_eq!(ct, "application/json");
    text
}

/// 422 `{"error": "bad_input", "message": …, "field": …}` (and `value`
/// when known); returns the message.
async fn settle_bad(app: &TestApp, input: &str, needle: &str) -> String {
    let (status, body) = app.post_raw(SETTLE, input).await;
    assert_eq!(status, 422, "{input}: {body}");
    let (_, message) = crate::common::bad_input_body(&body);
    assert!(
        message.contains(needle),
        "{message:?} lacks {needle:?} (input {input})"
    );
    assert_eq!(message.lines().count(), 1, "{message:?}");
    message
}

/// `pitbook settle` with `input` on stdin: (exit code, stdout, stderr).
fn cli(input: &str) -> (i32, String, String) {
    crate::common::cli::with_stdin(&["settle"], input.as_bytes())
}

/// Nothing in the audit log but the harness's account and token (seq 1
/// and 2), and no hands: settle is a pure calculation.
async fn assert_nothing_recorded(db: &Db) {
    let head = pitbook::store::verify::anchor(db).await.unwrap();
    assert_eq!(
        head.map(|a| a.seq),
        Some(2),
        "the audit log holds only the harness's records"
    );
    let sql = "SELECT COUNT(*) FROM hands";
    let hands: i64 = match db {
        Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.unwrap(),
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await.unwrap(),
    };
    assert_eq!(hands, 0, "no hands are stored");
}

async fn the_seed_example_is_the_docs_settlement(backend: Backend) {
    let app = spawn_app(backend).await;
    let text = settle_ok(&app, &seed_input()).await;
    assert_eq!(text, compact(&seed_output_pretty()));
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["action_seat"], 4);
    assert_eq!(
        body["steps"][0]["explanation"],
        "Seat 4, Ann, $60 loses: collect $60 for the bank; $140 left in action"
    );
    assert_eq!(body["steps"][2]["no_action"], "20.00");
    assert_eq!(body["pd_returned"], "0.00");
    assert_eq!(body["totals"]["pd"]["net"], "80.00");

    // The hands example too, and the body's content type is not required.
    let hands = doc_block("hands", "input");
    let expected = compact(&doc_block("hands", "output"));
    assert_eq!(settle_ok(&app, &hands).await, expected);
    let (status, ct, text) = post_text(&app, None, hands.clone().into()).await;
    assert_eq!((status, ct.as_str()), (200, "application/json"));
    assert_eq!(text, expected);
    let (status, _, text) = post_text(&app, Some("text/plain"), hands.into()).await;
    assert_eq!((status, text), (200, expected));
}

async fn the_http_body_is_the_cli_stdout(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dice = seed();
    dice["action"] = serde_json::json!({"dice": [6, 6, 5]});
    let mut push = seed();
    push["options"] = serde_json::json!({"push_consumes_action": true});
    push["outcomes"]["5"] = "push".into();
    for input in [
        seed_input(),
        doc_block("hands", "input"),
        dice.to_string(),
        push.to_string(),
    ] {
        let (code, stdout, stderr) = cli(&input);
        assert_eq!(code, 0, "{stderr}");
        assert_eq!(settle_ok(&app, &input).await + "\n", stdout, "{input}");
    }
}

async fn every_bad_input_is_422_naming_the_field_and_value(backend: Backend) {
    let app = spawn_app(backend).await;
    let cases = bad_cases();
    assert!(cases.len() >= 20);
    for c in &cases {
        let message = settle_bad(&app, &c.input, c.needle).await;
        // The same message as the CLI's one line.
        let (code, stdout, stderr) = cli(&c.input);
        assert_eq!((code, stdout.as_str()), (2, ""), "{}", c.what);
        assert_eq!(stderr, format!("error: {message}\n"), "{}", c.what);
    }
    assert_nothing_recorded(&app.database.db).await;
}

async fn too_long_or_not_utf8_bodies_are_422(backend: Backend) {
    let app = spawn_app(backend).await;
    let max = limits::INPUT_BYTES_MAX;
    let seed = seed_input();
    let at_limit = format!("{seed}{}", " ".repeat(max - seed.len()));
    assert_eq!(
        settle_ok(&app, &at_limit).await,
        compact(&seed_output_pretty())
    );
    let over = format!("{at_limit} ");
    let message = format!("input: the body is more than the limit of {max} bytes");
    assert_eq!(settle_bad(&app, &over, &message).await, message);
    // Far over the limit (and over axum's default 2 MiB): the same 422.
    let huge = " ".repeat(3 * 1024 * 1024);
    assert_eq!(settle_bad(&app, &huge, &message).await, message);

    let mut bytes = seed.into_bytes();
    bytes.insert(10, 0xff);
    let (status, _, text) = post_text(&app, Some("application/json"), bytes).await;
    assert_eq!(status, 422, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["error"], "bad_input");
    assert_eq!(
        body["message"],
        "input: the body is not UTF-8 text (invalid byte at offset 10)"
    );
}

async fn settling_records_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    assert_nothing_recorded(&app.database.db).await;
    settle_ok(&app, &seed_input()).await;
    settle_ok(&app, &doc_block("hands", "input")).await;
    settle_bad(&app, "{", "EOF while parsing").await;
    assert_nothing_recorded(&app.database.db).await;
}

async fn only_post_is_allowed(backend: Backend) {
    let app = spawn_app(backend).await;
    let response = app.client.get(app.url(SETTLE)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 405);
}

on_both_databases!(
    the_seed_example_is_the_docs_settlement,
    the_http_body_is_the_cli_stdout,
    every_bad_input_is_422_naming_the_field_and_value,
    too_long_or_not_utf8_bodies_are_422,
    settling_records_nothing,
    only_post_is_allowed,
);
