//! The limits of every request field that JSON Schema can say — lengths,
//! ranges, list sizes, the words a field takes, the patterns of cards,
//! money and dates — written into the derived document from the constants
//! the core checks them with (`hands`, `room`, `nested`), so a limit
//! changed in the core changes the contract. A rule naming a schema, field or parameter the
//! document does not have is a bug: building the document panics, and the
//! contract test builds it.
//!
//! What JSON Schema cannot say (a card twice across two fields, a wager's
//! seat at the table, a table that does not exist) the core refuses alone;
//! tests/api-fuzz/schemathesis.toml lists the operations where a request
//! the contract allows may still be refused, and why.

mod hands;
mod nested;
mod room;

use serde_json::{Map, Value, json};
use utoipa::openapi::path::Operation;
use utoipa::openapi::schema::{AllOfBuilder, Schema};
use utoipa::openapi::{OpenApi, RefOr};

use crate::domain::common::text;

/// Where a limit goes.
pub enum At {
    /// A property of a component schema: (`TableConfig`, `seats`).
    Field(&'static str, &'static str),
    /// A component schema itself.
    Schema(&'static str),
    /// Deeper in a component: each step a property, `*` a map's values,
    /// `[]` a list's items, `type=NAME` the variant of a tagged choice
    /// (`HandEvent`, [`"type=wager_placed"`, `"bettor"`]), `string` or
    /// `array` the branch of a choice of types (text or a list).
    Nested(&'static str, Vec<&'static str>),
    /// A query or path parameter: (`get`, `/api/v1/hands`, `limit`).
    Param(&'static str, &'static str, &'static str),
    /// An operation's JSON body, where routes share a body type but not
    /// its limits: (`post`, `/api/v1/hands/eval`).
    Body(&'static str, &'static str),
}

/// Writes every rule into `doc`.
pub fn apply(doc: &mut OpenApi) {
    let (whole, parts): (Vec<_>, Vec<_>) = hands::rules()
        .into_iter()
        .chain(room::rules())
        .chain(nested::rules())
        .partition(|(at, _)| matches!(at, At::Schema(_)));
    // A schema's own limits last: one may wrap it (`allOf`), and its
    // fields are then out of reach.
    for (at, limit) in parts.into_iter().chain(whole) {
        let slot = slot(doc, &at);
        merge(slot, &limit);
    }
}

fn slot<'a>(doc: &'a mut OpenApi, at: &At) -> &'a mut RefOr<Schema> {
    match *at {
        At::Schema(name) => component(doc, name),
        At::Field(name, field) => match component(doc, name) {
            RefOr::T(Schema::Object(o)) => o
                .properties
                .get_mut(field)
                .unwrap_or_else(|| panic!("the contract's {name} has no field {field}")),
            _ => panic!("the contract's {name} is not an object with fields"),
        },
        At::Nested(name, ref steps) => steps.iter().fold(component(doc, name), |slot, step| {
            nested(slot, step).unwrap_or_else(|| panic!("the contract's {name} has no {steps:?}"))
        }),
        At::Param(method, path, name) => operation(doc, method, path)
            .parameters
            .iter_mut()
            .flatten()
            .find(|p| p.name == name)
            .and_then(|p| p.schema.as_mut())
            .unwrap_or_else(|| panic!("{method} {path} has no parameter {name}")),
        At::Body(method, path) => operation(doc, method, path)
            .request_body
            .as_mut()
            .and_then(|b| b.content.get_mut("application/json"))
            .and_then(|c| c.schema.as_mut())
            .unwrap_or_else(|| panic!("{method} {path} has no JSON body")),
    }
}

/// One step into a schema (see [`At::Nested`]).
fn nested<'a>(slot: &'a mut RefOr<Schema>, step: &str) -> Option<&'a mut RefOr<Schema>> {
    use utoipa::openapi::schema::{AdditionalProperties, ArrayItems};
    let RefOr::T(schema) = slot else {
        return None;
    };
    match (schema, step) {
        (Schema::Object(o), "*") => match o.additional_properties.as_deref_mut()? {
            AdditionalProperties::RefOr(values) => Some(values),
            AdditionalProperties::FreeForm(_) => None,
        },
        (Schema::Object(o), field) => o.properties.get_mut(field),
        (Schema::Array(a), "[]") => match &mut a.items {
            ArrayItems::RefOrSchema(items) => Some(items.as_mut()),
            ArrayItems::False => None,
        },
        (Schema::OneOf(one), step) => match step.strip_prefix("type=") {
            Some(kind) => one.items.iter_mut().find(|item| tagged(item, kind)),
            // The branch of a choice of types (`string`, `array`).
            None => one
                .items
                .iter_mut()
                .find(|item| serde_json::to_value(&**item).is_ok_and(|v| v["type"] == step)),
        },
        _ => None,
    }
}

/// Whether a variant's `type` is `kind`.
fn tagged(item: &RefOr<Schema>, kind: &str) -> bool {
    serde_json::to_value(item).is_ok_and(|v| v["properties"]["type"]["enum"][0] == kind)
}

fn component<'a>(doc: &'a mut OpenApi, name: &str) -> &'a mut RefOr<Schema> {
    doc.components
        .as_mut()
        .and_then(|c| c.schemas.get_mut(name))
        .unwrap_or_else(|| panic!("the contract has no schema {name}"))
}

fn operation<'a>(doc: &'a mut OpenApi, method: &str, path: &str) -> &'a mut Operation {
    let item = doc
        .paths
        .paths
        .get_mut(path)
        .unwrap_or_else(|| panic!("the contract has no path {path}"));
    let op = match method {
        "get" => item.get.as_mut(),
        "post" => item.post.as_mut(),
        _ => None,
    };
    op.unwrap_or_else(|| panic!("the contract has no {method} {path}"))
}

/// Merges the keywords of `limit` into the schema in `slot`. A nullable
/// field (`oneOf` null or the type) takes them on its non-null branch, and
/// loses the null branch under [`REQUIRED`]; a reference takes them beside
/// it (`allOf`).
fn merge(slot: &mut RefOr<Schema>, limit: &Value) {
    if let RefOr::T(Schema::OneOf(one)) = slot
        && limit.get(REQUIRED) == Some(&Value::Bool(true))
    {
        one.items.retain(|i| !is_null(i));
        if let [only] = one.items.as_slice() {
            *slot = only.clone();
        }
    }
    let limit = &without(limit, REQUIRED);
    if limit.as_object().is_some_and(Map::is_empty) {
        return;
    }
    match slot {
        RefOr::T(Schema::OneOf(one)) => {
            for item in one.items.iter_mut().filter(|i| !is_null(i)) {
                merge(item, limit);
            }
        }
        RefOr::Ref(_) => {
            let both = AllOfBuilder::new().item(slot.clone()).item(keywords(limit));
            *slot = RefOr::T(Schema::AllOf(both.build()));
        }
        RefOr::T(schema) if limit.get("oneOf").is_some() => {
            // A choice of shapes goes beside the schema, never into it.
            let both = AllOfBuilder::new()
                .item(schema.clone())
                .item(keywords(limit));
            *schema = Schema::AllOf(both.build());
        }
        RefOr::T(schema) => {
            let mut value = serde_json::to_value(&*schema).expect("a schema is JSON");
            deep_merge(&mut value, limit);
            allow_null_in_enum(&mut value);
            let merged: Schema = serde_json::from_value(value.clone())
                .unwrap_or_else(|e| panic!("a limit made no schema ({e}): {value}"));
            assert!(
                holds(&merged, limit),
                "the contract cannot say {limit} in {value}"
            );
            *schema = merged;
        }
    }
}

/// `limit` as a schema of its own, every keyword kept.
fn keywords(limit: &Value) -> Schema {
    let limit = typed(limit);
    let schema: Schema = serde_json::from_value(limit.clone())
        .unwrap_or_else(|e| panic!("a limit is not a schema ({e}): {limit}"));
    assert!(holds(&schema, &limit), "the contract cannot say {limit}");
    schema
}

/// Whether `schema` says every keyword of `limit` (utoipa's model drops
/// one it has no field for).
fn holds(schema: &Schema, limit: &Value) -> bool {
    let kept = serde_json::to_value(schema).expect("a schema is JSON");
    limit
        .as_object()
        .into_iter()
        .flatten()
        .all(|(k, _)| kept.get(k).is_some())
}

/// `limit` with the type its keywords apply to, as utoipa's model needs
/// one to hold them (beside a reference, in an `allOf`).
fn typed(limit: &Value) -> Value {
    let has = |keys: &[&str]| keys.iter().any(|k| limit.get(*k).is_some());
    let kind = if limit.get("type").is_some() || limit.get("oneOf").is_some() {
        return limit.clone();
    } else if has(&["pattern", "minLength", "maxLength"]) {
        "string"
    } else if has(&["items", "minItems", "maxItems"]) {
        "array"
    } else if has(&["minimum", "maximum", "multipleOf"]) {
        "number"
    } else {
        "object"
    };
    both(json!({"type": kind}), limit.clone())
}

/// A limit's marker, not a keyword: the field may not be null (its
/// object's `required` names it: [`At::Schema`] with `required`).
pub const REQUIRED: &str = "x-not-null";

fn without(limit: &Value, key: &str) -> Value {
    let mut limit = limit.clone();
    if let Some(map) = limit.as_object_mut() {
        map.remove(key);
    }
    limit
}

/// A nullable field's words include null (serde takes it as not given).
fn allow_null_in_enum(value: &mut Value) {
    let nullable = value["type"]
        .as_array()
        .is_some_and(|types| types.contains(&json!("null")));
    if let Some(Value::Array(words)) = value.get_mut("enum")
        && nullable
        && !words.contains(&Value::Null)
    {
        words.push(Value::Null);
    }
}

fn is_null(item: &RefOr<Schema>) -> bool {
    serde_json::to_value(item).is_ok_and(|v| v.get("type") == Some(&Value::from("null")))
}

/// `limit`'s keys into `value`, objects merged key by key; a `$ref` that
/// gains keywords becomes an `allOf` of the reference and them.
fn deep_merge(value: &mut Value, limit: &Value) {
    let (Value::Object(into), Value::Object(from)) = (&mut *value, limit) else {
        *value = limit.clone();
        return;
    };
    if into.contains_key("$ref") {
        let reference = Value::Object(std::mem::take(into));
        let mut wrapped = Map::new();
        wrapped.insert("allOf".into(), Value::Array(vec![reference, limit.clone()]));
        *value = Value::Object(wrapped);
        return;
    }
    for (k, v) in from {
        match into.get_mut(k) {
            Some(existing) if existing.is_object() && v.is_object() => deep_merge(existing, v),
            // `required` names add up.
            Some(Value::Array(names)) if k == "required" => {
                for name in v.as_array().into_iter().flatten() {
                    if !names.contains(name) {
                        names.push(name.clone());
                    }
                }
            }
            _ => {
                into.insert(k.clone(), v.clone());
            }
        }
    }
}

/// `minimum` and `maximum`.
fn range(min: impl Into<Value>, max: impl Into<Value>) -> Value {
    json!({"minimum": min.into(), "maximum": max.into()})
}

/// `minLength` and `maxLength`, in characters.
fn length(min: usize, max: usize) -> Value {
    json!({"minLength": min, "maxLength": max})
}

/// `minItems` and `maxItems`.
fn items(min: usize, max: usize) -> Value {
    json!({"minItems": min, "maxItems": max})
}

/// A list whose items each meet `each`, `min` to `max` of them.
fn list_of(min: usize, max: usize, each: Value) -> Value {
    both(items(min, max), json!({"items": each}))
}

/// A `pattern` (ECMA-262, as JSON Schema reads it).
fn matching(pattern: impl Into<String>) -> Value {
    json!({"pattern": pattern.into()})
}

/// One line of free text of at most `max` characters, as the core's
/// `FreeText::line` takes it.
fn line(max: usize) -> Value {
    both(length(1, max), matching(text::pattern(false)))
}

/// [`line`], but never exactly `reserved` (a lookahead).
fn line_but(max: usize, reserved: &str) -> Value {
    let pattern = text::pattern(false);
    let rest = pattern.trim_start_matches('^');
    both(length(1, max), matching(format!("^(?!{reserved}$){rest}")))
}

/// Free text that may span lines, at most `max` characters.
fn paragraph(max: usize) -> Value {
    both(length(1, max), matching(text::pattern(true)))
}

/// The keywords of `a` and `b`.
fn both(mut a: Value, b: Value) -> Value {
    deep_merge(&mut a, &b);
    a
}

/// One of `words`, trimmed and in any case, or nothing (a query filter).
fn any_case(words: &[&str]) -> Value {
    let alternatives: Vec<String> = words
        .iter()
        .map(|w| {
            w.chars()
                .map(|c| match (c.to_ascii_uppercase(), c.to_ascii_lowercase()) {
                    (u, l) if u != l => format!("[{u}{l}]"),
                    _ => regex_escape(c),
                })
                .collect()
        })
        .collect();
    matching(format!("^\\s*(?:{})?\\s*$", alternatives.join("|")))
}

fn regex_escape(c: char) -> String {
    if "\\^$.|?*+()[]{}-".contains(c) {
        format!("\\{c}")
    } else {
        c.to_string()
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn every_limit_finds_its_field() {
        let _ = super::super::document();
    }
}
