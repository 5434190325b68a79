//! The search over HTTP on both databases: each filter, keyset paging with
//! no hand twice or missing, the filtered set's totals, refusals naming
//! their field (JSON 422 and beside the field on the page), who may search,
//! and a player's history.

use std::collections::HashSet;

use crate::common::browser::{plain_text, text_of};
use crate::common::{Backend, TestApp, spawn_app};
use crate::http_numbers::{play, whole_hand};
use pitbook::domain::staff::Role;
use serde_json::json;

/// T1 (real): two closed hands and one open; TT (training): one closed.
/// Ann's seat goes to the PD, Bo's to the player, in every closed hand.
async fn four_hands(backend: Backend) -> TestApp {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let config = json!({"name": "TT", "profile": "lucky-chances", "seats": 7, "training": true});
    let (status, body, _) = app.post_json("/api/v1/tables", &config).await;
    assert_eq!(status, 201, "{body}");
    play(&app, whole_hand("T1", "200", "60", "60")).await; // PD net 0
    play(&app, whole_hand("T1", "500", "100", "20")).await; // PD net +80
    play(&app, whole_hand("TT", "300", "40", "50")).await; // PD net −10
    let open = json!({"idempotency_key": "open-1", "events": [
        {"type": "hand_opened", "table": "T1"},
        {"type": "pd_set", "seat": 2, "player": "Cy", "bank": "1000"}
    ]});
    play(&app, open).await;
    app
}

async fn search(app: &TestApp, query: &str) -> serde_json::Value {
    let (status, body) = app.get_json(&format!("/api/v1/hands?{query}")).await;
    assert_eq!(status, 200, "{query}: {body}");
    body
}

fn named(body: &serde_json::Value) -> Vec<String> {
    body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| format!("{} #{}", h["table"].as_str().unwrap(), h["number"]))
        .collect()
}

async fn each_filter_keeps_its_hands_with_the_sets_totals(backend: Backend) {
    let app = four_hands(backend).await;
    let all = search(&app, "").await;
    // Newest first.
    assert_eq!(named(&all), ["T1 #3", "TT #1", "T1 #2", "T1 #1"]);
    assert_eq!(
        all["totals"],
        json!({"hands": 3, "wagered": "330.00", "house_collection": "0.00", "pd_results": "70.00",
               "open": 1, "voided": 0})
    );
    let first = &all["hands"][3];
    assert_eq!(
        (
            &first["pd"],
            &first["bank"],
            &first["wagered"],
            &first["pd_net"],
            &first["status"]
        ),
        (
            &json!("Pat"),
            &json!("200.00"),
            &json!("120.00"),
            &json!("0.00"),
            &json!("closed")
        )
    );
    let cases: &[(&str, &[&str])] = &[
        ("table=T1", &["T1 #3", "T1 #2", "T1 #1"]),
        ("table=TT", &["TT #1"]),
        ("kind=training", &["TT #1"]),
        ("kind=real", &["T1 #3", "T1 #2", "T1 #1"]),
        ("status=open", &["T1 #3"]),
        ("status=closed", &["TT #1", "T1 #2", "T1 #1"]),
        ("status=corrected", &[]),
        ("status=voided", &[]),
        ("player=aN", &["TT #1", "T1 #2", "T1 #1"]),
        ("player=cy", &["T1 #3"]),
        ("player=o", &["TT #1", "T1 #2", "T1 #1"]),
        ("player=nobody", &[]),
        ("pd=PA", &["TT #1", "T1 #2", "T1 #1"]),
        ("pd=ann", &[]),
        ("dealer=test-admin", &["T1 #3", "TT #1", "T1 #2", "T1 #1"]),
        ("dealer=dana", &[]),
        ("bank_min=300", &["T1 #3", "TT #1", "T1 #2"]),
        ("bank_min=300.01", &["T1 #3", "T1 #2"]),
        ("wager_min=100", &["T1 #2"]),
        ("wager_min=50", &["TT #1", "T1 #2", "T1 #1"]),
        ("table=T1&number=2", &["T1 #2"]),
        ("number=%231", &["TT #1", "T1 #1"]),
        ("period=today", &["T1 #3", "TT #1", "T1 #2", "T1 #1"]),
        ("period=shift", &["T1 #3", "TT #1", "T1 #2", "T1 #1"]),
        ("period=yesterday", &[]),
        ("date=2001-01-01", &[]),
        (
            "from=2001-01-01T00:00",
            &["T1 #3", "TT #1", "T1 #2", "T1 #1"],
        ),
        ("to=2001-01-01", &[]),
        (
            "player=ann&table=T1&status=closed&wager_min=100",
            &["T1 #2"],
        ),
    ];
    for (query, want) in cases {
        let found = search(&app, query).await;
        assert_eq!(named(&found), *want, "{query}");
        let totals = &found["totals"];
        let counted = ["hands", "open", "voided"].map(|k| totals[k].as_u64().unwrap());
        assert_eq!(counted.iter().sum::<u64>(), want.len() as u64, "{query}");
    }
    let closed_t1 = search(&app, "table=T1&status=closed").await;
    assert_eq!(
        closed_t1["totals"],
        json!({"hands": 2, "wagered": "240.00", "house_collection": "0.00", "pd_results": "80.00",
               "open": 0, "voided": 0})
    );
}

async fn pages_follow_each_other_without_a_hand_twice_or_missing(backend: Backend) {
    let app = four_hands(backend).await;
    for _ in 0..3 {
        play(&app, whole_hand("T1", "200", "60", "60")).await;
    }
    let all = named(&search(&app, "limit=500").await);
    assert_eq!(all.len(), 7);
    for limit in [1, 2, 3] {
        let mut seen = Vec::new();
        let mut query = format!("limit={limit}");
        loop {
            let page = search(&app, &query).await;
            assert!(page["hands"].as_array().unwrap().len() <= limit);
            assert_eq!(
                (&page["totals"]["hands"], &page["totals"]["open"]),
                (&json!(6), &json!(1)),
                "every page has the set's totals: six closed, one open"
            );
            seen.extend(named(&page));
            match page["next"].as_str() {
                Some(next) => {
                    query = format!(
                        "limit={limit}&after={}",
                        crate::common::browser::urlencode(next)
                    )
                }
                None => break,
            }
        }
        assert_eq!(seen, all, "pages of {limit}");
        assert_eq!(seen.iter().collect::<HashSet<_>>().len(), 7);
    }
}

async fn bad_filters_are_refused_naming_the_field(backend: Backend) {
    let app = four_hands(backend).await;
    for (query, field) in [
        ("table=T9", "table"),
        ("bank_min=-5", "bank_min"),
        ("wager_min=lots", "wager_min"),
        ("status=settled", "status"),
        ("date=2026-13-01", "date"),
        ("from=later", "from"),
        ("number=0", "number"),
        ("after=nonsense", "after"),
        ("colour=red", "colour"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/hands?{query}")).await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(crate::common::bad_input_body(&body).0, field, "{query}");
    }
    let page = app
        .login(crate::common::TEST_ADMIN, crate::common::TEST_PASSWORD)
        .await;
    let response = page
        .get(app.url("/history?bank_min=-5&player=Ann"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 422);
    let html = response.text().await.unwrap();
    assert!(
        html.contains(r#"id="bank_min-error">-5 is negative"#),
        "{html}"
    );
    assert!(
        html.contains(r#"value="-5""#) && html.contains(r#"value="Ann""#),
        "typed values kept"
    );
    let ok = page
        .get(app.url("/history?player=ann"))
        .send()
        .await
        .unwrap();
    assert_eq!(ok.status().as_u16(), 200);
    let html = ok.text().await.unwrap();
    assert!(
        html.contains("TT #1") && html.contains(r#"id="total-hands">3<"#),
        "{html}"
    );
}

async fn dealers_may_not_search_but_auditors_may(backend: Backend) {
    let app = four_hands(backend).await;
    app.add_user("dee", Role::Dealer).await;
    app.add_user("aud", Role::Auditor).await;
    for (user, status) in [("dee", 403), ("aud", 200)] {
        let client = app.client_with_token(&app.token_for(user).await);
        for path in ["/api/v1/hands", "/api/v1/players/history?player=Ann"] {
            let response = client.get(app.url(path)).send().await.unwrap();
            assert_eq!(response.status().as_u16(), status, "{user} {path}");
        }
    }
}

async fn a_players_history_has_each_hand_with_their_money(backend: Backend) {
    let app = four_hands(backend).await;
    let (status, body) = app
        .get_json("/api/v1/players/history?player=%20ANN%20")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["totals"],
        json!({"hands": 3, "staked": "200.00", "received": "0.00", "net": "-200.00", "open": 0, "voided": 0})
    );
    let rows: Vec<(String, String, String)> = body["hands"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                format!("{} #{}", h["table"].as_str().unwrap(), h["number"]),
                h["staked"].as_str().unwrap().to_string(),
                h["net"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    let row = |h: &str, s: &str, n: &str| (h.to_string(), s.to_string(), n.to_string());
    assert_eq!(
        rows,
        [
            row("TT #1", "40.00", "-40.00"),
            row("T1 #2", "100.00", "-100.00"),
            row("T1 #1", "60.00", "-60.00")
        ]
    );
    let (_, pat) = app.get_json("/api/v1/players/history?player=pat").await;
    assert_eq!(pat["totals"]["net"], "70.00", "the PD's net over its hands");
    assert_eq!(pat["hands"][0]["role"], "pd");
    let (_, cy) = app.get_json("/api/v1/players/history?player=Cy").await;
    // Cy's one hand is open: listed, counted apart, not summed.
    assert_eq!(
        (&cy["hands"][0]["received"], &cy["totals"]["hands"]),
        (&json!(null), &json!(0))
    );
    assert_eq!(
        (&cy["totals"]["open"], &cy["totals"]["staked"]),
        (&json!(1), &json!("0.00"))
    );
    // No exact match: the names holding it are offered.
    let (_, partial) = app.get_json("/api/v1/players/history?player=a").await;
    assert_eq!(partial["totals"]["hands"], 0);
    assert_eq!(partial["did_you_mean"], json!(["Ann", "Pat"]));
    let (status, body) = app.get_json("/api/v1/players/history?player=").await;
    assert_eq!(
        (status, crate::common::bad_input_body(&body).0),
        (422, "player".to_string())
    );
    let page = app
        .login(crate::common::TEST_ADMIN, crate::common::TEST_PASSWORD)
        .await;
    let html = page
        .get(app.url("/history/player?player=an"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        html.contains("No hand has the name an.") && html.contains(">Ann</a>"),
        "{html}"
    );
}

/// The text of each numeric cell (`class="num"`) of table `id`, a row each
/// (its header row first).
fn numeric_cells(html: &str, id: &str) -> Vec<Vec<String>> {
    let start = html
        .find(&format!("<table id=\"{id}\""))
        .unwrap_or_else(|| panic!("no table #{id} in {html}"));
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    table
        .split("<tr>")
        .skip(1)
        .map(|row| {
            row.split(" class=\"num\">")
                .skip(1)
                .map(|cell| plain_text(&cell[..cell.find("</t").unwrap()]))
                .collect()
        })
        .collect()
}

/// The page at `path` as the signed-in `client` gets it (200 expected).
async fn html_of(app: &TestApp, client: &reqwest::Client, path: &str) -> String {
    let response = client.get(app.url(path)).send().await.unwrap();
    assert_eq!(response.status().as_u16(), 200, "{path}");
    response.text().await.unwrap()
}

/// The search and a player's history write money as a cashier reads it
/// (`Money::to_display`: thousands separated, two decimals, a real minus),
/// each amount in a numeric cell, its header too; the JSON keeps its
/// canonical strings (above).
async fn the_pages_write_money_for_a_cashier(backend: Backend) {
    let app = four_hands(backend).await;
    let page = app
        .login(crate::common::TEST_ADMIN, crate::common::TEST_PASSWORD)
        .await;
    let get = async |path: &str| html_of(&app, &page, path).await;
    let html = get("/history").await;
    let totals: Vec<String> = [
        "total-hands",
        "total-wagered",
        "total-collection",
        "total-pd",
    ]
    .iter()
    .map(|id| text_of(&html, id))
    .collect();
    assert_eq!(totals, ["3", "330.00", "0.00", "70.00"], "{html}");
    assert_eq!(text_of(&html, "left-out"), "1 open — not in the totals");
    let row = |cells: [&str; 4]| cells.map(String::from).to_vec();
    assert_eq!(
        numeric_cells(&html, "hands"),
        [
            row(["Bank", "Wagered", "Collection", "PD net"]),
            row(["1,000.00", "0.00", "—", "—"]),
            row(["300.00", "90.00", "0.00", "\u{2212}10.00"]),
            row(["500.00", "120.00", "0.00", "80.00"]),
            row(["200.00", "120.00", "0.00", "0.00"]),
        ],
        "{html}"
    );

    let html = get("/history/player?player=Ann").await;
    let totals: Vec<String> = ["total-hands", "total-staked", "total-received", "total-net"]
        .iter()
        .map(|id| text_of(&html, id))
        .collect();
    assert_eq!(totals, ["3", "200.00", "0.00", "\u{2212}200.00"], "{html}");
    let row = |cells: [&str; 3]| cells.map(String::from).to_vec();
    assert_eq!(
        numeric_cells(&html, "hands"),
        [
            row(["Staked", "Received", "Net"]),
            row(["40.00", "0.00", "\u{2212}40.00"]),
            row(["100.00", "0.00", "\u{2212}100.00"]),
            row(["60.00", "0.00", "\u{2212}60.00"]),
        ],
        "{html}"
    );
    // Cy banks 1000 in a hand still open: nothing received yet, no net.
    let html = get("/history/player?player=Cy").await;
    assert_eq!(
        numeric_cells(&html, "hands"),
        [
            row(["Staked", "Received", "Net"]),
            row(["1,000.00", "open", "—"]),
        ],
        "{html}"
    );
    assert_eq!(
        text_of(&html, "total-staked"),
        "0.00",
        "open: not in the totals"
    );
    assert_eq!(
        text_of(&html, "left-out"),
        "1 open — not in the totals",
        "{html}"
    );
}

/// The search says what it searched and found in words; finding nothing,
/// it offers the search without each filter in turn.
async fn the_search_says_what_it_found_and_what_to_loosen(backend: Backend) {
    let app = four_hands(backend).await;
    let page = app
        .login(crate::common::TEST_ADMIN, crate::common::TEST_PASSWORD)
        .await;
    let get = async |path: &str| html_of(&app, &page, path).await;
    let html = get("/history?table=T1&player=Ann").await;
    assert_eq!(
        text_of(&html, "found"),
        "table T1, a player containing 'ann': 2 hands",
        "{html}"
    );
    assert!(!html.contains("id=\"loosen\""), "found: nothing to loosen");

    let html = get("/history?table=T1&player=zed&status=closed").await;
    assert_eq!(
        text_of(&html, "found"),
        "table T1, a player containing 'zed', closed: 0 hands"
    );
    let loosen = &html[html.find("id=\"loosen\"").expect("the filters to loosen")..];
    let loosen = &loosen[..loosen.find("</ul>").unwrap()];
    for (href, words) in [
        ("/history?player=zed&#38;status=closed", "Without table T1"),
        (
            "/history?table=T1&#38;status=closed",
            "Without a player containing &#39;zed&#39;",
        ),
        ("/history?table=T1&#38;player=zed", "Without closed"),
    ] {
        assert!(
            loosen.contains(&format!("<a href=\"{href}\">{words}</a>")),
            "{href} {words}: {loosen}"
        );
    }
}

on_both_databases!(
    the_search_says_what_it_found_and_what_to_loosen,
    each_filter_keeps_its_hands_with_the_sets_totals,
    the_pages_write_money_for_a_cashier,
    pages_follow_each_other_without_a_hand_twice_or_missing,
    bad_filters_are_refused_naming_the_field,
    dealers_may_not_search_but_auditors_may,
    a_players_history_has_each_hand_with_their_money,
);
