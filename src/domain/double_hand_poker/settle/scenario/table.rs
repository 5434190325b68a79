//! The rules a hand's record checks as each event is taken, before any
//! result is in: the table's own rules, the PD, the wagers, the ACTION and
//! the collection. They are the field checks a [`super::Scenario`] is built
//! with, so a refusal reads the same at the table as in `settle`.

use super::Grid;
use super::validate::{action, amount, backlines, check_unit, collect, name, seat, wager_list};
use crate::common::money::Unit;
use crate::double_hand_poker::action_dice::{self, SEATS_MAX};
use crate::double_hand_poker::options::{OptionOverrides, Profile, RuleOptions};
use crate::double_hand_poker::settle::error::SettleError;
use crate::double_hand_poker::settle::input::{ActionInput, CollectionInput, PdInput, WagerInput};

/// A table's rules, checked: its options, unit grid and seat count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableRules {
    pub options: RuleOptions,
    pub unit: Unit,
    pub grid: Grid,
    pub seats: u8,
}

impl TableRules {
    /// The profile with its overrides, the smallest unit and the seats.
    pub fn check(
        profile: Option<Profile>,
        overrides: Option<&OptionOverrides>,
        seats: Option<i64>,
    ) -> Result<TableRules, SettleError> {
        if let Some(o) = overrides {
            o.check().map_err(|(field, message)| {
                SettleError::invalid(format!("options.{field}"), message)
            })?;
        }
        let options = RuleOptions::for_profile(profile.unwrap_or_default())
            .with(&overrides.cloned().unwrap_or_default());
        let unit = options.min_unit;
        check_unit(unit)?;
        let grid = Grid::new(unit).ok_or_else(|| {
            SettleError::invalid(
                "options.min_unit",
                format!("{unit} is not a supported smallest unit"),
            )
        })?;
        let count = seats.unwrap_or(super::DEFAULT_SEATS);
        let seats = action_dice::check_seats(count).map_err(|_| {
            SettleError::invalid(
                "seats",
                format!("{count} is not a table size (2..{SEATS_MAX})"),
            )
        })?;
        Ok(TableRules {
            options,
            unit,
            grid,
            seats,
        })
    }

    /// The PD's seat, name and bank; returns the seat.
    pub fn pd(&self, pd: &PdInput) -> Result<u8, SettleError> {
        let pd_seat = seat("pd.seat", pd.seat, self.seats)?;
        name("pd.player", &pd.player)?;
        let bank = amount("pd.bank", pd.bank, self.unit)?;
        self.grid.units("pd.bank", bank)?;
        Ok(pd_seat)
    }

    /// The wagers in placement order, each against those before it and the
    /// PD's seat; a backline's primary is checked by [`Self::backlines`].
    pub fn wagers(&self, wagers: &[WagerInput], pd_seat: u8) -> Result<(), SettleError> {
        wager_list(wagers, pd_seat, self.seats, self.unit, self.grid)?;
        Ok(())
    }

    /// Every backline is on a seat with its own (primary) wager.
    pub fn backlines(&self, wagers: &[WagerInput], pd_seat: u8) -> Result<(), SettleError> {
        let (wagers, _) = wager_list(wagers, pd_seat, self.seats, self.unit, self.grid)?;
        backlines(&wagers)
    }

    /// The ACTION seat, given or rolled; returns it.
    pub fn action(&self, given: &ActionInput, pd_seat: u8) -> Result<u8, SettleError> {
        Ok(action(given, pd_seat, self.seats)?.seat)
    }

    /// The collection's schedules cover every wager and the bank.
    pub fn collection(
        &self,
        collection: &CollectionInput,
        wagers: &[WagerInput],
        pd: &PdInput,
    ) -> Result<(), SettleError> {
        let pd_seat = self.pd(pd)?;
        let (wagers, _) = wager_list(wagers, pd_seat, self.seats, self.unit, self.grid)?;
        let (_, wagers, pd_fee) = collect(Some(collection), wagers, pd.bank, self.unit)?;
        for (i, w) in wagers.iter().enumerate() {
            self.grid.units(format!("wagers[{i}].fee"), w.fee)?;
        }
        self.grid.units("pd.fee", pd_fee)?;
        Ok(())
    }
}
