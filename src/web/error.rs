//! The web layer's error: bad input is 422 with a JSON body naming the field
//! and value; internal errors are logged with detail and shown without it.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::common::field_error::{AsFieldError, FieldError};
use crate::domain::training::progress::SignOffRefusal;
use crate::domain::training::run::Refusal;
use crate::store::double_hand_poker::hands::CommandError;
use crate::store::training::TrainingError;
use crate::store::write_error::WriteError;

/// Every JSON error's body (the API's, the sign-in check's, the server's
/// limits'): one type, so every refusal has the one shape the API contract
/// calls `Error`.
// Its fields are in alphabetical order: the bytes the `json!` bodies sent
// before it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = Error)]
pub struct ErrorBody {
    pub error: ErrorKind,
    /// Bad input (422): the field path, e.g. `events[2].amount`, `body`,
    /// `query`. Absent when the refusal names no field.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<String>,
    /// What is wrong, for a person; for bad input it starts with the field
    /// path (`events[2].amount: …`).
    pub message: String,
    /// Bad input: the value given, as given, when the refusal knows it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub value: Option<String>,
}

/// What kind of refusal an [`ErrorBody`] is; each goes with one status.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ErrorKind {
    /// 422: input that can never succeed as sent.
    BadInput,
    /// 409: input that conflicts with the current state.
    Conflict,
    /// 404.
    NotFound,
    /// 403: the role may not do this.
    Forbidden,
    /// 403: the account's one-time password must be changed first.
    PasswordChangeRequired,
    /// 401: no live session and no valid API token.
    Unauthenticated,
    /// 415: a session-cookie request with a body that is not JSON.
    UnsupportedMediaType,
    /// 408: the body or the answer took longer than the server's limit.
    Timeout,
    /// 503: the server has its limit of open connections.
    Unavailable,
    /// 500: a bug or an outage (the detail is in the server log).
    Internal,
}

impl ErrorBody {
    /// A refusal with no field.
    pub fn new(error: ErrorKind, message: impl Into<String>) -> ErrorBody {
        ErrorBody {
            error,
            message: message.into(),
            field: None,
            value: None,
        }
    }

    /// This body sent with `status`.
    pub fn with_status(self, status: StatusCode) -> Response {
        (status, Json(self)).into_response()
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// Input that can never succeed as sent (HTTP 422): the body names the
    /// field, and the value when it is known.
    #[error("{0}")]
    BadInput(FieldError),
    /// Bad input that names no field (HTTP 422 without `field`): a
    /// settlement an event carries that differs from the recomputed one.
    #[error("{0}")]
    Refused(String),
    /// Input that conflicts with the current state (HTTP 409).
    #[error("{0}")]
    Conflict(String),
    #[error("{0}")]
    NotFound(String),
    /// Someone else's to do (HTTP 403): another trainee's drill, one's own
    /// sign-off.
    #[error("{0}")]
    Forbidden(String),
    /// A bug or an outage: logged in full, shown as a generic message.
    #[error("internal error: {0}")]
    Internal(String),
}

impl ApiError {
    pub fn internal(detail: impl std::fmt::Display) -> ApiError {
        ApiError::Internal(detail.to_string())
    }

    /// Bad input in `field`: `message` says what is wrong with the value.
    pub fn bad_input(field: impl Into<String>, message: impl Into<String>) -> ApiError {
        ApiError::BadInput(FieldError::new(field, message))
    }

    /// A core error already known to be bad input, with its field.
    pub fn refused<E: AsFieldError + std::fmt::Display>(e: &E) -> ApiError {
        match e.field_error() {
            Some(fe) => ApiError::BadInput(fe),
            None => ApiError::Refused(e.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, kind, message) = match self {
            ApiError::BadInput(fe) => return bad_input_response(&fe),
            ApiError::Refused(m) => (StatusCode::UNPROCESSABLE_ENTITY, ErrorKind::BadInput, m),
            ApiError::Conflict(m) => (StatusCode::CONFLICT, ErrorKind::Conflict, m),
            ApiError::NotFound(m) => (StatusCode::NOT_FOUND, ErrorKind::NotFound, m),
            ApiError::Forbidden(m) => (StatusCode::FORBIDDEN, ErrorKind::Forbidden, m),
            ApiError::Internal(detail) => {
                tracing::error!(error = %detail, "internal error");
                (
                    StatusCode::INTERNAL_SERVER_ERROR,
                    ErrorKind::Internal,
                    "internal error; the details are in the server log".to_string(),
                )
            }
        };
        ErrorBody::new(kind, message).with_status(status)
    }
}

/// 422 `bad_input`: the message as the core words it, with its field and,
/// when known, the value given.
fn bad_input_response(fe: &FieldError) -> Response {
    ErrorBody {
        error: ErrorKind::BadInput,
        message: fe.to_string(),
        field: Some(fe.field().to_string()),
        value: fe.value().map(str::to_string),
    }
    .with_status(StatusCode::UNPROCESSABLE_ENTITY)
}

/// A page's internal error: logged in full, answered with the generic 500.
pub fn internal(e: impl std::fmt::Display) -> Response {
    ApiError::internal(e).into_response()
}

/// What every page handler returns: its page, or the answer it gives
/// instead.
pub type PageResult = Result<Response, PageError>;

/// A page handler's failure, one type for every page: an answer already
/// made (a refused form shown again with 422, the sign-in, a 403 or 404),
/// or a bug or an outage, which `?` turns into the logged generic 500 so no
/// handler maps the store's errors by hand.
#[derive(Debug)]
pub enum PageError {
    Answer(Response),
    Internal(String),
}

impl PageError {
    /// A bug or an outage, with the detail for the log.
    pub fn internal(detail: impl std::fmt::Display) -> PageError {
        PageError::Internal(detail.to_string())
    }
}

impl IntoResponse for PageError {
    fn into_response(self) -> Response {
        match self {
            PageError::Answer(r) => r,
            PageError::Internal(detail) => internal(detail),
        }
    }
}

/// For the JSON routes that share a page's helpers (the role check, the
/// table lookup): the same answer.
impl From<PageError> for Response {
    fn from(e: PageError) -> Self {
        e.into_response()
    }
}

impl From<Response> for PageError {
    fn from(r: Response) -> Self {
        PageError::Answer(r)
    }
}

impl From<Box<Response>> for PageError {
    fn from(r: Box<Response>) -> Self {
        PageError::Answer(*r)
    }
}

impl From<ApiError> for PageError {
    fn from(e: ApiError) -> Self {
        PageError::Answer(e.into_response())
    }
}

/// The errors a page can only report as internal.
macro_rules! internal_page_errors {
    ($($t:ty),*) => {$(
        impl From<$t> for PageError {
            fn from(e: $t) -> Self {
                PageError::Internal(e.to_string())
            }
        }
    )*};
}
internal_page_errors!(crate::store::StoreError, askama::Error, serde_json::Error);

/// The hand store's refusals as HTTP: 409 for a conflict with the hand's
/// state (a stale version, an event the phase does not allow), 500 for the
/// store or a hand error that is not bad input, 422 for the rest.
pub fn command_status(e: &CommandError) -> StatusCode {
    match e {
        CommandError::Stale { .. } | CommandError::NoShift(_) | CommandError::RotationClock(_) => {
            StatusCode::CONFLICT
        }
        CommandError::Hand(h) if h.is_state_conflict() => StatusCode::CONFLICT,
        CommandError::Hand(h) if !h.is_bad_input() => StatusCode::INTERNAL_SERVER_ERROR,
        CommandError::Store(_) => StatusCode::INTERNAL_SERVER_ERROR,
        _ => StatusCode::UNPROCESSABLE_ENTITY,
    }
}

impl From<CommandError> for ApiError {
    fn from(e: CommandError) -> Self {
        match command_status(&e) {
            StatusCode::CONFLICT => ApiError::Conflict(e.to_string()),
            StatusCode::UNPROCESSABLE_ENTITY => ApiError::refused(&e),
            _ => ApiError::internal(e),
        }
    }
}

impl From<crate::store::StoreError> for ApiError {
    fn from(e: crate::store::StoreError) -> Self {
        ApiError::internal(e)
    }
}

impl From<WriteError> for ApiError {
    fn from(e: WriteError) -> Self {
        match e {
            WriteError::Invalid(fe) => ApiError::BadInput(fe),
            WriteError::Store(e) => ApiError::from(e),
        }
    }
}

/// Training's refusals: 403 for another's drill or one's own sign-off, 404
/// for none, 409 for the run's or the trainee's state, 422 for an answer
/// in the wrong shape.
impl From<crate::store::shifts::ShiftError> for ApiError {
    fn from(e: crate::store::shifts::ShiftError) -> Self {
        use crate::domain::shifts::ShiftRefusal;
        use crate::store::shifts::ShiftError;
        match e {
            ShiftError::Refused(ShiftRefusal::Invalid(fe)) => ApiError::BadInput(fe),
            ShiftError::Refused(ShiftRefusal::Conflict(m)) => ApiError::Conflict(m),
            ShiftError::NotFound(m) => ApiError::NotFound(m),
            ShiftError::Store(e) => ApiError::from(e),
        }
    }
}

impl From<TrainingError> for ApiError {
    fn from(e: TrainingError) -> Self {
        match e {
            TrainingError::Refused(r) => match r {
                Refusal::NotYours { .. } => ApiError::Forbidden(r.to_string()),
                Refusal::NoSuchDrill => ApiError::NotFound(r.to_string()),
                Refusal::Invalid(fe) => ApiError::BadInput(fe),
                Refusal::AlreadyAnswered | Refusal::Unanswered | Refusal::Over(_) => {
                    ApiError::Conflict(r.to_string())
                }
            },
            TrainingError::SignOff(r) => match r {
                SignOffRefusal::OwnSignOff => ApiError::Forbidden(r.to_string()),
                _ => ApiError::Conflict(r.to_string()),
            },
            TrainingError::Invalid(fe) => ApiError::BadInput(fe),
            TrainingError::NotFound(m) => ApiError::NotFound(m),
            TrainingError::Store(e) => ApiError::from(e),
        }
    }
}

impl From<FieldError> for ApiError {
    fn from(e: FieldError) -> Self {
        ApiError::BadInput(e)
    }
}
