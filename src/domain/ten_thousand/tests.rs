//! 10,000 scoring: every example of seed `003_…` read with the rules file,
//! keeps, straights, the straight across throws, bad score input, and
//! property tests (games are in `game_tests.rs`).

use proptest::prelude::*;

use super::*;

fn points_of(dice: &[u8]) -> Vec<u32> {
    keeps(&counts(dice), None)
        .iter()
        .map(|k| k.points)
        .collect()
}

fn score_of(dice: &[i64]) -> ScoreResponse {
    score(&ScoreRequest {
        dice: dice.to_vec(),
        ..ScoreRequest::default()
    })
    .unwrap()
}

#[test]
fn the_seeds_examples_read_with_the_rules_file() {
    assert_eq!(points_of(&[1, 1, 2, 3, 5, 6]), vec![50, 100, 150, 200, 250]);
    assert_eq!(points_of(&[2, 2, 2, 3, 5, 6]), vec![50, 200, 250]);
    assert_eq!(points_of(&[4, 4, 4, 4, 5, 6]), vec![50, 400, 450, 800, 850]);
    assert_eq!(
        points_of(&[1, 1, 3, 3, 3, 5]),
        (1..=11).map(|i| i * 50).collect::<Vec<_>>()
    );
    // No scoring die: a bust.
    assert!(points_of(&[2, 3, 4, 4, 6, 6]).is_empty());
    assert!(score_of(&[2, 3, 4, 4, 6, 6]).bust);
    // 4,4,4,4,6,6 is worth 800.
    assert_eq!(score_of(&[4, 4, 4, 4, 6, 6]).max, 800);
    // 1,1,3,3,3,5 all scorable for 550.
    assert_eq!(score_of(&[1, 1, 3, 3, 3, 5]).max, 550);
}

#[test]
fn keeps_list_the_dice() {
    let r = score_of(&[1, 1, 2, 3, 5, 6]);
    let shown: Vec<(Vec<u8>, u32)> = r.keeps.iter().map(|k| (k.dice.clone(), k.points)).collect();
    assert_eq!(
        shown,
        vec![
            (vec![5], 50),
            (vec![1], 100),
            (vec![1, 5], 150),
            (vec![1, 1], 200),
            (vec![1, 1, 5], 250)
        ]
    );
    assert_eq!(r.max, 250);
    assert!(!r.bust);
    let json = serde_json::to_value(score_of(&[2, 2, 2, 3, 5, 6])).unwrap();
    assert_eq!(
        json,
        serde_json::json!({"keeps": [
            {"dice": [5], "points": 50},
            {"dice": [2, 2, 2], "points": 200},
            {"dice": [2, 2, 2, 5], "points": 250}
        ], "max": 250, "bust": false})
    );
}

#[test]
fn three_or_more_of_a_kind_doubles_per_extra_die() {
    // The seed's table.
    let table: [(u8, [u32; 4]); 6] = [
        (1, [1000, 2000, 4000, 8000]),
        (2, [200, 400, 800, 1600]),
        (3, [300, 600, 1200, 2400]),
        (4, [400, 800, 1600, 3200]),
        (5, [500, 1000, 2000, 4000]),
        (6, [600, 1200, 2400, 4800]),
    ];
    for (face, values) in table {
        for (i, v) in values.iter().enumerate() {
            let n = 3 + i;
            assert_eq!(kind_points(face, n as u8), *v, "{n} × {face}");
            let dice = vec![face; n];
            assert_eq!(best_score(&counts(&dice)), Some(*v), "{dice:?}");
        }
    }
    // Four 5s are worth more as a group than as singles.
    assert_eq!(best_score(&counts(&[5, 5, 5, 5])), Some(1000));
    // Two 2s never score.
    assert_eq!(best_score(&counts(&[2, 2])), None);
}

#[test]
fn straights() {
    assert_eq!(best_score(&counts(&[1, 2, 3, 4, 5])), Some(1000));
    assert_eq!(best_score(&counts(&[2, 3, 4, 5, 6])), Some(1000));
    // The 1-6 straight kept whole is worth the 2-6 straight plus the 1.
    assert_eq!(best_score(&counts(&[1, 2, 3, 4, 5, 6])), Some(1100));
    assert_eq!(score_of(&[6, 5, 4, 3, 2, 1]).max, 1100);
    // 1-2-3-4-5 plus a 5: straight and single.
    assert_eq!(best_score(&counts(&[1, 2, 3, 4, 5, 5])), Some(1050));
    // 2-3-4-6 alone is nothing.
    assert_eq!(best_score(&counts(&[2, 3, 4, 6])), None);
}

#[test]
fn a_keep_never_holds_a_non_scoring_die() {
    for k in keeps(&counts(&[1, 2, 3, 4, 6, 6]), None) {
        assert!(!k.dice.contains(&6), "{k:?}");
        assert!(!k.dice.contains(&2), "{k:?}");
    }
    assert_eq!(dead_faces(&counts(&[1, 6]), None), vec![6]);
    assert_eq!(dead_faces(&counts(&[2, 2, 5]), None), vec![2]);
}

#[test]
fn five_dice_game() {
    let e = score(&ScoreRequest {
        dice: vec![1, 1, 2, 3, 5, 6],
        options: GameOptions {
            dice: Some(5),
            ..GameOptions::default()
        },
    })
    .unwrap_err();
    assert_eq!(e.field, "dice");
    assert!(e.message.contains("6 dice"), "{e}");
    let r = score(&ScoreRequest {
        dice: vec![1, 2, 3, 4, 5],
        options: GameOptions {
            dice: Some(5),
            ..GameOptions::default()
        },
    })
    .unwrap();
    assert_eq!(r.max, 1000);
}

#[test]
fn score_bad_input() {
    for (dice, field) in [
        (vec![], "dice"),
        (vec![1, 2, 3, 4, 5, 6, 1], "dice"),
        (vec![1, 7], "dice[1]"),
        (vec![0], "dice[0]"),
        (vec![-3], "dice[0]"),
    ] {
        let e = score(&ScoreRequest {
            dice,
            ..ScoreRequest::default()
        })
        .unwrap_err();
        assert_eq!(e.field, field, "{e}");
    }
    assert_eq!(parse_dice_text("112356").unwrap(), vec![1, 1, 2, 3, 5, 6]);
    assert_eq!(parse_dice_text("1, 1 2").unwrap(), vec![1, 1, 2]);
    assert_eq!(parse_dice_text("1 10").unwrap(), vec![1, 10]);
    assert!(parse_dice_text("1 x").unwrap_err().contains("\"x\""));
}

#[test]
fn straight_across_throws() {
    // Kept a 1 and a 5; the other four dice come up 2, 3, 4, 6 (six dice):
    // the 1-6 straight replaces the singles' 150.
    let across = Across {
        kept: counts(&[1, 5]),
    };
    assert_eq!(
        keep_points(&counts(&[2, 3, 4, 6]), Some(&across)),
        Some((850, true))
    );
    // Kept a 1; 2, 3, 4, 5 complete 1-5: 1000 - 100 = 900 more.
    let one = Across { kept: counts(&[1]) };
    assert_eq!(
        keep_points(&counts(&[2, 3, 4, 5]), Some(&one)),
        Some((900, true))
    );
    // 2-6 in the throw is a straight on its own (1000) and better.
    assert_eq!(
        keep_points(&counts(&[2, 3, 4, 5, 6]), Some(&one)),
        Some((1000, false))
    );
    // Without the earlier singles 2, 3, 4 score nothing.
    assert_eq!(keep_points(&counts(&[2, 3, 4, 6]), None), None);
    assert!(is_bust(&counts(&[2, 3, 4, 6]), None));
    assert!(!is_bust(&counts(&[2, 3, 4, 6]), Some(&across)));
}

fn any_throw() -> impl Strategy<Value = Vec<u8>> {
    proptest::collection::vec(1u8..=6, 1..=6)
}

proptest! {
    #[test]
    fn keeps_are_legal_and_bounded(dice in any_throw()) {
        let resp = score(&ScoreRequest { dice: dice.iter().map(|&d| i64::from(d)).collect(), ..ScoreRequest::default() }).unwrap();
        let c = counts(&dice);
        prop_assert_eq!(resp.bust, resp.keeps.is_empty());
        if resp.bust {
            prop_assert_eq!(resp.max, 0);
        }
        for k in &resp.keeps {
            prop_assert!(k.points <= resp.max);
            prop_assert!(k.points > 0);
            let kc = counts(&k.dice);
            // Within the throw, and no non-scoring die.
            prop_assert!((1..=6).all(|f| kc[f] <= c[f]));
            prop_assert!(dead_faces(&kc, None).is_empty());
            prop_assert_eq!(best_score(&kc), Some(k.points));
        }
        let mut seen: Vec<&Vec<u8>> = resp.keeps.iter().map(|k| &k.dice).collect();
        seen.sort();
        seen.dedup();
        prop_assert_eq!(seen.len(), resp.keeps.len());
        // A bust has no 1, no 5, no three of a kind and no straight.
        let has_single = c[1] > 0 || c[5] > 0;
        let has_kind = (1..=6).any(|f| c[f] >= 3);
        if !has_single && !has_kind {
            prop_assert!(resp.bust);
        }
        if has_single {
            prop_assert!(!resp.bust);
        }
    }

    #[test]
    fn keeps_after_single_ones_and_fives_are_legal(
        dice in proptest::collection::vec(1u8..=6, 1..=5),
        one in any::<bool>(),
        five in any::<bool>(),
    ) {
        prop_assume!(one || five);
        let singles: Vec<u8> = [one.then_some(1), five.then_some(5)].into_iter().flatten().collect();
        let across = Across { kept: counts(&singles) };
        let all = keeps(&counts(&dice), Some(&across));
        let max = all.iter().map(|k| k.points).max().unwrap_or(0);
        for k in &all {
            let kc = counts(&k.dice);
            prop_assert!(k.points <= max);
            prop_assert_eq!(keep_points(&kc, Some(&across)).map(|p| p.0), Some(k.points));
            prop_assert!(dead_faces(&kc, Some(&across)).is_empty());
        }
        prop_assert!(all.len() >= keeps(&counts(&dice), None).len());
    }
}
