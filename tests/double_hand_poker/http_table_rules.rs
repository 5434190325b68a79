//! A hand's rules come from its table on every path: the API cannot supply
//! or override them, every event is held to them, and `audit verify`
//! reports a hand written around them at its seq.

use crate::common::browser::signed_in;
use crate::common::{Backend, TestApp, spawn_app};
use pitbook::domain::staff::Role;
use pitbook::store::audit::NewRecord;
use serde_json::{Value, json};

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// The repro's table: 7 seats, unit 1, wagers 5–100, the schedule
/// `1-100:1, 101-5000:2` for players and banks alike.
async fn table_t1(app: &TestApp) {
    let schedule =
        json!([{"from": "1", "to": "100", "fee": "1"}, {"from": "101", "to": "5000", "fee": "2"}]);
    let (status, body) = app
        .post_raw(
            "/api/v1/tables",
            &json!({"name": "T1", "profile": "lucky-chances", "seats": 7,
                    "options": {"min_unit": "1"}, "wager_min": "5", "wager_max": "100",
                    "player_schedule": schedule, "bank_schedule": schedule})
            .to_string(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn record_count(app: &TestApp) -> i64 {
    let sql = "SELECT COUNT(*) FROM audit_log";
    match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_one(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_one(p).await,
    }
    .expect("count")
}

async fn open(app: &TestApp) -> String {
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(), "events": [
                {"type": "hand_opened", "table": "T1"},
                {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    body["hand_id"].as_str().expect("id").to_string()
}

/// Sends `events` to the hand at `version`; returns (status, body).
async fn send(app: &TestApp, hand: &str, version: u64, events: Value) -> (u16, Value) {
    let (status, body, _) = app
        .post_json(
            &format!("/api/v1/hands/{hand}/commands"),
            &json!({"idempotency_key": key(), "expected_version": version, "events": events}),
        )
        .await;
    (status, body)
}

async fn the_issues_repro_is_refused_field_by_field(backend: Backend) {
    let app = spawn_app(backend).await;
    table_t1(&app).await;
    let before = record_count(&app).await;
    // The rules are the table's: a body that sends them is refused.
    for (extra, field) in [
        (json!({"seats": 10}), "events[0].seats"),
        (
            json!({"options": {"min_unit": "0.01"}}),
            "events[0].options",
        ),
        (json!({"profile": "nevada"}), "events[0].profile"),
        (json!({"posted": {}}), "events[0].posted"),
        (json!({"dealer": "someone-else"}), "events[0].dealer"),
    ] {
        let mut opened = json!({"type": "hand_opened", "table": "T1"});
        for (k, v) in extra.as_object().unwrap() {
            opened[k] = v.clone();
        }
        let (status, body, _) = app
            .post_json(
                "/api/v1/hands",
                &json!({"idempotency_key": key(), "events": [opened]}),
            )
            .await;
        assert_eq!(status, 422, "{extra}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.starts_with(field), "{extra}: {message}");
    }
    // Unknown and look-alike tables.
    for (table, needle) in [
        ("T9", "events[0].table: \"T9\" is not a configured table"),
        (
            "T1\u{200b}",
            "events[0].table: \"T1\\u{200B}\" contains U+200B",
        ),
        ("T1\u{202e}", "bidirectional"),
    ] {
        let (status, body, _) = app
            .post_json(
                "/api/v1/hands",
                &json!({"idempotency_key": key(), "events": [{"type": "hand_opened", "table": table}]}),
            )
            .await;
        assert_eq!(status, 422, "{table:?}: {body}");
        assert!(
            body["message"].as_str().unwrap().contains(needle),
            "{table:?}: {body}"
        );
    }
    assert_eq!(record_count(&app).await, before, "nothing recorded");

    // The recorded hand_opened carries the table's rules and the signed-in dealer.
    let hand = open(&app).await;
    let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    let opened: Value =
        serde_json::from_str(view["events"][0]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(opened["dealer"], crate::common::TEST_ADMIN);
    assert_eq!(opened["seats"], 7);
    assert_eq!(opened["options"]["min_unit"], "1");
    assert_eq!(opened["posted"]["wager_min"], "5.00");
    assert_eq!(opened["posted"]["wager_max"], "100.00");
    assert_eq!(opened["posted"]["player_schedule"][1]["fee"], "2.00");

    let before = record_count(&app).await;
    let wager = |id: &str, seat: i64, amount: &str| json!({"type": "wager_placed", "id": id, "seat": seat, "bettor": "Ann", "amount": amount});
    for (event, needle) in [
        (
            wager("w1", 9, "50"),
            "events[0].seat: \"9\" is not a seat of this table (1..7)",
        ),
        (
            wager("w1", 4, "20000.37"),
            "events[0].amount: \"20000.37\" must be above zero and a multiple of the table's unit 1",
        ),
        (
            wager("w1", 4, "200"),
            "events[0].amount: \"200.00\" is above the table maximum 100.00",
        ),
        (
            wager("w1", 4, "4"),
            "events[0].amount: \"4.00\" is below the table minimum 5.00",
        ),
        (
            json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann\u{202e}", "amount": "50"}),
            "events[0].bettor",
        ),
        (
            json!({"type": "collection_taken", "player": [{"from": "1", "to": "5000", "fee": "0"}]}),
            "events[0].player: \"1.00-5000.00:0.00\" is not the table's posted schedule",
        ),
        (
            json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": 50}),
            "events[0].amount:",
        ),
    ] {
        let (status, body) = send(&app, &hand, 2, json!([event])).await;
        assert_eq!(status, 422, "{event}: {body}");
        let message = body["message"].as_str().unwrap();
        assert!(message.starts_with(needle), "{event}: {message}");
    }
    // The dice without the collection the table posts.
    let (status, body) = send(
        &app,
        &hand,
        2,
        json!([wager("w1", 4, "50"), {"type": "action_set", "seat": 4}]),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("events[1].collection: \"\" is not taken"),
        "{body}"
    );
    assert_eq!(record_count(&app).await, before, "nothing recorded");

    // Within the rules: the collection is recorded as the posted schedules.
    let (status, body) = send(
        &app,
        &hand,
        2,
        json!([wager("w1", 4, "50"), {"type": "collection_taken"}, {"type": "action_set", "seat": 4},
               {"type": "outcome_recorded", "seat": 4, "outcome": "player"},
               {"type": "steps_confirmed", "wagers": ["w1"]}, {"type": "hand_closed"}]),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["settlement"]["house_collection"], "3.00", "{body}");
    let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    let taken: Value =
        serde_json::from_str(view["events"][3]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(taken["type"], "collection_taken");
    assert_eq!(taken["player"], opened["posted"]["player_schedule"]);
    let report =
        pitbook::store::verify::verify(&app.database.db, &crate::common::test_key(), 1, None)
            .await
            .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn a_seat_hand_must_be_exactly_seven_cards(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T2", false).await;
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(), "events": [
                {"type": "hand_opened", "table": "T2"},
                {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"},
                {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "50"},
                {"type": "action_set", "seat": 4}]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let hand = body["hand_id"].as_str().unwrap().to_string();
    for (cards, count) in [("2c 3c 4c 5c 6c 7h", 6), ("2c 3c 4c 5c 6c 7h 8h 9h", 8)] {
        let (status, body) = send(
            &app,
            &hand,
            4,
            json!([{"type": "hand_recorded", "seat": 4, "hand": {"cards": cards, "set": "house"}}]),
        )
        .await;
        assert_eq!(status, 422, "{body}");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!(
                "hands.4.cards: \"{cards}\" is {count} cards; a seat's hand to set is exactly 7 cards"
            )),
            "{message}"
        );
    }
}

/// A hand written straight into the log around its table's limits (as
/// someone holding the database and the key could) is reported at its seq.
async fn verify_reports_a_hand_written_around_its_rules(backend: Backend) {
    let app = spawn_app(backend).await;
    table_t1(&app).await;
    let hand = open(&app).await;
    let forged = json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "20000.00"});
    let written = pitbook::store::audit::record(
        &app.database.db,
        &crate::common::test_key(),
        NewRecord {
            actor: crate::common::TEST_ADMIN.into(),
            table: Some("T1".into()),
            hand: Some(hand.clone()),
            event_type: "wager_placed".into(),
            payload: pitbook::store::audit::canonical_json(&forged).unwrap(),
        },
    )
    .await
    .expect("append");
    let report =
        pitbook::store::verify::verify(&app.database.db, &crate::common::test_key(), 1, None)
            .await
            .expect("verify");
    let problem = report.problem.expect("reported");
    assert_eq!(problem.seq, written.seq, "{problem:?}");
    assert!(
        problem.message.contains("above the table maximum 100.00"),
        "{problem:?}"
    );
}

/// A table's house way (option `house_way`): recorded with the table and
/// in each hand's `hand_opened`, shown on the table page with its chart;
/// an unknown way is refused naming the field, nothing recorded.
async fn a_table_sets_hands_by_its_house_way(backend: Backend) {
    let app = spawn_app(backend).await;
    let before = record_count(&app).await;
    let (status, body) = app
        .post_raw(
            "/api/v1/tables",
            &json!({"name": "FOX", "profile": "lucky-chances", "seats": 7,
                    "options": {"house_way": "nowhere"}})
            .to_string(),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(body.to_string().contains("options"), "{body}");
    assert_eq!(record_count(&app).await, before, "nothing recorded");
    let (status, body) = app
        .post_raw(
            "/api/v1/tables",
            &json!({"name": "FOX", "profile": "lucky-chances", "seats": 7,
                    "options": {"house_way": "foxwoods"}})
            .to_string(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(), "events": [{"type": "hand_opened", "table": "FOX"}]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let hand = body["hand_id"].as_str().unwrap();
    let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    let opened: Value =
        serde_json::from_str(view["events"][0]["payload"].as_str().unwrap()).unwrap();
    assert_eq!(opened["options"]["house_way"], "foxwoods");
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let page = sam.get("/tables/FOX").await;
    assert!(
        page.body
            .contains("<a id=\"house-way-chart\" href=\"/tools/house-ways/foxwoods\">foxwoods</a>"),
        "{}",
        page.body
    );
    let page = sam.get(&format!("/hands/{hand}")).await;
    assert_eq!(page.status, 200);
}

on_both_databases!(
    a_table_sets_hands_by_its_house_way,
    the_issues_repro_is_refused_field_by_field,
    a_seat_hand_must_be_exactly_seven_cards,
    verify_reports_a_hand_written_around_its_rules,
);
