//! The dice games over HTTP, on both databases: `/api/v1/poker-dice/{rank,
//! compare,round}` and `/api/v1/ten-thousand/{score,game}` — 200 with the
//! same JSON as the CLI's `--json`, 422 with a JSON error naming the value.

use crate::common::cli::cli_json;
use crate::common::{Backend, post_bad, post_ok, spawn_app};
use serde_json::{Value, json};

const GAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/dice_games/game.json");
const ROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/dice_games/round.json");

fn file_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

async fn poker_dice_matches_the_cli(backend: Backend) {
    let app = spawn_app(backend).await;
    let rank = post_ok(
        &app,
        "/api/v1/poker-dice/rank",
        json!({"faces": "A A A K K"}),
    )
    .await;
    assert_eq!(rank, cli_json(&["poker-dice", "rank", "A A A K K"]));
    assert_eq!(rank["name_en"], "Full house, aces over kings");
    let classic = post_ok(
        &app,
        "/api/v1/poker-dice/rank",
        json!({"faces": ["10", "t", "T", "9", "9"], "profile": "classic"}),
    )
    .await;
    assert_eq!(classic["name_es"], "Full de dieces y nueves");

    let compare = post_ok(
        &app,
        "/api/v1/poker-dice/compare",
        json!({"hands": ["A A A K K", "Q Q Q J N"]}),
    )
    .await;
    assert_eq!(
        compare,
        cli_json(&["poker-dice", "compare", "A A A K K", "Q Q Q J N"])
    );
    assert_eq!(
        compare["reason"],
        "Full de ases y reyes beats tercia de reinas"
    );
    let tie = post_ok(
        &app,
        "/api/v1/poker-dice/compare",
        json!({"hands": ["A K Q J R", "R J Q K A"], "straights": "ranked"}),
    )
    .await;
    assert_eq!(tie["outcome"], "tie");
    assert_eq!(tie["winners"], json!([0, 1]));

    let round = post_ok(&app, "/api/v1/poker-dice/round", file_json(ROUND)).await;
    assert_eq!(round, cli_json(&["poker-dice", "round", ROUND]));
    assert_eq!(round["winner_names"], json!(["Ben"]));
}

async fn ten_thousand_matches_the_cli(backend: Backend) {
    let app = spawn_app(backend).await;
    let score = post_ok(
        &app,
        "/api/v1/ten-thousand/score",
        json!({"dice": [4, 4, 4, 4, 5, 6]}),
    )
    .await;
    assert_eq!(score, cli_json(&["ten-thousand", "score", "4 4 4 4 5 6"]));
    assert_eq!(
        score,
        json!({"keeps": [
            {"dice": [5], "points": 50},
            {"dice": [4, 4, 4], "points": 400},
            {"dice": [4, 4, 4, 5], "points": 450},
            {"dice": [4, 4, 4, 4], "points": 800},
            {"dice": [4, 4, 4, 4, 5], "points": 850}
        ], "max": 850, "bust": false})
    );
    let game = post_ok(&app, "/api/v1/ten-thousand/game", file_json(GAME)).await;
    assert_eq!(game, cli_json(&["ten-thousand", "game", GAME]));
    assert_eq!(game["totals"][0]["score"], 2650);
}

async fn bad_input_is_422_naming_the_value(backend: Backend) {
    let app = spawn_app(backend).await;
    post_bad(
        &app,
        "/api/v1/poker-dice/rank",
        json!({"faces": "A A K K X"}),
        "faces: \"X\" is not a face of the caribena profile",
    )
    .await;
    post_bad(
        &app,
        "/api/v1/poker-dice/rank",
        json!({"faces": "A A K K"}),
        "faces: a hand is 5 dice, got 4",
    )
    .await;
    post_bad(
        &app,
        "/api/v1/poker-dice/rank",
        json!({"faces": "A A K K Q", "joker": true}),
        "unknown field `joker`",
    )
    .await;
    post_bad(
        &app,
        "/api/v1/poker-dice/rank",
        json!({"faces": "A A K K Q", "profile": "nevada"}),
        "profile",
    )
    .await;
    post_bad(
        &app,
        "/api/v1/poker-dice/compare",
        json!({"hands": ["A A K K Q"]}),
        "hands: 1 hands",
    )
    .await;
    let mut round = file_json(ROUND);
    round["players"][1]["throws"][1]["held"] = json!("A A K Q");
    post_bad(
        &app,
        "/api/v1/poker-dice/round",
        round,
        "players[1].throws[1].held: held \"Q\" is not in the previous throw",
    )
    .await;
    let mut round = file_json(ROUND);
    round["players"][0]["throws"]
        .as_array_mut()
        .unwrap()
        .push(json!({"held": "Q Q Q", "rolled": "A A"}));
    post_bad(
        &app,
        "/api/v1/poker-dice/round",
        round,
        "throw 4 is one too many",
    )
    .await;

    post_bad(
        &app,
        "/api/v1/ten-thousand/score",
        json!({"dice": [1, 2, 9]}),
        "dice[2]: 9 is not a die",
    )
    .await;
    post_bad(
        &app,
        "/api/v1/ten-thousand/score",
        json!({"dice": [1, 2, 3, 4, 5, 6], "options": {"dice": 5}}),
        "dice: 6 dice; a throw is 1 to 5 dice",
    )
    .await;
    post_bad(
        &app,
        "/api/v1/ten-thousand/score",
        json!({"dice": "1 2 3"}),
        "dice: invalid type",
    )
    .await;
    let mut game = file_json(GAME);
    game["turns"][0]["throws"][1]["keep"] = json!([5, 6]);
    post_bad(
        &app,
        "/api/v1/ten-thousand/game",
        game,
        "turns[0].throws[1].keep: the keep 5,6: 6 does not score",
    )
    .await;
    let mut game = file_json(GAME);
    game["turns"][0]["throws"] = json!([{"dice": [4, 4, 4, 4, 6, 6], "keep": [4, 4, 4, 4]}]);
    post_bad(
        &app,
        "/api/v1/ten-thousand/game",
        game,
        "below the opening 1,000",
    )
    .await;
    let mut game = file_json(GAME);
    game["turns"][1]["player"] = json!("Ana");
    post_bad(
        &app,
        "/api/v1/ten-thousand/game",
        game,
        "turns[1].player: \"Ana\" is not the player in turn: Ben throws now",
    )
    .await;
}

on_both_databases!(
    poker_dice_matches_the_cli,
    ten_thousand_matches_the_cli,
    bad_input_is_422_naming_the_value,
);
