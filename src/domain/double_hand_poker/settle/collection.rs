//! Collection (house fee) schedules: brackets of (from, to, fee).
//!
//! The house takes its collection before play, from every wager by its
//! amount and from the PD by the bank, each per its own posted schedule. The
//! fee is paid beside the wager (it is not taken out of it), and a wager that
//! gets no action does not get its fee back.

use serde::Serialize;

use super::error::SettleError;
use super::input::BracketInput;
use super::limits::{BRACKETS_MAX, amount_max};
use crate::common::money::{Money, Unit};

/// One bracket: amounts from `from` to `to`, both inclusive, pay `fee`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Bracket {
    pub from: Money,
    pub to: Money,
    pub fee: Money,
}

/// A validated schedule: brackets sorted by `from`, none overlapping. An
/// amount that no bracket covers is an error (a dealer would not know what
/// to collect), so post a `"fee": "0"` bracket for amounts that pay nothing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Schedule {
    brackets: Vec<Bracket>,
}

impl Schedule {
    /// `field` is the schedule's path, e.g. `collection.player`.
    pub fn parse(field: &str, input: &[BracketInput], unit: Unit) -> Result<Schedule, SettleError> {
        if input.len() > BRACKETS_MAX {
            return Err(SettleError::limit(
                field,
                format!("{} brackets", input.len()),
                BRACKETS_MAX,
            ));
        }
        let mut brackets = Vec::with_capacity(input.len());
        for (i, b) in input.iter().enumerate() {
            // Each field's path is written only for an error: a hand's
            // replay parses its schedules again, and the names cost more
            // than the checks.
            let at = |name: &str| format!("{field}[{i}].{name}");
            for (name, m) in [("from", b.from), ("to", b.to), ("fee", b.fee)] {
                if unit.non_negative("", m).is_err() {
                    unit.non_negative(&at(name), m)?;
                }
                if m > amount_max() {
                    return Err(SettleError::limit(at(name), m, amount_max()));
                }
            }
            let (from, to, fee) = (b.from, b.to, b.fee);
            if from > to {
                return Err(SettleError::invalid(
                    format!("{field}[{i}]"),
                    format!("\"from\" {from} is above \"to\" {to}"),
                ));
            }
            brackets.push(Bracket { from, to, fee });
        }
        brackets.sort_by_key(|b| b.from);
        for pair in brackets.windows(2) {
            if pair[1].from <= pair[0].to {
                return Err(SettleError::invalid(
                    field,
                    format!(
                        "brackets {}..{} and {}..{} overlap, so the fee for {} is ambiguous",
                        pair[0].from, pair[0].to, pair[1].from, pair[1].to, pair[1].from
                    ),
                ));
            }
        }
        Ok(Schedule { brackets })
    }

    pub fn brackets(&self) -> &[Bracket] {
        &self.brackets
    }

    /// The fee for `amount`, or `None` when no bracket covers it.
    pub fn fee_for(&self, amount: Money) -> Option<Money> {
        self.brackets
            .iter()
            .find(|b| b.from <= amount && amount <= b.to)
            .map(|b| b.fee)
    }
}

/// Optional schedule: no schedule means no fee.
pub fn fee(
    schedule: Option<&Schedule>,
    field: &str,
    what: &str,
    amount: Money,
) -> Result<Money, SettleError> {
    match schedule {
        None => Ok(Money::ZERO),
        Some(s) => s.fee_for(amount).ok_or_else(|| {
            SettleError::invalid(
                field,
                format!("no bracket covers {what} {amount}; add one (with \"fee\": \"0\" if it pays nothing)"),
            )
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(s: &str) -> Money {
        Money::parse(s).unwrap()
    }

    fn b(from: &str, to: &str, fee: &str) -> BracketInput {
        BracketInput {
            from: m(from),
            to: m(to),
            fee: m(fee),
        }
    }

    #[test]
    fn brackets_are_inclusive_at_both_edges() {
        let s = Schedule::parse(
            "c",
            &[b("100", "5000", "2"), b("0", "99.99", "1")],
            Unit::CENT,
        )
        .unwrap();
        assert_eq!(s.fee_for(m("0")), Some(m("1")));
        assert_eq!(s.fee_for(m("99.99")), Some(m("1")));
        assert_eq!(s.fee_for(m("100")), Some(m("2")));
        assert_eq!(s.fee_for(m("5000")), Some(m("2")));
        assert_eq!(s.fee_for(m("5000.01")), None);
        let err = fee(
            Some(&s),
            "wagers[2].amount",
            "wager w3 amount",
            m("5000.01"),
        )
        .unwrap_err();
        assert!(
            err.to_string()
                .starts_with("wagers[2].amount: no bracket covers wager w3 amount 5000.01"),
            "{err}"
        );
        assert_eq!(fee(None, "x", "y", m("5000.01")), Ok(Money::ZERO));
    }

    #[test]
    fn overlapping_or_inverted_or_fine_brackets_are_refused() {
        let err = Schedule::parse(
            "collection.player",
            &[b("0", "100", "1"), b("100", "200", "2")],
            Unit::CENT,
        )
        .unwrap_err();
        assert!(err.to_string().contains("overlap"), "{err}");
        let err = Schedule::parse("collection.bank", &[b("10", "5", "1")], Unit::CENT).unwrap_err();
        assert_eq!(
            err.to_string(),
            "collection.bank[0]: \"from\" 10.00 is above \"to\" 5.00"
        );
        let err =
            Schedule::parse("collection.bank", &[b("0", "5", "0.001")], Unit::CENT).unwrap_err();
        assert!(
            err.to_string().starts_with("collection.bank[0].fee: 0.001"),
            "{err}"
        );
        let many: Vec<_> = (0..=BRACKETS_MAX)
            .map(|i| b(&i.to_string(), &i.to_string(), "1"))
            .collect();
        assert!(matches!(
            Schedule::parse("c", &many, Unit::CENT),
            Err(SettleError::Limit { .. })
        ));
    }
}
