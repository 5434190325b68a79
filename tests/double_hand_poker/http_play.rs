//! Tables and the guided hand through the real server's pages, on both
//! databases: a supervisor creates a table and assigns a dealer; the dealer
//! runs the seed's $200 example step by step; role checks, CSRF, stale
//! pages, double submits and bad input; a supervisor voids a hand; the
//! chain verifies afterwards.

use crate::common::browser::{Browser, csrf_of, input_value, signed_in, text_of};
use crate::common::play::{
    DANA_BANKS_200, create_table, dana_banks_200, form_html, ok, open_hand, submit,
    table_with_dealer, void_hand,
};
use crate::common::{Backend, TEST_PASSWORD as PASSWORD, records, spawn_app, test_key};
use pitbook::domain::staff::Role;

async fn seed_example_hand(dana: &mut Browser) -> String {
    let hand = open_hand(dana).await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("1. Who banks?"), "{}", page.body);
    // Each seat on the drawing chooses itself for the PD form: a tap on
    // seat 3 comes back with the form's seat 3.
    assert_eq!(
        page.body.matches("#pd-form\" class=\"seat-link\"").count(),
        7
    );
    assert!(
        page.body
            .contains(&format!("href=\"{hand}?seat=3#pd-form\""))
    );
    let tapped = dana.get(&format!("{hand}?seat=3")).await;
    let form = form_html(&tapped.body, "pd-form");
    assert!(
        form.contains("id=\"seat\" name=\"seat\" inputmode=\"numeric\" value=\"3\""),
        "{form}"
    );
    dana_banks_200(dana, &hand).await;
    for (seat, bettor, amount) in [
        ("4", "Ann", "60"),
        ("5", "Bo", "60"),
        ("6", "Cy", "100"),
        ("7", "Di", "40"),
    ] {
        ok(
            dana,
            &hand,
            "wager-form",
            &[("seat", seat), ("bettor", bettor), ("amount", amount)],
        )
        .await;
    }
    // Under the drawing, the wagers against the bank, and by how much
    // they pass it.
    let wagers_page = dana.get(&hand).await;
    assert!(
        wagers_page.body.contains(
            "<p class=\"running\" id=\"running\">4 wagers · 260.00 wagered · bank 200.00 · 60.00 more than the bank</p>"
        ),
        "{}",
        wagers_page.body
    );
    // The amount's keypad offers the usual chips within the table's
    // limits (up to 500 here, on a unit of 0.01).
    let wager_form = form_html(&wagers_page.body, "wager-form");
    assert!(
        wager_form.contains("data-keypad data-quick=\"1 2 5 10 20 25\""),
        "{wager_form}"
    );
    // The dice by touch: each die six keys, and the ACTION seat of every
    // sum at this table (PD on seat 1, seven seats) for the page to show
    // before the dice are recorded: 8 and 15 land on the PD.
    let dice_page = dana.get(&format!("{hand}?step=dice")).await;
    let form = form_html(&dice_page.body, "dice-form");
    assert_eq!(form.matches("type=\"radio\"").count(), 18, "{form}");
    assert!(
        form.contains(
            "data-seats-by-sum=\"3:3 4:4 5:5 6:6 7:7 8:1 9:2 10:3 11:4 12:5 13:6 14:7 15:1 16:2 17:3 18:4\""
        ),
        "{form}"
    );
    // 1 + 1 + 2 = 4: the PD's seat counts as 1, so the ACTION seat is 4.
    ok(
        dana,
        &format!("{hand}?step=dice"),
        "dice-form",
        &[("d1", "1"), ("d2", "1"), ("d3", "2")],
    )
    .await;
    let page = dana.get(&hand).await;
    assert!(
        page.body.contains("id=\"svg-action\""),
        "the ACTION button is drawn"
    );
    ok(
        dana,
        &hand,
        "results-form",
        &[
            ("outcome_4", "pd"),
            ("outcome_5", "player"),
            ("outcome_6", "pd"),
            ("outcome_7", "player"),
        ],
    )
    .await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("5. Settlement"), "{}", page.body);
    assert!(
        page.body.contains("In action: 200.00"),
        "the drawing shows the bank in action"
    );
    // One step, then the rest: a chip leaves the felt as its step is
    // confirmed, and none is left once the hand is closed.
    let chips = |body: &str| -> usize {
        ["chip", "chip mixed", "chip backline"]
            .iter()
            .map(|c| body.matches(&format!("class=\"{c}\"")).count())
            .sum()
    };
    assert_eq!(chips(&page.body), 4, "a chip a seat");
    ok(dana, &hand, "confirm-one", &[]).await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("In action: 140.00"), "{}", page.body);
    assert_eq!(chips(&page.body), 3, "Ann's chip left with her step");
    ok(dana, &hand, "confirm-all", &[]).await;
    // Every step done: Close the hand where the steps were confirmed.
    let page = dana.get(&hand).await;
    let now = form_html(&page.body, "close-form");
    assert!(now.contains("Close the hand"), "{now}");
    ok(dana, &hand, "close-form", &[]).await;
    let page = dana.get(&hand).await;
    assert_eq!(chips(&page.body), 0, "{}", page.body);
    hand
}

async fn the_seed_example_runs_through_the_pages(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = seed_example_hand(&mut dana).await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("This hand is closed."), "{}", page.body);
    assert!(
        page.body
            .contains("<td class=\"num\" id=\"pd-net\">80.00</td>"),
        "the PD's net in a numeric cell: {}",
        page.body
    );
    assert_eq!(
        text_of(&page.body, "conservation"),
        "money in 460.00 = money out 460.00: balanced",
        "{}",
        page.body
    );
    let record = dana.get(&format!("{hand}/record")).await;
    assert_eq!(record.status, 200);
    for event in [
        "hand_opened",
        "pd_set",
        "wager_placed",
        "action_set",
        "outcome_recorded",
        "steps_confirmed",
        "hand_closed",
    ] {
        assert!(record.body.contains(event), "{event} in the record");
    }
    assert_eq!(records(&app, "wager_placed").await, 4);
    assert_eq!(records(&app, "table_created").await, 1);
    assert_eq!(records(&app, "dealer_assigned").await, 1);
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.hands_settled, 1);
}

async fn roles_are_checked_at_every_step(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;

    // A dealer not assigned to the table can read but not act.
    let mut eve = signed_in(&app, "eve", Role::Dealer).await;
    assert_eq!(eve.get("/tables/DHP-1").await.status, 200);
    let page = eve.get(&hand).await;
    assert!(
        !page.body.contains("id=\"pd-form\""),
        "no form for an unassigned dealer"
    );
    let csrf = eve.csrf("/tables").await;
    let page = eve
        .post(
            &hand,
            &[
                ("csrf", &csrf),
                ("step", "pd"),
                ("seat", "1"),
                ("player", "X"),
                ("bank", "10"),
            ],
        )
        .await;
    assert_eq!(page.status, 403, "{}", page.body);
    let page = eve
        .post(
            "/tables/DHP-1/hands",
            &[("csrf", &csrf), ("idempotency_key", "k-eve")],
        )
        .await;
    assert_eq!(page.status, 403);

    // An auditor reads only; a trainee cannot run a real table.
    let mut audrey = signed_in(&app, "audrey", Role::Auditor).await;
    assert_eq!(audrey.get(&format!("{hand}/record")).await.status, 200);
    let csrf = audrey.csrf("/tables").await;
    let page = audrey
        .post(&hand, &[("csrf", &csrf), ("step", "close")])
        .await;
    assert_eq!(page.status, 403);
    let page = audrey
        .post(
            "/tables",
            &[
                ("csrf", &csrf),
                ("table", "X"),
                ("seats", "7"),
                ("profile", "nevada"),
            ],
        )
        .await;
    assert_eq!(page.status, 403);
    let mut tia = signed_in(&app, "tia", Role::Trainee).await;
    let csrf = tia.csrf("/tables").await;
    let page = tia
        .post(
            &hand,
            &[
                ("csrf", &csrf),
                ("step", "pd"),
                ("seat", "1"),
                ("player", "X"),
                ("bank", "10"),
            ],
        )
        .await;
    assert_eq!(page.status, 403);
    // A dealer cannot void.
    let page = submit(&mut dana, &hand, "pd-form", DANA_BANKS_200).await;
    assert_eq!(page.status, 303);
    let csrf = dana.csrf("/tables").await;
    let page = dana
        .post(&hand, &[("csrf", &csrf), ("step", "void"), ("reason", "x")])
        .await;
    assert_eq!(page.status, 403);
    assert!(records(&app, "permission_denied").await >= 6);
    assert_eq!(
        records(&app, "pd_set").await,
        1,
        "only the assigned dealer's PD"
    );

    // Without a session: the login page. Without the CSRF token: 403.
    let mut anon = Browser::new(&app);
    assert_eq!(anon.get(&hand).await.location, "/login");
    let page = dana.post(&hand, &[("step", "close")]).await;
    assert_eq!(page.status, 403);
}

async fn bad_input_is_shown_beside_the_field_and_records_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    let page = submit(
        &mut dana,
        &hand,
        "pd-form",
        &[
            ("seat", "1"),
            ("player", "Dana"),
            ("bank", "2x0"),
            ("option", "bank_two"),
        ],
    )
    .await;
    assert_eq!(page.status, 422);
    assert!(page.body.contains("id=\"bank-error\""), "{}", page.body);
    assert!(page.body.contains("\"2x0\""), "the message names the value");
    assert!(
        page.body.contains("value=\"Dana\""),
        "what was typed is kept"
    );
    dana_banks_200(&mut dana, &hand).await;
    // Above the table's limit of 500.
    let page = submit(
        &mut dana,
        &hand,
        "wager-form",
        &[("seat", "4"), ("bettor", "Ann"), ("amount", "600")],
    )
    .await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains("id=\"amount-error\"") && page.body.contains("above the table maximum"),
        "{}",
        page.body
    );
    // A seat the table does not have.
    let page = submit(
        &mut dana,
        &hand,
        "wager-form",
        &[("seat", "9"), ("bettor", "Ann"), ("amount", "60")],
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert_eq!(records(&app, "wager_placed").await, 0);

    // A table form with a bad seat count.
    let mut sup = Browser::new(&app);
    sup.login("sue", PASSWORD).await;
    let page = create_table(&mut sup, "DHP-2", &[("seats", "12")]).await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains("id=\"seats-error\"") && page.body.contains("value=\"DHP-2\""),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "table_created").await, 1);
}

async fn a_double_submit_records_once_and_a_stale_page_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let page = dana.get(&hand).await;
    let form = form_html(&page.body, "wager-form");
    let fields = |f: &str| -> Vec<(String, String)> {
        let mut v: Vec<(String, String)> = ["csrf", "version", "idempotency_key", "step"]
            .iter()
            .map(|n| (n.to_string(), input_value(f, n)))
            .collect();
        v.extend(
            [("seat", "4"), ("bettor", "Ann"), ("amount", "60")].map(|(k, x)| (k.into(), x.into())),
        );
        v
    };
    let sent = fields(&form);
    let pairs: Vec<(&str, &str)> = sent.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(dana.post(&hand, &pairs).await.status, 303);
    assert_eq!(
        dana.post(&hand, &pairs).await.status,
        303,
        "the same form again"
    );
    assert_eq!(
        records(&app, "wager_placed").await,
        1,
        "a double tap records once"
    );
    // The same page's form with a new key but the old version: stale.
    let mut stale = sent.clone();
    stale.iter_mut().for_each(|(k, v)| {
        if k == "idempotency_key" {
            *v = "another-key".into()
        }
    });
    let pairs: Vec<(&str, &str)> = stale
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let page = dana.post(&hand, &pairs).await;
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(page.body.contains("Nothing was recorded"), "{}", page.body);
    assert_eq!(records(&app, "wager_placed").await, 1);
}

async fn a_supervisor_voids_and_corrects_with_a_reason(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = seed_example_hand(&mut dana).await;
    let mut sue = Browser::new(&app);
    sue.login("sue", PASSWORD).await;
    // A correction with no reason is refused beside the field.
    let page = submit(
        &mut sue,
        &hand,
        "correct-form",
        &[("seat", "6"), ("outcome", "player"), ("reason", "")],
    )
    .await;
    assert_eq!(page.status, 422);
    ok(
        &mut sue,
        &hand,
        "correct-form",
        &[
            ("seat", "6"),
            ("outcome", "player"),
            ("reason", "misread seat 6"),
        ],
    )
    .await;
    let page = sue.get(&hand).await;
    // Seat 6 now wins: the PD pays 80 instead of taking it.
    assert!(
        page.body
            .contains("<td class=\"num\" id=\"pd-net\">\u{2212}80.00</td>"),
        "{}",
        page.body
    );
    // A void asks first (tests/double_hand_poker/http_mistakes.rs), then voids.
    void_hand(&mut sue, &hand, "wrong table").await;
    let page = sue.get(&hand).await;
    assert!(page.body.contains("id=\"voided\""), "{}", page.body);
    let record = sue.get(&format!("{hand}/record")).await;
    assert!(record.body.contains("outcome_corrected") && record.body.contains("misread seat 6"));
    assert!(record.body.contains("hand_voided") && record.body.contains("wrong table"));
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn the_table_list_and_the_csrf_of_forms(backend: Backend) {
    let app = spawn_app(backend).await;
    let _dana = table_with_dealer(&app).await;
    let mut sue = Browser::new(&app);
    sue.login("sue", PASSWORD).await;
    let page = sue.get("/tables").await;
    assert!(page.body.contains("href=\"/tables/DHP-1\"") && page.body.contains("dana"));
    let csrf = csrf_of(&page.body);
    assert_eq!(csrf.len(), 64);
    let page = sue
        .post(
            "/tables",
            &[("table", "NOCSRF"), ("seats", "7"), ("profile", "nevada")],
        )
        .await;
    assert_eq!(page.status, 403);
    // Assigning an auditor is refused beside the field.
    app.add_user("audrey", Role::Auditor).await;
    let page = submit(
        &mut sue,
        "/tables/DHP-1",
        "assign",
        &[("username", "audrey"), ("op", "assign")],
    )
    .await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains("only dealers, supervisors and admins"),
        "{}",
        page.body
    );
}

async fn the_api_checks_the_table_assignment_too(backend: Backend) {
    let app = spawn_app(backend).await;
    let _dana = table_with_dealer(&app).await;
    app.add_user("eve", Role::Dealer).await;
    let open = |key: &str| {
        serde_json::json!({"idempotency_key": key, "events": [
            {"type": "hand_opened", "table": "DHP-1"}
        ]})
    };
    let eve = app.client_with_token(&app.token_for("eve").await);
    let r = eve
        .post(app.url("/api/v1/hands"))
        .json(&open("k-eve"))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 403, "eve is not assigned to DHP-1");
    let dana = app.client_with_token(&app.token_for("dana").await);
    let r = dana
        .post(app.url("/api/v1/hands"))
        .json(&open("k-dana"))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 201);
    let hand: serde_json::Value = r.json().await.expect("json");
    let id = hand["hand_id"].as_str().expect("id");
    let pd = serde_json::json!({"idempotency_key": "k-eve-2", "expected_version": 1, "events": [
        {"type": "pd_set", "seat": 1, "player": "Eve", "bank": "100"}
    ]});
    let r = eve
        .post(app.url(&format!("/api/v1/hands/{id}/commands")))
        .json(&pd)
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 403, "nor on a hand at DHP-1");
}

async fn the_chain_page_verifies_and_keeps_the_result(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    seed_example_hand(&mut dana).await;
    let mut audrey = signed_in(&app, "audrey", Role::Auditor).await;
    let page = audrey.get("/chain").await;
    assert!(page.body.contains("never run here"), "{}", page.body);
    let page = submit(&mut audrey, "/chain", "verify-form", &[]).await;
    assert_eq!((page.status, page.location.as_str()), (303, "/chain"));
    let page = audrey.get("/chain").await;
    assert!(
        page.body.contains("OK: ") && page.body.contains("1 settlements recomputed"),
        "{}",
        page.body
    );
    assert!(page.body.contains("run by audrey"), "{}", page.body);
    assert_eq!(records(&app, "chain_verified").await, 1);
    // A tampered record shows up on the next run.
    crate::common::tamper(
        &app.database.db,
        &["UPDATE audit_log SET payload = '{}' WHERE event_type = 'pd_set'"],
    )
    .await;
    submit(&mut audrey, "/chain", "verify-form", &[]).await;
    let page = audrey.get("/chain").await;
    assert!(page.body.contains("FAILED at seq"), "{}", page.body);
}

async fn hands_entered_as_cards_are_decided_by_the_rules(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    for (seat, bettor) in [("4", "Ann"), ("5", "Bo"), ("6", "Cy"), ("7", "Di")] {
        ok(
            &mut dana,
            &hand,
            "wager-form",
            &[("seat", seat), ("bettor", bettor), ("amount", "50")],
        )
        .await;
    }
    ok(
        &mut dana,
        &format!("{hand}?step=dice"),
        "dice-form",
        &[("d1", "1"), ("d2", "1"), ("d3", "2")],
    )
    .await;
    let cards = |seat7: &'static str| {
        vec![
            ("mode", "cards"),
            ("cards_1", "As Ad Ks Kd Qs Qd Js"),
            ("cards_4", "2c 3c 4c 5c 6c 7h 8h"),
            ("cards_5", "9c 9h 9s Th Tc Td 2d"),
            ("cards_6", "3h 4h 5h 6h 2h 2s 3s"),
            ("cards_7", seat7),
        ]
    };
    // The ace of spades twice: refused, nothing recorded.
    let page = submit(
        &mut dana,
        &format!("{hand}?mode=cards"),
        "results-form",
        &cards("As 5s 6s 7s 8s Jc Jd"),
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    // Shown once, beside the seat at fault, naming it and the other seat.
    assert!(
        page.body.contains(
            "id=\"seat-7-error\">Seat 7: card &#34;As&#34; is already in the hand of seat 1"
        ),
        "{}",
        page.body
    );
    assert!(!page.body.contains("id=\"form-error\""), "{}", page.body);
    assert_eq!(records(&app, "hand_recorded").await, 0);
    // Six cards typed for a seat: refused with the count, what was typed kept.
    let page = submit(
        &mut dana,
        &format!("{hand}?mode=cards"),
        "results-form",
        &cards("4s 5s 6s 7s 8s Jc"),
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body
            .contains("is 6 cards; a seat&#39;s hand to set is exactly 7 cards"),
        "{}",
        page.body
    );
    assert!(page.body.contains("4s 5s 6s 7s 8s Jc"), "{}", page.body);
    assert_eq!(records(&app, "hand_recorded").await, 0);
    let page = submit(
        &mut dana,
        &format!("{hand}?mode=cards"),
        "results-form",
        &cards("4s 5s 6s 7s 8s Jc Jd"),
    )
    .await;
    assert_eq!(page.status, 303, "{}", page.body);
    assert_eq!(
        records(&app, "hand_recorded").await,
        5,
        "four seats and the PD"
    );
    let page = dana.get(&hand).await;
    assert!(page.body.contains("5. Settlement"), "{}", page.body);
}

/// A training table: trainees (and any dealer) run practice hands there,
/// on the pages and on the API; a trainee still cannot act at a real table.
async fn trainees_run_hands_at_training_tables_only(backend: Backend) {
    let app = spawn_app(backend).await;
    let _dana = table_with_dealer(&app).await;
    let mut sup = signed_in(&app, "sam", Role::Supervisor).await;
    let page = create_table(&mut sup, "TRAIN-1", &[("training", "on")]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    let page = create_table(&mut sup, "BAD-1", &[("training", "maybe")]).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body.contains("&#34;maybe&#34; is not on or off"),
        "{}",
        page.body
    );
    let list = sup.get("/tables").await.body;
    assert!(list.contains("tag training"), "{list}");
    assert!(!list.contains("BAD-1"), "nothing recorded for the bad form");

    let mut tom = signed_in(&app, "tom", Role::Trainee).await;
    let page = tom.get("/tables/DHP-1").await;
    assert!(
        !page.body.contains("id=\"open-hand\""),
        "no start at a real table"
    );
    let page = submit(&mut tom, "/tables/TRAIN-1", "open-hand", &[]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    let hand = page.location;
    let page = tom.get(&hand).await;
    assert!(page.body.contains("id=\"training\""), "{}", page.body);
    ok(
        &mut tom,
        &hand,
        "pd-form",
        &[
            ("seat", "1"),
            ("player", "Pat"),
            ("bank", "200"),
            ("option", "bank_one"),
        ],
    )
    .await;
    let csrf = tom.csrf("/tables").await;
    let page = tom
        .post(
            "/tables/DHP-1/hands",
            &[("csrf", &csrf), ("idempotency_key", "tom-real")],
        )
        .await;
    assert_eq!(page.status, 403, "{}", page.body);

    // An unassigned dealer may practise too: here, take over tom's hand.
    let mut eve = signed_in(&app, "eve", Role::Dealer).await;
    ok(
        &mut eve,
        &hand,
        "wager-form",
        &[("seat", "4"), ("bettor", "Ann"), ("amount", "60")],
    )
    .await;

    // The API: the same rights.
    let open = |table: &str, key: &str| {
        serde_json::json!({"idempotency_key": key, "events": [
            {"type": "hand_opened", "table": table}]})
    };
    let api = app.client_with_token(&app.token_for("tom").await);
    for (table, status) in [("TRAIN-1", 201), ("DHP-1", 403), ("T-script", 422)] {
        let r = api
            .post(app.url("/api/v1/hands"))
            .json(&open(table, &format!("tom-{table}")))
            .send()
            .await
            .expect("post");
        assert_eq!(r.status().as_u16(), status, "trainee opening at {table}");
    }
    app.add_user("ann", Role::Auditor).await;
    let auditor = app.client_with_token(&app.token_for("ann").await);
    let r = auditor
        .post(app.url("/api/v1/hands"))
        .json(&open("TRAIN-1", "ann-1"))
        .send()
        .await
        .expect("post");
    assert_eq!(r.status().as_u16(), 403, "auditors read only");
}

on_both_databases!(
    trainees_run_hands_at_training_tables_only,
    hands_entered_as_cards_are_decided_by_the_rules,
    the_chain_page_verifies_and_keeps_the_result,
    the_api_checks_the_table_assignment_too,
    the_seed_example_runs_through_the_pages,
    roles_are_checked_at_every_step,
    bad_input_is_shown_beside_the_field_and_records_nothing,
    a_double_submit_records_once_and_a_stale_page_is_refused,
    a_supervisor_voids_and_corrects_with_a_reason,
    the_table_list_and_the_csrf_of_forms,
);
