//! The raw JSON contract of a settlement scenario, exactly as sent by the CLI
//! and `POST /api/v1/settle`. These types only describe the shape: every rule
//! (ranges, limits, seats, uniqueness) is checked when they become a
//! [`super::Scenario`]. Unknown fields are errors at every level; money is a
//! JSON string (a JSON number is an error).

use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::common::money::Money;
use crate::double_hand_poker::action_dice::SEATS_MAX;
use crate::double_hand_poker::options::{OptionOverrides, Profile};
use crate::double_hand_poker::outcome::Outcome;

/// The whole scenario of one hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ScenarioInput {
    /// Rule profile; default `lucky-chances`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub profile: Option<Profile>,
    /// Any subset of the rule options, applied over the profile.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub options: Option<OptionOverrides>,
    /// Seats at the table; default 7.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seats: Option<i64>,
    pub pd: PdInput,
    pub action: ActionInput,
    /// In the order they were placed.
    pub wagers: Vec<WagerInput>,
    /// Per seat with wagers: who won. Exactly one of `outcomes` and `hands`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = outcomes_schema)]
    pub outcomes: Option<SeatMap<Outcome>>,
    /// Per seat with wagers, and the PD seat: the hands.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = hands_schema)]
    pub hands: Option<SeatMap<HandInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub collection: Option<CollectionInput>,
}

/// The Player-Dealer: seat, name and bank.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PdInput {
    pub seat: i64,
    pub player: String,
    pub bank: Money,
}

/// The ACTION seat, given directly (`{"seat": 4}`) or as three dice
/// (`{"dice": [4, 5, 3]}`); exactly one of the two.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ActionInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<Vec<i64>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seat: Option<i64>,
}

/// One wager, as placed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WagerInput {
    pub id: String,
    pub seat: i64,
    pub bettor: String,
    pub amount: Money,
    /// A bet on another player's seat; default false (the seat's own bet).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub backline: bool,
    /// Payout ratio "p:q"; default "1:1".
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub payout: Option<String>,
}

#[cfg(test)]
impl WagerInput {
    /// A wager for a test: id `w-SEAT-BETTOR`, paid 1:1.
    pub fn example(seat: i64, bettor: &str, amount: &str, backline: bool) -> WagerInput {
        WagerInput {
            id: format!("w-{seat}-{bettor}"),
            seat,
            bettor: bettor.into(),
            amount: Money::parse(amount).expect("a test amount"),
            backline,
            payout: None,
        }
    }
}

/// A seat's hand: set by the player (`high` + `low`), or seven cards set
/// by the house way (`cards` + `"set": "house"`).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct HandInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub high: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub low: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub set: Option<SetBy>,
}

/// Who sets seven cards given as `cards`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum SetBy {
    House,
}

/// Optional collection schedules.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CollectionInput {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<Vec<BracketInput>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank: Option<Vec<BracketInput>>,
}

/// A wager (or bank) from `from` to `to`, both inclusive, pays `fee`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct BracketInput {
    pub from: Money,
    pub to: Money,
    pub fee: Money,
}

/// `outcomes`' schema: a [`SeatMap`] of outcomes.
fn outcomes_schema() -> utoipa::openapi::schema::Schema {
    crate::common::schema::map_of(
        "Per seat with wagers (keyed by seat number text, \"4\"): who won.",
        <Outcome as utoipa::PartialSchema>::schema(),
    )
}

/// `hands`' schema: a [`SeatMap`] of hands.
fn hands_schema() -> utoipa::openapi::schema::Schema {
    crate::common::schema::map_of(
        "Per seat with wagers, and the PD seat (keyed by seat number text, \"4\"): the hands.",
        <HandInput as utoipa::PartialSchema>::schema(),
    )
}

/// A JSON object keyed by seat number text ("4"), kept in input order.
/// A key given twice is an error (plain maps would silently keep the last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatMap<V>(pub Vec<(String, V)>);

impl<V> Default for SeatMap<V> {
    fn default() -> Self {
        SeatMap(Vec::new())
    }
}

impl<V: Serialize> Serialize for SeatMap<V> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for SeatMap<V> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct SeatMapVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for SeatMapVisitor<V> {
            type Value = SeatMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an object keyed by seat number, e.g. {\"4\": ...}")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<SeatMap<V>, A::Error> {
                let mut entries: Vec<(String, V)> = Vec::new();
                while let Some(key) = access.next_key::<String>()? {
                    if entries.len() >= SEATS_MAX as usize {
                        return Err(serde::de::Error::custom(format!(
                            "more than {SEATS_MAX} seats given (a table has at most {SEATS_MAX})"
                        )));
                    }
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!(
                            "seat \"{key}\" is given twice"
                        )));
                    }
                    let value = access.next_value::<V>()?;
                    entries.push((key, value));
                }
                Ok(SeatMap(entries))
            }
        }
        d.deserialize_map(SeatMapVisitor(PhantomData))
    }
}
