//! 10,000: the points of a keep (`keep_points`), or the best keep of a
//! throw (`keeps`). Level 1: six dice, a keep of at most three dice;
//! level 2: any legal keep; level 3: no keep given — the points of the
//! best keep (0 for a bust).

use serde::Serialize;

use crate::common::field_error::FieldError;
use crate::ten_thousand::{counts, keep_points, keeps};
use crate::training::Level;
use crate::training::answer_input::{AnswerInput, integer};
use crate::training::rng::Rng;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandQuestion)]
pub struct Question {
    /// The throw, lowest first.
    pub dice: Vec<u8>,
    /// The dice kept (absent: the best keep is asked for).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub keep: Option<Vec<u8>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandAnswer)]
pub struct Answer {
    pub points: u32,
}

fn list(dice: &[u8]) -> String {
    dice.iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

impl Question {
    pub fn words(&self) -> String {
        match &self.keep {
            Some(keep) => format!(
                "The throw is {}. The player keeps {}. How many points is the keep worth?",
                list(&self.dice),
                list(keep)
            ),
            None => format!(
                "The throw is {}. How many points is the best keep worth (0 if it is a bust)?",
                list(&self.dice)
            ),
        }
    }
}

impl Answer {
    pub fn words(&self) -> String {
        format!("{} points.", self.points)
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let throw = |rng: &mut Rng| {
        let mut d: Vec<u8> = (0..6).map(|_| rng.range(1, 6) as u8).collect();
        d.sort_unstable();
        d
    };
    let mut dice = throw(rng);
    if level >= Level::HARD {
        let all = keeps(&counts(&dice), None);
        return match all.last() {
            Some(best) => {
                let points: Vec<String> = all.iter().map(|k| k.points.to_string()).collect();
                let mut points = points;
                points.dedup();
                let explanation = format!(
                    "The best keep is {} for {} points (the keeps score {}).",
                    list(&best.dice),
                    best.points,
                    points.join(", ")
                );
                let answer = Answer {
                    points: best.points,
                };
                (Question { dice, keep: None }, answer, explanation)
            }
            None => (
                Question { dice, keep: None },
                Answer { points: 0 },
                "No die scores (no 1, no 5, no three of a kind, no straight): a bust, 0 points."
                    .to_string(),
            ),
        };
    }
    let mut all = keeps(&counts(&dice), None);
    while all.is_empty() {
        dice = throw(rng);
        all = keeps(&counts(&dice), None);
    }
    if level == Level::EASY {
        all.retain(|k| k.dice.len() <= 3);
    }
    let keep = rng.pick(&all).dice.clone();
    let points = keep_points(&counts(&keep), None).map_or(0, |(p, _)| p);
    let explanation = format!(
        "Keeping {} scores {points}: each 1 is 100, each 5 is 50, three of a kind is the face × 100 \
         (1s 1,000) doubled for each extra die, a straight 1,000; each die counts once, the best way.",
        list(&keep)
    );
    (
        Question {
            dice,
            keep: Some(keep),
        },
        Answer { points },
        explanation,
    )
}

/// The most points an answer may give (a game's highest target).
pub const POINTS_MAX: i64 = crate::ten_thousand::TARGET_MAX as i64;

pub(super) fn grade(_q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["points"])?;
    let points = integer(
        fields.get("points")?,
        "points",
        0,
        POINTS_MAX,
        "a number of points",
    )?;
    Ok(points == i64::from(a.points))
}
