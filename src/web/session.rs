//! Who is asking: the session cookie, the `Staff` extractor, the CSRF
//! check every POST form goes through, and role checks.

use axum::Json;
use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use serde_json::json;

use super::{ApiError, AppState};
use crate::domain::staff::{Action, allows};
use crate::store::staff::{self, Session};

pub const SESSION_COOKIE: &str = "pitbook_session";
/// Carries the login form's CSRF token before there is a session.
pub const LOGIN_CSRF_COOKIE: &str = "pitbook_login_csrf";

/// The signed-in staff member. Pages without a live session redirect to
/// /login, `/api/…` answers 401; while a password change is due, pages
/// other than /password and /logout redirect to /password.
pub struct Staff(pub Session);

impl FromRequestParts<AppState> for Staff {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Staff, Response> {
        let path = parts.uri.path();
        let api = path.starts_with("/api/");
        let session = match cookie(&parts.headers, SESSION_COOKIE) {
            Some(id) => staff::session(&state.db, &id)
                .await
                .map_err(|e| ApiError::from(e).into_response())?,
            None => None,
        };
        let Some(session) = session else {
            return Err(if api {
                let body = json!({"error": "unauthenticated", "message": "sign in first: no live session"});
                (StatusCode::UNAUTHORIZED, Json(body)).into_response()
            } else {
                Redirect::to("/login").into_response()
            });
        };
        if session.user.must_change_password && !matches!(path, "/password" | "/logout") {
            return Err(if api {
                let body = json!({"error": "password_change_required",
                    "message": "change the one-time password at /password first"});
                (StatusCode::FORBIDDEN, Json(body)).into_response()
            } else {
                Redirect::to("/password").into_response()
            });
        }
        Ok(Staff(session))
    }
}

impl Staff {
    /// Refuses (403, recorded as `permission_denied`) unless the role allows `action`.
    pub async fn require(
        &self,
        state: &AppState,
        action: Action,
        path: &str,
    ) -> Result<(), Response> {
        if allows(self.0.user.role, action) {
            return Ok(());
        }
        let what = format!("{action:?}");
        staff::permission_denied(&state.db, &state.audit_key, &self.0.user, &what, path)
            .await
            .map_err(|e| ApiError::from(e).into_response())?;
        let message = format!("the {} role may not do this", self.0.user.role);
        Err(forbidden(&message))
    }

    /// The CSRF check of a POST form: `sent` must be the session's token.
    pub fn check_csrf(&self, sent: &str) -> Result<(), CsrfRefused> {
        check_token(&self.0.csrf_token, sent)
    }
}

/// A POST form without the right CSRF token: 403, nothing changed.
#[derive(Debug)]
pub struct CsrfRefused;

impl IntoResponse for CsrfRefused {
    fn into_response(self) -> Response {
        forbidden(
            "the form's security token is missing or out of date: reload the page and try again",
        )
    }
}

impl From<CsrfRefused> for Response {
    fn from(refused: CsrfRefused) -> Response {
        refused.into_response()
    }
}

/// Refused unless `sent` equals `expected` (compared in constant time).
pub fn check_token(expected: &str, sent: &str) -> Result<(), CsrfRefused> {
    let same = expected.len() == sent.len()
        && !expected.is_empty()
        && expected
            .bytes()
            .zip(sent.bytes())
            .fold(0u8, |acc, (a, b)| acc | (a ^ b))
            == 0;
    if same { Ok(()) } else { Err(CsrfRefused) }
}

pub fn forbidden(message: &str) -> Response {
    let page = super::staff::Forbidden { message };
    match askama::Template::render(&page) {
        Ok(html) => (StatusCode::FORBIDDEN, Html(html)).into_response(),
        Err(e) => ApiError::internal(e).into_response(),
    }
}

/// The value of a cookie in the request's `Cookie` headers.
pub fn cookie(headers: &HeaderMap, name: &str) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// Whether cookies get `Secure`: the request came over TLS (as told by a
/// TLS-terminating proxy) or `PITBOOK_SECURE_COOKIES=1`.
fn secure(headers: &HeaderMap) -> bool {
    let forced = std::env::var("PITBOOK_SECURE_COOKIES").is_ok_and(|v| v == "1");
    let proxied_tls = headers
        .get("x-forwarded-proto")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.eq_ignore_ascii_case("https"));
    forced || proxied_tls
}

/// A `Set-Cookie` value: HttpOnly, SameSite=Strict, Path=/ (Secure when
/// due); `max_age` 0 deletes the cookie, None lasts the browser session.
pub fn set_cookie(headers: &HeaderMap, name: &str, value: &str, max_age: Option<i64>) -> String {
    let mut c = format!("{name}={value}; HttpOnly; SameSite=Strict; Path=/");
    if let Some(age) = max_age {
        c.push_str(&format!("; Max-Age={age}"));
    }
    if secure(headers) {
        c.push_str("; Secure");
    }
    c
}
