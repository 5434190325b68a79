//! The end of the game: the board to the Pot, the best last hand takes it,
//! odd chips nearest the dealer's left; and its bad input.

use serde_json::{Value, json};

use super::test_deals::*;
use super::*;

/// The last hand played from JSON input, as the CLI and the API read it.
fn run_final(input: &Value) -> Result<Outcome, TripoleyError> {
    play_final(&parse::<FinalInput>(input.to_string().as_bytes())?)
}

#[test]
fn final_hand_splits_with_odd_chips_nearest_the_dealers_left() {
    let input = json!({
        "players": TABLE,
        "dealer": "Bo",
        "chips": {"Ann": 10, "Bo": 0, "Cy": 5, "Dee": 7},
        "board": {"ace": 3, "kitty": 2, "pot": 6},
        "hands": {
            "Ann": "As Ks Qs Js 9d",
            "Bo": "2s 3d 4c 5h 7s",
            "Cy": "Ad Kd Qd Jd 9c",
            "Dee": "Ac Kc Qc Jc 9h"
        }
    });
    let out = run_final(&input).unwrap();
    let moves: Vec<(StepKind, Option<Section>, u64)> = out
        .steps
        .iter()
        .map(|s| (s.kind, s.section, s.chips))
        .collect();
    assert_eq!(
        moves,
        [
            (StepKind::ToPot, Some(Section::Ace), 3),
            (StepKind::ToPot, Some(Section::Kitty), 2),
            (StepKind::FinalPot, Some(Section::Pot), 4),
            (StepKind::FinalPot, Some(Section::Pot), 4),
            (StepKind::FinalPot, Some(Section::Pot), 3),
        ]
    );
    let winners: Vec<&str> = out.steps[2..]
        .iter()
        .map(|s| s.to.as_deref().unwrap_or(""))
        .collect();
    assert_eq!(winners, ["Cy", "Dee", "Ann"]);
    assert_eq!(out.board, Board::default());
    assert_eq!(out.chips.0.iter().map(|(_, c)| c).sum::<u64>(), 33);
}

#[test]
fn final_hand_single_winner_takes_everything() {
    let input = json!({
        "players": ["Ann", "Bo"],
        "dealer": "Ann",
        "chips": {"Ann": 1, "Bo": 2},
        "board": {"king_queen": 5, "eight_nine_ten": 4},
        "hands": {"Ann": ["2s", "2d", "5c", "7h", "9s"], "Bo": "3s 3d 3c 8h Ts"}
    });
    let out = run_final(&input).unwrap();
    let last = out.steps.last().unwrap();
    assert_eq!((last.to.as_deref(), last.chips), (Some("Bo"), 9));
    assert_eq!(
        last.explanation,
        "Last hand: Bo wins the Pot, 9 chips, with Three of a kind, threes (3c 3d 3s Ts 8h)."
    );
}

/// A change to a good input, and what the refusal must say.
type Case = (fn(&mut Value), &'static str);

#[test]
fn the_final_input_is_checked() {
    let good = json!({
        "players": ["Ann", "Bo"],
        "dealer": "Ann",
        "chips": {"Ann": 1, "Bo": 2},
        "hands": {"Ann": "2s 2d 5c 7h 9s", "Bo": "3s 3d 3c 8h Ts"}
    });
    assert!(run_final(&good).is_ok());
    let cases: [Case; 6] = [
        (
            |v| v["hands"]["Ann"] = json!("2s 2d 5c 7h"),
            "hands.Ann: 4 cards; the last hand is exactly 5",
        ),
        (
            |v| v["hands"]["Ann"] = json!("2s 2d 5c 7h Ts"),
            "hands.Bo: Ts is dealt twice (also in hands.Ann)",
        ),
        (
            |v| drop(v["hands"].as_object_mut().unwrap().remove("Bo")),
            "hands: no cards given for \"Bo\"",
        ),
        (
            |v| v["hands"]["Cy"] = json!("4s 4d 4c 4h As"),
            "hands.Cy: \"Cy\" is not at the table",
        ),
        (
            |v| v["dealer"] = json!("Cy"),
            "dealer: \"Cy\" is not among the players",
        ),
        (
            |v| v["profile"] = json!("classic"),
            "profile: unknown field `profile`",
        ),
    ];
    for (mutate, needle) in cases {
        let mut input = good.clone();
        mutate(&mut input);
        let err = run_final(&input).unwrap_err();
        assert!(err.is_bad_input(), "{err}");
        assert!(err.to_string().contains(needle), "{err} lacks {needle}");
    }
}
