//! The poker dice contract shared by the CLI (`pitbook poker-dice …`,
//! `--json`) and the HTTP API (`/api/v1/poker-dice/…`): requests, responses,
//! and the functions between them. See docs/dice-games.md.

use crate::common::field_error::{AsFieldError, FieldError};
use std::fmt;

use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize};

use super::{
    Combination, DICE, Face, HandRank, Profile, Straights, beats_reason, evaluate, name_en,
    name_es, parse_hand, ranked_order, tie_reason,
};

/// Hands in one comparison, and players in a round.
pub const HANDS_MAX: usize = 8;

/// Bad input: the field path (`hands[1]`, `players[0].throws[2].held`) and
/// what is wrong, naming the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct PokerDiceError {
    pub field: String,
    pub message: String,
}

impl AsFieldError for PokerDiceError {
    fn field_error(&self) -> Option<FieldError> {
        Some(FieldError::new(self.field.as_str(), self.message.as_str()))
    }
}

impl PokerDiceError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> PokerDiceError {
        PokerDiceError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// Faces as one string (`"A A K K Q"`, `"aakkq"`) or an array of strings.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct FacesText(pub String);

impl FacesText {
    pub fn new(text: &str) -> FacesText {
        FacesText(text.to_string())
    }
}

/// Faces' schema in the API contract: what the deserializer below takes.
impl utoipa::PartialSchema for FacesText {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::common::schema::text_or_list(
            "Five dice faces: one string (\"A A K K Q\", \"aakkq\") or an array of faces.",
            serde_json::json!("A A A K K"),
        )
        .into()
    }
}

impl utoipa::ToSchema for FacesText {
    fn name() -> std::borrow::Cow<'static, str> {
        "PokerDiceFaces".into()
    }
}

impl<'de> Deserialize<'de> for FacesText {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<FacesText, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = FacesText;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("faces (\"A A K K Q\") or an array of faces")
            }
            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<FacesText, E> {
                Ok(FacesText(v.to_string()))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<FacesText, A::Error> {
                let mut text = String::new();
                while let Some(face) = seq.next_element::<String>()? {
                    text.push(' ');
                    text.push_str(&face);
                }
                Ok(FacesText(text))
            }
        }
        d.deserialize_any(V)
    }
}

/// `POST /api/v1/poker-dice/rank`, `pitbook poker-dice rank`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = PokerDiceRankRequest)]
#[serde(deny_unknown_fields)]
pub struct RankRequest {
    pub faces: FacesText,
    #[serde(default)]
    pub profile: Profile,
    #[serde(default)]
    pub straights: Straights,
}

/// `POST /api/v1/poker-dice/compare`, `pitbook poker-dice compare`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = PokerDiceCompareRequest)]
#[serde(deny_unknown_fields)]
pub struct CompareRequest {
    pub hands: Vec<FacesText>,
    #[serde(default)]
    pub profile: Profile,
    #[serde(default)]
    pub straights: Straights,
}

/// A hand as shown: the dice in ranked order (symbols and Spanish names),
/// the combination, its names, and a number with the hands' order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceHand)]
pub struct HandView {
    pub faces: Vec<&'static str>,
    pub faces_es: Vec<&'static str>,
    pub combination: Combination,
    pub name_es: String,
    pub name_en: String,
    pub rank: u32,
}

impl HandView {
    pub fn new(dice: &[Face; DICE], rank: &HandRank, p: Profile) -> HandView {
        let order = ranked_order(dice);
        HandView {
            faces: order.iter().map(|f| f.symbol(p)).collect(),
            faces_es: order.iter().map(|f| f.name_es(p)).collect(),
            combination: rank.combination,
            name_es: name_es(rank, p),
            name_en: name_en(rank, p),
            rank: rank.value(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceRankResponse)]
pub struct RankResponse {
    #[serde(flatten)]
    pub hand: HandView,
    pub profile: Profile,
    pub straights: Straights,
}

/// A winner, or a tie (never an invented winner).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceOutcome)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    Winner,
    Tie,
}

/// Who wins among several hands and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceDecision)]
pub struct Decision {
    pub outcome: Outcome,
    /// 0-based positions of the best hands: one for a winner, several for a tie.
    pub winners: Vec<usize>,
    /// With the Spanish names: "Full de ases y reyes beats tercia de reinas".
    pub reason: String,
    /// The same in English.
    pub reason_en: String,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceCompareResponse)]
pub struct CompareResponse {
    pub hands: Vec<HandView>,
    #[serde(flatten)]
    pub decision: Decision,
    pub profile: Profile,
    pub straights: Straights,
}

/// The best of several ranked hands (at least one), with the reason.
pub fn decide(ranks: &[HandRank], p: Profile) -> Decision {
    let Some(best) = ranks.iter().max() else {
        return Decision {
            outcome: Outcome::Tie,
            winners: Vec::new(),
            reason: "no hands".into(),
            reason_en: "no hands".into(),
        };
    };
    let winners: Vec<usize> = (0..ranks.len()).filter(|&i| &ranks[i] == best).collect();
    if winners.len() > 1 {
        let (reason, reason_en) = tie_reason(best, p);
        return Decision {
            outcome: Outcome::Tie,
            winners,
            reason,
            reason_en,
        };
    }
    let runner_up = ranks.iter().filter(|r| *r != best).max();
    let (reason, reason_en) = match runner_up {
        Some(r) => beats_reason(best, r, p),
        None => {
            let name = name_es(best, p);
            (
                format!("{name}, the only hand"),
                format!("{}, the only hand", name_en(best, p)),
            )
        }
    };
    Decision {
        outcome: Outcome::Winner,
        winners,
        reason,
        reason_en,
    }
}

fn hand(text: &FacesText, field: &str, p: Profile) -> Result<[Face; DICE], PokerDiceError> {
    parse_hand(&text.0, p).map_err(|m| PokerDiceError::new(field, m))
}

/// Ranks one hand.
pub fn rank(req: &RankRequest) -> Result<RankResponse, PokerDiceError> {
    let dice = hand(&req.faces, "faces", req.profile)?;
    let r = evaluate(&dice, req.straights);
    Ok(RankResponse {
        hand: HandView::new(&dice, &r, req.profile),
        profile: req.profile,
        straights: req.straights,
    })
}

/// Compares 2 to 8 hands: the winner or the tie, with the reason.
pub fn compare(req: &CompareRequest) -> Result<CompareResponse, PokerDiceError> {
    let n = req.hands.len();
    if !(2..=HANDS_MAX).contains(&n) {
        return Err(PokerDiceError::new(
            "hands",
            format!("{n} hands; compare 2 to {HANDS_MAX}"),
        ));
    }
    let mut views = Vec::with_capacity(n);
    let mut ranks = Vec::with_capacity(n);
    for (i, text) in req.hands.iter().enumerate() {
        let dice = hand(text, &format!("hands[{i}]"), req.profile)?;
        let r = evaluate(&dice, req.straights);
        views.push(HandView::new(&dice, &r, req.profile));
        ranks.push(r);
    }
    Ok(CompareResponse {
        hands: views,
        decision: decide(&ranks, req.profile),
        profile: req.profile,
        straights: req.straights,
    })
}
