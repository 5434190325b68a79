//! A trainee's answer as given: a JSON object with the fields of the
//! kind's answer (the same shape the drill's `answer` serializes to). Read
//! field by field, so an answer in the wrong shape is a [`FieldError`]
//! naming its path, what is wrong and the value given — not a wrong answer.

use serde_json::{Map, Value};

use crate::common::field_error::FieldError;
use crate::common::money::Money;

/// An answer to grade. Build it from JSON text ([`AnswerInput::parse`]) or
/// a JSON value ([`AnswerInput::from_value`]).
#[derive(Debug, Clone, PartialEq)]
pub struct AnswerInput(Value);

/// Longest answer text accepted, in bytes.
pub const ANSWER_BYTES_MAX: usize = 16 * 1024;

impl AnswerInput {
    pub fn parse(text: &str) -> Result<AnswerInput, FieldError> {
        if text.len() > ANSWER_BYTES_MAX {
            return Err(FieldError::new(
                "answer",
                format!(
                    "{} bytes is longer than the {ANSWER_BYTES_MAX} an answer may be",
                    text.len()
                ),
            ));
        }
        serde_json::from_str(text)
            .map(AnswerInput)
            .map_err(|e| FieldError::new("answer", format!("is not JSON: {e}")))
    }

    pub fn from_value(value: Value) -> AnswerInput {
        AnswerInput(value)
    }

    pub fn value(&self) -> &Value {
        &self.0
    }

    /// The answer's object, refusing any field not in `fields`.
    pub fn object(&self, fields: &[&str]) -> Result<Fields<'_>, FieldError> {
        let Value::Object(map) = &self.0 else {
            return Err(FieldError::new(
                "answer",
                format!(
                    "expected an object {{{}}}, got {}",
                    fields.join(", "),
                    self.0
                ),
            )
            .with_value(self.0.to_string()));
        };
        if let Some(key) = map.keys().find(|k| !fields.contains(&k.as_str())) {
            return Err(FieldError::new(
                key.as_str(),
                format!(
                    "is not a field of this answer (its fields: {})",
                    fields.join(", ")
                ),
            ));
        }
        Ok(Fields(map))
    }
}

/// The fields of an answer object.
pub struct Fields<'a>(&'a Map<String, Value>);

impl<'a> Fields<'a> {
    pub fn get(&self, name: &str) -> Result<&'a Value, FieldError> {
        self.0
            .get(name)
            .ok_or_else(|| FieldError::new(name, "is missing from the answer"))
    }
}

fn shown(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Money as a decimal string (a JSON number is refused, as everywhere).
pub fn money(v: &Value, field: &str) -> Result<Money, FieldError> {
    let Value::String(s) = v else {
        return Err(FieldError::new(
            field,
            format!("{v} is not money: give a decimal string such as \"12.50\""),
        )
        .with_value(shown(v)));
    };
    Money::parse(s).map_err(|_| {
        FieldError::new(
            field,
            format!(
                "\"{s}\" is not a decimal amount (use digits with an optional '.', e.g. \"12.50\")"
            ),
        )
        .with_value(s.as_str())
    })
}

/// An integer in `lo..=hi`; `what` names the range ("a seat at this table").
pub fn integer(v: &Value, field: &str, lo: i64, hi: i64, what: &str) -> Result<i64, FieldError> {
    match v.as_i64() {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(
            FieldError::new(field, format!("{v} is not {what} ({lo}..{hi})")).with_value(shown(v)),
        ),
    }
}

/// A string.
pub fn text<'a>(v: &'a Value, field: &str) -> Result<&'a str, FieldError> {
    v.as_str()
        .ok_or_else(|| FieldError::new(field, format!("{v} is not a string")).with_value(shown(v)))
}

/// An object keyed by `names`, each present exactly once, values read by
/// `read`; in the order of `names`.
pub fn keyed<T>(
    v: &Value,
    field: &str,
    names: &[&str],
    mut read: impl FnMut(&Value, &str) -> Result<T, FieldError>,
) -> Result<Vec<T>, FieldError> {
    let Value::Object(map) = v else {
        return Err(FieldError::new(
            field,
            format!("{v} is not an object keyed by {}", names.join(", ")),
        )
        .with_value(shown(v)));
    };
    if let Some(key) = map.keys().find(|k| !names.contains(&k.as_str())) {
        return Err(FieldError::new(
            format!("{field}.{key}"),
            format!(
                "\"{key}\" is not in this drill (expected: {})",
                names.join(", ")
            ),
        )
        .with_value(key.as_str()));
    }
    names
        .iter()
        .map(|name| {
            let path = format!("{field}.{name}");
            let value = map
                .get(*name)
                .ok_or_else(|| FieldError::new(path.as_str(), "is missing from the answer"))?;
            read(value, &path)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrong_shapes_name_their_field() {
        let a = AnswerInput::parse(r#"{"seat": 9, "x": 1}"#).unwrap();
        assert_eq!(a.object(&["seat"]).err().unwrap().field(), "x");
        let e = money(&Value::String("12,50".into()), "net.Ann").unwrap_err();
        assert_eq!(e.field(), "net.Ann");
        assert_eq!(e.value(), Some("12,50"));
        let e = money(&serde_json::json!(12.5), "fee").unwrap_err();
        assert!(e.message().contains("decimal string"), "{e}");
        let e = integer(&serde_json::json!(9), "seat", 1, 7, "a seat at this table").unwrap_err();
        assert_eq!(e.to_string(), "seat: 9 is not a seat at this table (1..7)");
        assert_eq!(AnswerInput::parse("{").unwrap_err().field(), "answer");
    }
}
