//! Shifts (docs/shifts.md) on both databases: a hand refused outside a shift
//! when one is required, one open shift a table, dealer changes checked
//! against the table's dealers, a random shift's report against the sum
//! of its hands, the signature superseded by a correction, `audit verify`
//! replaying it all and catching a tampered row; the pages' refusals
//! beside their fields.

use crate::common::browser::{plain_text, signed_in};
use crate::common::{Backend, TestApp, bad_input_body, records, spawn_app, tamper, test_key};
use pitbook::domain::common::money::Money;
use pitbook::domain::staff::Role;
use serde_json::{Value, json};

/// A whole hand at a collecting `table`: Pat banks `bank`, each amount a
/// wager from seat 2 on, the first to the PD, the rest to the players.
pub fn collecting_hand(table: &str, bank: u32, amounts: &[u32]) -> Value {
    let mut events = vec![
        json!({"type": "hand_opened", "table": table}),
        json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": bank.to_string()}),
        json!({"type": "collection_taken"}),
    ];
    let names = ["Ann", "Bo", "Cy", "Di", "Ed", "Flo"];
    let mut ids = Vec::new();
    for (i, a) in amounts.iter().enumerate() {
        let id = format!("w{i}");
        events.push(json!({"type": "wager_placed", "id": id, "seat": i + 2,
            "bettor": names[i], "amount": a.to_string()}));
        ids.push(id);
    }
    events.push(json!({"type": "action_set", "seat": 2}));
    for i in 0..amounts.len() {
        let outcome = if i == 0 { "pd" } else { "player" };
        events.push(json!({"type": "outcome_recorded", "seat": i + 2, "outcome": outcome}));
    }
    events.push(json!({"type": "steps_confirmed", "wagers": ids}));
    events.push(json!({"type": "hand_closed"}));
    json!({"idempotency_key": uuid::Uuid::new_v4().to_string(), "events": events})
}

async fn post(app: &TestApp, path: &str, body: Value) -> (u16, Value) {
    let (status, body, _) = app.post_json(path, &body).await;
    (status, body)
}

fn money(v: &Value) -> Money {
    Money::parse(v.as_str().unwrap_or_else(|| panic!("money: {v}"))).expect("money")
}

/// The text of each numeric cell (`class="num"`) of the table row opened
/// by `row` in `html`.
fn numeric_cells(html: &str, row: &str) -> Vec<String> {
    let start = html
        .find(row)
        .unwrap_or_else(|| panic!("no {row} in {html}"));
    let row = &html[start..start + html[start..].find("</tr>").unwrap()];
    row.split("<td class=\"num")
        .skip(1)
        .map(|cell| {
            let text = &cell[cell.find('>').unwrap() + 1..];
            plain_text(&text[..text.find("</td>").unwrap()])
        })
        .collect()
}

/// A small deterministic generator: the same "random" shift each run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self, below: u32) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % u64::from(below)) as u32
    }
}

async fn a_shift_runs_and_its_report_adds_up(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    app.configured_table("T2", true).await;
    app.add_user("dana", Role::Dealer).await;
    app.add_user("eve", Role::Dealer).await;
    app.assign("T1", "dana").await;
    app.assign("T1", "eve").await;
    pitbook::store::shifts::set_required(&app.database.db, &test_key(), "test-admin", true)
        .await
        .expect("required");

    // Outside a shift, with shifts required: refused, nothing recorded.
    let (status, body) = post(&app, "/api/v1/hands", collecting_hand("T1", 200, &[50])).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body.to_string().contains("no shift is open at T1"),
        "{body}"
    );
    assert_eq!(records(&app, "hand_opened").await, 0);

    let (status, opened) = post(&app, "/api/v1/shifts", json!({})).await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["shift"]["id"].as_str().expect("id").to_string();
    let shifts_before = records(&app, "shift_opened").await;
    // A second shift for a covered table, an unknown table, a bad body.
    let (status, body) = post(&app, "/api/v1/shifts", json!({"table": "T1"})).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body.to_string()
            .contains("the room's open shift already covers T1")
    );
    let (status, body) = post(&app, "/api/v1/shifts", json!({"table": "T9"})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "table");
    let (status, _) = post(&app, "/api/v1/shifts", json!({"tables": "T1"})).await;
    assert_eq!(status, 422);
    assert_eq!(records(&app, "shift_opened").await, shifts_before);

    // Dealer changes: someone not assigned at the table is refused.
    let dealers = format!("/api/v1/shifts/{id}/dealers");
    let (status, body) = post(&app, &dealers, json!({"table": "T1", "dealer": "zed"})).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "dealer");
    assert_eq!(records(&app, "dealer_changed").await, 0);
    let (status, body) = post(&app, &dealers, json!({"table": "T1", "dealer": "dana"})).await;
    assert_eq!(status, 200, "{body}");

    // A random shift: hands at both tables, a dealer change halfway.
    let mut rng = Lcg(backend as u64 + 19);
    let mut ids = Vec::new();
    let n = 6 + rng.next(5);
    for i in 0..n {
        if i == n / 2 {
            let (status, body) =
                post(&app, &dealers, json!({"table": "T1", "dealer": "eve"})).await;
            assert_eq!(status, 200, "{body}");
        }
        let table = if rng.next(3) == 0 { "T2" } else { "T1" };
        let amounts: Vec<u32> = (0..1 + rng.next(4))
            .map(|_| 20 + 5 * rng.next(17))
            .collect();
        let bank = 300 + 50 * rng.next(5);
        let (status, body) = post(
            &app,
            "/api/v1/hands",
            collecting_hand(table, bank, &amounts),
        )
        .await;
        assert_eq!(status, 201, "{body}");
        ids.push(body["hand_id"].as_str().expect("hand_id").to_string());
    }

    // A hand still open at a real table holds the close back; a practice
    // hand left open at a training table does not.
    let training = json!({"name": "TT", "profile": "lucky-chances", "seats": 7, "training": true});
    let (status, body) = post(&app, "/api/v1/tables", training).await;
    assert_eq!(status, 201, "{body}");
    let open_at = |table: &str| {
        json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
        "events": [{"type": "hand_opened", "table": table}]})
    };
    let (status, practice) = post(&app, "/api/v1/hands", open_at("TT")).await;
    assert_eq!(status, 201, "{practice}");
    let (status, open) = post(&app, "/api/v1/hands", open_at("T2")).await;
    assert_eq!(status, 201, "{open}");
    let (status, body) = post(&app, &format!("/api/v1/shifts/{id}/close"), json!({})).await;
    assert_eq!(status, 409, "{body}");
    assert!(
        body.to_string().contains("T2 #"),
        "names the hand open: {body}"
    );
    assert!(
        !body.to_string().contains("TT #"),
        "not the practice hand: {body}"
    );
    let open_id = open["hand_id"].as_str().expect("hand_id");
    let void = json!({"idempotency_key": "void", "expected_version": 1, "events": [
        {"type": "hand_voided", "reason": "opened by mistake"}
    ]});
    let (status, body) = post(&app, &format!("/api/v1/hands/{open_id}/commands"), void).await;
    assert_eq!(status, 200, "{body}");
    ids.push(open_id.to_string());

    let (status, report) = post(&app, &format!("/api/v1/shifts/{id}/close"), json!({})).await;
    assert_eq!(status, 200, "{report}");
    assert_eq!(report["signature"]["state"], "signed", "{report}");
    // The report against the sum of its hands, each read on its own.
    let mut drop = Money::ZERO;
    for hand in &ids {
        let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
        if let Some(c) = view["house_collection"].as_str() {
            drop += Money::parse(c).expect("money");
        }
    }
    assert_eq!(report["room"]["hands"], ids.len());
    assert_eq!(money(&report["room"]["drop"]), drop);
    let (_, all) = app.get_json("/api/v1/hands").await;
    assert_eq!(
        money(&report["room"]["drop"]),
        money(&all["totals"]["house_collection"])
    );
    assert_eq!(
        money(&report["room"]["wagered"]),
        money(&all["totals"]["wagered"])
    );
    assert_eq!(
        money(&report["room"]["pd_net"]),
        money(&all["totals"]["pd_results"])
    );
    let tables = report["tables"].as_array().expect("tables");
    let per_table: Money = tables.iter().map(|t| money(&t["drop"])).sum();
    assert_eq!(per_table, drop, "the tables add up to the room");
    assert_eq!(report["dealer_changes"].as_array().map(Vec::len), Some(2));
    assert_eq!(report["anchors"].as_array().map(Vec::len), Some(2));

    // The report's page: the room's totals in its table's foot, the counts
    // and the JSON's amounts as a cashier reads them ("1,234.50", "−60.00").
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let page = sam.get(&format!("/shifts/{id}/report")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let room = &report["room"];
    let mut want: Vec<String> = ["hands", "closed", "voided", "corrected", "open"]
        .iter()
        .map(|k| room[k].to_string())
        .collect();
    want.extend(
        ["wagered", "drop", "drop_per_hour", "pd_net"]
            .iter()
            .map(|k| money(&room[k]).to_display()),
    );
    assert_eq!(
        numeric_cells(&page.body, "<tfoot><tr class=\"total\" id=\"totals-room\">"),
        want,
        "{}",
        page.body
    );
    // A shift with hands has its charts.
    assert!(
        page.body.contains("class=\"report-charts\""),
        "{}",
        page.body
    );
    assert!(!page.body.contains("id=\"no-charts\""), "{}", page.body);
    // Each chart reads without hovering: its title and axes in view, the
    // room's drop at its table's bar.
    let drop_table = &page.body[page.body.find("id=\"chart-drop-table\"").unwrap()..];
    let drop_table = &drop_table[..drop_table.find("</svg>").unwrap()];
    for visible in [
        "class=\"chart-title\">Drop per table</text>",
        "class=\"chart-axis\">drop (money)</text>",
        "class=\"chart-axis\">table</text>",
    ] {
        assert!(drop_table.contains(visible), "{visible}: {drop_table}");
    }
    // Each table's bar carries its figure in view, the one its title gives.
    let bars: Vec<&str> = drop_table.split("<title>").skip(1).collect();
    assert_eq!(bars.len(), 2, "T1 and T2: {drop_table}");
    for bar in bars {
        let figure = &bar[bar.find(": ").unwrap() + 2..bar.find("</title>").unwrap()];
        assert!(
            bar.contains(&format!("class=\"chart-figure\">{figure}</text>")),
            "{figure} at its bar: {bar}"
        );
    }

    // Closing twice, a dealer change after: refused, nothing recorded.
    let (status, _) = post(&app, &format!("/api/v1/shifts/{id}/close"), json!({})).await;
    assert_eq!(status, 409);
    let (status, _) = post(&app, &dealers, json!({"table": "T1", "dealer": "dana"})).await;
    assert_eq!(status, 409);
    assert_eq!(records(&app, "shift_closed").await, 1);

    // A correction supersedes the signed report and says which hand.
    let first = &ids[0];
    let (_, view) = app.get_json(&format!("/api/v1/hands/{first}")).await;
    let fix = json!({"idempotency_key": "fix", "expected_version": view["version"], "events": [
        {"type": "outcome_corrected", "seat": 2, "outcome": "player", "reason": "misread seat 2"}
    ]});
    let (status, body) = post(&app, &format!("/api/v1/hands/{first}/commands"), fix).await;
    assert_eq!(status, 200, "{body}");
    let (status, now) = app.get_json(&format!("/api/v1/shifts/{id}/report")).await;
    assert_eq!(status, 200);
    assert_eq!(now["signature"]["state"], "superseded", "{now}");
    assert_eq!(now["signature"]["changed"][0]["hand"], first.as_str());
    assert_eq!(now["signature"]["changed"][0]["reason"], "misread seat 2");

    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");

    // The CLI gives the same report; a backwards range is exit 2.
    let url = app.database.url.clone();
    let (code, out, err) = crate::cli_export::run(&[
        "report",
        "shift",
        "--shift",
        &id,
        "--format",
        "json",
        "--database-url",
        &url,
    ]);
    assert_eq!(code, 0, "{err}");
    let cli: Value = serde_json::from_str(&out).expect("json");
    assert_eq!(cli["room"], now["room"]);
    assert_eq!(cli["digest"], now["digest"]);
    assert_eq!(cli["signature"]["state"], "superseded");
    let (code, out, _) = crate::cli_export::run(&[
        "report",
        "shift",
        "--format",
        "csv",
        "--date",
        "2020-01-01",
        "--database-url",
        &url,
    ]);
    assert_eq!(code, 0);
    assert!(out.starts_with("scope,table,hands"), "{out}");
    let (code, out, err) = crate::cli_export::run(&[
        "report",
        "shift",
        "--from",
        "2026-12-03T16:00",
        "--to",
        "2026-12-03T08:00",
        "--database-url",
        &url,
    ]);
    assert_eq!((code, out.as_str()), (2, ""), "{err}");
    assert!(err.contains("--to:"), "{err}");

    // The CSV, and a range report refused when backwards or malformed.
    let csv = app
        .client
        .get(app.url(&format!("/api/v1/shifts/{id}/report?format=csv")))
        .send()
        .await
        .expect("csv");
    assert_eq!(csv.status(), 200);
    let text = csv.text().await.expect("text");
    assert!(text.starts_with("scope,table,hands,"), "{text}");
    for (query, field) in [
        ("from=2026-12-03T16:00&to=2026-12-03T08:00", "to"),
        ("from=yesterday&to=2026-12-03T08:00", "from"),
        ("date=2026-13-01", "date"),
        ("date=2026-12-03&table=T9", "table"),
        ("date=2026-12-03&format=xml", "format"),
    ] {
        let (status, body) = app
            .get_json(&format!("/api/v1/reports/shift?{query}"))
            .await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(bad_input_body(&body).0, field, "{query}");
    }
}

async fn verify_catches_a_tampered_shift_and_signature(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    let (status, opened) = post(&app, "/api/v1/shifts", json!({"table": "T1"})).await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["shift"]["id"].as_str().expect("id").to_string();
    let (status, body) = post(&app, "/api/v1/hands", collecting_hand("T1", 300, &[40, 60])).await;
    assert_eq!(status, 201, "{body}");
    let (status, _) = post(&app, &format!("/api/v1/shifts/{id}/close"), json!({})).await;
    assert_eq!(status, 200);
    let ok = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(ok.ok(), "{ok:?}");
    for statement in [
        "UPDATE shifts SET opened_by = 'mallory'",
        "UPDATE shift_signatures SET drop_total = '0.01'",
    ] {
        let app = spawn_app(backend).await;
        app.configured_table("T1", true).await;
        let (_, opened) = post(&app, "/api/v1/shifts", json!({})).await;
        let id = opened["shift"]["id"].as_str().expect("id").to_string();
        post(&app, "/api/v1/hands", collecting_hand("T1", 300, &[40])).await;
        post(&app, &format!("/api/v1/shifts/{id}/close"), json!({})).await;
        tamper(&app.database.db, &[statement]).await;
        let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
            .await
            .expect("verify");
        let problem = report
            .problem
            .as_ref()
            .map(|p| p.message.clone())
            .unwrap_or_default();
        assert!(problem.contains("stored as"), "{statement}: {report:?}");
    }
}

/// From every record on, `audit verify` resumes the shifts as their rows
/// stood before it and folds the shift records since: OK from every seq
/// over shifts that overlap, change dealers, close and sign; a dealer
/// change or a closing tampered is found from every seq up to its record.
async fn verify_from_any_record_resumes_the_shifts(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    app.configured_table("T2", true).await;
    app.add_user("dana", Role::Dealer).await;
    app.assign("T1", "dana").await;
    app.assign("T2", "dana").await;
    let open = |table: &'static str| {
        let app = &app;
        async move {
            let (status, body) = post(app, "/api/v1/shifts", json!({"table": table})).await;
            assert_eq!(status, 201, "{body}");
            body["shift"]["id"].as_str().expect("id").to_string()
        }
    };
    let change = |id: String, table: &'static str, dealer: Value| {
        let app = &app;
        async move {
            let path = format!("/api/v1/shifts/{id}/dealers");
            let (status, body) = post(app, &path, json!({"table": table, "dealer": dealer})).await;
            assert_eq!(status, 200, "{body}");
        }
    };
    let close = |id: String| {
        let app = &app;
        async move {
            let path = format!("/api/v1/shifts/{id}/close");
            let (status, body) = post(app, &path, json!({})).await;
            assert_eq!(status, 200, "{body}");
        }
    };
    let s1 = open("T1").await;
    change(s1.clone(), "T1", json!("dana")).await;
    post(&app, "/api/v1/hands", collecting_hand("T1", 300, &[40, 60])).await;
    let s2 = open("T2").await;
    post(&app, "/api/v1/hands", collecting_hand("T2", 200, &[50])).await;
    close(s1.clone()).await;
    change(s2.clone(), "T2", json!("dana")).await;
    let s3 = open("T1").await;
    change(s2.clone(), "T2", Value::Null).await;
    close(s2.clone()).await;
    post(&app, "/api/v1/hands", collecting_hand("T1", 300, &[40])).await;
    let db = &app.database.db;
    let head = pitbook::store::verify::anchor(db)
        .await
        .expect("head")
        .expect("records")
        .seq;
    for from in 1..=head {
        let report = pitbook::store::verify::verify(db, &test_key(), from, None)
            .await
            .expect("verify");
        assert!(report.ok(), "from {from}: {report:?}");
    }
    assert!(!s3.is_empty());
    let seq_of = |sql: String| async move {
        match db {
            pitbook::store::Db::Sqlite(pool) => sqlx::query_scalar(&sql).fetch_one(pool).await,
            pitbook::store::Db::Postgres(pool) => sqlx::query_scalar(&sql).fetch_one(pool).await,
        }
        .expect(&sql)
    };
    let last_change: i64 = seq_of("SELECT MAX(seq) FROM shift_dealers".to_string()).await;
    let s2_closed: i64 = seq_of(format!("SELECT closed_seq FROM shifts WHERE id = '{s2}'")).await;
    for (statement, seq) in [
        (
            format!("UPDATE shift_dealers SET changed_by = 'mallory' WHERE seq = {last_change}"),
            last_change,
        ),
        (
            format!("UPDATE shifts SET closed_by = 'mallory' WHERE id = '{s2}'"),
            s2_closed,
        ),
    ] {
        tamper(db, &[&statement]).await;
        for from in 1..=seq {
            let report = pitbook::store::verify::verify(db, &test_key(), from, None)
                .await
                .expect("verify");
            let problem = report.problem.expect("a problem");
            assert_eq!(problem.seq, seq, "{statement}, from {from}: {problem:?}");
            assert!(
                problem.message.contains("stored as") && problem.message.contains("mallory"),
                "{statement}, from {from}: {problem:?}"
            );
        }
        let undo = statement.replace("'mallory'", "'test-admin'");
        tamper(db, &[&undo]).await;
    }
}

async fn the_pages_keep_a_refused_dealer_beside_its_field(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let csrf = sam.csrf("/shifts").await;
    let page = sam.post("/shifts", &[("csrf", &csrf), ("table", "")]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    let shift_path = page.location.clone();
    let table = sam.get("/tables/T1").await;
    assert!(
        table.body.contains("the room's, open since") && table.body.contains("nobody recorded"),
        "the table page shows its shift: {}",
        table.body
    );
    let page = sam.get(&shift_path).await;
    assert!(page.body.contains("Close and sign"), "{}", page.body);
    let csrf = sam.csrf(&shift_path).await;
    let page = sam
        .post(
            &format!("{shift_path}/dealers"),
            &[("csrf", &csrf), ("table", "T1"), ("dealer", "zed")],
        )
        .await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains("zed is not assigned to T1"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("value=\"zed\""),
        "what was typed is kept"
    );
    let csrf = sam.csrf(&shift_path).await;
    let page = sam
        .post(&format!("{shift_path}/close"), &[("csrf", &csrf)])
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let report = sam.get(&page.location).await;
    assert_eq!(report.status, 200);
    assert!(report.body.contains("id=\"standing\""), "{}", report.body);
    assert!(report.body.contains("Signed by sam"), "{}", report.body);
    // A dealer may not open shifts or read reports.
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    assert_eq!(dana.get("/shifts").await.status, 403);
}

/// A shift with no hands says so where its charts would be, rather than
/// showing empty frames.
async fn a_shift_with_no_hands_has_no_charts(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    let (status, opened) = post(&app, "/api/v1/shifts", json!({"table": "T1"})).await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["shift"]["id"].as_str().expect("id").to_string();
    let (status, _) = post(&app, &format!("/api/v1/shifts/{id}/close"), json!({})).await;
    assert_eq!(status, 200);
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let page = sam.get(&format!("/shifts/{id}/report")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        plain_text(&page.body).contains("No hands in this shift, so nothing to chart."),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains("class=\"report-charts\""),
        "{}",
        page.body
    );
}

on_both_databases!(
    a_shift_with_no_hands_has_no_charts,
    a_shift_runs_and_its_report_adds_up,
    verify_catches_a_tampered_shift_and_signature,
    verify_from_any_record_resumes_the_shifts,
    the_pages_keep_a_refused_dealer_beside_its_field
);
