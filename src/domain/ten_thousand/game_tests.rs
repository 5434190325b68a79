//! 10,000 games: a turn kept throw by throw, busts, the straight across
//! throws in a game, thresholds, hot dice, the catch-up ending and bad
//! game input.

use super::*;

fn t(dice: &[i64], keep: Option<&[i64]>) -> ThrowRecord {
    ThrowRecord {
        dice: dice.to_vec(),
        keep: keep.map(<[i64]>::to_vec),
    }
}

fn turn(player: &str, throws: Vec<ThrowRecord>) -> TurnRecord {
    TurnRecord {
        player: player.into(),
        throws,
    }
}

/// One throw of six 1s: 8,000 recorded.
fn big(player: &str) -> TurnRecord {
    turn(player, vec![t(&[1; 6], Some(&[1; 6]))])
}

/// The straight 1-5 kept from 1-2-3-4-5-6: 1,000 recorded.
fn thousand(player: &str) -> TurnRecord {
    turn(player, vec![t(&[1, 2, 3, 4, 5, 6], Some(&[1, 2, 3, 4, 5]))])
}

fn bust(player: &str) -> TurnRecord {
    turn(player, vec![t(&[2, 3, 4, 4, 6, 6], None)])
}

fn game_of(turns: Vec<TurnRecord>) -> Result<ScoreSheet, TenThousandError> {
    game(&GameRequest {
        options: GameOptions::default(),
        players: vec!["Ana".into(), "Ben".into()],
        turns,
    })
}

#[test]
fn a_turn_keeps_throws_again_and_records() {
    let sheet = game_of(vec![turn(
        "Ana",
        vec![
            t(&[1, 1, 3, 3, 3, 5], Some(&[1, 1, 3, 3, 3, 5])), // hot dice, 550
            t(&[5, 2, 2, 3, 4, 6], Some(&[5])),                // 600
            t(&[1, 1, 1, 4, 6], Some(&[1, 1, 1])),             // 1,600
        ],
    )])
    .unwrap();
    let turn = &sheet.turns[0];
    assert_eq!(turn.result, TurnResult::Recorded);
    assert_eq!(turn.points, 1600);
    assert!(turn.throws[0].hot_dice);
    assert_eq!(turn.scores, vec![1600, 0]);
    assert!(!sheet.finished);
    assert_eq!(sheet.next_player.as_deref(), Some("Ben"));
}

#[test]
fn a_bust_after_keeping_loses_the_turn() {
    // The seed: 4,4,4,4,6,6 (800), the two 6s thrown again, no 1 or 5.
    let sheet = game_of(vec![turn(
        "Ana",
        vec![
            t(&[4, 4, 4, 4, 6, 6], Some(&[4, 4, 4, 4])),
            t(&[6, 3], None),
        ],
    )])
    .unwrap();
    assert_eq!(sheet.turns[0].result, TurnResult::Bust);
    assert_eq!(sheet.turns[0].lost, 800);
    assert_eq!(sheet.turns[0].points, 0);
    assert_eq!(sheet.totals[0].score, 0);
}

#[test]
fn the_straight_across_throws_in_a_game() {
    let sheet = game_of(vec![turn(
        "Ana",
        vec![
            t(&[1, 2, 2, 4, 6, 6], Some(&[1])),
            t(&[5, 3, 3, 6, 6], Some(&[5])),
            t(&[2, 3, 4, 6], Some(&[2, 3, 4, 6])), // completes 1-6: hot dice
            t(&[5, 2, 2, 3, 3, 4], Some(&[5])),
        ],
    )])
    .unwrap();
    let throws = &sheet.turns[0].throws;
    assert!(throws[2].straight_across);
    assert!(throws[2].hot_dice);
    assert_eq!(throws[2].turn_points, 1000);
    assert_eq!(sheet.turns[0].points, 1050);
}

#[test]
fn thresholds() {
    // Opening: a first turn below 1,000 cannot record.
    let e = game_of(vec![turn(
        "Ana",
        vec![t(&[4, 4, 4, 4, 6, 6], Some(&[4, 4, 4, 4]))],
    )])
    .unwrap_err();
    assert_eq!(e.field, "turns[0].throws[0]");
    assert!(e.message.contains("below the opening 1,000"), "{e}");
    // On the board: 400 records, 350 does not.
    let on = |last: TurnRecord| game_of(vec![big("Ana"), bust("Ben"), last]);
    let sheet = on(turn("Ana", vec![t(&[4, 4, 4, 2, 3, 6], Some(&[4, 4, 4]))])).unwrap();
    assert_eq!(sheet.totals[0].score, 8400);
    let e = on(turn(
        "Ana",
        vec![t(&[3, 3, 3, 5, 2, 6], Some(&[3, 3, 3, 5]))],
    ))
    .unwrap_err();
    assert!(e.message.contains("below min_record 400"), "{e}");
    // Options change them.
    let sheet = game(&GameRequest {
        options: GameOptions {
            opening: Some(500),
            min_record: Some(300),
            ..GameOptions::default()
        },
        players: vec!["Ana".into(), "Ben".into()],
        turns: vec![turn(
            "Ana",
            vec![t(&[4, 4, 4, 4, 6, 6], Some(&[4, 4, 4, 4]))],
        )],
    })
    .unwrap();
    assert_eq!(sheet.totals[0].score, 800);
}

#[test]
fn hot_dice_must_roll() {
    let record = |must: bool| {
        game(&GameRequest {
            options: GameOptions {
                hot_dice_must_roll: Some(must),
                ..GameOptions::default()
            },
            players: vec!["Ana".into(), "Ben".into()],
            turns: vec![big("Ana")],
        })
    };
    assert_eq!(record(false).unwrap().totals[0].score, 8000);
    let e = record(true).unwrap_err();
    assert!(e.message.contains("hot_dice_must_roll"), "{e}");
}

#[test]
fn the_catch_up_ending() {
    // Ana reaches 16,000; Ben gets one more turn and busts: Ana wins.
    let sheet = game_of(vec![big("Ana"), bust("Ben"), big("Ana"), bust("Ben")]).unwrap();
    assert!(sheet.finished);
    assert_eq!(sheet.winner.as_deref(), Some("Ana"));
    assert!(
        sheet.reason.starts_with("Ana wins with 16,000"),
        "{}",
        sheet.reason
    );
    // A turn after the end is refused.
    let e = game_of(vec![
        big("Ana"),
        bust("Ben"),
        big("Ana"),
        bust("Ben"),
        bust("Ana"),
    ])
    .unwrap_err();
    assert_eq!(e.field, "turns[4]");
    assert!(e.message.contains("a turn after the game ended"), "{e}");
    // Before Ben's catch-up turn the game is not over.
    let sheet = game_of(vec![big("Ana"), bust("Ben"), big("Ana")]).unwrap();
    assert!(!sheet.finished);
    assert_eq!(sheet.next_player.as_deref(), Some("Ben"));
    // Ben catches up and passes: Ana gets a turn; she busts; Ben wins.
    let sheet = game_of(vec![
        big("Ana"),
        big("Ben"),
        big("Ana"),      // 16,000
        big("Ben"),      // 16,000: equals, so Ana throws again
        thousand("Ana"), // 17,000 passes: Ben throws again
        bust("Ben"),
    ])
    .unwrap();
    assert!(sheet.finished);
    assert_eq!(sheet.winner.as_deref(), Some("Ana"));
    assert_eq!(sheet.totals[0].score, 17000);
}

#[test]
fn game_bad_input() {
    let bad = |turns: Vec<TurnRecord>, field: &str, needle: &str| {
        let e = game_of(turns).unwrap_err();
        assert_eq!(e.field, field, "{e}");
        assert!(e.message.contains(needle), "{e} lacks {needle}");
    };
    bad(vec![bust("Ben")], "turns[0].player", "Ana throws now");
    bad(
        vec![turn("Ana", vec![t(&[1, 2, 3, 4, 6, 6], Some(&[1, 6]))])],
        "turns[0].throws[0].keep",
        "6 does not score",
    );
    bad(
        vec![turn("Ana", vec![t(&[1, 2, 3, 4, 6, 6], Some(&[5]))])],
        "turns[0].throws[0].keep",
        "5 is not in the throw",
    );
    bad(
        vec![turn("Ana", vec![t(&[1, 2, 3, 4, 6, 6], None)])],
        "turns[0].throws[0].keep",
        "a keep of at least one scoring die is needed",
    );
    bad(
        vec![turn("Ana", vec![t(&[2, 3, 4, 4, 6, 6], Some(&[2]))])],
        "turns[0].throws[0].keep",
        "is a bust",
    );
    bad(
        vec![turn(
            "Ana",
            vec![
                t(&[1, 2, 3, 4, 6, 6], Some(&[1])),
                t(&[1, 2, 3], Some(&[1])),
            ],
        )],
        "turns[0].throws[1].dice",
        "5 dice are left",
    );
    bad(
        vec![turn(
            "Ana",
            vec![t(&[2, 3, 4, 4, 6, 6], None), t(&[1; 6], Some(&[1; 6]))],
        )],
        "turns[0].throws[1]",
        "a throw after the bust",
    );
    bad(
        vec![turn("Ana", vec![t(&[1, 2, 3, 4, 6, 9], Some(&[1]))])],
        "turns[0].throws[0].dice[5]",
        "9 is not a die",
    );
    bad(vec![turn("Ana", vec![])], "turns[0].throws", "0 throws");
    let e = game(&GameRequest {
        players: vec!["Ana".into()],
        ..GameRequest::default()
    })
    .unwrap_err();
    assert_eq!(e.field, "players");
    let e = game(&GameRequest {
        players: (0..5).map(|i| format!("P{i}")).collect(),
        ..GameRequest::default()
    })
    .unwrap_err();
    assert_eq!(e.field, "players");
    let e = game(&GameRequest {
        options: GameOptions {
            dice: Some(7),
            ..GameOptions::default()
        },
        players: vec!["Ana".into(), "Ben".into()],
        turns: vec![],
    })
    .unwrap_err();
    assert_eq!(e.field, "options.dice");
}
