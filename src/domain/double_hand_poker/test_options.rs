//! The rule options the setting and house-way tests play under.

use crate::double_hand_poker::options::{JokerRule, RuleOptions};

pub fn lucky() -> RuleOptions {
    RuleOptions::default()
}

pub fn wild() -> RuleOptions {
    RuleOptions {
        joker: JokerRule::Wild,
        ..RuleOptions::default()
    }
}
