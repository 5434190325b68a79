//! The one reading of a JSON document into a type that says where it went
//! wrong: the field path (`events[2].amount`), or `body` for the document as
//! a whole. The size limit stays with each caller (each has its own).

use serde::de::DeserializeOwned;

/// Where a JSON document failed to parse, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JsonPathError {
    /// The field path, or `body` when no field was reached or the document
    /// goes on after its value.
    pub path: String,
    pub message: String,
}

/// Parses `bytes` as one JSON value of type `T`, nothing after it. A whole
/// number written with a fraction (`2.0`) is the number JSON Schema says it
/// is, an integer: where serde refuses it for an integer field, the
/// document is read again with such numbers written whole, and the first
/// refusal stands if that fails too.
pub fn parse_with_path<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, JsonPathError> {
    parse_as_written(bytes).or_else(|e| {
        if !e.message.starts_with("invalid type: floating point") {
            return Err(e);
        }
        whole_numbers_whole(bytes)
            .and_then(|again| parse_as_written(&again).ok())
            .ok_or(e)
    })
}

/// `bytes` with every number that is whole but written with a fraction
/// or exponent (`2.0`, `1e3`) written as an integer; None if nothing
/// changes or it is not JSON.
fn whole_numbers_whole(bytes: &[u8]) -> Option<Vec<u8>> {
    fn walk(v: &mut serde_json::Value, changed: &mut bool) {
        match v {
            serde_json::Value::Number(n) if n.is_f64() => {
                let f = n.as_f64().unwrap_or(f64::NAN);
                // Integers a double holds exactly.
                if f.fract() == 0.0 && f.abs() <= 9_007_199_254_740_992.0 {
                    *v = serde_json::Value::from(f as i64);
                    *changed = true;
                }
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|i| walk(i, changed)),
            serde_json::Value::Object(map) => map.values_mut().for_each(|i| walk(i, changed)),
            _ => {}
        }
    }
    let mut value: serde_json::Value = serde_json::from_slice(bytes).ok()?;
    let mut changed = false;
    walk(&mut value, &mut changed);
    changed.then(|| serde_json::to_vec(&value).ok()).flatten()
}

fn parse_as_written<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, JsonPathError> {
    let mut de = serde_json::Deserializer::from_slice(bytes);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        // `?`: malformed before any field was read (`{"`).
        let path = if path == "." || path == "?" {
            "body".to_string()
        } else {
            path
        };
        JsonPathError {
            path,
            message: e.into_inner().to_string(),
        }
    })?;
    de.end().map_err(|e| JsonPathError {
        path: "body".to_string(),
        message: e.to_string(),
    })?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    struct Hand {
        seats: Vec<Seat>,
    }

    #[derive(Debug, serde::Deserialize)]
    struct Seat {
        amount: u32,
    }

    fn error(text: &str) -> (String, String) {
        let e = parse_with_path::<Hand>(text.as_bytes()).unwrap_err();
        (e.path, e.message)
    }

    #[test]
    fn an_error_names_the_field_path_or_the_body() {
        let (path, message) = error(r#"{"seats": [{"amount": 1}, {"amount": "x"}]}"#);
        assert_eq!(path, "seats[1].amount");
        assert!(
            message.starts_with("invalid type: string \"x\""),
            "{message}"
        );
        assert_eq!(error(r#"{""#).0, "body");
        let (path, message) = error(r#"{"seats": []} 7"#);
        assert_eq!(
            (path.as_str(), message.as_str()),
            ("body", "trailing characters at line 1 column 15")
        );
        assert_eq!(
            parse_with_path::<Hand>(br#"{"seats": [{"amount": 2}]}"#)
                .unwrap()
                .seats
                .len(),
            1
        );
    }

    #[test]
    fn a_whole_number_written_with_a_fraction_is_an_integer() {
        let hand = parse_with_path::<Hand>(br#"{"seats": [{"amount": 2.0}, {"amount": 1e2}]}"#);
        let amounts: Vec<u32> = hand.unwrap().seats.iter().map(|s| s.amount).collect();
        assert_eq!(amounts, [2, 100]);
        let (path, message) = error(r#"{"seats": [{"amount": 2.5}]}"#);
        assert_eq!(path, "seats[0].amount");
        assert!(
            message.starts_with("invalid type: floating point `2.5`"),
            "{message}"
        );
    }
}
