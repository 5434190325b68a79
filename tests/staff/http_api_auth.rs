//! The JSON API's authentication and role checks on both databases: every
//! API group refuses a request without a session or token (401), a token
//! and a session cookie both work, a revoked token or a disabled account's
//! does not, the actor recorded is the signed-in user, and a role that may
//! not act is refused (403, recorded as `permission_denied`).

use crate::common::{Backend, TEST_ADMIN, TestApp, spawn_app, test_key};
use pitbook::domain::staff::Role;
use pitbook::store::Db;
use pitbook::store::staff::{RevokeWhich, revoke_tokens};
use serde_json::{Value, json};

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

fn open_command() -> Value {
    json!({"idempotency_key": key(),
           "events": [{"type": "hand_opened", "table": "T1"}]})
}

/// POSTs JSON with `client`; returns (status, body).
async fn post(app: &TestApp, client: &reqwest::Client, path: &str, body: &Value) -> (u16, Value) {
    let response = client
        .post(app.url(path))
        .json(body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json body"))
}

async fn get(app: &TestApp, client: &reqwest::Client, path: &str) -> (u16, Value) {
    let response = client.get(app.url(path)).send().await.expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json body"))
}

/// The audit log's (event type, actor, payload) in order.
async fn records(db: &Db) -> Vec<(String, String, Value)> {
    let mut all = Vec::new();
    pitbook::store::audit::for_each_record(db, None, None, |r| {
        let payload = serde_json::from_str(&r.payload).expect("payload JSON");
        all.push((r.event_type.clone(), r.actor.clone(), payload));
    })
    .await
    .expect("records");
    all
}

async fn hand_count(db: &Db) -> i64 {
    let sql = "SELECT COUNT(*) FROM hands";
    match db {
        Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .expect("count hands")
}

/// A hand opened by the test admin; returns its id.
async fn open_hand(app: &TestApp) -> String {
    app.configured_table("T1", false).await;
    let (status, body, _) = app.post_json("/api/v1/hands", &open_command()).await;
    assert_eq!(status, 201, "{body}");
    body["hand_id"].as_str().expect("hand id").to_string()
}

async fn every_api_group_refuses_a_request_without_auth(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let hand = open_hand(&app).await;
    let anonymous = reqwest::Client::new();
    let posts: [(&str, Value); 10] = [
        ("/api/v1/hands", open_command()),
        (
            &format!("/api/v1/hands/{hand}/commands"),
            json!({"idempotency_key": key(), "expected_version": 1,
                   "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]}),
        ),
        ("/api/v1/hands/eval", json!({"cards": "As Ks Qs Js Ts"})),
        (
            "/api/v1/hands/house-way",
            json!({"cards": "As Ks Qd Jc 9h 8s 8d"}),
        ),
        ("/api/v1/dice", json!({"dice": [4, 5, 3], "pd_seat": 1})),
        ("/api/v1/settle", json!({})),
        ("/api/v1/poker-dice/rank", json!({"dice": "A A K K Q"})),
        ("/api/v1/ten-thousand/score", json!({"dice": [1, 1, 1]})),
        ("/api/v1/tripoley/round", json!({})),
        ("/api/v1/tripoley/final", json!({})),
    ];
    for (path, body) in &posts {
        let (status, response) = post(&app, &anonymous, path, body).await;
        assert_eq!(status, 401, "POST {path}: {response}");
        assert_eq!(response["error"], "unauthenticated", "POST {path}");
    }
    for path in [
        "/api/v1/me",
        &format!("/api/v1/hands/{hand}"),
        "/api/v1/hands/eval?cards=As+Ks+Qs+Js+Ts",
        "/api/v1/dice?dice=4,5,3&pd_seat=1",
    ] {
        let (status, response) = get(&app, &anonymous, path).await;
        assert_eq!(status, 401, "GET {path}: {response}");
        assert_eq!(response["error"], "unauthenticated", "GET {path}");
    }
    // A wrong scheme or a made-up token is 401 too, naming the header.
    for header in [
        "Basic ZGFuYTpwYXNzd29yZA==",
        "Bearer nonsense",
        &format!("Bearer pbk_{}", "0".repeat(64)),
    ] {
        let response = anonymous
            .get(app.url("/api/v1/me"))
            .header("authorization", header)
            .send()
            .await
            .expect("request");
        assert_eq!(response.status().as_u16(), 401, "{header}");
        let body: Value = response.json().await.expect("json");
        assert!(
            body["message"]
                .as_str()
                .is_some_and(|m| m.starts_with("authorization:")),
            "{body}"
        );
    }
    // The probes need nothing.
    for path in ["/healthz", "/readyz"] {
        let (status, _) = get(&app, &anonymous, path).await;
        assert_eq!(status, 200, "{path}");
    }
    assert_eq!(
        hand_count(&app.database.db).await,
        1,
        "only the admin's hand"
    );
}

async fn a_token_signs_in_as_its_user(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let (status, me) = get(&app, &app.client, "/api/v1/me").await;
    assert_eq!(
        (status, me),
        (200, json!({"username": TEST_ADMIN, "role": "admin"}))
    );
    let (name, _) = app.add_user("ivy", Role::Auditor).await;
    let ivy = app.client_with_token(&app.token_for(&name).await);
    let (status, me) = get(&app, &ivy, "/api/v1/me").await;
    assert_eq!(
        (status, me),
        (200, json!({"username": "ivy", "role": "auditor"}))
    );
    // Compute-only endpoints need only Read: an auditor may use them.
    let (status, body) = post(
        &app,
        &ivy,
        "/api/v1/hands/eval",
        &json!({"cards": "Kh Kd Ks 4c 4d"}),
    )
    .await;
    assert_eq!(
        (status, body["category"].as_str()),
        (200, Some("full_house"))
    );
    let (status, _) = get(&app, &ivy, "/api/v1/dice?dice=4,5,3&pd_seat=1").await;
    assert_eq!(status, 200);
}

async fn a_revoked_token_or_a_disabled_account_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let db = &app.database.db;
    app.add_user("rex", Role::Dealer).await;
    let token = app.token_for("rex").await;
    let rex = app.client_with_token(&token);
    assert_eq!(get(&app, &rex, "/api/v1/me").await.0, 200);
    let revoked = revoke_tokens(
        db,
        &test_key(),
        "test",
        "rex",
        &RevokeWhich::Label("test".into()),
    )
    .await
    .expect("revoke");
    assert_eq!(revoked.len(), 1);
    let (status, body) = get(&app, &rex, "/api/v1/me").await;
    assert_eq!(
        (status, body["error"].as_str()),
        (401, Some("unauthenticated"))
    );
    let (status, _) = post(&app, &rex, "/api/v1/hands", &open_command()).await;
    assert_eq!(status, 401);

    let other = app.client_with_token(&app.token_for("rex").await);
    assert_eq!(get(&app, &other, "/api/v1/me").await.0, 200);
    pitbook::store::staff::admin::set_disabled(db, &test_key(), "test", "rex", true)
        .await
        .expect("disable");
    assert_eq!(get(&app, &other, "/api/v1/me").await.0, 401);

    let kinds: Vec<String> = records(db).await.into_iter().map(|(e, _, _)| e).collect();
    assert_eq!(
        kinds,
        [
            "user_added",
            "token_issued",
            "user_added",
            "token_issued",
            "token_revoked",
            "token_issued",
            "user_disabled"
        ]
    );
    assert_chain_verifies(db).await;
}

async fn a_session_cookie_works_on_the_api(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let (name, password) = app.add_user("dee", Role::Dealer).await;
    app.assign("T1", "dee").await;
    let browser = app.login(&name, &password).await;
    let (status, me) = get(&app, &browser, "/api/v1/me").await;
    assert_eq!(
        (status, me),
        (200, json!({"username": "dee", "role": "dealer"}))
    );
    let (status, body) = post(&app, &browser, "/api/v1/hands", &open_command()).await;
    assert_eq!(status, 201, "{body}");
    let hand = body["hand_id"].as_str().expect("hand id");
    let (status, view) = get(&app, &browser, &format!("/api/v1/hands/{hand}")).await;
    assert_eq!(status, 200);
    assert_eq!(view["events"][0]["actor"], "dee");
    let (status, _) = post(&app, &browser, "/api/v1/settle", &json!({})).await;
    assert_eq!(status, 422, "signed in, the bad body is the problem");

    // With a cookie (not a token), a write must say it is JSON: a form
    // from another site cannot.
    for content_type in [
        None,
        Some("text/plain"),
        Some("application/x-www-form-urlencoded"),
    ] {
        let mut request = browser
            .post(app.url("/api/v1/hands"))
            .body(open_command().to_string());
        if let Some(t) = content_type {
            request = request.header("content-type", t);
        }
        let response = request.send().await.expect("request");
        assert_eq!(response.status().as_u16(), 415, "{content_type:?}");
        let body: Value = response.json().await.expect("json");
        assert_eq!(body["error"], "unsupported_media_type", "{body}");
    }
    // A token needs no content type and no CSRF token.
    let response = app
        .client
        .post(app.url("/api/v1/hands"))
        .body(open_command().to_string())
        .send()
        .await
        .expect("request");
    assert_eq!(response.status().as_u16(), 201);
    assert_eq!(hand_count(&app.database.db).await, 2);
}

async fn an_auditor_cannot_post_a_hand_command(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let hand = open_hand(&app).await;
    app.add_user("aud", Role::Auditor).await;
    let aud = app.client_with_token(&app.token_for("aud").await);
    let (status, body) = post(&app, &aud, "/api/v1/hands", &open_command()).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["error"], "forbidden");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .contains("auditor"),
        "{body}"
    );
    let path = format!("/api/v1/hands/{hand}/commands");
    let command = json!({"idempotency_key": key(), "expected_version": 1,
        "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]});
    assert_eq!(post(&app, &aud, &path, &command).await.0, 403);
    // Reading is allowed.
    let (status, view) = get(&app, &aud, &format!("/api/v1/hands/{hand}")).await;
    assert_eq!((status, view["version"].as_u64()), (200, Some(1)));

    let denied: Vec<(String, Value)> = records(&app.database.db)
        .await
        .into_iter()
        .filter(|(e, _, _)| e == "permission_denied")
        .map(|(_, actor, payload)| (actor, payload))
        .collect();
    assert_eq!(
        denied,
        [
            (
                "aud".to_string(),
                json!({"role": "auditor", "action": "ActOnTable { assigned: true }", "path": "/api/v1/hands"})
            ),
            (
                "aud".to_string(),
                json!({"role": "auditor", "action": "ActOnTable { assigned: true }", "path": path})
            ),
        ]
    );
    assert_eq!(hand_count(&app.database.db).await, 1);
    assert_chain_verifies(&app.database.db).await;
}

async fn a_trainee_cannot_act_on_a_table(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let (name, password) = app.add_user("tia", Role::Trainee).await;
    for client in [
        app.client_with_token(&app.token_for(&name).await),
        app.login(&name, &password).await,
    ] {
        let (status, body) = post(&app, &client, "/api/v1/hands", &open_command()).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (403, Some("forbidden")),
            "{body}"
        );
    }
    assert_eq!(hand_count(&app.database.db).await, 0);
}

async fn the_actor_recorded_is_the_signed_in_user(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    app.add_user("dee", Role::Dealer).await;
    app.assign("T1", "dee").await;
    let dee = app.client_with_token(&app.token_for("dee").await);
    let (status, body) = post(&app, &dee, "/api/v1/hands", &open_command()).await;
    assert_eq!(status, 201, "{body}");
    let hand = body["hand_id"].as_str().expect("hand id").to_string();
    // `actor` may be sent when it is the signed-in user.
    let command = json!({"idempotency_key": key(), "expected_version": 1, "actor": "dee",
        "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]});
    let (status, body) = post(
        &app,
        &dee,
        &format!("/api/v1/hands/{hand}/commands"),
        &command,
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (_, view) = get(&app, &app.client, &format!("/api/v1/hands/{hand}")).await;
    let actors: Vec<&str> = view["events"]
        .as_array()
        .expect("events")
        .iter()
        .map(|e| e["actor"].as_str().expect("actor"))
        .collect();
    assert_eq!(actors, ["dee", "dee"]);

    // Any other actor is bad input naming the field and value; nothing is recorded.
    let before = records(&app.database.db).await.len();
    let command = json!({"idempotency_key": key(), "expected_version": 2, "actor": "mallory",
        "events": [{"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}]});
    let (status, body) = post(
        &app,
        &dee,
        &format!("/api/v1/hands/{hand}/commands"),
        &command,
    )
    .await;
    assert_eq!(status, 422, "{body}");
    let message = body["message"].as_str().expect("message");
    assert!(
        message.starts_with("actor:") && message.contains("\"mallory\""),
        "{message}"
    );
    assert_eq!(records(&app.database.db).await.len(), before);
}

/// A whole hand by the test admin, closed; returns (id, version).
async fn closed_hand(app: &TestApp) -> (String, u64) {
    let (status, body, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": key(), "events": [
                {"type": "hand_opened", "table": "T1"},
                {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"},
                {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
                {"type": "action_set", "seat": 4},
                {"type": "outcome_recorded", "seat": 4, "outcome": "pd"},
                {"type": "steps_confirmed", "wagers": ["w1"]},
                {"type": "hand_closed"}
            ]}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    (
        body["hand_id"].as_str().expect("hand id").to_string(),
        body["version"].as_u64().expect("version"),
    )
}

async fn a_supervisor_only_event_from_a_dealer_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let (hand, version) = closed_hand(&app).await;
    app.add_user("dee", Role::Dealer).await;
    app.assign("T1", "dee").await;
    app.add_user("sue", Role::Supervisor).await;
    let dee = app.client_with_token(&app.token_for("dee").await);
    let sue = app.client_with_token(&app.token_for("sue").await);
    let path = format!("/api/v1/hands/{hand}/commands");
    let void = json!({"idempotency_key": key(), "expected_version": version,
        "events": [{"type": "hand_voided", "reason": "misdeal"}]});
    let (status, body) = post(&app, &dee, &path, &void).await;
    assert_eq!(
        (status, body["error"].as_str()),
        (403, Some("forbidden")),
        "{body}"
    );
    let denied = records(&app.database.db)
        .await
        .into_iter()
        .filter(|(e, actor, _)| e == "permission_denied" && actor == "dee")
        .map(|(_, _, payload)| payload["action"].clone())
        .collect::<Vec<_>>();
    assert_eq!(denied, ["CorrectHands"]);
    let (status, body) = post(&app, &sue, &path, &void).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["phase"], "voided", "{body}");
    assert_chain_verifies(&app.database.db).await;
}

async fn assert_chain_verifies(db: &Db) {
    let report = pitbook::store::verify::verify(db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

on_both_databases!(
    every_api_group_refuses_a_request_without_auth,
    a_token_signs_in_as_its_user,
    a_revoked_token_or_a_disabled_account_is_refused,
    a_session_cookie_works_on_the_api,
    an_auditor_cannot_post_a_hand_command,
    a_trainee_cannot_act_on_a_table,
    the_actor_recorded_is_the_signed_in_user,
    a_supervisor_only_event_from_a_dealer_is_refused,
);
