//! The card kernel's parsing and deck tests (`cards/mod.rs`).
use super::*;

fn card(t: &str) -> Card {
    parse_card(t).expect(t)
}

#[test]
fn parses_every_accepted_form() {
    let cases = [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("Th", "Th"),
        ("10h", "Th"),
        ("10H", "Th"),
        ("tD", "Td"),
        ("2c", "2c"),
        ("9♠", "9s"),
        ("K♥", "Kh"),
        ("q♦", "Qd"),
        ("J♣", "Jc"),
        ("JK", "JK"),
        ("jk", "JK"),
        ("Joker", "JK"),
        ("JOKER", "JK"),
        (" 5d ", "5d"),
    ];
    for (input, canonical) in cases {
        assert_eq!(card(input).to_string(), canonical, "{input}");
    }
}

#[test]
fn unknown_cards_are_named() {
    for bad in [
        "Xx", "", "A", "1s", "11h", "Ax", "JKs", "Jokers", "s", "AAs", "0h",
    ] {
        let err = parse_card(bad).unwrap_err();
        assert_eq!(err, CardError::Unknown(bad.trim().to_string()), "{bad}");
        assert_eq!(err.to_string(), format!("unknown card \"{bad}\""));
    }
}

#[test]
fn all_53_cards_round_trip_and_are_distinct() {
    let deck: Vec<Card> = Card::deck().collect();
    assert_eq!(deck.len(), 53);
    for c in &deck {
        assert_eq!(card(&c.to_string()), *c);
    }
    assert_eq!(parse_cards(&format_cards(&deck)).unwrap(), deck);
    assert_eq!(Card::new(Rank::Ace, Suit::Spades).rank(), Some(Rank::Ace));
    assert_eq!(Card::JOKER.rank(), None);
    assert_eq!(Card::JOKER.suit(), None);
    assert_eq!(Card::from_index(53), None);
    assert!(card("2s") < card("2h") && card("2c") < card("3s") && card("Ac") < Card::JOKER);
}

#[test]
fn cards_typed_without_spaces_are_read_one_by_one() {
    for (typed, read) in [
        ("AsKd", "As Kd"),
        ("askdqhjstc9d8h", "As Kd Qh Js Tc 9d 8h"),
        ("10hJK2c", "Th JK 2c"),
        ("As KdQh, 10c", "As Kd Qh Tc"),
        ("K♥q♦", "Kh Qd"),
    ] {
        assert_eq!(format_cards(&parse_cards(typed).unwrap()), read, "{typed}");
    }
    // Not a run of cards: refused as typed, the whole run named.
    for bad in ["AsK", "AsXx", "JKs", "AAs", "As1"] {
        assert_eq!(
            parse_cards(bad).unwrap_err(),
            CardError::Unknown(bad.to_string()),
            "{bad}"
        );
    }
    assert_eq!(
        parse_cards("AsAs").unwrap_err(),
        CardError::Duplicate(card("As"))
    );
}

#[test]
fn parse_cards_separators_and_duplicates() {
    let cs = parse_cards("As, Kd  10c,JK\t2h").unwrap();
    assert_eq!(format_cards(&cs), "As Kd Tc JK 2h");
    assert_eq!(parse_cards("  ").unwrap(), vec![]);
    let err = parse_cards("As Kd as").unwrap_err();
    assert_eq!(err.to_string(), "card \"As\" appears twice");
    assert_eq!(
        parse_cards("JK Joker").unwrap_err(),
        CardError::Duplicate(Card::JOKER)
    );
    assert_eq!(
        parse_cards("As Xx").unwrap_err().to_string(),
        "unknown card \"Xx\""
    );
}

#[test]
fn check_deal_rejects_duplicates_and_an_absent_joker() {
    let opts = test_hands::lucky();
    let no_joker = CardRules {
        joker: JokerRule::None,
        ..opts
    };
    let cs = parse_cards("As Kd JK").unwrap();
    assert_eq!(check_deal(&cs, opts), Ok(()));
    let err = check_deal(&cs, no_joker).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the joker is not in play under this profile"
    );
    assert_eq!(
        check_deal(&[card("As"), card("As")], opts),
        Err(CardError::Duplicate(card("As")))
    );
}

#[test]
fn parse_exact_checks_the_count() {
    let opts = test_hands::lucky();
    let err = parse_exact::<7>("As Kd Qh Jc Ts 9s", &opts).unwrap_err();
    assert_eq!(err.to_string(), "expected 7 cards, got 6");
    let ok: [Card; 2] = parse_exact("JK 2c", opts).unwrap();
    assert_eq!(ok, [Card::JOKER, card("2c")]);
}

#[test]
fn serde_uses_the_canonical_text() {
    let json = serde_json::to_string(&[card("10h"), Card::JOKER]).unwrap();
    assert_eq!(json, r#"["Th","JK"]"#);
    let back: Vec<Card> = serde_json::from_str(r#"["t♥","joker"]"#).unwrap();
    assert_eq!(back, vec![card("Th"), Card::JOKER]);
    assert!(serde_json::from_str::<Card>(r#""Zz""#).is_err());
}
