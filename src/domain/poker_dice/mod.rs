//! Poker dice ("Caribeña", cubilete): five dice, six faces, five-card poker
//! without suits (../shared/rules/poker-dice.md). Faces and their two
//! profiles, the seven combinations (eight with `straights: ranked`), every
//! tie-break, names in Spanish and English, comparing hands, and a round
//! (`round.rs`). The request/response contract shared by the CLI and the
//! HTTP API is in `api.rs` (docs/dice-games.md). Pure: no IO.

mod api;
mod keeper;
mod round;
#[cfg(test)]
mod tests;

pub use api::*;
pub use keeper::*;
pub use round::*;

use std::fmt;

use serde::{Deserialize, Serialize};

/// Dice in a hand.
pub const DICE: usize = 5;

/// How the faces are named: `caribena` (A K Q J roja negra, the default) or
/// `classic` (A K Q J 10 9). Same structure, same ranking.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, utoipa::ToSchema,
)]
#[schema(as = PokerDiceProfile)]
#[serde(rename_all = "lowercase")]
pub enum Profile {
    #[default]
    Caribena,
    Classic,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::Caribena => "caribena",
            Profile::Classic => "classic",
        }
    }
}

/// Whether straights count: `none` (the seed) or `ranked` (between full and
/// tercia: A-K-Q-J-low1 above K-Q-J-low1-low2).
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize, utoipa::ToSchema,
)]
#[schema(as = PokerDiceStraights)]
#[serde(rename_all = "lowercase")]
pub enum Straights {
    #[default]
    None,
    Ranked,
}

/// A face, 0 (the lowest: negra / 9) to 5 (the ace).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Face(u8);

/// Per face, lowest first: symbol, Spanish name, Spanish singular and
/// plural (in names), English singular and plural.
struct FaceText {
    symbol: &'static str,
    es: &'static str,
    es_one: &'static str,
    es_many: &'static str,
    en_one: &'static str,
    en_many: &'static str,
}

const fn ft(
    symbol: &'static str,
    es: &'static str,
    es_one: &'static str,
    es_many: &'static str,
    en_one: &'static str,
    en_many: &'static str,
) -> FaceText {
    FaceText {
        symbol,
        es,
        es_one,
        es_many,
        en_one,
        en_many,
    }
}

const HIGH_FOUR: [FaceText; 4] = [
    ft("J", "Jack", "jack", "jacks", "jack", "jacks"),
    ft("Q", "Reina", "reina", "reinas", "queen", "queens"),
    ft("K", "Rey", "rey", "reyes", "king", "kings"),
    ft("A", "As", "as", "ases", "ace", "aces"),
];
const CARIBENA_LOW: [FaceText; 2] = [
    ft("N", "Negra", "negra", "negras", "black", "blacks"),
    ft("R", "Roja", "roja", "rojas", "red", "reds"),
];
const CLASSIC_LOW: [FaceText; 2] = [
    ft("9", "Nueve", "nueve", "nueves", "nine", "nines"),
    ft("10", "Diez", "diez", "dieces", "ten", "tens"),
];

impl Face {
    pub const ACE: Face = Face(5);
    pub const KING: Face = Face(4);
    pub const LOWEST: Face = Face(0);

    /// 0 (lowest) to 5 (ace); `None` outside.
    pub fn from_index(i: u8) -> Option<Face> {
        (i < 6).then_some(Face(i))
    }

    pub fn index(self) -> u8 {
        self.0
    }

    fn text(self, p: Profile) -> &'static FaceText {
        let i = usize::from(self.0.min(5));
        match (i, p) {
            (0 | 1, Profile::Caribena) => &CARIBENA_LOW[i],
            (0 | 1, Profile::Classic) => &CLASSIC_LOW[i],
            _ => &HIGH_FOUR[i - 2],
        }
    }

    /// `A K Q J R N` or `A K Q J 10 9`.
    pub fn symbol(self, p: Profile) -> &'static str {
        self.text(p).symbol
    }

    /// `As`, `Rey`, `Reina`, `Jack`, `Roja`, `Negra` (`Diez`, `Nueve`).
    pub fn name_es(self, p: Profile) -> &'static str {
        self.text(p).es
    }

    pub fn all() -> impl Iterator<Item = Face> {
        (0..6).map(Face)
    }
}

/// Every accepted spelling of a face (compared case-insensitively).
fn aliases(face: Face, p: Profile) -> &'static [&'static str] {
    match (face.0, p) {
        (5, _) => &["a", "as", "ace"],
        (4, _) => &["k", "rey", "king"],
        (3, _) => &["q", "reina", "queen"],
        (2, _) => &["j", "jack"],
        (1, Profile::Caribena) => &["r", "roja", "red"],
        (0, Profile::Caribena) => &["n", "negra", "black"],
        (1, Profile::Classic) => &["t", "10", "diez", "ten"],
        _ => &["9", "nueve", "nine"],
    }
}

fn profile_symbols(p: Profile) -> String {
    let mut faces: Vec<Face> = Face::all().collect();
    faces.reverse();
    faces
        .iter()
        .map(|f| f.symbol(p))
        .collect::<Vec<_>>()
        .join(" ")
}

fn unknown_face(token: &str, p: Profile) -> String {
    let shown: String = token.chars().take(20).collect();
    format!(
        "{shown:?} is not a face of the {} profile ({})",
        p.name(),
        profile_symbols(p)
    )
}

/// One face: a symbol or a name, any case.
pub fn parse_face(token: &str, p: Profile) -> Result<Face, String> {
    let lower = token.to_lowercase();
    Face::all()
        .find(|&f| aliases(f, p).contains(&lower.as_str()))
        .ok_or_else(|| unknown_face(token, p))
}

/// Longest face text accepted, in bytes.
pub const FACES_TEXT_MAX: usize = 200;

/// Faces separated by spaces and/or commas; a token that is not a face is
/// read letter by letter (`AAKQJ`, `aa10 9 9` in classic).
pub fn parse_faces(text: &str, p: Profile) -> Result<Vec<Face>, String> {
    if text.len() > FACES_TEXT_MAX {
        return Err(format!(
            "{} bytes of faces is more than {FACES_TEXT_MAX}",
            text.len()
        ));
    }
    let mut faces = Vec::new();
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        if let Ok(f) = parse_face(token, p) {
            faces.push(f);
            continue;
        }
        let mut rest = token;
        while let Some(c) = rest.chars().next() {
            if p == Profile::Classic && rest.starts_with("10") {
                faces.push(Face(1));
                rest = &rest[2..];
                continue;
            }
            let one = &rest[..c.len_utf8()];
            match parse_face(one, p) {
                Ok(f) => faces.push(f),
                Err(e) if token.len() == one.len() => return Err(e),
                Err(e) => {
                    let shown: String = token.chars().take(20).collect();
                    return Err(format!("{e} (in {shown:?})"));
                }
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    Ok(faces)
}

/// Exactly five faces.
pub fn parse_hand(text: &str, p: Profile) -> Result<[Face; DICE], String> {
    let faces = parse_faces(text, p)?;
    <[Face; DICE]>::try_from(faces.as_slice())
        .map_err(|_| format!("a hand is {DICE} dice, got {} ({text:?})", faces.len()))
}

/// The combinations, low to high (so `Ord` is the ranking).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceCombination)]
#[serde(rename_all = "snake_case")]
pub enum Combination {
    Nothing,
    Pair,
    TwoPair,
    Tercia,
    /// Only with `straights: ranked`.
    Straight,
    Full,
    Poker,
    Quintilla,
}

/// A hand's value: its combination, then the compared faces in order
/// (the group faces by size then face, or a straight's top face). Two hands
/// of the same combination have tie-break lists of the same length, so the
/// derived order is the rules file's order.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct HandRank {
    pub combination: Combination,
    pub tiebreak: Vec<Face>,
}

impl HandRank {
    /// One number with the same order: the combination, then each compared
    /// face, in base 7.
    pub fn value(&self) -> u32 {
        let mut v = self.combination as u32;
        for i in 0..DICE {
            v = v * 7 + self.tiebreak.get(i).map_or(0, |f| u32::from(f.0) + 1);
        }
        v
    }
}

/// `(count, face)` groups: biggest first, then highest face.
fn groups(dice: &[Face; DICE]) -> Vec<(u8, Face)> {
    let mut counts = [0u8; 6];
    for f in dice {
        counts[usize::from(f.0.min(5))] += 1;
    }
    let mut g: Vec<(u8, Face)> = Face::all()
        .filter(|f| counts[usize::from(f.0)] > 0)
        .map(|f| (counts[usize::from(f.0)], f))
        .collect();
    g.sort_by(|a, b| b.cmp(a));
    g
}

/// Ranks five dice.
pub fn evaluate(dice: &[Face; DICE], straights: Straights) -> HandRank {
    let g = groups(dice);
    let sizes: Vec<u8> = g.iter().map(|x| x.0).collect();
    let faces: Vec<Face> = g.iter().map(|x| x.1).collect();
    let combination = match sizes.as_slice() {
        [5] => Combination::Quintilla,
        [4, 1] => Combination::Poker,
        [3, 2] => Combination::Full,
        [3, 1, 1] => Combination::Tercia,
        [2, 2, 1] => Combination::TwoPair,
        [2, 1, 1, 1] => Combination::Pair,
        _ => {
            // Five different faces: one of the six is missing.
            let has_lowest = faces.contains(&Face::LOWEST);
            let has_ace = faces.contains(&Face::ACE);
            if straights == Straights::Ranked && (!has_lowest || !has_ace) {
                let top = if has_ace { Face::ACE } else { Face::KING };
                return HandRank {
                    combination: Combination::Straight,
                    tiebreak: vec![top],
                };
            }
            Combination::Nothing
        }
    };
    HandRank {
        combination,
        tiebreak: faces,
    }
}

/// The dice in the order they are ranked: the biggest group first.
pub fn ranked_order(dice: &[Face; DICE]) -> Vec<Face> {
    groups(dice)
        .into_iter()
        .flat_map(|(n, f)| std::iter::repeat_n(f, usize::from(n)))
        .collect()
}

fn first(rank: &HandRank) -> Face {
    rank.tiebreak.first().copied().unwrap_or(Face::ACE)
}

fn second(rank: &HandRank) -> Face {
    rank.tiebreak.get(1).copied().unwrap_or(Face::ACE)
}

/// "Full de ases y reyes", "Tercia de reinas", "Nada, as alto".
pub fn name_es(rank: &HandRank, p: Profile) -> String {
    let a = first(rank).text(p);
    let b = second(rank).text(p);
    match rank.combination {
        Combination::Quintilla => format!("Quintilla de {}", a.es_many),
        Combination::Poker => format!("Póker de {}", a.es_many),
        Combination::Full => format!("Full de {} y {}", a.es_many, b.es_many),
        Combination::Straight => format!("Escalera al {}", a.es_one),
        Combination::Tercia => format!("Tercia de {}", a.es_many),
        Combination::TwoPair => format!("Dos pares de {} y {}", a.es_many, b.es_many),
        Combination::Pair => format!("Par de {}", a.es_many),
        Combination::Nothing => format!("Nada, {} alto", a.es_one),
    }
}

/// "Full house, aces over kings", "Three queens", "Nothing, ace high".
pub fn name_en(rank: &HandRank, p: Profile) -> String {
    let a = first(rank).text(p);
    let b = second(rank).text(p);
    match rank.combination {
        Combination::Quintilla => format!("Five {}", a.en_many),
        Combination::Poker => format!("Four {}", a.en_many),
        Combination::Full => format!("Full house, {} over {}", a.en_many, b.en_many),
        Combination::Straight => format!("Straight, {} high", a.en_one),
        Combination::Tercia => format!("Three {}", a.en_many),
        Combination::TwoPair => format!("Two pair, {} and {}", a.en_many, b.en_many),
        Combination::Pair => format!("Pair of {}", a.en_many),
        Combination::Nothing => format!("Nothing, {} high", a.en_one),
    }
}

fn lower_first(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_lowercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Why `winner` beats `loser` (which it must outrank), in Spanish names and
/// in English: "Full de ases y reyes beats tercia de reinas"; when the names
/// are equal, the deciding die: "… beats tercia de reinas: rey over jack".
pub fn beats_reason(winner: &HandRank, loser: &HandRank, p: Profile) -> (String, String) {
    let (we, le) = (name_es(winner, p), name_es(loser, p));
    let (wn, ln) = (name_en(winner, p), name_en(loser, p));
    let mut es = format!("{we} beats {}", lower_first(&le));
    let mut en = format!("{wn} beats {}", lower_first(&ln));
    if we == le
        && let Some((w, l)) = winner
            .tiebreak
            .iter()
            .zip(&loser.tiebreak)
            .find(|(w, l)| w != l)
    {
        es.push_str(&format!(": {} over {}", w.text(p).es_one, l.text(p).es_one));
        en.push_str(&format!(": {} over {}", w.text(p).en_one, l.text(p).en_one));
    }
    (es, en)
}

/// Why hands tie: "Tie: full de ases y reyes each, equal in every compared die".
pub fn tie_reason(rank: &HandRank, p: Profile) -> (String, String) {
    (
        format!(
            "Tie: {} each, equal in every compared die",
            lower_first(&name_es(rank, p))
        ),
        format!(
            "Tie: {} each, equal in every compared die",
            lower_first(&name_en(rank, p))
        ),
    )
}

impl fmt::Display for Combination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = match self {
            Combination::Nothing => "nothing",
            Combination::Pair => "pair",
            Combination::TwoPair => "two_pair",
            Combination::Tercia => "tercia",
            Combination::Straight => "straight",
            Combination::Full => "full",
            Combination::Poker => "poker",
            Combination::Quintilla => "quintilla",
        };
        f.write_str(s)
    }
}
