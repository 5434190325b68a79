//! Cards of the 53-card deck (52 + one joker): a compact `u8` representation,
//! parsing of the text form of the rules file and canonical formatting.
//!
//! Text form: rank `A K Q J T 9 8 7 6 5 4 3 2` (also `10`), suit `s h d c`
//! (also `♠ ♥ ♦ ♣`), case-insensitive; the joker is `JK` (also `Joker`).
//! Output is always canonical: `As`, `Th`, `JK`.
//!
//! The card kernel Double Hand Poker and Tripoley share, with the hand
//! evaluation (`eval`).

pub mod eval;
pub mod rules;
mod schema;
pub mod seven;
#[cfg(test)]
pub mod test_hands;

use crate::common::field_error::{AsFieldError, FieldError};
use std::fmt;
use std::str::FromStr;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use rules::{CardRules, JokerRule};

/// Card rank, `Two` (0) to `Ace` (12).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Rank {
    Two = 0,
    Three,
    Four,
    Five,
    Six,
    Seven,
    Eight,
    Nine,
    Ten,
    Jack,
    Queen,
    King,
    Ace,
}

impl Rank {
    /// All ranks, lowest first.
    pub const ALL: [Rank; 13] = [
        Rank::Two,
        Rank::Three,
        Rank::Four,
        Rank::Five,
        Rank::Six,
        Rank::Seven,
        Rank::Eight,
        Rank::Nine,
        Rank::Ten,
        Rank::Jack,
        Rank::Queen,
        Rank::King,
        Rank::Ace,
    ];

    /// The rank with index `i` (0 = two … 12 = ace).
    pub fn from_index(i: u8) -> Option<Rank> {
        Rank::ALL.get(i as usize).copied()
    }

    pub fn index(self) -> u8 {
        self as u8
    }

    /// Canonical character: `2`…`9`, `T`, `J`, `Q`, `K`, `A`.
    pub fn char(self) -> char {
        b"23456789TJQKA"[self as usize] as char
    }

    /// "ace", "king", … "two".
    pub fn name(self) -> &'static str {
        [
            "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack",
            "queen", "king", "ace",
        ][self as usize]
    }

    /// "aces", "kings", … "sixes", … "twos".
    pub fn plural(self) -> &'static str {
        [
            "twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
            "jacks", "queens", "kings", "aces",
        ][self as usize]
    }
}

/// Card suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
pub enum Suit {
    Spades = 0,
    Hearts,
    Diamonds,
    Clubs,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// Canonical character: `s`, `h`, `d`, `c`.
    pub fn char(self) -> char {
        b"shdc"[self as usize] as char
    }
}

/// One card: `rank * 4 + suit` for the 52 standard cards, 52 for the joker.
/// Ordered by rank, then suit; the joker sorts above every other card.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Card(u8);

impl Card {
    /// The one joker of the deck.
    pub const JOKER: Card = Card(52);

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank as u8 * 4 + suit as u8)
    }

    /// The card with this compact index (0..=52), if any.
    pub fn from_index(index: u8) -> Option<Card> {
        (index <= 52).then_some(Card(index))
    }

    /// The compact index: `rank * 4 + suit`, 52 for the joker.
    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn is_joker(self) -> bool {
        self.0 == 52
    }

    /// `None` for the joker.
    pub fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Rank::from_index(self.0 >> 2)
        }
    }

    /// `None` for the joker.
    pub fn suit(self) -> Option<Suit> {
        if self.is_joker() {
            None
        } else {
            Suit::ALL.get((self.0 & 3) as usize).copied()
        }
    }

    /// The full deck: 52 cards then the joker.
    pub fn deck() -> impl Iterator<Item = Card> {
        (0..=52).map(Card)
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.char(), s.char()),
            _ => f.write_str("JK"),
        }
    }
}

impl FromStr for Card {
    type Err = CardError;
    fn from_str(s: &str) -> Result<Card, CardError> {
        parse_card(s)
    }
}

impl Serialize for Card {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Card {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Card, D::Error> {
        let text = String::deserialize(d)?;
        parse_card(&text).map_err(serde::de::Error::custom)
    }
}

/// Bad card input. Every message names the offending value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CardError {
    #[error("unknown card \"{0}\"")]
    Unknown(String),
    #[error("card \"{0}\" appears twice")]
    Duplicate(Card),
    #[error("expected {expected} cards, got {got}")]
    Count { expected: usize, got: usize },
    #[error("expected 5 or 2 cards, got {got}")]
    FiveOrTwo { got: usize },
    #[error("{side} hand: expected {expected} cards, got {got}")]
    SideCount {
        side: &'static str,
        expected: usize,
        got: usize,
    },
    #[error("the joker is not in play under this profile")]
    JokerNotInPlay,
}

/// A card error names no field: whoever read the cards knows which field
/// held them ([`crate::double_hand_poker::tools::ToolError`],
/// `HandError::Cards`, `SettleError::Cards`).
impl AsFieldError for CardError {
    fn field_error(&self) -> Option<FieldError> {
        None
    }
}

/// One card as [`parse_card`] reads it, as a JSON Schema (ECMA-262)
/// pattern without anchors: `JK` or `joker` in any case, or a rank (`10`
/// or one of `2-9 T J Q K A`, any case) and a suit (`s h d c` in any case,
/// or its symbol).
pub const CARD_PATTERN: &str =
    "(?:[Jj][Kk]|[Jj][Oo][Kk][Ee][Rr]|(?:10|[2-9TtJjQqKkAa])[SsHhDdCc♠♤♥♡♦♢♣♧])";

/// A text of cards as [`parse_cards`] reads it, as a JSON Schema pattern:
/// one of `counts` cards, separated by spaces or commas (or nothing: a
/// run typed without spaces).
pub fn cards_pattern(counts: &[usize]) -> String {
    let sep = "[\\s,]*";
    let one = |n: usize| format!("(?:{CARD_PATTERN}{sep}){{{n}}}");
    let any: Vec<String> = counts.iter().map(|&n| one(n)).collect();
    format!("^{sep}(?:{})$", any.join("|"))
}

/// Parses one card in any accepted text form.
pub fn parse_card(text: &str) -> Result<Card, CardError> {
    let t = text.trim();
    let unknown = || CardError::Unknown(t.to_string());
    if t.eq_ignore_ascii_case("jk") || t.eq_ignore_ascii_case("joker") {
        return Ok(Card::JOKER);
    }
    let mut chars = t.chars();
    let suit_char = chars.next_back().ok_or_else(unknown)?;
    let suit = match suit_char.to_ascii_lowercase() {
        's' | '♠' | '♤' => Suit::Spades,
        'h' | '♥' | '♡' => Suit::Hearts,
        'd' | '♦' | '♢' => Suit::Diamonds,
        'c' | '♣' | '♧' => Suit::Clubs,
        _ => return Err(unknown()),
    };
    // One ASCII character (any case) or `10`; compared without building
    // an upper-cased copy.
    let rank = match chars.as_str().as_bytes() {
        b"10" => Rank::Ten,
        [c] => match c.to_ascii_uppercase() {
            b'A' => Rank::Ace,
            b'K' => Rank::King,
            b'Q' => Rank::Queen,
            b'J' => Rank::Jack,
            b'T' => Rank::Ten,
            b'9' => Rank::Nine,
            b'8' => Rank::Eight,
            b'7' => Rank::Seven,
            b'6' => Rank::Six,
            b'5' => Rank::Five,
            b'4' => Rank::Four,
            b'3' => Rank::Three,
            b'2' => Rank::Two,
            _ => return Err(unknown()),
        },
        _ => return Err(unknown()),
    };
    Ok(Card::new(rank, suit))
}

/// Parses cards separated by whitespace and/or commas. A card named twice is
/// an error. An empty text gives no cards (callers check the count).
pub fn parse_cards(text: &str) -> Result<Vec<Card>, CardError> {
    let mut cards = Vec::new();
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        match parse_card(token) {
            Ok(card) => cards.push(card),
            // Cards typed without spaces ("AsKd10h", as a dealer types
            // fastest); refused as the token typed when they are not.
            Err(e) => cards.extend(parse_run(token).ok_or(e)?),
        }
    }
    check_unique(&cards)?;
    Ok(cards)
}

/// A run of cards with nothing between them: each a rank (`10` or one
/// character) then a suit, or the joker `JK`.
fn parse_run(run: &str) -> Option<Vec<Card>> {
    let chars: Vec<char> = run.chars().collect();
    let mut cards = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let joker = chars.len() - i >= 2
            && chars[i].eq_ignore_ascii_case(&'j')
            && chars[i + 1].eq_ignore_ascii_case(&'k');
        let ten = chars[i] == '1' && chars.get(i + 1) == Some(&'0');
        let width = if joker || !ten { 2 } else { 3 };
        let card: String = chars.get(i..i + width)?.iter().collect();
        cards.push(parse_card(&card).ok()?);
        i += width;
    }
    Some(cards)
}

/// Parses exactly `N` cards and checks them as a deal under `opts`.
pub fn parse_exact<const N: usize>(
    text: &str,
    opts: impl Into<CardRules>,
) -> Result<[Card; N], CardError> {
    let cards = parse_cards(text)?;
    check_deal(&cards, opts)?;
    <[Card; N]>::try_from(cards.as_slice()).map_err(|_| CardError::Count {
        expected: N,
        got: cards.len(),
    })
}

/// A deal never names a card twice, and has no joker when the profile has none.
pub fn check_deal(cards: &[Card], opts: impl Into<CardRules>) -> Result<(), CardError> {
    check_unique(cards)?;
    if opts.into().joker == JokerRule::None && cards.iter().any(|c| c.is_joker()) {
        return Err(CardError::JokerNotInPlay);
    }
    Ok(())
}

fn check_unique(cards: &[Card]) -> Result<(), CardError> {
    let mut seen = 0u64;
    for &c in cards {
        let bit = 1u64 << c.index();
        if seen & bit != 0 {
            return Err(CardError::Duplicate(c));
        }
        seen |= bit;
    }
    Ok(())
}

/// Space-separated canonical text: `As Kd JK`.
pub fn format_cards(cards: &[Card]) -> String {
    let mut out = String::with_capacity(cards.len() * 3);
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        // As `Display` writes it, without a string per card.
        match (c.rank(), c.suit()) {
            (Some(r), Some(s)) => {
                out.push(r.char());
                out.push(s.char());
            }
            _ => out.push_str("JK"),
        }
    }
    out
}

/// Cards as a request gives them: one string (spaces and/or commas) or an
/// array of card strings, both parsed later so errors name the field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CardsGiven {
    Text(String),
    List(Vec<String>),
}

impl CardsGiven {
    /// Reads either form; anything else is refused as "expected {expecting}".
    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
        expecting: &'static str,
    ) -> Result<CardsGiven, D::Error> {
        struct V(&'static str);
        impl<'de> Visitor<'de> for V {
            type Value = CardsGiven;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.0)
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<CardsGiven, E> {
                Ok(CardsGiven::Text(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<CardsGiven, A::Error> {
                let mut cards = Vec::new();
                while let Some(card) = seq.next_element::<String>()? {
                    cards.push(card);
                }
                Ok(CardsGiven::List(cards))
            }
        }
        d.deserialize_any(V(expecting))
    }
}

#[cfg(test)]
mod tests;
