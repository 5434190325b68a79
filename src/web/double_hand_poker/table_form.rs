//! The table form a supervisor fills to create a table: the fields as
//! typed (shown again on a refusal) and their reading as a table
//! configuration, or the field at fault.

use serde::Deserialize;

use crate::domain::common::money::{Money, Unit};
use crate::domain::double_hand_poker::options::{HouseWayName, OptionOverrides, Profile};
use crate::domain::double_hand_poker::table::{TableConfig, parse_schedule};

#[derive(Deserialize, Default, Clone)]
pub(super) struct TableForm {
    /// The control is `table`: one named `name` would shadow the form's own
    /// `name` property (tests/server/form_names.rs).
    #[serde(default, rename = "table")]
    pub(super) name: String,
    #[serde(default)]
    pub(super) profile: String,
    #[serde(default)]
    pub(super) seats: String,
    #[serde(default)]
    pub(super) min_unit: String,
    #[serde(default)]
    pub(super) options: String,
    /// Empty: the profile's (the reference house way).
    #[serde(default)]
    pub(super) house_way: String,
    #[serde(default)]
    pub(super) player_schedule: String,
    #[serde(default)]
    pub(super) bank_schedule: String,
    #[serde(default)]
    pub(super) wager_min: String,
    #[serde(default)]
    pub(super) wager_max: String,
    /// "on" when the training box is ticked (absent otherwise).
    #[serde(default)]
    pub(super) training: String,
}

impl TableForm {
    pub(super) fn blank() -> TableForm {
        TableForm {
            profile: "lucky-chances".into(),
            seats: "7".into(),
            min_unit: "0.01".into(),
            ..TableForm::default()
        }
    }

    /// The form as a table configuration, or the field at fault.
    pub(super) fn config(&self) -> Result<TableConfig, (&'static str, String)> {
        let profile = Profile::parse(self.profile.trim()).ok_or_else(|| {
            (
                "profile",
                format!(
                    "\"{}\" is not lucky-chances, nevada or california-2026",
                    self.profile
                ),
            )
        })?;
        let seats: i64 = self
            .seats
            .trim()
            .parse()
            .map_err(|_| ("seats", format!("\"{}\" is not a whole number", self.seats)))?;
        let mut options: OptionOverrides = if self.options.trim().is_empty() {
            OptionOverrides::default()
        } else {
            serde_json::from_str(&self.options).map_err(|e| ("options", e.to_string()))?
        };
        if !self.house_way.trim().is_empty() {
            let name = HouseWayName::parse(self.house_way.trim()).ok_or_else(|| {
                (
                    "house_way",
                    format!("\"{}\" is not a house way", self.house_way),
                )
            })?;
            options.house_way = Some(name);
        }
        if !self.min_unit.trim().is_empty() {
            let unit = Unit::parse("min_unit", self.min_unit.trim())
                .map_err(|e| ("min_unit", e.to_string()))?;
            options.min_unit = Some(unit);
        }
        let money = |field: &'static str, text: &str| {
            let text = text.trim();
            (!text.is_empty())
                .then(|| Money::parse(text).map_err(|e| (field, format!("\"{text}\": {e}"))))
                .transpose()
        };
        let schedule =
            |field, text: &str| parse_schedule(field, text).map_err(|e| (e.field, e.message));
        let config = TableConfig {
            name: self.name.trim().to_string(),
            profile,
            options,
            seats,
            player_schedule: schedule("player_schedule", &self.player_schedule)?,
            bank_schedule: schedule("bank_schedule", &self.bank_schedule)?,
            wager_min: money("wager_min", &self.wager_min)?,
            wager_max: money("wager_max", &self.wager_max)?,
            training: match self.training.as_str() {
                "" => false,
                "on" | "true" => true,
                other => {
                    return Err(("training", format!("\"{other}\" is not on or off")));
                }
            },
        };
        config.validate().map_err(|e| match e.field {
            // The rotation options are typed in the options box.
            f if f.starts_with("pd_") || f.starts_with("tppp_") => {
                ("options", format!("{f}: {}", e.message))
            }
            f => (f, e.message),
        })?;
        Ok(config)
    }
}
