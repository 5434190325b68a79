//! The API contract (docs/api.md): docs/openapi.json is exactly the
//! document the code builds (`OPENAPI_BLESS=1 cargo test --test server
//! openapi_contract` rewrites it), it is OpenAPI 3.1 with every reference
//! resolved, every example in it meets its schema, and so does every JSON
//! example in docs/*.md — each fenced JSON block there says what it is by
//! an `<!-- api:… -->` marker, and a block without one fails.

use pitbook::domain::double_hand_poker::ev::{EvCounts, EvRequest};
use pitbook::domain::history::HandFilter;
use serde_json::{Value, json};

use crate::common::docs::doc_path;
use crate::contract::Contract;

#[test]
fn the_committed_document_is_what_the_code_builds() {
    let built = pitbook::web::openapi::document_json();
    let path = doc_path("openapi.json");
    if std::env::var_os("OPENAPI_BLESS").is_some() {
        std::fs::write(&path, &built).unwrap();
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == built,
        "docs/openapi.json is not what the code builds: run \
         OPENAPI_BLESS=1 cargo test --test server openapi_contract"
    );
    let doc: Value = serde_json::from_str(&built).unwrap();
    assert_eq!(doc["openapi"], "3.1.0");
}

#[test]
fn every_operation_has_its_own_id_and_a_one_line_summary() {
    let doc = Contract::committed().doc;
    let mut ids = std::collections::BTreeSet::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let id = op["operationId"].as_str().unwrap_or_default();
            assert!(
                ids.insert(id.to_string()),
                "{method} {path}: operationId {id} twice"
            );
            let summary = op["summary"].as_str().unwrap_or_default();
            assert!(
                !summary.is_empty() && !summary.contains('\n'),
                "{method} {path}: the summary is its handler's first doc line: {summary:?}"
            );
        }
    }
}

/// Every `$ref` in `v`, with where it is.
fn refs<'a>(v: &'a Value, at: String, out: &mut Vec<(String, &'a str)>) {
    match v {
        Value::Object(m) => {
            for (k, child) in m {
                match (k.as_str(), child) {
                    ("$ref", Value::String(r)) => out.push((at.clone(), r)),
                    _ => refs(child, format!("{at}/{k}"), out),
                }
            }
        }
        Value::Array(items) => {
            for (i, child) in items.iter().enumerate() {
                refs(child, format!("{at}/{i}"), out);
            }
        }
        _ => {}
    }
}

#[test]
fn every_reference_in_the_document_resolves() {
    let doc = Contract::committed().doc;
    let mut found = Vec::new();
    refs(&doc, String::new(), &mut found);
    assert!(found.len() > 100, "only {} references", found.len());
    for (at, r) in found {
        let pointer = r
            .strip_prefix('#')
            .unwrap_or_else(|| panic!("{at}: {r} is not local"));
        assert!(
            doc.pointer(pointer).is_some(),
            "{at}: {r} resolves to nothing"
        );
    }
}

/// Every example the document holds, with the schema it must meet.
fn examples(doc: &Value) -> Vec<(String, Value, Value)> {
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            let body = &op["requestBody"]["content"]["application/json"];
            if let Some(example) = body.get("example") {
                let what = format!("{method} {path}: the request example");
                out.push((what, body["schema"].clone(), example.clone()));
            }
            for (status, answer) in op["responses"].as_object().unwrap() {
                let content = &answer["content"]["application/json"];
                if let Some(example) = content.get("example") {
                    let what = format!("{method} {path}: the {status} example");
                    out.push((what, content["schema"].clone(), example.clone()));
                }
            }
        }
    }
    // A schema's own examples (money's "12.50", an EV's "0.123456").
    let mut stack = vec![("components".to_string(), &doc["components"])];
    while let Some((at, v)) = stack.pop() {
        if let Value::Object(m) = v {
            if let Some(Value::Array(values)) = m.get("examples") {
                let mut schema = v.clone();
                schema.as_object_mut().unwrap().remove("examples");
                for e in values {
                    out.push((format!("{at}: a schema example"), schema.clone(), e.clone()));
                }
            }
            if let Some(e) = m.get("example") {
                out.push((format!("{at}: a schema example"), v.clone(), e.clone()));
            }
            for (k, child) in m {
                if !matches!(k.as_str(), "example" | "examples") {
                    stack.push((format!("{at}/{k}"), child));
                }
            }
        } else if let Value::Array(items) = v {
            stack.extend(items.iter().map(|i| (at.clone(), i)));
        }
    }
    out
}

#[test]
fn every_example_in_the_document_meets_its_schema() {
    let contract = Contract::committed();
    let all = examples(&contract.doc);
    let operations: usize = contract.doc["paths"]
        .as_object()
        .unwrap()
        .values()
        .map(|item| item.as_object().unwrap().len())
        .sum();
    // The main routes carry examples: most operations, and both sides.
    assert!(all.len() > operations, "only {} examples", all.len());
    for (what, schema, example) in &all {
        contract.check(what, schema, example);
    }
}

#[test]
fn the_check_is_strict_about_money_fields_and_kinds() {
    let contract = Contract::committed();
    let schema = contract.response_schema("post", "/api/v1/settle", 200);
    let example = contract.operation("post", "/api/v1/settle")["responses"]["200"]["content"]
        ["application/json"]["example"]
        .clone();
    assert!(contract.violation(&schema, &example).is_none());
    let mut number = example.clone();
    number["pd_returned"] = json!(0);
    assert!(
        contract.violation(&schema, &number).is_some(),
        "money as a number"
    );
    let mut extra = example.clone();
    extra["steps"][0]["tip"] = json!("1.00");
    assert!(
        contract.violation(&schema, &extra).is_some(),
        "a field it does not name"
    );
    let mut missing = example;
    missing.as_object_mut().unwrap().remove("totals");
    assert!(
        contract.violation(&schema, &missing).is_some(),
        "a field left out"
    );
    let command = contract.request_schema("post", "/api/v1/hands");
    let unknown_event = json!({"idempotency_key": "k", "events": [{"type": "hand_won"}]});
    assert!(contract.violation(&command, &unknown_event).is_some());
}

/// What a docs example's marker says it is.
enum Marked {
    Request {
        method: String,
        path: String,
    },
    Response {
        status: u16,
        method: String,
        path: String,
    },
    Schema(String),
    /// A request the contract forbids (a refusal's example): it must not
    /// meet the operation's request schema.
    Refused {
        method: String,
        path: String,
    },
    /// Not an API body (the CLI's own JSON): the marker says why.
    None,
}

fn parse_marker(text: &str) -> Marked {
    let words: Vec<&str> = text.split_whitespace().collect();
    match words.as_slice() {
        ["request", method, path] => Marked::Request {
            method: method.to_lowercase(),
            path: path.to_string(),
        },
        ["response", status, method, path] => Marked::Response {
            status: status.parse().expect("a status"),
            method: method.to_lowercase(),
            path: path.to_string(),
        },
        ["schema", name] => Marked::Schema(name.to_string()),
        ["refused", method, path] => Marked::Refused {
            method: method.to_lowercase(),
            path: path.to_string(),
        },
        ["none", _why, ..] => Marked::None,
        _ => panic!(
            "<!-- api:{text} --> is not request METHOD PATH, refused METHOD PATH, \
             response STATUS METHOD PATH, schema NAME or none WHY"
        ),
    }
}

/// Every ```json block of docs/`file` with the `api:` marker among the
/// comment lines right above it (None when it has none).
fn marked_blocks(file: &str) -> Vec<(usize, Option<String>, String)> {
    let doc = std::fs::read_to_string(doc_path(file)).unwrap();
    let lines: Vec<&str> = doc.lines().collect();
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if line.trim_end() != "```json" {
            continue;
        }
        let marker = lines[..i]
            .iter()
            .rev()
            .take_while(|l| l.trim_start().starts_with("<!--"))
            .find_map(|l| {
                l.trim()
                    .strip_prefix("<!-- api:")
                    .and_then(|m| m.strip_suffix("-->"))
                    .map(|m| m.trim().to_string())
            });
        let body: Vec<&str> = lines[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("```"))
            .copied()
            .collect();
        out.push((i + 1, marker, body.join("\n")));
    }
    out
}

#[test]
fn every_json_example_in_the_docs_meets_the_contract() {
    let contract = Contract::committed();
    let docs = std::fs::read_dir(doc_path("")).unwrap();
    let mut checked = 0;
    let mut unmarked = Vec::new();
    for entry in docs {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        if !name.ends_with(".md") {
            continue;
        }
        for (line, marker, body) in marked_blocks(&name) {
            let Some(marker) = marker else {
                unmarked.push(format!("docs/{name}:{line}"));
                continue;
            };
            let what = format!("docs/{name}:{line} ({marker})");
            let value: Value = serde_json::from_str(&body)
                .unwrap_or_else(|e| panic!("{what} is not JSON: {e}\n{body}"));
            let schema = match parse_marker(&marker) {
                Marked::None => continue,
                Marked::Refused { method, path } => {
                    let schema = contract.request_schema(&method, &path);
                    assert!(
                        contract.violation(&schema, &value).is_some(),
                        "{what} meets the contract: mark it request, as the core refuses it"
                    );
                    checked += 1;
                    continue;
                }
                Marked::Request { method, path } => contract.request_schema(&method, &path),
                Marked::Response {
                    status,
                    method,
                    path,
                } => contract.response_schema(&method, &path, status),
                Marked::Schema(name) => {
                    assert!(
                        contract.doc["components"]["schemas"][&name].is_object(),
                        "{what}: no schema {name}"
                    );
                    json!({"$ref": format!("#/components/schemas/{name}")})
                }
            };
            contract.check(&what, &schema, &value);
            checked += 1;
        }
    }
    assert!(
        unmarked.is_empty(),
        "JSON examples with no <!-- api:… --> marker (docs/api.md): {unmarked:?}"
    );
    assert!(checked >= 30, "only {checked} docs examples checked");
}

/// The names of the query parameters the contract gives `method path`.
fn query_names(contract: &Contract, method: &str, path: &str) -> Vec<String> {
    let mut names: Vec<String> = contract.operation(method, path)["parameters"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["in"] == "query")
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect();
    names.sort();
    names
}

#[test]
fn the_search_parameters_are_the_ones_the_search_reads() {
    let contract = Contract::committed();
    let mut keys: Vec<String> = HandFilter::keys().map(str::to_string).collect();
    keys.sort();
    assert_eq!(query_names(&contract, "get", "/api/v1/hands"), keys);
    // The export holds the whole set (no paging), in a format.
    let mut export: Vec<String> = keys
        .into_iter()
        .filter(|k| k != "after" && k != "limit")
        .chain(["format".to_string()])
        .collect();
    export.sort();
    assert_eq!(
        query_names(&contract, "get", "/api/v1/hands/export"),
        export
    );
}

#[test]
fn a_hands_value_meets_its_schema() {
    // The count takes minutes in a debug build: the answer is built from
    // made-up counts by the same code, for its shape.
    let contract = Contract::committed();
    let example = contract.operation("post", "/api/v1/hands/ev")["requestBody"]["content"]
        ["application/json"]["example"]
        .clone();
    let job = serde_json::from_value::<EvRequest>(example)
        .unwrap()
        .job()
        .unwrap();
    let n = job.settings.len();
    let counts = EvCounts {
        hands: 1000,
        win: (0..n as u64).map(|i| 400 + i).collect(),
        push: vec![100; n],
        loss: (0..n as u64).map(|i| 500 - i).collect(),
    };
    let answer = serde_json::to_value(job.response(&counts)).unwrap();
    contract.check_response("post", "/api/v1/hands/ev", 200, &answer);
}

/// The schema name each `ToSchema` in `text` gives (its `as`, its manual
/// `name()`, or its type's name), with the line it is on.
fn schema_names(text: &str) -> Vec<(String, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let word = |s: &str| -> String {
        s.chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect()
    };
    for (i, line) in lines.iter().enumerate() {
        // A derive may run over several lines (rustfmt splits long ones).
        let end = if line.contains("#[derive(") {
            i + lines[i..]
                .iter()
                .position(|l| l.contains(")]"))
                .unwrap_or(0)
        } else {
            i
        };
        let ahead = &lines[end + 1..lines.len().min(end + 12)];
        if line.contains("#[derive(") && lines[i..=end].concat().contains("ToSchema") {
            let name = ahead.iter().find_map(|l| {
                let l = l.trim();
                if let Some(alias) = l.strip_prefix("#[schema(as = ") {
                    return Some(word(alias));
                }
                let l = match l.strip_prefix("pub") {
                    Some(rest) => rest.split_once(' ').map_or(rest, |(_, r)| r),
                    None => l,
                };
                l.strip_prefix("struct ")
                    .or_else(|| l.strip_prefix("enum "))
                    .map(word)
            });
            out.push((name.expect("a type after its derive"), i + 1));
        } else if let Some(rest) = line.trim().strip_prefix("impl utoipa::ToSchema for ") {
            let own = ahead
                .iter()
                .take_while(|l| !l.starts_with('}'))
                .find_map(|l| l.trim().strip_prefix('"').map(word));
            out.push((own.unwrap_or_else(|| word(rest)), i + 1));
        }
    }
    out
}

/// Every Rust file under `dir`.
fn rust_files(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_schema_name_is_given_to_one_type() {
    // Two types under one name would be one component, the other lost.
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    let mut seen: std::collections::BTreeMap<String, String> = Default::default();
    let mut total = 0;
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        for (name, line) in schema_names(&text) {
            let here = format!("{}:{line}", file.display());
            if let Some(first) = seen.insert(name.clone(), here.clone()) {
                panic!("the schema name {name} is given at {first} and at {here}");
            }
            total += 1;
        }
    }
    let components = Contract::committed().doc["components"]["schemas"]
        .as_object()
        .unwrap()
        .len();
    assert!(
        total >= components,
        "{total} names found, {components} schemas"
    );
}
