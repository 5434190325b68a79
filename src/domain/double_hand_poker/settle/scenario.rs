//! The validated scenario: built only by [`Scenario::from_input`], so a
//! `Scenario` value is always one the engine can settle (parse, don't
//! validate). All rule checks on the input live here.

mod table;
mod validate;

use std::fmt::Display;

pub use table::TableRules;
pub(super) use validate::seat_key;

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::Serialize;
use validate::*;

use super::collection::Schedule;
use super::error::SettleError;
use super::hands::{self, SeatHands};
use super::input::ScenarioInput;
use super::limits::amount_max;
use super::ratio::Ratio;
use crate::common::money::{Money, Unit};
use crate::double_hand_poker::action_dice::SEATS_MAX;
use crate::double_hand_poker::options::RuleOptions;
use crate::double_hand_poker::outcome::Outcome;

/// Seat count when `seats` is not given.
pub const DEFAULT_SEATS: i64 = 7;

/// Name reserved for the PD's entry in `totals`: no bettor may use it.
pub const PD_KEY: &str = "pd";

/// The Player-Dealer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SettlementPd)]
pub struct Pd {
    pub seat: u8,
    pub player: String,
    pub bank: Money,
    /// Collection taken from the PD by the bank schedule (0 without one).
    pub fee: Money,
}

/// Where settlement starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Action {
    pub seat: u8,
    /// The dice that named the seat, when it was given as dice.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub dice: Option<[u8; 3]>,
}

/// A validated wager.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wager {
    pub id: String,
    pub seat: u8,
    pub bettor: String,
    /// Index of `bettor` in [`Scenario::bettors`].
    pub bettor_index: usize,
    pub amount: Money,
    pub backline: bool,
    pub payout: Ratio,
    /// Collection for this wager by the player schedule (0 without one).
    pub fee: Money,
    /// `amount` in whole units of `min_unit`.
    pub units: i64,
    /// `fee` in whole units of `min_unit`.
    pub fee_units: i64,
}

/// Amounts as whole numbers of the table's smallest unit, so the engine
/// computes with exact integers. Validation bounds every amount by
/// [`amount_max()`] and the unit by [`UNIT_MIN`], so a count of units and
/// every sum the engine forms stay far below `i64::MAX` (at most about
/// 2 × 10^15 ten-thousandths).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// The unit is `mantissa × 10^-scale` (normalized).
    mantissa: i64,
    scale: u32,
}

impl Grid {
    pub fn new(unit: Unit) -> Option<Grid> {
        let d = unit.amount().as_decimal().normalize();
        Some(Grid {
            mantissa: i64::try_from(d.mantissa()).ok()?,
            scale: d.scale(),
        })
    }

    /// `units` of the unit, as money (exact, no division).
    #[inline]
    pub fn money(self, units: i64) -> Money {
        let v = units * self.mantissa;
        let abs = v.unsigned_abs();
        // |v| < 2^63 fits the 96-bit mantissa; scale ≤ 4 (validated).
        Money::from_decimal(Decimal::from_parts(
            abs as u32,
            (abs >> 32) as u32,
            0,
            v < 0,
            self.scale,
        ))
    }

    /// `numerator / denominator` of one unit, as money (for breakage).
    pub fn fraction(self, numerator: i64, denominator: u32) -> Money {
        Money::from_decimal(
            Decimal::new(numerator * self.mantissa, self.scale) / Decimal::from(denominator),
        )
    }

    /// A validated amount (a multiple of the unit) as a count of units.
    fn units(self, field: impl Display, m: Money) -> Result<i64, SettleError> {
        let unit = Decimal::new(self.mantissa, self.scale);
        (m.as_decimal() / unit)
            .to_i64()
            .ok_or_else(|| SettleError::limit(field.to_string(), m, amount_max()))
    }
}

/// The collection schedules given, if any.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Collection {
    #[serde(skip_serializing_if = "Option::is_none")]
    pub player: Option<Schedule>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank: Option<Schedule>,
}

/// One hand, validated and ready to settle.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Scenario {
    options: RuleOptions,
    grid: Grid,
    seats: u8,
    pd: Pd,
    /// The bank and the PD's fee in whole units of `min_unit`.
    bank_units: i64,
    pd_fee_units: i64,
    action: Action,
    /// In placement order.
    wagers: Vec<Wager>,
    /// Distinct bettor names in order of first wager.
    bettors: Vec<String>,
    /// Indexed by seat number (index 0 unused).
    outcomes: [Option<Outcome>; SEATS_MAX as usize + 1],
    hands: Option<SeatHands>,
    collection: Collection,
}

impl Scenario {
    /// Checks every rule of the contract and builds the scenario. When the
    /// input has `hands`, the outcome of each seat is decided here by the
    /// hand-rules engine.
    pub fn from_input(input: &ScenarioInput) -> Result<Scenario, SettleError> {
        Scenario::build(input, false)
    }

    /// Like [`Scenario::from_input`], for a hand's record, whose results
    /// are per seat: `outcomes` and `hands` may both be given, for
    /// different seats. A seat given as an outcome is settled by it; the
    /// seats given as hands are decided against the PD's hand, which is
    /// then needed. With one of the two only, exactly `from_input`.
    pub fn from_seat_results(input: &ScenarioInput) -> Result<Scenario, SettleError> {
        Scenario::build(input, true)
    }

    fn build(input: &ScenarioInput, per_seat: bool) -> Result<Scenario, SettleError> {
        let table = TableRules::check(input.profile, input.options.as_ref(), input.seats)?;
        let TableRules {
            options,
            unit,
            grid,
            seats,
        } = table;

        let pd_seat = seat("pd.seat", input.pd.seat, seats)?;
        let player = name("pd.player", &input.pd.player)?;
        let bank = amount("pd.bank", input.pd.bank, unit)?;

        let action = action(&input.action, pd_seat, seats)?;

        let bank_units = grid.units("pd.bank", bank)?;
        let (wagers, bettors) = wager_list(&input.wagers, pd_seat, seats, unit, grid)?;
        backlines(&wagers)?;

        let with_wagers = seats_with_wagers(&wagers);
        let decide = |h, need| {
            let seats_of = hands::Seats {
                pd: pd_seat,
                count: seats,
                with_wagers,
                need,
            };
            hands::decide_seats(h, seats_of, &wagers, &player, &options)
        };
        let (outcomes, hands) = match (&input.outcomes, &input.hands) {
            (Some(o), Some(h)) if per_seat => {
                let given = given_seats(o, h, seats)?;
                let mut out = outcomes(o, pd_seat, seats, with_wagers, with_wagers & !given)?;
                let decided = decide(h, with_wagers & given)?;
                for (slot, decided) in out.iter_mut().zip(decided.outcomes()) {
                    *slot = slot.or(decided);
                }
                (out, Some(decided))
            }
            (Some(_), Some(_)) => return Err(SettleError::BothOutcomesAndHands),
            (None, None) => return Err(SettleError::NeitherOutcomesNorHands),
            (Some(o), None) => (outcomes(o, pd_seat, seats, with_wagers, with_wagers)?, None),
            (None, Some(h)) => {
                let decided = decide(h, with_wagers)?;
                (decided.outcomes(), Some(decided))
            }
        };

        let (collection, mut wagers, pd_fee) =
            collect(input.collection.as_ref(), wagers, bank, unit)?;
        for (i, w) in wagers.iter_mut().enumerate() {
            w.fee_units = grid.units(
                WagerField {
                    index: i,
                    name: "fee",
                },
                w.fee,
            )?;
        }
        let pd_fee_units = grid.units("pd.fee", pd_fee)?;

        Ok(Scenario {
            options,
            grid,
            bank_units,
            pd_fee_units,
            seats,
            pd: Pd {
                seat: pd_seat,
                player,
                bank,
                fee: pd_fee,
            },
            action,
            wagers,
            bettors,
            outcomes,
            hands,
            collection,
        })
    }

    pub fn options(&self) -> &RuleOptions {
        &self.options
    }

    pub fn grid(&self) -> Grid {
        self.grid
    }

    pub fn bank_units(&self) -> i64 {
        self.bank_units
    }

    pub fn pd_fee_units(&self) -> i64 {
        self.pd_fee_units
    }

    pub fn seats(&self) -> u8 {
        self.seats
    }

    pub fn pd(&self) -> &Pd {
        &self.pd
    }

    pub fn action(&self) -> Action {
        self.action
    }

    /// Wagers in the order they were placed.
    pub fn wagers(&self) -> &[Wager] {
        &self.wagers
    }

    /// Distinct bettor names, in order of their first wager.
    pub fn bettors(&self) -> &[String] {
        &self.bettors
    }

    /// The outcome of a seat with wagers (`None` for other seats).
    pub fn outcome(&self, seat: u8) -> Option<Outcome> {
        self.outcomes.get(seat as usize).copied().flatten()
    }

    /// The decided hands, when the input gave hands rather than outcomes.
    pub fn hands(&self) -> Option<&SeatHands> {
        self.hands.as_ref()
    }

    pub fn collection(&self) -> &Collection {
        &self.collection
    }
}
