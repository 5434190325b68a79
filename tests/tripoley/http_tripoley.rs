//! Tripoley over HTTP, on both databases: `POST /api/v1/tripoley/round` and
//! `/api/v1/tripoley/final` — 200 with the very bytes `pitbook tripoley`
//! prints, 422 with a JSON error naming the field and value; nothing stored.

use crate::common::cli::ok;
use crate::common::{Backend, TestApp, post_bad, post_ok, spawn_app};
use serde_json::{Value, json};

const ROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tripoley/round.json");
const FINAL: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/tripoley/final.json");
const ROUND_PATH: &str = "/api/v1/tripoley/round";
const FINAL_PATH: &str = "/api/v1/tripoley/final";

fn file_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

/// The raw body and content type of a POST.
async fn post_text(app: &TestApp, path: &str, body: String) -> (u16, String, String) {
    let response = app
        .client
        .post(app.url(path))
        .header("content-type", "application/json")
        .body(body)
        .send()
        .await
        .expect("request");
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .to_string();
    (status, kind, response.text().await.expect("body"))
}

async fn round_is_the_clis_bytes(backend: Backend) {
    let app = spawn_app(backend).await;
    let text = std::fs::read_to_string(ROUND).unwrap();
    let (status, kind, body) = post_text(&app, ROUND_PATH, text).await;
    assert_eq!((status, kind.as_str()), (200, "application/json"), "{body}");
    assert_eq!(body + "\n", ok(&["tripoley", "round", ROUND]));

    let out = post_ok(&app, ROUND_PATH, file_json(ROUND)).await;
    assert_eq!(
        out["chips"],
        json!({"Ann": 38, "Bo": 43, "Cy": 0, "Dee": 23})
    );
    assert_eq!(out["money"]["Bo"], "10.75");
    let pots: Vec<(&Value, &Value)> = out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "pot")
        .map(|s| (&s["pot"], &s["chips"]))
        .collect();
    assert_eq!(pots, [(&json!(0), &json!(22)), (&json!(1), &json!(10))]);
    let short = out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .find(|s| s["kind"] == "card_payment" && s["from"] == "Cy")
        .unwrap();
    assert_eq!(
        (&short["chips"], &short["shortfall"]),
        (&json!(0), &json!(6))
    );
}

async fn final_is_the_clis_bytes(backend: Backend) {
    let app = spawn_app(backend).await;
    let text = std::fs::read_to_string(FINAL).unwrap();
    let (status, _, body) = post_text(&app, FINAL_PATH, text).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body + "\n", ok(&["tripoley", "final", FINAL]));
    let out = post_ok(&app, FINAL_PATH, file_json(FINAL)).await;
    let winners: Vec<(&Value, &Value)> = out["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["kind"] == "final_pot")
        .map(|s| (&s["to"], &s["chips"]))
        .collect();
    // Cy and Ann tie on 11 chips; Cy sits nearer the dealer's (Bo's) left.
    assert_eq!(
        winners,
        [(&json!("Cy"), &json!(6)), (&json!("Ann"), &json!(5))]
    );
}

fn round_with(change: impl FnOnce(&mut Value)) -> Value {
    let mut v = file_json(ROUND);
    change(&mut v);
    v
}

async fn bad_rounds_are_422_naming_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    type Case = (fn(&mut Value), &'static str);
    let cases: [Case; 13] = [
        (
            |v| v["hands"]["spare"] = json!("Kh Kd 4c 5d 4h 6c 7d 9h Ks Kc"),
            "hands: 51 cards dealt; the deal is exactly the 52 cards (missing: 2s)",
        ),
        (
            |v| v["poker"]["folded"] = json!(["Zed"]),
            "poker.folded[0]: \"Zed\" is not at the table",
        ),
        (
            |v| v["dealer"] = json!("Eve"),
            "dealer: \"Eve\" is not among the players",
        ),
        (
            |v| v["profile"] = json!("cadaco"),
            "spare.auction: the spare hand is not played under the cadaco profile",
        ),
        (
            |v| v["spare"]["auction"]["price"] = json!(9),
            "spare.auction.price: 9 is more than the 3 chips \"Cy\" has after the ante",
        ),
        (
            |v| v["poker"]["shown"]["Cy"] = json!("Kh Kd 4c 5d Jh"),
            "poker.shown.Cy: Jh is not in \"Cy\"'s hand",
        ),
        (
            |v| v["poker"]["contributions"]["Ann"] = json!(7),
            "poker.contributions.Ann: 7 is neither the 10",
        ),
        (
            |v| v["michigan"]["cards_left"]["Ann"] = json!(3),
            "michigan.cards_left.Ann: 3, but \"Ann\" went out",
        ),
        (|v| v["table"] = json!(1), "table: unknown field `table`"),
        (
            |v| v["chips"]["Dee"] = json!(-30),
            "chips.Dee: -30 is not a number of chips",
        ),
        (
            |v| v["players"] = json!(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]),
            "players: 10 players; Tripoley is played by 2 to 9",
        ),
        (
            |v| v["michigan"] = json!({"blocked": true, "out": "Ann", "cards_left": {}}),
            "michigan.blocked: true, but michigan.out names a winner",
        ),
        (
            |v| v["spare"]["auction"]["buyer"] = json!("Dee"),
            "spare.auction.buyer: \"Dee\" is the dealer, who sells the spare",
        ),
    ];
    for (change, needle) in cases {
        post_bad(&app, ROUND_PATH, round_with(change), needle).await;
    }
    post_bad(
        &app,
        FINAL_PATH,
        json!({"players": ["Ann", "Bo"], "dealer": "Ann", "chips": {"Ann": 1, "Bo": 1}, "hands": {"Ann": "As Ks Qs Js Ts", "Bo": "As 2d 3d 4d 5d"}}),
        "hands.Bo: As is dealt twice (also in hands.Ann)",
    )
    .await;
    let (status, body) = app.post_raw(ROUND_PATH, "not json").await;
    assert_eq!(status, 422);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .starts_with("body: expected"),
        "{body}"
    );
    let (status, body) = app
        .post_raw(
            ROUND_PATH,
            &" ".repeat(pitbook::domain::tripoley::INPUT_BYTES_MAX * 2),
        )
        .await;
    assert_eq!(status, 422);
    assert!(
        body["message"]
            .as_str()
            .unwrap()
            .contains("more than the limit of 65536"),
        "{body}"
    );
}

on_both_databases!(
    round_is_the_clis_bytes,
    final_is_the_clis_bytes,
    bad_rounds_are_422_naming_the_field
);
