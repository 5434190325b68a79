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

/// Parses `bytes` as one JSON value of type `T`, nothing after it.
pub fn parse_with_path<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, JsonPathError> {
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
    #[allow(dead_code)] // only parsed: the test is about its errors
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
}
