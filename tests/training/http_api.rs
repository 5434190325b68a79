//! The drills' JSON API on both databases.

use crate::common::{
    Backend, TestApp, bad_input_body, bearer_client, problem, records, spawn_app, tamper, test_key,
};
use pitbook::domain::staff::Role;
use pitbook::domain::training::{Drill, Kind, Level};
use serde_json::{Value, json};

/// POSTs `body` to `path` with `client`; the status and the JSON body.
pub async fn post(
    app: &TestApp,
    client: &reqwest::Client,
    path: &str,
    body: Value,
) -> (u16, Value) {
    let response = client
        .post(app.url(path))
        .json(&body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    (status, response.json().await.expect("json"))
}

/// A trainee's API client.
async fn trainee(app: &TestApp, name: &str) -> reqwest::Client {
    app.add_user(name, Role::Trainee).await;
    bearer_client(&app.token_for(name).await)
}

/// The correct answer of the drill the API issued (the same engine).
fn correct(issued: &Value) -> Value {
    let kind = Kind::parse(issued["kind"].as_str().expect("kind")).expect("kind");
    let level = Level::new(issued["level"].as_i64().expect("level")).expect("level");
    let seed = issued["seed"].as_u64().expect("seed");
    serde_json::to_value(Drill::generate(kind, level, seed).answer).expect("answer")
}

/// Every training record and row counted: nothing changes on a refusal.
async fn written(app: &TestApp) -> [i64; 2] {
    [
        records(app, "drill_issued").await,
        records(app, "drill_answered").await,
    ]
}

async fn a_drill_answered_right_then_wrong_with_the_answer_and_explanation(backend: Backend) {
    let app = spawn_app(backend).await;
    let tess = trainee(&app, "tess").await;
    let (status, issued) = post(
        &app,
        &tess,
        "/api/v1/drills",
        json!({"kind": "action-seat", "level": 2, "seed": 7}),
    )
    .await;
    assert_eq!(status, 200, "{issued}");
    assert_eq!(
        issued["question"],
        json!({"dice": [5, 4, 3], "pd_seat": 5, "seats": 7})
    );
    assert!(
        issued.get("answer").is_none(),
        "the question never carries the answer: {issued}"
    );
    assert_eq!(issued["fields"][0]["path"], "seat");
    let id = issued["id"].as_str().expect("id").to_string();
    let (status, graded) = post(
        &app,
        &tess,
        &format!("/api/v1/drills/{id}/answer"),
        json!({"answer": {"seat": 2}}),
    )
    .await;
    assert_eq!(status, 200, "{graded}");
    assert_eq!(graded["right"], true);
    assert_eq!(graded["correct"], json!({"seat": 2}));
    assert!(
        graded["explanation"]
            .as_str()
            .expect("words")
            .contains("seat 2 gets the first pile"),
        "{graded}"
    );
    assert!(graded["elapsed_ms"].as_i64().expect("ms") >= 0);
    let run = issued["run"].as_str().expect("run").to_string();
    let (status, next) = post(&app, &tess, "/api/v1/drills", json!({"run": run})).await;
    assert_eq!(status, 200, "{next}");
    assert_eq!(next["position"], 2);
    let mut wrong = correct(&next);
    wrong["seat"] = json!(if wrong["seat"] == 1 { 2 } else { 1 });
    let path = format!("/api/v1/drills/{}/answer", next["id"].as_str().expect("id"));
    let (status, graded) = post(&app, &tess, &path, json!({"answer": wrong})).await;
    assert_eq!(status, 200, "{graded}");
    assert_eq!(graded["right"], false);
    assert_eq!(graded["correct"], correct(&next));
    assert_eq!(graded["run"]["answered"], 2);
    assert_eq!(graded["run"]["right"], 1);
    // Progress counts both, and the log holds every attempt.
    let (status, progress) = {
        let r = tess
            .get(app.url("/api/v1/training/progress"))
            .send()
            .await
            .expect("get");
        (r.status().as_u16(), r.json::<Value>().await.expect("json"))
    };
    assert_eq!(status, 200, "{progress}");
    let seat = &progress["progress"]["kinds"][0];
    assert_eq!(
        (
            seat["kind"].as_str(),
            seat["attempts"].as_i64(),
            seat["right"].as_i64()
        ),
        (Some("action-seat"), Some(2), Some(1))
    );
    assert_eq!(written(&app).await, [2, 2]);
    // A reviewer reads it too; another trainee may not; no such user is 404.
    let (status, body) = app.get_json("/api/v1/training/progress?trainee=tess").await;
    assert_eq!(
        (status, &body["progress"]["kinds"][0]["attempts"]),
        (200, &json!(2)),
        "{body}"
    );
    let (status, _) = app
        .get_json("/api/v1/training/progress?trainee=nobody")
        .await;
    assert_eq!(status, 404);
    let tom = trainee(&app, "tom").await;
    let r = tom
        .get(app.url("/api/v1/training/progress?trainee=tess"))
        .send()
        .await
        .expect("get");
    assert_eq!(r.status().as_u16(), 403);
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn refusals_name_their_cause_and_record_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    let tess = trainee(&app, "tess").await;
    let dana = trainee(&app, "dan").await;
    for (body, field) in [
        (json!({"kind": "settle"}), "kind"),
        (json!({"kind": "decide", "level": 4}), "level"),
        (json!({"kind": "decide", "seed": -1}), "seed"),
        (json!({"kind": "decide", "seed": "7"}), "seed"),
        (json!({"kind": "decide", "colour": "red"}), "colour"),
        (json!({}), "kind"),
    ] {
        let (status, response) = post(&app, &tess, "/api/v1/drills", body.clone()).await;
        assert_eq!(status, 422, "{body}: {response}");
        assert_eq!(bad_input_body(&response).0, field, "{body}: {response}");
    }
    assert_eq!(written(&app).await, [0, 0]);
    let (_, issued) = post(
        &app,
        &tess,
        "/api/v1/drills",
        json!({"kind": "settle-step", "level": 2, "seed": 11}),
    )
    .await;
    let path = format!(
        "/api/v1/drills/{}/answer",
        issued["id"].as_str().expect("id")
    );
    // The wrong shape: a malformed amount, money as a number, a field missing.
    let mut answer = correct(&issued);
    answer["covered"] = json!("12,50");
    let (status, response) = post(&app, &tess, &path, json!({"answer": answer})).await;
    assert_eq!(status, 422, "{response}");
    assert_eq!(
        (response["field"].as_str(), response["value"].as_str()),
        (Some("covered"), Some("12,50"))
    );
    let mut answer = correct(&issued);
    answer["to_pd"] = json!(3.5);
    let (status, response) = post(&app, &tess, &path, json!({"answer": answer})).await;
    assert_eq!(
        (status, response["field"].as_str()),
        (422, Some("to_pd")),
        "{response}"
    );
    // Someone else's drill: 403.
    let (status, response) = post(&app, &dana, &path, json!({"answer": correct(&issued)})).await;
    assert_eq!(status, 403, "{response}");
    assert!(
        response["message"]
            .as_str()
            .expect("message")
            .contains("tess"),
        "{response}"
    );
    // No such drill: 404.
    let (status, _) = post(
        &app,
        &tess,
        "/api/v1/drills/nope/answer",
        json!({"answer": {}}),
    )
    .await;
    assert_eq!(status, 404);
    assert_eq!(written(&app).await, [1, 0]);
    // The next drill before this one is answered: 409.
    let (status, response) =
        post(&app, &tess, "/api/v1/drills", json!({"run": issued["run"]})).await;
    assert_eq!(status, 409, "{response}");
    // Answered once; a second answer is 409 and the first stands.
    let (status, _) = post(&app, &tess, &path, json!({"answer": correct(&issued)})).await;
    assert_eq!(status, 200);
    let (status, response) = post(&app, &tess, &path, json!({"answer": correct(&issued)})).await;
    assert_eq!(status, 409, "{response}");
    assert_eq!(written(&app).await, [1, 1]);
    // Auditors do not drill.
    app.add_user("audrey", Role::Auditor).await;
    let audrey = bearer_client(&app.token_for("audrey").await);
    let (status, _) = post(&app, &audrey, "/api/v1/drills", json!({"kind": "decide"})).await;
    assert_eq!(status, 403);
}

async fn a_test_stops_at_its_questions(backend: Backend) {
    let app = spawn_app(backend).await;
    let tess = trainee(&app, "tess").await;
    let (status, run) = post(
        &app,
        &tess,
        "/api/v1/drill-runs",
        json!({"kind": "collection", "mode": "test", "questions": 2, "level": 3}),
    )
    .await;
    assert_eq!(status, 200, "{run}");
    assert_eq!(
        (run["mode"].as_str(), run["questions"].as_i64()),
        (Some("test"), Some(2))
    );
    for _ in 0..2 {
        let (status, issued) = post(&app, &tess, "/api/v1/drills", json!({"run": run["id"]})).await;
        assert_eq!(status, 200, "{issued}");
        let path = format!(
            "/api/v1/drills/{}/answer",
            issued["id"].as_str().expect("id")
        );
        let (status, graded) = post(&app, &tess, &path, json!({"answer": correct(&issued)})).await;
        assert_eq!(
            (status, graded["right"].as_bool()),
            (200, Some(true)),
            "{graded}"
        );
    }
    let (status, response) = post(&app, &tess, "/api/v1/drills", json!({"run": run["id"]})).await;
    assert_eq!(status, 409, "{response}");
    assert!(
        response["message"]
            .as_str()
            .expect("m")
            .contains("all its questions"),
        "{response}"
    );
    let (status, response) = post(
        &app,
        &tess,
        "/api/v1/drill-runs",
        json!({"kind": "collection", "mode": "test", "questions": 51}),
    )
    .await;
    assert_eq!(
        (status, response["field"].as_str()),
        (422, Some("questions")),
        "{response}"
    );
}

async fn verify_catches_a_grade_changed_in_the_table(backend: Backend) {
    let app = spawn_app(backend).await;
    let tess = trainee(&app, "tess").await;
    let (_, issued) = post(
        &app,
        &tess,
        "/api/v1/drills",
        json!({"kind": "decide", "seed": 3}),
    )
    .await;
    let mut wrong = correct(&issued);
    wrong["outcome"] = json!(if wrong["outcome"] == "push" {
        "pd"
    } else {
        "push"
    });
    let path = format!(
        "/api/v1/drills/{}/answer",
        issued["id"].as_str().expect("id")
    );
    let (_, graded) = post(&app, &tess, &path, json!({"answer": wrong})).await;
    assert_eq!(graded["right"], false);
    let db = &app.database.db;
    let key = test_key();
    let report = pitbook::store::verify::verify(db, &key, 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    let flip = match backend {
        Backend::Sqlite => "UPDATE drills SET correct = 1",
        Backend::Postgres => "UPDATE drills SET correct = TRUE",
    };
    tamper(db, &[flip]).await;
    let report = pitbook::store::verify::verify(db, &key, 1, None)
        .await
        .expect("verify");
    let (_, kind) = problem(&report);
    assert_eq!(kind, "projection");
    let message = &report.problem.as_ref().expect("a problem").message;
    let id = issued["id"].as_str().expect("id");
    assert!(
        message.contains(&format!("the drill {id} is stored as")),
        "{message}"
    );
    // A pass mark row with no record.
    tamper(db, &[flip.replace("= 1", "= 0").replace("TRUE", "FALSE").as_str(),
        "INSERT INTO training_pass_marks VALUES ('decide', 5, 50, 30, 1, TRUE, 'x', '2026-01-01T00:00:00.000000Z', 1)"]).await;
    let report = pitbook::store::verify::verify(db, &key, 1, None)
        .await
        .expect("verify");
    assert!(
        report
            .problem
            .as_ref()
            .expect("p")
            .message
            .contains("pass mark of decide"),
        "{report:?}"
    );
}

on_both_databases!(
    a_drill_answered_right_then_wrong_with_the_answer_and_explanation,
    refusals_name_their_cause_and_record_nothing,
    a_test_stops_at_its_questions,
    verify_catches_a_grade_changed_in_the_table,
);
