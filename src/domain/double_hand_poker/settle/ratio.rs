//! Payout ratios "p:q": a win pays p for every q staked.

use std::fmt;

use serde::{Serialize, Serializer};

use super::error::SettleError;
use super::limits::PAYOUT_TERM_MAX;

/// A payout ratio p:q with 1 ≤ q ≤ p ≤ [`PAYOUT_TERM_MAX`]. Ratios below even
/// money (p < q) are refused: with them the PD could win more than the bank,
/// which the rules forbid. Not reduced: "2:2" is kept as written and pays
/// like "1:1".
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    p: u32,
    q: u32,
}

impl Ratio {
    pub const EVEN: Ratio = Ratio { p: 1, q: 1 };

    /// What [`Ratio::parse`] takes but for `p < q`, as a JSON Schema
    /// pattern: each side 1 to 100 in at most three digits.
    pub const PATTERN: &str = "^(?:[1-9]|0[1-9]|[1-9][0-9]|00[1-9]|0[1-9][0-9]|100):(?:[1-9]|0[1-9]|[1-9][0-9]|00[1-9]|0[1-9][0-9]|100)$";

    /// Parses "p:q" (ASCII digits, no spaces or signs).
    pub fn parse(field: &str, text: &str) -> Result<Ratio, SettleError> {
        let bad = |reason| SettleError::BadPayout {
            field: field.into(),
            value: text.into(),
            reason,
        };
        let Some((p, q)) = text.split_once(':') else {
            return Err(bad("write it as \"p:q\", e.g. \"3:2\""));
        };
        let term = |s: &str| -> Result<u32, SettleError> {
            if s.is_empty() || s.len() > 3 || !s.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad("each side must be a whole number, e.g. \"3:2\""));
            }
            // At most 3 ASCII digits: always fits.
            let n: u32 = s
                .parse()
                .map_err(|_| bad("each side must be a whole number, e.g. \"3:2\""))?;
            if n == 0 {
                return Err(bad("neither side may be 0"));
            }
            if n > PAYOUT_TERM_MAX {
                return Err(bad("each side must be at most 100"));
            }
            Ok(n)
        };
        let (p, q) = (term(p)?, term(q)?);
        if p < q {
            return Err(bad(
                "payouts below even money (p < q) are not supported: the PD could win more than the bank",
            ));
        }
        Ok(Ratio { p, q })
    }

    /// What the bettor is paid per `q` staked.
    pub fn p(self) -> u32 {
        self.p
    }

    pub fn q(self) -> u32 {
        self.q
    }

    /// True for 1:1, 2:2, ...: the payout equals the stake.
    pub fn is_even(self) -> bool {
        self.p == self.q
    }
}

impl Default for Ratio {
    fn default() -> Self {
        Ratio::EVEN
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.p, self.q)
    }
}

/// A payout's schema in the API contract: the "p:q" text `Ratio` writes.
impl utoipa::PartialSchema for Ratio {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::common::schema::string(
            "A payout ratio \"p:q\": the bettor is paid p per q staked (q ≤ p).",
            Some("^[0-9]+:[0-9]+$"),
            serde_json::json!("3:2"),
        )
        .into()
    }
}

impl utoipa::ToSchema for Ratio {
    fn name() -> std::borrow::Cow<'static, str> {
        "Payout".into()
    }
}

impl Serialize for Ratio {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_good_ratios() {
        assert_eq!(Ratio::parse("p", "3:2").unwrap(), Ratio { p: 3, q: 2 });
        assert_eq!(Ratio::parse("p", "1:1").unwrap(), Ratio::EVEN);
        assert_eq!(Ratio::parse("p", "100:1").unwrap().p(), 100);
        assert!(Ratio::parse("p", "2:2").unwrap().is_even());
        assert_eq!(Ratio::parse("p", "6:5").unwrap().to_string(), "6:5");
    }

    #[test]
    fn rejects_bad_ratios_naming_field_and_value() {
        for bad in [
            "0:1", "3:0", "x", "", ":", "3:", ":2", "3:2:1", "-3:2", "3 :2", "+3:2", "1.5:1",
            "101:1", "1:2", "1000:1",
        ] {
            let err = Ratio::parse("wagers[1].payout", bad).unwrap_err();
            let msg = err.to_string();
            assert!(
                msg.starts_with(&format!("wagers[1].payout: \"{bad}\"")),
                "{msg}"
            );
            assert!(err.is_bad_input());
        }
    }
}
