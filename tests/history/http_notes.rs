//! Notes on hands (`hand_note_added`) on both databases: who may add one
//! (over the API and the page), refusals naming the field with nothing
//! recorded, a note on a voided hand, the `note` search, and `audit
//! verify` replaying notes and catching a tampered one.

use crate::common::browser::{Browser, csrf_of, signed_in};
use crate::common::play::submit;
use crate::common::{
    Backend, TEST_PASSWORD, TestApp, bad_input_body, bearer_client, records, spawn_app, tamper,
    test_key,
};
use crate::http_numbers::{play, whole_hand};
use pitbook::domain::staff::Role;
use serde_json::json;

/// The hand's version, as the API reads it.
async fn version(app: &TestApp, id: &str) -> i64 {
    let (status, body) = app.get_json(&format!("/api/v1/hands/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["version"].as_i64().expect("version")
}

/// POSTs a note over the API with `client`; returns the status and body.
pub async fn note_with(
    app: &TestApp,
    client: &reqwest::Client,
    id: &str,
    text: &str,
) -> (u16, serde_json::Value) {
    let body = json!({
        "idempotency_key": uuid::Uuid::new_v4().to_string(),
        "expected_version": version(app, id).await,
        "text": text,
    });
    let response = client
        .post(app.url(&format!("/api/v1/hands/{id}/notes")))
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json"))
}

/// A note added by the test admin (200 expected).
pub async fn note(app: &TestApp, id: &str, text: &str) {
    let (status, body) = note_with(app, &app.client, id, text).await;
    assert_eq!(status, 200, "{text}: {body}");
}

/// A closed hand at T1 (dealer `dana` assigned there).
async fn closed_hand(app: &TestApp) -> String {
    app.configured_table("T1", false).await;
    play(app, whole_hand("T1", "200", "60", "60")).await
}

async fn supervisors_auditors_and_admins_add_notes_dealers_do_not(backend: Backend) {
    let app = spawn_app(backend).await;
    let id = closed_hand(&app).await;
    app.add_user("dana", Role::Dealer).await;
    app.assign("T1", "dana").await;
    // Over the API, by role: even the hand's own table's dealer may not.
    for (name, role, allowed) in [
        ("sue", Role::Supervisor, true),
        ("audrey", Role::Auditor, true),
        ("adam", Role::Admin, true),
        ("dana", Role::Dealer, false),
        ("tim", Role::Trainee, false),
    ] {
        if name != "dana" {
            app.add_user(name, role).await;
        }
        let client = bearer_client(&app.token_for(name).await);
        let before = records(&app, "hand_note_added").await;
        let (status, body) = note_with(&app, &client, &id, &format!("checked by {name}")).await;
        let want = if allowed { 200 } else { 403 };
        assert_eq!(status, want, "{name}: {body}");
        let added = records(&app, "hand_note_added").await - before;
        assert_eq!(added, i64::from(allowed), "{name}");
    }
    // Who is who is signed in: each note's record names its author.
    let log = crate::common::log_records(&app.database.db).await;
    let authors: Vec<&str> = log
        .iter()
        .filter(|(kind, _, _)| kind == "hand_note_added")
        .map(|(_, actor, _)| actor.as_str())
        .collect();
    assert_eq!(authors, ["sue", "audrey", "adam"]);
    // The body names no author: a field the API does not take is refused.
    let sneaky = json!({"idempotency_key": "k-actor", "expected_version": version(&app, &id).await,
                        "text": "x", "actor": "sue"});
    let (status, body, _) = app
        .post_json(&format!("/api/v1/hands/{id}/notes"), &sneaky)
        .await;
    assert_eq!(status, 422, "{body}");
    // And a note is not a command's event.
    let command = json!({"idempotency_key": "k-cmd", "expected_version": version(&app, &id).await,
                         "events": [{"type": "hand_note_added", "text": "x"}]});
    let (status, body, _) = app
        .post_json(&format!("/api/v1/hands/{id}/commands"), &command)
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "events[0].type");

    // On the page: the supervisor's form, shown beside the hand.
    let hand = format!("/hands/{id}");
    let mut sue = Browser::new(&app);
    assert_eq!(sue.login("sue", TEST_PASSWORD).await.status, 303);
    let done = submit(
        &mut sue,
        &hand,
        "note-form",
        &[("text", "Ann disputed seat 4")],
    )
    .await;
    assert_eq!(
        (done.status, done.location.as_str()),
        (303, format!("{hand}#notes").as_str())
    );
    let page = sue.get(&hand).await;
    assert!(page.body.contains("Ann disputed seat 4"), "{}", page.body);
    // The dealer sees the notes, has no form, and a post is refused.
    let mut dana = Browser::new(&app);
    assert_eq!(dana.login("dana", TEST_PASSWORD).await.status, 303);
    let page = dana.get(&hand).await;
    assert!(page.body.contains("Ann disputed seat 4") && !page.body.contains("id=\"note-form\""));
    let csrf = csrf_of(&dana.get("/tables/T1").await.body);
    let v = version(&app, &id).await.to_string();
    let fields = [
        ("csrf", csrf.as_str()),
        ("version", v.as_str()),
        ("idempotency_key", "dealer-note"),
        ("step", "note"),
        ("text", "my own hand was fine"),
    ];
    assert_eq!(dana.post(&hand, &fields).await.status, 403);
    assert_eq!(records(&app, "hand_note_added").await, 4);
}

async fn an_empty_or_too_long_note_is_refused_naming_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let id = closed_hand(&app).await;
    let long = "x".repeat(2001);
    for bad in ["", "   \n ", long.as_str()] {
        let (status, body) = note_with(&app, &app.client, &id, bad).await;
        assert_eq!(status, 422, "{body}");
        let (field, message) = bad_input_body(&body);
        assert_eq!(field, "text", "{message}");
    }
    // The page: the message beside the note, what was typed kept, 422.
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let hand = format!("/hands/{id}");
    let typed = format!("{long} (typed)");
    let page = submit(&mut sue, &hand, "note-form", &[("text", &typed)]).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body.contains("id=\"note-text-error\""),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("2000"),
        "the limit is named: {}",
        page.body
    );
    assert!(page.body.contains(&typed), "what was typed is kept");
    let page = submit(&mut sue, &hand, "note-form", &[("text", "  ")]).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body.contains("id=\"note-text-error\""),
        "{}",
        page.body
    );
    assert_eq!(
        records(&app, "hand_note_added").await,
        0,
        "nothing recorded"
    );
    assert_eq!(version(&app, &id).await, 9);
}

async fn a_voided_hand_takes_a_note_and_stays_voided(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let open = json!({"idempotency_key": "open", "events": [
        {"type": "hand_opened", "table": "T1"},
        {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
        {"type": "hand_voided", "reason": "deck short"}
    ]});
    let id = play(&app, open).await;
    note(&app, &id, "players told; bets returned at 14:05").await;
    let (_, body) = app.get_json(&format!("/api/v1/hands/{id}")).await;
    assert_eq!(
        (&body["status"], &body["version"]),
        (&json!("voided"), &json!(5))
    );
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let page = sue.get(&format!("/hands/{id}")).await;
    assert!(page.body.contains("id=\"voided\""), "{}", page.body);
    assert!(page.body.contains("players told; bets returned at 14:05"));
    let record = sue.get(&format!("/hands/{id}/record")).await;
    assert!(
        record
            .body
            .contains("Note: players told; bets returned at 14:05")
    );
}

async fn a_note_is_found_by_the_note_search(backend: Backend) {
    let app = spawn_app(backend).await;
    let first = closed_hand(&app).await;
    let second = play(&app, whole_hand("T1", "300", "40", "40")).await;
    play(&app, whole_hand("T1", "300", "40", "40")).await;
    note(
        &app,
        &first,
        "Player disputed seat 3; Surveillance: settlement stands",
    )
    .await;
    note(&app, &second, "100% \"sure\" seat_4 was short").await;
    let found = |query: &'static str| {
        let app = &app;
        async move {
            let (status, body) = app.get_json(&format!("/api/v1/hands?{query}")).await;
            assert_eq!(status, 200, "{query}: {body}");
            body["hands"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h["number"].as_i64().unwrap())
                .collect::<Vec<_>>()
        }
    };
    assert_eq!(found("note=surveillance").await, [1]);
    assert_eq!(found("note=SETTLEMENT%20STANDS").await, [1]);
    assert_eq!(found("note=seat").await, [2, 1]);
    // `%`, `_` and quotes are the note's own characters, not patterns.
    assert_eq!(found("note=100%25%20%22sure%22").await, [2]);
    assert_eq!(found("note=seat_4").await, [2]);
    assert_eq!(found("note=seat%254").await, Vec::<i64>::new());
    // The note's words, not the record's: its type is not its text.
    assert_eq!(found("note=hand_note").await, Vec::<i64>::new());
    assert_eq!(found("note=stands&table=T1&number=1").await, [1]);
    // On the page too.
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let page = sue.get("/history?note=Surveillance").await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains(&format!("/hands/{first}")),
        "{}",
        page.body
    );
    assert!(!page.body.contains(&format!("/hands/{second}")));
    assert!(page.body.contains("name=\"note\""));
}

async fn verify_replays_notes_and_finds_a_tampered_one(backend: Backend) {
    let app = spawn_app(backend).await;
    let id = closed_hand(&app).await;
    note(&app, &id, "settlement stands").await;
    let open = json!({"idempotency_key": "open-2", "events": [
        {"type": "hand_opened", "table": "T1"},
        {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}
    ]});
    let open = play(&app, open).await;
    note(&app, &open, "Ann asked for the floor").await;
    let key = test_key();
    let db = &app.database.db;
    let report = crate::common::verify_split_every_way(db, &key, 1, Vec::new()).await;
    assert!(report.ok(), "{report:?}");
    // The row's version, last record and time follow the note: a row
    // left as before the note is reported.
    let v = version(&app, &id).await;
    assert_eq!(v, 10);
    let sql = format!("UPDATE hands SET version = 9 WHERE id = '{id}'");
    tamper(db, &[&sql]).await;
    let report = pitbook::store::verify::verify(db, &key, 1, None)
        .await
        .expect("verify");
    let problem = report.problem.expect("a stale row is reported");
    assert!(problem.message.contains("version"), "{problem:?}");
    let sql = format!("UPDATE hands SET version = 10 WHERE id = '{id}'");
    tamper(db, &[&sql]).await;
    // A note's words changed in the log: its hash no longer matches.
    let seq: i64 = {
        let log = crate::common::log_records(db).await;
        let at = log
            .iter()
            .position(|(kind, _, _)| kind == "hand_note_added")
            .unwrap();
        at as i64 + 1
    };
    tamper(
        db,
        &["UPDATE audit_log SET payload = REPLACE(payload, 'stands', 'overturned') WHERE event_type = 'hand_note_added'"],
    )
    .await;
    let report = crate::common::verify_split_every_way(db, &key, 1, Vec::new()).await;
    let (at, _) = crate::common::problem(&report);
    assert_eq!(at, seq, "{report:?}");
}

on_both_databases!(
    supervisors_auditors_and_admins_add_notes_dealers_do_not,
    an_empty_or_too_long_note_is_refused_naming_the_field,
    a_voided_hand_takes_a_note_and_stays_voided,
    a_note_is_found_by_the_note_search,
    verify_replays_notes_and_finds_a_tampered_one,
);
