//! The HTTP server loop: hyper's HTTP/1.1 connection with a header read
//! timeout, a cap on open connections, a body timeout and an overall
//! request timeout, graceful shutdown (deploy/README.md, "Slow and idle
//! clients"). `axum::serve` has no header timeout, hence hyper directly.
//!
//! Every request carries `ConnectInfo<SocketAddr>` (the client's address),
//! as `into_make_service_with_connect_info` would give it.

use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{Request, StatusCode};
use axum::middleware::{self, Next};
use axum::response::Response;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::io::AsyncWriteExt;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tower::ServiceExt;
use tower_http::timeout::RequestBodyDeadlineLayer;

use super::{ErrorBody, ErrorKind};

/// How long a client may take, and how many may be connected at once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ServerLimits {
    /// From the first byte of a request (or an idle keep-alive connection's
    /// wait for its next request) to the end of its headers; then the
    /// connection is closed.
    pub header_timeout: Duration,
    /// From the end of the headers to the end of the body; then 408.
    pub body_timeout: Duration,
    /// From the end of the headers to the response; then 408.
    pub request_timeout: Duration,
    /// Open connections at once; one more is answered 503 and closed.
    pub max_connections: usize,
}

impl ServerLimits {
    pub const DEFAULT: ServerLimits = ServerLimits {
        header_timeout: Duration::from_secs(10),
        body_timeout: Duration::from_secs(30),
        request_timeout: Duration::from_secs(120),
        max_connections: 1024,
    };
}

impl Default for ServerLimits {
    fn default() -> Self {
        ServerLimits::DEFAULT
    }
}

/// Serves `app` on `listener` under `limits` until `shutdown` resolves,
/// then stops accepting and finishes the requests in flight.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ServerLimits,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> std::io::Result<()> {
    let request_timeout = limits.request_timeout;
    let app = app
        .layer(middleware::from_fn(move |req, next| {
            within(request_timeout, req, next)
        }))
        .layer(RequestBodyDeadlineLayer::new(limits.body_timeout));
    // Outermost: the request timeout's 408 carries them too.
    let app = super::headers::add(app);
    let mut http = hyper::server::conn::http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    let permits = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let graceful = GracefulShutdown::new();
    let mut shutdown = std::pin::pin!(shutdown);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    accept_error(e).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // As axum::serve: small answers go out at once, not held by Nagle.
        if let Err(e) = stream.set_nodelay(true) {
            tracing::debug!(client = %peer, error = %e, "cannot set TCP_NODELAY");
        }
        let Ok(permit) = permits.clone().try_acquire_owned() else {
            tokio::spawn(refuse(stream, peer, limits.max_connections));
            continue;
        };
        let app = app.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            req.extensions_mut().insert(ConnectInfo(peer));
            app.clone().oneshot(req)
        });
        let connection = graceful.watch(http.serve_connection(TokioIo::new(stream), service));
        tokio::spawn(async move {
            if let Err(e) = connection.await {
                // A header timeout, a client gone mid-request: the client's
                // problem, not the server's.
                tracing::debug!(client = %peer, error = %e, "connection ended");
            }
            drop(permit);
        });
    }
    drop(listener);
    graceful.shutdown().await;
    Ok(())
}

/// The request's answer within `limit`, else 408 in the API's JSON format.
async fn within(limit: Duration, req: axum::extract::Request, next: Next) -> Response {
    match tokio::time::timeout(limit, next.run(req)).await {
        Ok(response) => response,
        Err(_) => {
            let message = format!(
                "request: not answered within {} s (the server's request timeout)",
                limit.as_secs()
            );
            ErrorBody::new(ErrorKind::Timeout, message).with_status(StatusCode::REQUEST_TIMEOUT)
        }
    }
}

/// One connection too many: a 503 with a JSON body, then the connection is
/// closed (nothing of the request is read).
async fn refuse(mut stream: TcpStream, peer: SocketAddr, max: usize) {
    tracing::warn!(client = %peer, max_connections = max, "connection refused: too many open connections");
    let body = ErrorBody::new(
        ErrorKind::Unavailable,
        format!("connections: the server has its limit of {max} open; try again"),
    );
    let body = serde_json::to_string(&body).unwrap_or_default();
    let response = format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n\
         content-length: {}\r\nretry-after: 1\r\ncache-control: no-store\r\n\
         x-content-type-options: nosniff\r\ncontent-security-policy: {}\r\n\
         connection: close\r\n\r\n{body}",
        body.len(),
        super::headers::CONTENT_SECURITY_POLICY_VALUE
    );
    let write = async {
        stream.write_all(response.as_bytes()).await?;
        stream.shutdown().await
    };
    let _ = tokio::time::timeout(Duration::from_secs(5), write).await;
}

/// As `axum::serve`: a client that went away is nothing; anything else
/// (out of file descriptors) is logged and the loop pauses a second.
async fn accept_error(e: std::io::Error) {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    if matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset
    ) {
        return;
    }
    tracing::error!(error = %e, "accept error");
    tokio::time::sleep(Duration::from_secs(1)).await;
}
