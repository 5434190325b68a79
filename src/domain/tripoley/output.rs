//! The result JSON of a round and of the end of the game.

use rust_decimal::Decimal;
use serde::ser::SerializeMap;
use serde::{Serialize, Serializer};

use super::board::{Board, Ledger};
use super::step::Step;
use crate::common::money::Money;

/// Values by player name, serialized as a JSON object in seating order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Named<T>(pub Vec<(String, T)>);

impl<T> Named<T> {
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }
}

impl<T: Serialize> Serialize for Named<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

fn by_name(
    description: &str,
    values: impl Into<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>>,
) -> utoipa::openapi::schema::Schema {
    crate::common::schema::map_of(description, values)
}

fn chips_after_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "Each player's chips after, in seating order.",
        crate::common::schema::plain(utoipa::openapi::schema::Type::Integer),
    )
}

fn net_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "What each player won (positive) or lost (negative), in chips.",
        crate::common::schema::plain(utoipa::openapi::schema::Type::Integer),
    )
}

fn money_schema() -> utoipa::openapi::schema::Schema {
    by_name(
        "With `chip_value`: each player's chips after, in money.",
        <Money as utoipa::PartialSchema>::schema(),
    )
}

/// Every payout as a step, then the chips after: each player's and each
/// section's, what each player won or lost, and the table's constant total;
/// with `chip_value`, the players' chips in money.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyOutcome)]
pub struct Outcome {
    pub steps: Vec<Step>,
    #[schema(schema_with = chips_after_schema)]
    pub chips: Named<u64>,
    pub board: Board,
    #[schema(schema_with = net_schema)]
    pub net: Named<i64>,
    /// Players' chips plus the board's: the same before and after.
    pub total: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub chip_value: Option<Money>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = money_schema)]
    pub money: Option<Named<Money>>,
}

/// A round's result: the outcome and who deals next (one to the left).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyRoundOutcome)]
pub struct RoundOutput {
    #[serde(flatten)]
    pub outcome: Outcome,
    pub next_dealer: String,
}

impl Outcome {
    pub fn from_ledger(ledger: Ledger, before: &[u64], chip_value: Option<Money>) -> Outcome {
        let total = ledger.total();
        let names = ledger.names;
        let chips = Named(
            names
                .iter()
                .cloned()
                .zip(ledger.chips.iter().copied())
                .collect(),
        );
        let net = Named(
            names
                .iter()
                .zip(ledger.chips.iter().zip(before))
                .map(|(n, (&after, &before))| (n.clone(), after as i64 - before as i64))
                .collect(),
        );
        let money = chip_value.map(|v| {
            Named(
                names
                    .iter()
                    .zip(&ledger.chips)
                    .map(|(n, &c)| {
                        (
                            n.clone(),
                            Money::from_decimal(v.as_decimal() * Decimal::from(c)),
                        )
                    })
                    .collect(),
            )
        });
        Outcome {
            steps: ledger.steps,
            chips,
            board: ledger.board,
            net,
            total,
            chip_value,
            money,
        }
    }
}
