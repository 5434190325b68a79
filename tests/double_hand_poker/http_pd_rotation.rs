//! The PD option on the guided hand's pages, on both databases: the option
//! chosen and the refusals recorded with `pd_set`, the next hand's proposal
//! following the rotation rule, bad choices refused beside their field with
//! nothing recorded, and the JSON API's optional `option`.

use crate::common::browser::{Browser, input_value, urlencode};
use crate::common::play::{form_html, ok, open_hand, submit, table_with_dealer_and};
use crate::common::{Backend, TestApp, records, spawn_app, test_key};
use serde_json::json;

/// Table DHP-1 where two wagers make a player eligible; dana deals there.
async fn table(app: &TestApp) -> Browser {
    table_with_dealer_and(app, &[("options", r#"{"pd_min_wagers": 2}"#)]).await
}

/// The rest of a hand whose PD is set: a 10 wager per (seat, bettor), the
/// dice, every seat a push, every step confirmed, closed.
async fn finish(b: &mut Browser, hand: &str, wagers: &[(&str, &str)]) {
    for (seat, bettor) in wagers {
        ok(
            b,
            hand,
            "wager-form",
            &[("seat", seat), ("bettor", bettor), ("amount", "10")],
        )
        .await;
    }
    ok(
        b,
        &format!("{hand}?step=dice"),
        "dice-form",
        &[("d1", "1"), ("d2", "2"), ("d3", "3")],
    )
    .await;
    let pushes: Vec<(String, String)> = wagers
        .iter()
        .map(|(seat, _)| (format!("outcome_{seat}"), "push".to_string()))
        .collect();
    let pushes: Vec<(&str, &str)> = pushes
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    ok(b, hand, "results-form", &pushes).await;
    ok(b, hand, "confirm-all", &[]).await;
    ok(b, hand, "close-form", &[]).await;
}

/// The PD screen's proposal sentence.
fn proposal(body: &str) -> String {
    let start = body.find("id=\"proposal\">").expect("a proposal") + 14;
    let end = body[start..].find("</p>").expect("its end") + start;
    body[start..end].to_string()
}

/// The `pd_set` payloads recorded, oldest first.
async fn pd_sets(app: &TestApp) -> Vec<serde_json::Value> {
    let sql = "SELECT payload FROM audit_log WHERE event_type = 'pd_set' ORDER BY seq";
    let rows: Vec<String> = match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_all(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_all(p).await,
    }
    .expect("pd_set payloads");
    rows.iter()
        .map(|r| serde_json::from_str(r).expect("JSON payload"))
        .collect()
}

/// Text as the pages escape it.
fn html(text: &str) -> String {
    text.replace('"', "&#34;").replace('\'', "&#39;")
}

const ABC: &[(&str, &str)] = &[("2", "Ann"), ("3", "Bo"), ("4", "Cy")];

async fn the_option_and_refusals_are_recorded_and_the_rotation_follows(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table(&app).await;

    // Hand 1: no history, no proposal; Dana banks two hands.
    let h1 = open_hand(&mut dana).await;
    let page = dana.get(&h1).await;
    assert!(
        proposal(&page.body).starts_with("No proposal"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("id=\"refuse\""), "nobody to refuse");
    ok(
        &mut dana,
        &h1,
        "pd-form",
        &[
            ("seat", "1"),
            ("player", "Dana"),
            ("bank", "100"),
            ("option", "bank_two"),
        ],
    )
    .await;
    let page = dana.get(&h1).await;
    assert!(
        page.body
            .contains("<p id=\"pd-option\">Option: banks two hands.</p>"),
        "{}",
        page.body
    );
    finish(&mut dana, &h1, ABC).await;

    // Hand 2: the second of Dana's two, the option already chosen.
    let h2 = open_hand(&mut dana).await;
    let page = dana.get(&h2).await;
    assert_eq!(
        proposal(&page.body),
        "Seat 1, Dana: Dana chose to bank two hands: this is the second"
    );
    let form = form_html(&page.body, "pd-form");
    assert!(
        form.contains("value=\"bank_two\" required checked"),
        "{form}"
    );
    assert!(!page.body.contains("id=\"refuse\""), "{}", page.body);
    ok(
        &mut dana,
        &h2,
        "pd-form",
        &[
            ("seat", "1"),
            ("player", "Dana"),
            ("bank", "100"),
            ("option", "bank_two"),
        ],
    )
    .await;
    finish(&mut dana, &h2, ABC).await;

    // Hand 3: after two hands the option passes clockwise to Ann, who
    // refuses; Bo is proposed and banks one hand.
    let h3 = open_hand(&mut dana).await;
    let page = dana.get(&h3).await;
    assert_eq!(
        proposal(&page.body),
        "Seat 2, Ann: next clockwise with 2 wagers this round (at least 2 needed)"
    );
    let refuse = form_html(&page.body, "refuse-form");
    assert!(
        page.body.contains("Ann refuses — propose the next"),
        "{}",
        page.body
    );
    let declined = input_value(&refuse, "declined");
    assert_eq!(declined, "2:Ann");
    let next = format!("{h3}?declined={}", urlencode(&declined));
    let page = dana.get(&next).await;
    assert_eq!(page.status, 200);
    assert_eq!(
        proposal(&page.body),
        "Seat 3, Bo: next clockwise with 2 wagers this round (at least 2 needed)"
    );
    let form = form_html(&page.body, "pd-form");
    assert_eq!(
        input_value(&form, "declined"),
        "2:Ann",
        "carried to the form"
    );
    assert!(
        form.contains("name=\"seat\" inputmode=\"numeric\" value=\"3\""),
        "{form}"
    );
    ok(
        &mut dana,
        &next,
        "pd-form",
        &[
            ("seat", "3"),
            ("player", "Bo"),
            ("bank", "100"),
            ("option", "bank_one"),
            ("declined", "2:Ann"),
        ],
    )
    .await;
    let page = dana.get(&h3).await;
    assert!(
        page.body.contains(
            "Option: banks one hand, then passes the option. Refused first: Ann (seat 2)."
        ),
        "{}",
        page.body
    );
    finish(&mut dana, &h3, &[("2", "Ann"), ("4", "Cy"), ("1", "Dana")]).await;
    let record = dana.get(&format!("{h3}/record")).await;
    assert!(
        record.body.contains(
            "Bo (seat 3) banks 100.00. Option: banks one hand, then passes the option. Refused first: Ann (seat 2)."
        ),
        "{}",
        record.body
    );

    // Hand 4: Bo banked one hand, so the option passes on, to Cy.
    let h4 = open_hand(&mut dana).await;
    let page = dana.get(&h4).await;
    assert_eq!(
        proposal(&page.body),
        "Seat 4, Cy: next clockwise with 3 wagers this round (at least 2 needed)"
    );
    // Cy refuses: Dana has one wager since she banked, and Ann refused in
    // the last hand (her turn this round): nobody is eligible.
    let refuse = form_html(&page.body, "refuse-form");
    let declined = input_value(&refuse, "declined");
    assert_eq!(declined, "4:Cy");
    let page = dana
        .get(&format!("{h4}?declined={}", urlencode(&declined)))
        .await;
    assert!(
        proposal(&page.body).starts_with("No proposal"),
        "{}",
        page.body
    );

    let payloads = pd_sets(&app).await;
    assert_eq!(payloads.len(), 3);
    assert_eq!(payloads[0]["option"], "bank_two");
    assert!(payloads[0].get("declined").is_none(), "{}", payloads[0]);
    assert_eq!(payloads[2]["option"], "bank_one");
    assert_eq!(
        payloads[2]["declined"],
        json!([{"seat": 2, "player": "Ann"}])
    );
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.hands_settled, 3);
}

async fn bad_pd_choices_are_refused_beside_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table(&app).await;
    let hand = open_hand(&mut dana).await;
    let pd = |option: &'static str, declined: &'static str| {
        [
            ("seat", "1"),
            ("player", "Dana"),
            ("bank", "100"),
            ("option", option),
            ("declined", declined),
        ]
    };
    let cases = [
        (
            pd("", ""),
            "option-error",
            "Choose whether the PD banks two hands or one",
        ),
        (
            pd("bank_three", ""),
            "option-error",
            "\"bank_three\" is not bank_two or bank_one",
        ),
        (
            pd("bank_one", "Ann"),
            "declined-error",
            "\"Ann\" is not SEAT:NAME",
        ),
        (
            pd("bank_one", "1:Dana"),
            "declined-error",
            "\"1\" is the PD's seat",
        ),
        (
            pd("bank_one", "2:Ann, 9:Zed"),
            "declined-error",
            "\"9\" is not a seat at this 7-seat table",
        ),
        (
            pd("bank_one", "2:Ann, 2:Al"),
            "declined-error",
            "\"2\" is listed twice",
        ),
    ];
    for (fields, error_id, message) in cases {
        let page = submit(&mut dana, &hand, "pd-form", &fields).await;
        assert_eq!(page.status, 422, "{fields:?}: {}", page.body);
        let at = page
            .body
            .find(&format!("id=\"{error_id}\""))
            .unwrap_or_else(|| panic!("{fields:?}: no {error_id} in {}", page.body));
        assert!(
            page.body[at..].contains(&html(message)),
            "{fields:?}: {message} in {}",
            &page.body[at..]
        );
        let form = form_html(&page.body, "pd-form");
        assert_eq!(
            input_value(&form, "player"),
            "Dana",
            "what was typed is kept"
        );
        assert_eq!(input_value(&form, "declined"), html(fields[4].1));
        if fields[3].1 == "bank_one" {
            assert!(
                form.contains("value=\"bank_one\" required checked"),
                "{form}"
            );
        }
    }
    assert_eq!(records(&app, "pd_set").await, 0, "nothing recorded");
}

async fn the_api_takes_the_option_optionally(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("API-1", false).await;
    let (status, opened, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": "open-1",
                    "events": [{"type": "hand_opened", "table": "API-1"}]}),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["hand_id"].as_str().expect("hand id").to_string();
    let path = format!("/api/v1/hands/{id}/commands");
    let command = |key: &str, version: u64, event: serde_json::Value| json!({"idempotency_key": key, "expected_version": version, "events": [event]});
    // Without an option: accepted as before, recorded without one.
    crate::common::post_ok(
        &app,
        &path,
        command(
            "pd-1",
            1,
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}),
        ),
    )
    .await;
    for (event, needle) in [
        (
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200", "option": "bank_three"}),
            "bank_three",
        ),
        (
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200",
                   "option": "bank_one", "declined": [{"seat": 1, "player": "Pat"}]}),
            "declined[0].seat: \"1\" is the PD's seat",
        ),
        (
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200",
                   "option": "bank_one", "declined": [{"seat": 2, "player": "Al", "x": 1}]}),
            "unknown field",
        ),
    ] {
        crate::common::post_bad(&app, &path, command("pd-bad", 2, event), needle).await;
    }
    assert_eq!(
        records(&app, "pd_set").await,
        1,
        "the refused ones left nothing"
    );
    crate::common::post_ok(
        &app,
        &path,
        command(
            "pd-2",
            2,
            json!({"type": "pd_set", "seat": 3, "player": "Bo", "bank": "200",
                   "option": "bank_one", "declined": [{"seat": 2, "player": "Ann"}]}),
        ),
    )
    .await;
    let payloads = pd_sets(&app).await;
    assert_eq!(
        payloads,
        [
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200.00"}),
            json!({"type": "pd_set", "seat": 3, "player": "Bo", "bank": "200.00",
                   "option": "bank_one", "declined": [{"seat": 2, "player": "Ann"}]}),
        ]
    );
}

on_both_databases!(
    the_option_and_refusals_are_recorded_and_the_rotation_follows,
    bad_pd_choices_are_refused_beside_the_field,
    the_api_takes_the_option_optionally,
);
