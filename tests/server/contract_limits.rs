//! The contract carries the limits, and the server keeps them: every
//! request field of docs/openapi.json says its limits (a string its length,
//! pattern or words; an integer its range; a list its size), but for the
//! few a client may not send at all; the patterns say what the core's
//! parsers take; and on both databases a request the contract forbids —
//! an option out of range on a route that does not read it, an object
//! written as an array, a card list of runs — is a 422 naming the field,
//! with nothing recorded.

use pitbook::domain::cards::{CARD_PATTERN, parse_card};
use pitbook::domain::common::text::{FreeText, pattern};
use pitbook::domain::double_hand_poker::settle::Ratio;
use serde_json::{Value, json};

use crate::common::{Backend, bad_input_body, log_records, post_bad_field, spawn_app};
use crate::contract::Contract;

/// Fields a client may not send (the server refuses them when given), so
/// they carry no limits: `hand_opened`'s rules come from the table, and a
/// closing or a correction's settlement is the engine's own.
const NOT_SENT: [&str; 5] = [
    "HandEvent.seats",
    "HandEvent.tppps",
    "PostedRules.",
    "RuleOptions.",
    "Settlement",
];

/// Where `schema` (a request's, at `at`) leaves a field without limits.
fn unlimited(doc: &Value, schema: &Value, at: &str, seen: &mut Vec<String>, out: &mut Vec<String>) {
    if !schema.is_object() {
        return;
    }
    if let Some(reference) = schema["$ref"].as_str() {
        let name = reference.rsplit('/').next().unwrap_or_default().to_string();
        if !seen.contains(&name) {
            seen.push(name.clone());
            unlimited(doc, &doc["components"]["schemas"][&name], &name, seen, out);
        }
        return;
    }
    let has = |keys: &[&str]| keys.iter().any(|k| schema.get(*k).is_some());
    for choice in ["oneOf", "anyOf"] {
        for part in schema[choice].as_array().into_iter().flatten() {
            unlimited(doc, part, at, seen, out);
        }
    }
    if let Some(parts) = schema["allOf"].as_array() {
        // Limits beside a reference (`allOf`: the type, then its limits).
        for part in parts
            .iter()
            .filter(|p| parts.len() == 1 || p.get("$ref").is_none())
        {
            unlimited(doc, part, at, seen, out);
        }
        return;
    }
    let types: Vec<&str> = match &schema["type"] {
        Value::String(t) => vec![t.as_str()],
        Value::Array(ts) => ts.iter().filter_map(Value::as_str).collect(),
        _ => vec![],
    };
    let kinds = [
        (
            "string",
            has(&["enum", "const", "pattern", "maxLength", "format"]),
        ),
        (
            "integer",
            has(&["enum"]) || has(&["minimum"]) && has(&["maximum"]),
        ),
        ("array", has(&["maxItems"])),
    ];
    for (kind, limited) in kinds {
        if types.contains(&kind) && !limited {
            out.push(format!("{at} ({kind})"));
        }
    }
    unlimited(doc, &schema["items"], &format!("{at}[]"), seen, out);
    unlimited(
        doc,
        &schema["additionalProperties"],
        &format!("{at}.*"),
        seen,
        out,
    );
    for (name, property) in schema["properties"].as_object().into_iter().flatten() {
        unlimited(doc, property, &format!("{at}.{name}"), seen, out);
    }
}

#[test]
fn every_request_field_says_its_limits() {
    let doc = Contract::committed().doc;
    let mut out = Vec::new();
    for (path, item) in doc["paths"].as_object().unwrap() {
        for (method, op) in item.as_object().unwrap() {
            for parameter in op["parameters"].as_array().into_iter().flatten() {
                let at = format!("{method} {path}?{}", parameter["name"].as_str().unwrap());
                unlimited(&doc, &parameter["schema"], &at, &mut Vec::new(), &mut out);
            }
            let body = &op["requestBody"]["content"]["application/json"]["schema"];
            let at = format!("{method} {path} body");
            unlimited(&doc, body, &at, &mut Vec::new(), &mut out);
        }
    }
    out.retain(|at| !NOT_SENT.iter().any(|prefix| at.starts_with(prefix)));
    out.sort();
    out.dedup();
    assert!(out.is_empty(), "request fields without limits: {out:#?}");
}

/// Whether `text` meets the JSON Schema `{"pattern": pattern}`.
fn meets(pattern: &str, text: &str) -> bool {
    let schema = json!({"type": "string", "pattern": pattern});
    jsonschema::draft202012::new(&schema)
        .unwrap_or_else(|e| panic!("{pattern}: {e}"))
        .is_valid(&json!(text))
}

#[test]
fn the_patterns_take_what_the_core_takes() {
    let card = format!("^{CARD_PATTERN}$");
    let mut tokens: Vec<String> = [
        "JK", "jk", "Joker", "10h", "10♠", "1h", "Xs", "A", "As ", "AsK",
    ]
    .map(String::from)
    .to_vec();
    for rank in "23456789tTjJqQkKaA1".chars() {
        for suit in "shdcSHDC♠♤♥♡♦♢♣♧xz".chars() {
            tokens.push(format!("{rank}{suit}"));
        }
    }
    for token in &tokens {
        let core = !token.contains(' ') && parse_card(token).is_ok();
        assert_eq!(meets(&card, token), core, "card {token:?}");
    }
    let samples = [
        "Ann",
        " Ann ",
        "",
        "   ",
        "A\u{200B}nn",
        "A\u{7}b",
        "A\u{85}b",
        "Zoë",
        "a\nb",
        "a\r\nb",
        "a\rb",
        "\u{E0041}x",
        "x\u{FEFF}",
        "名前",
        "\u{2066}x",
    ];
    for text in samples {
        let line = FreeText::line("name", text, 64).is_ok();
        assert_eq!(meets(&pattern(false), text), line, "line {text:?}");
        let paragraph = FreeText::paragraph("reason", text, 500).is_ok();
        assert_eq!(meets(&pattern(true), text), paragraph, "paragraph {text:?}");
    }
    for p in 0..=1000 {
        for text in [
            format!("{p}:1"),
            format!("{p:03}:1"),
            format!("{p:04}:1"),
            format!("{p}:x"),
        ] {
            let core = Ratio::parse("payout", &text).is_ok();
            assert_eq!(meets(Ratio::PATTERN, &text), core, "payout {text:?}");
        }
    }
}

async fn what_the_contract_forbids_is_refused_naming_it(backend: Backend) {
    let app = spawn_app(backend).await;
    let before = log_records(&app.database.db).await.len();
    let seven = "As Ks Qd Jc 9h 8s 8d";
    let cases = [
        // Options a route does not read are still checked.
        (
            "/api/v1/hands/eval",
            json!({"cards": "As Ks Qs Js Ts", "options": {"tppp_max_per_table": 2147483648_u64}}),
            "options.tppp_max_per_table",
        ),
        (
            "/api/v1/hands/ev",
            json!({"cards": seven, "options": {"pd_rotation_minutes": 721}}),
            "options.pd_rotation_minutes",
        ),
        (
            "/api/v1/hands/house-way",
            json!({"cards": seven, "options": {"pd_min_wagers": 101}}),
            "options.pd_min_wagers",
        ),
        // An object written as an array of its fields.
        (
            "/api/v1/hands/eval",
            json!({"cards": "As Ks Qs Js Ts", "options": [null, null]}),
            "options",
        ),
        (
            "/api/v1/ten-thousand/score",
            json!({"dice": [1, 5], "options": [6]}),
            "options",
        ),
        // A list of cards holds a card an item.
        (
            "/api/v1/hands/eval",
            json!({"cards": ["As Ks", "Qs", "Js", "Ts"]}),
            "cards",
        ),
        // A test's number of questions, whatever the mode.
        (
            "/api/v1/drill-runs",
            json!({"kind": "action-seat", "mode": "practice", "questions": 0}),
            "questions",
        ),
        (
            "/api/v1/tables",
            json!({"name": "T9", "profile": "lucky-chances", "seats": 7,
                   "options": {"pd_min_wagers": 2147483648_u64}}),
            "pd_min_wagers",
        ),
    ];
    for (path, body, field) in cases {
        post_bad_field(&app, path, body, field, None).await;
    }
    let response = app
        .client
        .get(app.url("/api/v1/reports/shift?to=2026-01-01&to=2026-01-02"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(bad_input_body(&body).0, "query", "{body}");
    assert_eq!(
        log_records(&app.database.db).await.len(),
        before,
        "nothing recorded"
    );
}

async fn a_whole_number_written_with_a_fraction_is_an_integer(backend: Backend) {
    let app = spawn_app(backend).await;
    let (status, whole, _) = app
        .post_json("/api/v1/dice", &json!({"dice": [4, 5, 3], "pd_seat": 7}))
        .await;
    assert_eq!(status, 200, "{whole}");
    let (status, fraction, _) = app
        .post_json(
            "/api/v1/dice",
            &json!({"dice": [4.0, 5, 3], "pd_seat": 7.0}),
        )
        .await;
    assert_eq!((status, &fraction), (200, &whole));
    let half = json!({"dice": [4.5, 5, 3], "pd_seat": 7});
    post_bad_field(&app, "/api/v1/dice", half, "dice[0]", None).await;
}

on_both_databases!(
    what_the_contract_forbids_is_refused_naming_it,
    a_whole_number_written_with_a_fraction_is_an_integer,
);
