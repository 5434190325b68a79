//! The money cards: the holder of the A, K, Q, J or 10 of hearts takes that
//! section; one player holding both K and Q of hearts also takes King-Queen;
//! every holder of 8-9-10 of one suit shares the 8-9-10 section in whole
//! chips (one share each, however many suits), the remainder staying. A card
//! in the dead hand pays nobody: its section carries over.

use crate::cards::{Card, Rank, Suit};

use super::board::{Ledger, Note, Place, Section};
use super::deal::Deal;
use super::error::{TripoleyError, chips, stays};
use super::step::StepKind;

const HEART_SECTIONS: [(Section, Rank); 5] = [
    (Section::Ace, Rank::Ace),
    (Section::King, Rank::King),
    (Section::Queen, Rank::Queen),
    (Section::Jack, Rank::Jack),
    (Section::Ten, Rank::Ten),
];

fn hearts(rank: Rank) -> Card {
    Card::new(rank, Suit::Hearts)
}

fn carry_over(ledger: &mut Ledger, section: Section, why: String) {
    let on = ledger.board.get(section);
    ledger.note(
        Some(section),
        None,
        None,
        Note::new(
            StepKind::CarryOver,
            format!(
                "{why}: the {} on {} {}.",
                chips(on),
                section.label(),
                if on == 1 {
                    "carries over"
                } else {
                    "carry over"
                }
            ),
        )
        .remainder(on),
    );
}

fn take_section(
    ledger: &mut Ledger,
    seat: usize,
    section: Section,
    why: &str,
) -> Result<(), TripoleyError> {
    let name = ledger.names[seat].clone();
    ledger.take_whole(section, seat, StepKind::MoneyCard, |on| {
        format!(
            "{name} holds {why}: takes the {} on {}.",
            chips(on),
            section.label()
        )
    })
}

pub fn pay_money_cards(deal: &Deal, ledger: &mut Ledger) -> Result<(), TripoleyError> {
    for (section, rank) in HEART_SECTIONS {
        let card = hearts(rank);
        match deal.holder(card) {
            Some(seat) => take_section(ledger, seat, section, &format!("the {card}"))?,
            None => carry_over(ledger, section, format!("The {card} is in the dead hand")),
        }
    }
    let (king, queen) = (hearts(Rank::King), hearts(Rank::Queen));
    match (deal.holder(king), deal.holder(queen)) {
        (Some(k), Some(q)) if k == q => {
            take_section(
                ledger,
                k,
                Section::KingQueen,
                &format!("both the {king} and the {queen}"),
            )?;
        }
        (Some(k), Some(q)) => carry_over(
            ledger,
            Section::KingQueen,
            format!(
                "The {king} ({}) and the {queen} ({}) are in different hands",
                ledger.names[k], ledger.names[q]
            ),
        ),
        (None, _) => carry_over(
            ledger,
            Section::KingQueen,
            format!("The {king} is in the dead hand"),
        ),
        (_, None) => carry_over(
            ledger,
            Section::KingQueen,
            format!("The {queen} is in the dead hand"),
        ),
    }
    pay_eight_nine_ten(deal, ledger)
}

/// The suits in which `hand` holds 8, 9 and 10.
pub fn eight_nine_ten_suits(hand: &[Card]) -> Vec<Suit> {
    Suit::ALL
        .into_iter()
        .filter(|&s| {
            [Rank::Eight, Rank::Nine, Rank::Ten]
                .iter()
                .all(|&r| hand.contains(&Card::new(r, s)))
        })
        .collect()
}

fn suit_name(s: Suit) -> &'static str {
    match s {
        Suit::Spades => "spades",
        Suit::Hearts => "hearts",
        Suit::Diamonds => "diamonds",
        Suit::Clubs => "clubs",
    }
}

fn pay_eight_nine_ten(deal: &Deal, ledger: &mut Ledger) -> Result<(), TripoleyError> {
    let section = Section::EightNineTen;
    let holders: Vec<(usize, Vec<Suit>)> = (0..deal.hands.len())
        .map(|seat| (seat, eight_nine_ten_suits(deal.hand(seat))))
        .filter(|(_, suits)| !suits.is_empty())
        .collect();
    if holders.is_empty() {
        carry_over(
            ledger,
            section,
            "Nobody holds 8-9-10 of one suit".to_string(),
        );
        return Ok(());
    }
    let on = ledger.board.get(section);
    let n = holders.len() as u64;
    let (share, remainder) = (on / n, on % n);
    let all: Vec<String> = holders
        .iter()
        .map(|(s, _)| ledger.names[*s].clone())
        .collect();
    for (seat, suits) in &holders {
        let name = ledger.names[*seat].clone();
        let suits: Vec<&str> = suits.iter().map(|&s| suit_name(s)).collect();
        let held = format!("8-9-10 of {}", suits.join(" and of "));
        let explanation = if n == 1 {
            format!("{name} holds {held}: takes the {} on 8-9-10.", chips(on))
        } else {
            format!(
                "{name} holds {held} (one share): {} holders ({}) split the {} on 8-9-10, {} each; {} on it.",
                n,
                all.join(", "),
                chips(on),
                share,
                stays(remainder)
            )
        };
        ledger.transfer(
            Place::Section(section),
            Place::Player(*seat),
            share,
            Note::new(StepKind::EightNineTen, explanation).remainder(remainder),
        )?;
    }
    Ok(())
}
