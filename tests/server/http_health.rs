//! The server skeleton on both databases: probes, request ids, 404s.

use crate::common::{Backend, spawn_app};

async fn healthz_answers_ok(backend: Backend) {
    let app = spawn_app(backend).await;
    let (status, body) = app.get_json("/healthz").await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ok");
}

async fn readyz_reports_the_database(backend: Backend) {
    let app = spawn_app(backend).await;
    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 200);
    assert_eq!(body["status"], "ready");
    let expected = match backend {
        Backend::Sqlite => "sqlite",
        Backend::Postgres => "postgres",
    };
    assert_eq!(body["database"], expected);
}

async fn readyz_fails_when_the_database_is_gone(backend: Backend) {
    let app = spawn_app(backend).await;
    app.database.db.close().await;
    let (status, body) = app.get_json("/readyz").await;
    assert_eq!(status, 503);
    assert_eq!(body["status"], "unavailable");
}

async fn every_response_carries_a_request_id(backend: Backend) {
    let app = spawn_app(backend).await;
    let response = app
        .client
        .get(app.url("/healthz"))
        .send()
        .await
        .expect("request");
    let id = response
        .headers()
        .get("x-request-id")
        .expect("x-request-id header");
    assert_eq!(id.to_str().expect("ascii").len(), 36, "a UUID");
}

async fn migrations_are_applied_once(backend: Backend) {
    let app = spawn_app(backend).await;
    // Opening again re-runs the migrator: it must be a no-op, not an error.
    let again = pitbook::store::Db::open(&app.database.url)
        .await
        .expect("reopen");
    again.ping().await.expect("ping");
    again.close().await;
}

on_both_databases!(
    healthz_answers_ok,
    readyz_reports_the_database,
    readyz_fails_when_the_database_is_gone,
    every_response_carries_a_request_id,
    migrations_are_applied_once,
);
