//! The deal: each player's hand and the spare (dead) hand, checked to be
//! exactly the 52 cards, dealt one at a time (sizes differ by at most one).

use crate::cards::{Card, format_cards};

use super::error::TripoleyError;
use super::input::{CardsText, NameMap};
use super::table::{Table, not_at_table, seat_of};

/// The key of the spare hand in `hands`.
pub const SPARE: &str = "spare";

/// The hands in play: one per seat (`None` for a player sitting out) and the
/// spare. After the spare swap/auction, the hands the round is played with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deal {
    pub hands: Vec<Option<Vec<Card>>>,
    pub spare: Vec<Card>,
}

impl Deal {
    pub fn hand(&self, seat: usize) -> &[Card] {
        self.hands
            .get(seat)
            .and_then(|h| h.as_deref())
            .unwrap_or(&[])
    }

    /// Who holds `card`: a seat, or `None` for the spare.
    pub fn holder(&self, card: Card) -> Option<usize> {
        self.hands
            .iter()
            .position(|h| h.as_ref().is_some_and(|h| h.contains(&card)))
    }
}

/// Parses cards named by `field`: known cards, no joker, none twice.
pub fn parse_hand(field: &str, text: &CardsText) -> Result<Vec<Card>, TripoleyError> {
    let mut cards = Vec::with_capacity(text.len());
    for card in text.cards() {
        let card = card.map_err(|e| TripoleyError::input(field, e.to_string()))?;
        if card.is_joker() {
            return Err(TripoleyError::input(
                field,
                "the joker is not in a Tripoley deck",
            ));
        }
        if cards.contains(&card) {
            return Err(TripoleyError::input(
                field,
                format!("{card} is named twice"),
            ));
        }
        cards.push(card);
    }
    Ok(cards)
}

/// Checks `hands` against the players in the round (`in_round` by seat).
pub fn check_deal(
    table: &Table,
    in_round: &[bool],
    hands: &NameMap<CardsText>,
) -> Result<Deal, TripoleyError> {
    let mut seats: Vec<Option<Vec<Card>>> = vec![None; table.names.len()];
    let mut spare = None;
    // The entry of `hands` each card was dealt in (named only on an error).
    let mut owner: [Option<usize>; 52] = [None; 52];
    for (entry, (name, text)) in hands.iter().enumerate() {
        let field = format!("hands.{name}");
        let seat = if name == SPARE {
            None
        } else {
            let seat = seat_of(&table.names, name).ok_or_else(|| not_at_table(&field, name))?;
            if !in_round[seat] {
                return Err(TripoleyError::input(
                    field,
                    format!("\"{name}\" cannot ante, sits this round out and is dealt no cards"),
                ));
            }
            Some(seat)
        };
        let cards = parse_hand(&field, text)?;
        for &card in &cards {
            let slot = &mut owner[usize::from(card.index())];
            if let Some(other) = *slot {
                let other = &hands.0[other].0;
                return Err(TripoleyError::input(
                    &field,
                    format!("{card} is dealt twice (also in hands.{other})"),
                ));
            }
            *slot = Some(entry);
        }
        match seat {
            Some(seat) => seats[seat] = Some(cards),
            None => spare = Some(cards),
        }
    }
    for (seat, hand) in seats.iter().enumerate() {
        if in_round[seat] && hand.is_none() {
            let name = &table.names[seat];
            return Err(TripoleyError::input(
                "hands",
                format!("no cards given for \"{name}\""),
            ));
        }
    }
    let spare = spare.ok_or_else(|| {
        TripoleyError::input("hands", "no cards given for \"spare\" (the dead hand)")
    })?;
    let missing: Vec<Card> = Card::deck()
        .take(52)
        .filter(|c| owner[usize::from(c.index())].is_none())
        .collect();
    if !missing.is_empty() {
        return Err(TripoleyError::input(
            "hands",
            format!(
                "{} cards dealt; the deal is exactly the 52 cards (missing: {})",
                52 - missing.len(),
                format_cards(&missing)
            ),
        ));
    }
    let deal = Deal {
        hands: seats,
        spare,
    };
    check_sizes(table, &deal)?;
    Ok(deal)
}

/// Dealt one card at a time, no two hands differ by more than one card.
fn check_sizes(table: &Table, deal: &Deal) -> Result<(), TripoleyError> {
    let mut sizes: Vec<(String, usize)> = deal
        .hands
        .iter()
        .zip(&table.names)
        .filter_map(|(h, name)| h.as_ref().map(|h| (name.clone(), h.len())))
        .collect();
    sizes.push((SPARE.to_string(), deal.spare.len()));
    let min = sizes.iter().map(|s| s.1).min().unwrap_or(0);
    let max = sizes.iter().map(|s| s.1).max().unwrap_or(0);
    if max > min + 1 {
        let listed: Vec<String> = sizes.iter().map(|(n, s)| format!("{n} {s}")).collect();
        return Err(TripoleyError::input(
            "hands",
            format!(
                "hand sizes {} differ by more than one card; dealt one at a time they cannot",
                listed.join(", ")
            ),
        ));
    }
    Ok(())
}
