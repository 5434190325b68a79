//! Money written straight into the output from a stack buffer, without
//! allocating: its canonical JSON text (`60.00`) and as a dealer says it
//! (`$60`). The hot path of the JSON output.

use std::fmt::{self, Display, Formatter};

use serde::{Serialize, Serializer};

use crate::common::money::Money;

/// Money in its canonical JSON text (as [`Money::to_canonical`]: at least
/// two decimals), written straight into the output without allocating.
pub(super) struct Canonical(pub(super) Money);

impl Display for Canonical {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_decimal(f, self.0, Trim::Canonical)
    }
}

impl Serialize for Canonical {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// How [`write_decimal`] trims the fraction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Trim {
    /// No trailing zeros beyond two decimals: "60.00", "0.005".
    Canonical,
    /// Whole amounts without decimals, else at least two: "60", "12.50".
    Dollars,
}

/// Writes `m` (its sign, digits and point) into `f` from a stack buffer:
/// the hot path of the JSON output, so no `Decimal` formatting machinery.
fn write_decimal(f: &mut Formatter<'_>, m: Money, trim: Trim) -> fmt::Result {
    let d = m.as_decimal();
    let mantissa = d.mantissa().unsigned_abs();
    let mut buf = [0u8; 72];
    // Every amount the limits allow fits u64 arithmetic (much faster than
    // u128 division); the u128 path is for completeness.
    let text = match u64::try_from(mantissa) {
        Ok(small) if small < u64::MAX / 100 => digits(small, d.scale() as usize, trim, &mut buf),
        _ => digits(mantissa, d.scale() as usize, trim, &mut buf),
    };
    if m.is_negative() {
        f.write_str("-")?;
    }
    if trim == Trim::Dollars {
        f.write_str("$")?;
    }
    f.write_str(text)
}

/// Unsigned integers `digits` can format.
trait Digits:
    Copy
    + PartialEq
    + std::ops::Div<Output = Self>
    + std::ops::Rem<Output = Self>
    + std::ops::Mul<Output = Self>
{
    const ZERO: Self;
    const TEN: Self;
    fn low_digit(self) -> u8;
}

impl Digits for u64 {
    const ZERO: Self = 0;
    const TEN: Self = 10;
    fn low_digit(self) -> u8 {
        (self % 10) as u8
    }
}

impl Digits for u128 {
    const ZERO: Self = 0;
    const TEN: Self = 10;
    fn low_digit(self) -> u8 {
        (self % 10) as u8
    }
}

/// The text of `mantissa × 10^-scale`, trimmed, into the end of `buf`.
fn digits<T: Digits>(mut mantissa: T, mut scale: usize, trim: Trim, buf: &mut [u8; 72]) -> &str {
    let keep = if trim == Trim::Canonical { 2 } else { 0 };
    while scale > keep && mantissa.low_digit() == 0 {
        mantissa = mantissa / T::TEN;
        scale -= 1;
    }
    // Dollars: a whole amount stays whole; any fraction shows two digits.
    let min_scale = if trim == Trim::Dollars && scale == 0 {
        0
    } else {
        2
    };
    while scale < min_scale {
        // |mantissa| < 2^96 (or < u64::MAX / 100 on the u64 path): × 100 fits.
        mantissa = mantissa * T::TEN;
        scale += 1;
    }
    // At most 31 digits (2^96 × 100 < 10^31), a point and leading zeros
    // (scale ≤ 28).
    let mut i = buf.len();
    let mut written = 0;
    while mantissa != T::ZERO || written <= scale {
        if written == scale && scale > 0 {
            i -= 1;
            buf[i] = b'.';
        }
        i -= 1;
        buf[i] = b'0' + mantissa.low_digit();
        mantissa = mantissa / T::TEN;
        written += 1;
    }
    // Only ASCII digits and '.' were written.
    std::str::from_utf8(&buf[i..]).unwrap_or_default()
}

/// Serializes money as its canonical JSON text.
pub(super) fn money<S: Serializer>(m: &Money, s: S) -> Result<S::Ok, S::Error> {
    Canonical(*m).serialize(s)
}

/// Money as a dealer says it: "$60", "$12.50", "$0.005" (same as
/// [`Money::to_dollars`], without allocating).
pub struct Dollars(pub Money);

impl Display for Dollars {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        write_decimal(f, self.0, Trim::Dollars)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocation_free_money_text_matches_money() {
        use rust_decimal::Decimal;
        let third = Money::from_decimal(Decimal::new(1, 2) / Decimal::from(3));
        let tiny = Money::from_decimal(Decimal::new(-1, 28));
        let negative_zero = Money::from_decimal(Decimal::from_parts(0, 0, 0, true, 2));
        let mut cases = vec![
            third,
            tiny,
            negative_zero,
            Money::from_decimal(Decimal::new(0, 5)),
        ];
        for text in [
            "0",
            "60",
            "60.5",
            "12.50",
            "0.005",
            "-5",
            "-0.25",
            "1000000000",
            "7.000",
            "0.10",
            "100",
            "-1000.010",
        ] {
            cases.push(Money::parse(text).unwrap());
        }
        for m in cases {
            assert_eq!(Canonical(m).to_string(), m.to_canonical(), "{m:?}");
            assert_eq!(Dollars(m).to_string(), m.to_dollars(), "{m:?}");
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(5_000))]
        #[test]
        // Up to 2^84 (far above any amount the limits allow; beyond ~10^26
        // `Money::to_canonical` cannot add its two decimals).
        fn money_text_matches_money_for_any_decimal(lo: u32, mid: u32, hi in 0u32..1 << 20, negative: bool, scale in 0u32..=28) {
            let m = Money::from_decimal(rust_decimal::Decimal::from_parts(lo, mid, hi, negative, scale));
            proptest::prop_assert_eq!(Canonical(m).to_string(), m.to_canonical());
            proptest::prop_assert_eq!(Dollars(m).to_string(), m.to_dollars());
        }
    }
}
