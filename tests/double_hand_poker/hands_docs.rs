//! The examples in docs/hands.md are the code's real output: each request
//! block is run through the same function the endpoint calls and must give
//! exactly the response block below it.
//! `HANDS_DOCS_BLESS=1 cargo test --test double_hand_poker hands_docs` rewrites the responses.

use crate::common::docs::DocExamples;
use pitbook::domain::common::field_error::AsFieldError;
use pitbook::domain::double_hand_poker::tools::{self, CardsRequest, DiceRequest};
use serde_json::Value;

/// The endpoint's response body for a request body, as the API sends it.
fn respond(path: &str, body: &str) -> String {
    let cards = || serde_json::from_str::<CardsRequest>(body).expect("request");
    let result = match path {
        "/api/v1/hands/eval" => tools::eval(&cards()).map(|r| serde_json::to_string(&r)),
        "/api/v1/hands/house-way" => tools::house_way(&cards()).map(|r| serde_json::to_string(&r)),
        "/api/v1/hands/settings" => tools::settings(&cards()).map(|r| serde_json::to_string(&r)),
        "/api/v1/dice" => {
            let req: DiceRequest = serde_json::from_str(body).expect("request");
            tools::dice(&req).map(|r| serde_json::to_string(&r))
        }
        other => panic!("unknown path {other}"),
    };
    match result {
        Ok(json) => json.expect("json"),
        // As `ApiError::BadInput` renders it (a tool error knows no value).
        Err(e) => {
            let fe = e.field_error().expect("a tool error names its field");
            let body = serde_json::json!({"error": "bad_input", "message": fe.to_string(), "field": fe.field()});
            body.to_string()
        }
    }
}

/// Compact JSON as a tree that keeps the order of object keys.
enum Node {
    Scalar(String),
    Array(Vec<Node>),
    Object(Vec<(String, Node)>),
}

/// Parses serde_json's compact output (no whitespace outside strings).
fn parse(text: &[u8], at: &mut usize) -> Node {
    match text[*at] {
        b'[' | b'{' => {
            let object = text[*at] == b'{';
            *at += 1;
            let (mut items, mut fields) = (Vec::new(), Vec::new());
            while text[*at] != b']' && text[*at] != b'}' {
                if object {
                    let Node::Scalar(key) = parse(text, at) else {
                        panic!("key")
                    };
                    *at += 1; // ':'
                    fields.push((key, parse(text, at)));
                } else {
                    items.push(parse(text, at));
                }
                if text[*at] == b',' {
                    *at += 1;
                }
            }
            *at += 1;
            if object {
                Node::Object(fields)
            } else {
                Node::Array(items)
            }
        }
        b'"' => {
            let start = *at;
            *at += 1;
            while text[*at] != b'"' {
                *at += if text[*at] == b'\\' { 2 } else { 1 };
            }
            *at += 1;
            Node::Scalar(String::from_utf8(text[start..*at].to_vec()).unwrap())
        }
        _ => {
            let start = *at;
            while !matches!(text[*at], b',' | b']' | b'}') {
                *at += 1;
            }
            Node::Scalar(String::from_utf8(text[start..*at].to_vec()).unwrap())
        }
    }
}

fn one_line(n: &Node) -> String {
    match n {
        Node::Scalar(s) => s.clone(),
        Node::Array(items) => {
            let items: Vec<String> = items.iter().map(one_line).collect();
            format!("[{}]", items.join(", "))
        }
        Node::Object(fields) => {
            let items: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("{k}: {}", one_line(v)))
                .collect();
            format!("{{{}}}", items.join(", "))
        }
    }
}

/// Indented by two; a value that fits on its line (120 columns, counting
/// `used` columns before it) stays on one line.
fn pretty(n: &Node, indent: usize, used: usize) -> String {
    let one = one_line(n);
    if indent + used + one.len() <= 120 {
        return one;
    }
    let pad = " ".repeat(indent + 2);
    let (open, close, items) = match n {
        Node::Scalar(_) => return one,
        Node::Array(items) => (
            "[",
            "]",
            items
                .iter()
                .map(|v| format!("{pad}{}", pretty(v, indent + 2, 0)))
                .collect::<Vec<_>>(),
        ),
        Node::Object(fields) => (
            "{",
            "}",
            fields
                .iter()
                .map(|(k, v)| format!("{pad}{k}: {}", pretty(v, indent + 2, k.len() + 2)))
                .collect(),
        ),
    };
    format!(
        "{open}\n{}\n{}{close}",
        items.join(",\n"),
        " ".repeat(indent)
    )
}

/// The compact JSON laid out for reading; the same tokens in the same order.
fn layout(json: &str) -> String {
    let mut at = 0;
    let tree = parse(json.as_bytes(), &mut at);
    assert_eq!(at, json.len(), "the whole body");
    let out = pretty(&tree, 0, 0);
    let strip = |s: &str| -> serde_json::Value { serde_json::from_str(s).unwrap() };
    assert_eq!(strip(&out), strip(json), "layout keeps the JSON");
    out
}

#[test]
fn the_examples_are_the_codes_output() {
    let mut doc = DocExamples::open("hands.md", "HANDS_DOCS_BLESS");
    let names: Vec<(String, String)> = doc
        .doc
        .match_indices("<!-- example:")
        .filter_map(|(at, _)| {
            let line = doc.doc[at..].lines().next()?;
            let rest = line.strip_prefix("<!-- example:")?.strip_suffix(" -->")?;
            let (name, what) = rest.split_once(' ')?;
            let path = what.strip_prefix("POST ")?;
            Some((name.to_string(), path.to_string()))
        })
        .collect();
    assert!(names.len() >= 6, "examples found: {names:?}");
    for (name, path) in names {
        let request = doc.json(&format!("<!-- example:{name} POST {path} -->"));
        serde_json::from_str::<Value>(&request).unwrap_or_else(|e| panic!("{name}: {e}"));
        let out = layout(&respond(&path, &request)) + "\n";
        // The shown response is exactly the JSON sent (only the layout differs).
        doc.check(&name, &format!("<!-- example:{name} response -->"), &out);
    }
    doc.finish();
}
