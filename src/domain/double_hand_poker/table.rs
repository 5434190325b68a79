//! A card table's configuration (game profile, option overrides, seats,
//! collection schedules, wager limits); the Player-Dealer rotation
//! proposal lives in `rotation.rs` and is re-exported here. Pure: the store
//! keeps tables, the web shell shows them.

use serde::{Deserialize, Serialize};

use crate::common::field_error::AsFieldError;
use crate::common::money::Money;
use crate::double_hand_poker::options::{OptionOverrides, Profile, RuleOptions};
pub use crate::double_hand_poker::rotation::{PastHand, PdProposal, propose_pd};
use crate::double_hand_poker::settle::{
    ActionInput, BracketInput, CollectionInput, PdInput, Scenario, ScenarioInput, SettleError,
    WagerInput,
};

/// Longest table name, in characters.
pub const TABLE_NAME_CHARS_MAX: usize = 24;
pub const SEATS_MIN: i64 = 2;
pub const SEATS_MAX: i64 = 10;

/// A table as a supervisor configured it. Every hand opened at the table
/// records these rules in its `hand_opened` event.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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
        self.rules()
            .check_rotation()
            .map_err(|(field, message)| refuse(field, message))?;
        self.rules()
            .house_way()
            .map_err(|e| refuse("house_way", e.to_string()))?;
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
        let (wager, bank) = self.probe_amounts();
        Scenario::from_input(&self.probe(wager, bank))
            .map_err(|e| probe_refusal(&e, wager, bank))?;
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

    /// The probe hand's wager and bank: the smallest the table takes — the
    /// minimum wager, else the lowest amount its schedule collects on (a
    /// table whose schedule starts at 1 takes no smaller wager), else one
    /// unit — so the probe is a hand the table would accept.
    fn probe_amounts(&self) -> (Money, Money) {
        let unit = self.rules().min_unit;
        let lowest = |schedule: &Option<Vec<BracketInput>>| {
            schedule
                .as_deref()
                .and_then(|b| b.iter().map(|b| b.from).min())
                .filter(|&m| m > Money::ZERO && unit.is_multiple(m))
        };
        let wager = self
            .wager_min
            .or_else(|| lowest(&self.player_schedule))
            .unwrap_or(unit.amount());
        let bank = lowest(&self.bank_schedule).unwrap_or(unit.amount());
        (wager, bank)
    }

    fn probe(&self, wager: Money, bank: Money) -> ScenarioInput {
        ScenarioInput {
            profile: Some(self.profile),
            options: Some(self.options.clone()),
            seats: Some(self.seats),
            pd: PdInput {
                seat: 1,
                player: "probe".into(),
                bank,
            },
            action: ActionInput {
                seat: Some(2),
                ..ActionInput::default()
            },
            wagers: vec![WagerInput {
                id: "probe".into(),
                seat: 2,
                bettor: "probe".into(),
                amount: wager,
                backline: false,
                payout: None,
            }],
            outcomes: Some(crate::double_hand_poker::settle::SeatMap(vec![(
                "2".into(),
                crate::double_hand_poker::outcome::Outcome::Push,
            )])),
            hands: None,
            collection: self.collection(),
        }
    }
}

/// The probe hand's refusal as the form field it is about, in the words of
/// the form: a schedule's bracket by its number, never an internal path.
fn probe_refusal(e: &SettleError, wager: Money, bank: Money) -> TableError {
    let Some(fe) = e.field_error() else {
        return refuse("options", e.to_string());
    };
    let (path, message) = (fe.field(), fe.message());
    let schedule = |field: &'static str, rest: &str| {
        // `[0].from` → "bracket 1, from": the form numbers brackets from 1.
        let place = rest
            .strip_prefix('[')
            .and_then(|r| r.split_once(']'))
            .and_then(|(i, name)| {
                let n = i.parse::<usize>().ok()? + 1;
                Some(match name.trim_start_matches('.') {
                    "" => format!("bracket {n}: "),
                    name => format!("bracket {n} ({name}): "),
                })
            })
            .unwrap_or_default();
        refuse(field, format!("{place}{message}"))
    };
    if let Some(rest) = path.strip_prefix("collection.player") {
        schedule("player_schedule", rest)
    } else if let Some(rest) = path.strip_prefix("collection.bank") {
        schedule("bank_schedule", rest)
    } else if path == "wagers[0].amount" {
        refuse(
            "player_schedule",
            format!(
                "no bracket covers the smallest wager, {wager}: add one (fee 0 if it takes nothing)"
            ),
        )
    } else if path == "pd.bank" {
        refuse(
            "bank_schedule",
            format!("no bracket covers a bank of {bank}: add one (fee 0 if it takes nothing)"),
        )
    } else {
        refuse("options", fe.to_string())
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
    fn the_forms_example_schedule_is_accepted_and_a_gap_is_refused_in_plain_words() {
        let example = |min: Option<&str>| TableConfig {
            player_schedule: parse_schedule("player_schedule", "1-100:1, 100.01-5000:2").unwrap(),
            bank_schedule: parse_schedule("bank_schedule", "1-100:1, 100.01-5000:2").unwrap(),
            wager_min: min.map(|m| Money::parse(m).unwrap()),
            ..table()
        };
        assert_eq!(example(None).validate(), Ok(()));
        assert_eq!(example(Some("5")).validate(), Ok(()));
        // A minimum wager the schedule does not cover: refused on the schedule.
        let cases: Vec<(TableConfig, &str, &str)> = vec![
            (
                example(Some("0.50")),
                "player_schedule",
                "no bracket covers the smallest wager, 0.50: add one (fee 0 if it takes nothing)",
            ),
            (
                TableConfig {
                    player_schedule: parse_schedule("player_schedule", "1-100:1, 50-200:2")
                        .unwrap(),
                    ..table()
                },
                "player_schedule",
                "brackets 1.00..100.00 and 50.00..200.00 overlap",
            ),
            (
                TableConfig {
                    bank_schedule: parse_schedule("bank_schedule", "1-100:1.005").unwrap(),
                    ..table()
                },
                "bank_schedule",
                "bracket 1 (fee): ",
            ),
        ];
        for (config, field, message) in cases {
            let e = config.validate().unwrap_err();
            assert_eq!(e.field, field, "{e}");
            assert!(e.message.starts_with(message), "{e}");
            for internal in ["collection.", "wagers[", "pd.bank", "probe", "\"fee\""] {
                assert!(!e.message.contains(internal), "{e}");
            }
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
