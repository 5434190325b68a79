//! `GET /metrics`: how the service is doing, in Prometheus's text format
//! (`metrics` + `metrics-exporter-prometheus`; docs/metrics.md). For the
//! operator only: served when `serve` is given a metrics token
//! (`PITBOOK_METRICS_TOKEN`) and asked for with it as a bearer token;
//! without the token 401, with none configured 403.
//!
//! What is counted where: requests by route and status with their latency
//! ([`track`], a route layer over every route); hands opened and closed,
//! commands refused by reason, the group commit's batch sizes and commit
//! time (the hand writer, `store::double_hand_poker::writer`); login
//! failures and throttles (`store::staff::sessions`); the chain head's seq
//! and the last verification's result and time, read from the database at
//! each scrape, so every instance on one database reports the same.

use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use axum::Router;
use axum::extract::{MatchedPath, State};
use axum::http::{HeaderMap, Request, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use metrics_exporter_prometheus::{Matcher, PrometheusBuilder, PrometheusHandle};

use crate::store::audit::last_of_type;
use crate::store::verify;
use crate::web::AppState;

use crate::telemetry::metric::*;

/// Latency buckets, seconds: a page or a command is milliseconds; a hand's
/// value or an export, seconds.
const SECONDS_BUCKETS: &[f64] = &[
    0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0,
];
/// Commands in one group commit (at most `BATCH_COMMANDS_MAX`, 64).
const BATCH_BUCKETS: &[f64] = &[1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0];
/// How often histograms are drained into their buckets.
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The process's one recorder, installed the first time it is asked for
/// (`AppState::new`, before any request), with the thread that keeps its
/// histograms drained.
pub fn handle() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let buckets = |b: PrometheusBuilder, name: &str, values: &[f64]| {
            b.set_buckets_for_metric(Matcher::Full(name.to_string()), values)
                .expect("non-empty buckets")
        };
        let builder = PrometheusBuilder::new();
        let builder = buckets(builder, HTTP_SECONDS, SECONDS_BUCKETS);
        let builder = buckets(builder, COMMIT_SECONDS, SECONDS_BUCKETS);
        let builder = buckets(builder, COMMIT_PHASE_SECONDS, SECONDS_BUCKETS);
        let builder = buckets(builder, BATCH_COMMANDS, BATCH_BUCKETS);
        let handle = builder
            .install_recorder()
            .expect("the process's only metrics recorder");
        let upkeep = handle.clone();
        std::thread::Builder::new()
            .name("metrics-upkeep".into())
            .spawn(move || {
                loop {
                    std::thread::sleep(UPKEEP_EVERY);
                    upkeep.run_upkeep();
                }
            })
            .expect("a thread for the metrics' upkeep");
        handle
    })
}

pub fn router() -> Router<AppState> {
    Router::new().route("/metrics", get(scrape))
}

/// Counts every routed request by method, route (the pattern, never the
/// path: ids would make a series each) and status, and times it.
pub async fn track(req: Request<axum::body::Body>, next: Next) -> Response {
    let route = req
        .extensions()
        .get::<MatchedPath>()
        .map_or_else(|| "unmatched".to_string(), |p| p.as_str().to_string());
    let method = req.method().to_string();
    let started = Instant::now();
    let response = next.run(req).await;
    let status = response.status().as_u16().to_string();
    metrics::histogram!(HTTP_SECONDS, "method" => method.clone(), "route" => route.clone())
        .record(started.elapsed().as_secs_f64());
    metrics::counter!(HTTP_REQUESTS, "method" => method, "route" => route, "status" => status)
        .increment(1);
    response
}

/// The operator's token, compared in constant time.
fn authorised(expected: &Arc<str>, headers: &HeaderMap) -> bool {
    let given = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "))
        .unwrap_or_default();
    let (a, b) = (given.as_bytes(), expected.as_bytes());
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |d, (x, y)| d | (x ^ y)) == 0
}

async fn scrape(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let Some(token) = &state.metrics_token else {
        return (
            StatusCode::FORBIDDEN,
            "metrics are off: start serve with a metrics token (PITBOOK_METRICS_TOKEN, docs/metrics.md)\n",
        )
            .into_response();
    };
    if !authorised(token, &headers) {
        return (
            StatusCode::UNAUTHORIZED,
            [(header::WWW_AUTHENTICATE, "Bearer")],
            "the operator's metrics token is required: Authorization: Bearer TOKEN\n",
        )
            .into_response();
    }
    // The chain's state from the database: the same on every instance.
    match verify::anchor(&state.db).await {
        Ok(head) => metrics::gauge!(CHAIN_HEAD_SEQ).set(head.map_or(0.0, |h| h.seq as f64)),
        Err(e) => tracing::warn!(error = %e, "metrics: the chain head could not be read"),
    }
    match last_of_type(&state.db, "chain_verified").await {
        Ok(Some(last)) => {
            let payload: serde_json::Value =
                serde_json::from_str(&last.payload).unwrap_or_default();
            let ok = payload
                .get("problem")
                .is_none_or(serde_json::Value::is_null);
            metrics::gauge!(LAST_VERIFY_OK).set(if ok { 1.0 } else { 0.0 });
            if let Ok(at) = chrono::DateTime::parse_from_rfc3339(&last.recorded_at) {
                metrics::gauge!(LAST_VERIFY_TIME).set(at.timestamp() as f64);
            }
        }
        Ok(None) => {}
        Err(e) => tracing::warn!(error = %e, "metrics: the last verification could not be read"),
    }
    (
        [(
            header::CONTENT_TYPE,
            "text/plain; version=0.0.4; charset=utf-8",
        )],
        handle().render(),
    )
        .into_response()
}
