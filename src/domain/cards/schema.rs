//! A card's schema in the API contract. `Card` serializes by hand as its
//! canonical text; this says what that text is.

use utoipa::openapi::RefOr;
use utoipa::openapi::schema::Schema;

use super::Card;
use crate::common::schema;

impl utoipa::PartialSchema for Card {
    fn schema() -> RefOr<Schema> {
        schema::string(
            "A card as pitbook writes it: rank (2-9, T, J, Q, K, A) then suit (s, h, d, c), \
             or JK for the joker.",
            Some("^([2-9TJQKA][shdc]|JK)$"),
            serde_json::json!("As"),
        )
        .into()
    }
}

impl utoipa::ToSchema for Card {}
