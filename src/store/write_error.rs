//! The one shape of a store write that was refused or failed: the input's
//! field error (nothing was written) or the store's own failure, each kept
//! as its typed cause. Only `web/error.rs` and the CLI turn it into a status
//! or an exit code.

use crate::domain::common::field_error::FieldError;
use crate::store::StoreError;

#[derive(Debug, thiserror::Error)]
pub enum WriteError {
    /// Input the store refused; nothing was written.
    #[error(transparent)]
    Invalid(FieldError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl WriteError {
    pub fn invalid(field: impl Into<String>, message: impl Into<String>) -> WriteError {
        WriteError::Invalid(FieldError::new(field, message))
    }
}

impl From<FieldError> for WriteError {
    fn from(e: FieldError) -> Self {
        WriteError::Invalid(e)
    }
}

impl From<sqlx::Error> for WriteError {
    fn from(e: sqlx::Error) -> Self {
        WriteError::Store(StoreError::Query(e))
    }
}
