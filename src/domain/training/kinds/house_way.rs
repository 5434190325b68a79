//! House way: seven cards → set them by the reference house way
//! (`ReferenceHouseWay`, the rule that applies named). A setting is right
//! when it plays the same: the same high and low hand values as the house
//! way's (a 7♣ in front for the 7♥ is the same setting). Level 1: no joker;
//! level 2: the joker in the deck; level 3: hands a house-way rule from 1
//! to 7 sets (pairs, trips, straights and flushes, not rules 8–9).

use serde::Serialize;

use super::decide::{Hand, shuffled};
use crate::cards::{Card, format_cards, parse_cards};
use crate::common::field_error::FieldError;
use crate::double_hand_poker::house_way::{HouseWay, ReferenceHouseWay};
use crate::double_hand_poker::options::RuleOptions;
use crate::double_hand_poker::setting::SetHand;
use crate::training::Level;
use crate::training::answer_input::{AnswerInput, text};
use crate::training::rng::Rng;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = HouseWayQuestion)]
pub struct Question {
    /// Seven cards, canonical text.
    pub cards: String,
}

/// The house-way setting.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = HouseWayAnswer)]
pub struct Answer {
    pub high: String,
    pub low: String,
}

impl Question {
    pub fn words(&self) -> String {
        format!(
            "Set {} by the house way: which five cards go behind (high) and which two in front (low)?",
            self.cards
        )
    }
}

impl Answer {
    pub fn words(&self) -> String {
        format!("{} behind, {} in front.", self.high, self.low)
    }
}

fn seven(deck: &[Card]) -> [Card; 7] {
    let mut cards = [Card::JOKER; 7];
    cards.copy_from_slice(&deck[..7]);
    cards
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let opts = RuleOptions::default();
    let house = ReferenceHouseWay;
    let mut cards = seven(&shuffled(rng, level >= Level::MEDIUM));
    let mut set = house.set(&cards, &opts);
    if level >= Level::HARD {
        for _ in 0..32 {
            if !(set.rule.starts_with("No pair") || set.rule.starts_with("One pair: pair behind")) {
                break;
            }
            cards = seven(&shuffled(rng, true));
            set = house.set(&cards, &opts);
        }
    }
    let explanation = format!("House way: {}. Set {}.", set.rule, set.hand);
    let Hand { high, low } = Hand::of(&set.hand);
    (
        Question {
            cards: format_cards(&cards),
        },
        Answer { high, low },
        explanation,
    )
}

/// One side of the setting: exactly `n` cards, each one of the seven.
fn side(
    input: &serde_json::Value,
    field: &str,
    n: usize,
    seven: &[Card],
) -> Result<Vec<Card>, FieldError> {
    let given = text(input, field)?;
    let bad = |m: String| FieldError::new(field, m).with_value(given);
    let cards = parse_cards(given).map_err(|e| bad(format!("\"{given}\": {e}")))?;
    if cards.len() != n {
        return Err(bad(format!(
            "\"{given}\" is {} cards; the {field} hand is {n}",
            cards.len()
        )));
    }
    if let Some(c) = cards.iter().find(|c| !seven.contains(c)) {
        return Err(bad(format!("{c} is not one of the seven cards")));
    }
    Ok(cards)
}

pub(super) fn grade(q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["high", "low"])?;
    let opts = RuleOptions::default();
    let seven = parse_cards(&q.cards).unwrap_or_default();
    let high = side(fields.get("high")?, "high", 5, &seven)?;
    let low = side(fields.get("low")?, "low", 2, &seven)?;
    if let Some(c) = low.iter().find(|c| high.contains(c)) {
        return Err(
            FieldError::new("low", format!("{c} is in the high hand too"))
                .with_value(c.to_string()),
        );
    }
    let mut h = [Card::JOKER; 5];
    h.copy_from_slice(&high);
    let given = SetHand::new(h, [low[0], low[1]]);
    let correct = SetHand::parse(&a.high, &a.low, &opts)
        .map_err(|e| FieldError::new("answer", e.to_string()))?;
    Ok(given.high_rank(&opts) == correct.high_rank(&opts)
        && given.low_rank(&opts) == correct.low_rank(&opts))
}
