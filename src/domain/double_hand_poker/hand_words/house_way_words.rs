//! Which house-way rule set a hand, in words: the reference's nine rules
//! as the rules file words them, the rule a house way's note names, and
//! the preview page's seven cards set by a house way.

use super::super::options::HouseWayName;
use super::super::tools::{self, CardsRequest, ToolError};
use super::{CardFace, HandWords, joker_name, wheel_name};

/// Which house-way rule set a hand: its number and title in the rules
/// file, what that rule says, and the house way's own words for this hand.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HouseWayWords {
    /// The house way's name; the numbers and the rules file's words below
    /// are the reference's, so another way has neither.
    pub way: String,
    /// 1..9 for the reference house way; None for a rule it does not name.
    pub number: Option<u8>,
    pub title: &'static str,
    /// The rule as the rules file words it.
    pub says: &'static str,
    /// The house way's note for this hand ("Two pair: split, lower pair in front").
    pub note: String,
}

/// The reference house way's rules (`double-hand-poker.md`, "House way").
pub const HOUSE_WAY_RULES: [(&str, &str); 9] = [
    (
        "Five aces",
        "A pair of aces in front, three aces behind — unless the hand also has a pair \
         of kings: then the kings go in front, five aces behind.",
    ),
    (
        "Four of a kind",
        "2s to 6s stay together behind (best front from the rest); 7s to jacks split \
         into two pairs (one pair in front) unless an ace or the joker can go in front, \
         then they stay together; queens to aces always split. With four of a kind and a \
         pair, the pair goes in front and the four stay together.",
    ),
    (
        "Full house",
        "Split: the highest available pair in front, three of a kind behind. Exception: \
         when the pair is 2s and an ace and a king are left over for the front, keep the \
         full house behind and put A-K in front.",
    ),
    (
        "Three pair",
        "The highest pair in front, the other two pairs behind.",
    ),
    (
        "Two pair",
        "If a straight or flush can be played behind with a pair in front, do that. \
         Otherwise split (higher pair behind, lower pair in front) — except when the \
         higher pair is 10s or lower and an ace (or the joker) is left over: then keep \
         both pairs behind with the ace and the next best card in front.",
    ),
    (
        "Three of a kind",
        "Three aces (or two aces and the joker) split — a pair of aces behind, an ace and \
         the best remaining card in front. Other three of a kind stay behind with the best \
         front, unless a straight or flush can be played behind with a front at least as \
         good, which is then preferred.",
    ),
    (
        "Straight, flush, straight flush",
        "Among all the straights, flushes and straight flushes the hand allows, play the \
         one that leaves the best front; with one pair, only if the front it leaves is at \
         least as good as the one-pair rule's.",
    ),
    (
        "One pair",
        "The pair behind, the two highest other cards in front.",
    ),
    (
        "No pair",
        "The highest card behind, the second and third highest in front.",
    ),
];

/// The number (1..9) of the reference house way's rule that wrote `note`.
pub fn house_way_rule_number(note: &str) -> Option<u8> {
    let starts = |p: &str| note.starts_with(p);
    Some(if starts("Five aces") {
        1
    } else if starts("Four of a kind") {
        2
    } else if starts("Full house") || starts("Two three of a kinds") {
        3
    } else if starts("Three pair") {
        4
    } else if starts("Two pair") {
        5
    } else if starts("Three aces") || starts("Three of a kind") {
        6
    } else if starts("One pair: pair behind") {
        8
    } else if starts("No pair: highest card behind") {
        9
    } else if starts("One pair:") || starts("No pair:") {
        7
    } else {
        return None;
    })
}

impl HouseWayWords {
    /// The words of `note`, which the house way named `way` wrote.
    pub fn of(note: &str, way: &str) -> HouseWayWords {
        let reference = way == HouseWayName::Reference.name();
        let number = house_way_rule_number(note).filter(|_| reference);
        let (title, says) = number.map_or(("House way", ""), |n| HOUSE_WAY_RULES[n as usize - 1]);
        HouseWayWords {
            way: way.to_string(),
            number,
            title,
            says,
            note: note.to_string(),
        }
    }
}

/// Seven cards set by the reference house way, in words (the preview page).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HouseWayPreview {
    /// The seven cards as given.
    pub cards: Vec<CardFace>,
    pub high: HandWords,
    pub low: HandWords,
    pub house_way: HouseWayWords,
    /// "profile lucky-chances, joker bug, wheel lowest".
    pub rules: String,
}

/// The house way's setting of seven cards, in words; bad cards refused as
/// `tools::house_way` refuses them (the field is `cards`).
pub fn house_way_preview(req: &CardsRequest) -> Result<HouseWayPreview, ToolError> {
    let r = tools::house_way(req)?;
    Ok(HouseWayPreview {
        cards: r.cards.iter().copied().map(CardFace::of).collect(),
        high: HandWords::of(&r.high.cards, r.high.rank),
        low: HandWords::of(&r.low.cards, r.low.rank),
        house_way: HouseWayWords::of(&r.house_way.rule, &r.house_way.name),
        rules: format!(
            "profile {}, joker {}, wheel {}",
            r.rules.profile,
            joker_name(r.rules.joker),
            wheel_name(r.rules.wheel)
        ),
    })
}
