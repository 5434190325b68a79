//! Reading the API contract (docs/openapi.json) in tests: an operation's
//! request and response schemas, and a JSON value checked against one.
//!
//! Checks are strict: every object schema that lists its properties is
//! closed (`unevaluatedProperties: false`), so a body with a field the
//! contract does not name fails, not only one missing a field. (The
//! document itself stays open: clients should ignore a field added later.)
//! An object schema another one extends by `allOf` (a flattened struct) is
//! closed where it is extended, not on its own.

use serde_json::{Map, Value, json};

use crate::common::docs::doc_path;

/// The committed document, as JSON.
pub fn committed() -> Value {
    let text = std::fs::read_to_string(doc_path("openapi.json")).expect("docs/openapi.json");
    serde_json::from_str(&text).expect("docs/openapi.json is JSON")
}

/// The document and its components, closed for checking.
pub struct Contract {
    pub doc: Value,
    closed: Value,
}

impl Contract {
    pub fn committed() -> Contract {
        Contract::of(committed())
    }

    pub fn of(doc: Value) -> Contract {
        let closed = close(&doc["components"]);
        Contract { doc, closed }
    }

    /// The operation `method` (lower case) of `path` (as documented, with
    /// `{name}` parameters).
    pub fn operation(&self, method: &str, path: &str) -> &Value {
        let op = &self.doc["paths"][path][method];
        assert!(op.is_object(), "{method} {path} is not in the contract");
        op
    }

    /// The JSON schema of the operation's request body.
    pub fn request_schema(&self, method: &str, path: &str) -> Value {
        let schema =
            &self.operation(method, path)["requestBody"]["content"]["application/json"]["schema"];
        assert!(schema.is_object(), "{method} {path}: no JSON request body");
        schema.clone()
    }

    /// The JSON schema of the operation's answer with `status`.
    pub fn response_schema(&self, method: &str, path: &str, status: u16) -> Value {
        let schema = &self.operation(method, path)["responses"][status.to_string()]["content"]["application/json"]
            ["schema"];
        assert!(
            schema.is_object(),
            "{method} {path}: no JSON answer with status {status} in the contract"
        );
        schema.clone()
    }

    /// The error message if `instance` does not meet `schema` (which may
    /// refer to the components), strictly.
    pub fn violation(&self, schema: &Value, instance: &Value) -> Option<String> {
        let mut root = close_object(schema);
        root["components"] = self.closed.clone();
        let validator = jsonschema::draft202012::new(&root)
            .unwrap_or_else(|e| panic!("not a valid schema ({e}): {schema}"));
        let errors: Vec<String> = validator
            .iter_errors(instance)
            .map(|e| format!("{e} at {}", e.instance_path()))
            .collect();
        (!errors.is_empty()).then(|| errors.join("; "))
    }

    /// Panics, naming `what`, if `instance` does not meet `schema`.
    pub fn check(&self, what: &str, schema: &Value, instance: &Value) {
        if let Some(e) = self.violation(schema, instance) {
            panic!("{what} does not meet its schema: {e}\n{instance:#}");
        }
    }

    /// Checks an answer the server gave against the documented one.
    pub fn check_response(&self, method: &str, path: &str, status: u16, body: &Value) {
        let schema = self.response_schema(method, path, status);
        self.check(&format!("{method} {path} {status}"), &schema, body);
    }
}

/// The names of the component schemas some `allOf` extends by reference.
fn extended(components: &Value) -> Vec<String> {
    let mut names = Vec::new();
    let mut stack = vec![components];
    while let Some(v) = stack.pop() {
        match v {
            Value::Object(m) => {
                if let Some(Value::Array(parts)) = m.get("allOf") {
                    for part in parts {
                        if let Some(Value::String(r)) = part.get("$ref") {
                            names.push(r.rsplit('/').next().unwrap_or_default().to_string());
                        }
                    }
                }
                stack.extend(m.values());
            }
            Value::Array(items) => stack.extend(items),
            _ => {}
        }
    }
    names
}

/// The components with their object schemas closed (see the module doc).
fn close(components: &Value) -> Value {
    let open = extended(components);
    let mut closed = components.clone();
    if let Some(Value::Object(schemas)) = closed.get_mut("schemas") {
        for (name, schema) in schemas.iter_mut() {
            if !open.contains(name) {
                *schema = close_object(schema);
            }
        }
    }
    closed
}

/// `schema` with its objects closed, but not the direct parts of an `allOf`
/// nor the choices among them (the `allOf` itself is closed: it sees what
/// its parts evaluated).
fn close_object(schema: &Value) -> Value {
    close_walk(schema, false)
}

fn close_walk(schema: &Value, in_all_of: bool) -> Value {
    match schema {
        Value::Object(m) => {
            let mut out = Map::new();
            for (k, v) in m {
                let child = match (k.as_str(), v) {
                    ("allOf", Value::Array(parts)) => {
                        Value::Array(parts.iter().map(|p| close_walk(p, true)).collect())
                    }
                    // A choice that is itself a part of an `allOf` (the
                    // contract's "a run, or a kind") is open as its part.
                    ("oneOf" | "anyOf", Value::Array(parts)) if in_all_of => {
                        Value::Array(parts.iter().map(|p| close_walk(p, true)).collect())
                    }
                    // Example values are data, not schemas.
                    ("example" | "examples" | "enum" | "default" | "const", _) => v.clone(),
                    ("properties", Value::Object(props)) => Value::Object(
                        props
                            .iter()
                            .map(|(name, s)| (name.clone(), close_walk(s, false)))
                            .collect(),
                    ),
                    _ => close_walk(v, false),
                };
                out.insert(k.clone(), child);
            }
            let lists_properties = out.contains_key("properties") || out.contains_key("allOf");
            let says_extra = out.contains_key("additionalProperties")
                || out.contains_key("unevaluatedProperties");
            if lists_properties && !says_extra && !in_all_of {
                out.insert("unevaluatedProperties".into(), json!(false));
            }
            Value::Object(out)
        }
        Value::Array(items) => Value::Array(items.iter().map(|i| close_walk(i, false)).collect()),
        other => other.clone(),
    }
}
