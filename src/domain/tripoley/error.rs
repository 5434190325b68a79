//! Everything that can go wrong in a Tripoley calculation. Bad input names
//! the JSON field path and the value (CLI exit 2, HTTP 422); a broken
//! invariant (chips created or destroyed) stops the operation as an internal
//! error (CLI exit 1, HTTP 500) — never just a log line.

use crate::common::field_error::{AsFieldError, FieldError};

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TripoleyError {
    /// Input that can never succeed as sent: `field` is the JSON path
    /// (`poker.shown.Ann`), `message` says what is wrong with which value.
    #[error("{field}: {message}")]
    Input { field: String, message: String },
    /// The chips on the table (players + board) changed: a bug.
    #[error("chips not conserved {during}: {before} before, {after} after")]
    Conservation {
        during: String,
        before: u64,
        after: u64,
    },
    /// A move of more chips than a place holds, or the like: a bug (input
    /// is checked first).
    #[error("internal error: {0}")]
    Internal(String),
}

impl TripoleyError {
    pub fn input(field: impl Into<String>, message: impl Into<String>) -> TripoleyError {
        TripoleyError::Input {
            field: field.into(),
            message: message.into(),
        }
    }

    /// True for input errors (exit 2 / HTTP 422); false for internal ones.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, TripoleyError::Input { .. })
    }
}

impl AsFieldError for TripoleyError {
    fn field_error(&self) -> Option<FieldError> {
        match self {
            TripoleyError::Input { field, message } => {
                Some(FieldError::new(field.as_str(), message.as_str()))
            }
            TripoleyError::Conservation { .. } | TripoleyError::Internal(_) => None,
        }
    }
}

/// `1 chip`, `3 chips`.
pub fn chips(n: u64) -> String {
    if n == 1 {
        "1 chip".to_string()
    } else {
        format!("{n} chips")
    }
}

/// `nothing stays`, `1 chip stays`, `3 chips stay`.
pub fn stays(n: u64) -> String {
    match n {
        0 => "nothing stays".to_string(),
        1 => "1 chip stays".to_string(),
        n => format!("{n} chips stay"),
    }
}
