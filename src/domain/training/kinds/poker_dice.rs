//! Poker dice: which hand wins and why (`poker_dice::evaluate` and
//! `decide`; a tie is reported, never a winner invented). Level 1: two
//! hands of different combinations; level 2: two hands of any
//! combinations (the tie-breaks); level 3: three or four hands, the
//! `classic` faces or the `ranked` straights at times, and ties.

use serde::{Serialize, Serializer};

use crate::common::field_error::FieldError;
use crate::poker_dice::{DICE, Face, Profile, Straights, decide, evaluate};
use crate::training::Level;
use crate::training::answer_input::{AnswerInput, integer};
use crate::training::rng::Rng;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceQuestion)]
pub struct Question {
    /// Each hand's five faces, as the poker-dice commands read them.
    pub hands: Vec<String>,
    pub profile: Profile,
    pub straights: Straights,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceAnswer)]
pub struct Answer {
    pub winner: Winner,
}

/// The winning hand's number (1 for the first hand), or `"tie"`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Winner {
    Hand(u8),
    Tie,
}

/// The winner's schema in the API contract: a hand's number or "tie".
impl utoipa::PartialSchema for Winner {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        use utoipa::openapi::schema::{ObjectBuilder, OneOfBuilder, Type};
        OneOfBuilder::new()
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1)),
            )
            .item(
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some(["tie"])),
            )
            .description(Some(
                "The winning hand's number (1 = the first), or \"tie\".",
            ))
            .into()
    }
}

impl utoipa::ToSchema for Winner {
    fn name() -> std::borrow::Cow<'static, str> {
        "PokerDiceWinner".into()
    }
}

impl Serialize for Winner {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Winner::Hand(n) => s.serialize_u8(*n),
            Winner::Tie => s.serialize_str("tie"),
        }
    }
}

impl Question {
    pub fn words(&self) -> String {
        let mut out = String::from("Poker dice");
        if self.straights == Straights::Ranked {
            out.push_str(" (straights count)");
        }
        out.push_str(":\n");
        for (i, h) in self.hands.iter().enumerate() {
            out.push_str(&format!("  hand {}: {h}\n", i + 1));
        }
        out.push_str("Which hand wins (its number), or is it a tie?");
        out
    }
}

impl Answer {
    pub fn words(&self) -> String {
        match self.winner {
            Winner::Hand(n) => format!("Hand {n}."),
            Winner::Tie => "A tie.".to_string(),
        }
    }
}

fn roll(rng: &mut Rng) -> [Face; DICE] {
    [0; DICE].map(|_| Face::from_index(rng.below(6) as u8).unwrap_or(Face::ACE))
}

fn text(hand: &[Face; DICE], p: Profile) -> String {
    hand.iter()
        .map(|f| f.symbol(p))
        .collect::<Vec<_>>()
        .join(" ")
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let hard = level >= Level::HARD;
    let profile = if hard && rng.chance(1, 2) {
        Profile::Classic
    } else {
        Profile::Caribena
    };
    let straights = if hard && rng.chance(1, 2) {
        Straights::Ranked
    } else {
        Straights::None
    };
    let n = if hard { rng.range(3, 4) as usize } else { 2 };
    let mut hands: Vec<[Face; DICE]> = (0..n).map(|_| roll(rng)).collect();
    if level == Level::EASY {
        for _ in 0..64 {
            if evaluate(&hands[0], straights).combination
                != evaluate(&hands[1], straights).combination
            {
                break;
            }
            hands[1] = roll(rng);
        }
    }
    if hard && rng.chance(1, 4) {
        // The same faces in another order: a tie for the best, if it is.
        let mut copy = hands[0];
        rng.shuffle(&mut copy);
        hands[n - 1] = copy;
    }
    let ranks: Vec<_> = hands.iter().map(|h| evaluate(h, straights)).collect();
    let decision = decide(&ranks, profile);
    let winner = match decision.winners.as_slice() {
        [one] => Winner::Hand(*one as u8 + 1),
        _ => Winner::Tie,
    };
    let explanation = format!("{} ({}).", decision.reason_en, decision.reason);
    (
        Question {
            hands: hands.iter().map(|h| text(h, profile)).collect(),
            profile,
            straights,
        },
        Answer { winner },
        explanation,
    )
}

pub(super) fn grade(q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["winner"])?;
    let v = fields.get("winner")?;
    let given = if v.as_str() == Some("tie") {
        Winner::Tie
    } else {
        let n = integer(
            v,
            "winner",
            1,
            q.hands.len() as i64,
            "a hand's number or \"tie\"",
        )?;
        Winner::Hand(n as u8)
    };
    Ok(given == a.winner)
}
