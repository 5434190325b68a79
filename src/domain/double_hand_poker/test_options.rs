//! The rule options the setting and house-way tests play under.

use crate::domain::double_hand_poker::options::{JokerRule, RuleOptions};

pub(crate) fn lucky() -> RuleOptions {
    RuleOptions::default()
}

pub(crate) fn wild() -> RuleOptions {
    RuleOptions {
        joker: JokerRule::Wild,
        ..RuleOptions::default()
    }
}
