//! A card table's configuration (game profile, option overrides, seats,
//! collection schedules, wager limits); the Player-Dealer rotation
//! proposal lives in `rotation.rs` and is re-exported here. Pure: the store
//! keeps tables, the web shell shows them.

use serde::{Deserialize, Serialize};

use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::options::{OptionOverrides, Profile, RuleOptions};
pub use crate::domain::double_hand_poker::rotation::{PastHand, PdProposal, propose_pd};
use crate::domain::double_hand_poker::settle::{
    ActionInput, BracketInput, CollectionInput, PdInput, Scenario, ScenarioInput, WagerInput,
};

/// Longest table name, in characters.
pub const TABLE_NAME_CHARS_MAX: usize = 24;
pub const SEATS_MIN: i64 = 2;
pub const SEATS_MAX: i64 = 10;

/// A table as a supervisor configured it. Every hand opened at the table
/// records these rules in its `hand_opened` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableConfig {
    pub name: String,
    pub profile: Profile,
    #[serde(default)]
    pub options: OptionOverrides,
    pub seats: i64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player_schedule: Option<Vec<BracketInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank_schedule: Option<Vec<BracketInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wager_min: Option<Money>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub wager_max: Option<Money>,
    /// A training table: practice hands, which trainees may run too; its
    /// hands are recorded like any other but marked as practice.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub training: bool,
}

/// A table setting refused: the form field and why.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct TableError {
    pub field: &'static str,
    pub message: String,
}

fn refuse(field: &'static str, message: impl Into<String>) -> TableError {
    TableError {
        field,
        message: message.into(),
    }
}

impl TableConfig {
    /// Checks every setting; the rules and schedules are checked by the
    /// settlement engine itself, on a probe hand, so a table can never hold
    /// a setting its hands would refuse.
    pub fn validate(&self) -> Result<(), TableError> {
        let chars = self.name.chars().count();
        if chars == 0 || chars > TABLE_NAME_CHARS_MAX {
            return Err(refuse(
                "name",
                format!(
                    "\"{}\" must be 1..{TABLE_NAME_CHARS_MAX} characters",
                    self.name
                ),
            ));
        }
        if let Some(c) = self
            .name
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '_')))
        {
            // Names appear in page addresses as they are.
            return Err(refuse(
                "name",
                format!("\"{c}\" is not allowed: use letters, digits, \"-\" and \"_\""),
            ));
        }
        if !(SEATS_MIN..=SEATS_MAX).contains(&self.seats) {
            return Err(refuse(
                "seats",
                format!(
                    "{} is not a seat count of {SEATS_MIN}..{SEATS_MAX}",
                    self.seats
                ),
            ));
        }
        let unit = self.rules().min_unit;
        for (field, limit) in [("wager_min", self.wager_min), ("wager_max", self.wager_max)] {
            if let Some(m) = limit
                && (m <= Money::ZERO || !unit.is_multiple(m))
            {
                return Err(refuse(
                    field,
                    format!("{m} must be above zero and a multiple of {unit}"),
                ));
            }
        }
        if let (Some(lo), Some(hi)) = (self.wager_min, self.wager_max)
            && lo > hi
        {
            return Err(refuse(
                "wager_max",
                format!("{hi} is below the minimum {lo}"),
            ));
        }
        Scenario::from_input(&self.probe()).map_err(|e| {
            let text = e.to_string();
            let field = if text.starts_with("collection.player") {
                "player_schedule"
            } else if text.starts_with("collection.bank") {
                "bank_schedule"
            } else {
                "options"
            };
            refuse(field, text)
        })?;
        Ok(())
    }

    /// The rules in force: the profile with the overrides applied.
    pub fn rules(&self) -> RuleOptions {
        RuleOptions::for_profile(self.profile).with(&self.options)
    }

    /// The collection schedules, as a hand's `collection_taken` records them.
    pub fn collection(&self) -> Option<CollectionInput> {
        (self.player_schedule.is_some() || self.bank_schedule.is_some()).then(|| CollectionInput {
            player: self.player_schedule.clone(),
            bank: self.bank_schedule.clone(),
        })
    }

    fn probe(&self) -> ScenarioInput {
        let unit = self.rules().min_unit.amount();
        ScenarioInput {
            profile: Some(self.profile),
            options: Some(self.options.clone()),
            seats: Some(self.seats),
            pd: PdInput {
                seat: 1,
                player: "probe".into(),
                bank: unit,
            },
            action: ActionInput {
                seat: Some(2),
                ..ActionInput::default()
            },
            wagers: vec![WagerInput {
                id: "probe".into(),
                seat: 2,
                bettor: "probe".into(),
                amount: unit,
                backline: false,
                payout: None,
            }],
            outcomes: Some(crate::domain::double_hand_poker::settle::SeatMap(vec![(
                "2".into(),
                crate::domain::double_hand_poker::outcome::Outcome::Push,
            )])),
            hands: None,
            collection: self.collection(),
        }
    }
}

/// Parses a collection schedule typed as `FROM-TO:FEE` brackets separated
/// by commas or new lines (`1-100:1, 101-5000:2`); empty text is none.
pub fn parse_schedule(
    field: &'static str,
    text: &str,
) -> Result<Option<Vec<BracketInput>>, TableError> {
    let mut brackets = Vec::new();
    for part in text
        .split([',', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
    {
        let bad = || {
            refuse(
                field,
                format!("\"{part}\" is not FROM-TO:FEE (e.g. 1-100:1)"),
            )
        };
        let (range, fee) = part.split_once(':').ok_or_else(bad)?;
        let (from, to) = range.split_once('-').ok_or_else(bad)?;
        let money =
            |t: &str| Money::parse(t.trim()).map_err(|e| refuse(field, format!("\"{part}\": {e}")));
        brackets.push(BracketInput {
            from: money(from)?,
            to: money(to)?,
            fee: money(fee)?,
        });
    }
    Ok((!brackets.is_empty()).then_some(brackets))
}

/// The schedule back in the form's text.
pub fn schedule_text(brackets: Option<&[BracketInput]>) -> String {
    brackets
        .unwrap_or_default()
        .iter()
        .map(|b| format!("{}-{}:{}", b.from, b.to, b.fee))
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table() -> TableConfig {
        TableConfig {
            name: "DHP-1".into(),
            profile: Profile::LuckyChances,
            options: OptionOverrides::default(),
            seats: 7,
            player_schedule: None,
            bank_schedule: None,
            wager_min: None,
            wager_max: None,
            training: false,
        }
    }

    #[test]
    fn a_plain_table_is_valid() {
        assert_eq!(table().validate(), Ok(()));
    }

    #[test]
    fn bad_settings_name_their_field() {
        let cases: Vec<(TableConfig, &str)> = vec![
            (
                TableConfig {
                    name: String::new(),
                    ..table()
                },
                "name",
            ),
            (
                TableConfig {
                    name: "T<1>".into(),
                    ..table()
                },
                "name",
            ),
            (
                TableConfig {
                    seats: 11,
                    ..table()
                },
                "seats",
            ),
            (
                TableConfig {
                    seats: 1,
                    ..table()
                },
                "seats",
            ),
            (
                TableConfig {
                    wager_min: Some(Money::parse("0.005").unwrap()),
                    ..table()
                },
                "wager_min",
            ),
            (
                TableConfig {
                    wager_min: Some(Money::parse("50").unwrap()),
                    wager_max: Some(Money::parse("10").unwrap()),
                    ..table()
                },
                "wager_max",
            ),
            (
                TableConfig {
                    player_schedule: parse_schedule("player_schedule", "100-1:1").unwrap(),
                    ..table()
                },
                "player_schedule",
            ),
        ];
        for (config, field) in cases {
            assert_eq!(
                config.validate().map_err(|e| e.field),
                Err(field),
                "{config:?}"
            );
        }
    }

    #[test]
    fn schedules_parse_from_text_and_back() {
        let s = parse_schedule("player_schedule", "1-100:1,\n 100.01-5000:2").unwrap();
        assert_eq!(
            schedule_text(s.as_deref()),
            "1.00-100.00:1.00, 100.01-5000.00:2.00"
        );
        assert_eq!(parse_schedule("bank_schedule", "  ").unwrap(), None);
        let err = parse_schedule("bank_schedule", "1-100").unwrap_err();
        assert_eq!(err.field, "bank_schedule");
        assert!(err.message.contains("\"1-100\""), "{err}");
    }
}
