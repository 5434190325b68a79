//! What the card tests share: the card rules they evaluate under and hands
//! from card text.

use crate::cards::rules::{CardRules, JokerRule, WheelRule};
use crate::cards::{Card, parse_cards};

/// The `lucky-chances` profile's card rules: joker a bug, wheel lowest.
pub fn lucky() -> CardRules {
    CardRules {
        joker: JokerRule::Bug,
        wheel: WheelRule::Lowest,
    }
}

pub fn nevada() -> CardRules {
    CardRules {
        wheel: WheelRule::SecondHighest,
        ..lucky()
    }
}

pub fn wild() -> CardRules {
    CardRules {
        joker: JokerRule::Wild,
        ..lucky()
    }
}

/// `N` cards from text; panics (naming the text) on anything else.
fn hand<const N: usize>(text: &str) -> [Card; N] {
    <[Card; N]>::try_from(parse_cards(text).expect(text).as_slice()).expect(text)
}

pub fn five(text: &str) -> [Card; 5] {
    hand(text)
}

pub fn seven(text: &str) -> [Card; 7] {
    hand(text)
}
