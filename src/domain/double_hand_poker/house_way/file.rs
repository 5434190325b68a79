//! A house way as a file (docs/house-ways.md): a header, then rules tried
//! in order, each `when` what the hand holds, `play` where its cards go and
//! `say` the words the dealer reads. Parsed here into [`HouseWayFile`];
//! run by `program.rs`.

use std::fmt;

mod lines;
mod straight;

use straight::straight_or_flush_of;

/// The format lines a file can start with, by version: a `house-way 1`
/// file keeps its meaning; `house-way 2` adds `straight or flush without R`.
pub const FORMAT_LINES: [&str; 2] = ["house-way 1", "house-way 2"];
/// Longest file accepted, and most rules.
pub const FILE_BYTES_MAX: usize = 64 * 1024;
pub const RULES_MAX: usize = 200;
/// Longest name, title, source line or rule words.
const TEXT_CHARS_MAX: usize = 200;

/// A parsed house way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HouseWayFile {
    /// The format version its first line gives (1 or 2).
    pub version: u8,
    /// Its short name (`reference`, `foxwoods`): letters, digits and `-`.
    pub name: String,
    pub title: String,
    /// Where its rules come from, one line each.
    pub sources: Vec<String>,
    pub rules: Vec<Rule>,
}

/// One rule: when the hand holds this, play it so, and say so.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rule {
    /// The line of its `when`.
    pub line: usize,
    pub hand: HandClass,
    pub conditions: Vec<Condition>,
    pub play: Play,
    /// What the dealer says; `{played}` stands for "straight", "flush" or
    /// "straight flush" in a rule that plays one.
    pub words: String,
}

/// Inclusive ranks, 0 (2) to 12 (ace).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranks {
    pub low: u8,
    pub high: u8,
}

impl Ranks {
    pub const ALL: Ranks = Ranks { low: 0, high: 12 };

    pub fn holds(self, rank: u8) -> bool {
        (self.low..=self.high).contains(&rank)
    }
}

/// What the hand holds, the joker counted as an ace; each hand is exactly
/// one of these, taken from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HandClass {
    Any,
    /// Four aces and the joker.
    FiveAces,
    FourOfAKind(Ranks),
    /// A full house of two three of a kinds (also a `FullHouse`).
    TwoTrips,
    /// Three of a kind and a pair, or two three of a kinds.
    FullHouse,
    ThreePair,
    TwoPair,
    ThreeOfAKind(Ranks),
    OnePair,
    NoPair,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Condition {
    /// Holds a pair (exactly two) of a rank in the range.
    Pair(Ranks),
    /// The highest pair's rank is in the range.
    HighPair(Ranks),
    /// Four of a kind with another pair or three of a kind.
    WithPair,
    /// An ace is held once (the joker as an ace counts).
    AceSingle,
    /// The highest card held once is at least this rank.
    HighestSingleAtLeast(u8),
    /// The cards held once are exactly these ranks, highest first.
    Singles(Vec<u8>),
    Joker,
    NoJoker,
}

/// Which pair goes in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FrontPair {
    Rank(u8),
    Highest,
    Lower,
    /// Two cards of the higher three of a kind.
    HigherTrips,
    /// Four of a kind's other pair (or three of a kind).
    Other,
    /// Two of the four of a kind (split); with three aces and the joker,
    /// the ace that stays behind with the joker is the one that makes the
    /// best back.
    FromQuads,
}

/// The least front a straight or flush must leave.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtLeast {
    /// The front of `front singles A B`.
    Singles(usize, usize),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Play {
    FrontPair(FrontPair),
    /// The best two of the cards outside the four of a kind.
    FrontBest,
    /// The cards held once, numbered from the highest (1-based).
    FrontSingles(usize, usize),
    /// Three aces split: an ace and the highest single in front.
    FrontAceAndHighestSingle,
    /// A straight, flush or straight flush behind, leaving the best front
    /// (a pair if `pair_front`, at least `at_least`), made without any card
    /// of the ranks in `without` (a bit per rank, the joker as an ace:
    /// those go in front); the rule does not apply when none does.
    StraightOrFlush {
        pair_front: bool,
        without: u16,
        at_least: Option<AtLeast>,
    },
}

/// A file that does not parse: the line (1-based; 0 for the whole file),
/// what was expected and what was there.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("line {line}: {message}{}", found_text(.found))]
pub struct FileError {
    pub line: usize,
    pub message: String,
    pub found: String,
}

fn found_text(found: &str) -> String {
    if found.is_empty() {
        String::new()
    } else {
        format!(" (found \"{found}\")")
    }
}

fn error(line: usize, message: impl Into<String>, found: &str) -> FileError {
    FileError {
        line,
        message: message.into(),
        found: found.chars().take(80).collect(),
    }
}

/// A rank: `2`–`9`, `T` (or `10`), `J`, `Q`, `K`, `A`.
pub fn rank_of(text: &str) -> Option<u8> {
    const RANKS: &str = "23456789TJQKA";
    let t = text.to_ascii_uppercase();
    let t = if t == "10" { "T".to_string() } else { t };
    if t.len() != 1 {
        return None;
    }
    RANKS.find(&t).map(|i| i as u8)
}

pub fn rank_text(rank: u8) -> char {
    b"23456789TJQKA"
        .get(usize::from(rank))
        .map_or('?', |&b| char::from(b))
}

fn ranks_of(text: &str) -> Option<Ranks> {
    let (low, high) = match text.split_once('-') {
        Some((a, b)) => (rank_of(a)?, rank_of(b)?),
        None => {
            let r = rank_of(text)?;
            (r, r)
        }
    };
    (low <= high).then_some(Ranks { low, high })
}

fn text_of(n: usize, text: &str) -> Result<String, FileError> {
    if text.is_empty() || text.chars().count() > TEXT_CHARS_MAX {
        return Err(error(
            n,
            format!("expected 1 to {TEXT_CHARS_MAX} characters of text"),
            text,
        ));
    }
    Ok(text.to_string())
}

/// `five aces, pair K` → the hand and its conditions.
fn when_of(n: usize, text: &str) -> Result<(HandClass, Vec<Condition>), FileError> {
    let mut parts = text.split(',').map(str::trim);
    let first = parts.next().unwrap_or("");
    let hand = hand_of(first).ok_or_else(|| {
        error(
            n,
            "expected what the hand holds: any, five aces, four of a kind [ranks], two trips, \
             full house, three pair, two pair, three of a kind [ranks], one pair or no pair",
            first,
        )
    })?;
    let conditions = parts
        .map(|p| {
            condition_of(p).ok_or_else(|| {
                error(
                    n,
                    "expected a condition: pair R, high pair R-R, with pair, ace single, \
                     highest single at least R, singles R R…, joker or no joker",
                    p,
                )
            })
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok((hand, conditions))
}

fn hand_of(text: &str) -> Option<HandClass> {
    let with_ranks = |prefix: &str, make: fn(Ranks) -> HandClass| -> Option<HandClass> {
        let rest = text.strip_prefix(prefix)?.trim();
        if rest.is_empty() {
            Some(make(Ranks::ALL))
        } else {
            ranks_of(rest).map(make)
        }
    };
    Some(match text {
        "any" => HandClass::Any,
        "five aces" => HandClass::FiveAces,
        "two trips" => HandClass::TwoTrips,
        "full house" => HandClass::FullHouse,
        "three pair" => HandClass::ThreePair,
        "two pair" => HandClass::TwoPair,
        "one pair" => HandClass::OnePair,
        "no pair" => HandClass::NoPair,
        _ => {
            return with_ranks("four of a kind", HandClass::FourOfAKind)
                .or_else(|| with_ranks("three of a kind", HandClass::ThreeOfAKind));
        }
    })
}

fn condition_of(text: &str) -> Option<Condition> {
    Some(match text {
        "with pair" => Condition::WithPair,
        "ace single" => Condition::AceSingle,
        "joker" => Condition::Joker,
        "no joker" => Condition::NoJoker,
        _ => {
            if let Some(r) = text.strip_prefix("high pair ") {
                Condition::HighPair(ranks_of(r.trim())?)
            } else if let Some(r) = text.strip_prefix("pair ") {
                Condition::Pair(ranks_of(r.trim())?)
            } else if let Some(r) = text.strip_prefix("highest single at least ") {
                Condition::HighestSingleAtLeast(rank_of(r.trim())?)
            } else if let Some(r) = text.strip_prefix("singles ") {
                let ranks = r
                    .split_whitespace()
                    .map(rank_of)
                    .collect::<Option<Vec<u8>>>()?;
                let descending = ranks.windows(2).all(|w| w[0] > w[1]);
                if ranks.is_empty() || ranks.len() > 7 || !descending {
                    return None;
                }
                Condition::Singles(ranks)
            } else {
                return None;
            }
        }
    })
}

/// What a `play` line is read with: its line, the file's format version
/// and what the rule's `when` says the hand holds.
#[derive(Clone, Copy)]
struct PlayContext {
    line: usize,
    version: u8,
    hand: HandClass,
}

fn play_of(at: PlayContext, text: &str) -> Result<Play, FileError> {
    let bad = || {
        error(
            at.line,
            "expected a play: front pair R, front highest pair, front lower pair, \
             front pair from higher trips, front other pair, front pair from quads, front best, \
             front singles A B, front ace and highest single, or straight or flush \
             [with pair in front] [without R] [if front at least singles A B]",
            text,
        )
    };
    let play = match text {
        "front highest pair" => Play::FrontPair(FrontPair::Highest),
        "front lower pair" => Play::FrontPair(FrontPair::Lower),
        "front pair from higher trips" => Play::FrontPair(FrontPair::HigherTrips),
        "front other pair" => Play::FrontPair(FrontPair::Other),
        "front pair from quads" => Play::FrontPair(FrontPair::FromQuads),
        "front best" => Play::FrontBest,
        "front ace and highest single" => Play::FrontAceAndHighestSingle,
        _ => {
            if let Some(r) = text.strip_prefix("front pair ") {
                Play::FrontPair(FrontPair::Rank(rank_of(r.trim()).ok_or_else(bad)?))
            } else if let Some(r) = text.strip_prefix("front singles ") {
                let (a, b) = two_places(r).ok_or_else(bad)?;
                Play::FrontSingles(a, b)
            } else if let Some(rest) = text.strip_prefix("straight or flush") {
                straight_or_flush_of(at, rest, &bad)?
            } else {
                return Err(bad());
            }
        }
    };
    Ok(play)
}

/// `1 2` → (1, 2): two places among the singles, the first the higher.
fn two_places(text: &str) -> Option<(usize, usize)> {
    let mut it = text.split_whitespace().map(|p| p.parse::<usize>().ok());
    let (a, b) = (it.next()??, it.next()??);
    (it.next().is_none() && (1..=7).contains(&a) && a < b && b <= 7).then_some((a, b))
}

impl fmt::Display for Ranks {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.low == self.high {
            write!(f, "{}", rank_text(self.low))
        } else {
            write!(f, "{}-{}", rank_text(self.low), rank_text(self.high))
        }
    }
}

#[cfg(test)]
#[path = "file_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "shipped_ways_tests.rs"]
mod shipped_ways_tests;

#[cfg(test)]
#[path = "mgm_way_tests.rs"]
mod mgm_way_tests;
