//! Every Double Hand Poker API's 422 names its field (and the value when
//! the error knows it) beside the message, on both databases: the settle
//! contract, the hand tools, the hand store and the tables.

use crate::common::{Backend, post_bad_field, spawn_app};
use crate::shell_settle::seed;
use serde_json::json;

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

async fn settle_and_tools_name_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut finer = seed();
    finer["wagers"][0]["amount"] = json!("60.005");
    post_bad_field(
        &app,
        "/api/v1/settle",
        finer,
        "wagers[0].amount",
        Some("60.005"),
    )
    .await;
    let mut unknown = seed();
    unknown["colour"] = json!("red");
    post_bad_field(&app, "/api/v1/settle", unknown, "colour", None).await;
    let dice = json!({"dice": [1, 7, 1], "pd_seat": 1});
    post_bad_field(&app, "/api/v1/dice", dice, "dice[1]", None).await;
    let cards = json!({"cards": "As Xx Qs"});
    post_bad_field(&app, "/api/v1/hands/eval", cards, "cards", None).await;
}

async fn hands_name_the_event_field(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    let open = json!({"type": "hand_opened", "table": "T1"});
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(), "events": [open]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let hand = body["hand_id"].as_str().expect("hand id").to_string();
    let commands = format!("/api/v1/hands/{hand}/commands");

    let someone = json!({"idempotency_key": key(), "actor": "someone", "events": [open]});
    post_bad_field(&app, "/api/v1/hands", someone, "actor", Some("someone")).await;
    let no_key = json!({"idempotency_key": "", "events": [open]});
    post_bad_field(&app, "/api/v1/hands", no_key, "idempotency_key", None).await;
    let nowhere = json!({"idempotency_key": key(),
                         "events": [{"type": "hand_opened", "table": "T9"}]});
    post_bad_field(
        &app,
        "/api/v1/hands",
        nowhere,
        "events[0].table",
        Some("T9"),
    )
    .await;
    // Money as a JSON number, in the command's second event.
    let pd = json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"});
    let number =
        json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": 60});
    let command = json!({"idempotency_key": key(), "expected_version": 1, "events": [pd, number]});
    post_bad_field(&app, &commands, command, "events[1].amount", None).await;
    // A rule the core checks, named at the command's event.
    let on_pd =
        json!({"type": "wager_placed", "id": "w1", "seat": 1, "bettor": "Z", "amount": "5"});
    let command = json!({"idempotency_key": key(), "expected_version": 1, "events": [pd, on_pd]});
    post_bad_field(&app, &commands, command, "wagers[0].seat", Some("1")).await;
}

async fn tables_name_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let too_many = json!({"name": "T9", "profile": "lucky-chances", "seats": 11});
    post_bad_field(&app, "/api/v1/tables", too_many, "seats", None).await;
    let wrong_type = json!({"name": 5, "profile": "lucky-chances", "seats": 7});
    post_bad_field(&app, "/api/v1/tables", wrong_type, "name", None).await;
}

on_both_databases!(
    settle_and_tools_name_the_field,
    hands_name_the_event_field,
    tables_name_the_field,
);
