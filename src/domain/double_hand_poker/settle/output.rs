//! The settlement: what the engine returns and what the CLI and HTTP print.
//! It borrows names and ids from its [`Scenario`](super::Scenario), so
//! settling allocates little; serialize it with `serde_json`. Money is always
//! a JSON string. Explanations are rendered while serializing (or with
//! [`Step::explanation`]).

use std::fmt::Write as _;

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::hands::{SeatHand, SeatHands};
use super::ratio::Ratio;
use super::scenario::{Grid, PD_KEY, Pd};
use crate::common::money::Money;
use crate::double_hand_poker::options::RuleOptions;
use crate::double_hand_poker::outcome::Outcome;

mod explanation;
mod money_text;

use explanation::Explanation;
use money_text::{Canonical, money};

/// The result of settling one hand.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Settlement<'a> {
    /// Where settlement started (the hand that got the first pile).
    pub action_seat: u8,
    /// The dice that named the ACTION seat, when given as dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub action_dice: Option<[u8; 3]>,
    /// The Player-Dealer: seat, player, bank and collection fee.
    pub pd: &'a Pd,
    /// Each seat's hands and how they were decided, when hands were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    // Its `#[serde(transparent)]` is a list, which the derive cannot see.
    #[schema(value_type = Option<Vec<SeatHand>>)]
    pub hands: Option<&'a SeatHands>,
    /// One step per wager, in action order.
    pub steps: Vec<Step<'a>>,
    /// PD money still in action after the last wager, returned to the PD.
    #[serde(serialize_with = "money")]
    pub pd_returned: Money,
    /// Per bettor (in order of first wager) and `"pd"`.
    pub totals: Totals<'a>,
    /// All collection fees taken: player wagers plus the bank.
    #[serde(serialize_with = "money")]
    pub house_collection: Money,
    /// The asserted balances (settling fails if they do not hold).
    pub conservation: Conservation,
    /// The rule options in force.
    pub rules: &'a RuleOptions,
}

/// One wager settled.
///
/// Per step, `amount + consumed = to_bettor + to_pd`: the wager and the PD's
/// money that left action are shared out between the bettor and the PD.
///
/// The engine's results are kept as exact whole units of the table's
/// `min_unit` and turned into [`Money`] only when asked for (the accessors
/// below) or serialized, so settling builds no decimals.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Step<'a> {
    /// The wager id.
    pub wager: &'a str,
    pub seat: u8,
    pub bettor: &'a str,
    pub backline: bool,
    pub amount: Money,
    pub payout: Ratio,
    pub outcome: Outcome,
    /// The collection fee taken on this wager before play.
    pub fee: Money,
    pub(super) units: StepUnits,
}

/// A step's amounts in whole units of the scenario's [`Grid`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct StepUnits {
    pub(super) grid: Grid,
    pub(super) amount: i64,
    pub(super) covered: i64,
    pub(super) before: i64,
    pub(super) after: i64,
    pub(super) to_bettor: i64,
    pub(super) to_pd: i64,
    /// Breakage is `breakage_num / q` of a unit (0 ≤ it < q).
    pub(super) breakage_num: i64,
}

impl Step<'_> {
    /// The part of the wager the PD's money in action could cover.
    pub fn covered(&self) -> Money {
        self.units.grid.money(self.units.covered)
    }

    /// `amount − covered`: returned to the bettor untouched.
    pub fn no_action(&self) -> Money {
        self.units
            .grid
            .money(self.units.amount - self.units.covered)
    }

    /// PD money in action before this wager.
    pub fn in_action_before(&self) -> Money {
        self.units.grid.money(self.units.before)
    }

    /// PD money in action after this wager.
    pub fn in_action_after(&self) -> Money {
        self.units.grid.money(self.units.after)
    }

    /// `in_action_before − in_action_after`: PD money that left action.
    pub fn consumed(&self) -> Money {
        self.units.grid.money(self.units.before - self.units.after)
    }

    /// Everything the bettor gets back at this step (stake and winnings).
    pub fn to_bettor(&self) -> Money {
        self.units.grid.money(self.units.to_bettor)
    }

    /// Everything the PD gets at this step: the bettor's covered stake on a
    /// PD win, plus the PD's own money that left action and was not paid out.
    pub fn to_pd(&self) -> Money {
        self.units.grid.money(self.units.to_pd)
    }

    /// On a win at p:q, `covered × p / q` minus the payout rounded down to
    /// the unit; it stays with the PD. 0 otherwise.
    pub fn breakage(&self) -> Money {
        if self.units.breakage_num == 0 {
            Money::ZERO
        } else {
            self.units
                .grid
                .fraction(self.units.breakage_num, self.payout.q())
        }
    }

    /// The sentence a dealer reads aloud for this step.
    pub fn explanation(&self) -> String {
        let mut s = String::with_capacity(96);
        // Writing to a String cannot fail.
        let _ = write!(
            s,
            "{}",
            Explanation {
                step: self,
                shown: false
            }
        );
        s
    }

    /// The explanation as the pages show it: amounts as `1,234.50`.
    pub fn explanation_shown(&self) -> String {
        Explanation {
            step: self,
            shown: true,
        }
        .to_string()
    }
}

impl Serialize for Step<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut st = s.serialize_struct("Step", 18)?;
        st.serialize_field("wager", self.wager)?;
        st.serialize_field("seat", &self.seat)?;
        st.serialize_field("bettor", self.bettor)?;
        st.serialize_field("backline", &self.backline)?;
        st.serialize_field("amount", &Canonical(self.amount))?;
        st.serialize_field("payout", &self.payout)?;
        st.serialize_field("outcome", &self.outcome)?;
        st.serialize_field("covered", &Canonical(self.covered()))?;
        st.serialize_field("no_action", &Canonical(self.no_action()))?;
        st.serialize_field("in_action_before", &Canonical(self.in_action_before()))?;
        st.serialize_field("in_action_after", &Canonical(self.in_action_after()))?;
        st.serialize_field("consumed", &Canonical(self.consumed()))?;
        st.serialize_field("to_bettor", &Canonical(self.to_bettor()))?;
        st.serialize_field("to_pd", &Canonical(self.to_pd()))?;
        st.serialize_field("breakage", &Canonical(self.breakage()))?;
        st.serialize_field("fee", &Canonical(self.fee))?;
        st.serialize_field(
            "explanation",
            &Explanation {
                step: self,
                shown: false,
            },
        )?;
        st.end()
    }
}

/// A step's schema in the API contract: the fields its `Serialize` writes,
/// in that order.
impl utoipa::PartialSchema for Step<'_> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::common::schema::{object, plain, reference};
        use utoipa::openapi::schema::Type;
        let money = reference::<Money>;
        object(
            "One wager settled. Per step, `amount + consumed = to_bettor + to_pd`.",
            vec![
                ("wager", plain(Type::String)),
                ("seat", plain(Type::Integer)),
                ("bettor", plain(Type::String)),
                ("backline", plain(Type::Boolean)),
                ("amount", money()),
                ("payout", reference::<Ratio>()),
                ("outcome", reference::<Outcome>()),
                ("covered", money()),
                ("no_action", money()),
                ("in_action_before", money()),
                ("in_action_after", money()),
                ("consumed", money()),
                ("to_bettor", money()),
                ("to_pd", money()),
                ("breakage", money()),
                ("fee", money()),
                ("explanation", plain(Type::String)),
            ],
        )
        .into()
    }
}

impl utoipa::ToSchema for Step<'_> {
    fn name() -> std::borrow::Cow<'static, str> {
        "SettlementStep".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        use crate::common::schema::named;
        schemas.extend([named::<Money>(), named::<Ratio>(), named::<Outcome>()]);
    }
}

/// A participant's money over the hand.
///
/// `net = received − staked`: the result of play. The collection `fee` is
/// paid beside the stake and is **not** part of `net`; what the participant
/// is up or down at the end of the hand is `net − fee`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, utoipa::ToSchema)]
#[schema(as = SettlementTotal)]
pub struct Total {
    /// Sum of the wagers (for the PD: the bank).
    #[serde(serialize_with = "money")]
    pub staked: Money,
    /// Everything paid back or won (for the PD: `to_pd` of every step plus
    /// `pd_returned`).
    #[serde(serialize_with = "money")]
    pub received: Money,
    #[serde(serialize_with = "money")]
    pub net: Money,
    #[serde(serialize_with = "money")]
    pub fee: Money,
}

/// Totals keyed by bettor name, plus the PD under `"pd"` (serialized last).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals<'a> {
    /// In order of each bettor's first wager.
    pub bettors: Vec<(&'a str, Total)>,
    pub pd: Total,
}

impl Totals<'_> {
    /// The total of one bettor by name (`"pd"` for the PD).
    pub fn get(&self, name: &str) -> Option<&Total> {
        if name == PD_KEY {
            return Some(&self.pd);
        }
        self.bettors
            .iter()
            .find(|(n, _)| *n == name)
            .map(|(_, t)| t)
    }
}

/// Totals' schema in the API contract: an object keyed by bettor name,
/// `"pd"` last.
impl utoipa::PartialSchema for Totals<'_> {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use crate::common::schema::{map_of, reference};
        map_of(
            "Each bettor's money over the hand, keyed by name (in order of first wager), \
             and the PD's under \"pd\".",
            reference::<Total>(),
        )
        .into()
    }
}

impl utoipa::ToSchema for Totals<'_> {
    fn name() -> std::borrow::Cow<'static, str> {
        "SettlementTotals".into()
    }

    fn schemas(
        schemas: &mut Vec<(
            String,
            utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
        )>,
    ) {
        schemas.push(crate::common::schema::named::<Total>());
        <Total as utoipa::ToSchema>::schemas(schemas);
    }
}

impl Serialize for Totals<'_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.bettors.len() + 1))?;
        for (name, total) in &self.bettors {
            map.serialize_entry(name, total)?;
        }
        map.serialize_entry(PD_KEY, &self.pd)?;
        map.end()
    }
}

/// The balances `settle` asserts before returning.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Conservation {
    /// All wagers plus the bank.
    #[serde(serialize_with = "money")]
    pub money_in: Money,
    /// Paid to bettors plus paid to the PD (including `pd_returned`).
    #[serde(serialize_with = "money")]
    pub money_out: Money,
    /// Fees taken from wagers and from the bank.
    #[serde(serialize_with = "money")]
    pub fees_taken: Money,
    /// Equal to `fees_taken` and to `house_collection`.
    #[serde(serialize_with = "money")]
    pub house_collection: Money,
}
