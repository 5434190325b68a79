//! Who is asking: the session cookie, the `Staff` extractor, the CSRF
//! check every POST form goes through, and role checks.

use axum::extract::{FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{HeaderMap, Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{Html, IntoResponse, Redirect, Response};

use std::net::IpAddr;

use hmac::Mac;

use crate::domain::common::audit::AuditKey;
use crate::domain::staff::{Action, allows};
use crate::store::StoreError;
use crate::store::staff::{self, Session};
use crate::web::{ApiError, AppState, ErrorBody, ErrorKind};

pub const SESSION_COOKIE: &str = "pitbook_session";
/// Carries the login form's CSRF token before there is a session.
pub const LOGIN_CSRF_COOKIE: &str = "pitbook_login_csrf";
/// How long a login form's CSRF value stays good after `GET /login`.
pub const LOGIN_CSRF_TTL_SECS: i64 = 2 * 60 * 60;

/// A login form's CSRF value, issued by the server: 8 bytes of issue time
/// (Unix seconds), 8 random bytes and the first 16 bytes of an HMAC over
/// both (keyed by a secret derived from the audit key, so every instance
/// accepts the others' values), as 64 hex digits.
pub fn issue_login_csrf(key: &AuditKey) -> Result<String, StoreError> {
    let mut nonce = [0u8; 8];
    getrandom::fill(&mut nonce).map_err(|e| StoreError::Internal(format!("no randomness: {e}")))?;
    Ok(login_csrf_at(key, chrono::Utc::now().timestamp(), nonce))
}

fn login_csrf_at(key: &AuditKey, issued: i64, nonce: [u8; 8]) -> String {
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&issued.to_be_bytes());
    bytes[8..16].copy_from_slice(&nonce);
    let mut mac = key.derived_mac("login csrf");
    mac.update(&bytes[..16]);
    bytes[16..].copy_from_slice(&mac.finalize().into_bytes()[..16]);
    hex::encode(bytes)
}

/// The login form's check: the field equals the cookie, and is a value this
/// server (or one sharing its audit key) issued within [`LOGIN_CSRF_TTL_SECS`].
pub fn check_login_csrf(key: &AuditKey, cookie: &str, sent: &str) -> Result<(), CsrfRefused> {
    check_token(cookie, sent)?;
    login_csrf_valid_at(key, sent, chrono::Utc::now().timestamp())
}

fn login_csrf_valid_at(key: &AuditKey, sent: &str, now: i64) -> Result<(), CsrfRefused> {
    let bytes = hex::decode(sent).map_err(|_| CsrfRefused)?;
    if bytes.len() != 32 {
        return Err(CsrfRefused);
    }
    let mut mac = key.derived_mac("login csrf");
    mac.update(&bytes[..16]);
    mac.verify_truncated_left(&bytes[16..])
        .map_err(|_| CsrfRefused)?;
    let issued = i64::from_be_bytes(bytes[..8].try_into().map_err(|_| CsrfRefused)?);
    // A minute of clock difference between instances is allowed.
    if issued > now + 60 || now - issued > LOGIN_CSRF_TTL_SECS {
        return Err(CsrfRefused);
    }
    Ok(())
}

/// The signed-in staff member. Pages without a live session redirect to
/// /login, `/api/…` answers 401; while a password change is due, pages
/// other than /password and /logout redirect to /password.
///
/// On `/api/…` paths an `Authorization: Bearer pbk_…` API token also signs
/// in (and wins over a cookie): an unknown or revoked token, or one whose
/// account is disabled, is 401. A token-authenticated request needs no CSRF
/// token. A cookie-authenticated API request other than GET/HEAD must send
/// `Content-Type: application/json` (415 otherwise): with the SameSite=Strict
/// cookie this keeps another site's form from posting to the API.
pub struct Staff(pub Session, pub Asked);

/// What a signed-in page is drawn for: the path asked for (its section in
/// the navigation bar) and the cardroom's time zone (its times).
pub struct Asked {
    pub path: String,
    pub zone: chrono_tz::Tz,
}

impl FromRequestParts<AppState> for Staff {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Staff, Response> {
        let path = parts.uri.path();
        let api = path.starts_with("/api/");
        let session = match api.then(|| bearer_token(&parts.headers)).flatten() {
            Some(Err(message)) => return Err(unauthenticated(message)),
            Some(Ok(token)) => match staff::token_user(&state.db, token)
                .await
                .map_err(|e| ApiError::from(e).into_response())?
            {
                Some((token_id, user)) => Some(Session {
                    id_hash: String::new(),
                    user,
                    csrf_token: String::new(),
                    token_id: Some(token_id),
                }),
                None => {
                    return Err(unauthenticated(
                        "authorization: the API token is unknown or revoked, or its account is disabled",
                    ));
                }
            },
            None => match cookie(&parts.headers, SESSION_COOKIE) {
                Some(id) => staff::session(&state.db, &id)
                    .await
                    .map_err(|e| ApiError::from(e).into_response())?,
                None => None,
            },
        };
        let Some(session) = session else {
            return Err(if api {
                unauthenticated("sign in first: no live session and no API token")
            } else {
                Redirect::to("/login").into_response()
            });
        };
        if api
            && session.token_id.is_none()
            && !matches!(parts.method, Method::GET | Method::HEAD)
            && !is_json(&parts.headers)
        {
            let sent = parts
                .headers
                .get(header::CONTENT_TYPE)
                .map(|v| String::from_utf8_lossy(v.as_bytes()).into_owned())
                .unwrap_or_default();
            let message = format!(
                "content-type: \"{sent}\" is not application/json (required with a session cookie)"
            );
            return Err(ErrorBody::new(ErrorKind::UnsupportedMediaType, message)
                .with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE));
        }
        if session.user.must_change_password && !matches!(path, "/password" | "/logout") {
            return Err(if api {
                ErrorBody::new(
                    ErrorKind::PasswordChangeRequired,
                    "change the one-time password at /password first",
                )
                .with_status(StatusCode::FORBIDDEN)
            } else {
                Redirect::to("/password").into_response()
            });
        }
        let asked = Asked {
            path: path.to_string(),
            zone: state.time_zone,
        };
        Ok(Staff(session, asked))
    }
}

/// 401 with `{"error": "unauthenticated", "message": …}`.
fn unauthenticated(message: &str) -> Response {
    ErrorBody::new(ErrorKind::Unauthenticated, message).with_status(StatusCode::UNAUTHORIZED)
}

/// The token of an `Authorization: Bearer …` header: None without the
/// header, an error for any other scheme or an unreadable value.
fn bearer_token(headers: &HeaderMap) -> Option<Result<&str, &'static str>> {
    let value = headers.get(header::AUTHORIZATION)?;
    let Ok(text) = value.to_str() else {
        return Some(Err("authorization: the header is not readable text"));
    };
    Some(match text.split_once(' ') {
        Some((scheme, token)) if scheme.eq_ignore_ascii_case("bearer") => Ok(token.trim()),
        _ => Err("authorization: only \"Bearer <token>\" is accepted"),
    })
}

/// Whether the request says its body is JSON (`application/json`, any parameters).
fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
}

/// Middleware for the compute-only API routes (rules, settle, dice games,
/// tripoley): a signed-in staff member (session or token) with `Read`.
pub async fn require_reader(
    State(state): State<AppState>,
    staff: Staff,
    request: Request,
    next: Next,
) -> Response {
    if let Err(refused) = staff
        .require(&state, Action::Read, request.uri().path())
        .await
    {
        return refused;
    }
    next.run(request).await
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
        if path.starts_with("/api/") {
            return Err(
                ErrorBody::new(ErrorKind::Forbidden, message).with_status(StatusCode::FORBIDDEN)
            );
        }
        Err(forbidden(&message))
    }

    /// [`Staff::require`] for the path this request asked for.
    pub async fn require_here(&self, state: &AppState, action: Action) -> Result<(), Response> {
        self.require(state, action, &self.1.path).await
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
    let page = super::Forbidden { message };
    match askama::Template::render(&page) {
        Ok(html) => (StatusCode::FORBIDDEN, Html(html)).into_response(),
        Err(e) => ApiError::internal(e).into_response(),
    }
}

/// The client's address: the peer's, or — when the peer is a trusted
/// reverse proxy — the rightmost `X-Forwarded-For` address that is not
/// itself a trusted proxy (the leftmost ones are the client's to make up).
pub fn client_address(trusted: &[IpAddr], peer: IpAddr, headers: &HeaderMap) -> IpAddr {
    let peer = peer.to_canonical();
    if !trusted.contains(&peer) {
        return peer;
    }
    let forwarded: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(str::trim)
        .collect();
    let mut client = peer;
    for hop in forwarded.iter().rev() {
        let Some(address) = hop
            .parse::<IpAddr>()
            .ok()
            .or_else(|| hop.parse::<std::net::SocketAddr>().ok().map(|s| s.ip()))
        else {
            break;
        };
        client = address.to_canonical();
        if !trusted.contains(&client) {
            break;
        }
    }
    client
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

#[cfg(test)]
mod tests {
    use super::*;

    fn key() -> AuditKey {
        AuditKey::from_bytes(&[7u8; 32]).expect("key")
    }

    #[test]
    fn the_client_address_comes_from_a_trusted_proxy_only() {
        let ip = |t: &str| t.parse::<IpAddr>().expect("ip");
        let mut headers = HeaderMap::new();
        headers.append(
            "x-forwarded-for",
            "6.6.6.6, 203.0.113.5".parse().expect("h"),
        );
        headers.append("x-forwarded-for", "10.0.0.2".parse().expect("h"));
        let proxies = [ip("10.0.0.1"), ip("10.0.0.2")];
        // Not from the proxy: the peer, whatever the header says.
        assert_eq!(
            client_address(&proxies, ip("192.0.2.7"), &headers),
            ip("192.0.2.7")
        );
        assert_eq!(
            client_address(&[], ip("10.0.0.1"), &headers),
            ip("10.0.0.1")
        );
        // From it: the rightmost hop that is not a proxy (6.6.6.6 is made up).
        assert_eq!(
            client_address(&proxies, ip("10.0.0.1"), &headers),
            ip("203.0.113.5")
        );
        let mut bad = HeaderMap::new();
        bad.append("x-forwarded-for", "junk".parse().expect("h"));
        assert_eq!(
            client_address(&proxies, ip("10.0.0.1"), &bad),
            ip("10.0.0.1")
        );
        assert_eq!(
            client_address(&proxies, ip("::ffff:10.0.0.1"), &HeaderMap::new()),
            ip("10.0.0.1")
        );
    }

    #[test]
    fn a_login_csrf_value_is_good_only_as_issued_and_until_it_expires() {
        let key = key();
        let t = 1_800_000_000;
        let issued = login_csrf_at(&key, t, [1, 2, 3, 4, 5, 6, 7, 8]);
        assert_eq!(issued.len(), 64);
        assert!(login_csrf_valid_at(&key, &issued, t).is_ok());
        assert!(login_csrf_valid_at(&key, &issued, t + LOGIN_CSRF_TTL_SECS).is_ok());
        assert!(login_csrf_valid_at(&key, &issued, t + LOGIN_CSRF_TTL_SECS + 1).is_err());
        assert!(
            login_csrf_valid_at(&key, &issued, t - 61).is_err(),
            "from the future"
        );
        // Another key's value, an edited time or nonce, a made-up value: refused.
        let other = AuditKey::from_bytes(&[8u8; 32]).expect("key");
        assert!(login_csrf_valid_at(&other, &issued, t).is_err());
        let mut edited = issued.clone().into_bytes();
        edited[15] = if edited[15] == b'0' { b'1' } else { b'0' };
        let edited = String::from_utf8(edited).expect("hex");
        assert!(login_csrf_valid_at(&key, &edited, t).is_err());
        assert!(login_csrf_valid_at(&key, &"ab".repeat(32), t).is_err());
        assert!(login_csrf_valid_at(&key, "not hex", t).is_err());
        assert!(check_login_csrf(&key, &issued, "").is_err());
    }
}
