//! Player names in Tripoley, poker dice and 10,000 are free text
//! (`domain::common::text::FreeText`): trimmed, NFC, no control, zero-width or
//! bidi character, a length limit; "Jose\u{301}" and "José" are one player.

use pitbook::domain::poker_dice::{Profile as DiceProfile, RoundKeeper, Straights};
use pitbook::domain::ten_thousand::{GameOptionsRecord, Keeper};
use pitbook::domain::tripoley::Profile;
use pitbook::domain::tripoley::game::{GameSetup, TripoleyGame};

/// (second player's name as typed, words the error must hold)
fn refused() -> Vec<(String, &'static str)> {
    vec![
        (
            "Bo\u{200B}".into(),
            "players[1]: \"Bo\\u{200B}\" contains U+200B",
        ),
        (
            "Bo\u{202E}x".into(),
            "players[1]: \"Bo\\u{202E}x\" contains U+202E",
        ),
        (
            "Bo\u{7}".into(),
            "players[1]: \"Bo\\u{0007}\" contains U+0007",
        ),
        ("x".repeat(41), "at most 40"),
        ("Jose\u{301}".into(), "players[1]"),
    ]
}

fn tripoley(second: &str) -> Result<TripoleyGame, String> {
    TripoleyGame::start(&GameSetup {
        profile: Profile::Classic,
        players: vec!["José".into(), second.into(), "Cy".into()],
        chips_each: 40,
        chip_value: pitbook::domain::common::money::Money::parse("0.25").unwrap(),
        ante: 1,
        bet_limit: 10,
    })
    .map_err(|e| e.to_string())
}

#[test]
fn tripoley_names_are_free_text() {
    for (name, words) in refused() {
        let e = tripoley(&name).expect_err(&name);
        assert!(e.contains(words), "{name:?}: {e}");
    }
    let e = tripoley("Jose\u{301}").unwrap_err();
    assert!(e.contains("at the table twice"), "{e}");
    let game = tripoley("  Zoe\u{308} ").unwrap();
    assert_eq!(game.players[1], "Zoë");
}

#[test]
fn ten_thousand_names_are_free_text() {
    let keeper = |second: &str| {
        Keeper::new(
            vec!["José".into(), second.into()],
            GameOptionsRecord::default(),
        )
        .map_err(|e| e.to_string())
    };
    for (name, words) in refused() {
        let e = keeper(&name).expect_err(&name);
        assert!(e.contains(words), "{name:?}: {e}");
    }
    let e = keeper("Jose\u{301}").unwrap_err();
    assert!(e.contains("already a player"), "{e}");
    assert!(keeper(" Zoe\u{308}").is_ok());
}

#[test]
fn poker_dice_names_are_free_text() {
    let keeper = |second: &str| {
        RoundKeeper::new(
            vec!["Ann".into(), second.into()],
            DiceProfile::Caribena,
            Straights::None,
            false,
        )
        .map_err(|e| e.to_string())
    };
    for (name, words) in refused().into_iter().take(4) {
        let e = keeper(&name).expect_err(&name);
        assert!(e.contains(words), "{name:?}: {e}");
    }
    let k = keeper(" Zoe\u{308} ").unwrap();
    assert_eq!(k.players[1], "Zoë");
}
