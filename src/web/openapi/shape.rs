//! The shape of a request body, checked against the contract after serde
//! has read it: serde takes a JSON array for a struct (its fields in
//! order), which the contract forbids, so `"options": [null, null]` would
//! pass as no options at all. Checked against the document as the types
//! derive it, before the limits (`limits`) are written in: a value out of
//! range is the core's to refuse, in its own words; only what serde's
//! leniency let through is refused here (422 naming the field). One
//! validator a body type, compiled on first use.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use jsonschema::Validator;
use serde_json::{Value, json};

use crate::domain::common::field_error::FieldError;
use crate::web::ApiError;

/// Refuses a body serde has read that is not the shape the contract gives
/// the component schema `name`.
pub fn check(name: &str, body: &[u8]) -> Result<(), ApiError> {
    let Ok(value) = serde_json::from_slice::<Value>(body) else {
        return Ok(()); // serde read it; nothing more to say
    };
    let validator = validator(name);
    match validator.validate(&value) {
        Ok(()) => Ok(()),
        Err(e) => {
            let field = field_path(&e.instance_path().to_string());
            let given = e.instance().to_string();
            let message = format!(
                "{given} is not what the API contract takes here (an object written \
                 as a list?); docs/openapi.json gives its shape"
            );
            Err(ApiError::BadInput(
                FieldError::new(field, message).with_value(given),
            ))
        }
    }
}

fn validator(name: &str) -> Arc<Validator> {
    static CACHE: OnceLock<Mutex<HashMap<String, Arc<Validator>>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    cache
        .entry(name.to_string())
        .or_insert_with(|| Arc::new(compile(name)))
        .clone()
}

/// The validator of component `name` in the derived document. The
/// document is built from the code, so a schema that does not compile is a
/// bug the contract test finds first.
fn compile(name: &str) -> Validator {
    let derived = super::derived();
    let root = json!({
        "$ref": format!("#/components/schemas/{name}"),
        "components": derived["components"],
    });
    jsonschema::draft202012::new(&root)
        .unwrap_or_else(|e| panic!("the contract's schema {name} does not compile: {e}"))
}

/// `/events/2/amount` → `events[2].amount`, as serde's paths are written.
fn field_path(pointer: &str) -> String {
    let mut out = String::new();
    for part in pointer.split('/').filter(|p| !p.is_empty()) {
        if part.bytes().all(|b| b.is_ascii_digit()) {
            out.push_str(&format!("[{part}]"));
        } else {
            if !out.is_empty() {
                out.push('.');
            }
            out.push_str(part);
        }
    }
    if out.is_empty() { "body".into() } else { out }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointers_read_as_serde_paths() {
        assert_eq!(field_path(""), "body");
        assert_eq!(field_path("/options"), "options");
        assert_eq!(field_path("/events/2/amount"), "events[2].amount");
    }

    #[test]
    fn an_array_for_options_is_refused_naming_it() {
        let body = br#"{"cards": "As Ks Qs Js Ts", "options": [null, null]}"#;
        let e = check("CardsRequest", body).unwrap_err();
        assert!(format!("{e:?}").contains("options"), "{e:?}");
        check(
            "CardsRequest",
            br#"{"cards": "As Ks Qs Js Ts", "options": {}}"#,
        )
        .unwrap();
    }
}
