//! JSON request bodies parsed by our own rules: errors are 422 with the
//! field path (`events[2].amount: …`), never axum's generic 400/415.

use axum::Json;
use axum::body::Bytes;
use axum::extract::rejection::{BytesRejection, QueryRejection};
use axum::extract::{FromRequest, Query, Request};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use utoipa::ToSchema;

use super::openapi::shape;
use super::{ApiError, ErrorBody, ErrorKind};
use crate::domain::common::field_error::AsFieldError;

/// Longest request body accepted on the JSON API.
pub const BODY_BYTES_MAX: usize = 256 * 1024;

/// The body as `T`, serde's refusal named at its path. A handler then
/// checks it ([`conforms`]) once its own reading of the body has passed.
pub fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    if body.len() > BODY_BYTES_MAX {
        return Err(ApiError::bad_input(
            "body",
            format!("{} bytes is more than {BODY_BYTES_MAX}", body.len()),
        ));
    }
    crate::domain::common::json::parse_with_path(body)
        .map_err(|e| ApiError::bad_input(e.path, e.message))
}

/// Refuses a body whose shape is not the contract's schema of `T` though
/// serde took it ([`shape::check`]: an array written for an object).
/// Called after the handler's own checks of the body, before it acts, so a
/// refusal the core words itself stays the core's.
pub fn conforms<T: ToSchema>(body: &Bytes) -> Result<(), ApiError> {
    shape::check(&T::name(), body)
}

/// A POST answered by a pure core function of its JSON body: the parse's
/// refusal or the core's is the API's 422, the answer its JSON.
pub fn core_answer<Q, R, E>(core: fn(&Q) -> Result<R, E>, body: &Body) -> Result<Json<R>, ApiError>
where
    Q: DeserializeOwned + ToSchema,
    E: AsFieldError + std::fmt::Display,
{
    let req: Q = parse(body)?;
    let answer = core(&req).map_err(|e| ApiError::refused(&e))?;
    conforms::<Q>(body)?;
    Ok(Json(answer))
}

/// A JSON route's request body, read under the one limit every JSON route
/// has ([`BODY_BYTES_MAX`], set for the whole router in `web::router`) and
/// the server's body timeout. Whatever goes wrong reading it is answered in
/// the API's JSON format: too long or unreadable is 422 `bad_input`
/// (`body: …`), not received in time is 408 `timeout` — never axum's plain
/// text. Derefs to the bytes, for [`parse`].
pub struct Body(pub Bytes);

impl std::ops::Deref for Body {
    type Target = Bytes;

    fn deref(&self) -> &Bytes {
        &self.0
    }
}

impl<S: Send + Sync> FromRequest<S> for Body {
    type Rejection = Response;

    async fn from_request(req: Request, state: &S) -> Result<Body, Response> {
        Bytes::from_request(req, state)
            .await
            .map(Body)
            .map_err(|e| body_rejection(&e, "body"))
    }
}

/// The JSON answer to a body that could not be read; `field` names it
/// (the message starts with it) (`body`, or `input` for the settle contract).
pub fn body_rejection(e: &BytesRejection, field: &str) -> Response {
    if is_timeout(e) {
        let message = format!("{field}: not received in time (the server's body timeout)");
        return ErrorBody::new(ErrorKind::Timeout, message)
            .with_status(StatusCode::REQUEST_TIMEOUT);
    }
    let message = if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        format!("the body is more than the limit of {BODY_BYTES_MAX} bytes")
    } else {
        e.body_text()
    };
    ApiError::bad_input(field, message).into_response()
}

/// Whether reading the body failed on the server's body timeout.
fn is_timeout(e: &BytesRejection) -> bool {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(err) = source {
        if err.is::<tower_http::timeout::TimeoutError>() {
            return true;
        }
        source = err.source();
    }
    false
}

/// A query string read by serde, its refusal in the API's words (422
/// `query`, as every other bad input), never axum's plain-text 400.
pub fn query<T>(q: Result<Query<T>, QueryRejection>) -> Result<T, ApiError> {
    q.map(|Query(t)| t).map_err(|e| {
        let text = e.body_text();
        let text = text
            .strip_prefix("Failed to deserialize query string: ")
            .unwrap_or(&text);
        ApiError::bad_input("query", text)
    })
}
