//! A settlement as recorded in an event: its canonical JSON text, kept as
//! text (never re-parsed into a tree), and checked against a recomputed
//! settlement by the facts that matter — every step's money, the money
//! returned, the totals and the collection. Byte-level changes to the text
//! are the audit chain's job; this catches a wrong settlement written with
//! a valid hash.

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;

use super::HandError;
use crate::common::money::Money;
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{Settlement, Total};

/// The settlement JSON carried by `hand_closed` and `outcome_corrected`,
/// shared (a hand's state and its event hold the same text).
#[derive(Debug, Clone)]
pub struct RecordedSettlement {
    text: Arc<str>,
    /// The house collection the text states, once known (computed, or
    /// checked against the computed one): spares a scan of the text.
    house_collection: Option<Money>,
}

impl PartialEq for RecordedSettlement {
    /// The same text (the collection is only what the text states).
    fn eq(&self, other: &RecordedSettlement) -> bool {
        self.text == other.text
    }
}

impl Eq for RecordedSettlement {}

/// In the API contract a recorded settlement is the settlement JSON the
/// engine wrote (docs/settle.md).
impl utoipa::PartialSchema for RecordedSettlement {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::common::schema::reference::<Settlement<'static>>()
    }
}

impl utoipa::ToSchema for RecordedSettlement {
    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        schemas.push(crate::common::schema::named::<Settlement<'static>>());
        <Settlement<'static> as utoipa::ToSchema>::schemas(schemas);
    }
}

impl Serialize for RecordedSettlement {
    /// Written as the JSON it is, not as a string.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let raw: &RawValue = serde_json::from_str(&self.text).map_err(serde::ser::Error::custom)?;
        raw.serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for RecordedSettlement {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(deserializer)?;
        Ok(RecordedSettlement::unparsed(raw.get()))
    }
}

impl RecordedSettlement {
    /// The canonical JSON of a computed settlement (keys sorted).
    pub fn of(settlement: &Settlement<'_>) -> Result<RecordedSettlement, HandError> {
        let internal = |e: serde_json::Error| HandError::Internal(e.to_string());
        let value = serde_json::to_value(settlement).map_err(internal)?;
        let text = serde_json::to_string(&value).map_err(internal)?;
        Ok(RecordedSettlement {
            text: Arc::from(text),
            house_collection: Some(settlement.house_collection),
        })
    }

    pub fn text(&self) -> &str {
        &self.text
    }

    /// The text, shared rather than copied.
    pub fn shared_text(&self) -> Arc<str> {
        Arc::clone(&self.text)
    }

    /// Reads settlement text, checking that it is JSON (tests build
    /// altered settlements with it).
    #[cfg(test)]
    pub fn from_text(text: &str) -> Result<RecordedSettlement, HandError> {
        serde_json::from_str::<&RawValue>(text)
            .map_err(|e| HandError::Internal(format!("stored settlement: {e}")))?;
        Ok(RecordedSettlement::unparsed(text))
    }

    /// The settlement text of a recorded event, not parsed yet: a carried
    /// settlement is only ever used once [`Self::matches`] has parsed it in
    /// full against the recomputed one (invalid JSON does not match), so
    /// reading a hand's events scans its kilobytes once, not twice.
    pub(super) fn unparsed(text: &str) -> RecordedSettlement {
        RecordedSettlement {
            text: Arc::from(text),
            house_collection: None,
        }
    }

    /// This settlement, once [`Self::matches`] has found it states what
    /// `computed` does: its collection is then known without a scan.
    pub(super) fn matched(&self, computed: &Settlement<'_>) -> RecordedSettlement {
        RecordedSettlement {
            text: Arc::clone(&self.text),
            house_collection: Some(computed.house_collection),
        }
    }

    /// The house collection it states.
    pub fn house_collection(&self) -> Option<Money> {
        if let Some(known) = self.house_collection {
            return Some(known);
        }
        #[derive(Deserialize)]
        struct Only<'a> {
            #[serde(borrow)]
            house_collection: Cow<'a, str>,
        }
        let only: Only<'_> = serde_json::from_str(self.text()).ok()?;
        Money::parse(&only.house_collection).ok()
    }

    /// True when the recorded settlement states the same money movements
    /// as `computed`.
    pub fn matches(&self, computed: &Settlement<'_>) -> bool {
        let Ok(facts) = serde_json::from_str::<Facts<'_>>(self.text()) else {
            return false;
        };
        facts.matches(computed)
    }
}

#[derive(Deserialize)]
struct Facts<'a> {
    action_seat: u8,
    #[serde(borrow)]
    steps: Vec<StepFacts<'a>>,
    #[serde(borrow)]
    pd_returned: Cow<'a, str>,
    #[serde(borrow)]
    house_collection: Cow<'a, str>,
    #[serde(borrow)]
    totals: BTreeMap<Cow<'a, str>, TotalFacts<'a>>,
}

#[derive(Deserialize)]
struct StepFacts<'a> {
    #[serde(borrow)]
    wager: Cow<'a, str>,
    outcome: Outcome,
    #[serde(borrow)]
    amount: Cow<'a, str>,
    #[serde(borrow)]
    covered: Cow<'a, str>,
    #[serde(borrow)]
    no_action: Cow<'a, str>,
    #[serde(borrow)]
    in_action_before: Cow<'a, str>,
    #[serde(borrow)]
    in_action_after: Cow<'a, str>,
    #[serde(borrow)]
    to_bettor: Cow<'a, str>,
    #[serde(borrow)]
    to_pd: Cow<'a, str>,
    #[serde(borrow)]
    breakage: Cow<'a, str>,
}

#[derive(Deserialize)]
struct TotalFacts<'a> {
    #[serde(borrow)]
    received: Cow<'a, str>,
    #[serde(borrow)]
    net: Cow<'a, str>,
    #[serde(borrow)]
    fee: Cow<'a, str>,
}

fn same(text: &str, money: Money) -> bool {
    Money::parse(text).is_ok_and(|m| m == money)
}

impl TotalFacts<'_> {
    fn matches(&self, t: &Total) -> bool {
        same(&self.received, t.received) && same(&self.net, t.net) && same(&self.fee, t.fee)
    }
}

impl Facts<'_> {
    fn matches(&self, c: &Settlement<'_>) -> bool {
        let steps_match = self.steps.len() == c.steps.len()
            && self.steps.iter().zip(&c.steps).all(|(r, s)| {
                r.wager == s.wager
                    && r.outcome == s.outcome
                    && same(&r.amount, s.amount)
                    && same(&r.covered, s.covered())
                    && same(&r.no_action, s.no_action())
                    && same(&r.in_action_before, s.in_action_before())
                    && same(&r.in_action_after, s.in_action_after())
                    && same(&r.to_bettor, s.to_bettor())
                    && same(&r.to_pd, s.to_pd())
                    && same(&r.breakage, s.breakage())
            });
        let totals_match = self.totals.len() == c.totals.bettors.len() + 1
            && c.totals
                .bettors
                .iter()
                .all(|(name, t)| self.totals.get(*name).is_some_and(|r| r.matches(t)))
            && self
                .totals
                .get(crate::double_hand_poker::settle::PD_KEY)
                .is_some_and(|r| r.matches(&c.totals.pd));
        self.action_seat == c.action_seat
            && steps_match
            && totals_match
            && same(&self.pd_returned, c.pd_returned)
            && same(&self.house_collection, c.house_collection)
    }
}
