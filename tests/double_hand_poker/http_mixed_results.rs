//! Results per seat through the real server, on both databases: a seat
//! entered as cards beside one entered as a result in the same hand, on the
//! page and over the JSON API; the PD's hand refused when missing; a
//! supervisor corrects a seat that was entered as cards, and a refused
//! correction keeps what was typed. The seed's $200 example: Dana banks
//! 200, Ann 60 (seat 4), Bo 60 (seat 5), Cy 100 (seat 6), ACTION seat 4;
//! the PD beats Ann, Bo and Cy beat the PD.

use crate::common::browser::{Browser, Page};
use crate::common::play::{dana_banks_200, ok, open_hand, submit, table_with_dealer};
use crate::common::{Backend, TEST_PASSWORD as PASSWORD, TestApp, records, spawn_app, test_key};
use serde_json::{Value, json};

/// The PD's king-high hand, and the set hands of Bo and Cy, which beat it
/// high and low.
const PD_HAND: (&str, &str) = ("Kh Qc 9d 7s 4c", "Jd 2h");
const BO_HAND: (&str, &str) = ("Ah Ac 8d 6s 5c", "Kd Jc");
const CY_HAND: (&str, &str) = ("2c 2d 2s 9h 8h", "Qs 7c");

/// A new hand at DHP-1 up to its results step.
async fn to_the_hands(dana: &mut Browser) -> String {
    let hand = open_hand(dana).await;
    dana_banks_200(dana, &hand).await;
    for (seat, bettor, amount) in [("4", "Ann", "60"), ("5", "Bo", "60"), ("6", "Cy", "100")] {
        let fields = [("seat", seat), ("bettor", bettor), ("amount", amount)];
        ok(dana, &hand, "wager-form", &fields).await;
    }
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(dana, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    hand
}

/// The text of `<… id="ID">TEXT<` in the page.
fn text_of(page: &Page, id: &str) -> String {
    let needle = format!("id=\"{id}\">");
    let start = page
        .body
        .find(&needle)
        .unwrap_or_else(|| panic!("no {id} in:\n{}", page.body))
        + needle.len();
    let end = page.body[start..].find('<').expect("end") + start;
    page.body[start..end].to_string()
}

async fn close(dana: &mut Browser, hand: &str) -> Page {
    ok(dana, hand, "confirm-all", &[]).await;
    ok(dana, hand, "close-form", &[]).await;
    dana.get(hand).await
}

async fn a_seat_as_cards_beside_a_seat_as_a_result_on_the_page(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    // Every seat as a result: the numbers to match.
    let hand = to_the_hands(&mut dana).await;
    let results = [
        ("outcome_4", "pd"),
        ("outcome_5", "player"),
        ("outcome_6", "player"),
    ];
    ok(&mut dana, &hand, "results-form", &results).await;
    let by_results = text_of(&close(&mut dana, &hand).await, "pd-net");

    let hand = to_the_hands(&mut dana).await;
    let mixed = |with_pd: bool| {
        let mut fields = vec![
            ("outcome_4", "pd"),
            // A result chosen for seat 5 too: its cards are typed, so they decide.
            ("outcome_5", "pd"),
            ("high_5", BO_HAND.0),
            ("low_5", BO_HAND.1),
            ("high_6", CY_HAND.0),
            ("low_6", CY_HAND.1),
        ];
        if with_pd {
            fields.extend([("high_1", PD_HAND.0), ("low_1", PD_HAND.1)]);
        }
        fields
    };
    // Cards for seats 5 and 6 but none for the PD: refused beside the PD's
    // seat, what was typed kept, nothing recorded.
    let page = submit(&mut dana, &hand, "results-form", &mixed(false)).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        text_of(&page, "seat-1-error").starts_with("Seat 1 (the PD): type the PD&#39;s cards"),
        "{}",
        page.body
    );
    assert!(page.body.contains("value=\"Ah Ac 8d 6s 5c\""), "typed kept");
    assert!(!page.body.contains("id=\"form-error\""), "shown once");
    assert_eq!(records(&app, "hand_recorded").await, 0);
    assert_eq!(
        records(&app, "outcome_recorded").await,
        3,
        "the first hand's"
    );

    let page = submit(&mut dana, &hand, "results-form", &mixed(true)).await;
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(
        records(&app, "hand_recorded").await,
        3,
        "the PD, seats 5 and 6"
    );
    assert_eq!(records(&app, "outcome_recorded").await, 4, "and seat 4");
    let page = dana.get(&hand).await;
    assert!(page.body.contains("5. Settlement"), "{}", page.body);
    assert!(
        page.body.contains("Seat 5, Bo, 60.00 — player wins."),
        "the cards decide seat 5: {}",
        page.body
    );
    let page = close(&mut dana, &hand).await;
    assert_eq!(text_of(&page, "pd-net"), by_results, "the same money");

    // A supervisor corrects seat 5, entered as cards, to a result.
    let mut sue = Browser::new(&app);
    sue.login("sue", PASSWORD).await;
    let refused = [("seat", "5"), ("outcome", "pd"), ("reason", "")];
    let page = submit(&mut sue, &hand, "correct-form", &refused).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert_eq!(text_of(&page, "c-reason-error"), "A reason is required");
    assert!(
        page.body
            .contains("id=\"c-seat\" name=\"seat\" inputmode=\"numeric\" value=\"5\"")
    );
    assert!(
        page.body.contains("<option value=\"pd\" selected>"),
        "{}",
        page.body
    );
    // The result and cards both: refused beside the result, reason kept.
    let both = [
        ("seat", "5"),
        ("outcome", "pd"),
        ("cards", "As Ks Qs Js 9s 8d 3c"),
        ("reason", "Bo showed his cards again"),
    ];
    let page = submit(&mut sue, &hand, "correct-form", &both).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(text_of(&page, "c-outcome-error").contains("not both"));
    assert!(page.body.contains("value=\"Bo showed his cards again\""));
    assert!(page.body.contains("value=\"As Ks Qs Js 9s 8d 3c\""));
    assert_eq!(records(&app, "outcome_corrected").await, 0);
    let fixed = [
        ("seat", "5"),
        ("outcome", "pd"),
        ("reason", "Bo's low was misread"),
    ];
    ok(&mut sue, &hand, "correct-form", &fixed).await;
    // And seat 6 to other cards, which lose to the PD's.
    let cards = [
        ("seat", "6"),
        ("high", "Js 8s 6c 5h 3h"),
        ("low", "4d 2s"),
        ("reason", "Cy's hand re-read"),
    ];
    ok(&mut sue, &hand, "correct-form", &cards).await;
    let page = sue.get(&hand).await;
    // The PD now takes Bo's 60 and the 80 of Cy's 100 in action.
    assert_eq!(text_of(&page, "pd-net"), "200.00", "{}", page.body);
    assert_eq!(records(&app, "outcome_corrected").await, 2);
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

fn key() -> String {
    uuid::Uuid::new_v4().to_string()
}

async fn send(app: &TestApp, hand: &str, version: u64, events: Value) -> (u16, Value) {
    let body = json!({"idempotency_key": key(), "expected_version": version, "events": events});
    let (status, body, _) = app
        .post_json(&format!("/api/v1/hands/{hand}/commands"), &body)
        .await;
    (status, body)
}

fn set(seat: i64, (high, low): (&str, &str)) -> Value {
    json!({"type": "hand_recorded", "seat": seat, "hand": {"high": high, "low": low}})
}

async fn a_seat_as_cards_beside_a_seat_as_a_result_over_the_api(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let open =
        json!({"idempotency_key": key(), "events": [{"type": "hand_opened", "table": "T1"}]});
    let (status, body, _) = app.post_json("/api/v1/hands", &open).await;
    assert_eq!(status, 201, "{body}");
    let hand = body["hand_id"].as_str().expect("hand id").to_string();
    let dealt = json!([
        {"type": "pd_set", "seat": 1, "player": "Dana", "bank": "200"},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"},
        {"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"},
        {"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"},
        {"type": "action_set", "seat": 4},
        {"type": "outcome_recorded", "seat": 4, "outcome": "pd"},
        set(5, BO_HAND),
        set(6, CY_HAND),
    ]);
    let (status, body) = send(&app, &hand, 1, dealt).await;
    assert_eq!(status, 200, "{body}");
    // The steps cannot be settled without the PD's hand: 422 naming it,
    // the API's body as ever (its field path kept).
    let steps = json!([{"type": "steps_confirmed", "wagers": ["w1", "w2", "w3"]}]);
    let (status, body) = send(&app, &hand, 9, steps.clone()).await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["field"], "hands", "{body}");
    assert_eq!(
        body["message"],
        "hands: seat 1 has no hand (it is the PD's seat; a seat entered as cards is decided against it)"
    );
    let (status, body) = send(&app, &hand, 9, json!([set(1, PD_HAND)])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(&app, &hand, 10, steps).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = send(&app, &hand, 11, json!([{"type": "hand_closed"}])).await;
    assert_eq!(status, 200, "{body}");
    let s = &body["settlement"];
    let left: Vec<&str> = s["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .map(|st| st["in_action_after"].as_str().unwrap())
        .collect();
    assert_eq!(left, ["140.00", "80.00", "0.00"], "{s}");
    let shown: Vec<u64> = s["hands"]
        .as_array()
        .expect("the hands entered as cards")
        .iter()
        .map(|h| h["seat"].as_u64().unwrap())
        .collect();
    assert_eq!(shown, [1, 5, 6]);
    // A correction of seat 6, entered as cards, to a result.
    let correct =
        json!([{"type": "outcome_corrected", "seat": 6, "outcome": "pd", "reason": "misread"}]);
    let (status, body) = send(&app, &hand, 12, correct).await;
    assert_eq!(status, 200, "{body}");
    let cy = &body["settlement"]["steps"][2];
    assert_eq!(cy["outcome"], "pd", "{body}");
    assert_eq!(
        cy["to_bettor"], "20.00",
        "only Cy's 20 with no action is returned"
    );
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

/// The results form lists the seats in ACTION order (5, 6, 4 from the
/// ACTION seat 5), and "All the rest: PD wins" gives every seat not chosen
/// its result; a rest that is no result is refused, nothing recorded.
async fn all_the_rest_takes_the_seats_not_chosen(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    for (seat, bettor, amount) in [("4", "Ann", "60"), ("5", "Bo", "60"), ("6", "Cy", "100")] {
        let fields = [("seat", seat), ("bettor", bettor), ("amount", amount)];
        ok(&mut dana, &hand, "wager-form", &fields).await;
    }
    // 1 + 1 + 3 = 5: the ACTION seat is 5.
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "3")];
    ok(&mut dana, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    let page = dana.get(&hand).await;
    let order: Vec<usize> = ["id=\"seat-5\"", "id=\"seat-6\"", "id=\"seat-4\""]
        .iter()
        .map(|id| page.body.find(id).expect("a seat"))
        .collect();
    assert!(
        order.is_sorted(),
        "seats 5, 6, 4 in ACTION order: {order:?}"
    );
    assert!(page.body.contains("All the rest: PD wins"), "{}", page.body);

    let bad = submit(
        &mut dana,
        &hand,
        "results-form",
        &[("outcome_5", "player"), ("rest", "dealer")],
    )
    .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(
        bad.body
            .contains("Seat 4: choose player, PD or push, or type the seat&#39;s cards"),
        "{}",
        bad.body
    );
    assert_eq!(records(&app, "outcome_recorded").await, 0);

    ok(
        &mut dana,
        &hand,
        "results-form",
        &[("outcome_5", "player"), ("rest", "pd")],
    )
    .await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("5. Settlement"), "{}", page.body);
    assert_eq!(records(&app, "outcome_recorded").await, 3);
    let sql = "SELECT payload FROM audit_log WHERE event_type = 'outcome_recorded' ORDER BY seq";
    let payloads: Vec<String> = match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_scalar(sql).fetch_all(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_scalar(sql).fetch_all(p).await,
    }
    .expect("payloads");
    let results: Vec<(i64, String)> = payloads
        .iter()
        .map(|p| {
            let v: Value = serde_json::from_str(p).expect("json");
            (
                v["seat"].as_i64().expect("seat"),
                v["outcome"].as_str().expect("outcome").to_string(),
            )
        })
        .collect();
    assert_eq!(
        results,
        [
            (4, "pd".to_string()),
            (5, "player".to_string()),
            (6, "pd".to_string())
        ]
    );
}

on_both_databases!(
    a_seat_as_cards_beside_a_seat_as_a_result_on_the_page,
    a_seat_as_cards_beside_a_seat_as_a_result_over_the_api,
    all_the_rest_takes_the_seats_not_chosen,
);
