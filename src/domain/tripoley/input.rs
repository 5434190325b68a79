//! The JSON contracts as sent (docs/tripoley.md). Unknown fields are errors
//! at every level; numbers are read as integers and range-checked later, so
//! the messages name the field and the value; a name given twice as a key
//! is an error, not a silent overwrite.

use std::fmt;

use serde::de::{MapAccess, Visitor};
use serde::{Deserialize, Deserializer};

use crate::cards::{Card, CardError, CardsGiven, parse_card};
use crate::common::money::Money;

/// The rule profile: seed 000 (`cadaco`) or seed 001 (`classic`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize, serde::Serialize, utoipa::ToSchema)]
#[schema(as = TripoleyProfile)]
#[serde(rename_all = "snake_case")]
pub enum Profile {
    /// No spare hand play; Michigan never blocks.
    Cadaco,
    /// The spare swap and auction; a blocked Michigan pays the Kitty.
    Classic,
}

/// `POST /api/v1/tripoley/round`, `pitbook tripoley round`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleyRound)]
#[serde(deny_unknown_fields)]
pub struct RoundInput {
    pub profile: Profile,
    /// Seating order, clockwise: each name's left is the next name.
    pub players: Vec<String>,
    pub dealer: String,
    /// Every player's chips before the round.
    #[schema(schema_with = chips_schema)]
    pub chips: NameMap<i64>,
    /// Chips carried over on each section; an absent section has none.
    #[serde(default)]
    pub board: BoardInput,
    /// Chips per section each player antes; default 1.
    #[serde(default)]
    pub ante: Option<i64>,
    /// Each player's cards as dealt, and `"spare"`: the 52 cards.
    #[schema(schema_with = hands_schema)]
    pub hands: NameMap<CardsText>,
    #[serde(default)]
    pub spare: Option<SpareInput>,
    pub poker: PokerInput,
    pub michigan: MichiganInput,
    /// Money per chip, for balances in money.
    #[serde(default)]
    pub chip_value: Option<Money>,
}

/// `POST /api/v1/tripoley/final`, `pitbook tripoley final`.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleyFinal)]
#[serde(deny_unknown_fields)]
pub struct FinalInput {
    pub players: Vec<String>,
    pub dealer: String,
    #[schema(schema_with = chips_schema)]
    pub chips: NameMap<i64>,
    #[serde(default)]
    pub board: BoardInput,
    /// Each player's last five cards.
    #[schema(schema_with = final_hands_schema)]
    pub hands: NameMap<CardsText>,
    #[serde(default)]
    pub chip_value: Option<Money>,
}

/// Chips on each section; absent sections hold none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleyBoardInput)]
#[serde(deny_unknown_fields, default)]
pub struct BoardInput {
    pub ace: i64,
    pub king: i64,
    pub queen: i64,
    pub jack: i64,
    pub ten: i64,
    pub king_queen: i64,
    pub eight_nine_ten: i64,
    pub kitty: i64,
    pub pot: i64,
}

/// The spare hand (`classic` only): the dealer's swap, then the auction.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleySpare)]
#[serde(deny_unknown_fields)]
pub struct SpareInput {
    #[serde(default)]
    pub dealer_swaps: bool,
    #[serde(default)]
    pub auction: Option<AuctionInput>,
}

#[derive(Debug, Clone, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleyAuction)]
#[serde(deny_unknown_fields)]
pub struct AuctionInput {
    pub buyer: String,
    pub price: i64,
}

/// The poker betting round as its result: what each player put in in all,
/// who folded, and the five cards each player still in showed.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleyPoker)]
#[serde(deny_unknown_fields)]
pub struct PokerInput {
    #[serde(default)]
    #[schema(schema_with = contributions_schema)]
    pub contributions: NameMap<i64>,
    #[serde(default)]
    pub folded: Vec<String>,
    #[serde(default)]
    #[schema(schema_with = shown_schema)]
    pub shown: NameMap<CardsText>,
}

/// The Michigan result: who went out first, or that play blocked; and the
/// cards left in each other player's hand.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TripoleyMichigan)]
#[serde(deny_unknown_fields)]
pub struct MichiganInput {
    #[serde(default)]
    pub out: Option<String>,
    #[serde(default)]
    pub blocked: bool,
    #[schema(schema_with = cards_left_schema)]
    pub cards_left: NameMap<i64>,
}

/// One Tripoley card as a JSON Schema (ECMA-262) pattern without anchors:
/// a rank (`10` or one of `2-9 T J Q K A`, any case) and a suit (`s h d c`
/// in any case, or its symbol); no joker, and cards never run together.
pub const CARD_PATTERN: &str = "(?:10|[2-9TtJjQqKkAa])[SsHhDdCc♠♤♥♡♦♢♣♧]";

/// Cards as one string (`"Ah Kh 10h"`, spaces or commas) or an array of
/// card strings; parsed later so errors name the field. A caller that
/// already holds the cards (the training drills, which draw them) gives
/// them as they are with [`CardsText::from_cards`]: only the reading of
/// each token is skipped, every check of the cards is the same.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardsText(Given);

#[derive(Debug, Clone, PartialEq, Eq)]
enum Given {
    Tokens(Vec<String>),
    Cards(Vec<Card>),
}

impl Default for CardsText {
    fn default() -> Self {
        CardsText(Given::Tokens(Vec::new()))
    }
}

impl CardsText {
    pub fn new(text: &str) -> CardsText {
        CardsText::tokens(
            text.split(|c: char| c.is_whitespace() || c == ',')
                .filter(|t| !t.is_empty())
                .map(str::to_string)
                .collect(),
        )
    }

    /// One card per token, as an array of card strings gives them.
    pub fn tokens(tokens: Vec<String>) -> CardsText {
        CardsText(Given::Tokens(tokens))
    }

    /// Cards already read.
    pub fn from_cards(cards: &[Card]) -> CardsText {
        CardsText(Given::Cards(cards.to_vec()))
    }

    /// How many cards are named.
    pub fn len(&self) -> usize {
        match &self.0 {
            Given::Tokens(t) => t.len(),
            Given::Cards(c) => c.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Each card in the order given, read from its token (`parse_card`).
    pub fn cards(&self) -> impl Iterator<Item = Result<Card, CardError>> + '_ {
        (0..self.len()).map(move |i| match &self.0 {
            Given::Tokens(t) => parse_card(&t[i]),
            Given::Cards(c) => Ok(c[i]),
        })
    }
}

impl<'de> Deserialize<'de> for CardsText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<CardsText, D::Error> {
        let given = CardsGiven::deserialize(d, "cards (\"Ah Kh 10h\") or an array of cards")?;
        Ok(match given {
            CardsGiven::Text(text) => CardsText::new(&text),
            CardsGiven::List(cards) => CardsText::tokens(cards),
        })
    }
}

/// Cards' schema in the API contract: what the deserializer above takes.
impl utoipa::PartialSchema for CardsText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        cards_schema("Ah 8s 9s Ts As Ad 8c 2d Jd 9c Ac")
    }
}

fn cards_schema(example: &str) -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    crate::common::schema::text_or_list(
        "Cards: one string (\"Ah Kh 10h\", spaces or commas) or an array of cards.",
        serde_json::json!(example),
    )
    .into()
}

impl utoipa::ToSchema for CardsText {
    fn name() -> std::borrow::Cow<'static, str> {
        "TripoleyCards".into()
    }
}

/// The schemas of the [`NameMap`] fields: objects keyed by player name.
fn names_to(
    description: &str,
    values: impl Into<utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>>,
) -> utoipa::openapi::schema::Schema {
    crate::common::schema::map_of(description, values)
}

fn whole() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
    crate::common::schema::plain(utoipa::openapi::schema::Type::Integer)
}

fn chips_schema() -> utoipa::openapi::schema::Schema {
    names_to("Each player's chips before the round, by name.", whole())
}

fn hands_schema() -> utoipa::openapi::schema::Schema {
    names_to(
        "Each player's hand by name, and the spare hand under \"spare\".",
        <CardsText as utoipa::PartialSchema>::schema(),
    )
}

fn contributions_schema() -> utoipa::openapi::schema::Schema {
    names_to(
        "The chips each player put into the poker pot, by name.",
        whole(),
    )
}

fn final_hands_schema() -> utoipa::openapi::schema::Schema {
    names_to(
        "Each player's last hand of five cards, by name.",
        cards_schema("Ah Kh Qh Jh 9h"),
    )
}

fn shown_schema() -> utoipa::openapi::schema::Schema {
    names_to(
        "The five cards each player still in at the showdown shows, by name.",
        cards_schema("Ah Kh Qh Jh 9h"),
    )
}

fn cards_left_schema() -> utoipa::openapi::schema::Schema {
    names_to(
        "The cards each player holds when the Michigan play ends, by name.",
        whole(),
    )
}

/// A JSON object keyed by player name, in the order given; a key given
/// twice is an error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NameMap<T>(pub Vec<(String, T)>);

impl<T> Default for NameMap<T> {
    fn default() -> Self {
        NameMap(Vec::new())
    }
}

impl<T> NameMap<T> {
    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(k, _)| k == name).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &T)> {
        self.0.iter().map(|(k, v)| (k, v))
    }
}

impl<'de, T: Deserialize<'de>> Deserialize<'de> for NameMap<T> {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<NameMap<T>, D::Error> {
        struct V<T>(std::marker::PhantomData<T>);
        impl<'de, T: Deserialize<'de>> Visitor<'de> for V<T> {
            type Value = NameMap<T>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object keyed by player name")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<NameMap<T>, A::Error> {
                let mut entries: Vec<(String, T)> = Vec::new();
                while let Some(key) = map.next_key::<String>()? {
                    if entries.iter().any(|(k, _)| *k == key) {
                        return Err(serde::de::Error::custom(format!(
                            "\"{key}\" is given twice"
                        )));
                    }
                    let value = map.next_value::<T>()?;
                    entries.push((key, value));
                }
                Ok(NameMap(entries))
            }
        }
        d.deserialize_map(V(std::marker::PhantomData))
    }
}
