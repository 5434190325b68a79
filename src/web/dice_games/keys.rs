//! The dice as keys on the keeper's pages (`templates/dice_games/keys.html`):
//! a row of face keys per die to throw (radios `die1`… in 10,000, `roll1`…
//! in poker dice) and poker dice's last throw as keys to hold (checkboxes
//! `hold1`…). What was tapped is read back into the text the engines parse
//! (`dice`, `rolled`, `held`), so every rule and refusal stays in the core;
//! a form that sends that text itself (an old page) is read as before.

use crate::domain::poker_dice::{Face, Profile, RoundResponse, parse_face};
use crate::web::Typed;
use crate::web::double_hand_poker::play::forms::Fields;

/// The text of the dice `name`: the faces tapped on the keys `{prefix}1`,
/// `{prefix}2`… in the form's order, or, when the form has none of those
/// keys, the text typed into `name`.
pub(super) fn dice_text(fields: &Fields, prefix: &str, name: &str) -> String {
    let is_key = |k: &str| {
        k.strip_prefix(prefix)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
    };
    let tapped: Vec<&str> = fields
        .0
        .iter()
        .filter(|(k, _)| is_key(k))
        .map(|(_, v)| v.as_str())
        .collect();
    if tapped.is_empty() {
        fields.get(name).to_string()
    } else {
        tapped.join(" ")
    }
}

/// A face key: the value it sends, the text on it, a word under it (poker
/// dice's `8 red`, `7 black`) and the face's Spanish name.
pub(super) struct FaceKey {
    pub value: &'static str,
    pub text: &'static str,
    pub word: &'static str,
    pub name: &'static str,
}

/// One die to throw: its row of face keys.
pub(super) struct DieRow {
    pub n: usize,
    /// The row's id (`die-1`, `roll-1`).
    pub id: String,
    /// Its radios' name (`die1`, `roll1`).
    pub name: String,
    /// The face tapped, kept when a throw is refused.
    pub picked: String,
}

/// `count` rows of keys: ids `{prefix}-N`, radios named `{prefix}N`.
pub(super) fn rows(prefix: &str, count: usize, typed: &[(String, String)]) -> Vec<DieRow> {
    (1..=count)
        .map(|n| {
            let name = format!("{prefix}{n}");
            DieRow {
                n,
                id: format!("{prefix}-{n}"),
                picked: typed.value_or(&name, ""),
                name,
            }
        })
        .collect()
}

/// 10,000's faces: 1 to 6.
pub(super) fn pips() -> Vec<FaceKey> {
    ["1", "2", "3", "4", "5", "6"]
        .into_iter()
        .map(|v| FaceKey {
            value: v,
            text: v,
            word: "",
            name: "",
        })
        .collect()
}

fn face_key(face: Face, p: Profile) -> FaceKey {
    let value = face.symbol(p);
    let (text, word) = match value {
        "R" => ("8", "red"),
        "N" => ("7", "black"),
        other => (other, ""),
    };
    FaceKey {
        value,
        text,
        word,
        name: face.name_es(p),
    }
}

/// Poker dice's faces, high to low, as the profile names them.
pub(super) fn faces(p: Profile) -> Vec<FaceKey> {
    let mut all: Vec<Face> = Face::all().collect();
    all.reverse();
    all.into_iter().map(|f| face_key(f, p)).collect()
}

/// The faces in words: `A As, …, 8 red = R (roja), 7 black = N (negra)`.
pub(super) fn faces_named(keys: &[FaceKey]) -> String {
    keys.iter()
        .map(|k| match k.word {
            "" => format!("{} {}", k.text, k.name),
            word => format!(
                "{} {word} = {} ({})",
                k.text,
                k.value,
                k.name.to_lowercase()
            ),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// A die of the last throw, to hold.
pub(super) struct HoldKey {
    /// Its checkbox's name (`hold1`…).
    pub name: String,
    pub face: FaceKey,
    /// Ticked (kept when a throw is refused).
    pub held: bool,
}

/// The dice of `player`'s last throw as keys to hold; none before a throw.
pub(super) fn holds(
    so_far: Option<&RoundResponse>,
    player: &str,
    p: Profile,
    typed: &[(String, String)],
) -> Vec<HoldKey> {
    let last = so_far
        .and_then(|r| r.players.iter().rfind(|v| v.name == player))
        .and_then(|v| v.throws.last());
    let dice = last.map_or(&[][..], |t| t.dice.as_slice());
    dice.iter()
        .filter_map(|symbol| parse_face(symbol, p).ok())
        .enumerate()
        .map(|(i, face)| {
            let name = format!("hold{}", i + 1);
            HoldKey {
                held: typed.checked(&name),
                name,
                face: face_key(face, p),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fields(pairs: &[(&str, &str)]) -> Fields {
        Fields(
            pairs
                .iter()
                .map(|(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        )
    }

    #[test]
    fn the_keys_tapped_are_the_dice_else_the_text_typed() {
        let tapped = fields(&[("die1", "1"), ("die3", "5"), ("dice", "6 6"), ("die", "2")]);
        assert_eq!(dice_text(&tapped, "die", "dice"), "1 5");
        let typed = fields(&[("dice", "1 1 2"), ("dice_left", "3")]);
        assert_eq!(dice_text(&typed, "die", "dice"), "1 1 2");
        assert_eq!(dice_text(&fields(&[]), "hold", "held"), "");
    }

    #[test]
    fn the_faces_are_named_in_words() {
        assert_eq!(
            faces_named(&faces(Profile::Caribena)),
            "A As, K Rey, Q Reina, J Jack, 8 red = R (roja), 7 black = N (negra)"
        );
        assert_eq!(
            faces_named(&faces(Profile::Classic)),
            "A As, K Rey, Q Reina, J Jack, 10 Diez, 9 Nueve"
        );
    }
}
