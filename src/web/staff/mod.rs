//! Staff pages: sign in and out, change password, the account list. Every POST form is CSRF-checked; a form
//! that fails is shown again with what was typed (never a password) and
//! the message beside its field.

pub mod session;
mod users;

use crate::web::PageResult;
use askama::Template;
use std::net::SocketAddr;

use axum::extract::{ConnectInfo, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Form, Json, Router};
use serde::Deserialize;

use crate::store::staff::{self as store, AccountError, LoginError};
use crate::web::{ApiError, AppState, CsrfForm, NoFields, PageContext};
use session::{
    LOGIN_CSRF_COOKIE, SESSION_COOKIE, Staff, check_login_csrf, client_address, cookie,
    issue_login_csrf, set_cookie,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/login", get(login_page).post(login))
        .route("/logout", axum::routing::post(logout))
        .route("/password", get(password_page).post(change_password))
        .merge(users::router())
        .route("/api/v1/me", get(me))
}

pub(super) fn page(t: &impl Template) -> Response {
    match t.render() {
        Ok(html) => Html(html).into_response(),
        Err(e) => ApiError::internal(e).into_response(),
    }
}

#[derive(Template)]
#[template(path = "layout/forbidden.html")]
pub struct Forbidden<'a> {
    pub message: &'a str,
}

#[derive(Template, Default)]
#[template(path = "staff/login.html")]
struct LoginPage {
    csrf: String,
    username: String,
    username_error: Option<String>,
    password_error: Option<String>,
}

#[derive(Deserialize)]
struct LoginForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

/// The login form, with a fresh pre-session CSRF token in a cookie.
async fn login_page(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, ApiError> {
    let csrf = issue_login_csrf(&state.audit_key)?;
    let cookie = set_cookie(&headers, LOGIN_CSRF_COOKIE, &csrf, None);
    let body = page(&LoginPage {
        csrf,
        ..LoginPage::default()
    });
    Ok(([(header::SET_COOKIE, cookie)], body).into_response())
}

async fn login(
    State(state): State<AppState>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    Form(form): Form<LoginForm>,
) -> PageResult {
    let address = client_address(&state.trusted_proxies, peer.ip(), &headers);
    let expected = cookie(&headers, LOGIN_CSRF_COOKIE).unwrap_or_default();
    check_login_csrf(&state.audit_key, &expected, &form.csrf)
        .map_err(IntoResponse::into_response)?;
    let username = form.username.trim().to_string();
    let mut again = LoginPage {
        csrf: form.csrf.clone(),
        username: username.clone(),
        ..LoginPage::default()
    };
    if username.is_empty() {
        again.username_error = Some("enter your user name".into());
        return Ok(page(&again));
    }
    if form.password.is_empty() {
        again.password_error = Some("enter your password".into());
        return Ok(page(&again));
    }
    match store::login(
        &state.db,
        &state.audit_key,
        &state.login_guard,
        &username,
        &form.password,
        address,
    )
    .await
    {
        Ok((session_id, user)) => {
            let next = if user.must_change_password {
                "/password"
            } else {
                "/"
            };
            let set = [
                set_cookie(&headers, SESSION_COOKIE, &session_id, None),
                set_cookie(&headers, LOGIN_CSRF_COOKIE, "", Some(0)),
            ];
            let mut response = Redirect::to(next).into_response();
            for c in set {
                let value = c
                    .parse()
                    .map_err(|e| ApiError::internal(e).into_response())?;
                response.headers_mut().append(header::SET_COOKIE, value);
            }
            Ok(response)
        }
        Err(e @ LoginError::Throttled { retry_after_secs }) => {
            again.username_error = Some(e.to_string());
            let retry = retry_after_secs.to_string();
            Ok((
                StatusCode::TOO_MANY_REQUESTS,
                [(header::RETRY_AFTER, retry)],
                page(&again),
            )
                .into_response())
        }
        Err(e @ LoginError::BadCredentials) => {
            again.password_error = Some(e.to_string());
            Ok(page(&again))
        }
        Err(LoginError::Store(e)) => Err(ApiError::from(e).into()),
    }
}

async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    CsrfForm(staff, NoFields {}): CsrfForm<NoFields>,
) -> PageResult {
    store::logout(&state.db, &state.audit_key, &staff.0)
        .await
        .map_err(|e| ApiError::from(e).into_response())?;
    let gone = set_cookie(&headers, SESSION_COOKIE, "", Some(0));
    Ok(([(header::SET_COOKIE, gone)], Redirect::to("/login")).into_response())
}

#[derive(Template)]
#[template(path = "staff/password.html")]
struct PasswordPage {
    ctx: PageContext,
    forced: bool,
    current_error: Option<String>,
    new_error: Option<String>,
    confirm_error: Option<String>,
}

impl PasswordPage {
    fn for_staff(staff: &Staff) -> PasswordPage {
        PasswordPage {
            ctx: PageContext::of(staff),
            forced: staff.0.user.must_change_password,
            current_error: None,
            new_error: None,
            confirm_error: None,
        }
    }
}

#[derive(Deserialize)]
struct PasswordForm {
    #[serde(default)]
    current: String,
    #[serde(default)]
    new: String,
    #[serde(default)]
    confirm: String,
}

async fn password_page(staff: Staff) -> Response {
    page(&PasswordPage::for_staff(&staff))
}

async fn change_password(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<PasswordForm>,
) -> PageResult {
    let mut again = PasswordPage::for_staff(&staff);
    if form.new != form.confirm {
        again.confirm_error = Some("the two new passwords differ".into());
        return Ok(page(&again));
    }
    match store::change_password(
        &state.db,
        &state.audit_key,
        &staff.0,
        &form.current,
        &form.new,
    )
    .await
    {
        // Home says how many other sessions ended (when any did).
        Ok(0) => Ok(Redirect::to("/").into_response()),
        Ok(ended) => Ok(Redirect::to(&format!("/?signed_out={ended}")).into_response()),
        Err(AccountError::Invalid(e)) => {
            let message = Some(e.message().to_string());
            match e.field() {
                "current" => again.current_error = message,
                _ => again.new_error = message,
            }
            Ok(page(&again))
        }
        Err(AccountError::Store(e)) => Err(ApiError::from(e).into()),
    }
}

/// Who is signed in.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub(super) struct Me {
    /// admin, supervisor, dealer, auditor or trainee.
    role: &'static str,
    username: String,
}

/// The signed-in user, for API clients.
#[utoipa::path(get, path = "/api/v1/me", operation_id = "me", tag = "staff",
    responses(
        (status = 200, description = "Who is signed in, and their role.", body = Me,
            example = json!({"username": "dana", "role": "dealer"})),
    ))]
pub(super) async fn me(staff: Staff) -> Json<Me> {
    let user = &staff.0.user;
    Json(Me {
        role: user.role.as_str(),
        username: user.username.clone(),
    })
}
