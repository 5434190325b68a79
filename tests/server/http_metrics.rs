//! `GET /metrics` on both databases (docs/metrics.md): 403 when no
//! operator token is configured, 401 without it or with a wrong one, and
//! with it the Prometheus text holding what the requests before it did —
//! the route's count and latency, a hand opened, a command refused as
//! stale, the group commit, a failed login, the chain head and the last
//! verification. (The recorder is the process's: other tests count into
//! it too, so each series is looked for, not its exact value.)

use crate::common::browser::{Browser, csrf_of, signed_in};
use crate::common::{Backend, spawn_app, spawn_app_with};
use pitbook::domain::staff::Role;
use serde_json::json;

const TOKEN: &str = "operator-metrics-token-0123456789";

async fn scrape(app: &crate::common::TestApp, bearer: Option<&str>) -> (u16, String) {
    let mut request = reqwest::Client::new().get(app.url("/metrics"));
    if let Some(token) = bearer {
        request = request.bearer_auth(token);
    }
    let response = request.send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The value of the first sample whose line starts with `series`.
fn sample(text: &str, series: &str) -> Option<f64> {
    text.lines()
        .find(|l| l.starts_with(series))
        .and_then(|l| l.rsplit(' ').next())
        .and_then(|v| v.parse().ok())
}

async fn metrics_are_for_the_operator_only(backend: Backend) {
    let off = spawn_app(backend).await;
    let (status, body) = scrape(&off, Some(TOKEN)).await;
    assert_eq!(status, 403, "{body}");
    assert!(body.contains("metrics are off"), "{body}");

    let app = spawn_app_with(backend, |s| s.with_metrics_token(Some(TOKEN.into()))).await;
    assert_eq!(scrape(&app, None).await.0, 401);
    assert_eq!(scrape(&app, Some("not-the-token")).await.0, 401);
    // A staff member's API token is not the operator's.
    assert_eq!(scrape(&app, Some(&app.token)).await.0, 401);
}

async fn a_scrape_shows_requests_hands_refusals_logins_and_the_chain(backend: Backend) {
    let app = spawn_app_with(backend, |s| s.with_metrics_token(Some(TOKEN.into()))).await;
    let (status, body, _) = app
        .post_json(
            "/api/v1/tables",
            &json!({"name": "M1", "profile": "lucky-chances", "seats": 7}),
        )
        .await;
    assert_eq!(status, 201, "{body}");
    let (status, opened, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
                    "events": [{"type": "hand_opened", "table": "M1"}]}),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["hand_id"].as_str().unwrap();
    let (status, body, _) = app
        .post_json(
            &format!("/api/v1/hands/{id}/commands"),
            &json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
                    "expected_version": 7,
                    "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]}),
        )
        .await;
    assert_eq!(status, 409, "{body}");
    let mut stranger = Browser::new(&app);
    let refused = stranger.login("nobody", "wrong-password-here").await;
    assert!(
        refused.body.contains("wrong user name or password"),
        "{}",
        refused.body
    );
    let mut audrey = signed_in(&app, "audrey", Role::Auditor).await;
    let csrf = csrf_of(&audrey.get("/").await.body);
    assert_eq!(audrey.post("/chain", &[("csrf", &csrf)]).await.status, 303);

    let (status, text) = scrape(&app, Some(TOKEN)).await;
    assert_eq!(status, 200, "{text}");
    for series in [
        "pitbook_http_requests_total{method=\"POST\",route=\"/api/v1/hands\",status=\"201\"}",
        "pitbook_http_requests_total{method=\"POST\",route=\"/api/v1/hands/{id}/commands\",status=\"409\"}",
        "pitbook_http_request_duration_seconds_bucket{method=\"POST\",route=\"/api/v1/hands\",le=\"0.1\"}",
        "pitbook_hands_opened_total",
        "pitbook_commands_refused_total{reason=\"stale_version\"}",
        "pitbook_group_commit_commands_bucket{le=\"1\"}",
        "pitbook_group_commit_seconds_count",
        "pitbook_login_failures_total",
    ] {
        let value = sample(&text, series).unwrap_or_else(|| panic!("no {series} in:\n{text}"));
        assert!(value >= 1.0, "{series} {value}");
    }
    // On PostgreSQL, where the batch's time went, phase by phase.
    if let Backend::Postgres = backend {
        for phase in ["lock_wait", "reads", "commands", "writes", "commit"] {
            let series = format!("pitbook_group_commit_phase_seconds_count{{phase=\"{phase}\"}}");
            let count = sample(&text, &series).unwrap_or_else(|| panic!("no {series} in:\n{text}"));
            assert!(count >= 1.0, "{series} {count}");
        }
    }
    // The chain as the database holds it (another test's scrape may set
    // the gauges between ours and its render: only their presence).
    assert!(
        sample(&text, "pitbook_audit_chain_head_seq").is_some_and(|v| v >= 1.0),
        "{text}"
    );
    assert!(
        sample(&text, "pitbook_audit_last_verify_ok").is_some(),
        "{text}"
    );
    assert!(
        sample(&text, "pitbook_audit_last_verify_timestamp_seconds").is_some_and(|t| t > 1.7e9),
        "{text}"
    );
    // A path with an id is counted under its route, never its own path.
    assert!(
        !text.contains(&format!("route=\"/api/v1/hands/{id}")),
        "{text}"
    );
}

on_both_databases!(
    metrics_are_for_the_operator_only,
    a_scrape_shows_requests_hands_refusals_logins_and_the_chain,
);
