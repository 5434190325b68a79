//! What the card and setting tests share: the rule options they evaluate
//! under and hands from card text.

use crate::domain::cards::{Card, parse_cards};
use crate::domain::double_hand_poker::options::{JokerRule, Profile, RuleOptions};

pub(crate) fn lucky() -> RuleOptions {
    RuleOptions::default()
}

pub(crate) fn nevada() -> RuleOptions {
    RuleOptions::for_profile(Profile::Nevada)
}

pub(crate) fn wild() -> RuleOptions {
    RuleOptions {
        joker: JokerRule::Wild,
        ..RuleOptions::default()
    }
}

/// `N` cards from text; panics (naming the text) on anything else.
fn hand<const N: usize>(text: &str) -> [Card; N] {
    <[Card; N]>::try_from(parse_cards(text).expect(text).as_slice()).expect(text)
}

pub(crate) fn five(text: &str) -> [Card; 5] {
    hand(text)
}

pub(crate) fn seven(text: &str) -> [Card; 7] {
    hand(text)
}
