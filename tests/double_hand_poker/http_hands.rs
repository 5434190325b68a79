//! The hand tools over HTTP, on both databases: `/api/v1/hands/eval`,
//! `/house-way`, `/settings` and `/api/v1/dice`, POST (JSON body) and GET
//! (query string) — 200 with the same JSON as the CLI's `--json`, 422 with a
//! JSON error naming the value — and the hand store's routes beside them.

use crate::common::cli::cli_json;
use crate::common::{Backend, post_bad, post_ok, spawn_app};
use pitbook::domain::double_hand_poker::tools::{self, CardsRequest};
use serde_json::{Value, json};

async fn eval_returns_the_name_rank_and_rules(backend: Backend) {
    let app = spawn_app(backend).await;
    let body = post_ok(
        &app,
        "/api/v1/hands/eval",
        json!({"cards": "Kh Kd Ks 4c 4d"}),
    )
    .await;
    let expected = tools::eval(&CardsRequest::new("Kh Kd Ks 4c 4d")).unwrap();
    assert_eq!(body, serde_json::to_value(&expected).unwrap());
    assert_eq!(body["name"], "Full house, kings over fours");
    assert_eq!(body["category"], "full_house");
    assert_eq!(body["cards"], json!(["Kh", "Kd", "Ks", "4c", "4d"]));
    assert_eq!(body["rules"]["profile"], "lucky-chances");

    let array = post_ok(
        &app,
        "/api/v1/hands/eval",
        json!({"cards": ["kh", "K♦", "Ks", "4c", "4d"]}),
    )
    .await;
    assert_eq!(array, body, "an array of cards is the same hand");

    let two = post_ok(&app, "/api/v1/hands/eval", json!({"cards": "JK As"})).await;
    assert_eq!(two["name"], "Pair of aces");
    assert_eq!(two["category"], "pair");

    let wild = post_ok(
        &app,
        "/api/v1/hands/eval",
        json!({"cards": "JK Kh Kd Ks Kc", "options": {"joker": "wild"}}),
    )
    .await;
    assert_eq!(wild["name"], "Five kings");
    assert_eq!(wild["rules"]["joker"], "wild");

    let rank = |v: &Value| v["rank"].as_u64().unwrap();
    let wheel = post_ok(
        &app,
        "/api/v1/hands/eval",
        json!({"cards": "As 2s 3d 4c 5h", "profile": "nevada"}),
    )
    .await;
    let king = post_ok(
        &app,
        "/api/v1/hands/eval",
        json!({"cards": "9s Td Jc Qh Kd", "profile": "nevada"}),
    )
    .await;
    assert!(
        rank(&wheel) > rank(&king),
        "nevada: the wheel is second highest"
    );
    assert_eq!(wheel["rules"]["wheel"], "second_highest");
    let low = post_ok(
        &app,
        "/api/v1/hands/eval",
        json!({"cards": "As 2s 3d 4c 5h", "profile": "nevada", "options": {"wheel": "lowest"}}),
    )
    .await;
    assert!(rank(&low) < rank(&king), "the option overrides the profile");
}

async fn house_way_and_settings_return_the_setting_and_the_rule(backend: Backend) {
    let app = spawn_app(backend).await;
    let cards = "As Ks Qd Jc 9h 8s 8d";
    let hw = post_ok(&app, "/api/v1/hands/house-way", json!({"cards": cards})).await;
    assert_eq!(hw["high"]["cards"], json!(["Qd", "Jc", "9h", "8d", "8s"]));
    assert_eq!(hw["low"]["cards"], json!(["As", "Ks"]));
    assert_eq!(hw["high"]["name"], "Pair of eights");
    assert_eq!(hw["low"]["name"], "Ace high");
    assert_eq!(
        hw["house_way"],
        json!({"name": "reference", "rule": "One pair: pair behind, two highest cards in front"})
    );

    let s = post_ok(&app, "/api/v1/hands/settings", json!({"cards": cards})).await;
    let settings = s["settings"].as_array().unwrap();
    assert_eq!(settings.len(), 21);
    assert_eq!(s["fouled_count"], 3);
    let n = s["house_way"]["setting"].as_u64().unwrap() as usize;
    assert_eq!(settings[n - 1]["high"], hw["high"]);
    assert_eq!(settings[n - 1]["low"], hw["low"]);
    assert_eq!(settings[n - 1]["fouled"], false);
    assert_eq!(settings[20]["fouled"], true);
    assert_eq!(settings[20]["low"]["name"], "Pair of eights");
}

async fn dice_name_the_action_seat(backend: Backend) {
    let app = spawn_app(backend).await;
    let body = post_ok(
        &app,
        "/api/v1/dice",
        json!({"dice": [4, 5, 3], "pd_seat": 1}),
    )
    .await;
    assert_eq!(body["action_seat"], 5);
    assert_eq!(body["total"], 12);
    assert_eq!(body["position"], 5);
    assert_eq!(body["seats"], 7);
    assert!(body["explanation"].as_str().unwrap().contains("seat 5"));
    let wrap = post_ok(
        &app,
        "/api/v1/dice",
        json!({"dice": [6, 6, 6], "pd_seat": 7, "seats": 9}),
    )
    .await;
    assert_eq!(wrap["action_seat"], 1);
    let pd = post_ok(
        &app,
        "/api/v1/dice",
        json!({"dice": [5, 5, 5], "pd_seat": 3}),
    )
    .await;
    assert_eq!(pd["action_seat"], 3, "15 counts back to the PD");
}

async fn get_with_a_query_string_is_the_same_as_post(backend: Backend) {
    let app = spawn_app(backend).await;
    let pairs = [
        (
            "/api/v1/hands/eval?cards=JK+Kh+Kd+Ks+Kc&joker=wild",
            "/api/v1/hands/eval",
            json!({"cards": "JK Kh Kd Ks Kc", "options": {"joker": "wild"}}),
        ),
        (
            "/api/v1/hands/house-way?cards=As,Ks,Qd,Jc,9h,8s,8d&profile=nevada",
            "/api/v1/hands/house-way",
            json!({"cards": "As Ks Qd Jc 9h 8s 8d", "profile": "nevada"}),
        ),
        (
            "/api/v1/hands/settings?cards=As%20Ks%20Qd%20Jc%209h%208s%208d&wheel=second_highest",
            "/api/v1/hands/settings",
            json!({"cards": "As Ks Qd Jc 9h 8s 8d", "options": {"wheel": "second_highest"}}),
        ),
        (
            "/api/v1/dice?dice=4,5,3&pd_seat=2&seats=6",
            "/api/v1/dice",
            json!({"dice": [4, 5, 3], "pd_seat": 2, "seats": 6}),
        ),
    ];
    for (get, post, body) in pairs {
        let (status, got) = app.get_json(get).await;
        assert_eq!(status, 200, "{get}: {got}");
        assert_eq!(got, post_ok(&app, post, body).await, "{get}");
    }
}

async fn the_cli_json_is_the_apis_json(backend: Backend) {
    let app = spawn_app(backend).await;
    let cases = [
        (
            vec![
                "hand",
                "eval",
                "JK",
                "9s",
                "8s",
                "7s",
                "5s",
                "--profile",
                "nevada",
            ],
            "/api/v1/hands/eval",
            json!({"cards": "JK 9s 8s 7s 5s", "profile": "nevada"}),
        ),
        (
            vec![
                "hand",
                "house-way",
                "JK 9h 8h 7h 6c 2d 2s",
                "--joker",
                "wild",
            ],
            "/api/v1/hands/house-way",
            json!({"cards": ["JK", "9h", "8h", "7h", "6c", "2d", "2s"], "options": {"joker": "wild"}}),
        ),
        (
            vec![
                "hand",
                "settings",
                "Ah Ad Kc Ks 7h 6d 2c",
                "--wheel",
                "second_highest",
            ],
            "/api/v1/hands/settings",
            json!({"cards": "Ah Ad Kc Ks 7h 6d 2c", "options": {"wheel": "second_highest"}}),
        ),
        (
            vec!["dice", "2", "3", "3", "--pd-seat", "4", "--seats", "8"],
            "/api/v1/dice",
            json!({"dice": [2, 3, 3], "pd_seat": 4, "seats": 8}),
        ),
    ];
    for (args, path, body) in cases {
        assert_eq!(cli_json(&args), post_ok(&app, path, body).await, "{args:?}");
    }
}

async fn bad_input_is_422_naming_the_value(backend: Backend) {
    let app = spawn_app(backend).await;
    let (eval, hw, settings, dice) = (
        "/api/v1/hands/eval",
        "/api/v1/hands/house-way",
        "/api/v1/hands/settings",
        "/api/v1/dice",
    );
    let cases = [
        (
            eval,
            json!({"cards": "As Xx Qs"}),
            "cards: unknown card \"Xx\"",
        ),
        (
            eval,
            json!({"cards": ["As", "Ks", "1s", "Js", "Ts"]}),
            "\"1s\"",
        ),
        (
            eval,
            json!({"cards": "As Ks Qs Js as"}),
            "cards: card \"As\" appears twice",
        ),
        (
            eval,
            json!({"cards": "As Ks Qs"}),
            "cards: expected 5 or 2 cards, got 3",
        ),
        (eval, json!({"cards": ""}), "got 0"),
        (
            hw,
            json!({"cards": "As Ks Qd Jc 9h 8s"}),
            "cards: expected 7 cards, got 6",
        ),
        (
            settings,
            json!({"cards": "As Ks Qd Jc 9h 8s 8d 7c"}),
            "expected 7 cards, got 8",
        ),
        (
            hw,
            json!({"cards": "As Ks Qd Jc 9h 8s 8s"}),
            "card \"8s\" appears twice",
        ),
        (
            eval,
            json!({"cards": "JK As", "options": {"joker": "none"}}),
            "\"JK\"",
        ),
        (
            hw,
            json!({"cards": "JK Ks Qd Jc 9h 8s 8d", "options": {"joker": "none"}}),
            "joker rule is \"none\"",
        ),
        (
            settings,
            json!({"cards": "JK Ks Qd Jc 9h 8s 8d", "options": {"joker": "none"}}),
            "\"JK\"",
        ),
        (
            eval,
            json!({"cards": "As Ks", "profile": "vegas"}),
            "profile: unknown variant `vegas`",
        ),
        (
            eval,
            json!({"cards": "As Ks", "options": {"joker": "maybe"}}),
            "options.joker: unknown variant `maybe`",
        ),
        (
            eval,
            json!({"cards": "As Ks", "options": {"jokr": "wild"}}),
            "options.jokr: unknown field",
        ),
        (
            eval,
            json!({"cards": "As Ks", "hand": 1}),
            "hand: unknown field",
        ),
        (eval, json!({"card": "As Ks"}), "card"),
        (
            "/api/v1/hands/ev",
            json!({"cards": "As Ks Qs 9c 9s 4d As"}),
            "cards: card \"As\" appears twice",
        ),
        (
            "/api/v1/hands/ev",
            json!({"cards": "As Ks Qs 9c 9s 4d"}),
            "expected 7 cards, got 6",
        ),
        (
            "/api/v1/hands/ev",
            json!({"cards": "As Ks Qs 9c 9s 4d 2c", "side": "dealer"}),
            "side: unknown variant `dealer`",
        ),
        (
            "/api/v1/hands/ev",
            json!({"cards": "As Ks Qs 9c 9s 4d 2c", "options": {"house_way": "bellagio"}}),
            "options.house_way: \"bellagio\" is not a house way: reference, foxwoods, atlantic-city, gold-star, mgm, or a loaded one's name@digest",
        ),
        (eval, json!({"cards": 5}), "cards: invalid type"),
        (eval, json!({"cards": ["As", 5]}), "cards[1]: invalid type"),
        (eval, json!("As Ks"), "body: invalid type: string \"As Ks\""),
        (
            dice,
            json!({"dice": [4, 7, 3], "pd_seat": 1}),
            "dice[1]: 7 is not a die value (1..6)",
        ),
        (
            dice,
            json!({"dice": [0, 5, 3], "pd_seat": 1}),
            "dice[0]: 0 is not a die value",
        ),
        (
            dice,
            json!({"dice": [4, 5, -1], "pd_seat": 1}),
            "dice[2]: -1 is not a die value",
        ),
        (
            dice,
            json!({"dice": [4, 5], "pd_seat": 1}),
            "dice: expected 3 dice, got 2",
        ),
        (dice, json!({"dice": [4, 5, 3, 2], "pd_seat": 1}), "got 4"),
        (
            dice,
            json!({"dice": [4, 5.5, 3], "pd_seat": 1}),
            "dice[1]: invalid type: floating point `5.5`",
        ),
        (
            dice,
            json!({"dice": [4, 5, 3], "pd_seat": 8}),
            "pd_seat: 8 is not a seat at a 7-seat table (1..7)",
        ),
        (
            dice,
            json!({"dice": [4, 5, 3], "pd_seat": 0}),
            "pd_seat: 0 is not a seat",
        ),
        (
            dice,
            json!({"dice": [4, 5, 3], "pd_seat": 5, "seats": 4}),
            "pd_seat: 5 is not a seat at a 4-seat table",
        ),
        (
            dice,
            json!({"dice": [4, 5, 3], "pd_seat": 1, "seats": 11}),
            "seats: 11 is not a table size (2..10)",
        ),
        (dice, json!({"dice": [4, 5, 3]}), "missing field `pd_seat`"),
        (
            dice,
            json!({"dice": [4, 5, 3], "pd_seat": 1, "seat": 2}),
            "seat: unknown field",
        ),
    ];
    for (path, body, needle) in cases {
        post_bad(&app, path, body, needle).await;
    }

    let (status, body) = app.post_raw(eval, "{\"cards\": ").await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("EOF while parsing"),
        "{body}"
    );
    let (status, body) = app.post_raw(eval, "not json").await;
    assert_eq!(status, 422, "{body}");
    assert!(
        body["message"].as_str().unwrap().starts_with("body: "),
        "{body}"
    );

    for (path, needle) in [
        (
            "/api/v1/hands/eval?cards=As+Xx",
            "cards: unknown card \"Xx\"",
        ),
        ("/api/v1/hands/eval", "query: missing field `cards`"),
        (
            "/api/v1/hands/eval?cards=As+Ks&card=x",
            "query: card: unknown field",
        ),
        ("/api/v1/hands/eval?cards=As+Ks&profile=vegas", "`vegas`"),
        (
            "/api/v1/hands/house-way?cards=JK+Ks+Qd+Jc+9h+8s+8d&joker=none",
            "\"JK\"",
        ),
        (
            "/api/v1/dice?dice=4,7,3&pd_seat=1",
            "dice[1]: 7 is not a die value",
        ),
        (
            "/api/v1/dice?dice=4,x,3&pd_seat=1",
            "dice[1]: \"x\" is not a die value",
        ),
        (
            "/api/v1/dice?dice=4,5,3&pd_seat=9",
            "pd_seat: 9 is not a seat",
        ),
        (
            "/api/v1/dice?dice=4,5,3&pd_seat=x",
            "query: pd_seat: invalid digit",
        ),
    ] {
        let (status, body) = app.get_json(path).await;
        assert_eq!(status, 422, "{path}: {body}");
        assert_eq!(body["error"], "bad_input");
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains(needle),
            "{path}: {message:?} lacks {needle:?}"
        );
    }
}

/// `/api/v1/hands/eval` sits beside the hand store's `/api/v1/hands/{id}`.
async fn the_hand_store_routes_still_work_beside_the_tools(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let (status, opened, _) = app
        .post_json(
            "/api/v1/hands",
            &json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
                    "events": [{"type": "hand_opened", "table": "T1"}]}),
        )
        .await;
    assert_eq!(status, 201, "{opened}");
    let id = opened["hand_id"].as_str().unwrap().to_string();

    let (status, body, _) = app
        .post_json(
            &format!("/api/v1/hands/{id}/commands"),
            &json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
                    "expected_version": 1,
                    "events": [{"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}]}),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["version"], 2);

    let (status, view) = app.get_json(&format!("/api/v1/hands/{id}")).await;
    assert_eq!(status, 200, "{view}");
    assert_eq!(view["events"].as_array().unwrap().len(), 2);

    let (status, body) = app.get_json("/api/v1/hands/no-such-hand").await;
    assert_eq!(status, 404, "{body}");

    // The tools answer on their static paths, GET and POST.
    let (status, body) = app.get_json("/api/v1/hands/eval?cards=As+Ks").await;
    assert_eq!((status, body["name"].clone()), (200, json!("Ace high")));
    post_ok(
        &app,
        "/api/v1/hands/settings",
        json!({"cards": "As Ks Qd Jc 9h 8s 8d"}),
    )
    .await;
}

on_both_databases!(
    eval_returns_the_name_rank_and_rules,
    house_way_and_settings_return_the_setting_and_the_rule,
    dice_name_the_action_seat,
    get_with_a_query_string_is_the_same_as_post,
    the_cli_json_is_the_apis_json,
    bad_input_is_422_naming_the_value,
    the_hand_store_routes_still_work_beside_the_tools,
);
