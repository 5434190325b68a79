//! Money as the search's columns keep it: whole ten-thousandths in an
//! integer. The finest unit a table may have is 0.0001
//! (`settle::RuleOptions::UNIT_MIN`), so every amount is exact, and both
//! databases compare and sum integers exactly (SQLite has no decimal type;
//! its SUM of text would be a float).

use rust_decimal::Decimal;

use crate::common::money::Money;

/// Ten-thousandths in one unit of money.
const PER_UNIT: i64 = 10_000;

/// The amount in ten-thousandths; None if finer or beyond ±9.2 × 10¹⁴.
pub fn to_e4(m: Money) -> Option<i64> {
    let scaled = m.as_decimal().checked_mul(Decimal::from(PER_UNIT))?;
    if !scaled.fract().is_zero() {
        return None;
    }
    i64::try_from(scaled.trunc()).ok()
}

/// The amount `e4` ten-thousandths make.
pub fn from_e4(e4: i64) -> Money {
    Money::from_decimal(Decimal::new(e4, 4).normalize())
}
