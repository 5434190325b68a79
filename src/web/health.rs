//! Liveness and readiness probes for load balancers and systemd.

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::{Json, Router};
use serde::Serialize;
use utoipa::ToSchema;

use super::AppState;

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
}

/// The server is up.
#[derive(Serialize, ToSchema)]
pub(super) struct Health {
    /// Always `ok`.
    status: &'static str,
    /// pitbook's version.
    version: &'static str,
}

/// Whether the database answers.
#[derive(Serialize, ToSchema)]
#[schema(as = ServerReadiness)]
pub(super) struct Readiness {
    /// sqlite or postgres.
    database: &'static str,
    /// `ready`, or `unavailable` (with 503).
    status: &'static str,
}

/// Liveness: the process answers (no sign-in).
#[utoipa::path(get, path = "/healthz", operation_id = "healthz", tag = "server", security(()),
    responses((status = 200, description = "Up.", body = Health,
        example = json!({"status": "ok", "version": "0.1.0"}))))]
pub(super) async fn healthz() -> Json<Health> {
    Json(Health {
        status: "ok",
        version: env!("CARGO_PKG_VERSION"),
    })
}

/// Readiness: the database answers a ping (no sign-in).
#[utoipa::path(get, path = "/readyz", operation_id = "readyz", tag = "server", security(()),
    responses(
        (status = 200, description = "Ready.", body = Readiness,
            example = json!({"status": "ready", "database": "sqlite"})),
        (status = 503, description = "The database does not answer.", body = Readiness,
            example = json!({"status": "unavailable", "database": "postgres"})),
    ))]
pub(super) async fn readyz(State(state): State<AppState>) -> (StatusCode, Json<Readiness>) {
    let database = state.db.backend().name();
    match state.db.ping().await {
        Ok(()) => (
            StatusCode::OK,
            Json(Readiness {
                database,
                status: "ready",
            }),
        ),
        Err(e) => {
            tracing::warn!(error = %e, "readiness check failed");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(Readiness {
                    database,
                    status: "unavailable",
                }),
            )
        }
    }
}
