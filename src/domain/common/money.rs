//! Exact decimal money. Never constructed from a float: the only ways in are
//! parsing a decimal string, whole units, or arithmetic on other `Money`.

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Neg, Sub, SubAssign};
use std::str::FromStr;

use rust_decimal::Decimal;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::field_error::{AsFieldError, FieldError};

/// Longest money string accepted: far above any table limit, well below
/// rust_decimal's 28 significant digits.
pub const MONEY_TEXT_LEN_MAX: usize = 24;

/// Longest canonical text: 29 digits (a leading 0 before the point), the
/// point and a sign.
const CANONICAL_LEN_MAX: usize = 32;

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoneyError {
    #[error(
        "{field}: \"{value}\" is not a decimal amount (use digits with an optional '.', e.g. \"12.50\")"
    )]
    Syntax { field: String, value: String },
    #[error("{field}: {value} must be greater than 0")]
    NotPositive { field: String, value: String },
    #[error("{field}: {value} must not be negative")]
    Negative { field: String, value: String },
    #[error("{field}: {value} is finer than the table's smallest unit {unit}")]
    FinerThanUnit {
        field: String,
        value: String,
        unit: String,
    },
    #[error(
        "{field}: \"{value}\" is not a valid smallest unit (a positive amount such as \"0.01\" or \"1\")"
    )]
    BadUnit { field: String, value: String },
}

impl AsFieldError for MoneyError {
    fn field_error(&self) -> Option<FieldError> {
        let (MoneyError::Syntax { field, value }
        | MoneyError::NotPositive { field, value }
        | MoneyError::Negative { field, value }
        | MoneyError::FinerThanUnit { field, value, .. }
        | MoneyError::BadUnit { field, value }) = self;
        Some(FieldError::worded(field.as_str(), self).with_value(value.as_str()))
    }
}

/// An exact amount of money (it may be negative, e.g. a net result).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Money(Decimal);

/// An amount of at most 18 digits (almost every amount: "1234.50") built
/// straight from its digits, already checked to be ASCII digits; the general
/// decimal parser is slower, and a replayed settlement reads ~100 amounts.
/// None for longer ones and for a negative zero (left to that parser, which
/// keeps its sign).
fn short_amount(negative: bool, int: &str, frac: &str) -> Option<Money> {
    if int.len() + frac.len() > 18 {
        return None;
    }
    let magnitude = int
        .bytes()
        .chain(frac.bytes())
        .fold(0i64, |m, b| m * 10 + i64::from(b - b'0'));
    if negative && magnitude == 0 {
        return None;
    }
    let mantissa = if negative { -magnitude } else { magnitude };
    Some(Money(Decimal::new(mantissa, frac.len() as u32)))
}

impl Money {
    pub const ZERO: Money = Money(Decimal::ZERO);

    /// Parses the strict text form: optional '-', digits, optional '.digits'.
    /// No exponent, no NaN, no spaces, no '+', no thousands separators.
    pub fn parse(text: &str) -> Result<Money, MoneyError> {
        let syntax = || MoneyError::Syntax {
            field: "amount".into(),
            value: text.into(),
        };
        if text.is_empty() || text.len() > MONEY_TEXT_LEN_MAX {
            return Err(syntax());
        }
        let digits = text.strip_prefix('-').unwrap_or(text);
        let (int, frac) = match digits.split_once('.') {
            Some((i, f)) => (i, Some(f)),
            None => (digits, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(int) || frac.is_some_and(|f| !all_digits(f)) {
            return Err(syntax());
        }
        if let Some(money) = short_amount(text.starts_with('-'), int, frac.unwrap_or("")) {
            return Ok(money);
        }
        Decimal::from_str_exact(text)
            .map(Money)
            .map_err(|_| syntax())
    }

    /// Whole units (chips, dollars): exact by construction.
    pub fn from_units(units: i64) -> Money {
        Money(Decimal::from(units))
    }

    /// Only for code paths that already hold an exact decimal (database NUMERIC).
    pub fn from_decimal(value: Decimal) -> Money {
        Money(value)
    }

    pub fn as_decimal(self) -> Decimal {
        self.0
    }

    pub fn is_zero(self) -> bool {
        self.0.is_zero()
    }

    pub fn is_negative(self) -> bool {
        self.0.is_sign_negative() && !self.0.is_zero()
    }

    pub fn min(self, other: Money) -> Money {
        if self <= other { self } else { other }
    }

    /// `self × numerator / denominator`, rounded down (toward zero) to `unit`.
    /// Returns the rounded value; the exact value minus it is breakage.
    pub fn mul_ratio_floor(self, numerator: u32, denominator: u32, unit: Unit) -> Money {
        debug_assert!(denominator > 0);
        let exact = self.0 * Decimal::from(numerator) / Decimal::from(denominator);
        unit.floor(Money(exact))
    }

    /// Canonical text: at least two decimal places, no trailing zeros beyond.
    pub fn to_canonical(self) -> String {
        self.canonical_into(&mut [0; CANONICAL_LEN_MAX]).to_string()
    }

    /// [`Self::to_canonical`] written into `buf`, the digits from the end:
    /// no allocation (an export writes a dozen amounts a wager).
    fn canonical_into(self, buf: &mut [u8; CANONICAL_LEN_MAX]) -> &str {
        let mut d = self.0.normalize();
        if d.scale() < 2 {
            d.rescale(2);
        }
        let scale = d.scale() as usize;
        let mut digits = d.mantissa().unsigned_abs();
        let mut at = buf.len();
        let mut written = 0;
        loop {
            at -= 1;
            buf[at] = b'0' + (digits % 10) as u8;
            digits /= 10;
            written += 1;
            if written == scale {
                at -= 1;
                buf[at] = b'.';
            }
            if digits == 0 && written > scale {
                break;
            }
        }
        // As rust_decimal writes it: a negative zero keeps its sign.
        if d.is_sign_negative() {
            at -= 1;
            buf[at] = b'-';
        }
        std::str::from_utf8(&buf[at..]).unwrap_or_default()
    }

    /// For a person reading a page: thousands separated, at least two
    /// decimals, a real minus sign — "1,234.50", "−868.96", "0.005".
    pub fn to_display(self) -> String {
        let canonical = Money(self.0.abs()).to_canonical();
        let (whole, fraction) = canonical.split_once('.').unwrap_or((&canonical, ""));
        let mut out = String::with_capacity(canonical.len() + whole.len() / 3 + 3);
        if self.is_negative() {
            out.push('\u{2212}');
        }
        for (i, digit) in whole.chars().enumerate() {
            if i > 0 && (whole.len() - i) % 3 == 0 {
                out.push(',');
            }
            out.push(digit);
        }
        out.push('.');
        out.push_str(fraction);
        out
    }

    /// Dealer-friendly form for explanations: "$60", "$12.50", "-$5".
    pub fn to_dollars(self) -> String {
        let abs = self.0.abs().normalize();
        let body = if abs.scale() == 0 {
            abs.to_string()
        } else {
            Money(abs).to_canonical()
        };
        if self.is_negative() {
            format!("-${body}")
        } else {
            format!("${body}")
        }
    }
}

impl fmt::Display for Money {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.to_canonical())
    }
}

impl FromStr for Money {
    type Err = MoneyError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Money::parse(s)
    }
}

impl Add for Money {
    type Output = Money;
    fn add(self, rhs: Money) -> Money {
        Money(self.0 + rhs.0)
    }
}
impl Sub for Money {
    type Output = Money;
    fn sub(self, rhs: Money) -> Money {
        Money(self.0 - rhs.0)
    }
}
impl Neg for Money {
    type Output = Money;
    fn neg(self) -> Money {
        Money(-self.0)
    }
}
impl AddAssign for Money {
    fn add_assign(&mut self, rhs: Money) {
        self.0 += rhs.0;
    }
}
impl SubAssign for Money {
    fn sub_assign(&mut self, rhs: Money) {
        self.0 -= rhs.0;
    }
}
impl Sum for Money {
    fn sum<I: Iterator<Item = Money>>(iter: I) -> Money {
        iter.fold(Money::ZERO, Add::add)
    }
}

impl Serialize for Money {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.canonical_into(&mut [0; CANONICAL_LEN_MAX]))
    }
}

/// Money's schema in the API contract: the string `Money::parse` takes.
impl utoipa::PartialSchema for Money {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        super::schema::string(
            "An exact amount as a decimal string (never a JSON number): \"12.50\", \"-20.00\".",
            Some(super::schema::MONEY_PATTERN),
            serde_json::json!("12.50"),
        )
        .into()
    }
}

impl utoipa::ToSchema for Money {}

/// JSON carries money only as a string: a JSON number is an error.
impl<'de> Deserialize<'de> for Money {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl serde::de::Visitor<'_> for V {
            type Value = Money;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("money as a decimal string such as \"12.50\"")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Money, E> {
                Money::parse(v).map_err(|_| {
                    E::custom(format!("\"{v}\" is not a decimal amount (use digits with an optional '.', e.g. \"12.50\")"))
                })
            }
        }
        d.deserialize_str(V)
    }
}

/// The table's smallest unit of money (option `min_unit`): every amount is a
/// whole multiple of it. Always > 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Unit(Money);

impl Unit {
    pub const CENT: Unit = Unit(Money(Decimal::from_parts(1, 0, 0, false, 2)));

    pub fn parse(field: &str, text: &str) -> Result<Unit, MoneyError> {
        let bad = || MoneyError::BadUnit {
            field: field.into(),
            value: text.into(),
        };
        let m = Money::parse(text).map_err(|_| bad())?;
        if m.is_negative() || m.is_zero() {
            return Err(bad());
        }
        Ok(Unit(m))
    }

    pub fn amount(self) -> Money {
        self.0
    }

    pub fn is_multiple(self, m: Money) -> bool {
        (m.0 % self.0.0).is_zero()
    }

    /// Rounds toward zero to a whole multiple of the unit.
    pub fn floor(self, m: Money) -> Money {
        let units = (m.0 / self.0.0).trunc();
        Money(units * self.0.0)
    }

    /// Checks an amount that must be > 0 and a multiple of the unit.
    pub fn positive(self, field: &str, m: Money) -> Result<Money, MoneyError> {
        if m.is_negative() || m.is_zero() {
            return Err(MoneyError::NotPositive {
                field: field.into(),
                value: m.to_canonical(),
            });
        }
        self.on_grid(field, m)
    }

    /// Checks an amount that must be ≥ 0 and a multiple of the unit.
    pub fn non_negative(self, field: &str, m: Money) -> Result<Money, MoneyError> {
        if m.is_negative() {
            return Err(MoneyError::Negative {
                field: field.into(),
                value: m.to_canonical(),
            });
        }
        self.on_grid(field, m)
    }

    fn on_grid(self, field: &str, m: Money) -> Result<Money, MoneyError> {
        if !self.is_multiple(m) {
            return Err(MoneyError::FinerThanUnit {
                field: field.into(),
                value: m.to_canonical(),
                unit: self.0.0.normalize().to_string(),
            });
        }
        Ok(m)
    }
}

impl Default for Unit {
    fn default() -> Self {
        Unit::CENT
    }
}

impl fmt::Display for Unit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0.0.normalize())
    }
}

/// The table's smallest unit: money text above zero.
impl utoipa::PartialSchema for Unit {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        super::schema::string(
            "The smallest unit of money at the table, above zero, as a decimal string: \"1\", \"0.01\".",
            Some(r"^[0-9]+(\.[0-9]+)?$"),
            serde_json::json!("1"),
        )
        .into()
    }
}

impl utoipa::ToSchema for Unit {
    fn name() -> std::borrow::Cow<'static, str> {
        "MoneyUnit".into()
    }
}

impl Serialize for Unit {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.to_string())
    }
}

impl<'de> Deserialize<'de> for Unit {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let m = Money::deserialize(d)?;
        if m.is_negative() || m.is_zero() {
            return Err(serde::de::Error::custom(format!(
                "min_unit {m} must be greater than 0"
            )));
        }
        Ok(Unit(m))
    }
}

#[cfg(test)]
#[path = "money_tests.rs"]
mod tests;
