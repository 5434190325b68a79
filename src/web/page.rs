//! Page scaffolding, once: the [`PageContext`] every signed-in page renders
//! its header and form heads from, and [`CsrfForm`], the extractor of every
//! POST form of a signed-in page, which refuses a form without the session's
//! CSRF token before the handler runs; [`PagePost`] and [`AtPath`], the heads
//! of the handlers about one thing named in the path.

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, FromRequestParts, Path, Request};
use axum::http::request::Parts;
use axum::response::{IntoResponse, Response};
use axum::{Form, http};
use serde::de::DeserializeOwned;

use super::nav::NavLink;
use super::{AppState, Staff};

/// What every signed-in page shows and posts: the user, the role, and the
/// CSRF token of the session (`layout/macros.html`'s `form_head`).
#[derive(Debug, Clone, Default)]
pub struct PageContext {
    pub username: String,
    pub role: &'static str,
    pub csrf: String,
    /// The navigation bar: the role's sections, the page's marked.
    pub nav: Vec<NavLink>,
    /// The cardroom's clock, for [`Self::time`].
    pub zone: chrono_tz::Tz,
}

impl PageContext {
    pub fn of(staff: &Staff) -> PageContext {
        let user = &staff.0.user;
        PageContext {
            username: user.username.clone(),
            role: user.role.as_str(),
            csrf: staff.0.csrf_token.clone(),
            nav: super::nav::links(user.role, &staff.1.path),
            zone: staff.1.zone,
        }
    }

    /// A recorded time (RFC 3339 UTC, as stored) on the cardroom's clock,
    /// to the second: `2026-12-06 14:02:11 PST`.
    pub fn time(&self, recorded: &str) -> String {
        super::time::when(self.zone, recorded).local
    }
}

/// A POST form of a signed-in page: the staff member (as [`Staff`]) and the
/// form as `T`, extracted only when the form's `csrf` field is the session's
/// token (403 otherwise, nothing changed). Rejections come in the order the
/// handlers had them: not signed in, then a body that is not the form, then
/// the token.
pub struct CsrfForm<T>(pub Staff, pub T);

impl<T: DeserializeOwned + Send> FromRequest<AppState> for CsrfForm<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Response> {
        let (mut parts, body) = req.into_parts();
        let staff = Staff::from_request_parts(&mut parts, state).await?;
        let (method, headers) = (parts.method.clone(), parts.headers.clone());
        let bytes = Bytes::from_request(Request::from_parts(parts, body), state)
            .await
            .map_err(IntoResponse::into_response)?;
        let again = |bytes: Bytes| {
            let mut req = http::Request::new(Body::from(bytes));
            *req.method_mut() = method.clone();
            *req.headers_mut() = headers.clone();
            req
        };
        let Form(form) = Form::<T>::from_request(again(bytes.clone()), state)
            .await
            .map_err(IntoResponse::into_response)?;
        let Form(pairs) = Form::<Vec<(String, String)>>::from_request(again(bytes), state)
            .await
            .map_err(IntoResponse::into_response)?;
        let sent = pairs
            .iter()
            .find(|(k, _)| k == "csrf")
            .map_or("", |(_, v)| v.as_str());
        staff.check_csrf(sent)?;
        Ok(CsrfForm(staff, form))
    }
}

/// A [`CsrfForm`] posted to the page of one thing named in the path (a
/// table, a hand, a game, an account): the state, the path's one segment,
/// who posted and the form. Named fields, so a handler can't swap two by
/// position. Extracted in the order the handlers had: the path, then the
/// form.
pub struct PagePost<T> {
    pub state: AppState,
    /// The path's one segment: the table, hand, game or account.
    pub id: String,
    pub staff: Staff,
    pub form: T,
}

impl<T: DeserializeOwned + Send> FromRequest<AppState> for PagePost<T> {
    type Rejection = Response;

    async fn from_request(req: Request, state: &AppState) -> Result<Self, Response> {
        let (mut parts, body) = req.into_parts();
        let Path(id) = Path::<String>::from_request_parts(&mut parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        let CsrfForm(staff, form) =
            CsrfForm::from_request(Request::from_parts(parts, body), state).await?;
        Ok(PagePost {
            state: state.clone(),
            id,
            staff,
            form,
        })
    }
}

/// A signed-in request about one thing named in the path (a table, a hand,
/// an account): the state, who asks and the path's one segment, extracted
/// in that order (named fields, as `PagePost`).
pub struct AtPath {
    pub state: AppState,
    pub staff: Staff,
    /// The path's one segment: the table, hand or account.
    pub id: String,
}

impl FromRequestParts<AppState> for AtPath {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Response> {
        let staff = Staff::from_request_parts(parts, state).await?;
        let Path(id) = Path::<String>::from_request_parts(parts, state)
            .await
            .map_err(IntoResponse::into_response)?;
        Ok(AtPath {
            state: state.clone(),
            staff,
            id,
        })
    }
}

/// The form of a button that sends nothing but its CSRF token.
#[derive(serde::Deserialize)]
pub struct NoFields {}

/// What a refused form had typed, shown again: `typed.value_or("chips",
/// "50")` and `typed.checked("backline")` in a template.
pub trait Typed {
    /// The value typed into `name`, or `default`.
    fn value_or(&self, name: &str, default: &str) -> String;
    /// Whether a checkbox `name` was ticked (sent with any value).
    fn checked(&self, name: &str) -> bool {
        !self.value_or(name, "").is_empty()
    }
}

impl Typed for [(String, String)] {
    fn value_or(&self, name: &str, default: &str) -> String {
        self.iter()
            .find(|(k, _)| k == name)
            .map_or(default.to_string(), |(_, v)| v.clone())
    }
}
