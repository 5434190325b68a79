//! The words of the set hands: names from the rules file's examples, the
//! house-way rule of each kind of hand, fouls and each seat's reason.

use super::*;
use crate::cards::eval::{eval2, eval5};
use crate::cards::parse_cards;
use crate::cards::test_hands::seven;
use crate::common::text::thousands;
use crate::double_hand_poker::house_way::ReferenceHouseWay;
use crate::double_hand_poker::settle::parse_scenario;
use crate::double_hand_poker::test_options::{lucky, wild};
use crate::double_hand_poker::tools::{self, CardsRequest};

fn name_of(text: &str, opts: &RuleOptions) -> String {
    let cards = parse_cards(text).expect(text);
    let rank = match cards.len() {
        5 => eval5(&<[Card; 5]>::try_from(cards.as_slice()).unwrap(), opts),
        _ => eval2(&<[Card; 2]>::try_from(cards.as_slice()).unwrap(), opts),
    };
    hand_name(&cards, rank)
}

#[test]
fn hands_are_named_as_the_dealer_says_them() {
    // (cards, joker wild?, name)
    let cases: &[(&str, bool, &str)] = &[
        ("Kh Kd 4c 4d 9s", false, "Two pair, kings and fours"),
        ("As Qd", false, "Ace-queen"),
        ("Qd As", false, "Ace-queen"),
        ("Ks Qs 7d 4c 2h", false, "King high"),
        ("Ah 3s", false, "Ace-three"),
        // "with A♠ 9♠ 7♠ 4♠ + joker the flush is A-K-9-7-4"
        ("As 9s 7s 4s JK", false, "Flush, ace high"),
        // "JK+A is a pair of aces" under bug; JK+K is ace-king.
        ("JK Ad", false, "Pair of aces"),
        ("JK Kd", false, "Ace-king"),
        ("Kd JK", false, "Ace-king"),
        // Under wild the joker pairs anything.
        ("JK Kd", true, "Pair of kings"),
        ("As Ah Ad Ac JK", false, "Five aces"),
        ("As Ks Qs Js Ts", false, "Royal flush"),
        ("5s 4h 3d 2c As", false, "Straight, five high"),
        ("Kh Kd Ks 4c 4d", false, "Full house, kings over fours"),
        ("9c 9d", false, "Pair of nines"),
        ("Th 2c", false, "Ten-two"),
    ];
    for &(text, is_wild, want) in cases {
        let opts = if is_wild { wild() } else { lucky() };
        assert_eq!(name_of(text, &opts), want, "{text}");
    }
}

#[test]
fn card_faces_carry_the_suit_as_glyph_letter_and_colour() {
    let faces: Vec<CardFace> = parse_cards("Th As Kd 2c JK")
        .unwrap()
        .into_iter()
        .map(CardFace::of)
        .collect();
    let got: Vec<(&str, &str, &str, &str, &str)> = faces
        .iter()
        .map(|f| (f.rank, f.glyph, f.letter, f.colour, f.label.as_str()))
        .collect();
    assert_eq!(
        got,
        [
            ("10", "♥", "h", "red", "ten of hearts"),
            ("A", "♠", "s", "black", "ace of spades"),
            ("K", "♦", "d", "red", "king of diamonds"),
            ("2", "♣", "c", "black", "two of clubs"),
            ("JK", "", "", "joker", "joker"),
        ]
    );
    assert_eq!(faces[0].text, "Th");
}

#[test]
fn each_kind_of_hand_names_the_house_way_rule_that_set_it() {
    // (seven cards, rule number)
    let cases: &[(&str, u8)] = &[
        ("As Ah Ad Ac JK 9s 5d", 1),
        ("As Ah Ad Ac JK Ks Kd", 1),
        ("5s 5h 5d 5c Ks Qd 9c", 2),
        ("Qs Qh Qd Qc As Kd 4c", 2),
        ("Ks Kh Kd 4c 4d 9s 2h", 3),
        ("Ks Kh Kd 4c 4d 4s 2h", 3),
        ("Ks Kh 9d 9c 4d 4s 2h", 4),
        ("Ks Kh 9d 9c 4d 3s 2h", 5),
        ("7s 7h 7d Kc 9d 4s 2h", 6),
        ("As Ah Ad Kc 9d 4s 2h", 6),
        ("9s 8h 7d 6c 5d Ks 2h", 7),
        ("Ks Kh 9d 7c 5d 3s 2h", 8),
        ("As Kh 9d 7c 5d 3s 2h", 9),
    ];
    for &(text, want) in cases {
        let set = ReferenceHouseWay.set(&seven(text), &lucky());
        let words = HouseWayWords::of(&set.rule, "reference");
        assert_eq!(words.number, Some(want), "{text}: {}", set.rule);
        assert_eq!(words.title, HOUSE_WAY_RULES[want as usize - 1].0);
        assert!(!words.says.is_empty());
        assert_eq!(words.note, set.rule);
    }
    let other = HouseWayWords::of("Our room's rule 12", "reference");
    assert_eq!((other.number, other.says), (None, ""));
    // Another house way's words are its own: never the reference's rule
    // numbers or the rules file's text, though its note starts alike.
    let fox = HouseWayWords::of("Two pair: split, small pair in front", "foxwoods");
    assert_eq!(
        (fox.number, fox.says, fox.way.as_str()),
        (None, "", "foxwoods")
    );
}

/// The PD on seat 1 and seats 2–5 as `hands` (seat → JSON hand).
fn scenario(hands: serde_json::Value, foul: &str) -> Scenario {
    let input = serde_json::json!({
        "options": {"foul": foul},
        "pd": {"seat": 1, "player": "Dana", "bank": "500"},
        "action": {"seat": 2},
        "wagers": [
            {"id": "a", "seat": 2, "bettor": "Ann", "amount": "10"},
            {"id": "b", "seat": 3, "bettor": "Bo", "amount": "10"},
            {"id": "c", "seat": 4, "bettor": "Cy", "amount": "10"},
            {"id": "c2", "seat": 4, "bettor": "Ann", "amount": "5", "backline": true}
        ],
        "hands": hands
    });
    parse_scenario(&input.to_string()).unwrap_or_else(|e| panic!("{e}"))
}

fn deal() -> serde_json::Value {
    serde_json::json!({
        // PD: two pair behind, ace-queen in front.
        "1": {"high": "Kh Kd 4c 4d 9s", "low": "As Qd"},
        // Higher behind, the same front ranks: a copy in front → push.
        "2": {"high": "8h 8c 8d 6h 2d", "low": "Ac Qh"},
        // "K Q 7 4 2 vs A 3 is fouled".
        "3": {"high": "Ks Qs 7d 4h 2c", "low": "Ah 3s"},
        // Seven cards set by house way: three of a kind.
        "4": {"cards": "7s 7h 7c Kc 9d 5s 2s", "set": "house"}
    })
}

#[test]
fn each_seat_shows_its_hands_the_foul_and_the_reason() {
    let sc = scenario(deal(), "loses");
    let shown = hands_shown(&sc, &ReferenceHouseWay);
    let seats: Vec<(u8, bool, &str)> = shown
        .iter()
        .map(|s| (s.seat, s.pd, s.name.as_str()))
        .collect();
    assert_eq!(
        seats,
        [
            (1, true, "Dana"),
            (2, false, "Ann"),
            (3, false, "Bo"),
            (4, false, "Cy")
        ]
    );
    let pd = shown[0].hand.as_ref().unwrap();
    assert_eq!(
        (pd.high.name.as_str(), pd.low.name.as_str(), pd.set_by),
        ("Two pair, kings and fours", "Ace-queen", "set by the PD")
    );
    assert!(!pd.fouled && pd.foul.is_empty() && shown[0].result.is_none());
    // (seat, high name, low name, fouled, outcome, reason)
    let want: &[(usize, &str, &str, bool, &str, &str)] = &[
        (
            1,
            "Three of a kind, eights",
            "Ace-queen",
            false,
            "push",
            "high: player, low: copy → push",
        ),
        (
            2,
            "King high",
            "Ace-three",
            true,
            "PD wins",
            "fouled → PD wins",
        ),
        (
            3,
            "Three of a kind, sevens",
            "King-nine",
            false,
            "push",
            "high: player, low: PD → push",
        ),
    ];
    for &(i, high, low, fouled, outcome, reason) in want {
        let seat = &shown[i];
        let hand = seat.hand.as_ref().unwrap();
        let result = seat.result.as_ref().unwrap();
        assert_eq!(
            (
                hand.high.name.as_str(),
                hand.low.name.as_str(),
                hand.fouled,
                result.outcome,
                result.reason.as_str()
            ),
            (high, low, fouled, outcome, reason),
            "seat {}",
            seat.seat
        );
        // The settlement decided the same result.
        assert_eq!(
            sc.outcome(seat.seat).map(outcome_words),
            Some(result.outcome)
        );
    }
    let fouled = shown[2].hand.as_ref().unwrap();
    assert!(
        fouled
            .foul
            .contains("King high behind does not beat Ace-three in front")
            && fouled.foul.contains("loses both hands to the PD"),
        "{}",
        fouled.foul
    );
    assert!(fouled.played.is_none());
    let house = shown[3].hand.as_ref().unwrap();
    assert_eq!(house.set_by, "set by house way");
    assert_eq!(house.house_way.as_ref().and_then(|h| h.number), Some(6));
    assert_eq!(
        shown[1].result.as_ref().unwrap().high,
        "High: Three of a kind, eights against Two pair, kings and fours: player."
    );
}

#[test]
fn a_fouled_hand_re_set_by_house_way_is_shown_as_played() {
    let shown = hands_shown(&scenario(deal(), "reset_house_way"), &ReferenceHouseWay);
    let seat3 = &shown[2];
    let hand = seat3.hand.as_ref().unwrap();
    assert!(hand.fouled && hand.foul.contains("re-sets it by house way"));
    let played = hand.played.as_ref().expect("re-set");
    // No pair: highest card behind, the next two in front.
    assert_eq!(played.house_way.number, Some(9));
    assert_eq!(played.low.name, "King-queen");
    let result = seat3.result.as_ref().unwrap();
    assert!(result.reason.starts_with("high: "), "{}", result.reason);
}

#[test]
fn a_fouled_pd_hand_is_always_re_set() {
    let mut hands = deal();
    hands["1"] = serde_json::json!({"high": "Kh Qd 4c 5d 9s", "low": "As 3d"});
    let shown = hands_shown(&scenario(hands, "loses"), &ReferenceHouseWay);
    let pd = shown[0].hand.as_ref().unwrap();
    assert!(
        pd.fouled && pd.foul.contains("always re-set"),
        "{}",
        pd.foul
    );
    assert!(pd.played.is_some());
}

#[test]
fn seats_entered_as_results_say_so() {
    let input = serde_json::json!({
        "pd": {"seat": 1, "player": "Dana", "bank": "500"},
        "action": {"seat": 2},
        "wagers": [{"id": "a", "seat": 2, "bettor": "Ann", "amount": "10"}],
        "outcomes": {"2": "push"}
    });
    let sc = parse_scenario(&input.to_string()).unwrap();
    let shown = hands_shown(&sc, &ReferenceHouseWay);
    assert!(shown.iter().all(|s| s.hand.is_none()));
    let r = shown[1].result.as_ref().unwrap();
    assert_eq!(
        (r.outcome, r.reason.as_str()),
        ("push", "entered as a result, without cards")
    );
}

#[test]
fn the_preview_sets_seven_cards_in_words_and_refuses_bad_cards() {
    let p = house_way_preview(&CardsRequest::new("Kh Kd 4c 4d 9s As Qd")).unwrap();
    assert_eq!(p.cards.len(), 7);
    // Two pair, kings high, with an ace left over: split (rule 5).
    assert_eq!(
        (
            p.high.name.as_str(),
            p.low.name.as_str(),
            p.house_way.number
        ),
        ("Pair of kings", "Pair of fours", Some(5))
    );
    assert_eq!(p.rules, "profile lucky-chances, joker bug, wheel lowest");
    // (cards, words of the message)
    let bad: &[(&str, &str)] = &[
        ("Kh Kd 4c 4d 9s As", "expected 7 cards, got 6"),
        ("Kh Kd 4c 4d 9s As As", "appears twice"),
        ("Kh Kd 4c 4d 9s As Zz", "unknown card"),
    ];
    for &(cards, words) in bad {
        let e = house_way_preview(&CardsRequest::new(cards)).expect_err(cards);
        assert_eq!(e.field, tools::Field::Cards, "{cards}");
        assert!(e.message.contains(words), "{cards}: {}", e.message);
    }
}

/// Some of the other side's hands counted (the parts from the 31st card
/// on: a few thousand), as the value page shows them.
fn partly_counted(
    cards: &str,
) -> (
    crate::double_hand_poker::ev::EvJob,
    crate::double_hand_poker::ev::EvResponse,
) {
    use crate::double_hand_poker::ev::EvRequest;
    let req = EvRequest {
        cards: tools::CardsText(cards.into()),
        ..EvRequest::default()
    };
    let job = req.job().unwrap();
    let response = job.response(&job.count(30..job.parts().end));
    (job, response)
}

#[test]
fn a_hands_value_in_words_lists_its_settings_best_first_with_the_house_ways_marked() {
    let (job, response) = partly_counted("As Kd Qh 9c 9d 4s 2h");
    let words = ev_words(&job, &response);
    assert_eq!(words.rows.len(), 21);
    assert_eq!(words.side, "player");
    assert_eq!(words.hands, thousands(response.hands));
    assert!(response.hands > 1000, "{}", response.hands);
    let value = |r: &EvRow| response.settings[r.number - 1].ev;
    assert!(
        words.rows.windows(2).all(|w| value(&w[0]) >= value(&w[1])),
        "best first"
    );
    let marked: Vec<usize> = words
        .rows
        .iter()
        .filter(|r| r.is_house_way)
        .map(|r| r.number)
        .collect();
    assert_eq!(marked, [response.house_way + 1]);
    assert_eq!(words.house_way.0, response.house_way + 1);
    assert_eq!(words.best.0, response.best + 1);
    assert!(words.rows[0].is_best || value(&words.rows[0]) == response.settings[response.best].ev);
    for r in &words.rows {
        let s = &response.settings[r.number - 1];
        assert_eq!(r.win, thousands(s.win));
        assert_eq!(r.high.cards.len(), 5);
        assert_eq!(r.low.cards.len(), 2);
        let signed = if s.ev.is_zero() {
            "0".to_string()
        } else if s.ev.is_sign_negative() {
            format!("−{}", s.ev.abs())
        } else {
            format!("+{}", s.ev)
        };
        assert_eq!(r.ev, signed);
    }
    // The nine in front with the ace: a fouled setting is marked so.
    assert!(words.rows.iter().any(|r| r.fouled));
    assert_eq!(
        words.rules,
        "profile lucky-chances, joker bug, wheel lowest"
    );
    assert_eq!(thousands(53_524_680u64), "53,524,680");
    assert_eq!(thousands(999u32), "999");
}
