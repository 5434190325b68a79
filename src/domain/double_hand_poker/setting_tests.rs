//! Tests of `hand`: parsing a set hand, fouls, the 21 settings, deciding.

use super::*;
use crate::cards::test_hands::seven;
use crate::double_hand_poker::house_way::ReferenceHouseWay;
use crate::double_hand_poker::options::JokerRule;
use crate::double_hand_poker::test_options::{lucky, wild};

fn reset() -> RuleOptions {
    RuleOptions {
        foul: FoulRule::ResetHouseWay,
        ..RuleOptions::default()
    }
}
fn set(high: &str, low: &str) -> SetHand {
    SetHand::parse(high, low, &wild()).expect(high)
}

#[test]
fn parse_validates_counts_duplicates_and_the_joker() {
    let o = lucky();
    let h = SetHand::parse("2s 9s As 7s 4s", "3d Ah", &o).unwrap();
    assert_eq!(h.to_string(), "As 9s 7s 4s 2s | Ah 3d");
    assert_eq!(h.cards().len(), 7);
    let err =
        |hi: &str, lo: &str, o: &RuleOptions| SetHand::parse(hi, lo, o).unwrap_err().to_string();
    assert_eq!(
        err("As Ks Qs Js", "2c 3c", &o),
        "high hand: expected 5 cards, got 4"
    );
    assert_eq!(
        err("As Ks Qs Js Ts", "2c 3c 4c", &o),
        "low hand: expected 2 cards, got 3"
    );
    assert_eq!(
        err("As Ks Qs Js Ts", "As 3c", &o),
        "card \"As\" appears twice"
    );
    assert_eq!(err("As Ks Qs Js Zz", "2c 3c", &o), "unknown card \"Zz\"");
    let none = RuleOptions {
        joker: JokerRule::None,
        ..o
    };
    assert_eq!(
        err("As Ks Qs Js JK", "2c 3c", &none),
        "the joker is not in play under this profile"
    );
}

#[test]
fn foul_edges() {
    let o = lucky();
    let cases = [
        // The rules file's example: ace high in front beats king high behind.
        ("Ks Qd 7c 4h 2s", "Ah 3c", true),
        ("As Qd 7c 4h 2s", "Kh 3c", false),
        // Same high card: the next cards decide; a card beats no card.
        ("As Qd 7c 4h 2s", "Ah Kc", true),
        ("As Kd 7c 4h 2s", "Ah Qc", false),
        ("As Kd 7c 4h 2s", "Ah Kc", false),
        // Pair in front vs pair behind of the same rank (A + JK is a pair of aces).
        ("As Ad 7c 4h 2s", "Ah JK", false),
        ("6s 6d 7c 4h 2s", "6h 6c", false),
        // Pair in front vs a lower pair or no pair behind.
        ("5s 5d 7c 4h 2s", "6h 6c", true),
        ("As Kd 7c 4h 2s", "2h 2c", true),
        ("5s 5d 7c 4h 2s", "Ah Kc", false),
        // The joker alone in front is an ace under bug.
        ("Ks Qd 7c 4h 2s", "JK 3c", true),
        ("9s 9d 7c 4h 2s", "JK Kc", false),
    ];
    for (high, low, fouled) in cases {
        let h = SetHand::parse(high, low, &o).unwrap();
        assert_eq!(h.is_fouled(&o), fouled, "{high} | {low}");
    }
    // Under wild the joker pairs the card beside it.
    assert!(set("9s 9d 7c 4h 2s", "JK Kc").is_fouled(&wild()));
    assert!(!set("Ks Kd 7c 4h 2s", "JK 9c").is_fouled(&wild()));
}

#[test]
fn all_21_settings_with_fouls_marked() {
    let o = lucky();
    let cards = seven("As Kd 9s 7c 5h 3d 2c");
    let all = all_settings(&cards, &o);
    assert_eq!(all.len(), 21);
    let mut seen = std::collections::HashSet::new();
    for s in &all {
        assert!(seen.insert(s.hand));
        let mut used = s.hand.cards();
        used.sort();
        let mut want = cards;
        want.sort();
        assert_eq!(used, want);
        assert_eq!(s.fouled, s.hand.is_fouled(&o));
        assert_eq!(s.high_rank, s.hand.high_rank(&o));
    }
    // No pair: fouled exactly when the ace is in front (6 settings).
    assert_eq!(all.iter().filter(|s| s.fouled).count(), 6);
    assert!(
        all.iter()
            .filter(|s| s.fouled)
            .all(|s| s.hand.low.contains(&cards[0]))
    );
}

fn decide_text(player: (&str, &str), pd: (&str, &str), opts: &RuleOptions) -> Decision {
    let p = SetHand::parse(player.0, player.1, opts).unwrap();
    let d = SetHand::parse(pd.0, pd.1, opts).unwrap();
    decide(&p, &d, opts, &ReferenceHouseWay)
}

#[test]
fn deciding_a_position_with_copies_to_the_pd() {
    let o = lucky();
    let cases = [
        // (player high, low), (pd high, low), outcome
        (
            ("As Ad 7c 4h 2s", "Kh Qc"),
            ("Ks Kd 7d 4c 2h", "Jh Tc"),
            Outcome::Player,
        ),
        (
            ("Ks Kd 7d 4c 2h", "Jh Tc"),
            ("As Ad 7c 4h 2s", "Kh Qc"),
            Outcome::Pd,
        ),
        (
            ("As Ad 7c 4h 2s", "Jh Tc"),
            ("Ks Kd 7d 4c 2h", "Kh Qc"),
            Outcome::Push,
        ),
        (
            ("Ks Kd 7d 4c 2h", "Kh Qc"),
            ("As Ad 7c 4h 2s", "Jh Tc"),
            Outcome::Push,
        ),
        // Copies: a tie on a hand goes to the PD.
        (
            ("As Kd Qh Jc 9s", "7h 6d"),
            ("Ah Ks Qd Jh 9c", "7c 6s"),
            Outcome::Pd,
        ),
        (
            ("As Kd Qh Jc 9s", "8h 6d"),
            ("Ah Ks Qd Jh 9c", "7c 6s"),
            Outcome::Push,
        ),
        (
            ("As Kd Qh Jc Ts", "7h 6d"),
            ("Ah Ks Qd Jh 9c", "7c 6s"),
            Outcome::Push,
        ),
        (
            ("As Kd Qh Jc 9s", "5h 4d"),
            ("Ah Ks Qd Jh 9c", "7c 6s"),
            Outcome::Pd,
        ),
    ];
    for (player, pd, outcome) in cases {
        let d = decide_text(player, pd, &o);
        assert_eq!(
            d.outcome, outcome,
            "{player:?} vs {pd:?}: {}",
            d.explanation
        );
        assert!(!d.player_fouled && !d.pd_fouled);
    }
    let d = decide_text(cases[4].0, cases[4].1, &o);
    assert!(
        d.explanation.contains("copy, to the PD"),
        "{}",
        d.explanation
    );
}

#[test]
fn fouled_hands() {
    // The player fouls (ace high in front of king high).
    let player = ("Ks Qd 7c 4h 2s", "Ah 3c");
    let pd = ("Ts 8d 6c 5h 3s", "9h 2c");
    let d = decide_text(player, pd, &lucky());
    assert_eq!(d.outcome, Outcome::Pd);
    assert!(d.player_fouled);
    assert_eq!(d.player.to_string(), "Ks Qd 7c 4h 2s | Ah 3c");
    assert!(
        d.explanation.contains("loses both hands"),
        "{}",
        d.explanation
    );
    // Re-set by house way: A high behind, K Q in front — beats the PD's hands.
    let d = decide_text(player, pd, &reset());
    assert!(d.player_fouled);
    assert_eq!(d.player.to_string(), "Ah 7c 4h 3c 2s | Ks Qd");
    assert_eq!(d.outcome, Outcome::Player, "{}", d.explanation);
    // A fouled PD hand is always re-set by house way.
    let d = decide_text(pd, player, &lucky());
    assert!(d.pd_fouled && !d.player_fouled);
    assert_eq!(d.pd.to_string(), "Ah 7c 4h 3c 2s | Ks Qd");
    assert!(!d.pd.is_fouled(&lucky()));
    assert_eq!(d.outcome, Outcome::Pd, "{}", d.explanation);
    // Both foul under `loses`: the player loses; the PD hand is still re-set.
    let d = decide_text(player, player, &lucky());
    assert!(d.player_fouled && d.pd_fouled);
    assert_eq!(d.outcome, Outcome::Pd);
    assert!(!d.pd.is_fouled(&lucky()));
}

#[test]
fn low_positions_cover_every_pair_once() {
    let mut seen = std::collections::HashSet::new();
    for &(i, j) in &LOW_POSITIONS {
        assert!(i < j && j < 7);
        assert!(seen.insert((i, j)));
    }
    assert_eq!(seen.len(), 21);
}

#[test]
fn set_hands_are_sorted_highest_first() {
    // Zero-one principle: the network sorts every 0/1 input, so it sorts all.
    let (lo, hi) = (
        Card::new(crate::cards::Rank::Two, crate::cards::Suit::Spades),
        Card::JOKER,
    );
    for bits in 0u32..32 {
        let high: [Card; 5] = std::array::from_fn(|i| if bits >> i & 1 == 1 { hi } else { lo });
        let h = SetHand::new(high, [lo, hi]);
        assert!(h.high.windows(2).all(|w| w[0] >= w[1]), "{bits:05b}");
        assert_eq!(h.low, [hi, lo]);
    }
    let h = SetHand::split(&seven("2c 9d JK As 3h Kd 4s"), 1, 5);
    assert_eq!(h.to_string(), "JK As 4s 3h 2c | Kd 9d");
}
