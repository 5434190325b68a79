//! The web shell: axum routers (one per module, merged here), request ids,
//! request logging, graceful shutdown. Handlers translate HTTP to domain calls.

mod assets;
mod audit;
mod dice_games;
pub(crate) mod double_hand_poker;
mod error;
mod floor;
pub mod headers;
mod health;
pub(crate) mod history;
mod home;
pub mod json;
mod kept_games;
pub mod metrics;
mod nav;
pub mod openapi;
pub mod page;
pub mod server;
pub mod shifts;
mod staff;
mod styleguide;
mod svg;
pub mod time;
mod training;
mod tripoley;

use std::future::Future;
use std::net::IpAddr;
use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, Request};
use axum::{Router, middleware};
use tokio::net::TcpListener;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::{DefaultOnResponse, TraceLayer};
use tracing::Level;

pub use error::{ApiError, ErrorBody, ErrorKind, PageError, PageResult};
pub use page::{AtPath, CsrfForm, NoFields, PageContext, PagePost, Typed};
pub use staff::session::Staff;

use crate::domain::common::audit::AuditKey;
use crate::store::double_hand_poker::writer::HandWriter;
use crate::store::staff::LoginGuard;
use crate::store::{Db, StoreError};

const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// Shared by every handler.
#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    /// The audit chain's secret (never stored in the database).
    pub audit_key: AuditKey,
    /// Group-commits hand commands.
    pub hand_writer: HandWriter,
    /// The login throttle (docs/staff.md).
    pub login_guard: Arc<LoginGuard>,
    /// Reverse proxies whose `X-Forwarded-For` names the client (`--trusted-proxy`).
    pub trusted_proxies: Arc<Vec<IpAddr>>,
    /// The cardroom's time zone: pages show times in it, with UTC beside
    /// (`--time-zone`; the record keeps UTC).
    pub time_zone: chrono_tz::Tz,
    /// The operator's token for `GET /metrics` (none: metrics are off).
    pub metrics_token: Option<Arc<str>>,
    /// Minutes a hand may stay open before the floor calls it out
    /// (`--hand-alert-mins`).
    pub hand_alert_minutes: i64,
}

impl AppState {
    /// Must be called inside the tokio runtime (it starts the hand writer).
    pub fn new(db: Db, audit_key: AuditKey) -> Result<AppState, StoreError> {
        // The recorder first, so nothing counted is lost.
        metrics::handle();
        let hand_writer = HandWriter::spawn(db.clone(), audit_key.clone())?;
        let login_guard = Arc::new(LoginGuard::default());
        tokio::spawn(crate::store::staff::sweep_login_failures(
            Arc::downgrade(&login_guard),
            db.clone(),
            audit_key.clone(),
        ));
        Ok(AppState {
            db,
            audit_key,
            hand_writer,
            login_guard,
            trusted_proxies: Arc::new(Vec::new()),
            time_zone: chrono_tz::UTC,
            metrics_token: None,
            hand_alert_minutes: crate::domain::shifts::floor::HAND_ALERT_MINUTES_DEFAULT,
        })
    }

    /// Shows the pages' times in `zone`.
    pub fn with_time_zone(mut self, zone: chrono_tz::Tz) -> AppState {
        self.time_zone = zone;
        self.hand_writer = self.hand_writer.with_time_zone(zone);
        self
    }

    /// The floor calls out a hand open longer than `minutes`.
    pub fn with_hand_alert_minutes(mut self, minutes: i64) -> AppState {
        self.hand_alert_minutes = minutes;
        self
    }

    /// Serves `GET /metrics` to whoever presents `token` (docs/metrics.md).
    pub fn with_metrics_token(mut self, token: Option<String>) -> AppState {
        self.metrics_token = token.filter(|t| !t.is_empty()).map(Arc::from);
        self
    }

    /// Takes the client address from `X-Forwarded-For` on requests from these peers.
    pub fn with_trusted_proxies(mut self, proxies: Vec<IpAddr>) -> AppState {
        self.trusted_proxies = Arc::new(proxies);
        self
    }
}

pub fn router(state: AppState) -> Router {
    // The compute-only API: any signed-in staff member (session or token).
    let reader = middleware::from_fn_with_state(state.clone(), staff::session::require_reader);
    let compute = Router::new()
        .merge(dice_games::compute_router())
        .merge(double_hand_poker::compute_router())
        .merge(tripoley::compute_router())
        .route_layer(reader);
    Router::new()
        .merge(health::router())
        .merge(compute)
        .merge(double_hand_poker::router())
        .merge(history::router())
        .merge(staff::router())
        .merge(home::router())
        .merge(floor::router())
        .merge(styleguide::router())
        .merge(assets::router())
        .merge(audit::router())
        .merge(dice_games::router())
        .merge(tripoley::router())
        .merge(shifts::router())
        .merge(training::router())
        .merge(metrics::router())
        .merge(openapi::router())
        // Every routed request counted by its route's pattern.
        .route_layer(middleware::from_fn(metrics::track))
        .with_state(state)
        // One limit for every body (json::Body answers over it in JSON).
        .layer(DefaultBodyLimit::max(json::BODY_BYTES_MAX))
        .layer(PropagateRequestIdLayer::new(REQUEST_ID))
        .layer(TraceLayer::new_for_http().make_span_with(|req: &Request<_>| {
            let request_id = req
                .headers()
                .get(REQUEST_ID)
                .and_then(|v| v.to_str().ok())
                .unwrap_or("-");
            tracing::info_span!("request", method = %req.method(), path = %req.uri().path(), request_id)
        })
        .on_response(DefaultOnResponse::new().level(Level::INFO)))
        .layer(SetRequestIdLayer::new(REQUEST_ID, MakeRequestUuid))
}

/// Serves until `shutdown` resolves, then finishes in-flight requests, under
/// the default [`server::ServerLimits`].
pub async fn serve(
    listener: TcpListener,
    state: AppState,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    serve_with_limits(listener, state, server::ServerLimits::DEFAULT, shutdown).await
}

/// [`serve`] with the timeouts and connection cap given (`pitbook serve`'s flags).
pub async fn serve_with_limits(
    listener: TcpListener,
    state: AppState,
    limits: server::ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    server::serve(listener, router(state), limits, shutdown).await
}

/// Resolves on SIGINT or SIGTERM. The handlers are installed when this is
/// called (not when first awaited), so a signal right after the server
/// says it is listening is a graceful stop, never the default kill.
pub fn shutdown_signal() -> impl Future<Output = ()> + Send + 'static {
    #[cfg(unix)]
    let signals = {
        use tokio::signal::unix::{SignalKind, signal};
        let install = |kind: SignalKind, name: &'static str| match signal(kind) {
            Ok(s) => Some(s),
            Err(e) => {
                tracing::error!(error = %e, "cannot listen for {name}");
                None
            }
        };
        (
            install(SignalKind::interrupt(), "SIGINT"),
            install(SignalKind::terminate(), "SIGTERM"),
        )
    };
    async move {
        #[cfg(unix)]
        {
            let (mut int, mut term) = signals;
            tokio::select! {
                () = received(int.as_mut()) => {},
                () = received(term.as_mut()) => {},
            }
        }
        #[cfg(not(unix))]
        if let Err(e) = tokio::signal::ctrl_c().await {
            tracing::error!(error = %e, "cannot listen for Ctrl-C");
            std::future::pending::<()>().await;
        }
        tracing::info!("shutdown signal received; finishing in-flight requests");
    }
}

/// The next delivery of a signal (never, for one that could not be installed).
#[cfg(unix)]
async fn received(signal: Option<&mut tokio::signal::unix::Signal>) {
    match signal {
        Some(s) => {
            s.recv().await;
        }
        None => std::future::pending::<()>().await,
    }
}
