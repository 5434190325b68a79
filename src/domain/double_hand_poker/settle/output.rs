//! The settlement: what the engine returns and what the CLI and HTTP print.
//! It borrows names and ids from its [`Scenario`](super::Scenario), so
//! settling allocates little; serialize it with `serde_json`. Money is always
//! a JSON string. Explanations are rendered while serializing (or with
//! [`Step::explanation`]).

use std::fmt::{self, Display, Formatter, Write as _};

use serde::ser::{SerializeMap, SerializeStruct};
use serde::{Serialize, Serializer};

use super::hands::{SeatHand, SeatHands};
use super::ratio::Ratio;
use super::scenario::{Grid, PD_KEY, Pd};
use crate::common::money::Money;
use crate::double_hand_poker::options::RuleOptions;
use crate::double_hand_poker::outcome::Outcome;

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

/// Renders a step's sentence without intermediate allocations: its
/// amounts as the JSON's explanation writes them (`$1234.5`), or, `shown`,
/// as the pages show money (`1,234.50`).
struct Explanation<'s, 'a> {
    step: &'s Step<'a>,
    shown: bool,
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

/// Money in its canonical JSON text (as [`Money::to_canonical`]: at least
/// two decimals), written straight into the output without allocating.
struct Canonical(Money);

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

fn money<S: Serializer>(m: &Money, s: S) -> Result<S::Ok, S::Error> {
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
