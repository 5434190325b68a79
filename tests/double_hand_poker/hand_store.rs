//! The hand store and its audit log over HTTP, on both databases: a hand as
//! a stream of commands, optimistic concurrency, idempotency, the state
//! machine's refusals, and the append-only guarantee.

use crate::common::{Backend, TestApp, spawn_app};
use serde_json::{Value, json};

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

/// Opens a hand; returns its id.
async fn open(app: &TestApp) -> String {
    app.configured_table("T1", true).await;
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(),
                    "events": [{"type": "hand_opened", "table": "T1"}]}),
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
        json!({"type": "collection_taken"}),
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
        crate::common::TEST_ADMIN,
        "the actor is who signed in"
    );

    let report = crate::common::verify_split_every_way(
        &app.database.db,
        &crate::common::test_key(),
        1,
        Vec::new(),
    )
    .await;
    assert!(report.ok(), "{report:?}");
    assert_eq!(
        report.count,
        3 + 12,
        "the harness's two records, the table's and the hand's"
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
    // Split every way, the correction is replayed after the close it corrects.
    let report = crate::common::verify_split_every_way(
        &app.database.db,
        &crate::common::test_key(),
        1,
        Vec::new(),
    )
    .await;
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.hands_settled, 2, "the close and the correction");
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
    app.configured_table("T1", true).await;
    // Good and bad commands at once: the writer commits them in shared
    // transactions; a refused command writes nothing.
    let tasks: Vec<_> = (0..30)
        .map(|i| {
            let app = app.clone();
            tokio::spawn(async move {
                let bank = if i % 3 == 0 { "-5" } else { "200" };
                let body = json!({"idempotency_key": key(), "events": [
                    {"type": "hand_opened", "table": "T1"},
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
    let report = crate::common::verify_split_every_way(
        &app.database.db,
        &crate::common::test_key(),
        1,
        Vec::new(),
    )
    .await;
    assert!(report.ok(), "{report:?}");
    assert_eq!(
        report.count,
        3 + 20 * 2,
        "the harness's two records, the table's and only the accepted commands'"
    );
}

/// The server's writer keeps open hands' state between commands; a hand
/// written meanwhile by another writer (another app instance, the CLI) must
/// be read again, not served from that memory.
async fn a_hand_written_by_another_writer_is_read_again(backend: Backend) {
    let app = spawn_app(backend).await;
    let hand = open(&app).await;
    // Another writer: the store's own one-command path, straight to the database.
    let pd_set: pitbook::store::double_hand_poker::hands::HandCommand =
        serde_json::from_value(json!({
        "idempotency_key": key(), "expected_version": 1, "actor": "other-instance",
        "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]}))
        .expect("command");
    let (result, _) = pitbook::store::double_hand_poker::hands::execute(
        &app.database.db,
        &crate::common::test_key(),
        Some(&hand),
        &pd_set,
    )
    .await
    .expect("the other writer's command");
    assert_eq!(result.version, 2);

    // The server's writer last saw version 1.
    let (status, body) = send(&app, &hand, 1, seed_events()[1].clone()).await;
    assert_eq!(status, 409, "{body}");
    let (status, body) = send(&app, &hand, 2, seed_events()[1].clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["version"], 3);
    let (status, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    assert_eq!(status, 200);
    assert_eq!(
        view["bank"], "200.00",
        "the PD set by the other writer: {view}"
    );
    let types: Vec<&str> = view["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["event_type"].as_str().expect("type"))
        .collect();
    assert_eq!(types, ["hand_opened", "pd_set", "collection_taken"]);
}

/// A database error inside a group commit (here a trigger refusing one
/// command's idempotency row) rolls the shared transaction back; the writer
/// reruns the commands one by one, so only the one at fault fails and the
/// hands in that batch go on from their committed state.
async fn a_database_error_fails_only_its_own_command(backend: Backend) {
    let app = std::sync::Arc::new(spawn_app(backend).await);
    let trigger: &[&str] = match backend {
        Backend::Sqlite => &["CREATE TRIGGER boom BEFORE INSERT ON idempotency_keys \
             WHEN NEW.key LIKE 'boom%' BEGIN SELECT RAISE(ABORT, 'boom'); END"],
        Backend::Postgres => &[
            "CREATE FUNCTION boom() RETURNS trigger LANGUAGE plpgsql AS \
             $$ BEGIN IF NEW.key LIKE 'boom%' THEN RAISE EXCEPTION 'boom'; END IF; RETURN NEW; END $$",
            "CREATE TRIGGER boom BEFORE INSERT ON idempotency_keys \
             FOR EACH ROW EXECUTE FUNCTION boom()",
        ],
    };
    let mut hands = Vec::new();
    for _ in 0..8 {
        hands.push(open(&app).await);
    }
    crate::common::tamper(&app.database.db, trigger).await;
    for round in 0..3 {
        let tasks: Vec<_> = hands
            .iter()
            .enumerate()
            .map(|(i, hand)| {
                let (app, hand) = (app.clone(), hand.clone());
                tokio::spawn(async move {
                    let boom = i == 3 && round == 1;
                    let idempotency_key = if boom { format!("boom-{}", key()) } else { key() };
                    let event = &seed_events()[0];
                    let events = if round == 0 { vec![event.clone()] } else {
                        vec![json!({"type": "wager_placed", "id": format!("w{round}"), "seat": 2 + round,
                                    "bettor": "Ann", "amount": "10"})]
                    };
                    let version = if i == 3 && round == 2 { 2 } else { 1 + round };
                    let body = json!({"idempotency_key": idempotency_key,
                                      "expected_version": version, "events": events});
                    let (status, body, _) = app
                        .post_json(&format!("/api/v1/hands/{hand}/commands"), &body)
                        .await;
                    (i, boom, status, body)
                })
            })
            .collect();
        for t in tasks {
            let (i, boom, status, body) = t.await.expect("task");
            let expected = if boom { 500 } else { 200 };
            assert_eq!(status, expected, "round {round}, hand {i}: {body}");
        }
    }
    for (i, hand) in hands.iter().enumerate() {
        let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
        let expected = if i == 3 { 3 } else { 4 };
        assert_eq!(view["version"], expected, "hand {i}: {view}");
    }
    let report = crate::common::verify_split_every_way(
        &app.database.db,
        &crate::common::test_key(),
        1,
        Vec::new(),
    )
    .await;
    assert!(report.ok(), "{report:?}");
    assert_eq!(
        report.count,
        3 + 8 + 8 * 3 - 1,
        "the harness, the table, the hands"
    );
}

/// Commands submitted at once share a group commit, which reads their keys'
/// results and their hands' versions once, up front: a command must still
/// see what the batch's earlier commands wrote — a double tap gets the
/// first answer, a rival built on the same version is stale — and the
/// batch's one insert of results keeps each key's first answer.
async fn a_batch_sees_what_its_earlier_commands_wrote(backend: Backend) {
    use pitbook::store::double_hand_poker::hands::{CommandError, HandCommand};
    use pitbook::store::double_hand_poker::writer::HandWriter;
    let app = spawn_app(backend).await;
    let writer = HandWriter::spawn(app.database.db.clone(), crate::common::test_key())
        .expect("a second writer");
    for round in 0..5 {
        let hand = open(&app).await;
        let command = |key: &str, player: &str| -> HandCommand {
            serde_json::from_value(json!({
                "idempotency_key": key, "expected_version": 1, "actor": "dana",
                "events": [{"type": "pd_set", "seat": 1, "player": player, "bank": "200"}]}))
            .expect("command")
        };
        let (tap, rival) = (format!("tap-{round}"), format!("rival-{round}"));
        let (first, again, other) = tokio::join!(
            writer.submit(Some(hand.clone()), command(&tap, "Pat")),
            writer.submit(Some(hand.clone()), command(&tap, "Pat")),
            writer.submit(Some(hand.clone()), command(&rival, "Ray")),
        );
        // They arrive in any order: one key wins version 2, the other is
        // stale; the two taps answer alike.
        let stale = |r: &Result<_, CommandError>| {
            matches!(
                r,
                Err(CommandError::Stale {
                    expected: 1,
                    current: 2
                })
            )
        };
        let winner = match (first, again, other) {
            (Ok((a, a_replayed)), Ok((b, b_replayed)), rival) => {
                assert_eq!(a, b, "the double tap is the first's answer");
                assert_eq!(a.version, 2);
                assert!(a_replayed != b_replayed, "one of the taps is the replay");
                assert!(stale(&rival), "the rival on version 1: {rival:?}");
                "Pat"
            }
            (a, b, Ok((rival, false))) => {
                assert_eq!(rival.version, 2);
                assert!(
                    stale(&a) && stale(&b),
                    "the taps after the rival: {a:?} {b:?}"
                );
                "Ray"
            }
            other => panic!("one key must win version 2: {other:?}"),
        };
        let (status, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
        assert_eq!((status, view["version"].as_u64()), (200, Some(2)), "{view}");
        let pd_set = view["events"][1]["payload"].as_str().expect("payload");
        assert!(
            pd_set.contains(&format!("\"player\":\"{winner}\"")),
            "{view}"
        );
    }
    let report =
        pitbook::store::verify::verify(&app.database.db, &crate::common::test_key(), 1, None)
            .await
            .expect("verify");
    assert!(report.ok(), "{report:?}");
}

on_both_databases!(
    a_batch_sees_what_its_earlier_commands_wrote,
    a_hand_written_by_another_writer_is_read_again,
    a_database_error_fails_only_its_own_command,
    a_refused_command_does_not_undo_the_others_committed_with_it,
    a_hand_runs_event_by_event_and_closes_with_its_settlement,
    a_repeated_command_returns_the_first_result_and_records_nothing,
    stale_unknown_and_out_of_order_commands_change_nothing,
    a_correction_after_close_is_a_new_event_beside_the_original,
    the_database_refuses_update_and_delete_on_the_audit_log,
);
