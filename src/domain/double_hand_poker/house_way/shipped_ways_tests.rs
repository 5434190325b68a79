//! The shipped house ways: each parses under its own name, every way a
//! table can name is shipped, and the Foxwoods, Atlantic City and Gold
//! Star ways set a hand of each of their rules as their sources say.

use super::super::{HouseWay, shipped};
use super::*;
use crate::cards::Card;
use crate::double_hand_poker::options::RuleOptions;

#[test]
fn every_shipped_house_way_parses_under_its_own_name() {
    for (name, text) in super::super::SHIPPED {
        let way = HouseWayFile::parse(text).unwrap();
        assert_eq!(way.name, name);
        assert!(!way.sources.is_empty(), "{name} cites its source");
    }
}

/// The Foxwoods way's rules, one hand each (the source states rules, not
/// hands): the front it plays and the rule's words.
#[test]
fn the_foxwoods_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("foxwoods").unwrap();
    sets_as_said(
        &way,
        "
        Ah Ad Ac As JK Kh Ks | Kh Ks | kings in front
        Ah Ad Ac As JK Qh Qs | As Ah | pair of aces in front
        9s 9h 9d 9c Kd 5c 2h | Kd 5c | with a king or better: kept together
        9s 9h 9d 9c Qd 5c 2h | 9s 9h | (7s to 10s): split
        Js Jh Jd Jc Ad 5c 2h | Js Jh | always split
        5s 5h 5d 5c Ad Kc 2h | Ad Kc | never split
        Ts Th 4d 4c Ad 8c 2h | Ad 8c | both pairs behind, ace in front
        6s 6h 4d 4c Kd 8c 2h | Kd 8c | with a king or better: both pairs behind
        6s 6h 4d 4c Qd 8c 2h | 4d 4c | small pair in front
        Ks Kh Qd Qc 3d 3c 2h | Ks Kh | highest pair in front
        As Ah Ad 9c 7d 4c 2h | As 9c | an ace and the next highest
        7h 7d 7s 8h 9h Th Jh | 7s 7d | straight flush behind, pair in front
        Ks Kh Ad Qc Jh Th 3d | Ad Qc | pair behind, ace in front
        5s 5h 6d 7c 8s 9d Kc | Kc 5s | straight behind, highest front
        Ac Kd 9s 7h 5c 3d 2h | Kd 9s | second and third highest
        ",
    );
}

/// Sets each hand of `cases` by `way`: a line a case, `hand | the front it
/// plays (any order) | words its rule says`; `#` starts a comment line.
pub(super) fn sets_as_said(way: &HouseWayFile, cases: &str) {
    let o = RuleOptions::default();
    let lines = cases.lines().map(str::trim);
    for line in lines.filter(|l| !l.is_empty() && !l.starts_with('#')) {
        let [text, front, words] = line.split(" | ").collect::<Vec<_>>()[..] else {
            panic!("a case is `hand | front | words`: {line}");
        };
        let cards: [Card; 7] = crate::cards::test_hands::seven(text);
        let got = way.set(&cards, &o);
        let mut want: Vec<Card> = crate::cards::parse_cards(front).unwrap();
        let mut low = got.hand.low.to_vec();
        want.sort();
        low.sort();
        assert_eq!(low, want, "{text}: {} ({})", got.hand, got.rule);
        assert!(got.rule.contains(words), "{text}: {}", got.rule);
    }
}

/// Every house way a table can name is shipped under that name, its
/// name the same in JSON, and `by_name` gives it.
#[test]
fn every_house_way_a_table_names_is_shipped_under_its_name() {
    use crate::double_hand_poker::options::HouseWayName;
    let shipped: Vec<&str> = super::super::SHIPPED.iter().map(|(n, _)| *n).collect();
    for w in HouseWayName::ALL {
        assert_eq!(
            serde_json::to_value(w).unwrap(),
            serde_json::Value::String(w.name().to_string())
        );
        assert!(shipped.contains(&w.name()), "{} is shipped", w.name());
        assert_eq!(super::super::by_name(w).unwrap().name(), w.name());
    }
    assert_eq!(HouseWayName::ALL.len(), super::super::SHIPPED.len());
}

/// The Atlantic City way (Bally's, the Trump Plaza two-pair rule): a hand
/// for each rule and each two-pair case of the source, and the straight
/// exception with an ace and the joker (the source gives rules, not hands).
#[test]
fn the_atlantic_city_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("atlantic-city").unwrap();
    sets_as_said(
        &way,
        "
        # Not in the source as read: pitbook's reference rules.
        Ah Ad Ac As JK Kh Ks | Kh Ks | kings in front (pitbook's
        Ah Ad Ac As JK Qh Qs | As Ah | pair of aces in front (pitbook's
        9s 9h 9d 9c 4d 4c 2h | 4d 4c | and a pair: pair in front
        5s 5h 5d 5c Ad Kc 2h | Ad Kc | (2s to 6s): kept together
        Js Jh Jd Jc Ad 5c 2h | Ad 5c | with an ace: kept together
        9s 9h 9d 9c Kd 5c 2h | 9s 9h | (7s to jacks): split
        Ks Kh Kd Kc Ad 5c 2h | Ks Kh | (queens to aces): split
        # The source's rules.
        9s 9h 9d 5s 5h 5d Kc | 9s 9h | pair from the higher in front
        Ts Th Td 4s 4h As 2c | 4s 4h | Full house: split
        Ts Th Td 2s 2h As Kc | 2s 2h | Full house: split
        Ks Kh 8d 8c 3d 3c 2h | Ks Kh | Three pair: highest pair
        # Two pair: low-low and low-middle kept with a king or an ace.
        6s 6h 4d 4c Kd 8c 2h | Kd 8c | with a king or ace: both pairs
        9s 9h 4d 4c Ad 8c 2h | Ad 8c | with a king or ace: both pairs
        9s 9h 4d 4c Qd 8c 2h | 4d 4c | split, lower pair in front
        # Low-high and middle-middle kept with an ace only.
        Qs Qh 4d 4c Ad 8c 2h | Ad 8c | a high pair) with an ace
        Qs Qh 4d 4c Kd 8c 2h | 4d 4c | split, lower pair in front
        Ts Th 7d 7c JK 8c 2h | JK 8c | (both middle) with an ace
        Ts Th 7d 7c Kd 8c 2h | 7d 7c | split, lower pair in front
        # Middle-high, high-high and aces with any pair: always split.
        Js Jh 7d 7c Ad 8c 2h | 7d 7c | split, lower pair in front
        Ks Kh Qd Qc Ad 8c 2h | Qd Qc | split, lower pair in front
        As Ah 3d 3c Kd 8c 2h | 3d 3c | split, lower pair in front
        # Three of a kind.
        7h 7d 7s 8h 9h Th Jh | 7s 7d | straight flush behind, pair in front
        As Ah Ad 9c 7d 4c 2h | As 9c | Three aces: pair of aces behind
        7s 7h 7d Kc 9d 4c 2h | Kc 9d | Three of a kind: kept behind
        # One pair: in front when a straight or flush stays behind.
        Ks Kh 5d 6c 7s 8d 9c | Ks Kh | straight behind, pair in front
        5s 5h 6d 7c 8s 9d Kc | Kc 9d | One pair: pair behind
        # An ace-high straight with an ace and the joker: aces behind;
        # a lower straight without them is played, the aces in front.
        Ah JK Kd Qc Jh 5s 3d | Kd Qc | One pair: pair behind
        Ah JK Kd Qc Jh Ts 9d | Ah JK | straight behind, pair in front
        # No pair.
        Ac Kd 8s 7h 6c 5d 4h | Ac Kd | No pair: straight behind
        Ac Kd 9s 7h 5c 3d 2h | Kd 9s | second and third highest
        ",
    );
}

/// The Gold Star dealer school's way: a hand for each of its rules, and
/// the two-pair rule it was given (the source gives rules, not hands).
#[test]
fn the_gold_star_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("gold-star").unwrap();
    sets_as_said(
        &way,
        "
        Ah Ad Ac As JK Kh Ks | Kh Ks | five aces behind, kings in front
        Ah Ad Ac As JK Qh Qs | As Ah | three aces behind, two in front
        9s 9h 9d 9c 4d 4c 2h | 4d 4c | a pair in front
        9s 9h 9d 9c 4d 4c 4h | 4d 4h | a pair in front
        5s 5h 5d 5c Ad Kc 2h | Ad Kc | always kept together
        9s 9h 9d 9c Ad 5c 2h | Ad 5c | ace to play in front: kept together
        9s 9h 9d 9c Kd 5c 2h | 9s 9h | (7s to 10s): split
        Js Jh Jd Jc Ad 5c 2h | Js Jh | (jacks to aces): always split
        9s 9h 9d 5s 5h 5d Kc | 9s 9h | pair from the higher in front
        Ts Th Td 2s 2h As Kc | As Kc | kept together, A-K in front
        Ts Th Td 2s 2h As Qc | 2s 2h | Full house: three of a kind behind
        Ts Th Td 8s 8h 4s 4c | 8s 8h | Full house: three of a kind behind
        Ks Kh 8d 8c 3d 3c 2h | Ks Kh | Three pair: highest pair
        6s 6h 4d 4c Kd 8c 2h | Kd 8c | both pairs behind (typical
        Qs Qh 4d 4c Ad 8c 2h | Ad 8c | both pairs behind (typical
        Ts Th 7d 7c Ad 8c 2h | Ad 8c | both pairs behind (typical
        Js Jh 7d 7c Ad 8c 2h | 7d 7c | split, lower pair in front (typical
        As Ah Ad 9c 7d 4c 2h | As 9c | Three aces: split
        7s 7h 7d Kc 9d 4c 2h | Kc 9d | Three of a kind: kept behind
        # No rule for three of a kind with a straight flush: kept behind.
        7h 7d 7s 8h 9h Th Jh | Jh Th | Three of a kind: kept behind
        # A pair of 10s or better and an ace: pair/ace, straight or not.
        Ks Kh Ad Qc Jh Th 3d | Ad Qc | (10s or better) with an ace
        Ks Kh 5d 6c 7s 8d 9c | Ks Kh | straight behind, pair in front
        5s 5h 6d 7c 8s 9d Kc | Kc 9d | One pair: pair behind
        Ac Kd 8s 7h 6c 5d 4h | Ac Kd | No pair: straight behind
        Ac Kd 9s 7h 5c 3d 2h | Kd 9s | next two highest in front
        ",
    );
}
