//! The `california-2026` PD rotation rules (docs/shifts.md) on
//! both databases: the TPPP registry and marks with their refusals, the
//! PD's acceptance required, a TPPP never a bettor and banking only after
//! every eligible player refused, the rotation clock read over the API, a
//! hand refused once the clock has run out and let through by a
//! supervisor's override, `audit verify` replaying the records and
//! catching a tampered row; the table page's forms keeping a refusal
//! beside their field.

use crate::common::browser::signed_in;
use crate::common::{Backend, TestApp, bad_input_body, records, spawn_app, tamper, test_key};
use chrono::{DateTime, Duration, Utc};
use pitbook::domain::staff::Role;
use serde_json::{Value, json};

async fn post(app: &TestApp, path: &str, body: Value) -> (u16, Value) {
    let (status, body, _) = app.post_json(path, &body).await;
    (status, body)
}

fn command(events: Vec<Value>) -> Value {
    json!({"idempotency_key": uuid::Uuid::new_v4().to_string(), "events": events})
}

/// A whole hand at `table`: `pd` banks from seat 1 with `option`, having
/// been refused by `declined` (seat, name); each (seat, bettor) wagers 20
/// and pushes.
fn hand(table: &str, pd: &str, declined: &[(i64, &str)], bets: &[(i64, &str)]) -> Value {
    let declined: Vec<Value> = declined
        .iter()
        .map(|(seat, player)| json!({"seat": seat, "player": player}))
        .collect();
    let mut events = vec![
        json!({"type": "hand_opened", "table": table}),
        json!({"type": "pd_set", "seat": 1, "player": pd, "bank": "500",
               "option": "bank_one", "declined": declined}),
    ];
    let mut ids = Vec::new();
    for (seat, bettor) in bets {
        let id = format!("w{seat}");
        events.push(json!({"type": "wager_placed", "id": id, "seat": seat,
            "bettor": bettor, "amount": "20"}));
        ids.push(id);
    }
    events.push(json!({"type": "action_set", "seat": 2}));
    for (seat, _) in bets {
        events.push(json!({"type": "outcome_recorded", "seat": seat, "outcome": "push"}));
    }
    events.push(json!({"type": "steps_confirmed", "wagers": ids}));
    events.push(json!({"type": "hand_closed"}));
    command(events)
}

async fn clock(app: &TestApp, table: &str) -> Value {
    let (status, body) = app
        .get_json(&format!("/api/v1/tables/{table}/rotation-clock"))
        .await;
    assert_eq!(status, 200, "{body}");
    body["clock"].clone()
}

/// Moves the hands at `table` into the past (the projection the clock
/// reads): the newest `newest` minutes, the others `older`. Returns the
/// times to put back.
async fn age_hands(app: &TestApp, table: &str, older: i64, newest: i64) -> Vec<(String, String)> {
    use pitbook::store::Db;
    let sql = "SELECT id, opened_at FROM hands WHERE table_id = $1 ORDER BY opened_at";
    let rows: Vec<(String, String)> = match &app.database.db {
        Db::Sqlite(p) => sqlx::query_as(sql).bind(table).fetch_all(p).await,
        Db::Postgres(p) => sqlx::query_as(sql).bind(table).fetch_all(p).await,
    }
    .expect("hands");
    for (i, (id, at)) in rows.iter().enumerate() {
        let minutes = if i + 1 == rows.len() { newest } else { older };
        let t: DateTime<Utc> = at.parse().expect("a time");
        let earlier = (t - Duration::minutes(minutes))
            .format("%Y-%m-%dT%H:%M:%S%.6fZ")
            .to_string();
        set_opened(app, id, &earlier).await;
    }
    rows
}

async fn set_opened(app: &TestApp, id: &str, at: &str) {
    use pitbook::store::Db;
    let sql = "UPDATE hands SET opened_at = $1 WHERE id = $2";
    match &app.database.db {
        Db::Sqlite(p) => sqlx::query(sql)
            .bind(at)
            .bind(id)
            .execute(p)
            .await
            .map(drop),
        Db::Postgres(p) => sqlx::query(sql)
            .bind(at)
            .bind(id)
            .execute(p)
            .await
            .map(drop),
    }
    .expect("moved");
}

async fn tables(app: &TestApp) {
    for (name, profile, options) in [
        ("CA-1", "california-2026", json!({"pd_min_wagers": 1})),
        ("LC-1", "lucky-chances", json!({})),
    ] {
        let body = json!({"name": name, "profile": profile, "seats": 7, "options": options});
        let (status, body) = post(app, "/api/v1/tables", body).await;
        assert_eq!(status, 201, "{body}");
    }
}

async fn the_rotation_rules_hold_at_a_california_table(backend: Backend) {
    let app = spawn_app(backend).await;
    tables(&app).await;
    let (status, shift) = post(&app, "/api/v1/shifts", json!({})).await;
    assert_eq!(status, 201, "{shift}");
    let shift = shift["shift"]["id"].as_str().expect("id").to_string();
    let c = clock(&app, "CA-1").await;
    assert_eq!(
        (&c["state"], &c["minutes"], &c["min_other_players"]),
        (&json!("idle"), &json!(40), &json!(2)),
        "{c}"
    );
    assert_eq!(clock(&app, "LC-1").await, Value::Null);

    // The registry: bad input named by field, a second badge refused.
    let ted = json!({"name": "Ted", "company": "Acme Gaming", "badge": "TP-100"});
    let (status, body) = post(&app, "/api/v1/tppps", ted.clone()).await;
    assert_eq!(status, 201, "{body}");
    for (sent, code, field) in [
        (
            json!({"name": " ", "company": "Acme", "badge": "TP-1"}),
            422,
            Some("name"),
        ),
        (
            json!({"name": "Uma", "company": "Acme", "badge": "TP 1"}),
            422,
            Some("badge"),
        ),
        (
            json!({"name": "Uma", "company": "Acme", "badge": "tp-100"}),
            409,
            None,
        ),
        (
            json!({"name": "ted", "company": "Acme", "badge": "TP-2"}),
            409,
            None,
        ),
        (json!({"name": "Uma", "company": "Acme"}), 422, None),
    ] {
        let (status, body) = post(&app, "/api/v1/tppps", sent.clone()).await;
        assert_eq!(status, code, "{sent}: {body}");
        if let Some(f) = field {
            assert_eq!(bad_input_body(&body).0, f, "{sent}");
        }
    }
    assert_eq!(records(&app, "tppp_registered").await, 1);

    // Marks: one table at a time, the table's limit, registered names only.
    let mark = |table: &str| format!("/api/v1/tables/{table}/tppps");
    let (status, body) = post(&app, &mark("CA-1"), json!({"name": "ted", "marked": true})).await;
    assert_eq!((status, &body["tppps"]), (200, &json!(["Ted"])), "{body}");
    let (status, body) = post(&app, &mark("LC-1"), json!({"name": "Ted", "marked": true})).await;
    assert_eq!(status, 409, "{body}");
    assert!(body.to_string().contains("one table at a time"), "{body}");
    let (status, body) = post(&app, &mark("CA-1"), json!({"name": "Zed", "marked": true})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "name");
    let uma = json!({"name": "Uma", "company": "Acme", "badge": "TP-101"});
    assert_eq!(post(&app, "/api/v1/tppps", uma).await.0, 201);
    let (status, body) = post(&app, &mark("CA-1"), json!({"name": "Uma", "marked": true})).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body.to_string().contains("allows 1 TPPP at a time"),
        "{body}"
    );
    assert_eq!(records(&app, "tppp_marked").await, 1);

    // The PD's acceptance is required; a TPPP is never a bettor.
    let hands_before = records(&app, "hand_opened").await;
    let mut no_option = hand("CA-1", "Ann", &[], &[(3, "Bo")]);
    no_option["events"][1]
        .as_object_mut()
        .expect("pd_set")
        .remove("option");
    let (status, body) = post(&app, "/api/v1/hands", no_option).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "events[1].option");
    let (status, body) = post(
        &app,
        "/api/v1/hands",
        hand("CA-1", "Ann", &[], &[(3, "Ted")]),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "events[2].bettor");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or("")
            .contains("a TPPP takes wagers only while holding the bank")
    );
    assert_eq!(records(&app, "hand_opened").await, hands_before);
    // At a lucky-chances table neither rule applies.
    let (status, body) = post(
        &app,
        "/api/v1/hands",
        hand("LC-1", "Ann", &[], &[(3, "Ted")]),
    )
    .await;
    assert_eq!(status, 201, "{body}");

    // Ann banks; Bo and Cy wager, so each may take the bank next.
    let (status, body) = post(
        &app,
        "/api/v1/hands",
        hand("CA-1", "Ann", &[], &[(3, "Bo"), (4, "Cy")]),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    // The TPPP banks only once every eligible player refused.
    let (status, body) = post(
        &app,
        "/api/v1/hands",
        hand("CA-1", "Ted", &[(3, "Bo")], &[(3, "Bo")]),
    )
    .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "events[1].player");
    assert!(
        body["message"]
            .as_str()
            .unwrap_or("")
            .contains("Cy (seat 4) may still take the bank"),
        "{body}"
    );
    let (status, body) = post(
        &app,
        "/api/v1/hands",
        hand("CA-1", "Ted", &[(3, "Bo"), (4, "Cy")], &[(3, "Bo")]),
    )
    .await;
    assert_eq!(status, 201, "{body}");

    // The clock: Ann is the one other player who banked.
    let c = clock(&app, "CA-1").await;
    assert_eq!(c["state"], "running", "{c}");
    assert_eq!(c["keeping"], json!(["Ann"]), "{c}");
    assert_eq!(c["still_needed"], 1, "{c}");
    assert!(
        c["words"]
            .as_str()
            .unwrap_or("")
            .contains("a player other than Ann who is not a TPPP"),
        "{c}"
    );

    // Ann banked 45 minutes ago, the TPPP since: with one other player in
    // 40 minutes the game stops until a supervisor overrides, with a reason.
    let times = age_hands(&app, "CA-1", 45, 20).await;
    assert_eq!(clock(&app, "CA-1").await["state"], "expired");
    let opened = records(&app, "hand_opened").await;
    let (status, body) = post(&app, "/api/v1/hands", hand("CA-1", "Bo", &[], &[(4, "Cy")])).await;
    assert_eq!(status, 409, "{body}");
    let message = body["message"].as_str().unwrap_or("");
    assert!(
        message.starts_with("events[0].table: the PD rotation clock ran out"),
        "{body}"
    );
    assert_eq!(records(&app, "hand_opened").await, opened);
    let overrides = "/api/v1/tables/CA-1/rotation-override";
    let (status, body) = post(&app, overrides, json!({"reason": "  "})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "reason");
    let lc = "/api/v1/tables/LC-1/rotation-override";
    let (status, body) = post(&app, lc, json!({"reason": "why"})).await;
    assert_eq!(status, 409, "{body}");
    let reason = "players asked to restart after the break";
    let (status, body) = post(&app, overrides, json!({"reason": reason})).await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["override"]["reason"], reason);
    assert_eq!(records(&app, "pd_rotation_overridden").await, 1);
    let (status, body) = post(&app, "/api/v1/hands", hand("CA-1", "Bo", &[], &[(4, "Cy")])).await;
    assert_eq!(status, 201, "{body}");
    for (id, at) in times {
        set_opened(&app, &id, &at).await;
    }

    // The shift's report: the verdict, the override, the TPPP's bank.
    let (status, report) = app
        .get_json(&format!("/api/v1/shifts/{shift}/report"))
        .await;
    assert_eq!(status, 200, "{report}");
    let ca = report["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["table"] == "CA-1"))
        .expect("CA-1's part")
        .clone();
    assert_eq!(ca["compliance"]["verdict"], "compliant", "{ca}");
    assert_eq!(ca["compliance"]["overrides"][0]["reason"], reason, "{ca}");
    assert_eq!(ca["tppps"][0]["name"], "Ted", "{ca}");
    assert_eq!(ca["tppps"][0]["banks"], 1, "{ca}");
    assert_eq!(ca["tppps"][0]["banked"], "500.00", "{ca}");
    let lc = report["tables"]
        .as_array()
        .and_then(|t| t.iter().find(|t| t["table"] == "LC-1"))
        .expect("LC-1's part");
    assert!(lc.get("compliance").is_none(), "no clock at LC-1: {lc}");

    // Unmark; the registry lists both, and audit verify replays it all.
    let (status, body) = post(&app, &mark("CA-1"), json!({"name": "Ted", "marked": false})).await;
    assert_eq!((status, &body["tppps"]), (200, &json!([])), "{body}");
    let (status, list) = app.get_json("/api/v1/tppps").await;
    assert_eq!(status, 200);
    assert_eq!(list["tppps"].as_array().map(Vec::len), Some(2), "{list}");
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    for statement in [
        "UPDATE rotation_overrides SET reason = 'no reason'",
        "UPDATE tppps SET badge = 'TP-999' WHERE name = 'Ted'",
        "UPDATE card_tables SET tppps = '[\"Uma\"]' WHERE name = 'LC-1'",
    ] {
        tamper(&app.database.db, &[statement]).await;
        let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
            .await
            .expect("verify");
        let problem = report.problem.map(|p| p.message).unwrap_or_default();
        assert!(
            problem.contains("stored as") || problem.contains("no record in the log"),
            "{statement}: {problem}"
        );
        break_glass_undo(&app, statement).await;
    }
}

/// Puts back what a tampering statement changed (the next one is checked
/// alone).
async fn break_glass_undo(app: &TestApp, statement: &str) {
    let undo = match statement {
        s if s.contains("rotation_overrides") => {
            "UPDATE rotation_overrides SET reason = 'players asked to restart after the break'"
        }
        s if s.contains("TP-999") => "UPDATE tppps SET badge = 'TP-100' WHERE name = 'Ted'",
        _ => "UPDATE card_tables SET tppps = NULL WHERE name = 'LC-1'",
    };
    tamper(&app.database.db, &[undo]).await;
}

async fn the_table_page_shows_the_clock_and_keeps_refusals(backend: Backend) {
    let app = spawn_app(backend).await;
    tables(&app).await;
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let page = sam.get("/tables/CA-1").await;
    assert!(page.body.contains("id=\"rotation-clock\""), "{}", page.body);
    assert!(page.body.contains("no game running"), "{}", page.body);
    assert!(page.body.contains("No TPPP is registered"), "{}", page.body);
    assert!(
        !sam.get("/tables/LC-1")
            .await
            .body
            .contains("id=\"rotation-clock\""),
        "a lucky-chances table has no clock"
    );
    // Register on the shifts page: a refusal kept beside its field.
    let csrf = sam.csrf("/shifts").await;
    let form = [
        ("csrf", csrf.as_str()),
        ("tppp", "Ted"),
        ("company", "Acme"),
        ("badge", "TP 1"),
    ];
    let page = sam.post("/shifts/tppps", &form).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("id=\"badge-error\""), "{}", page.body);
    assert!(
        page.body.contains("value=\"TP 1\""),
        "what was typed is kept"
    );
    let csrf = sam.csrf("/shifts").await;
    let form = [
        ("csrf", csrf.as_str()),
        ("tppp", "Ted"),
        ("company", "Acme"),
        ("badge", "TP-1"),
    ];
    assert_eq!(sam.post("/shifts/tppps", &form).await.status, 303);
    // Mark at the table; an override without a reason is refused beside it.
    let csrf = sam.csrf("/tables/CA-1").await;
    let form = [("csrf", csrf.as_str()), ("tppp", "Ted"), ("op", "mark")];
    assert_eq!(sam.post("/tables/CA-1/tppps", &form).await.status, 303);
    let page = sam.get("/tables/CA-1").await;
    assert!(page.body.contains("id=\"tppps-here\">Ted"), "{}", page.body);
    let csrf = sam.csrf("/tables/CA-1").await;
    let form = [("csrf", csrf.as_str()), ("reason", " ")];
    let page = sam.post("/tables/CA-1/rotation-override", &form).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("id=\"reason-error\""), "{}", page.body);
    // A dealer sees the clock but not the supervisor's forms.
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let page = dana.get("/tables/CA-1").await;
    assert!(page.body.contains("id=\"rotation-clock\""), "{}", page.body);
    assert!(!page.body.contains("rotation-override\""), "{}", page.body);
    assert_eq!(
        dana.post("/tables/CA-1/rotation-override", &[("reason", "x")])
            .await
            .status,
        403
    );
}

on_both_databases!(
    the_rotation_rules_hold_at_a_california_table,
    the_table_page_shows_the_clock_and_keeps_refusals
);
