//! The hand store and its audit log over HTTP, on both databases: a hand as
//! a stream of commands, optimistic concurrency, idempotency, the state
//! machine's refusals, and the append-only guarantee.

mod common;

use common::{Backend, TestApp, spawn_app};
use serde_json::{Value, json};

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Opens a hand; returns its id.
async fn open(app: &TestApp) -> String {
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(),
                    "events": [{"type": "hand_opened", "table": "T1", "dealer": "dana"}]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["version"], 1);
    body["hand_id"].as_str().expect("hand id").to_string()
}

/// Sends one event at `version`; returns (status, body).
async fn send(app: &TestApp, hand: &str, version: u64, event: Value) -> (u16, Value) {
    let (status, body, _) = app
        .post_json(
            &format!("/api/v1/hands/{hand}/commands"),
            &json!({"idempotency_key": key(), "expected_version": version, "events": [event]}),
        )
        .await;
    (status, body)
}

/// The seed's $200 example, event by event after the open.
fn seed_events() -> Vec<Value> {
    vec![
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}),
        json!({"type": "collection_taken", "player": [{"from": "1", "to": "100", "fee": "1"}], "bank": [{"from": "1", "to": "5000", "fee": "2"}]}),
        json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}),
        json!({"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"}),
        json!({"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"}),
        json!({"type": "action_set", "dice": [1, 1, 1]}),
        json!({"type": "outcome_recorded", "seat": 4, "outcome": "pd"}),
        json!({"type": "outcome_recorded", "seat": 5, "outcome": "player"}),
        json!({"type": "outcome_recorded", "seat": 6, "outcome": "player"}),
        json!({"type": "steps_confirmed", "wagers": ["w1", "w2", "w3"]}),
    ]
}

async fn head_seq(app: &TestApp) -> i64 {
    pitbook::store::verify::anchor(&app.database.db)
        .await
        .expect("anchor")
        .map_or(0, |a| a.seq)
}

async fn a_hand_runs_event_by_event_and_closes_with_its_settlement(backend: Backend) {
    let app = spawn_app(backend).await;
    let hand = open(&app).await;
    let mut version = 1;
    for event in seed_events() {
        let (status, body) = send(&app, &hand, version, event).await;
        assert_eq!(status, 200, "{body}");
        version = body["version"].as_u64().expect("version");
    }
    let (status, body) = send(&app, &hand, version, json!({"type": "hand_closed"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["phase"], "closed");
    let steps = body["settlement"]["steps"].as_array().expect("steps");
    // Dice 1+1+1 = 3: position 3 from the PD's seat 1 is seat 3, empty, so
    // action starts at seat 4, as in the seed.
    assert_eq!(body["settlement"]["action_seat"], 3);
    assert_eq!(steps[0]["in_action_after"], "140.00");
    assert_eq!(steps[1]["in_action_after"], "80.00");
    assert_eq!(steps[2]["covered"], "80.00");
    assert_eq!(body["settlement"]["house_collection"], "5.00");

    let (status, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    assert_eq!(status, 200);
    assert_eq!(view["status"], "closed");
    assert_eq!(
        view["bank"], "200.00",
        "money round-trips exactly through the database"
    );
    assert_eq!(view["house_collection"], "5.00");
    assert_eq!(view["events"].as_array().expect("events").len(), 12);
    assert_eq!(view["events"][11]["event_type"], "hand_closed");
    assert_eq!(
        view["events"][0]["actor"],
        common::TEST_ADMIN,
        "the actor is who signed in"
    );

    let report = pitbook::store::verify::verify(&app.database.db, &common::test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    assert_eq!(
        report.count,
        2 + 12,
        "the harness's two records and the hand's"
    );
    assert_eq!(report.hands_settled, 1);
}

async fn a_repeated_command_returns_the_first_result_and_records_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    let hand = open(&app).await;
    let command = json!({"idempotency_key": "tap-1", "expected_version": 1,
                         "events": [seed_events()[0].clone()]});
    let path = format!("/api/v1/hands/{hand}/commands");
    let (s1, first, replayed1) = app.post_json(&path, &command).await;
    let head = head_seq(&app).await;
    let (s2, second, replayed2) = app.post_json(&path, &command).await;
    assert_eq!((s1, s2), (200, 200));
    assert!(!replayed1 && replayed2);
    assert_eq!(first, second);
    assert_eq!(head_seq(&app).await, head, "the repeat wrote nothing");

    let mut different = command.clone();
    different["events"][0]["bank"] = json!("300");
    let (status, body, _) = app.post_json(&path, &different).await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("tap-1"),
        "{body}"
    );
    assert_eq!(head_seq(&app).await, head);
}

async fn stale_unknown_and_out_of_order_commands_change_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    let hand = open(&app).await;
    let (status, _) = send(&app, &hand, 1, seed_events()[0].clone()).await;
    assert_eq!(status, 200);
    let head = head_seq(&app).await;

    let (status, body) = send(&app, &hand, 1, seed_events()[2].clone()).await;
    assert_eq!(status, 409, "stale version: {body}");
    assert!(
        body["message"].as_str().unwrap().contains("version 2"),
        "{body}"
    );

    let (status, body) = send(&app, "no-such-hand", 1, seed_events()[2].clone()).await;
    assert_eq!(status, 422, "{body}");
    assert!(body["message"].as_str().unwrap().contains("no-such-hand"));

    let (status, body) = send(
        &app,
        &hand,
        2,
        json!({"type": "wager_placed", "id": "x", "seat": 1, "bettor": "Z", "amount": "5"}),
    )
    .await;
    assert_eq!(status, 422, "wager on the PD seat: {body}");
    let (status, body) = send(
        &app,
        &hand,
        2,
        json!({"type": "wager_placed", "id": "x", "seat": 3, "bettor": "Z", "amount": 5}),
    )
    .await;
    assert_eq!(status, 422, "money as a JSON number: {body}");
    assert!(
        body["message"].as_str().unwrap().starts_with("events[0]"),
        "{body}"
    );
    let (status, body) = send(&app, &hand, 2, json!({"type": "hand_closed"})).await;
    assert_eq!(status, 409, "close before the dice: {body}");
    assert_eq!(
        head_seq(&app).await,
        head,
        "nothing written by refused commands"
    );

    // A closed hand refuses a second close and new wagers.
    let mut version = 2;
    for event in &seed_events()[1..] {
        version = send(&app, &hand, version, event.clone()).await.1["version"]
            .as_u64()
            .unwrap();
    }
    version = send(&app, &hand, version, json!({"type": "hand_closed"}))
        .await
        .1["version"]
        .as_u64()
        .unwrap();
    let (status, body) = send(&app, &hand, version, json!({"type": "hand_closed"})).await;
    assert_eq!(status, 409, "{body}");
    let (status, _) = send(&app, &hand, version, seed_events()[2].clone()).await;
    assert_eq!(status, 409);
}

async fn a_correction_after_close_is_a_new_event_beside_the_original(backend: Backend) {
    let app = spawn_app(backend).await;
    let hand = open(&app).await;
    let mut version = 1;
    for event in seed_events()
        .into_iter()
        .chain([json!({"type": "hand_closed"})])
    {
        version = send(&app, &hand, version, event).await.1["version"]
            .as_u64()
            .unwrap();
    }
    let (status, body) = send(&app, &hand, version,
        json!({"type": "outcome_corrected", "seat": 4, "outcome": "player", "reason": "misread the low hand"})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["settlement"]["steps"][0]["to_bettor"], "120.00");
    let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    let types: Vec<&str> = view["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["event_type"].as_str().unwrap())
        .collect();
    assert_eq!(
        &types[types.len() - 2..],
        ["hand_closed", "outcome_corrected"]
    );
    let report = pitbook::store::verify::verify(&app.database.db, &common::test_key(), 1, None)
        .await
        .unwrap();
    assert!(report.ok(), "{report:?}");
}

async fn the_database_refuses_update_and_delete_on_the_audit_log(backend: Backend) {
    let app = spawn_app(backend).await;
    open(&app).await;
    let db = &app.database.db;
    let update = "UPDATE audit_log SET actor = 'mallory'";
    let delete = "DELETE FROM audit_log";
    let (u, d) = match db {
        pitbook::store::Db::Sqlite(p) => (
            sqlx::query(update).execute(p).await.err(),
            sqlx::query(delete).execute(p).await.err(),
        ),
        pitbook::store::Db::Postgres(p) => (
            sqlx::query(update).execute(p).await.err(),
            sqlx::query(delete).execute(p).await.err(),
        ),
    };
    assert!(
        u.expect("update refused")
            .to_string()
            .contains("append-only")
    );
    assert!(
        d.expect("delete refused")
            .to_string()
            .contains("append-only")
    );
}

async fn a_refused_command_does_not_undo_the_others_committed_with_it(backend: Backend) {
    let app = std::sync::Arc::new(spawn_app(backend).await);
    // Good and bad commands at once: the writer commits them in shared
    // transactions, each in its own savepoint.
    let tasks: Vec<_> = (0..30)
        .map(|i| {
            let app = app.clone();
            tokio::spawn(async move {
                let bank = if i % 3 == 0 { "-5" } else { "200" };
                let body = json!({"idempotency_key": key(), "events": [
                    {"type": "hand_opened", "table": "T1", "dealer": "dana"},
                    {"type": "pd_set", "seat": 1, "player": "Pat", "bank": bank}]});
                let (status, _, _) = app.post_json("/api/v1/hands", &body).await;
                (i, status)
            })
        })
        .collect();
    for t in tasks {
        let (i, status) = t.await.expect("task");
        assert_eq!(status, if i % 3 == 0 { 422 } else { 201 }, "command {i}");
    }
    let report = pitbook::store::verify::verify(&app.database.db, &common::test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    assert_eq!(
        report.count,
        2 + 20 * 2,
        "the harness's two records and only the accepted commands'"
    );
}

on_both_databases!(
    a_refused_command_does_not_undo_the_others_committed_with_it,
    a_hand_runs_event_by_event_and_closes_with_its_settlement,
    a_repeated_command_returns_the_first_result_and_records_nothing,
    stale_unknown_and_out_of_order_commands_change_nothing,
    a_correction_after_close_is_a_new_event_beside_the_original,
    the_database_refuses_update_and_delete_on_the_audit_log,
);
