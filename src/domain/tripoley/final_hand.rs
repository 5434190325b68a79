//! The end of the game: every chip on the board moves to the Pot section, a
//! last hand of five cards each (no betting), and the best hand takes the
//! Pot. Equal best hands split it; the odd chips go one each to the tied
//! players nearest the dealer's left (clockwise from there, dealer last).

use crate::cards::Card;

use super::board::{Ledger, Note, Place, Section};
use super::deal::parse_hand;
use super::error::{TripoleyError, chips};
use super::input::FinalInput;
use super::output::Outcome;
use super::showdown::{PokerHand, best_of};
use super::step::StepKind;
use super::table::{Table, check_chip_value, not_at_table, seat_of};

pub fn play_final(input: &FinalInput) -> Result<Outcome, TripoleyError> {
    let table = Table::check(&input.players, &input.dealer, &input.chips, &input.board)?;
    let chip_value = check_chip_value(input.chip_value)?;
    let hands = check_final_hands(&table, input)?;
    let mut ledger = Ledger::new(table.names.clone(), table.chips.clone(), table.board);
    for section in Section::ALL.into_iter().filter(|&s| s != Section::Pot) {
        let on = ledger.board.get(section);
        if on == 0 {
            continue;
        }
        ledger.transfer(
            Place::Section(section),
            Place::Section(Section::Pot),
            on,
            Note::new(
                StepKind::ToPot,
                format!(
                    "End of the game: the {} on {} {} to the Pot.",
                    chips(on),
                    section.label(),
                    if on == 1 { "moves" } else { "move" }
                ),
            ),
        )?;
    }
    let n = table.names.len();
    let order: Vec<usize> = (1..=n).map(|i| table.left_of(table.dealer, i)).collect();
    let hands: Vec<Option<PokerHand>> =
        hands.into_iter().map(|h| Some(PokerHand::new(h))).collect();
    let winners = best_of(&order, &hands, &order);
    let pot = ledger.board.get(Section::Pot);
    let k = winners.len() as u64;
    if k == 0 {
        return Err(TripoleyError::Internal(
            "the last hand has no winner".into(),
        ));
    }
    let (share, odd) = (pot / k, pot % k);
    let names: Vec<String> = winners.iter().map(|&s| table.names[s].clone()).collect();
    for (i, &seat) in winners.iter().enumerate() {
        let extra = u64::from((i as u64) < odd);
        let name = &table.names[seat];
        let hand = hands[seat].map(|h| h.describe()).unwrap_or_default();
        let explanation = if k == 1 {
            format!(
                "Last hand: {name} wins the Pot, {}, with {hand}.",
                chips(pot)
            )
        } else if extra == 1 {
            format!(
                "Last hand: {} tie for the Pot of {}; {name} with {hand} takes {} and, nearest the dealer's left, 1 odd chip.",
                names.join(", "),
                chips(pot),
                share
            )
        } else {
            format!(
                "Last hand: {} tie for the Pot of {}; {name} with {hand} takes {}.",
                names.join(", "),
                chips(pot),
                chips(share)
            )
        };
        ledger.transfer(
            Place::Section(Section::Pot),
            Place::Player(seat),
            share + extra,
            Note::new(StepKind::FinalPot, explanation),
        )?;
    }
    ledger.check_conservation("at the end of the game")?;
    Ok(Outcome::from_ledger(ledger, &table.chips, chip_value))
}

/// Exactly five cards for every player, no card twice.
fn check_final_hands(table: &Table, input: &FinalInput) -> Result<Vec<[Card; 5]>, TripoleyError> {
    let mut hands: Vec<Option<[Card; 5]>> = vec![None; table.names.len()];
    let mut seen: Vec<(Card, String)> = Vec::new();
    for (name, text) in input.hands.iter() {
        let field = format!("hands.{name}");
        let seat = seat_of(&table.names, name).ok_or_else(|| not_at_table(&field, name))?;
        let cards = parse_hand(&field, text)?;
        let five: [Card; 5] = cards.as_slice().try_into().map_err(|_| {
            TripoleyError::input(
                &field,
                format!("{} cards; the last hand is exactly 5", cards.len()),
            )
        })?;
        for card in five {
            if let Some((_, other)) = seen.iter().find(|(c, _)| *c == card) {
                return Err(TripoleyError::input(
                    &field,
                    format!("{card} is dealt twice (also in {other})"),
                ));
            }
            seen.push((card, field.clone()));
        }
        hands[seat] = Some(five);
    }
    table
        .names
        .iter()
        .zip(hands)
        .map(|(name, h)| {
            h.ok_or_else(|| TripoleyError::input("hands", format!("no cards given for \"{name}\"")))
        })
        .collect()
}
