//! JSON request bodies parsed by our own rules: errors are 422 with the
//! field path (`events[2].amount: …`), never axum's generic 400/415.

use axum::body::Bytes;
use serde::de::DeserializeOwned;

use super::ApiError;

/// Longest request body accepted on the JSON API.
pub const BODY_BYTES_MAX: usize = 256 * 1024;

pub fn parse<T: DeserializeOwned>(body: &Bytes) -> Result<T, ApiError> {
    if body.len() > BODY_BYTES_MAX {
        return Err(ApiError::BadInput(format!(
            "body: {} bytes is more than {BODY_BYTES_MAX}",
            body.len()
        )));
    }
    let mut de = serde_json::Deserializer::from_slice(body);
    let value: T = serde_path_to_error::deserialize(&mut de).map_err(|e| {
        let path = e.path().to_string();
        let path = if path == "." {
            "body".to_string()
        } else {
            path
        };
        ApiError::BadInput(format!("{path}: {}", e.into_inner()))
    })?;
    de.end()
        .map_err(|e| ApiError::BadInput(format!("body: {e}")))?;
    Ok(value)
}
