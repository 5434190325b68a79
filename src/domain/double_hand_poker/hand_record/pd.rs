//! The Player-Dealer's choice recorded with `pd_set` (double-hand-poker.md,
//! "Player-Dealer rotation"): the option the PD took and the players who
//! refused it before them. Both are absent from events recorded before they
//! existed, which parse and replay as they always did.

use serde::{Deserialize, Serialize};

use super::HandError;
use crate::common::text::FreeText;
use crate::double_hand_poker::settle::limits::NAME_CHARS_MAX;

/// What the PD chose when the option came to them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum PdOption {
    /// Bank two consecutive hands (recorded on both hands).
    BankTwo,
    /// Bank this hand, then pass the option on.
    BankOne,
}

impl PdOption {
    pub fn as_str(self) -> &'static str {
        match self {
            PdOption::BankTwo => "bank_two",
            PdOption::BankOne => "bank_one",
        }
    }

    /// Read aloud and shown on the pages.
    pub fn describe(self) -> &'static str {
        match self {
            PdOption::BankTwo => "banks two hands",
            PdOption::BankOne => "banks one hand, then passes the option",
        }
    }

    pub fn parse(text: &str) -> Option<PdOption> {
        match text {
            "bank_two" => Some(PdOption::BankTwo),
            "bank_one" => Some(PdOption::BankOne),
            _ => None,
        }
    }
}

/// A player who refused the PD option before this hand's PD took it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Declined {
    pub seat: i64,
    pub player: String,
}

/// Checks the refusals recorded with a `pd_set`: each seat at the table,
/// none the PD's own seat, no seat twice, each name free text
/// ([`FreeText::line`], 1..64 characters). The
/// error names the field (`declined[1].seat`) and the value.
pub fn check_declined(pd_seat: i64, declined: &[Declined], seats: i64) -> Result<(), HandError> {
    let bad = |i: usize, field: &str, value: String, why: String| HandError::Refused {
        field: format!("declined[{i}].{field}"),
        value,
        why,
    };
    for (i, d) in declined.iter().enumerate() {
        if !(1..=seats).contains(&d.seat) {
            return Err(bad(
                i,
                "seat",
                d.seat.to_string(),
                format!("is not a seat at this {seats}-seat table (1..{seats})"),
            ));
        }
        if d.seat == pd_seat {
            return Err(bad(
                i,
                "seat",
                d.seat.to_string(),
                "is the PD's seat: the PD took the option, so did not refuse it".into(),
            ));
        }
        if declined[..i].iter().any(|e| e.seat == d.seat) {
            return Err(bad(
                i,
                "seat",
                d.seat.to_string(),
                "is listed twice: a seat refuses the option once per hand".into(),
            ));
        }
        // Free text (trimmed, NFC, nothing invisible); the hand's state
        // records the normalised name (`HandState`'s `name`).
        FreeText::line(&format!("declined[{i}].player"), &d.player, NAME_CHARS_MAX)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(seat: i64, player: &str) -> Declined {
        Declined {
            seat,
            player: player.into(),
        }
    }

    #[test]
    fn refusals_are_checked_and_named() {
        assert_eq!(check_declined(1, &[], 7), Ok(()));
        assert_eq!(check_declined(1, &[d(2, "Ann"), d(3, "Bo")], 7), Ok(()));
        let long = "x".repeat(NAME_CHARS_MAX + 1);
        let cases: [(&[Declined], &str); 9] = [
            (
                &[d(8, "Ann")],
                "event.declined[0].seat: \"8\" is not a seat",
            ),
            (
                &[d(0, "Ann")],
                "event.declined[0].seat: \"0\" is not a seat",
            ),
            (
                &[d(2, "Ann"), d(1, "Dana")],
                "event.declined[1].seat: \"1\" is the PD's seat",
            ),
            (
                &[d(2, "Ann"), d(2, "Al")],
                "event.declined[1].seat: \"2\" is listed twice",
            ),
            (&[d(2, "")], "event.declined[0].player: \"\" is empty"),
            (
                &[d(2, "Ann"), d(3, "Bo\u{200B}")],
                "event.declined[1].player: \"Bo\\u{200B}\" contains U+200B",
            ),
            (
                &[d(2, "Ann\u{202E}x")],
                "event.declined[0].player: \"Ann\\u{202E}x\" contains U+202E",
            ),
            (
                &[d(2, "Ann\u{7}")],
                "event.declined[0].player: \"Ann\\u{0007}\" contains U+0007",
            ),
            (&[d(2, &long)], "event.declined[0].player: \"xxx"),
        ];
        for (declined, start) in cases {
            let err = check_declined(1, declined, 7).unwrap_err();
            assert!(err.to_string().starts_with(start), "{err}");
            assert!(err.is_bad_input() && !err.is_state_conflict(), "{err}");
        }
    }

    #[test]
    fn options_read_and_write_their_names() {
        for o in [PdOption::BankTwo, PdOption::BankOne] {
            assert_eq!(PdOption::parse(o.as_str()), Some(o));
            assert_eq!(serde_json::to_value(o).unwrap(), o.as_str());
        }
        assert_eq!(PdOption::parse("bank_three"), None);
    }
}
