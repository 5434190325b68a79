//! A player's history asked for by name: every hand where the name
//! appears as PD or bettor, matched exactly but for case; and the rule of
//! its totals.

use serde::Serialize;

use super::filter::{Cursor, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, name_key};
use crate::common::field_error::FieldError;
use crate::common::money::Money;
use crate::common::text::NAME_CHARS_MAX;

/// A person's totals: the money of their closed hands (corrections
/// applied) only; the open hands (money not final) and the voided ones
/// (every bet returned) are counted apart, never summed. Over the hands
/// summed, staked − received = −net (the collection is apart).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, utoipa::ToSchema)]
pub struct PlayerTotals {
    /// The closed hands summed.
    pub hands: i64,
    pub staked: Money,
    pub received: Money,
    pub net: Money,
    /// Hands still open, not in the totals.
    pub open: i64,
    /// Hands voided, not in the totals.
    pub voided: i64,
}

impl PlayerTotals {
    /// The totals, once staked − received = −net holds; Err names the sums
    /// that break it (a projection that does not add up: a bug).
    pub fn checked(self) -> Result<PlayerTotals, String> {
        if self.staked - self.received == -self.net {
            Ok(self)
        } else {
            Err(format!(
                "totals do not add up: staked {} − received {} ≠ −net {}",
                self.staked, self.received, self.net
            ))
        }
    }

    /// Every hand with the name, summed or not.
    pub fn all_hands(&self) -> i64 {
        self.hands + self.open + self.voided
    }

    /// What is left out, in words (`totals::left_out`).
    pub fn left_out(&self) -> String {
        super::totals::left_out(self.open, self.voided)
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerQuery {
    /// The name as typed, trimmed.
    pub name: String,
    /// As compared (`name_key`).
    pub key: String,
    pub after: Option<Cursor>,
    pub limit: usize,
}

impl PlayerQuery {
    /// From the query string: `player` (the name, required), `after`, `limit`.
    pub fn parse(pairs: &[(String, String)]) -> Result<PlayerQuery, Vec<FieldError>> {
        let get = |key: &str| {
            pairs
                .iter()
                .find(|(k, v)| k == key && !v.trim().is_empty())
                .map(|(_, v)| v.trim())
        };
        let mut errors = Vec::new();
        let name = get("player").unwrap_or("");
        if name.is_empty() {
            errors.push(FieldError::new("player", "a player's name is required"));
        } else if name.chars().count() > NAME_CHARS_MAX {
            errors.push(
                FieldError::new("player", format!("at most {NAME_CHARS_MAX} characters"))
                    .with_value(name),
            );
        }
        let after = match get("after") {
            None => None,
            Some(text) => match Cursor::decode(text) {
                Some(c) => Some(c),
                None => {
                    errors.push(
                        FieldError::new("after", "is not a page of these results; start again")
                            .with_value(text),
                    );
                    None
                }
            },
        };
        let limit = match get("limit") {
            None => PAGE_SIZE_DEFAULT,
            Some(text) => match text.parse::<usize>() {
                Ok(n) if (1..=PAGE_SIZE_MAX).contains(&n) => n,
                _ => {
                    let message =
                        format!("\"{text}\" is not a page size from 1 to {PAGE_SIZE_MAX}");
                    errors.push(FieldError::new("limit", message).with_value(text));
                    PAGE_SIZE_DEFAULT
                }
            },
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(PlayerQuery {
            name: name.to_string(),
            key: name_key(name),
            after,
            limit,
        })
    }
}

#[cfg(test)]
mod totals_tests {
    use super::*;

    fn m(text: &str) -> Money {
        Money::parse(text).unwrap()
    }

    #[test]
    fn totals_add_up_and_say_what_they_leave_out() {
        let pd = PlayerTotals {
            hands: 1,
            staked: m("2000"),
            received: m("1131.04"),
            net: m("-868.96"),
            open: 4,
            voided: 1,
        };
        assert_eq!(pd.clone().checked(), Ok(pd.clone()));
        assert_eq!(pd.left_out(), "4 open, 1 voided — not in the totals");
        assert_eq!(pd.all_hands(), 6);
        let broken = PlayerTotals {
            staked: m("12000"),
            ..pd
        };
        assert!(broken.checked().unwrap_err().contains("do not add up"));
        assert_eq!(PlayerTotals::default().left_out(), "");
    }
}
