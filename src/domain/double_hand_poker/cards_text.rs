//! Card text as the hand tools read it: one string (spaces and/or commas)
//! or a list of cards, a card an item; its schema in the API contract.

use serde::{Deserialize, Deserializer};

use crate::cards::{CardsGiven, parse_cards};

/// Card text: one string (`"As Ks Qs Js Ts"`, spaces and/or commas) or an
/// array of strings (`["As", "Ks", …]`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CardsText(pub String);

/// Card text's schema in the API contract: what the deserializer below takes.
impl utoipa::PartialSchema for CardsText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::common::schema::text_or_list(
            "Cards: one string (\"As Ks Qs Js Ts\", spaces and/or commas) or an array of \
             cards; a card is its rank (2-9, T or 10, J, Q, K, A) and suit (s h d c or ♠ ♥ ♦ ♣), \
             or the joker (JK, joker).",
            serde_json::json!("Kh Kd Ks 4c 4d"),
        )
        .into()
    }
}

impl utoipa::ToSchema for CardsText {
    fn name() -> std::borrow::Cow<'static, str> {
        "CardsText".into()
    }
}

impl<'de> Deserialize<'de> for CardsText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardsText, D::Error> {
        let given =
            CardsGiven::deserialize(d, "card text (\"As Ks Qs Js Ts\") or an array of cards")?;
        Ok(CardsText(match given {
            CardsGiven::Text(text) => text,
            CardsGiven::List(cards) => {
                // A list holds a card an item, as the contract says; an
                // item that is no card at all is refused later, naming it.
                if let Some(many) = cards
                    .iter()
                    .find(|card| parse_cards(card).is_ok_and(|c| c.len() > 1))
                {
                    return Err(serde::de::Error::custom(format!(
                        "\"{many}\" is more than one card: give each card as its own item"
                    )));
                }
                cards.iter().map(|card| format!(" {card}")).collect()
            }
        }))
    }
}
