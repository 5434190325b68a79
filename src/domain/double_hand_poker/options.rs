//! Rule profiles and options for Double Hand Poker and its bank settlement.
//! A profile is a named set of defaults; each option can be overridden alone.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::domain::cards::rules::CardRules;
pub use crate::domain::cards::rules::{JokerRule, WheelRule};
use crate::domain::common::money::Unit;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, Default)]
#[serde(rename_all = "kebab-case")]
pub enum Profile {
    /// The defaults of the rules files.
    #[default]
    LuckyChances,
    /// Wheel second-highest, otherwise as `lucky-chances`.
    Nevada,
}

impl Profile {
    pub fn name(self) -> &'static str {
        match self {
            Profile::LuckyChances => "lucky-chances",
            Profile::Nevada => "nevada",
        }
    }

    pub fn parse(text: &str) -> Option<Profile> {
        match text {
            "lucky-chances" => Some(Profile::LuckyChances),
            "nevada" => Some(Profile::Nevada),
            _ => None,
        }
    }
}

impl fmt::Display for Profile {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What happens to a fouled player hand (option `foul`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FoulRule {
    Loses,
    ResetHouseWay,
}

/// Order of backline wagers within a seat (option `backline_order`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BacklineOrder {
    Placement,
    LargestFirst,
}

/// Every rule option, resolved: a profile's defaults with overrides applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct RuleOptions {
    pub profile: Profile,
    pub joker: JokerRule,
    pub wheel: WheelRule,
    pub foul: FoulRule,
    pub push_consumes_action: bool,
    pub backline_order: BacklineOrder,
    pub min_unit: Unit,
    pub pd_min_wagers: u32,
}

/// A subset of options to override; unknown names are errors.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OptionOverrides {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub joker: Option<JokerRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wheel: Option<WheelRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub foul: Option<FoulRule>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub push_consumes_action: Option<bool>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub backline_order: Option<BacklineOrder>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_unit: Option<Unit>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub pd_min_wagers: Option<u32>,
}

impl RuleOptions {
    pub fn for_profile(profile: Profile) -> RuleOptions {
        let lucky = RuleOptions {
            profile,
            joker: JokerRule::Bug,
            wheel: WheelRule::Lowest,
            foul: FoulRule::Loses,
            push_consumes_action: false,
            backline_order: BacklineOrder::Placement,
            min_unit: Unit::CENT,
            pd_min_wagers: 3,
        };
        match profile {
            Profile::LuckyChances => lucky,
            Profile::Nevada => RuleOptions {
                wheel: WheelRule::SecondHighest,
                ..lucky
            },
        }
    }

    pub fn with(mut self, o: &OptionOverrides) -> RuleOptions {
        self.joker = o.joker.unwrap_or(self.joker);
        self.wheel = o.wheel.unwrap_or(self.wheel);
        self.foul = o.foul.unwrap_or(self.foul);
        self.push_consumes_action = o.push_consumes_action.unwrap_or(self.push_consumes_action);
        self.backline_order = o.backline_order.unwrap_or(self.backline_order);
        self.min_unit = o.min_unit.unwrap_or(self.min_unit);
        self.pd_min_wagers = o.pd_min_wagers.unwrap_or(self.pd_min_wagers);
        self
    }
}

/// The joker and wheel options are what the card kernel reads.
impl From<&RuleOptions> for CardRules {
    fn from(opts: &RuleOptions) -> CardRules {
        CardRules {
            joker: opts.joker,
            wheel: opts.wheel,
        }
    }
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions::for_profile(Profile::LuckyChances)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nevada_differs_only_in_wheel() {
        let lucky = RuleOptions::for_profile(Profile::LuckyChances);
        let nevada = RuleOptions::for_profile(Profile::Nevada);
        assert_eq!(nevada.wheel, WheelRule::SecondHighest);
        assert_eq!(
            RuleOptions {
                wheel: lucky.wheel,
                profile: lucky.profile,
                ..nevada
            },
            lucky
        );
    }

    #[test]
    fn overrides_apply_alone_and_unknown_names_fail() {
        let o: OptionOverrides = serde_json::from_str(r#"{"push_consumes_action": true}"#).unwrap();
        let opts = RuleOptions::default().with(&o);
        assert!(opts.push_consumes_action);
        assert_eq!(opts.foul, FoulRule::Loses);
        assert!(serde_json::from_str::<OptionOverrides>(r#"{"pushes": true}"#).is_err());
        assert!(serde_json::from_str::<OptionOverrides>(r#"{"foul": "maybe"}"#).is_err());
    }
}
