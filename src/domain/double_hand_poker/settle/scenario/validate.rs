//! The scenario contract checked field by field: the unit, seats, names,
//! amounts, the ACTION, the wagers, the outcomes and the collection, each
//! refusal naming its field.

use std::fmt::Display;

use super::{Action, Collection, Grid, PD_KEY, Wager};
use crate::common::money::{Money, Unit};
use crate::double_hand_poker::action_dice::{self, DiceError, SEATS_MAX};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::collection::{self, Schedule};
use crate::double_hand_poker::settle::error::SettleError;
use crate::double_hand_poker::settle::input::{
    ActionInput, CollectionInput, HandInput, SeatMap, WagerInput,
};
use crate::double_hand_poker::settle::limits::{NAME_CHARS_MAX, UNIT_MIN, WAGERS_MAX, amount_max};
use crate::double_hand_poker::settle::ratio::Ratio;

pub(super) fn check_unit(unit: Unit) -> Result<(), SettleError> {
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
pub fn seat(field: impl Display, value: i64, seats: u8) -> Result<u8, SettleError> {
    action_dice::check_seat(value, seats).map_err(|_| SettleError::SeatOutsideTable {
        field: field.to_string(),
        seat: value,
        seats,
    })
}

/// A person's name or a wager id: 1..=64 characters, no control
/// characters, no space at either end.
pub fn name(field: impl Display, text: &str) -> Result<String, SettleError> {
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
pub(super) fn amount(field: impl Display, m: Money, unit: Unit) -> Result<Money, SettleError> {
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

pub(super) fn action(input: &ActionInput, pd_seat: u8, seats: u8) -> Result<Action, SettleError> {
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
pub(super) struct WagerField {
    pub(super) index: usize,
    pub(super) name: &'static str,
}

impl Display for WagerField {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "wagers[{}].{}", self.index, self.name)
    }
}

/// The wagers in placement order, each checked alone and against those
/// before it (id, seat, bettor, amount, payout, one primary per seat):
/// every rule but the backline's primary ([`backlines`]).
pub(super) fn wager_list(
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
    Ok((wagers, bettors))
}

/// Every backline is on a seat that has its own (primary) wager.
pub(super) fn backlines(wagers: &[Wager]) -> Result<(), SettleError> {
    let has_primary = |seat: u8| wagers.iter().any(|w| w.seat == seat && !w.backline);
    match wagers
        .iter()
        .enumerate()
        .find(|(_, w)| !has_primary(w.seat))
    {
        Some((i, w)) => Err(SettleError::BacklineWithoutPrimary {
            index: i,
            id: w.id.clone(),
            seat: w.seat,
        }),
        None => Ok(()),
    }
}

/// Bit `s` set when seat `s` has at least one wager.
pub(super) fn seats_with_wagers(wagers: &[Wager]) -> u32 {
    wagers.iter().fold(0, |acc, w| acc | 1 << w.seat)
}

/// A seat key of `outcomes` or `hands`: the seat number in canonical text.
pub fn seat_key(field: &str, key: &str, seats: u8) -> Result<u8, SettleError> {
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

/// Bit `s` set for each seat given as a hand, when a hand's record gives
/// both outcomes and hands: a seat may be given as one of the two only.
pub(super) fn given_seats(
    outcomes: &SeatMap<Outcome>,
    hands: &SeatMap<HandInput>,
    seats: u8,
) -> Result<u32, SettleError> {
    let mut given = 0;
    for (key, _) in &hands.0 {
        given |= 1 << seat_key("hands", key, seats)?;
    }
    for (key, _) in &outcomes.0 {
        let s = seat_key("outcomes", key, seats)?;
        if given & (1 << s) != 0 {
            return Err(SettleError::invalid(
                format!("outcomes.{key}"),
                format!("seat {s} is given both an outcome and a hand; give one of them"),
            ));
        }
    }
    Ok(given)
}

/// The outcomes given; `need` has bit `s` set for each seat that must have
/// one (every seat with wagers, unless its hand decides it).
pub(super) fn outcomes(
    input: &SeatMap<Outcome>,
    pd_seat: u8,
    seats: u8,
    with_wagers: u32,
    need: u32,
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
    if let Some(s) = (1..=seats).find(|&s| need & (1 << s) != 0 && out[s as usize].is_none()) {
        return Err(SettleError::MissingOutcome { seat: s });
    }
    Ok(out)
}

/// The collection schedules parsed, each wager's fee and the PD's.
pub(super) fn collect(
    collection: Option<&CollectionInput>,
    mut wagers: Vec<Wager>,
    bank: Money,
    unit: Unit,
) -> Result<(Collection, Vec<Wager>, Money), SettleError> {
    let Some(c) = collection else {
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
