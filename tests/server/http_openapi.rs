//! The API contract against the running server, on both databases: the
//! served document is the committed one; every `/api/v1` route the router
//! has is in it with exactly its methods (and nothing else is); the compute
//! routes answer their documented request examples with the documented
//! answers; and every answer a script of the stateful routes gets — the
//! successes and each kind of refusal — meets the documented schema for its
//! status, strictly (no field the contract does not name).
//!
//! The routes are found where they are written: every string literal in
//! src/web that starts with `/api/v1` is asked for with the TRACE method,
//! which no route serves: a route answers 405 with its `Allow` methods, a
//! literal that is no route (a link, a message) 404. A route whose path is
//! built at run time would escape this; none is.

use std::collections::BTreeMap;
use std::path::Path;

use pitbook::domain::staff::Role;
use reqwest::Method;
use serde_json::{Value, json};

use crate::common::{Backend, TEST_ADMIN, TEST_PASSWORD, TestApp, spawn_app};
use crate::contract::Contract;

async fn the_served_document_is_the_committed_one(backend: Backend) {
    let app = spawn_app(backend).await;
    // No sign-in: a client reads the contract before it has a token.
    let response = reqwest::get(app.url("/api/v1/openapi.json")).await.unwrap();
    assert_eq!(response.status().as_u16(), 200);
    let content_type = response.headers()["content-type"]
        .to_str()
        .unwrap()
        .to_string();
    assert!(
        content_type.starts_with("application/json"),
        "{content_type}"
    );
    let served = response.text().await.unwrap();
    let file = std::fs::read_to_string(crate::common::docs::doc_path("openapi.json")).unwrap();
    assert!(
        served == file,
        "the served document is not docs/openapi.json"
    );
}

/// Every string literal starting with `/api/v1` in the Rust files under
/// `dir` (comments skipped), up to a `?`.
fn api_literals(dir: &Path, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            api_literals(&path, out);
            continue;
        }
        if path.extension().is_none_or(|e| e != "rs") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for line in text.lines() {
            let code = line.trim_start();
            if code.starts_with("//") {
                continue;
            }
            for (i, _) in code.match_indices("\"/api/v1") {
                let rest = &code[i + 1..];
                let end = rest.find(['"', '?']).unwrap_or(rest.len());
                out.push(rest[..end].to_string());
            }
        }
    }
}

/// A concrete path for a route pattern (`{id}` → `probe-id`).
fn concrete(pattern: &str) -> String {
    pattern
        .split('/')
        .map(
            |s| match s.strip_prefix('{').and_then(|s| s.strip_suffix('}')) {
                Some(name) => format!("probe-{name}"),
                None => s.to_string(),
            },
        )
        .collect::<Vec<_>>()
        .join("/")
}

/// The methods the router serves at `pattern` (HEAD aside), or None when
/// nothing is routed there.
async fn routed_methods(app: &TestApp, pattern: &str) -> Option<Vec<String>> {
    let response = app
        .client
        .request(Method::TRACE, app.url(&concrete(pattern)))
        .send()
        .await
        .unwrap();
    match response.status().as_u16() {
        404 => None,
        405 => {
            let allow = response.headers()["allow"].to_str().unwrap();
            let mut methods: Vec<String> = allow
                .split(',')
                .map(|m| m.trim().to_lowercase())
                .filter(|m| m != "head")
                .collect();
            methods.sort();
            Some(methods)
        }
        other => panic!("TRACE {pattern}: {other}, not 404 or 405"),
    }
}

async fn every_api_route_is_in_the_contract_with_its_methods(backend: Backend) {
    let app = spawn_app(backend).await;
    let contract = Contract::committed();
    let documented: BTreeMap<String, Vec<String>> = contract.doc["paths"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(path, item)| {
            let mut methods: Vec<String> = item.as_object().unwrap().keys().cloned().collect();
            methods.sort();
            (path.clone(), methods)
        })
        .collect();

    let mut literals = Vec::new();
    api_literals(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src/web"),
        &mut literals,
    );
    literals.sort();
    literals.dedup();
    let mut routed = BTreeMap::new();
    for pattern in literals {
        if let Some(methods) = routed_methods(&app, &pattern).await {
            routed.insert(pattern, methods);
        }
    }
    assert!(
        routed.len() >= 35,
        "only {} routes found: {routed:?}",
        routed.len()
    );
    for (pattern, methods) in &routed {
        assert_eq!(
            documented.get(pattern),
            Some(methods),
            "{pattern} is routed for {methods:?}: the contract must say so (docs/api.md)"
        );
    }
    // And nothing is documented that is not routed so.
    for (path, methods) in &documented {
        assert_eq!(
            routed_methods(&app, path).await.as_ref(),
            Some(methods),
            "{path} is in the contract but not routed for {methods:?}"
        );
    }
}

/// The compute routes: no path parameters, nothing stored.
const COMPUTE_TAGS: [&str; 4] = ["hand tools", "settle", "dice games", "tripoley"];

async fn the_compute_routes_answer_their_examples_as_documented(backend: Backend) {
    let app = spawn_app(backend).await;
    let contract = Contract::committed();
    let mut asked = 0;
    for (path, item) in contract.doc["paths"].as_object().unwrap() {
        let Some(op) = item.get("post") else { continue };
        let tag = op["tags"][0].as_str().unwrap_or_default();
        // A hand's value is counted for real by http_hand_value (its
        // documented answer holds made-up counts; its shape is checked
        // from the core, openapi_contract).
        if !COMPUTE_TAGS.contains(&tag) || path == "/api/v1/hands/ev" {
            continue;
        }
        let example = &op["requestBody"]["content"]["application/json"]["example"];
        assert!(example.is_object(), "{path} has no request example");
        let (status, body, _) = app.post_json(path, example).await;
        assert_eq!(status, 200, "{path}: {body}");
        contract.check_response("post", path, 200, &body);
        let documented = &op["responses"]["200"]["content"]["application/json"]["example"];
        assert_eq!(
            &body, documented,
            "{path}: the documented answer is not the server's"
        );
        // A body of the wrong shape is the documented 422, naming a field.
        let (status, refused, _) = app.post_json(path, &json!({"nothing": true})).await;
        assert_eq!(status, 422, "{path}: {refused}");
        contract.check_response("post", path, 422, &refused);
        assert!(refused["field"].is_string(), "{path}: {refused}");
        asked += 1;
    }
    assert!(asked >= 11, "only {asked} compute routes asked");
}

/// A client that checks every answer against the contract.
struct Checked<'a> {
    app: &'a TestApp,
    contract: &'a Contract,
    client: reqwest::Client,
}

impl Checked<'_> {
    /// `method` `path` (the documented pattern, `{name}`s filled from
    /// `args` in order), with `query` and `body`; the answer must have
    /// `status` and meet the contract. Returns the body.
    async fn call(
        &self,
        method: &str,
        pattern: &str,
        args: &[&str],
        query: &str,
        body: Option<Value>,
        status: u16,
    ) -> Value {
        let mut path = pattern.to_string();
        for arg in args {
            let start = path.find('{').expect("a parameter to fill");
            let end = path[start..].find('}').unwrap() + start;
            path.replace_range(start..=end, arg);
        }
        let url = self.app.url(&format!("{path}{query}"));
        let mut request = self.client.request(method.parse().unwrap(), url);
        if let Some(body) = &body {
            request = request.json(body);
        }
        let response = request.send().await.unwrap();
        let got = response.status().as_u16();
        let text = response.text().await.unwrap();
        assert_eq!(got, status, "{method} {path}{query}: {text}");
        let value: Value = serde_json::from_str(&text)
            .unwrap_or_else(|e| panic!("{method} {path}: not JSON ({e}): {text}"));
        self.contract
            .check_response(&method.to_lowercase(), pattern, status, &value);
        value
    }
}

async fn every_answer_of_the_stateful_routes_meets_the_contract(backend: Backend) {
    let app = spawn_app(backend).await;
    let contract = Contract::committed();
    let admin = Checked {
        app: &app,
        contract: &contract,
        client: app.client.clone(),
    };
    let example = |method: &str, path: &str| {
        contract.operation(method, path)["requestBody"]["content"]["application/json"]["example"]
            .clone()
    };

    // Tables: the documented example, and one with a rotation clock.
    let t1 = example("post", "/api/v1/tables");
    admin
        .call("POST", "/api/v1/tables", &[], "", Some(t1), 201)
        .await;
    let clocked = json!({"name": "T2", "profile": "lucky-chances", "seats": 7,
        "options": {"pd_rotation_minutes": 60, "pd_rotation_min_other_players": 1}});
    admin
        .call("POST", "/api/v1/tables", &[], "", Some(clocked), 201)
        .await;
    admin
        .call("GET", "/api/v1/tables/{name}", &["T1"], "", None, 200)
        .await;
    app.add_user("dana", Role::Dealer).await;
    let assign = json!({"dealer": "dana", "assigned": true});
    let tables_dealers = "/api/v1/tables/{name}/dealers";
    admin
        .call("POST", tables_dealers, &["T1"], "", Some(assign), 200)
        .await;

    // A shift with a dealer change.
    let shift = admin
        .call(
            "POST",
            "/api/v1/shifts",
            &[],
            "",
            Some(json!({"table": "T1"})),
            201,
        )
        .await;
    let shift_id = shift["shift"]["id"].as_str().unwrap().to_string();
    let change = json!({"table": "T1", "dealer": "dana"});
    let shift_dealers = "/api/v1/shifts/{id}/dealers";
    admin
        .call("POST", shift_dealers, &[&shift_id], "", Some(change), 200)
        .await;
    admin
        .call("GET", "/api/v1/shifts", &[], "", None, 200)
        .await;
    admin
        .call("GET", "/api/v1/shifts/{id}", &[&shift_id], "", None, 200)
        .await;

    // A hand: opened, played to its settlement, a note, read back.
    let opened = admin
        .call(
            "POST",
            "/api/v1/hands",
            &[],
            "",
            Some(example("post", "/api/v1/hands")),
            201,
        )
        .await;
    let hand = opened["hand_id"].as_str().unwrap().to_string();
    let events = json!([
        {"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200", "option": "bank_one"},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
        {"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "40", "payout": "3:2"},
        {"type": "collection_taken"},
        {"type": "action_set", "dice": [4, 5, 3]},
        {"type": "outcome_recorded", "seat": 4, "outcome": "pd"},
        {"type": "hand_recorded", "seat": 5, "hand": {"high": "Kd Ks 7c 5h 3d", "low": "Qh Js"}},
        {"type": "hand_recorded", "seat": 1, "hand": {"cards": "As Ad 9c 8c 4h 3s 2d", "set": "house"}},
    ]);
    let commands = "/api/v1/hands/{id}/commands";
    let body = json!({"idempotency_key": "flow-1", "expected_version": 1, "events": events});
    let played = admin
        .call("POST", commands, &[&hand], "", Some(body), 200)
        .await;
    let version = played["version"].as_u64().unwrap();
    let steps = json!({"idempotency_key": "flow-2", "expected_version": version, "events": [
        {"type": "steps_confirmed", "wagers": ["w2", "w1"]}, {"type": "hand_closed"}]});
    let closed = admin
        .call("POST", commands, &[&hand], "", Some(steps), 200)
        .await;
    assert!(closed["settlement"]["steps"].is_array(), "{closed}");
    let version = closed["version"].as_u64().unwrap();
    let note =
        json!({"idempotency_key": "flow-3", "expected_version": version, "text": "Checked."});
    let notes = "/api/v1/hands/{id}/notes";
    admin
        .call("POST", notes, &[&hand], "", Some(note), 200)
        .await;
    admin
        .call("GET", "/api/v1/hands/{id}", &[&hand], "", None, 200)
        .await;

    // Its history.
    let found = admin
        .call("GET", "/api/v1/hands", &[], "?table=T1&limit=5", None, 200)
        .await;
    assert_eq!(found["totals"]["hands"], 1, "{found}");
    let ann = "/api/v1/players/history";
    admin.call("GET", ann, &[], "?player=ann", None, 200).await;
    admin
        .call("GET", ann, &[], "?player=nobody", None, 200)
        .await;

    // The floor: a TPPP, marked; the rotation clock and its override.
    let tppp = example("post", "/api/v1/tppps");
    admin
        .call("POST", "/api/v1/tppps", &[], "", Some(tppp), 201)
        .await;
    let mark = json!({"name": "Pat Lee", "marked": true});
    let table_tppps = "/api/v1/tables/{name}/tppps";
    admin
        .call("POST", table_tppps, &["T1"], "", Some(mark), 200)
        .await;
    admin.call("GET", "/api/v1/tppps", &[], "", None, 200).await;
    let clock = "/api/v1/tables/{name}/rotation-clock";
    let none = admin.call("GET", clock, &["T1"], "", None, 200).await;
    assert!(none["clock"].is_null(), "{none}");
    let running = admin.call("GET", clock, &["T2"], "", None, 200).await;
    assert!(running["clock"].is_object(), "{running}");
    let reason = json!({"reason": "No other player will bank tonight."});
    let over = "/api/v1/tables/{name}/rotation-override";
    admin
        .call("POST", over, &["T2"], "", Some(reason), 201)
        .await;

    // The shift's reports: as it stands, closed and signed, any range.
    let report = "/api/v1/shifts/{id}/report";
    admin.call("GET", report, &[&shift_id], "", None, 200).await;
    let close = "/api/v1/shifts/{id}/close";
    let signed = admin.call("POST", close, &[&shift_id], "", None, 200).await;
    assert_eq!(signed["signature"]["state"], "signed", "{signed}");
    admin.call("GET", report, &[&shift_id], "", None, 200).await;
    let range = "/api/v1/reports/shift";
    admin
        .call(
            "GET",
            range,
            &[],
            "?table=T1&from=2000-01-01T00:00&to=2100-01-01T00:00",
            None,
            200,
        )
        .await;

    // A trainee's drills.
    app.add_user("tess", Role::Trainee).await;
    let tess = Checked {
        app: &app,
        contract: &contract,
        client: app.client_with_token(&app.token_for("tess").await),
    };
    let start = json!({"kind": "settle-all", "level": 3, "mode": "test", "questions": 2});
    tess.call("POST", "/api/v1/drill-runs", &[], "", Some(start), 200)
        .await;
    for kind in [
        "action-seat",
        "settle-all",
        "house-way",
        "tripoley",
        "poker-dice",
    ] {
        let ask = json!({"kind": kind, "level": 3, "seed": 11});
        let drill = tess
            .call("POST", "/api/v1/drills", &[], "", Some(ask), 200)
            .await;
        let id = drill["id"].as_str().unwrap().to_string();
        // Not graded as right or wrong here: the answer's shape is wrong.
        let wrong = json!({"answer": {"nothing": 1}});
        let answer = "/api/v1/drills/{id}/answer";
        tess.call("POST", answer, &[&id], "", Some(wrong), 422)
            .await;
        let guess = match kind {
            "action-seat" => json!({"seat": 1}),
            "house-way" => {
                // Some setting of the seven cards: right or wrong, it is graded.
                let cards: Vec<&str> = drill["question"]["cards"]
                    .as_str()
                    .unwrap()
                    .split_whitespace()
                    .collect();
                json!({"high": cards[..5].join(" "), "low": cards[5..].join(" ")})
            }
            _ => continue,
        };
        let body = json!({"answer": guess});
        let graded = tess.call("POST", answer, &[&id], "", Some(body), 200).await;
        assert!(graded["right"].is_boolean(), "{graded}");
    }
    let progress = "/api/v1/training/progress";
    tess.call("GET", progress, &[], "", None, 200).await;
    admin
        .call("GET", progress, &[], "?trainee=tess", None, 200)
        .await;

    // Who is signed in; the probes.
    admin.call("GET", "/api/v1/me", &[], "", None, 200).await;
    admin.call("GET", "/healthz", &[], "", None, 200).await;
    admin.call("GET", "/readyz", &[], "", None, 200).await;

    // Each kind of refusal is the documented Error body.
    admin
        .call(
            "GET",
            "/api/v1/hands/{id}",
            &["no-such-hand"],
            "",
            None,
            404,
        )
        .await;
    let stale = json!({"idempotency_key": "flow-4", "expected_version": 1,
        "events": [{"type": "hand_voided", "reason": "late"}]});
    admin
        .call("POST", commands, &[&hand], "", Some(stale), 409)
        .await;
    let unknown =
        json!({"idempotency_key": "flow-5", "events": [{"type": "hand_opened", "table": "T9"}]});
    let refused = admin
        .call("POST", "/api/v1/hands", &[], "", Some(unknown), 422)
        .await;
    assert_eq!(refused["field"], "events[0].table", "{refused}");
    admin
        .call("GET", "/api/v1/hands", &[], "?date=2026-13-01", None, 422)
        .await;
    let nobody = Checked {
        app: &app,
        contract: &contract,
        client: reqwest::Client::new(),
    };
    nobody.call("GET", "/api/v1/me", &[], "", None, 401).await;
    let dealer = Checked {
        app: &app,
        contract: &contract,
        client: app.client_with_token(&app.token_for("dana").await),
    };
    let t3 = json!({"name": "T3", "profile": "lucky-chances", "seats": 7});
    dealer
        .call("POST", "/api/v1/tables", &[], "", Some(t3), 403)
        .await;
    // A session cookie with a body that is not JSON.
    let cookie = app.login(TEST_ADMIN, TEST_PASSWORD).await;
    let response = cookie
        .post(app.url("/api/v1/hands/eval"))
        .header("content-type", "text/plain")
        .body("{\"cards\": \"As Ks Qs Js Ts\"}")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let body: Value = response.json().await.unwrap();
    contract.check_response("post", "/api/v1/hands/eval", 415, &body);
}

on_both_databases!(
    the_served_document_is_the_committed_one,
    every_api_route_is_in_the_contract_with_its_methods,
    the_compute_routes_answer_their_examples_as_documented,
    every_answer_of_the_stateful_routes_meets_the_contract,
);
