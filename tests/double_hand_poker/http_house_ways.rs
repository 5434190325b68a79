//! A supervisor loads the room's own house way, through the real
//! server on both databases: the page's form and `POST /api/v1/house-ways`
//! refuse a bad file with its line (422, field `text`, the text kept) and a
//! dealer (403); a good file is recorded once, named by its digest, offered
//! when a table is created; a hand at that table sets the PD's hand by it
//! and records its name; `audit verify` checks the file from the log and
//! finds a changed row.

use serde_json::json;

use crate::common::browser::signed_in;
use crate::common::play::{form_html, hand_at_results, ok, submit, table_with_dealer_and};
use crate::common::{Backend, bearer_client, log_records, problem, records, spawn_app, tamper};
use crate::common::{test_key, verify_split_every_way};
use pitbook::domain::double_hand_poker::house_way::SHIPPED;
use pitbook::domain::staff::Role;

/// The Foxwoods file as a room's own.
fn my_room() -> String {
    SHIPPED[1]
        .1
        .replace("name foxwoods", "name my-room")
        .replace(
            "title Foxwoods pai gow poker house way",
            "title My room's house way",
        )
}

async fn a_bad_file_is_refused_beside_the_text_and_a_dealer_may_not_load(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let list = sue.get("/tools/house-ways").await;
    assert_eq!(list.status, 200);
    assert!(list.body.contains("id=\"load-house-way\""), "{}", list.body);

    let bad = my_room().replace("play front pair K", "play front pair of kings");
    let page = submit(
        &mut sue,
        "/tools/house-ways",
        "load-house-way",
        &[("text", &bad)],
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    let error = "<p class=\"error\" id=\"text-error\">line 8: ";
    assert!(page.body.contains(error), "{}", page.body);
    // What was typed is kept, in the box the error describes.
    let form = form_html(&page.body, "load-house-way");
    assert!(form.contains("play front pair of kings"), "{form}");
    assert!(form.contains("aria-describedby=\"text-error\""), "{form}");

    // A shipped name, over the API: 422 naming the field.
    let (status, body, _) = app
        .post_json("/api/v1/house-ways", &json!({"text": SHIPPED[1].1}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["field"], "text");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("\"foxwoods\" is a shipped house way's name"),
        "{body}"
    );
    // Format 2's `without` in a format 1 file: its line, the word and why.
    let old = my_room().replace(
        "play straight or flush with pair in front",
        "play straight or flush without A",
    );
    let (status, body, _) = app
        .post_json("/api/v1/house-ways", &json!({"text": old}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["field"], "text");
    let message = body["message"].as_str().unwrap();
    assert!(
        message.contains("\"without\" is a house-way 2 word") && message.contains("without A"),
        "{body}"
    );
    // Hands no rule sets: refused with one of them.
    let pairs_only = "house-way 1\nname pairs-only\ntitle Pairs only\nsource none\n\n\
                      when one pair\nplay front best\nsay One pair: the best front\n";
    let (status, body, _) = app
        .post_json("/api/v1/house-ways", &json!({"text": pairs_only}))
        .await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("set by no rule"),
        "{body}"
    );

    app.add_user("dana", Role::Dealer).await;
    let dana = bearer_client(&app.token_for("dana").await);
    let response = dana
        .post(app.url("/api/v1/house-ways"))
        .json(&json!({"text": my_room()}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert_eq!(
        records(&app, "house_way_loaded").await,
        0,
        "nothing recorded"
    );
    // A table naming a way nobody loaded is refused beside the option.
    let (status, body, _) = app
        .post_json(
            "/api/v1/tables",
            &json!({"name": "T9", "profile": "lucky-chances", "seats": 7,
                "options": {"house_way": "elsewhere@0123456789ab"}}),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(body["field"], "house_way", "{body}");
}

async fn a_loaded_way_sets_the_hands_at_its_table_and_verifies(backend: Backend) {
    let app = spawn_app(backend).await;
    let (status, loaded, _) = app
        .post_json("/api/v1/house-ways", &json!({"text": my_room()}))
        .await;
    assert_eq!(status, 201, "{loaded}");
    let name = loaded["house_way"].as_str().unwrap().to_string();
    assert!(name.starts_with("my-room@") && name.len() == "my-room@".len() + 12);
    assert_eq!(loaded["title"], "My room's house way");
    assert_eq!(loaded["loaded_by"], crate::common::TEST_ADMIN);
    // The same file again: the same way, recorded once.
    let (status, again, _) = app
        .post_json("/api/v1/house-ways", &json!({"text": my_room()}))
        .await;
    assert_eq!((status, &again), (201, &loaded));
    assert_eq!(records(&app, "house_way_loaded").await, 1);
    let (status, list) = app.get_json("/api/v1/house-ways").await;
    assert_eq!(status, 200);
    assert_eq!(list["shipped"][1], "foxwoods");
    assert_eq!(list["loaded"][0]["house_way"], name.as_str());

    // Offered when a table is created, and the table links its chart.
    let mut dana = table_with_dealer_and(&app, &[("wager_max", "500"), ("house_way", &name)]).await;
    let tables = dana.get("/tables/DHP-1").await;
    assert!(
        tables
            .body
            .contains(&format!("href=\"/tools/house-ways/{name}\"")),
        "{}",
        tables.body
    );
    let chart = dana.get(&format!("/tools/house-ways/{name}")).await;
    assert_eq!(chart.status, 200, "{}", chart.body);
    assert!(
        chart.body.contains("<h1>My room&#39;s house way</h1>"),
        "{}",
        chart.body
    );
    let by = format!("loaded by {} on ", crate::common::TEST_ADMIN);
    assert!(chart.body.contains(&by), "{}", chart.body);

    // The PD's four jacks and an ace: split, as the room's file says.
    let hand = hand_at_results(&mut dana, &[("4", "Ann", "50"), ("5", "Bo", "50")]).await;
    let cards = [
        ("mode", "cards"),
        ("cards_1", "Js Jh Jd Jc Ad 5c 2h"),
        ("high_4", "Ks Qs 7d 5h 3c"),
        ("low_4", "Ah 3s"),
        ("high_5", "8h 8c 8d 6h 2d"),
        ("low_5", "4s 4h"),
    ];
    ok(
        &mut dana,
        &format!("{hand}?mode=cards"),
        "results-form",
        &cards,
    )
    .await;
    let page = dana.get(&hand).await;
    assert!(
        page.body
            .contains("House way my-room: Four of a kind (jacks to aces): always split."),
        "{}",
        page.body
    );
    let opened: Vec<_> = log_records(&app.database.db)
        .await
        .into_iter()
        .filter(|(kind, _, _)| kind == "hand_opened")
        .collect();
    assert_eq!(
        opened[0].2["options"]["house_way"],
        name.as_str(),
        "{opened:?}"
    );

    let report = verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await;
    assert!(report.ok(), "{report:?}");
    // A changed row is found, at its record.
    let seq = loaded["seq"].as_i64().unwrap();
    tamper(
        &app.database.db,
        &["UPDATE house_ways SET title = 'Changed'"],
    )
    .await;
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert_eq!(problem(&report), (seq, "projection"), "{report:?}");
}

on_both_databases!(
    a_bad_file_is_refused_beside_the_text_and_a_dealer_may_not_load,
    a_loaded_way_sets_the_hands_at_its_table_and_verifies,
);
