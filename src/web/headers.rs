//! Browser hardening headers on every response (tower-http's
//! `SetResponseHeaderLayer`): a Content-Security-Policy that allows only
//! this origin's stylesheet and images — no script, no inline style, no
//! framing, forms posting only here — and no MIME sniffing, no Referer, and
//! `Cache-Control: no-store` unless a route says otherwise (the stylesheet
//! may be cached). Added by the server loop (`server.rs`) around the whole
//! app, so its own answers (the request timeout's 408) carry them too. The pages need no inline script or style: keep it so
//! (tests/server/http_headers.rs checks every template).

use axum::Router;
use axum::http::HeaderValue;
use axum::http::header::{
    CACHE_CONTROL, CONTENT_SECURITY_POLICY, REFERRER_POLICY, X_CONTENT_TYPE_OPTIONS,
    X_FRAME_OPTIONS,
};
use tower_http::set_header::SetResponseHeaderLayer;

/// The policy of every response.
pub const CONTENT_SECURITY_POLICY_VALUE: &str = "default-src 'self'; base-uri 'none'; \
     form-action 'self'; frame-ancestors 'none'; object-src 'none'";

/// `router` with the headers on every response it gives.
pub fn add(router: Router) -> Router {
    let set =
        |name, value| SetResponseHeaderLayer::overriding(name, HeaderValue::from_static(value));
    router
        .layer(set(CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY_VALUE))
        .layer(set(X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(REFERRER_POLICY, "no-referrer"))
        // For browsers older than CSP's frame-ancestors.
        .layer(set(X_FRAME_OPTIONS, "DENY"))
        .layer(SetResponseHeaderLayer::if_not_present(
            CACHE_CONTROL,
            HeaderValue::from_static("no-store"),
        ))
}
