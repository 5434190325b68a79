//! The Player-Dealer rotation proposal (double-hand-poker.md, "Player-Dealer
//! rotation"): the option rotates clockwise; the player who takes it banks
//! two consecutive hands or one, or refuses and it passes on; the next PD
//! must have wagered at least `pd_min_wagers` times in the current round of
//! rotation. Pure: the web shell gathers the table's recent hands.

use crate::double_hand_poker::hand_record::{Declined, PdOption};

/// One earlier hand at the table, for the rotation proposal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PastHand {
    pub pd_seat: i64,
    pub pd_player: String,
    /// The option the PD chose; None for hands recorded without it.
    pub option: Option<PdOption>,
    /// The players who refused the option before this PD took it.
    pub declined: Vec<Declined>,
    /// (seat, bettor) of each primary wager.
    pub primary_wagers: Vec<(i64, String)>,
}

/// Who the product proposes as the next PD, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PdProposal {
    pub seat: i64,
    pub player: String,
    pub why: String,
    /// The PD of the last hand banks the second of two hands: the option
    /// is already chosen (`bank_two`).
    pub second_hand: bool,
}

/// The next PD. `history` is the table's recent hands, oldest first;
/// `refused` the seats that refused the option for the hand being set up.
///
/// - After the first hand of `bank_two` the same PD is proposed again.
/// - After `bank_one`, or the second hand of `bank_two`, the option passes
///   clockwise to the first seat whose player placed at least
///   `pd_min_wagers` primary wagers in their current round of rotation:
///   the hands since the option last left the seat — since it banked, or
///   since its player refused the option (a refusal is the seat's turn).
/// - A hand recorded without an option (before options were recorded)
///   counts as before: one hand by a PD may be followed by a second.
///
/// None when there is no history or nobody is eligible (the dealer asks the
/// table).
pub fn propose_pd(
    history: &[PastHand],
    refused: &[i64],
    seats: i64,
    pd_min_wagers: u32,
) -> Option<PdProposal> {
    let last = history.last()?;
    if turn_open(history) && !refused.contains(&last.pd_seat) {
        let why = match last.option {
            Some(PdOption::BankTwo) => format!(
                "{} chose to bank two hands: this is the second",
                last.pd_player
            ),
            _ => format!(
                "{} banked one hand and may bank a second in a row (or pass the option on)",
                last.pd_player
            ),
        };
        return Some(PdProposal {
            seat: last.pd_seat,
            player: last.pd_player.clone(),
            why,
            second_hand: last.option == Some(PdOption::BankTwo),
        });
    }
    for step in 1..seats {
        let seat = (last.pd_seat - 1 + step).rem_euclid(seats) + 1;
        if refused.contains(&seat) {
            continue;
        }
        // The seat's round of rotation: the hands since the option last
        // left it (it banked, or its player refused).
        let since = history
            .iter()
            .rposition(|h| h.pd_seat == seat || h.declined.iter().any(|d| d.seat == seat))
            .map_or(0, |i| i + 1);
        let round = &history[since..];
        let Some(player) = round.iter().rev().find_map(|h| {
            h.primary_wagers
                .iter()
                .find(|(s, _)| *s == seat)
                .map(|(_, p)| p.clone())
        }) else {
            continue;
        };
        let wagers = round
            .iter()
            .filter(|h| {
                h.primary_wagers
                    .iter()
                    .any(|(s, p)| *s == seat && *p == player)
            })
            .count();
        if wagers >= pd_min_wagers as usize {
            return Some(PdProposal {
                seat,
                player,
                why: format!(
                    "next clockwise with {wagers} wagers this round (at least {pd_min_wagers} needed)"
                ),
                second_hand: false,
            });
        }
    }
    None
}

/// True when the last hand's PD has a hand of their turn still to bank.
fn turn_open(history: &[PastHand]) -> bool {
    let Some(last) = history.last() else {
        return false;
    };
    let same = |h: &&PastHand| h.pd_seat == last.pd_seat && h.pd_player == last.pd_player;
    let run = history.iter().rev().take_while(same).count();
    if last.option.is_none() {
        // Hands recorded without an option: one hand may be followed by a
        // second, never more (the rule before options were recorded).
        return run == 1;
    }
    // Split the PD's consecutive hands into turns, oldest first: a
    // `bank_one` hand is a whole turn; `bank_two` (or an unrecorded option)
    // opens a turn the next hand closes.
    let mut open = false;
    for h in &history[history.len() - run..] {
        open = !open && h.option != Some(PdOption::BankOne);
    }
    open
}

#[cfg(test)]
mod tests {
    use super::*;

    const REGULARS: &[(i64, &str)] = &[(2, "Ann"), (3, "Bo"), (4, "Cy")];

    fn past(pd_seat: i64, pd: &str, option: Option<PdOption>, wagers: &[(i64, &str)]) -> PastHand {
        PastHand {
            pd_seat,
            pd_player: pd.into(),
            option,
            declined: Vec::new(),
            primary_wagers: wagers.iter().map(|(s, p)| (*s, p.to_string())).collect(),
        }
    }

    fn refusing(mut hand: PastHand, seats: &[(i64, &str)]) -> PastHand {
        hand.declined = seats
            .iter()
            .map(|(seat, player)| Declined {
                seat: *seat,
                player: player.to_string(),
            })
            .collect();
        hand
    }

    /// Three hands of warm-up, without a recorded option, in which Dana
    /// (seat 1) then Fay (seat 6) bank and Ann, Bo and Cy wager each time.
    fn warm_up() -> Vec<PastHand> {
        vec![
            past(1, "Dana", None, REGULARS),
            past(1, "Dana", None, REGULARS),
            past(6, "Fay", None, REGULARS),
        ]
    }

    fn with(mut history: Vec<PastHand>, more: Vec<PastHand>) -> Vec<PastHand> {
        history.extend(more);
        history
    }

    /// Dana (seat 1) banks three hands one at a time while Ann (seat 2)
    /// wagers; then the option reaches Ann, who refuses (or not) and Bo
    /// (seat 3) banks one hand; then Cy (seat 4) banks `later` hands, one at
    /// a time, with Ann wagering.
    fn ann_refuses(refused: bool, later: usize) -> Vec<PastHand> {
        let ann: &[(i64, &str)] = &[(2, "Ann")];
        let one = Some(PdOption::BankOne);
        let mut history = vec![past(1, "Dana", one, ann); 3];
        let bo = past(3, "Bo", one, ann);
        history.push(if refused {
            refusing(bo, &[(2, "Ann")])
        } else {
            bo
        });
        history.extend(vec![past(4, "Cy", one, ann); later]);
        history
    }

    struct Case {
        name: &'static str,
        history: Vec<PastHand>,
        refused: &'static [i64],
        min: u32,
        want: Option<(i64, &'static str, bool)>,
    }

    #[test]
    fn the_rotation_follows_the_option_chosen() {
        use PdOption::{BankOne, BankTwo};
        let two = Some(BankTwo);
        let one = Some(BankOne);
        let cases = vec![
            Case {
                name: "no history: ask the table",
                history: vec![],
                refused: &[],
                min: 3,
                want: None,
            },
            Case {
                name: "first of bank_two: the same PD again",
                history: with(warm_up(), vec![past(5, "Eve", two, REGULARS)]),
                refused: &[],
                min: 3,
                want: Some((5, "Eve", true)),
            },
            Case {
                name: "second of bank_two: passes clockwise (seats 6, 7 and 1 have no wagers; 2 Ann)",
                history: with(
                    warm_up(),
                    vec![past(5, "Eve", two, REGULARS), past(5, "Eve", two, REGULARS)],
                ),
                refused: &[],
                min: 3,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "bank_two twice then bank_two again: a new turn, proposed again",
                history: with(
                    warm_up(),
                    vec![
                        past(5, "Eve", two, REGULARS),
                        past(5, "Eve", two, REGULARS),
                        past(5, "Eve", two, REGULARS),
                    ],
                ),
                refused: &[],
                min: 3,
                want: Some((5, "Eve", true)),
            },
            Case {
                name: "an old hand then bank_two by the same PD: the second of two, passes on",
                history: with(
                    warm_up(),
                    vec![
                        past(5, "Eve", None, REGULARS),
                        past(5, "Eve", two, REGULARS),
                    ],
                ),
                refused: &[],
                min: 3,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "bank_one: passes on at once",
                history: with(warm_up(), vec![past(5, "Eve", one, REGULARS)]),
                refused: &[],
                min: 3,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "a refusal now skips to the next eligible",
                history: with(warm_up(), vec![past(5, "Eve", one, REGULARS)]),
                refused: &[2],
                min: 3,
                want: Some((3, "Bo", false)),
            },
            Case {
                name: "the PD due a second hand refuses it: passes on",
                history: with(warm_up(), vec![past(5, "Eve", two, REGULARS)]),
                refused: &[5],
                min: 3,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "without the refusal, Ann would be next",
                history: ann_refuses(false, 0),
                refused: &[],
                min: 3,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "who refused in the last hand had their turn this round: nobody else",
                history: ann_refuses(true, 0),
                refused: &[],
                min: 3,
                want: None,
            },
            Case {
                name: "…and is eligible again after enough wagers in a new round",
                history: ann_refuses(true, 3),
                refused: &[],
                min: 3,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "…but not before",
                history: ann_refuses(true, 2),
                refused: &[],
                min: 3,
                want: None,
            },
            Case {
                name: "everyone eligible refused: nobody",
                history: with(warm_up(), vec![past(5, "Eve", one, REGULARS)]),
                refused: &[2, 3, 4],
                min: 3,
                want: None,
            },
            Case {
                name: "nobody has enough wagers: nobody",
                history: with(warm_up(), vec![past(5, "Eve", one, REGULARS)]),
                refused: &[],
                min: 9,
                want: None,
            },
            Case {
                name: "old hands without an option: one hand, then a second",
                history: vec![past(1, "Dana", None, REGULARS)],
                refused: &[],
                min: 3,
                want: Some((1, "Dana", false)),
            },
            Case {
                name: "old hands without an option: after two, Bo (Ann has two wagers)",
                history: vec![
                    past(1, "Dana", None, &[(3, "Bo")]),
                    past(1, "Dana", None, REGULARS),
                    past(1, "Dana", None, REGULARS),
                ],
                refused: &[],
                min: 3,
                want: Some((3, "Bo", false)),
            },
            Case {
                name: "old hands without an option: a lower threshold makes Ann next",
                history: vec![
                    past(1, "Dana", None, &[(3, "Bo")]),
                    past(1, "Dana", None, REGULARS),
                    past(1, "Dana", None, REGULARS),
                ],
                refused: &[],
                min: 2,
                want: Some((2, "Ann", false)),
            },
            Case {
                name: "old hands without an option: three in a row still pass on",
                history: with(
                    vec![past(1, "Dana", None, REGULARS)],
                    vec![
                        past(1, "Dana", None, REGULARS),
                        past(1, "Dana", None, REGULARS),
                    ],
                ),
                refused: &[],
                min: 3,
                want: Some((2, "Ann", false)),
            },
        ];
        for case in cases {
            let got = propose_pd(&case.history, case.refused, 7, case.min);
            let got = got.map(|p| (p.seat, p.player, p.second_hand));
            let want = case.want.map(|(s, p, second)| (s, p.to_string(), second));
            assert_eq!(got, want, "{}", case.name);
        }
    }

    #[test]
    fn the_proposal_says_why() {
        let history = vec![past(5, "Eve", Some(PdOption::BankTwo), REGULARS)];
        let p = propose_pd(&history, &[], 7, 3);
        assert_eq!(
            p.map(|p| p.why),
            Some("Eve chose to bank two hands: this is the second".to_string())
        );
        let history = with(
            warm_up(),
            vec![past(5, "Eve", Some(PdOption::BankOne), REGULARS)],
        );
        let p = propose_pd(&history, &[], 7, 3);
        assert_eq!(
            p.map(|p| p.why),
            Some("next clockwise with 4 wagers this round (at least 3 needed)".to_string())
        );
    }
}
