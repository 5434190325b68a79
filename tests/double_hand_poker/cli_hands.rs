//! The real binary: `pitbook hand eval | house-way | settings | census` and
//! `pitbook dice`, human output and `--json`, and every kind of bad input
//! (exit 2, one line on stderr naming the value, nothing on stdout).

use pitbook::domain::double_hand_poker::options::{JokerRule, OptionOverrides, Profile};
use pitbook::domain::double_hand_poker::tools::{self, CardsRequest, DiceRequest};
use serde_json::Value;

use crate::common::cli::{bad, ok, pitbook};

fn json(args: &[&str]) -> Value {
    serde_json::from_str(&ok(args)).expect("JSON on stdout")
}

fn rank(args: &[&str]) -> u64 {
    json(args)["rank"].as_u64().expect("rank")
}

#[test]
fn eval_names_a_five_card_hand_and_its_rank() {
    let expected = tools::eval(&CardsRequest::new("Kh Kd Ks 4c 4d")).unwrap();
    assert_eq!(
        ok(&["hand", "eval", "Kh", "Kd", "Ks", "4c", "4d"]),
        format!(
            "Kh Kd Ks 4c 4d — Full house, kings over fours (rank {})\n",
            expected.hand.rank.value()
        )
    );
}

#[test]
fn eval_takes_one_quoted_string_and_every_card_form() {
    for args in [
        vec!["hand", "eval", "As Ks Qs Js Ts"],
        vec!["hand", "eval", "as,ks,qs,js,10s"],
        vec!["hand", "eval", "A♠", "K♠", "Q♠", "J♠", "10♠"],
    ] {
        let out = ok(&args);
        assert!(
            out.starts_with("As Ks Qs Js Ts — Royal flush (rank "),
            "{args:?}: {out}"
        );
    }
}

#[test]
fn eval_names_a_two_card_hand() {
    let out = ok(&["hand", "eval", "JK", "As"]);
    assert!(out.starts_with("JK As — Pair of aces (rank "), "{out}");
    let out = ok(&["hand", "eval", "Ad Kc"]);
    assert!(out.starts_with("Ad Kc — Ace high (rank "), "{out}");
}

#[test]
fn eval_json_is_the_apis_json() {
    let stdout = ok(&["hand", "eval", "Kh Kd Ks 4c 4d", "--json"]);
    let expected = tools::eval(&CardsRequest::new("Kh Kd Ks 4c 4d")).unwrap();
    assert_eq!(stdout, serde_json::to_string(&expected).unwrap() + "\n");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["name"], "Full house, kings over fours");
    assert_eq!(v["category"], "full_house");
    assert_eq!(
        v["rules"],
        serde_json::json!({"profile": "lucky-chances", "joker": "bug", "wheel": "lowest"})
    );
}

#[test]
fn joker_and_wheel_options_and_profiles_change_the_value() {
    let bug = json(&["hand", "eval", "JK Kh Kd Ks Kc", "--json"]);
    assert_eq!(bug["name"], "Four of a kind, kings");
    let wild = json(&[
        "hand",
        "eval",
        "JK Kh Kd Ks Kc",
        "--joker",
        "wild",
        "--json",
    ]);
    assert_eq!(wild["name"], "Five kings");
    assert_eq!(wild["rules"]["joker"], "wild");

    let wheel = ["hand", "eval", "As 2s 3d 4c 5h", "--json"];
    let king_high = ["hand", "eval", "9s Td Jc Qh Kd", "--json"];
    assert!(
        rank(&wheel) < rank(&king_high),
        "lucky-chances: the wheel is lowest"
    );
    let nevada = |a: &[&str]| rank(&[a, &["--profile", "nevada"]].concat());
    assert!(
        nevada(&wheel) > nevada(&king_high),
        "nevada: second highest"
    );
    let over = |a: &[&str]| rank(&[a, &["--wheel", "second_highest"]].concat());
    assert!(over(&wheel) > over(&king_high));
    let back = |a: &[&str]| rank(&[a, &["--profile", "nevada", "--wheel", "lowest"]].concat());
    assert!(
        back(&wheel) < back(&king_high),
        "an option overrides the profile"
    );
    let v = json(&[&wheel[..], &["--profile", "nevada"]].concat());
    assert_eq!(v["rules"]["profile"], "nevada");
    assert_eq!(v["rules"]["wheel"], "second_highest");
}

#[test]
fn house_way_sets_high_and_low_and_names_the_rule() {
    assert_eq!(
        ok(&["hand", "house-way", "As Ks Qd Jc 9h 8s 8d"]),
        "Qd Jc 9h 8d 8s | As Ks — One pair: pair behind, two highest cards in front\n\
         high: Pair of eights; low: Ace high\n"
    );
    let out = ok(&[
        "hand",
        "house-way",
        "Ah",
        "Ad",
        "Kc",
        "Ks",
        "7h",
        "6d",
        "2c",
    ]);
    assert_eq!(
        out,
        "Ad Ah 7h 6d 2c | Kc Ks — Two pair: split, lower pair in front\n\
         high: Pair of aces; low: Pair of kings\n"
    );
}

#[test]
fn house_way_json_is_the_apis_json() {
    let cards = "JK 9h 8h 7h 6c 2d 2s";
    let stdout = ok(&["hand", "house-way", cards, "--json"]);
    let expected = tools::house_way(&CardsRequest::new(cards)).unwrap();
    assert_eq!(stdout, serde_json::to_string(&expected).unwrap() + "\n");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["cards"].as_array().unwrap().len(), 7);
    assert_eq!(v["high"]["cards"].as_array().unwrap().len(), 5);
    assert_eq!(v["low"]["cards"].as_array().unwrap().len(), 2);
    assert_eq!(v["house_way"]["name"], "reference");
    assert!(
        v["high"]["rank"].as_u64() > v["low"]["rank"].as_u64(),
        "never fouled"
    );
}

#[test]
fn settings_lists_21_with_fouls_and_the_house_way_choice() {
    let out = ok(&["hand", "settings", "As Ks Qd Jc 9h 8s 8d"]);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 23, "{out}");
    assert_eq!(lines[0], "As Ks Qd Jc 9h 8s 8d — 21 settings, 3 fouled");
    assert_eq!(
        lines[1],
        " 1. Qd Jc 9h 8d 8s | As Ks   Pair of eights | Ace high        house way"
    );
    assert_eq!(
        lines[21],
        "21. As Ks Qd Jc 9h | 8d 8s   Ace high       | Pair of eights  FOUL"
    );
    assert_eq!(lines.iter().filter(|l| l.ends_with("FOUL")).count(), 3);
    assert_eq!(
        lines[22],
        "House way (reference): setting 1 — One pair: pair behind, two highest cards in front"
    );
}

#[test]
fn settings_json_is_the_apis_json() {
    let cards = "As Ks Qd Jc 9h 8s 8d";
    let stdout = ok(&["hand", "settings", cards, "--profile", "nevada", "--json"]);
    let mut req = CardsRequest::new(cards);
    req.profile = Some(Profile::Nevada);
    let expected = tools::settings(&req).unwrap();
    assert_eq!(stdout, serde_json::to_string(&expected).unwrap() + "\n");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    let settings = v["settings"].as_array().unwrap();
    assert_eq!(settings.len(), 21);
    assert_eq!(v["fouled_count"], 3);
    let fouled: Vec<u64> = settings
        .iter()
        .filter(|s| s["fouled"] == true)
        .map(|s| s["number"].as_u64().unwrap())
        .collect();
    assert_eq!(fouled, [5, 6, 21]);
    assert_eq!(v["house_way"]["setting"], 1);
}

#[test]
fn dice_name_the_action_seat() {
    let out = ok(&["dice", "4", "5", "3", "--pd-seat", "1"]);
    assert_eq!(
        out,
        "ACTION: seat 5\nDice 4 + 5 + 3 = 12: counting clockwise from the PD at seat 1 \
         (the PD counts as 1, 8 and 15), 12 lands on position 5: seat 5.\n"
    );
    // 15 counts back to the PD; wrapping past the last seat.
    assert!(ok(&["dice", "5 5 5", "--pd-seat", "3"]).starts_with("ACTION: seat 3\n"));
    assert!(ok(&["dice", "1,1,2", "--pd-seat", "6"]).starts_with("ACTION: seat 2\n"));
    assert!(
        ok(&["dice", "4", "5", "3", "--pd-seat", "2", "--seats", "3"])
            .starts_with("ACTION: seat 3\n")
    );
}

#[test]
fn dice_json_is_the_apis_json() {
    let stdout = ok(&[
        "dice",
        "6",
        "6",
        "6",
        "--pd-seat",
        "7",
        "--seats",
        "9",
        "--json",
    ]);
    let expected = tools::dice(&DiceRequest {
        dice: vec![6, 6, 6],
        pd_seat: 7,
        seats: Some(9),
    })
    .unwrap();
    assert_eq!(stdout, serde_json::to_string(&expected).unwrap() + "\n");
    let v: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(v["total"], 18);
    assert_eq!(v["position"], 4);
    assert_eq!(v["action_seat"], 1, "7, 8, 9, 1");
}

#[test]
fn bad_input_exits_2_with_one_line_naming_the_value() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["hand", "eval", "As", "Xx", "Qs"],
            "cards: unknown card \"Xx\"",
        ),
        (&["hand", "eval", "As Ks 1s Js Ts"], "\"1s\""),
        (
            &["hand", "eval", "As Ks Qs Js as"],
            "card \"As\" appears twice",
        ),
        (&["hand", "eval", "JK Joker"], "card \"JK\" appears twice"),
        (
            &["hand", "eval", "As Ks Qs"],
            "expected 5 or 2 cards, got 3",
        ),
        (&["hand", "eval"], "expected 5 or 2 cards, got 0"),
        (&["hand", "eval", "As Ks Qs Js Ts 9s"], "got 6"),
        (
            &["hand", "house-way", "As Ks Qd Jc 9h 8s"],
            "expected 7 cards, got 6",
        ),
        (
            &["hand", "settings", "As Ks Qd Jc 9h 8s 8d 7c"],
            "expected 7 cards, got 8",
        ),
        (
            &["hand", "house-way", "As Ks Qd Jc 9h 8s 8s"],
            "card \"8s\" appears twice",
        ),
        (&["hand", "eval", "JK As", "--joker", "none"], "\"JK\""),
        (
            &[
                "hand",
                "house-way",
                "JK Ks Qd Jc 9h 8s 8d",
                "--joker",
                "none",
            ],
            "joker rule is \"none\"",
        ),
        (
            &[
                "hand",
                "settings",
                "JK Ks Qd Jc 9h 8s 8d",
                "--joker",
                "none",
            ],
            "\"JK\"",
        ),
        (&["hand", "eval", "As Ks", "--profile", "vegas"], "'vegas'"),
        (
            &["hand", "ev", "As Ks Qs 9c 9s 4d As"],
            "card \"As\" appears twice",
        ),
        (
            &["hand", "ev", "As Ks Qs 9c 9s 4d"],
            "expected 7 cards, got 6",
        ),
        (
            &[
                "hand",
                "ev",
                "As Ks Qs 9c 9s 4d 2c",
                "--house-way",
                "bellagio",
            ],
            "'bellagio'",
        ),
        (
            &["hand", "ev", "As Ks Qs 9c 9s 4d 2c", "--side", "dealer"],
            "'dealer'",
        ),
        (&["hand", "eval", "As Ks", "--joker", "maybe"], "'maybe'"),
        (
            &["hand", "eval", "As Ks", "--wheel", "highest"],
            "'highest'",
        ),
        (
            &["dice", "4", "7", "3", "--pd-seat", "1"],
            "die 2: 7 is not a die value (1..6)",
        ),
        (
            &["dice", "0", "5", "3", "--pd-seat", "1"],
            "die 1: 0 is not a die value",
        ),
        (
            &["dice", "4", "5", "-1", "--pd-seat", "1"],
            "die 3: -1 is not a die value",
        ),
        (
            &["dice", "4", "x", "3", "--pd-seat", "1"],
            "die 2: \"x\" is not a die value",
        ),
        (
            &["dice", "4", "5", "--pd-seat", "1"],
            "dice: expected 3 dice, got 2",
        ),
        (&["dice", "4 5 3 2", "--pd-seat", "1"], "got 4"),
        (
            &["dice", "4", "5", "3", "--pd-seat", "8"],
            "--pd-seat: 8 is not a seat at a 7-seat table (1..7)",
        ),
        (
            &["dice", "4", "5", "3", "--pd-seat", "0"],
            "--pd-seat: 0 is not a seat",
        ),
        (
            &["dice", "4", "5", "3", "--pd-seat", "-2"],
            "--pd-seat: -2 is not a seat",
        ),
        (
            &["dice", "4", "5", "3", "--pd-seat", "5", "--seats", "4"],
            "5 is not a seat at a 4-seat table",
        ),
        (
            &["dice", "4", "5", "3", "--pd-seat", "1", "--seats", "11"],
            "--seats: 11 is not a table size (2..10)",
        ),
        (&["dice", "4", "5", "3", "--pd-seat", "x"], "'x'"),
        (&["dice", "4", "5", "3"], "--pd-seat"),
    ];
    for (args, needle) in cases {
        for json in [false, true] {
            let mut all = args.to_vec();
            if json {
                all.push("--json");
            }
            let (code, stdout, stderr) = pitbook(&all);
            assert_eq!(code, 2, "{all:?}: {stderr}");
            assert_eq!(stdout, "", "{all:?}: nothing on stdout");
            assert_eq!(stderr.lines().count(), 1, "{all:?}: one line: {stderr}");
            assert!(stderr.starts_with("error: "), "{all:?}: {stderr}");
            assert!(
                stderr.contains(needle),
                "{all:?}: {stderr:?} lacks {needle:?}"
            );
        }
    }
}

#[test]
fn the_joker_is_fine_when_the_profile_has_one() {
    let mut req = CardsRequest::new("JK As");
    req.options = Some(OptionOverrides {
        joker: Some(JokerRule::Wild),
        ..OptionOverrides::default()
    });
    let wild = tools::eval(&req).unwrap();
    let v = json(&["hand", "eval", "JK As", "--joker", "wild", "--json"]);
    assert_eq!(v["name"], wild.hand.name);
    assert_eq!(v["name"], "Pair of aces");
}

/// `house-way check` and `diff` refuse a way that is neither a shipped name
/// nor a file that parses: exit 2, the line and what was expected, nothing
/// on stdout (the census itself is tested in the core, docs/house-ways.md).
#[test]
fn house_way_check_refuses_a_file_that_does_not_parse_naming_its_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.txt");
    std::fs::write(&bad, "house-way 1\nname mine\nwhen no pair, pair Z\n").unwrap();
    let bad = bad.to_str().unwrap();
    for args in [
        vec!["house-way", "check", bad],
        vec!["house-way", "diff", "reference", bad],
    ] {
        let (code, out, err) = pitbook(&args);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains("line 3: expected a condition"), "{err}");
        assert!(err.contains("(found \"pair Z\")"), "{err}");
    }
    let (code, _, err) = pitbook(&["house-way", "check", "no-such-way"]);
    assert_eq!(code, 2);
    assert!(
        err.contains(
            "not a shipped house way (reference, foxwoods, atlantic-city, gold-star, mgm)"
        ),
        "{err}"
    );
}

/// `--house-way` sets by another house way: four jacks with an ace are
/// kept together by the reference and always split at Foxwoods.
#[test]
fn house_way_follows_the_house_way_named() {
    let hand = "Js Jh Jd Jc Ad 5c 2h";
    let reference = ok(&["hand", "house-way", hand]);
    assert!(
        reference.contains("| Ad 5c — Four of a kind (7s to jacks) with an ace: kept together"),
        "{reference}"
    );
    let fox = ok(&["hand", "house-way", hand, "--house-way", "foxwoods"]);
    assert!(
        fox.contains("| Jh Js — Four of a kind (jacks to aces): always split"),
        "{fox}"
    );
    let json = json(&[
        "hand",
        "house-way",
        hand,
        "--house-way",
        "foxwoods",
        "--json",
    ]);
    assert_eq!(json["house_way"]["name"], "foxwoods");
    let (code, _, err) = pitbook(&["hand", "house-way", hand, "--house-way", "nowhere"]);
    assert_eq!(code, 2, "{err}");

    // A room's own file, by its path: checked as loading checks it.
    let dir = tempfile::tempdir().unwrap();
    let mine = dir.path().join("my-room.txt");
    let text = pitbook::domain::double_hand_poker::house_way::SHIPPED[1]
        .1
        .replace("name foxwoods", "name my-room");
    std::fs::write(&mine, &text).unwrap();
    let path = mine.to_str().unwrap();
    let set = self::json(&["hand", "house-way", hand, "--house-way", path, "--json"]);
    assert_eq!(set["house_way"]["name"], "my-room");
    assert_eq!(
        set["house_way"]["rule"],
        "Four of a kind (jacks to aces): always split"
    );
    std::fs::write(
        &mine,
        text.replace("play front pair K", "play front pair of kings"),
    )
    .unwrap();
    let (code, out, err) = pitbook(&["hand", "house-way", hand, "--house-way", path]);
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("my-room.txt: line 8: "), "{err}");
}

/// The census without the joker gives the published counts of the best five
/// of seven (133,784,560 hands); the text names the deck and every
/// category. (A few seconds of a debug build.)
#[test]
fn census_counts_every_seven_card_hand_by_its_best_five() {
    let r = json(&["hand", "census", "--joker", "none", "--json"]);
    assert_eq!(r["hands"], 133_784_560u64);
    let count = |category: &str| {
        let rows = r["categories"].as_array().unwrap();
        let row = rows.iter().find(|row| row["category"] == category).unwrap();
        row["hands"].as_u64().unwrap()
    };
    assert_eq!(count("straight_flush"), 41_584);
    assert_eq!(count("full_house"), 3_473_184);
    assert_eq!(count("pair"), 58_627_800);
    assert_eq!(count("high_card"), 23_294_460);
    assert_eq!(count("five_of_a_kind"), 0);

    bad(&["hand", "census", "--joker", "both"], "both");
}
