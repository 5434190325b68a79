//! The validated scenario: built only by [`Scenario::from_input`], so a
//! `Scenario` value is always one the engine can settle (parse, don't
//! validate). All rule checks on the input live here.

use std::fmt::Display;

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::Serialize;

use super::collection::{self, Schedule};
use super::error::SettleError;
use super::hands::{self, SeatHands};
use super::input::{ActionInput, ScenarioInput, SeatMap, WagerInput};
use super::limits::{NAME_CHARS_MAX, UNIT_MIN, WAGERS_MAX, amount_max};
use super::ratio::Ratio;
use crate::domain::common::money::{Money, Unit};
use crate::domain::double_hand_poker::action_dice::{self, DiceError, SEATS_MAX};
use crate::domain::double_hand_poker::options::RuleOptions;
use crate::domain::double_hand_poker::outcome::Outcome;

/// Seat count when `seats` is not given.
pub const DEFAULT_SEATS: i64 = 7;

/// Name reserved for the PD's entry in `totals`: no bettor may use it.
pub const PD_KEY: &str = "pd";

/// The Player-Dealer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
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
    pub(crate) units: i64,
    /// `fee` in whole units of `min_unit`.
    pub(crate) fee_units: i64,
}

/// Amounts as whole numbers of the table's smallest unit, so the engine
/// computes with exact integers. Validation bounds every amount by
/// [`amount_max()`] and the unit by [`UNIT_MIN`], so a count of units and
/// every sum the engine forms stay far below `i64::MAX` (at most about
/// 2 × 10^15 ten-thousandths).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Grid {
    /// The unit is `mantissa × 10^-scale` (normalized).
    mantissa: i64,
    scale: u32,
}

impl Grid {
    pub(crate) fn new(unit: Unit) -> Option<Grid> {
        let d = unit.amount().as_decimal().normalize();
        Some(Grid {
            mantissa: i64::try_from(d.mantissa()).ok()?,
            scale: d.scale(),
        })
    }

    /// `units` of the unit, as money (exact, no division).
    #[inline]
    pub(crate) fn money(self, units: i64) -> Money {
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
    pub(crate) fn fraction(self, numerator: i64, denominator: u32) -> Money {
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
        let options = RuleOptions::for_profile(input.profile.unwrap_or_default())
            .with(&input.options.clone().unwrap_or_default());
        let unit = options.min_unit;
        check_unit(unit)?;
        let grid = Grid::new(unit).ok_or_else(|| {
            SettleError::invalid(
                "options.min_unit",
                format!("{unit} is not a supported smallest unit"),
            )
        })?;

        let seats =
            action_dice::check_seats(input.seats.unwrap_or(DEFAULT_SEATS)).map_err(|_| {
                SettleError::invalid(
                    "seats",
                    format!(
                        "{} is not a table size (2..{SEATS_MAX})",
                        input.seats.unwrap_or(DEFAULT_SEATS)
                    ),
                )
            })?;

        let pd_seat = seat("pd.seat", input.pd.seat, seats)?;
        let player = name("pd.player", &input.pd.player)?;
        let bank = amount("pd.bank", input.pd.bank, unit)?;

        let action = action(&input.action, pd_seat, seats)?;

        let bank_units = grid.units("pd.bank", bank)?;
        let (wagers, bettors) = wagers(&input.wagers, pd_seat, seats, unit, grid)?;

        let with_wagers = seats_with_wagers(&wagers);
        let (outcomes, hands) = match (&input.outcomes, &input.hands) {
            (Some(_), Some(_)) => return Err(SettleError::BothOutcomesAndHands),
            (None, None) => return Err(SettleError::NeitherOutcomesNorHands),
            (Some(o), None) => (outcomes(o, pd_seat, seats, with_wagers)?, None),
            (None, Some(h)) => {
                let decided = hands::decide_seats(
                    h,
                    pd_seat,
                    seats,
                    with_wagers,
                    &wagers,
                    &player,
                    &options,
                )?;
                (decided.outcomes(), Some(decided))
            }
        };

        let (collection, mut wagers, pd_fee) = collect(input, wagers, bank, unit)?;
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

    pub(crate) fn grid(&self) -> Grid {
        self.grid
    }

    pub(crate) fn bank_units(&self) -> i64 {
        self.bank_units
    }

    pub(crate) fn pd_fee_units(&self) -> i64 {
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

fn check_unit(unit: Unit) -> Result<(), SettleError> {
    let u = unit.amount();
    let min = Unit::parse("options.min_unit", UNIT_MIN)
        .map_err(|e| SettleError::invalid("options.min_unit", e.to_string()))?;
    if u < min.amount() || !min.is_multiple(u) || u > amount_max() {
        return Err(SettleError::invalid(
            "options.min_unit",
            format!(
                "{unit} is not a supported smallest unit (a multiple of {UNIT_MIN}, at most {})",
                amount_max()
            ),
        ));
    }
    Ok(())
}

/// A seat number in 1..=seats.
pub(crate) fn seat(field: impl Display, value: i64, seats: u8) -> Result<u8, SettleError> {
    action_dice::check_seat(value, seats).map_err(|_| SettleError::SeatOutsideTable {
        field: field.to_string(),
        seat: value,
        seats,
    })
}

/// A person's name or a wager id: 1..=64 characters, no control
/// characters, no space at either end.
pub(crate) fn name(field: impl Display, text: &str) -> Result<String, SettleError> {
    let chars = text.chars().count();
    if chars > NAME_CHARS_MAX {
        return Err(SettleError::limit(
            field.to_string(),
            format!("{chars} characters"),
            format!("{NAME_CHARS_MAX} characters"),
        ));
    }
    if text.trim().is_empty() {
        return Err(SettleError::invalid(
            field.to_string(),
            format!("\"{text}\" is empty"),
        ));
    }
    if text.trim() != text || text.chars().any(char::is_control) {
        return Err(SettleError::invalid(
            field.to_string(),
            format!("{text:?} has spaces at an end or control characters"),
        ));
    }
    Ok(text.to_owned())
}

/// A positive amount on the unit's grid, at most [`amount_max()`].
fn amount(field: impl Display, m: Money, unit: Unit) -> Result<Money, SettleError> {
    // The field's name is formatted only for an error (replay settles
    // every recorded hand, and these names are most of its allocations).
    let m = match unit.positive("", m) {
        Ok(m) => m,
        Err(_) => unit.positive(&field.to_string(), m)?,
    };
    if m > amount_max() {
        return Err(SettleError::limit(field.to_string(), m, amount_max()));
    }
    Ok(m)
}

fn action(input: &ActionInput, pd_seat: u8, seats: u8) -> Result<Action, SettleError> {
    match (&input.dice, input.seat) {
        (Some(_), Some(_)) => Err(SettleError::invalid(
            "action",
            "give \"dice\" or \"seat\", not both",
        )),
        (None, None) => Err(SettleError::invalid(
            "action",
            "give \"dice\": [d1, d2, d3] or \"seat\": N",
        )),
        (None, Some(s)) => Ok(Action {
            seat: seat("action.seat", s, seats)?,
            dice: None,
        }),
        (Some(d), None) => {
            let [a, b, c] = d[..] else {
                return Err(SettleError::invalid(
                    "action.dice",
                    format!("expected 3 dice, got {}", d.len()),
                ));
            };
            let seat =
                action_dice::action_seat([a, b, c], pd_seat as i64, seats as i64).map_err(|e| {
                    match e {
                        DiceError::Die { index, value } => SettleError::Die {
                            field: format!("action.dice[{index}]"),
                            value,
                        },
                        other => SettleError::invalid("action.dice", other.to_string()),
                    }
                })?;
            // Each die is 1..=6 once action_seat accepted it.
            Ok(Action {
                seat,
                dice: Some([a as u8, b as u8, c as u8]),
            })
        }
    }
}

/// `wagers[i].name`: a field of one wager, formatted only for an error.
#[derive(Debug, Clone, Copy)]
struct WagerField {
    index: usize,
    name: &'static str,
}

impl Display for WagerField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wagers[{}].{}", self.index, self.name)
    }
}

fn wagers(
    input: &[WagerInput],
    pd_seat: u8,
    seats: u8,
    unit: Unit,
    grid: Grid,
) -> Result<(Vec<Wager>, Vec<String>), SettleError> {
    if input.len() > WAGERS_MAX {
        return Err(SettleError::limit(
            "wagers",
            format!("{} wagers", input.len()),
            WAGERS_MAX,
        ));
    }
    let mut wagers: Vec<Wager> = Vec::with_capacity(input.len());
    let mut bettors: Vec<String> = Vec::new();
    // First primary wager index per seat.
    let mut primary: [Option<usize>; SEATS_MAX as usize + 1] = [None; SEATS_MAX as usize + 1];
    for (i, w) in input.iter().enumerate() {
        let at = |name: &'static str| WagerField { index: i, name };
        let id = name(at("id"), &w.id)?;
        if let Some(first) = wagers.iter().position(|x| x.id == id) {
            return Err(SettleError::DuplicateWagerId {
                index: i,
                first,
                id,
            });
        }
        let s = seat(at("seat"), w.seat, seats)?;
        if s == pd_seat {
            return Err(SettleError::WagerOnPdSeat { index: i, seat: s });
        }
        let bettor = name(at("bettor"), &w.bettor)?;
        if bettor == PD_KEY {
            return Err(SettleError::invalid(
                at("bettor").to_string(),
                format!(
                    "\"{PD_KEY}\" is reserved for the Player-Dealer's totals; use the player's name"
                ),
            ));
        }
        let amount = amount(at("amount"), w.amount, unit)?;
        let units = grid.units(at("amount"), amount)?;
        let payout = match &w.payout {
            None => Ratio::EVEN,
            Some(text) => Ratio::parse(&at("payout").to_string(), text)?,
        };
        if !w.backline {
            if let Some(first) = primary[s as usize] {
                return Err(SettleError::SecondPrimary {
                    index: i,
                    seat: s,
                    first_id: wagers[first].id.clone(),
                });
            }
            primary[s as usize] = Some(i);
        }
        let bettor_index = match bettors.iter().position(|b| *b == bettor) {
            Some(k) => k,
            None => {
                bettors.push(bettor.clone());
                bettors.len() - 1
            }
        };
        wagers.push(Wager {
            id,
            seat: s,
            bettor,
            bettor_index,
            amount,
            backline: w.backline,
            payout,
            fee: Money::ZERO,
            units,
            fee_units: 0,
        });
    }
    if let Some((i, w)) = wagers
        .iter()
        .enumerate()
        .find(|(_, w)| primary[w.seat as usize].is_none())
    {
        return Err(SettleError::BacklineWithoutPrimary {
            index: i,
            id: w.id.clone(),
            seat: w.seat,
        });
    }
    Ok((wagers, bettors))
}

/// Bit `s` set when seat `s` has at least one wager.
fn seats_with_wagers(wagers: &[Wager]) -> u32 {
    wagers.iter().fold(0, |acc, w| acc | 1 << w.seat)
}

/// A seat key of `outcomes` or `hands`: the seat number in canonical text.
pub(crate) fn seat_key(field: &str, key: &str, seats: u8) -> Result<u8, SettleError> {
    let n: Option<i64> =
        if !key.is_empty() && key.len() <= 3 && key.bytes().all(|b| b.is_ascii_digit()) {
            key.parse().ok()
        } else {
            None
        };
    match n {
        Some(n) if n.to_string() == key => seat(format_args!("{field}.{key}"), n, seats),
        _ => Err(SettleError::invalid(
            format!("{field}.{key}"),
            format!("\"{key}\" is not a seat number (write it like \"4\")"),
        )),
    }
}

fn outcomes(
    input: &SeatMap<Outcome>,
    pd_seat: u8,
    seats: u8,
    with_wagers: u32,
) -> Result<[Option<Outcome>; SEATS_MAX as usize + 1], SettleError> {
    let mut out = [None; SEATS_MAX as usize + 1];
    for (key, outcome) in &input.0 {
        let s = seat_key("outcomes", key, seats)?;
        if s == pd_seat {
            return Err(SettleError::invalid(
                format!("outcomes.{key}"),
                format!("seat {s} is the PD's seat; give outcomes for the other seats"),
            ));
        }
        if with_wagers & (1 << s) == 0 {
            return Err(SettleError::invalid(
                format!("outcomes.{key}"),
                format!("seat {s} has no wagers, so it has no outcome (is the seat number right?)"),
            ));
        }
        out[s as usize] = Some(*outcome);
    }
    if let Some(s) = (1..=seats).find(|&s| with_wagers & (1 << s) != 0 && out[s as usize].is_none())
    {
        return Err(SettleError::MissingOutcome { seat: s });
    }
    Ok(out)
}

fn collect(
    input: &ScenarioInput,
    mut wagers: Vec<Wager>,
    bank: Money,
    unit: Unit,
) -> Result<(Collection, Vec<Wager>, Money), SettleError> {
    let Some(c) = &input.collection else {
        return Ok((Collection::default(), wagers, Money::ZERO));
    };
    let player = c
        .player
        .as_deref()
        .map(|b| Schedule::parse("collection.player", b, unit))
        .transpose()?;
    let bank_schedule = c
        .bank
        .as_deref()
        .map(|b| Schedule::parse("collection.bank", b, unit))
        .transpose()?;
    for (i, w) in wagers.iter_mut().enumerate() {
        w.fee = collection::fee(
            player.as_ref(),
            &format!("wagers[{i}].amount"),
            &format!("wager \"{}\" amount", w.id),
            w.amount,
        )?;
    }
    let pd_fee = collection::fee(bank_schedule.as_ref(), "pd.bank", "bank", bank)?;
    Ok((
        Collection {
            player,
            bank: bank_schedule,
        },
        wagers,
        pd_fee,
    ))
}
