//! Mistakes caught where they happen, through the real server on both
//! databases: a wager repeating one on its seat asks before it is recorded
//! (the browser's Back then resubmit renders a fresh form, with a new
//! idempotency key and the current version, so only this question stops a
//! second bet); a void asks for confirmation; refusals speak the dealer's
//! language, once, beside the field at fault, which has the focus.

use crate::common::browser::{Browser, Page, input_value};
use crate::common::play::{dana_banks_200, form_html, ok, open_hand, submit, table_with_dealer};
use crate::common::{Backend, TEST_PASSWORD as PASSWORD, TestApp, records, spawn_app};
use serde_json::json;

/// Posts the form `form_id` of `page` as shown (its hidden fields), with
/// `fields` added or replacing those.
async fn post_shown(
    b: &mut Browser,
    hand: &str,
    page: &Page,
    form_id: &str,
    fields: &[(&str, &str)],
) -> Page {
    let form = form_html(&page.body, form_id);
    let names = [
        "csrf",
        "version",
        "idempotency_key",
        "step",
        "confirm",
        "seat",
        "bettor",
        "amount",
        "backline",
        "reason",
    ];
    let mut all: Vec<(String, String)> = names
        .iter()
        .filter(|n| form.contains(&format!("name=\"{n}\" value=")))
        .filter(|n| !fields.iter().any(|(k, _)| k == *n))
        .map(|n| (n.to_string(), input_value(&form, n)))
        .collect();
    all.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(hand, &pairs).await
}

/// Every message the page shows as an error, in order.
fn errors(page: &Page) -> Vec<String> {
    page.body
        .match_indices("class=\"error\"")
        .map(|(i, _)| {
            let start = page.body[i..].find('>').unwrap() + i + 1;
            let end = page.body[start..].find("</p>").unwrap() + start;
            page.body[start..end].to_string()
        })
        .collect()
}

/// The page's one error, in the dealer's words: no field path, id or
/// internal name.
fn the_one_error(page: &Page) -> String {
    let all = errors(page);
    assert_eq!(
        all.len(),
        1,
        "one message, shown once: {all:?}\n{}",
        page.body
    );
    let message = all[0].clone();
    for internal in [
        "[",
        "_id",
        "expected_version",
        "w-",
        "events",
        "wagers",
        "hands.",
    ] {
        assert!(!message.contains(internal), "{internal} in {message:?}");
    }
    message
}

/// A second wager equal to one on its seat asks first; a primary one is
/// never recorded twice.
async fn a_repeated_wager_asks_before_it_is_recorded(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let ann = [("seat", "4"), ("bettor", "Ann"), ("amount", "60")];
    ok(&mut dana, &hand, "wager-form", &ann).await;
    let bo = [
        ("seat", "4"),
        ("bettor", "Bo"),
        ("amount", "20"),
        ("backline", "1"),
    ];
    ok(&mut dana, &hand, "wager-form", &bo).await;
    assert_eq!(records(&app, "wager_placed").await, 2);

    // Back, then the same form again: a fresh page, so a new command.
    let page = submit(&mut dana, &hand, "wager-form", &bo).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body.contains(
            "id=\"duplicate-question\">Seat 4, Bo already has a 20.00 backline wager. Add a second one?"
        ),
        "{}",
        page.body
    );
    assert!(page.body.contains("id=\"add-second\""), "{}", page.body);
    assert!(page.body.contains("value=\"Bo\""), "what was typed is kept");
    assert_eq!(
        records(&app, "wager_placed").await,
        2,
        "nothing recorded yet"
    );
    // Confirmed: exactly one more.
    let done = post_shown(&mut dana, &hand, &page, "duplicate-form", &[]).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(records(&app, "wager_placed").await, 3);
    // The confirmation sent twice (a double tap) is still one wager.
    let again = post_shown(&mut dana, &hand, &page, "duplicate-form", &[]).await;
    assert_eq!(again.status, 303, "{}", again.body);
    assert_eq!(records(&app, "wager_placed").await, 3);

    // Ann's primary wager again: it is never a second one.
    let page = submit(&mut dana, &hand, "wager-form", &ann).await;
    assert_eq!(page.status, 422, "{}", page.body);
    let message = the_one_error(&page);
    assert!(
        message.starts_with("Seat 4, Ann already has a 60.00 wager: it is recorded"),
        "{message}"
    );
    assert!(page.body.contains("id=\"seat-error\""), "beside the seat");
    assert!(
        page.body.contains("required autofocus"),
        "the seat has the focus"
    );
    assert!(!page.body.contains("id=\"add-second\""));
    assert_eq!(records(&app, "wager_placed").await, 3);

    // Another amount is no repeat: recorded at once.
    let other = [
        ("seat", "4"),
        ("bettor", "Bo"),
        ("amount", "25"),
        ("backline", "1"),
    ];
    ok(&mut dana, &hand, "wager-form", &other).await;
    assert_eq!(records(&app, "wager_placed").await, 4);
}

/// The JSON API asks nothing: a retry carries the same idempotency key and
/// is one command; a new key is a new wager, as the script meant.
async fn the_api_records_an_equal_wager_under_a_new_key(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let hand = open_api_hand(&app).await;
    let send = |version: u64, key: &str, id: &str| {
        json!({"idempotency_key": key, "expected_version": version, "events": [
            {"type": "wager_placed", "id": id, "seat": 4, "bettor": "Bo", "amount": "20", "backline": true}
        ]})
    };
    let path = format!("/api/v1/hands/{hand}/commands");
    let pd = json!({"idempotency_key": "pd", "expected_version": 1, "events": [
        {"type": "pd_set", "seat": 1, "player": "Dana", "bank": "200"},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}
    ]});
    assert_eq!(app.post_json(&path, &pd).await.0, 200);
    let (status, _, _) = app.post_json(&path, &send(3, "k1", "w2")).await;
    assert_eq!(status, 200);
    let (status, _, replayed) = app.post_json(&path, &send(3, "k1", "w2")).await;
    assert_eq!((status, replayed), (200, true), "a retry is one command");
    let (status, body, _) = app.post_json(&path, &send(4, "k2", "w3")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(records(&app, "wager_placed").await, 3);
}

async fn open_api_hand(app: &TestApp) -> String {
    let open = json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
                      "events": [{"type": "hand_opened", "table": "T1"}]});
    let (status, body, _) = app.post_json("/api/v1/hands", &open).await;
    assert_eq!(status, 201, "{body}");
    body["hand_id"].as_str().expect("hand id").to_string()
}

/// Void asks "Void this hand? Every bet is returned." with the reason;
/// only the confirmed post records it.
async fn a_void_asks_then_voids(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let mut sue = Browser::new(&app);
    sue.login("sue", PASSWORD).await;
    // No reason: refused beside it, no question asked.
    let page = submit(&mut sue, &hand, "void-form", &[("reason", " ")]).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert_eq!(the_one_error(&page), "A reason is required");
    assert!(page.body.contains("id=\"v-reason-error\""));
    assert!(!page.body.contains("id=\"void-confirm\""));

    let page = submit(&mut sue, &hand, "void-form", &[("reason", "wrong table")]).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("Void this hand? Every bet is returned."));
    assert!(
        page.body.contains("id=\"void-reason\">wrong table<"),
        "{}",
        page.body
    );
    assert!(page.body.contains("id=\"void-confirmed\""));
    assert_eq!(records(&app, "hand_voided").await, 0, "asked, not recorded");
    let done = post_shown(&mut sue, &hand, &page, "void-confirm-form", &[]).await;
    assert_eq!(done.status, 303, "{}", done.body);
    assert_eq!(records(&app, "hand_voided").await, 1);
    let page = sue.get(&hand).await;
    assert!(page.body.contains("id=\"voided\""), "{}", page.body);
    let record = sue.get(&format!("{hand}/record")).await;
    assert!(record.body.contains("wrong table"));
}

/// Each refusal in plain words, once, beside its field, with the focus.
async fn refusals_speak_the_dealers_language(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    // Above the table's limit.
    let page = submit(
        &mut dana,
        &hand,
        "wager-form",
        &[("seat", "4"), ("bettor", "Ann"), ("amount", "600")],
    )
    .await;
    assert_eq!(page.status, 422);
    assert!(the_one_error(&page).contains("above the table maximum"));
    assert!(
        page.body
            .contains("required autofocus aria-describedby=\"amount-error\"")
    );
    // A backline on a seat with no primary wager.
    let page = submit(
        &mut dana,
        &hand,
        "wager-form",
        &[
            ("seat", "5"),
            ("bettor", "Bo"),
            ("amount", "20"),
            ("backline", "1"),
        ],
    )
    .await;
    assert_eq!(page.status, 422);
    assert!(the_one_error(&page).starts_with("Seat 5 has no primary wager yet"));
    // A stale page: the current state, in words.
    let old = dana.get(&hand).await;
    ok(
        &mut dana,
        &hand,
        "wager-form",
        &[("seat", "4"), ("bettor", "Ann"), ("amount", "60")],
    )
    .await;
    let page = post_shown(
        &mut dana,
        &hand,
        &old,
        "wager-form",
        &[("seat", "6"), ("bettor", "Cy"), ("amount", "40")],
    )
    .await;
    assert_eq!(page.status, 409, "{}", page.body);
    assert_eq!(
        the_one_error(&page),
        "This hand changed since the page was loaded — here is the current state. Nothing was recorded."
    );
    assert!(
        page.body.contains("id=\"form-error\""),
        "at the top: no field is at fault"
    );
    ok(
        &mut dana,
        &hand,
        "wager-form",
        &[("seat", "6"), ("bettor", "Cy"), ("amount", "40")],
    )
    .await;
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(&mut dana, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    // A seat with no result and no cards: named, beside it.
    let page = submit(&mut dana, &hand, "results-form", &[("outcome_4", "pd")]).await;
    assert_eq!(page.status, 422);
    assert_eq!(
        the_one_error(&page),
        "Seat 6: choose player, PD or push, or type the seat&#39;s cards"
    );
    assert!(page.body.contains("id=\"seat-6-error\""));
    assert!(
        page.body.contains("value=\"player\" autofocus"),
        "{}",
        page.body
    );
    // Six cards for a seat: named, its cards shown open with the focus.
    let six = [
        ("outcome_4", "pd"),
        ("cards_1", "As Ad Ks Kd Qs Qd Js"),
        ("cards_6", "4s 5s 6s 7s 8s Jc"),
    ];
    let page = submit(&mut dana, &hand, "results-form", &six).await;
    assert_eq!(page.status, 422);
    assert!(the_one_error(&page).starts_with("Seat 6: &#34;4s 5s 6s 7s 8s Jc&#34; is 6 cards"));
    assert!(
        page.body.contains("value=\"4s 5s 6s 7s 8s Jc\" autofocus"),
        "{}",
        page.body
    );
    // A card in two seats' hands: both seats named.
    let twice = [
        ("outcome_4", "pd"),
        ("cards_1", "As Ad Ks Kd Qs Qd Js"),
        ("cards_6", "As 5s 6s 7s 8s Jc Jd"),
    ];
    let page = submit(&mut dana, &hand, "results-form", &twice).await;
    assert_eq!(page.status, 422);
    assert_eq!(
        the_one_error(&page),
        "Seat 6: card &#34;As&#34; is already in the hand of seat 1"
    );
    assert_eq!(records(&app, "hand_recorded").await, 0);
    assert_eq!(records(&app, "outcome_recorded").await, 0);
}

on_both_databases!(
    a_repeated_wager_asks_before_it_is_recorded,
    the_api_records_an_equal_wager_under_a_new_key,
    a_void_asks_then_voids,
    refusals_speak_the_dealers_language,
);
