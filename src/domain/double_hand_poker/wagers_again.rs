//! The previous hand's wagers offered again. Players sit for hours and bet
//! the same way hand after hand, so the wagers step offers the last closed
//! hand's wagers at this table, seat by seat, for one tap each (or one for
//! all). Only what could be placed is offered: nothing on the new PD's seat
//! or by the new PD, and nothing already placed in this hand. What is
//! offered is still a wager like any other when sent: the hand's rules
//! (seats, limits, the bank) check it on every path.

use crate::common::money::Money;
use crate::double_hand_poker::settle::WagerInput;

/// One wager of the previous hand, offered for this one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WagerOffer {
    pub seat: i64,
    pub bettor: String,
    pub amount: Money,
    pub backline: bool,
}

impl WagerOffer {
    fn of(w: &WagerInput) -> WagerOffer {
        WagerOffer {
            seat: w.seat,
            bettor: w.bettor.clone(),
            amount: w.amount,
            backline: w.backline,
        }
    }

    fn is(&self, w: &WagerInput) -> bool {
        self == &WagerOffer::of(w)
    }
}

/// The wagers of `previous` to offer again, given the wagers already
/// `placed` in this hand and this hand's PD (seat, player): in seat order,
/// a seat's own wager before its backline wagers. A wager placed twice last
/// hand is offered twice; each one placed now takes one offer away.
pub fn wagers_again(
    previous: &[WagerInput],
    placed: &[WagerInput],
    pd: Option<(i64, &str)>,
) -> Vec<WagerOffer> {
    let mut unmatched: Vec<&WagerInput> = placed.iter().collect();
    let mut offers: Vec<WagerOffer> = previous
        .iter()
        .filter(|w| pd.is_none_or(|(seat, player)| w.seat != seat && w.bettor != player))
        .filter(
            |w| match unmatched.iter().position(|p| WagerOffer::of(w).is(p)) {
                Some(i) => {
                    unmatched.swap_remove(i);
                    false
                }
                None => true,
            },
        )
        .map(WagerOffer::of)
        .collect();
    offers.sort_by_key(|o| (o.seat, o.backline));
    offers
}

/// Most bettors a seat's sheet offers as buttons.
pub const BETTORS_MAX: usize = 8;

/// The bettors a seat's sheet offers as buttons: the names seen wagering
/// at `seat` in the `recent` hands' wagers (most recent hand first), then
/// the others seen at the table, each once and never the PD; at most
/// [`BETTORS_MAX`]. Without a seat, everyone seen at the table.
pub fn recent_bettors(
    recent: &[&[WagerInput]],
    seat: Option<i64>,
    pd: Option<&str>,
) -> Vec<String> {
    let seen = recent.iter().flat_map(|wagers| wagers.iter());
    let at_seat = seen.clone().filter(|w| Some(w.seat) == seat);
    let mut names: Vec<String> = Vec::with_capacity(BETTORS_MAX);
    for w in at_seat.chain(seen) {
        if names.len() == BETTORS_MAX {
            break;
        }
        if pd != Some(w.bettor.as_str()) && !names.contains(&w.bettor) {
            names.push(w.bettor.clone());
        }
    }
    names
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wager(seat: i64, bettor: &str, amount: &str, backline: bool) -> WagerInput {
        WagerInput::example(seat, bettor, amount, backline)
    }

    fn names(offers: &[WagerOffer]) -> Vec<(i64, &str, String, bool)> {
        offers
            .iter()
            .map(|o| (o.seat, o.bettor.as_str(), o.amount.to_string(), o.backline))
            .collect()
    }

    #[test]
    fn the_previous_hands_wagers_are_offered_in_seat_order() {
        struct Case {
            name: &'static str,
            previous: Vec<WagerInput>,
            placed: Vec<WagerInput>,
            pd: Option<(i64, &'static str)>,
            want: Vec<(i64, &'static str, &'static str, bool)>,
        }
        let last = || {
            vec![
                wager(4, "Cy", "60", false),
                wager(3, "Gus", "10", true),
                wager(2, "Ann", "50", false),
                wager(3, "Bo", "40", false),
            ]
        };
        let cases = [
            Case {
                name: "a fresh hand: every wager, seat by seat, own before backline",
                previous: last(),
                placed: vec![],
                pd: Some((1, "Dana")),
                want: vec![
                    (2, "Ann", "50.00", false),
                    (3, "Bo", "40.00", false),
                    (3, "Gus", "10.00", true),
                    (4, "Cy", "60.00", false),
                ],
            },
            Case {
                name: "a wager placed already is not offered again",
                previous: last(),
                placed: vec![wager(3, "Bo", "40", false)],
                pd: Some((1, "Dana")),
                want: vec![
                    (2, "Ann", "50.00", false),
                    (3, "Gus", "10.00", true),
                    (4, "Cy", "60.00", false),
                ],
            },
            Case {
                name: "a different amount placed leaves the offer",
                previous: vec![wager(2, "Ann", "50", false)],
                placed: vec![wager(2, "Ann", "25", false)],
                pd: None,
                want: vec![(2, "Ann", "50.00", false)],
            },
            Case {
                name: "the new PD's seat and the new PD's own wagers are not offered",
                previous: last(),
                placed: vec![],
                pd: Some((3, "Cy")),
                want: vec![(2, "Ann", "50.00", false)],
            },
            Case {
                name: "two equal wagers last hand, one placed: one offered",
                previous: vec![wager(2, "Ann", "50", false), wager(2, "Ann", "50", false)],
                placed: vec![wager(2, "Ann", "50", false)],
                pd: None,
                want: vec![(2, "Ann", "50.00", false)],
            },
            Case {
                name: "no previous hand: nothing offered",
                previous: vec![],
                placed: vec![wager(2, "Ann", "50", false)],
                pd: Some((1, "Dana")),
                want: vec![],
            },
        ];
        for c in cases {
            let got = wagers_again(&c.previous, &c.placed, c.pd);
            let want: Vec<_> = c
                .want
                .iter()
                .map(|&(s, b, a, l)| (s, b, a.to_string(), l))
                .collect();
            assert_eq!(names(&got), want, "{}", c.name);
        }
    }

    #[test]
    fn a_seats_sheet_offers_who_bet_there_first_then_the_table() {
        let last = [wager(4, "Cy", "60", false), wager(3, "Bo", "40", false)];
        let before = [wager(4, "Ann", "50", false), wager(2, "Dana", "10", false)];
        let hands: [&[WagerInput]; 2] = [&last, &before];
        let got = recent_bettors(&hands, Some(4), Some("Dana"));
        assert_eq!(
            got,
            ["Cy", "Ann", "Bo"],
            "seat 4's bettors, newest first, then Bo; never the PD"
        );
        assert_eq!(
            recent_bettors(&hands, None, None),
            ["Cy", "Bo", "Ann", "Dana"]
        );
        assert!(
            recent_bettors(&[], Some(4), None).is_empty(),
            "a new table: no names yet"
        );
        let many: Vec<WagerInput> = (0..20)
            .map(|i| wager(2, &format!("P{i}"), "5", false))
            .collect();
        assert_eq!(recent_bettors(&[&many], Some(2), None).len(), BETTORS_MAX);
    }
}
