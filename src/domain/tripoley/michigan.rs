//! The Michigan play as its result. The first player out takes the Kitty
//! section and one chip per card left from every other player in the round,
//! never more than the player has (the shortfall is on the step). When play
//! blocks (`classic`: nobody can lead), every player in the round puts one
//! chip per card left on the Kitty instead, again as far as their chips go.

use super::board::{Ledger, Note, Place, Section};
use super::deal::Deal;
use super::error::{TripoleyError, chips};
use super::input::{MichiganInput, Profile};
use super::step::StepKind;
use super::table::{Table, round_seat};

/// How the Michigan play ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Michigan {
    /// The first player out, or `None` when play blocked.
    pub out: Option<usize>,
    /// Cards left by seat (0 for the winner and for players sitting out).
    pub cards_left: Vec<u64>,
}

impl Michigan {
    pub fn check(
        input: &MichiganInput,
        profile: Profile,
        table: &Table,
        in_round: &[bool],
        deal: &Deal,
    ) -> Result<Michigan, TripoleyError> {
        let out = match (&input.out, input.blocked) {
            (Some(_), true) => {
                return Err(TripoleyError::input(
                    "michigan.blocked",
                    "true, but michigan.out names a winner: give one or the other",
                ));
            }
            (None, false) => {
                return Err(TripoleyError::input(
                    "michigan",
                    "give \"out\" (the first player to play every card) or \"blocked\": true",
                ));
            }
            (None, true) if profile == Profile::Cadaco => {
                return Err(TripoleyError::input(
                    "michigan.blocked",
                    "true, but under the cadaco profile the lead passes left and play never blocks (classic only)",
                ));
            }
            (None, true) => None,
            (Some(name), false) => Some(round_seat(table, in_round, "michigan.out", name)?),
        };
        let n = table.names.len();
        let mut cards_left: Vec<Option<u64>> = vec![None; n];
        for (name, &value) in input.cards_left.iter() {
            let field = format!("michigan.cards_left.{name}");
            let seat = round_seat(table, in_round, &field, name)?;
            let held = deal.hand(seat).len() as u64;
            let count = u64::try_from(value)
                .ok()
                .filter(|&v| v <= held)
                .ok_or_else(|| {
                    TripoleyError::input(
                        &field,
                        format!(
                            "{value} is not a number of cards from 0 to the {held} \"{name}\" holds"
                        ),
                    )
                })?;
            if Some(seat) == out && count > 0 {
                return Err(TripoleyError::input(
                    field,
                    format!(
                        "{count}, but \"{name}\" went out (played every card) and has none left"
                    ),
                ));
            }
            if Some(seat) != out && count == 0 {
                let why = match out {
                    Some(w) => format!("only \"{}\" went out", table.names[w]),
                    None => "play blocked, so nobody went out".to_string(),
                };
                return Err(TripoleyError::input(field, format!("0, but {why}")));
            }
            cards_left[seat] = Some(count);
        }
        for seat in 0..n {
            if in_round[seat] && Some(seat) != out && cards_left[seat].is_none() {
                return Err(TripoleyError::input(
                    "michigan.cards_left",
                    format!("no count given for \"{}\"", table.names[seat]),
                ));
            }
        }
        Ok(Michigan {
            out,
            cards_left: cards_left.into_iter().map(|c| c.unwrap_or(0)).collect(),
        })
    }
}

pub fn play_michigan(
    m: &Michigan,
    table: &Table,
    in_round: &[bool],
    ledger: &mut Ledger,
) -> Result<(), TripoleyError> {
    let n = table.names.len();
    // Blocked, everyone from the dealer's left pays the Kitty; otherwise the
    // winner takes the Kitty and everyone after them pays the winner.
    let (first, payers, to, kind) = match m.out {
        None => (
            table.dealer,
            n,
            Place::Section(Section::Kitty),
            StepKind::BlockedPayment,
        ),
        Some(winner) => {
            ledger.take_whole(Section::Kitty, winner, StepKind::Kitty, |kitty| {
                format!(
                    "{} played every card first: takes the {} on the Kitty.",
                    table.names[winner],
                    chips(kitty)
                )
            })?;
            (winner, n - 1, Place::Player(winner), StepKind::CardPayment)
        }
    };
    for seat in (1..=payers).map(|i| table.left_of(first, i)) {
        if !in_round[seat] {
            continue;
        }
        let name = &table.names[seat];
        pay_per_card(
            ledger,
            seat,
            m.cards_left[seat],
            to,
            kind,
            |owed, short| match m.out {
                None => format!(
                    "Play is blocked: {name} puts 1 chip per card left ({owed}) on the Kitty{short}."
                ),
                Some(winner) => format!(
                    "{name} pays {} 1 chip per card left ({owed}){short}.",
                    table.names[winner]
                ),
            },
        )?;
    }
    Ok(())
}

fn pay_per_card(
    ledger: &mut Ledger,
    seat: usize,
    owed: u64,
    to: Place,
    kind: StepKind,
    text: impl FnOnce(u64, String) -> String,
) -> Result<(), TripoleyError> {
    let paid = owed.min(ledger.held(Place::Player(seat)));
    let mut note = Note::new(kind, text(owed, short_text(owed, paid)));
    note.shortfall = Some(owed - paid);
    ledger.transfer(Place::Player(seat), to, paid, note)
}

fn short_text(owed: u64, paid: u64) -> String {
    if paid == 0 && owed > 0 {
        format!(", but has no chips: {owed} short")
    } else if paid < owed {
        format!(", but has only {}: {} short", chips(paid), owed - paid)
    } else {
        String::new()
    }
}
