//! A refused input as a value: which field, what is wrong, and the value
//! given when the error knows it. Every core error that is bad input gives
//! one ([`AsFieldError`]), so the shell shows the message beside the field
//! and puts the field in the JSON body without reading the text back.

use std::fmt;

/// One field's refusal. Displays as `{field}: {message}`, the text the core
/// errors have always displayed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldError {
    field: String,
    message: String,
    value: Option<String>,
}

impl FieldError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError {
            field: field.into(),
            message: message.into(),
            value: None,
        }
    }

    /// The refusal `error` displays as `{field}: {message}`: the caller
    /// names the field from the error's variant; the message is the text
    /// after it, so each error's wording stays in one place, its Display.
    pub fn worded(field: impl Into<String>, error: &impl fmt::Display) -> FieldError {
        let field = field.into();
        let text = error.to_string();
        let message = match text
            .strip_prefix(field.as_str())
            .and_then(|t| t.strip_prefix(": "))
        {
            Some(message) => message.to_string(),
            None => {
                debug_assert!(false, "\"{text}\" does not start with \"{field}: \"");
                text
            }
        };
        FieldError::new(field, message)
    }

    /// The same refusal, knowing the value that was given.
    pub fn with_value(mut self, value: impl Into<String>) -> FieldError {
        self.value = Some(value.into());
        self
    }

    /// The field path: `wagers[2].amount`, `events[0].table`, `body`.
    pub fn field(&self) -> &str {
        &self.field
    }

    /// What is wrong, naming the value (the text after `field: `).
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The value given, as given, when the error carries it.
    pub fn value(&self) -> Option<&str> {
        self.value.as_deref()
    }

    /// The same refusal under another path: `event.amount` of the
    /// command's event 2 becomes `events[2].amount`.
    pub fn with_field(mut self, field: impl Into<String>) -> FieldError {
        self.field = field.into();
        self
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.message)
    }
}

impl std::error::Error for FieldError {}

/// An error that may be one field's refusal. `None` for an error that
/// names no field (a bug, a broken invariant, a card error before the
/// caller has said which field held the cards).
pub trait AsFieldError {
    fn field_error(&self) -> Option<FieldError>;
}

impl AsFieldError for FieldError {
    fn field_error(&self) -> Option<FieldError> {
        Some(self.clone())
    }
}

/// For the error types' tests: every error given has a field error whose
/// field starts its Display text, and which displays as the error does.
#[cfg(test)]
pub fn assert_fields<E: AsFieldError + fmt::Display>(cases: &[(E, &str)]) {
    for (error, field) in cases {
        let text = error.to_string();
        let fe = error
            .field_error()
            .unwrap_or_else(|| panic!("no field error for {text}"));
        assert_eq!(fe.field(), *field, "{text}");
        assert!(text.starts_with(&format!("{field}: ")), "{text}");
        assert_eq!(fe.to_string(), text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn displays_field_then_message_and_keeps_the_value() {
        let e = FieldError::new("wagers[2].amount", "\"x\" is not a decimal").with_value("x");
        assert_eq!(e.to_string(), "wagers[2].amount: \"x\" is not a decimal");
        assert_eq!(e.field(), "wagers[2].amount");
        assert_eq!(e.value(), Some("x"));
        let moved = e.with_field("events[1].amount");
        assert_eq!(
            moved.to_string(),
            "events[1].amount: \"x\" is not a decimal"
        );
        assert_eq!(moved.value(), Some("x"));
    }
}

#[cfg(test)]
#[path = "field_error_tests.rs"]
mod error_types_tests;
