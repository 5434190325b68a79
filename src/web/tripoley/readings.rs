//! Step 1 read back: each typed hand's money cards, 8-9-10 and best five,
//! shown on "Check the deal" and "Read the hands back" (nothing recorded).

use crate::domain::cards::{Card, Rank, Suit, format_cards, parse_cards};
use crate::domain::tripoley::game::TripoleyGame;
use crate::domain::tripoley::{best_five, eight_nine_ten_suits};
use crate::web::double_hand_poker::play::forms::Fields;

/// What the tool reads from a typed hand (step 1).
pub(super) struct HandReading {
    pub name: String,
    pub cards: String,
    pub money_cards: String,
    pub eight_nine_ten: String,
    pub best_five: String,
}

/// Money cards, 8-9-10 and best five read from each typed hand.
pub(super) fn readings(game: &TripoleyGame, fields: &Fields) -> Vec<HandReading> {
    let hearts = [
        (Rank::Ace, "Ace"),
        (Rank::King, "King"),
        (Rank::Queen, "Queen"),
        (Rank::Jack, "Jack"),
        (Rank::Ten, "Ten"),
    ];
    let mut names: Vec<(String, String)> = game
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), format!("hand_{i}")))
        .collect();
    names.push(("spare (dead hand)".into(), "hand_spare".into()));
    names
        .into_iter()
        .filter_map(|(name, field)| {
            let text = fields.get(&field).trim();
            if text.is_empty() {
                return None;
            }
            let Ok(cards) = parse_cards(text) else {
                return Some(HandReading {
                    name,
                    cards: text.to_string(),
                    money_cards: "cards not read".into(),
                    eight_nine_ten: String::new(),
                    best_five: String::new(),
                });
            };
            let has = |r: Rank| cards.contains(&Card::new(r, Suit::Hearts));
            let mut money: Vec<&str> = hearts
                .iter()
                .filter(|(r, _)| has(*r))
                .map(|(_, l)| *l)
                .collect();
            if has(Rank::King) && has(Rank::Queen) {
                money.push("King-Queen");
            }
            let suits: Vec<String> = eight_nine_ten_suits(&cards)
                .into_iter()
                .map(|s| format!("{s:?}").to_lowercase())
                .collect();
            Some(HandReading {
                name,
                cards: format!("{} ({} cards)", format_cards(&cards), cards.len()),
                money_cards: if money.is_empty() {
                    "none".into()
                } else {
                    money.join(", ")
                },
                eight_nine_ten: if suits.is_empty() {
                    "none".into()
                } else {
                    suits.join(", ")
                },
                best_five: best_five(&cards)
                    .map_or("fewer than five cards".into(), |h| h.describe()),
            })
        })
        .collect()
}
