//! Showdowns: ordinary five-card poker, no joker, through the hand-rules
//! evaluator (`eval5_with`). The best hand takes each pot; equal best hands
//! split it in whole chips and the remainder stays on the Pot section.

use crate::cards::eval::{EvalRules, HandRank, eval5_with};
use crate::cards::{Card, format_cards};

use super::board::{Ledger, Note, Place, Section};
use super::error::{TripoleyError, chips, stays};
use super::poker::PotLayer;
use super::step::StepKind;

/// Plain poker: no wild card, the wheel is the lowest straight.
pub const RULES: EvalRules = EvalRules {
    wild: false,
    wheel_high: false,
};

/// A player's five cards at the showdown and their value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PokerHand {
    pub cards: [Card; 5],
    pub rank: HandRank,
    /// Chosen by the tool (the best five of the hand), not entered.
    pub chosen: bool,
}

impl PokerHand {
    /// The cards are kept in reading order: the largest group of a rank
    /// first, higher ranks first (`Kc Kd Ks 9h 9s`).
    pub fn new(mut cards: [Card; 5]) -> PokerHand {
        let group = |c: &Card| cards.iter().filter(|d| d.rank() == c.rank()).count();
        let mut keyed = cards.map(|c| (group(&c), c));
        keyed.sort_unstable_by(|a, b| b.cmp(a));
        cards = keyed.map(|(_, c)| c);
        PokerHand {
            cards,
            rank: eval5_with(&cards, RULES),
            chosen: false,
        }
    }

    /// The shown five, or else the best five of `hand`.
    pub fn of(shown: Option<[Card; 5]>, hand: &[Card]) -> Option<PokerHand> {
        match shown {
            Some(five) => Some(PokerHand::new(five)),
            None => best_five(hand).map(|h| PokerHand { chosen: true, ..h }),
        }
    }

    /// `Flush, ace high (Ah Jh 8h 5h 2h)`.
    pub fn describe(&self) -> String {
        let chosen = if self.chosen {
            ", the best five of the hand"
        } else {
            ""
        };
        format!(
            "{} ({}{chosen})",
            self.rank.name(),
            format_cards(&self.cards)
        )
    }
}

/// The best five cards of `hand` (on a tie of values, the five highest
/// cards in reading order, so the order the hand was typed in never
/// matters); `None` with fewer than five cards.
pub fn best_five(hand: &[Card]) -> Option<PokerHand> {
    let n = hand.len();
    let mut best: Option<PokerHand> = None;
    let mut idx = [0usize, 1, 2, 3, 4];
    if n < 5 {
        return None;
    }
    loop {
        let five = idx.map(|i| hand[i]);
        let candidate = PokerHand::new(five);
        if best.is_none_or(|b| (candidate.rank, candidate.cards) > (b.rank, b.cards)) {
            best = Some(candidate);
        }
        // Next combination in lexicographic order.
        let Some(i) = (0..5).rev().find(|&i| idx[i] < n - 5 + i) else {
            return best;
        };
        idx[i] += 1;
        for j in i + 1..5 {
            idx[j] = idx[j - 1] + 1;
        }
    }
}

/// The seats holding the best hand among `eligible`, in `order`.
pub fn best_of(eligible: &[usize], hands: &[Option<PokerHand>], order: &[usize]) -> Vec<usize> {
    let rank_of = |s: usize| hands.get(s).copied().flatten().map(|h| h.rank);
    let top = eligible.iter().filter_map(|&s| rank_of(s)).max();
    order
        .iter()
        .copied()
        .filter(|s| eligible.contains(s) && top.is_some() && rank_of(*s) == top)
        .collect()
}

fn pot_label(index: usize) -> String {
    if index == 0 {
        "Main pot".to_string()
    } else {
        format!("Side pot {index}")
    }
}

/// Pays each pot to its best hand(s); the Pot section's chips from before the
/// bets belong to the main pot.
pub fn pay_pots(
    layers: &[PotLayer],
    section_before: u64,
    hands: &[Option<PokerHand>],
    order: &[usize],
    ledger: &mut Ledger,
) -> Result<(), TripoleyError> {
    for (index, layer) in layers.iter().enumerate() {
        let amount = layer.amount + if index == 0 { section_before } else { 0 };
        let winners = best_of(&layer.eligible, hands, order);
        let k = winners.len() as u64;
        if k == 0 {
            return Err(TripoleyError::Internal(format!(
                "{} has no winner",
                pot_label(index)
            )));
        }
        let (share, remainder) = (amount / k, amount % k);
        let mut label = format!("{} of {}", pot_label(index), chips(amount));
        if index == 0 {
            label.push_str(&format!(
                " ({section_before} on the section, {} in bets)",
                layer.amount
            ));
        }
        let names: Vec<String> = winners.iter().map(|&s| ledger.names[s].clone()).collect();
        for &seat in &winners {
            let name = ledger.names[seat].clone();
            let hand = hands[seat].map(|h| h.describe()).unwrap_or_default();
            let explanation = if layer.eligible.len() == 1 {
                format!(
                    "{label}: {name} is the only player still in who put in this much, and takes it."
                )
            } else if k == 1 {
                format!("{label}: {name} wins with {hand}.")
            } else {
                format!(
                    "{label}: {} tie; {name} with {hand} takes {} of it, {} on the Pot.",
                    names.join(", "),
                    chips(share),
                    stays(remainder)
                )
            };
            let mut note = Note::new(StepKind::Pot, explanation).remainder(remainder);
            note.pot = Some(index as u32);
            ledger.transfer(
                Place::Section(Section::Pot),
                Place::Player(seat),
                share,
                note,
            )?;
        }
    }
    Ok(())
}
