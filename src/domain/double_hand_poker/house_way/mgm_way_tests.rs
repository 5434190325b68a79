//! The MGM Grand way (`ways/mgm.txt`, format 2): a hand for each of its
//! rules with the setting its source gives (or, where the source as read
//! is silent, the one its comments choose), the ace kept in front of a
//! straight or flush with a pair of 10s to kings, and every hand pattern
//! set without a foul under every joker and wheel rule.

use super::super::census::check_patterns;
use super::super::loaded::rule_sets;
use super::super::shipped;
use super::shipped_ways_tests::sets_as_said;

#[test]
fn the_mgm_way_sets_a_hand_of_each_rule_as_its_source_says() {
    let way = shipped("mgm").unwrap();
    assert_eq!(way.version, 2);
    sets_as_said(
        &way,
        "
        # Not in the source as read: pitbook's reference rules.
        Ah Ad Ac As JK Kh Ks | Kh Ks | kings in front (pitbook's
        Ah Ad Ac As JK Qh Qs | As Ah | aces in front (pitbook's
        9s 9h 9d 9c 4d 4c 2h | 4d 4c | and a pair: pair in front
        5s 5h 5d 5c Ad Kc 2h | Ad Kc | (2s to 6s): kept together
        9s 9h 9d 9c Ad 5c 2h | Ad 5c | with an ace: kept together
        9s 9h 9d 9c Kd 5c 2h | 9s 9h | (7s to jacks): split
        Ks Kh Kd Kc Ad 5c 2h | Ks Kh | (queens to aces): split
        Ts Th Td 2s 2h As Kc | As Kc | kept together, A-K in front
        Ts Th Td 4s 4h As 2c | 4s 4h | Full house: split
        # Two three of a kinds, three pair.
        9s 9h 9d 5s 5h 5d Kc | 9s 9h | pair from the higher
        Ks Kh 8d 8c 3d 3c 2h | Ks Kh | Three pair: highest pair
        # Two pair: low-low (pitbook's choice), low-medium and
        # medium-medium kept behind with an ace only.
        6s 6h 4d 4c Ad 8c 2h | Ad 8c | the other low or medium) with an ace
        6s 6h 4d 4c Kd 8c 2h | 4d 4c | split, lower pair in front
        9s 9h 4d 4c Ad 8c 2h | Ad 8c | the other low or medium) with an ace
        Ts Th 7d 7c JK 8c 2h | JK 8c | the other low or medium) with an ace
        Ts Th 7d 7c Kd 8c 2h | 7d 7c | split, lower pair in front
        # Low-high with an ace; medium-high, high-high, aces: split.
        Qs Qh 4d 4c Ad 8c 2h | Ad 8c | a low pair and a high pair
        Js Jh 7d 7c Ad 8c 2h | 7d 7c | split, lower pair in front
        Ks Kh Qd Qc Ad 8c 2h | Qd Qc | split, lower pair in front
        As Ah 3d 3c Kd 8c 2h | 3d 3c | split, lower pair in front
        # Three of a kind.
        7h 7d 7s 8h 9h Th Jh | 7s 7d | straight flush behind, pair in front
        As Ah Ad 9c 7d 4c 2h | As 9c | Three aces: pair of aces behind
        7s 7h 7d Kc 9d 4c 2h | Kc 9d | Three of a kind: kept behind
        # One pair of 10s to kings and an ace: a straight or flush only
        # without the ace, the ace and a ten in front — never the flush
        # the ace makes with the tens in front.
        Td Tc As Ks Qs Js 9s | As Td | straight behind made without the ace
        Td Tc JK Ks Qs Js 9s | JK Td | straight behind made without the ace
        Kd Kc As 9d 7d 4d 2d | As Kc | flush behind made without the ace
        Td Tc As Kh Qd Jc 3s | As Kh | pair behind, ace and next highest
        Ks Kh Ad Qc Jh Th 3d | Ad Qc | pair behind, ace and next highest
        # One pair: the pair in front when a straight or flush stays
        # behind, else the highest front it leaves.
        Ks Kh 5d 6c 7s 8d 9c | Ks Kh | One pair: straight behind
        5s 5h 6d 7c 8s 9d Kc | Kc 5s | One pair: straight behind
        9s 9h Ad Qc 8h 5h 3d | Ad Qc | pair behind, two highest
        # No pair.
        Ac Kd 8s 7h 6c 5d 4h | Ac Kd | No pair: straight behind
        Ac Kd 9s 7h 5c 3d 2h | Kd 9s | second and third highest
        ",
    );
}

/// What a load checks, on the shipped MGM file: under every joker and
/// wheel rule each hand pattern is set by a rule and none fouls.
#[test]
fn the_mgm_way_sets_every_hand_pattern_without_a_foul_under_every_rule() {
    let way = shipped("mgm").unwrap();
    for opts in rule_sets() {
        let counts = check_patterns(&way, &opts);
        assert_eq!(
            (counts.unset, counts.fouled),
            (0, 0),
            "{opts:?}: {counts:?}"
        );
        assert!(
            counts.by_rule.iter().all(|&n| n > 0),
            "every rule sets a hand: {counts:?}"
        );
    }
}
