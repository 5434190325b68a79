//! A trainee's run of drills — practice, a test, or a speed drill — as the
//! fold of its recorded events, and the rules every path (the pages, the
//! JSON API, `audit verify`'s replay) holds a new drill and an answer to:
//! only the run's trainee answers, each drill once, the drill before
//! answered before the next is issued, a test stops at its questions and a
//! speed drill at its two minutes. Times are milliseconds since the Unix
//! epoch, given by the shell (the records' own times); nothing here reads
//! a clock.

use std::fmt;

use serde::Serialize;

use super::{AnswerInput, Drill, Graded, Kind, Level, grade};
use crate::common::field_error::FieldError;

/// A speed drill's length: as many drills as the trainee can in this time.
pub const SPEED_MILLIS: i64 = 120_000;
/// A test's questions: at least one, at most this many.
pub const TEST_QUESTIONS_MAX: u16 = 50;
/// A test's questions when none is chosen.
pub const TEST_QUESTIONS_DEFAULT: u16 = 10;
/// Drills in one practice run (a limit on everything: a practice run this
/// long is a script, not a trainee).
pub const PRACTICE_DRILLS_MAX: usize = 1_000;

/// How a run goes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(tag = "mode", rename_all = "lowercase")]
pub enum Mode {
    /// Answer, then see right or wrong, the answer and the explanation.
    Practice,
    /// `questions` drills against the clock; the score and time at the
    /// end, every answer reviewed after.
    Test { questions: u16 },
    /// As many drills as the trainee can answer in [`SPEED_MILLIS`].
    Speed,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Practice => "practice",
            Mode::Test { .. } => "test",
            Mode::Speed => "speed",
        }
    }

    /// The modes' names, as [`Mode::parse`] takes them.
    pub const NAMES: [&'static str; 3] = ["practice", "test", "speed"];

    /// The mode named `name` (`practice`, `test`, `speed`), a test with
    /// `questions` (1..=50, default 10; refused out of range in any mode,
    /// though only a test reads it); anything else names its field.
    pub fn parse(name: &str, questions: Option<i64>) -> Result<Mode, FieldError> {
        let mode = match name {
            "practice" => Mode::Practice,
            "speed" => Mode::Speed,
            "test" => Mode::Test { questions: 0 },
            other => {
                return Err(FieldError::new(
                    "mode",
                    format!("\"{other}\" is not a mode (practice, test, speed)"),
                )
                .with_value(other));
            }
        };
        let n = questions.unwrap_or(i64::from(TEST_QUESTIONS_DEFAULT));
        if !(1..=i64::from(TEST_QUESTIONS_MAX)).contains(&n) {
            return Err(FieldError::new(
                "questions",
                format!("{n} is not a number of questions for a test (1..{TEST_QUESTIONS_MAX})"),
            )
            .with_value(n.to_string()));
        }
        Ok(match mode {
            Mode::Test { .. } => Mode::Test {
                questions: n as u16,
            },
            other => other,
        })
    }

    /// The test's questions, if a test.
    pub fn questions(self) -> Option<u16> {
        match self {
            Mode::Test { questions } => Some(questions),
            _ => None,
        }
    }
}

/// A drill of a run as recorded: which, when, and its attempt once answered.
#[derive(Debug, Clone, PartialEq)]
pub struct RunDrill {
    pub id: String,
    pub seed: u64,
    pub issued_ms: i64,
    pub attempt: Option<Attempt>,
}

/// An answer as graded and recorded.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Attempt {
    pub right: bool,
    /// From the drill's issue to its answer, by the records' times.
    pub elapsed_ms: i64,
    pub answered_ms: i64,
}

/// A run: who, how, which kind and level, and its drills in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Run {
    pub id: String,
    pub trainee: String,
    pub mode: Mode,
    pub kind: Kind,
    pub level: Level,
    pub started_ms: i64,
    pub drills: Vec<RunDrill>,
}

/// Why a drill or an answer was refused. Each has its HTTP status in the
/// shell: 403 for another's drill, 404 for none, 409 for the run's state,
/// 422 for an answer in the wrong shape.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// The drill is someone else's (only its trainee answers it).
    NotYours {
        trainee: String,
    },
    NoSuchDrill,
    /// The drill was answered already (the first answer stands).
    AlreadyAnswered,
    /// The drill before is not answered yet.
    Unanswered,
    /// The test has had all its questions, or the speed drill's time ran out.
    Over(&'static str),
    /// An answer in the wrong shape: not graded, nothing recorded.
    Invalid(FieldError),
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::NotYours { trainee } => {
                write!(f, "this drill is {trainee}'s: only they may answer it")
            }
            Refusal::NoSuchDrill => f.write_str("there is no such drill in this run"),
            Refusal::AlreadyAnswered => {
                f.write_str("this drill was answered already; the first answer stands")
            }
            Refusal::Unanswered => f.write_str("answer the drill on screen before the next one"),
            Refusal::Over(why) => f.write_str(why),
            Refusal::Invalid(e) => write!(f, "{e}"),
        }
    }
}

/// A graded answer as the run records it.
#[derive(Debug, Clone, PartialEq)]
pub struct Answered {
    pub graded: Graded,
    pub attempt: Attempt,
}

impl Run {
    /// A new run; its drills come with [`Run::issue`].
    pub fn start(
        id: String,
        trainee: String,
        mode: Mode,
        kind: Kind,
        level: Level,
        started_ms: i64,
    ) -> Run {
        Run {
            id,
            trainee,
            mode,
            kind,
            level,
            started_ms,
            drills: Vec::new(),
        }
    }

    /// The drill of this run with this seed.
    pub fn drill(&self, seed: u64) -> Drill {
        Drill::generate(self.kind, self.level, seed)
    }

    /// A speed drill's end, in ms since the epoch.
    pub fn deadline_ms(&self) -> Option<i64> {
        (self.mode == Mode::Speed).then_some(self.started_ms + SPEED_MILLIS)
    }

    /// Whether the run takes no more drills at `now_ms`: a test with every
    /// question answered, a speed drill past its time.
    pub fn is_over(&self, now_ms: i64) -> bool {
        match self.mode {
            Mode::Practice => self.drills.len() >= PRACTICE_DRILLS_MAX && self.all_answered(),
            Mode::Test { questions } => {
                self.drills.len() >= usize::from(questions) && self.all_answered()
            }
            Mode::Speed => now_ms >= self.started_ms + SPEED_MILLIS,
        }
    }

    fn all_answered(&self) -> bool {
        self.drills.iter().all(|d| d.attempt.is_some())
    }

    /// The drill on screen: the last one issued, while unanswered.
    pub fn pending(&self) -> Option<&RunDrill> {
        self.drills.last().filter(|d| d.attempt.is_none())
    }

    /// Checks that `actor` may have the next drill at `now_ms`, then adds it.
    pub fn issue(
        &mut self,
        actor: &str,
        id: String,
        seed: u64,
        now_ms: i64,
    ) -> Result<(), Refusal> {
        self.check_actor(actor)?;
        if self.pending().is_some() {
            return Err(Refusal::Unanswered);
        }
        match self.mode {
            Mode::Practice if self.drills.len() >= PRACTICE_DRILLS_MAX => {
                return Err(Refusal::Over(
                    "this practice run has had its 1,000 drills: start another",
                ));
            }
            Mode::Test { questions } if self.drills.len() >= usize::from(questions) => {
                return Err(Refusal::Over("the test has had all its questions"));
            }
            Mode::Speed if self.is_over(now_ms) => {
                return Err(Refusal::Over("the speed drill's two minutes are up"));
            }
            _ => {}
        }
        self.drills.push(RunDrill {
            id,
            seed,
            issued_ms: now_ms,
            attempt: None,
        });
        Ok(())
    }

    /// Grades `actor`'s answer to drill `drill_id` at `now_ms` and records
    /// the attempt in the run. Refused (nothing recorded): another's drill,
    /// no such drill, a second answer, a speed drill's answer after its
    /// time, an answer in the wrong shape.
    pub fn answer(
        &mut self,
        actor: &str,
        drill_id: &str,
        answer: &AnswerInput,
        now_ms: i64,
    ) -> Result<Answered, Refusal> {
        self.check_actor(actor)?;
        let deadline = self.deadline_ms();
        let (kind, level) = (self.kind, self.level);
        let drill = self
            .drills
            .iter_mut()
            .find(|d| d.id == drill_id)
            .ok_or(Refusal::NoSuchDrill)?;
        if drill.attempt.is_some() {
            return Err(Refusal::AlreadyAnswered);
        }
        if deadline.is_some_and(|end| now_ms > end) {
            return Err(Refusal::Over(
                "the speed drill's two minutes were up before this answer came",
            ));
        }
        let graded =
            grade(&Drill::generate(kind, level, drill.seed), answer).map_err(Refusal::Invalid)?;
        let attempt = Attempt {
            right: graded.right,
            elapsed_ms: (now_ms - drill.issued_ms).max(0),
            answered_ms: now_ms,
        };
        drill.attempt = Some(attempt.clone());
        Ok(Answered { graded, attempt })
    }

    fn check_actor(&self, actor: &str) -> Result<(), Refusal> {
        if actor == self.trainee {
            Ok(())
        } else {
            Err(Refusal::NotYours {
                trainee: self.trainee.clone(),
            })
        }
    }

    /// Right answers and answers.
    pub fn score(&self) -> (usize, usize) {
        let answered = self.drills.iter().filter_map(|d| d.attempt.as_ref());
        let (mut right, mut n) = (0, 0);
        for a in answered {
            n += 1;
            right += usize::from(a.right);
        }
        (right, n)
    }

    /// From the start to the last answer (ms).
    pub fn elapsed_ms(&self) -> i64 {
        self.drills
            .iter()
            .filter_map(|d| d.attempt.as_ref().map(|a| a.answered_ms))
            .max()
            .map_or(0, |last| last - self.started_ms)
    }
}

/// Highest seed a client may give: seeds stay below 2^53 so they survive
/// JSON in every client.
pub const SEED_MAX: u64 = (1 << 53) - 1;

/// A seed given by a client, refused (naming `seed`) when it is not a
/// whole number in 0..2^53 (`31026.0` is one, as JSON Schema counts).
pub fn parse_seed(given: &serde_json::Value) -> Result<u64, FieldError> {
    let whole = given.as_u64().or_else(|| {
        let f = given.as_f64()?;
        (f.fract() == 0.0 && (0.0..=SEED_MAX as f64).contains(&f)).then_some(f as u64)
    });
    whole.filter(|s| *s <= SEED_MAX).ok_or_else(|| {
        FieldError::new(
            "seed",
            format!("{given} is not a seed (a whole number from 0 to {SEED_MAX})"),
        )
        .with_value(given.to_string())
    })
}

/// What starting a run asks for, every field checked: `kind`, `level`
/// (default 1), `mode` (default practice) and a test's `questions`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunRequest {
    pub mode: Mode,
    pub kind: Kind,
    pub level: Level,
}

impl RunRequest {
    pub fn parse(
        kind: Option<&str>,
        level: Option<i64>,
        mode: Option<&str>,
        questions: Option<i64>,
    ) -> Result<RunRequest, Vec<FieldError>> {
        let mut errors = Vec::new();
        let kind = match kind.map(str::trim) {
            None | Some("") => {
                errors.push(FieldError::new("kind", "choose a kind of drill"));
                None
            }
            Some(k) => Kind::parse(k).map_err(|e| errors.push(e)).ok(),
        };
        let level = Level::new(level.unwrap_or(1))
            .map_err(|e| errors.push(e))
            .ok();
        let mode = Mode::parse(mode.unwrap_or("practice"), questions)
            .map_err(|e| errors.push(e))
            .ok();
        match (kind, level, mode) {
            (Some(kind), Some(level), Some(mode)) => Ok(RunRequest { mode, kind, level }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(mode: Mode) -> Run {
        Run::start(
            "r1".into(),
            "tess".into(),
            mode,
            Kind::ActionSeat,
            Level::EASY,
            1_000,
        )
    }

    fn right_answer(run: &Run, seed: u64) -> AnswerInput {
        run.drill(seed).answer_input()
    }

    #[test]
    fn only_the_trainee_answers_once_and_in_order() {
        let mut r = run(Mode::Practice);
        assert_eq!(
            r.issue("dana", "d1".into(), 7, 2_000),
            Err(Refusal::NotYours {
                trainee: "tess".into()
            })
        );
        r.issue("tess", "d1".into(), 7, 2_000).unwrap();
        assert_eq!(
            r.issue("tess", "d2".into(), 8, 2_100),
            Err(Refusal::Unanswered)
        );
        let answer = right_answer(&r, 7);
        assert!(matches!(
            r.answer("dana", "d1", &answer, 3_000),
            Err(Refusal::NotYours { .. })
        ));
        let bad = AnswerInput::parse(r#"{"seat": 99}"#).unwrap();
        match r.answer("tess", "d1", &bad, 3_000) {
            Err(Refusal::Invalid(e)) => assert_eq!(e.field(), "seat"),
            other => panic!("{other:?}"),
        }
        assert_eq!(r.pending().map(|d| d.id.as_str()), Some("d1"));
        let done = r.answer("tess", "d1", &answer, 5_500).unwrap();
        assert!(done.graded.right);
        assert_eq!(done.attempt.elapsed_ms, 3_500);
        assert_eq!(
            r.answer("tess", "d1", &answer, 6_000),
            Err(Refusal::AlreadyAnswered)
        );
        assert_eq!(
            r.answer("tess", "nope", &answer, 6_000),
            Err(Refusal::NoSuchDrill)
        );
        r.issue("tess", "d2".into(), 8, 6_000).unwrap();
        assert_eq!(r.score(), (1, 1));
    }

    #[test]
    fn a_test_stops_at_its_questions_and_a_speed_drill_at_two_minutes() {
        let mut t = run(Mode::Test { questions: 2 });
        for (i, seed) in [1u64, 2].into_iter().enumerate() {
            t.issue("tess", format!("d{i}"), seed, 2_000).unwrap();
            let a = right_answer(&t, seed);
            t.answer("tess", &format!("d{i}"), &a, 3_000).unwrap();
        }
        assert!(t.is_over(3_000));
        assert!(matches!(
            t.issue("tess", "d3".into(), 3, 3_000),
            Err(Refusal::Over(_))
        ));
        let mut s = run(Mode::Speed);
        s.issue("tess", "d1".into(), 1, 1_000 + SPEED_MILLIS - 1)
            .unwrap();
        let a = right_answer(&s, 1);
        assert!(matches!(
            s.answer("tess", "d1", &a, 1_000 + SPEED_MILLIS + 1),
            Err(Refusal::Over(_))
        ));
        s.answer("tess", "d1", &a, 1_000 + SPEED_MILLIS).unwrap();
        assert!(matches!(
            s.issue("tess", "d2".into(), 2, 1_000 + SPEED_MILLIS),
            Err(Refusal::Over(_))
        ));
    }

    #[test]
    fn modes_parse_or_name_their_field() {
        assert_eq!(
            Mode::parse("test", Some(5)),
            Ok(Mode::Test { questions: 5 })
        );
        assert_eq!(Mode::parse("test", None), Ok(Mode::Test { questions: 10 }));
        assert_eq!(
            Mode::parse("test", Some(0)).unwrap_err().field(),
            "questions"
        );
        assert_eq!(Mode::parse("exam", None).unwrap_err().field(), "mode");
        let errors = RunRequest::parse(Some("settle"), Some(4), Some("exam"), None).unwrap_err();
        let fields: Vec<&str> = errors.iter().map(|e| e.field()).collect();
        assert_eq!(fields, ["kind", "level", "mode"]);
        assert_eq!(
            RunRequest::parse(Some("decide"), None, None, None),
            Ok(RunRequest {
                mode: Mode::Practice,
                kind: Kind::Decide,
                level: Level::EASY
            })
        );
        assert_eq!(parse_seed(&serde_json::json!(7)), Ok(7));
        for bad in [
            serde_json::json!(-1),
            serde_json::json!(1u64 << 53),
            serde_json::json!("7"),
        ] {
            assert_eq!(parse_seed(&bad).unwrap_err().field(), "seed");
        }
    }
}
