//! A wager equal to one already on its seat: the same bettor, amount and
//! kind (primary or backline). Two such wagers are allowed — a player may
//! bet twice — but the page asks before recording the second, so the
//! browser's Back then resubmit is not a second bet unnoticed.

use super::HandState;
use crate::common::money::Money;
use crate::common::text::{FreeText, NAME_CHARS_MAX};
use crate::double_hand_poker::settle::WagerInput;

/// The first wager of `wagers` that `seat`, `bettor`, `amount` and
/// `backline` would repeat. The bettor is compared as recorded (trimmed,
/// NFC), so "Ann " repeats "Ann"; names differing in case are different
/// bettors, as in the settlement.
pub fn duplicate_wager<'a>(
    wagers: &'a [WagerInput],
    seat: i64,
    bettor: &str,
    amount: Money,
    backline: bool,
) -> Option<&'a WagerInput> {
    let name = FreeText::line("bettor", bettor, NAME_CHARS_MAX)
        .map(FreeText::into_string)
        .unwrap_or_else(|_| bettor.trim().to_string());
    wagers.iter().find(|w| {
        w.seat == seat && w.bettor == name && w.amount == amount && w.backline == backline
    })
}

impl HandState {
    /// The wager already in this hand that a new one would repeat.
    pub fn duplicate_wager(
        &self,
        seat: i64,
        bettor: &str,
        amount: Money,
        backline: bool,
    ) -> Option<&WagerInput> {
        duplicate_wager(self.wagers(), seat, bettor, amount, backline)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wager(seat: i64, bettor: &str, amount: &str, backline: bool) -> WagerInput {
        WagerInput::example(seat, bettor, amount, backline)
    }

    #[test]
    fn a_wager_repeats_one_with_the_same_seat_bettor_amount_and_kind() {
        let on_table = [wager(3, "Ann", "50", false), wager(3, "Bo", "20", true)];
        type Case<'a> = (&'a str, i64, &'a str, &'a str, bool, Option<&'a str>);
        let cases: [Case; 8] = [
            ("the same wager", 3, "Ann", "50", false, Some("w-3-Ann")),
            (
                "the same money written another way",
                3,
                "Ann",
                "50.00",
                false,
                Some("w-3-Ann"),
            ),
            (
                "the name with spaces around it",
                3,
                " Ann ",
                "50",
                false,
                Some("w-3-Ann"),
            ),
            ("the same backline", 3, "Bo", "20", true, Some("w-3-Bo")),
            ("another amount", 3, "Ann", "60", false, None),
            ("another seat", 4, "Ann", "50", false, None),
            ("another bettor (case counts)", 3, "ann", "50", false, None),
            ("a backline of the same amount", 3, "Ann", "50", true, None),
        ];
        for (name, seat, bettor, amount, backline, want) in cases {
            let got = duplicate_wager(
                &on_table,
                seat,
                bettor,
                Money::parse(amount).unwrap(),
                backline,
            );
            assert_eq!(got.map(|w| w.id.as_str()), want, "{name}");
        }
    }
}
