//! A step's sentence, rendered straight into the output while
//! serializing: its amounts as the JSON's explanation writes them
//! (`$1234.5`), or as the pages show money (`1,234.50`).

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use super::Step;
use super::money_text::Dollars;
use crate::common::money::Money;
use crate::double_hand_poker::outcome::Outcome;

/// Renders a step's sentence without intermediate allocations: its
/// amounts as the JSON's explanation writes them (`$1234.5`), or, `shown`,
/// as the pages show money (`1,234.50`).
pub(super) struct Explanation<'s, 'a> {
    pub(super) step: &'s Step<'a>,
    pub(super) shown: bool,
}

impl Explanation<'_, '_> {
    fn money(&self, m: Money) -> Amount {
        Amount {
            m,
            shown: self.shown,
        }
    }
}

/// An amount of an explanation, in its style.
struct Amount {
    m: Money,
    shown: bool,
}

impl Display for Amount {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if self.shown {
            f.write_str(&self.m.to_display())
        } else {
            Dollars(self.m).fmt(f)
        }
    }
}

impl Serialize for Explanation<'_, '_> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl Display for Explanation<'_, '_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        let st = self.step;
        let u = &st.units;
        write!(f, "Seat {}, {}", st.seat, st.bettor)?;
        if st.backline {
            f.write_str(" (backline)")?;
        }
        write!(f, ", {}", self.money(st.amount))?;
        if !st.payout.is_even() {
            write!(f, " at {}", st.payout)?;
        }
        let no_action = |f: &mut Formatter<'_>| -> fmt::Result {
            if u.amount == u.covered {
                Ok(())
            } else {
                write!(
                    f,
                    " and return {} with no action",
                    self.money(st.no_action())
                )
            }
        };
        if u.covered == 0 {
            write!(f, " gets no action: return {}; ", self.money(st.amount))?;
            return if u.after == 0 {
                f.write_str("the bank is used up")
            } else {
                write!(
                    f,
                    "the {} left in action cannot cover it",
                    self.money(st.in_action_after())
                )
            };
        }
        match st.outcome {
            Outcome::Player => {
                write!(f, " wins: pay {} from the bank", self.money(st.consumed()))?;
                if u.amount != u.covered {
                    write!(f, " on {} covered", self.money(st.covered()))?;
                }
                no_action(f)?;
                if u.breakage_num != 0 {
                    write!(
                        f,
                        " (breakage {} stays with the bank)",
                        self.money(st.breakage())
                    )?;
                }
            }
            Outcome::Pd => {
                write!(
                    f,
                    " loses: collect {} for the bank",
                    self.money(st.covered())
                )?;
                no_action(f)?;
                if u.before - u.after != u.covered {
                    write!(
                        f,
                        " ({} of the bank leaves action)",
                        self.money(st.consumed())
                    )?;
                }
            }
            Outcome::Push => {
                write!(f, " pushes: return {}", self.money(st.amount))?;
                if u.before != u.after {
                    write!(
                        f,
                        "; {} of the bank leaves action",
                        self.money(st.consumed())
                    )?;
                }
            }
        }
        if u.after == 0 {
            f.write_str("; the bank is used up")
        } else {
            write!(f, "; {} left in action", self.money(st.in_action_after()))
        }
    }
}
