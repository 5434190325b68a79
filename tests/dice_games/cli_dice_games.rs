//! The real binary: `pitbook poker-dice rank | compare | round` and
//! `pitbook ten-thousand score | game`, human output and `--json` (the
//! domain's response, byte for byte the API's), and every kind of bad input
//! (exit 2, one line on stderr naming the value, nothing on stdout).

use std::io::Write;

use pitbook::domain::poker_dice::{self, CompareRequest, FacesText, RankRequest};
use pitbook::domain::ten_thousand::{self, GameRequest, ScoreRequest};
use serde_json::{Value, json};

use crate::common::cli::{bad, ok, pitbook};
const GAME: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/dice_games/game.json");
const ROUND: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/dice_games/round.json");

fn json_out(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("JSON on stdout")
}

fn temp_json(value: &Value) -> tempfile::NamedTempFile {
    let mut f = tempfile::NamedTempFile::new().expect("temp file");
    f.write_all(value.to_string().as_bytes()).expect("write");
    f
}

fn file_json(path: &str) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("read")).expect("json")
}

#[test]
fn rank_names_a_hand_in_spanish_and_english() {
    assert_eq!(
        ok(&["poker-dice", "rank", "K", "A", "K", "A", "A"]),
        "A A A K K — Full de ases y reyes (Full house, aces over kings)\n"
    );
    assert_eq!(
        ok(&["poker-dice", "rank", "q q q j n"]),
        "Q Q Q J N — Tercia de reinas (Three queens)\n"
    );
    assert_eq!(
        ok(&["poker-dice", "rank", "10 10 10 9 9", "--profile", "classic"]),
        "10 10 10 9 9 — Full de dieces y nueves (Full house, tens over nines)\n"
    );
    assert_eq!(
        ok(&["poker-dice", "rank", "A K Q J R", "--straights", "ranked"]),
        "A K Q J R — Escalera al as (Straight, ace high)\n"
    );
}

#[test]
fn rank_json_is_the_domains_response() {
    let body = json_out(&["poker-dice", "rank", "A A A K K", "--json"]);
    let expected = poker_dice::rank(&RankRequest {
        faces: FacesText::new("A A A K K"),
        ..RankRequest::default()
    })
    .unwrap();
    assert_eq!(body, serde_json::to_value(&expected).unwrap());
    assert_eq!(body["combination"], "full");
    assert_eq!(body["name_es"], "Full de ases y reyes");
}

#[test]
fn compare_names_the_winner_or_the_tie() {
    assert_eq!(
        ok(&["poker-dice", "compare", "Q Q Q J N", "A A A K K"]),
        "1. Q Q Q J N — Tercia de reinas\n2. A A A K K — Full de ases y reyes\n\
         Hand 2 wins: Full de ases y reyes beats tercia de reinas\n"
    );
    let tie = ok(&["poker-dice", "compare", "A A K K Q", "K Q A K A"]);
    assert!(
        tie.ends_with(
            "Hands 1, 2 tie: dos pares de ases y reyes each, equal in every compared die\n"
        ),
        "{tie}"
    );
    let body = json_out(&["poker-dice", "compare", "Q Q Q J N", "A A A K K", "--json"]);
    let expected = poker_dice::compare(&CompareRequest {
        hands: vec![FacesText::new("Q Q Q J N"), FacesText::new("A A A K K")],
        ..CompareRequest::default()
    })
    .unwrap();
    assert_eq!(body, serde_json::to_value(&expected).unwrap());
    assert_eq!(body["outcome"], "winner");
    assert_eq!(body["winners"], json!([1]));
}

#[test]
fn round_file_names_the_winner() {
    assert_eq!(
        ok(&["poker-dice", "round", ROUND]),
        "Ana: A K Q Q N | Q Q Q J R | Q Q Q J N — Tercia de reinas\n\
         Ben: A A R K K | A A K K A — Full de ases y reyes\n\
         Cruz: N N R R J — Dos pares de rojas y negras\n\
         Ben wins: Full de ases y reyes beats tercia de reinas\n"
    );
    let body = json_out(&["poker-dice", "round", ROUND, "--json"]);
    assert_eq!(body["winner_names"], json!(["Ben"]));
}

#[test]
fn score_lists_every_keep() {
    let cases: [(&str, Vec<u64>); 4] = [
        ("1 1 2 3 5 6", vec![50, 100, 150, 200, 250]),
        ("2,2,2,3,5,6", vec![50, 200, 250]),
        ("444456", vec![50, 400, 450, 800, 850]),
        ("1 1 3 3 3 5", (1..=11).map(|i| i * 50).collect()),
    ];
    for (dice, points) in cases {
        let body = json_out(&["ten-thousand", "score", dice, "--json"]);
        let got: Vec<u64> = body["keeps"]
            .as_array()
            .unwrap()
            .iter()
            .map(|k| k["points"].as_u64().unwrap())
            .collect();
        assert_eq!(got, points, "{dice}");
        assert_eq!(body["max"], json!(points.last().unwrap()));
        assert_eq!(body["bust"], json!(false));
        assert_eq!(body.as_object().unwrap().len(), 3);
    }
    let body = json_out(&[
        "ten-thousand",
        "score",
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
        "--json",
    ]);
    assert_eq!(body["max"], 1100);
    let expected = ten_thousand::score(&ScoreRequest {
        dice: vec![1, 2, 3, 4, 5, 6],
        ..ScoreRequest::default()
    })
    .unwrap();
    assert_eq!(body, serde_json::to_value(&expected).unwrap());
    assert_eq!(
        json_out(&["ten-thousand", "score", "2 3 4 4 6 6", "--json"]),
        json!({"keeps": [], "max": 0, "bust": true})
    );
    assert_eq!(
        ok(&["ten-thousand", "score", "2 2 2 3 5 6"]),
        "    50  5\n   200  2,2,2\n   250  2,2,2,5\nmax 250\n"
    );
    assert_eq!(
        ok(&["ten-thousand", "score", "2 3 4 4 6 6"]),
        "bust: no die scores\n"
    );
    assert_eq!(
        json_out(&[
            "ten-thousand",
            "score",
            "1 2 3 4 5",
            "--dice",
            "5",
            "--json"
        ])["max"],
        1000
    );
}

#[test]
fn game_file_is_scored_to_a_score_sheet() {
    let text = ok(&["ten-thousand", "game", GAME]);
    assert!(text.contains("records 1,600"), "{text}");
    assert!(text.contains("busts, loses 800"), "{text}");
    assert!(
        text.ends_with("not over: no one has reached 10,000 yet (Ana leads with 2,650)\n"),
        "{text}"
    );
    let body = json_out(&["ten-thousand", "game", GAME, "--json"]);
    let req: GameRequest = serde_json::from_value(file_json(GAME)).unwrap();
    assert_eq!(
        body,
        serde_json::to_value(ten_thousand::game(&req).unwrap()).unwrap()
    );
    assert_eq!(
        body["totals"],
        json!([{"player": "Ana", "score": 2650}, {"player": "Ben", "score": 0}])
    );
    assert_eq!(body["turns"][2]["throws"][2]["straight_across"], true);
}

#[test]
fn game_file_to_the_end() {
    let six_ones = json!({"dice": [1, 1, 1, 1, 1, 1], "keep": [1, 1, 1, 1, 1, 1]});
    let bust = json!({"dice": [2, 3, 4, 4, 6, 6]});
    let f = temp_json(&json!({
        "players": ["Ana", "Ben"],
        "turns": [
            {"player": "Ana", "throws": [six_ones]},
            {"player": "Ben", "throws": [bust]},
            {"player": "Ana", "throws": [six_ones]},
            {"player": "Ben", "throws": [bust]}
        ]
    }));
    let body = json_out(&["ten-thousand", "game", f.path().to_str().unwrap(), "--json"]);
    assert_eq!(body["finished"], true);
    assert_eq!(body["winner"], "Ana");
}

#[test]
fn bad_input_exits_2_naming_the_value() {
    bad(
        &["poker-dice", "rank", "A A K K X"],
        "\"X\" is not a face of the caribena profile",
    );
    bad(
        &["poker-dice", "rank", "A A K K R", "--profile", "classic"],
        "\"R\" is not a face of the classic profile (A K Q J 10 9)",
    );
    bad(
        &["poker-dice", "rank", "A A K K"],
        "a hand is 5 dice, got 4",
    );
    bad(&["poker-dice", "rank", "A A K K Q Q"], "got 6");
    bad(
        &["poker-dice", "compare", "A A K K Q"],
        "1 hands; compare 2 to 8",
    );
    bad(
        &["poker-dice", "compare", "A A K K Q", "A A K"],
        "hands[1]: a hand is 5 dice",
    );
    bad(
        &["ten-thousand", "score", "1 2 7"],
        "dice[2]: 7 is not a die (1 to 6)",
    );
    bad(
        &["ten-thousand", "score", "1 2 3 4 5 6 1"],
        "7 dice; a throw is 1 to 6 dice",
    );
    bad(&["ten-thousand", "score", "1", "x"], "\"x\" is not a die");
    bad(
        &["ten-thousand", "score", "1", "--dice", "4"],
        "--dice: 4 dice",
    );
    bad(&["ten-thousand", "score"], "0 dice");

    // A round: holding dice not in the throw, a fourth throw.
    let mut round = file_json(ROUND);
    round["players"][1]["throws"][1]["held"] = json!("A A K Q");
    let f = temp_json(&round);
    bad(
        &["poker-dice", "round", f.path().to_str().unwrap()],
        "players[1].throws[1].held: held \"Q\" is not in the previous throw (A A R K K)",
    );
    let mut round = file_json(ROUND);
    round["players"][0]["throws"]
        .as_array_mut()
        .unwrap()
        .push(json!({"held": "Q Q Q", "rolled": "A A"}));
    let f = temp_json(&round);
    bad(
        &["poker-dice", "round", f.path().to_str().unwrap()],
        "players[0].throws[3]: Ana's throw 4 is one too many",
    );

    // A game: below the threshold, a non-scoring keep, a turn after the end,
    // an unknown field.
    let mut game = file_json(GAME);
    game["turns"][0]["throws"] = json!([{"dice": [4, 4, 4, 4, 6, 6], "keep": [4, 4, 4, 4]}]);
    let f = temp_json(&game);
    bad(
        &["ten-thousand", "game", f.path().to_str().unwrap()],
        "turns[0].throws[0]: stops to record 800, below the opening 1,000",
    );
    let mut game = file_json(GAME);
    game["turns"][0]["throws"][1]["keep"] = json!([5, 6]);
    let f = temp_json(&game);
    bad(
        &["ten-thousand", "game", f.path().to_str().unwrap()],
        "turns[0].throws[1].keep: the keep 5,6: 6 does not score",
    );
    let six_ones = json!({"dice": [1, 1, 1, 1, 1, 1], "keep": [1, 1, 1, 1, 1, 1]});
    let bust = json!({"dice": [2, 3, 4, 4, 6, 6]});
    let f = temp_json(&json!({
        "players": ["Ana", "Ben"],
        "turns": [
            {"player": "Ana", "throws": [six_ones]},
            {"player": "Ben", "throws": [bust]},
            {"player": "Ana", "throws": [six_ones]},
            {"player": "Ben", "throws": [bust]},
            {"player": "Ana", "throws": [bust]}
        ]
    }));
    bad(
        &["ten-thousand", "game", f.path().to_str().unwrap()],
        "turns[4]: a turn after the game ended: Ana won with 16,000",
    );
    let mut game = file_json(GAME);
    game["extra"] = json!(1);
    let f = temp_json(&game);
    bad(
        &["ten-thousand", "game", f.path().to_str().unwrap()],
        "unknown field `extra`",
    );
}

#[test]
fn an_unreadable_file_is_a_failure() {
    let (code, stdout, stderr) = pitbook(&["ten-thousand", "game", "/nonexistent/game.json"]);
    assert_eq!(code, 1);
    assert_eq!(stdout, "");
    assert!(
        stderr.contains("cannot read /nonexistent/game.json"),
        "{stderr}"
    );
}
