//! Tests of `tools`.

use super::*;

fn req(cards: &str) -> CardsRequest {
    CardsRequest::new(cards)
}

#[test]
fn eval_names_and_ranks() {
    let r = eval(&req("Kh Kd Ks 4c 4d")).unwrap();
    assert_eq!(r.hand.name, "Full house, kings over fours");
    assert_eq!(r.hand.category, Category::FullHouse);
    let two = eval(&req("JK As")).unwrap();
    assert_eq!(two.hand.name, "Pair of aces");
    assert!(r.hand.rank > two.hand.rank);
}

#[test]
fn cards_text_accepts_a_string_or_an_array() {
    let a: CardsRequest = serde_json::from_str(r#"{"cards": "As Ks"}"#).unwrap();
    let b: CardsRequest = serde_json::from_str(r#"{"cards": ["As", "Ks"]}"#).unwrap();
    assert_eq!(eval(&a).unwrap(), eval(&b).unwrap());
    assert!(serde_json::from_str::<CardsRequest>(r#"{"cards": 5}"#).is_err());
    assert!(serde_json::from_str::<CardsRequest>(r#"{"cards": [5]}"#).is_err());
}

#[test]
fn settings_mark_fouls_and_the_house_way_choice() {
    let r = settings(&req("As Ks Qd Jc 9h 8s 8d")).unwrap();
    assert_eq!(r.settings.len(), 21);
    assert_eq!(
        r.fouled_count,
        r.settings.iter().filter(|s| s.fouled).count()
    );
    let n = r.house_way.setting.expect("house way is one of the 21");
    let hw = house_way(&req("As Ks Qd Jc 9h 8s 8d")).unwrap();
    assert_eq!(r.settings[n - 1].high, hw.high);
    assert_eq!(r.settings[n - 1].low, hw.low);
    assert!(!r.settings[n - 1].fouled);
}

#[test]
fn bad_input_names_the_value() {
    let msg = |r: Result<EvalResponse, ToolError>| r.unwrap_err().to_string();
    assert_eq!(msg(eval(&req("As Xx"))), "cards: unknown card \"Xx\"");
    assert_eq!(msg(eval(&req("As as"))), "cards: card \"As\" appears twice");
    assert_eq!(
        msg(eval(&req("As Ks Qs"))),
        "cards: expected 5 or 2 cards, got 3"
    );
    let mut none = req("JK As");
    none.options = Some(OptionOverrides {
        joker: Some(JokerRule::None),
        ..OptionOverrides::default()
    });
    assert!(msg(eval(&none)).contains("\"JK\""));
    let e = house_way(&req("As Ks")).unwrap_err();
    assert_eq!(e.to_string(), "cards: expected 7 cards, got 2");
}

#[test]
fn dice_count_clockwise_and_name_bad_values() {
    let d = |dice: Vec<i64>, pd_seat, seats| {
        super::dice(&DiceRequest {
            dice,
            pd_seat,
            seats,
        })
    };
    let r = d(vec![4, 5, 3], 1, None).unwrap();
    assert_eq!((r.total, r.position, r.action_seat, r.seats), (12, 5, 5, 7));
    assert_eq!(d(vec![5, 5, 5], 3, None).unwrap().action_seat, 3);
    let e = d(vec![4, 7, 3], 1, None).unwrap_err();
    assert_eq!(e.to_string(), "dice[1]: 7 is not a die value (1..6)");
    assert_eq!(e.cli_message(), "die 2: 7 is not a die value (1..6)");
    let e = d(vec![4, 5, 3], 8, None).unwrap_err();
    assert_eq!(
        e.cli_message(),
        "--pd-seat: 8 is not a seat at a 7-seat table (1..7)"
    );
    let e = d(vec![4, 5], 1, None).unwrap_err();
    assert_eq!(e.to_string(), "dice: expected 3 dice, got 2");
    let e = d(vec![4, 5, 3], 1, Some(11)).unwrap_err();
    assert_eq!(e.to_string(), "seats: 11 is not a table size (2..10)");
    assert_eq!(
        parse_dice_text("4, 5 x").unwrap_err().cli_message(),
        "die 3: \"x\" is not a die value (1..6)"
    );
}
