//! Training drills: a drill is a pure function of (kind, level,
//! seed) — the same three always give the same question, the same answer
//! and the same grading. Every correct answer is computed by the game
//! engines themselves (settlement, house way, deciding a position, the
//! collection schedule, Tripoley's round, 10,000's keeps, poker dice); this
//! module only draws the inputs (from [`rng::Rng`], seeded by the seed) and
//! compares answers. Pure: no IO, no clock, no randomness but the seed.
//!
//! - [`Drill::generate`] builds a drill; [`grade`] grades an answer;
//! - `kinds/`: one file per kind, each with its question, its answer, how
//!   it draws them at each level and how it reads and compares an answer;
//! - `answer_input`: reading an answer as given (shape errors are
//!   [`FieldError`]s naming the field);
//! - `rng`: SplitMix64;
//! - `run`: a run of drills (practice, test, speed) as a fold, with the
//!   rules every answer is held to (only the trainee's, once, in time);
//! - `progress`: attempts to progress per kind, pass marks, readiness,
//!   what to practise next and the sign-off rule;
//! - `verdict`: a finished test's PASS or FAIL against its pass mark and
//!   the drill to take next;
//! - `answer_form`: an answer's form fields and the posted form read back
//!   into the answer's JSON.
//!
//! docs/training.md is the contract.

pub mod answer_form;
mod answer_input;
pub mod kinds;
pub mod progress;
pub mod rng;
pub mod run;
pub mod verdict;

use std::fmt;

use serde::Serialize;

pub use answer_input::{ANSWER_BYTES_MAX, AnswerInput};
pub use kinds::{Answer, Kind, Question};

use crate::common::field_error::FieldError;

/// How hard a drill is: 1 (easy: even money, the bank never runs out) to
/// 3 (hard: backline, 3:2 ratios with breakage, the bank running out inside
/// a seat, collection). Each kind's module says what its levels change.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema)]
#[schema(as = DrillLevel)]
#[serde(transparent)]
pub struct Level(u8);

impl Level {
    pub const EASY: Level = Level(1);
    pub const MEDIUM: Level = Level(2);
    pub const HARD: Level = Level(3);
    pub const ALL: [Level; 3] = [Level::EASY, Level::MEDIUM, Level::HARD];

    /// A level from 1 to 3; anything else is refused, naming `level`.
    pub fn new(level: i64) -> Result<Level, FieldError> {
        match level {
            1..=3 => Ok(Level(level as u8)),
            _ => Err(FieldError::new(
                "level",
                format!("{level} is not a drill level (1 easy, 2 medium, 3 hard)"),
            )
            .with_value(level.to_string())),
        }
    }

    pub fn get(self) -> u8 {
        self.0
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// One drill: `{kind, level, seed, question, answer}` in JSON (money as
/// decimal strings). The explanation is what [`grade`] returns beside the
/// verdict; it is not part of the drill's JSON (the question would give it
/// away).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Drill {
    pub kind: Kind,
    pub level: Level,
    pub seed: u64,
    pub question: Question,
    pub answer: Answer,
    #[serde(skip)]
    pub explanation: String,
}

impl Drill {
    /// The seven cards a house-way drill asks to set (the value page shows
    /// what each of their settings is worth); none for other kinds.
    pub fn seven_cards(&self) -> Option<&str> {
        match &self.question {
            Question::HouseWay(q) => Some(&q.cards),
            _ => None,
        }
    }

    /// The drill of (kind, level, seed): deterministic, every answer
    /// computed by the engines.
    pub fn generate(kind: Kind, level: Level, seed: u64) -> Drill {
        let mut rng = rng::Rng::new(seed, kind as u64 + 1);
        let (question, answer, explanation) = kinds::generate(kind, level, &mut rng);
        Drill {
            kind,
            level,
            seed,
            question,
            answer,
            explanation,
        }
    }

    /// The correct answer as an answer input (what a trainee who got it
    /// right would send).
    pub fn answer_input(&self) -> AnswerInput {
        AnswerInput::from_value(serde_json::to_value(&self.answer).unwrap_or_default())
    }

    /// The question in words, as the CLI prints it.
    pub fn question_words(&self) -> String {
        self.question.words()
    }

    /// The answer in words.
    pub fn answer_words(&self) -> String {
        self.answer.words()
    }
}

/// A graded answer: right or wrong, the correct answer, and the sentence
/// a dealer would read aloud (the engine's own explanation where it has
/// one: the settlement steps, the house-way rule, the position decided).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Graded {
    pub right: bool,
    pub correct: Answer,
    pub explanation: String,
}

/// Grades an answer to `drill`. An answer in the wrong shape (a seat that
/// does not exist, a malformed amount, six cards for a setting, a field
/// missing or unknown) is a [`FieldError`]; a well-formed answer is right
/// or wrong.
pub fn grade(drill: &Drill, answer: &AnswerInput) -> Result<Graded, FieldError> {
    let right = kinds::grade(&drill.question, &drill.answer, answer)?;
    Ok(Graded {
        right,
        correct: drill.answer.clone(),
        explanation: drill.explanation.clone(),
    })
}

/// The drills' generators' version, recorded with every drill issued: a
/// recorded (kind, level, seed) is regenerated and checked by `audit
/// verify` only under the version that issued it. Raise it whenever a
/// generator changes what a seed gives (a new kind goes at the end of the
/// list, which changes nothing before it). Every drill recorded so far is
/// of version 1; the version that raises it must also teach `audit
/// verify` (store/verify/training.rs) to grade an older drill against the
/// question and answer its record holds rather than a new generation.
pub const GENERATOR_VERSION: u32 = 1;

/// A first seed for the shell to use when none is given: seeds are kept
/// below 2^53 so they survive JSON in every client. (The shell draws the
/// bits; this only masks them.)
pub fn seed_from_bits(bits: u64) -> u64 {
    bits & ((1u64 << 53) - 1)
}

/// What the generators hand back: an engine refusing an input a generator
/// built is a bug in the generator, caught by the property tests.
fn engine<T, E: fmt::Display>(result: Result<T, E>, what: &str) -> T {
    match result {
        Ok(v) => v,
        Err(e) => panic!("drill generator: the engine refused {what}: {e}"),
    }
}

#[cfg(test)]
mod tests;
