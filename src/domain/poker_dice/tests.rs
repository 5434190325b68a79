//! Poker dice rules: every combination and tie-break of seed `002_…` and
//! the rules file, names, parsing, rounds, and property tests.

use std::cmp::Ordering;

use proptest::prelude::*;

use super::*;

const C: Profile = Profile::Caribena;

fn r(text: &str) -> HandRank {
    rank_with(text, Straights::None)
}

fn rank_with(text: &str, s: Straights) -> HandRank {
    evaluate(&parse_hand(text, C).unwrap(), s)
}

fn es(text: &str) -> String {
    name_es(&r(text), C)
}

fn en(text: &str) -> String {
    name_en(&r(text), C)
}

#[test]
fn every_combination_is_named_in_spanish_and_english() {
    let table = [
        (
            "A A A A A",
            Combination::Quintilla,
            "Quintilla de ases",
            "Five aces",
        ),
        (
            "K K K K Q",
            Combination::Poker,
            "Póker de reyes",
            "Four kings",
        ),
        (
            "A A A K K",
            Combination::Full,
            "Full de ases y reyes",
            "Full house, aces over kings",
        ),
        (
            "Q Q Q A N",
            Combination::Tercia,
            "Tercia de reinas",
            "Three queens",
        ),
        (
            "J J R R A",
            Combination::TwoPair,
            "Dos pares de jacks y rojas",
            "Two pair, jacks and reds",
        ),
        (
            "N N A K Q",
            Combination::Pair,
            "Par de negras",
            "Pair of blacks",
        ),
        (
            "A K Q J N",
            Combination::Nothing,
            "Nada, as alto",
            "Nothing, ace high",
        ),
        (
            "K Q J R N",
            Combination::Nothing,
            "Nada, rey alto",
            "Nothing, king high",
        ),
    ];
    for (hand, combination, name_es, name_en) in table {
        assert_eq!(r(hand).combination, combination, "{hand}");
        assert_eq!(es(hand), name_es, "{hand}");
        assert_eq!(en(hand), name_en, "{hand}");
    }
}

#[test]
fn combinations_rank_high_to_low_as_in_the_seed() {
    let order = [
        "N N N N N", // quintilla (the lowest) beats
        "A A A A K", // póker
        "A A A K K", // full
        "A A A K Q", // tercia
        "A A K K Q", // dos pares
        "A A K Q J", // un par
        "A K Q J R", // nothing
    ];
    for w in order.windows(2) {
        assert!(r(w[0]) > r(w[1]), "{} should beat {}", w[0], w[1]);
    }
}

/// Each tie-break of the rules file: (better, worse).
#[test]
fn every_tie_break() {
    let table = [
        // Quintilla: higher face.
        ("A A A A A", "K K K K K"),
        ("R R R R R", "N N N N N"),
        // Póker: higher face, then the fifth die.
        ("K K K K N", "Q Q Q Q A"),
        ("K K K K A", "K K K K Q"),
        // Full: higher three, then higher pair.
        ("K K K N N", "Q Q Q A A"),
        ("Q Q Q A A", "Q Q Q K K"),
        // Tercia: higher three, then the other dice high to low.
        ("J J J N R", "R R R A K"),
        ("Q Q Q A N", "Q Q Q K J"),
        ("Q Q Q A J", "Q Q Q A R"),
        // Dos pares: higher pair, then lower pair, then the fifth die.
        ("A A N N R", "K K Q Q A"),
        ("A A Q Q N", "A A J J K"),
        ("A A K K Q", "A A K K J"),
        // Un par: the pair, then the other three high to low.
        ("R R N J Q", "N N A K Q"),
        ("J J A K N", "J J A Q R"),
        ("J J A K R", "J J A K N"),
        ("J J A Q R", "J J K Q R"),
        // Nothing: high to low.
        ("A K Q J N", "K Q J R N"),
        ("A K Q R N", "A K J R N"),
        ("A K Q J N", "A K Q R N"),
    ];
    for (better, worse) in table {
        assert!(r(better) > r(worse), "{better} should beat {worse}");
        assert!(r(better).value() > r(worse).value(), "{better} value");
    }
}

#[test]
fn equal_hands_in_any_order_are_a_tie() {
    for (a, b) in [
        ("A A A K K", "K A K A A"),
        ("Q Q J J N", "N J Q J Q"),
        ("A K Q J N", "N J Q K A"),
        ("R R R R R", "r r r r r"),
    ] {
        assert_eq!(r(a).cmp(&r(b)), Ordering::Equal, "{a} / {b}");
    }
    let c = compare(&CompareRequest {
        hands: vec![FacesText::new("A A A K K"), FacesText::new("K K A A A")],
        ..CompareRequest::default()
    })
    .unwrap();
    assert_eq!(c.decision.outcome, Outcome::Tie);
    assert_eq!(c.decision.winners, vec![0, 1]);
    assert_eq!(
        c.decision.reason,
        "Tie: full de ases y reyes each, equal in every compared die"
    );
}

#[test]
fn straights_only_count_when_ranked() {
    let high = "A K Q J R";
    let low = "K Q J R N";
    assert_eq!(r(high).combination, Combination::Nothing);
    let rh = rank_with(high, Straights::Ranked);
    let rl = rank_with(low, Straights::Ranked);
    assert_eq!(rh.combination, Combination::Straight);
    assert_eq!(rl.combination, Combination::Straight);
    assert!(rh > rl);
    assert_eq!(name_es(&rh, C), "Escalera al as");
    assert_eq!(name_en(&rl, C), "Straight, king high");
    // Between full and tercia.
    assert!(rank_with("N N N R R", Straights::Ranked) > rh);
    assert!(rl > rank_with("A A A K Q", Straights::Ranked));
    // A gap is not a straight.
    assert_eq!(
        rank_with("A K Q R N", Straights::Ranked).combination,
        Combination::Nothing
    );
}

#[test]
fn the_reason_names_both_hands() {
    let c = compare(&CompareRequest {
        hands: vec![FacesText::new("Q Q Q J N"), FacesText::new("A A A K K")],
        ..CompareRequest::default()
    })
    .unwrap();
    assert_eq!(c.decision.outcome, Outcome::Winner);
    assert_eq!(c.decision.winners, vec![1]);
    assert_eq!(
        c.decision.reason,
        "Full de ases y reyes beats tercia de reinas"
    );
    assert_eq!(
        c.decision.reason_en,
        "Full house, aces over kings beats three queens"
    );
    let (es, en) = beats_reason(&r("Q Q Q A J"), &r("Q Q Q A R"), C);
    assert_eq!(
        es,
        "Tercia de reinas beats tercia de reinas: jack over roja"
    );
    assert_eq!(en, "Three queens beats three queens: jack over red");
}

#[test]
fn a_tie_for_best_among_three_is_a_tie() {
    let c = compare(&CompareRequest {
        hands: vec![
            FacesText::new("J J N N A"),
            FacesText::new("A A A K Q"),
            FacesText::new("A A A K Q"),
        ],
        ..CompareRequest::default()
    })
    .unwrap();
    assert_eq!(c.decision.outcome, Outcome::Tie);
    assert_eq!(c.decision.winners, vec![1, 2]);
}

#[test]
fn classic_profile_faces_and_names() {
    let p = Profile::Classic;
    let dice = parse_hand("10 10 10 9 9", p).unwrap();
    let rank = evaluate(&dice, Straights::None);
    assert_eq!(name_es(&rank, p), "Full de dieces y nueves");
    assert_eq!(name_en(&rank, p), "Full house, tens over nines");
    assert_eq!(parse_hand("t T 10 9 9", p).unwrap(), dice);
    assert_eq!(parse_hand("ttt99", p).unwrap(), dice);
    assert_eq!(parse_hand("1010109 9", p).unwrap(), dice);
    let e = parse_hand("A K Q J R", p).unwrap_err();
    assert_eq!(
        e,
        "\"R\" is not a face of the classic profile (A K Q J 10 9)"
    );
}

#[test]
fn parsing_faces() {
    assert_eq!(
        parse_hand("a,k,Q,j,r", C).unwrap(),
        parse_hand("A K Q J R", C).unwrap()
    );
    assert_eq!(
        parse_hand("aakkq", C).unwrap(),
        parse_hand("A A K K Q", C).unwrap()
    );
    assert_eq!(
        parse_hand("roja negra as rey reina", C).unwrap(),
        parse_hand("R N A K Q", C).unwrap()
    );
    assert_eq!(
        parse_hand("A K Q J 10", C).unwrap_err(),
        "\"1\" is not a face of the caribena profile (A K Q J R N) (in \"10\")"
    );
    assert_eq!(
        parse_hand("A K Q J X", C).unwrap_err(),
        "\"X\" is not a face of the caribena profile (A K Q J R N)"
    );
    assert!(parse_hand("A K Q J", C).unwrap_err().contains("got 4"));
    assert!(parse_hand("A K Q J N N", C).unwrap_err().contains("got 6"));
    assert!(parse_hand(&"A ".repeat(200), C).is_err());
}

#[test]
fn rank_response() {
    let resp = rank(&RankRequest {
        faces: FacesText::new("K A K A A"),
        ..RankRequest::default()
    })
    .unwrap();
    assert_eq!(resp.hand.faces, vec!["A", "A", "A", "K", "K"]);
    assert_eq!(resp.hand.faces_es, vec!["As", "As", "As", "Rey", "Rey"]);
    assert_eq!(resp.hand.name_es, "Full de ases y reyes");
    let e = rank(&RankRequest {
        faces: FacesText::new("A A Z K K"),
        ..RankRequest::default()
    })
    .unwrap_err();
    assert_eq!(e.field, "faces");
    assert!(e.message.contains("\"Z\""));
}

#[test]
fn compare_needs_two_to_eight_hands() {
    for n in [0, 1, 9] {
        let e = compare(&CompareRequest {
            hands: vec![FacesText::new("A A A A A"); n],
            ..CompareRequest::default()
        })
        .unwrap_err();
        assert_eq!(e.field, "hands");
    }
    let e = compare(&CompareRequest {
        hands: vec![FacesText::new("A A A A A"), FacesText::new("A A A")],
        ..CompareRequest::default()
    })
    .unwrap_err();
    assert_eq!(e.field, "hands[1]");
}

fn throw(held: &str, rolled: &str) -> RoundThrow {
    RoundThrow {
        held: (!held.is_empty()).then(|| FacesText::new(held)),
        rolled: FacesText::new(rolled),
    }
}

fn player(name: &str, throws: Vec<RoundThrow>) -> RoundPlayer {
    RoundPlayer {
        name: Some(name.into()),
        throws,
    }
}

fn sample_round() -> RoundRequest {
    RoundRequest {
        players: vec![
            player(
                "Ana",
                vec![
                    throw("", "A K Q Q N"),
                    throw("Q Q", "Q J R"),
                    throw("Q Q Q", "J N"),
                ],
            ),
            player("Ben", vec![throw("", "A A R K K"), throw("A A K K", "A")]),
            player("Cruz", vec![throw("", "N N R R J")]),
        ],
        ..RoundRequest::default()
    }
}

#[test]
fn a_round_names_the_winner_with_the_reason() {
    let resp = round(&sample_round()).unwrap();
    assert_eq!(resp.decision.outcome, Outcome::Winner);
    assert_eq!(resp.winner_names, vec!["Ben"]);
    assert_eq!(
        resp.decision.reason,
        "Ben wins: Full de ases y reyes beats tercia de reinas"
    );
    assert_eq!(
        resp.players[0].throws[2].dice,
        vec!["Q", "Q", "Q", "J", "N"]
    );
    assert_eq!(resp.players[1].hand.name_en, "Full house, aces over kings");
}

#[test]
fn a_round_can_tie() {
    let mut req = sample_round();
    req.players[2] = player("Cruz", vec![throw("", "K K A A A")]);
    let resp = round(&req).unwrap();
    assert_eq!(resp.decision.outcome, Outcome::Tie);
    assert_eq!(resp.winner_names, vec!["Ben", "Cruz"]);
    assert_eq!(
        resp.decision.reason,
        "Ben and Cruz tie: full de ases y reyes each, equal in every compared die"
    );
}

#[test]
fn round_bad_input() {
    let mut fourth = sample_round();
    fourth.players[0].throws.push(throw("Q Q Q", "A A"));
    let e = round(&fourth).unwrap_err();
    assert_eq!(e.field, "players[0].throws[3]");
    assert!(e.message.contains("throw 4 is one too many"), "{e}");

    let mut not_held = sample_round();
    not_held.players[1].throws[1] = throw("A A K Q", "A");
    let e = round(&not_held).unwrap_err();
    assert_eq!(e.field, "players[1].throws[1].held");
    assert_eq!(
        e.message,
        "held \"Q\" is not in the previous throw (A A R K K)"
    );

    let mut wrong_count = sample_round();
    wrong_count.players[1].throws[1] = throw("A A K K", "A A");
    let e = round(&wrong_count).unwrap_err();
    assert_eq!(e.field, "players[1].throws[1].rolled");

    let mut first_held = sample_round();
    first_held.players[2].throws[0] = throw("N", "N R R J");
    assert_eq!(
        round(&first_held).unwrap_err().field,
        "players[2].throws[0].held"
    );

    let mut face = sample_round();
    face.players[2].throws[0] = throw("", "N N R R 9");
    let e = round(&face).unwrap_err();
    assert_eq!(e.field, "players[2].throws[0].rolled");
    assert!(
        e.message
            .contains("\"9\" is not a face of the caribena profile")
    );

    let mut first_sets = sample_round();
    first_sets.first_sets_throws = true;
    first_sets.players[0].throws.truncate(1);
    let e = round(&first_sets).unwrap_err();
    assert_eq!(e.field, "players[1].throws[1]");
    assert!(e.message.contains("first_sets_throws"), "{e}");

    let mut lone = sample_round();
    lone.players.truncate(1);
    assert_eq!(round(&lone).unwrap_err().field, "players");

    let mut same = sample_round();
    same.players[2].name = Some("Ana".into());
    assert_eq!(round(&same).unwrap_err().field, "players[2].name");
}

fn any_hand() -> impl Strategy<Value = [Face; DICE]> {
    proptest::array::uniform5(0u8..6)
        .prop_map(|a| a.map(|i| Face::from_index(i).unwrap_or(Face::ACE)))
}

fn any_straights() -> impl Strategy<Value = Straights> {
    prop_oneof![Just(Straights::None), Just(Straights::Ranked)]
}

proptest! {
    #[test]
    fn ranking_ignores_dice_order(hand in any_hand(), s in any_straights(), rot in 0usize..5, swap in 0usize..5) {
        let mut other = hand;
        other.rotate_left(rot);
        other.swap(0, swap);
        prop_assert_eq!(evaluate(&hand, s), evaluate(&other, s));
    }

    #[test]
    fn ranking_is_a_total_order(a in any_hand(), b in any_hand(), c in any_hand(), s in any_straights()) {
        let (ra, rb, rc) = (evaluate(&a, s), evaluate(&b, s), evaluate(&c, s));
        // Antisymmetric, and the number agrees with the order.
        prop_assert_eq!(ra.cmp(&rb), rb.cmp(&ra).reverse());
        prop_assert_eq!(ra.cmp(&rb), ra.value().cmp(&rb.value()));
        // Transitive.
        if ra <= rb && rb <= rc {
            prop_assert!(ra <= rc);
        }
        // Equal ranks are the same dice up to order.
        if ra == rb {
            let (mut x, mut y) = (a, b);
            x.sort();
            y.sort();
            prop_assert_eq!(x, y);
        }
    }

    #[test]
    fn compare_never_invents_a_winner(a in any_hand(), b in any_hand()) {
        let text = |h: &[Face; DICE]| FacesText(h.iter().map(|f| f.symbol(C)).collect::<Vec<_>>().join(" "));
        let resp = compare(&CompareRequest { hands: vec![text(&a), text(&b)], ..CompareRequest::default() }).unwrap();
        let (ra, rb) = (evaluate(&a, Straights::None), evaluate(&b, Straights::None));
        match ra.cmp(&rb) {
            Ordering::Equal => prop_assert_eq!(resp.decision.winners, vec![0, 1]),
            Ordering::Greater => prop_assert_eq!(resp.decision.winners, vec![0]),
            Ordering::Less => prop_assert_eq!(resp.decision.winners, vec![1]),
        }
    }
}
