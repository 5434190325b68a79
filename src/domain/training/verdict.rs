//! A finished test's verdict: PASS or FAIL against the kind's pass mark —
//! its accuracy over the test's questions, its median time per answer, and
//! its level — with what fell short in words and the drill to take next.

use serde::Serialize;

use super::progress::{PassMark, accuracy_and_speed, median};
use super::run::{Mode, Run};
use super::{Kind, Level};

/// How a finished test stands against its pass mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TestVerdict {
    pub passed: bool,
    pub right: usize,
    pub questions: usize,
    /// The median time from a question to its answer.
    pub median_ms: Option<i64>,
    /// What fell short, in words ("8 right of 10 (needs 95%)").
    pub short_of: Vec<String>,
    /// What the test was held to, in words ("95% right, a median under
    /// 20 s, at level 2 or above").
    pub mark: String,
}

/// What to take next: the same kind's practice at the test's level after
/// a FAIL, its test a level up after a PASS (the same level at the top).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct NextDrill {
    pub kind: Kind,
    pub level: Level,
    /// `practice` or `test`.
    pub mode: &'static str,
}

/// The verdict of `run` if it is a finished test (None otherwise).
pub fn test_verdict(run: &Run, mark: &PassMark, now_ms: i64) -> Option<TestVerdict> {
    let Mode::Test { questions } = run.mode else {
        return None;
    };
    if !run.is_over(now_ms) {
        return None;
    }
    let questions = usize::from(questions);
    let (right, _) = run.score();
    let mut times: Vec<i64> = run
        .drills
        .iter()
        .filter_map(|d| d.attempt.as_ref().map(|a| a.elapsed_ms))
        .collect();
    let median_ms = median(&mut times);
    let mut short_of = accuracy_and_speed(mark, right, questions, median_ms);
    if run.level < mark.level {
        short_of.push(format!(
            "level {} is below the pass mark's level {}",
            run.level, mark.level
        ));
    }
    Some(TestVerdict {
        passed: short_of.is_empty(),
        right,
        questions,
        median_ms,
        short_of,
        mark: format!(
            "{}% right, a median under {} s, at level {} or above",
            mark.accuracy_pct, mark.median_seconds, mark.level
        ),
    })
}

/// The drill to take after `verdict` of a test of `kind` at `level`.
pub fn next_drill(verdict: &TestVerdict, kind: Kind, level: Level) -> NextDrill {
    if !verdict.passed {
        return NextDrill {
            kind,
            level,
            mode: "practice",
        };
    }
    let up = Level::ALL
        .iter()
        .copied()
        .find(|l| *l > level)
        .unwrap_or(level);
    NextDrill {
        kind,
        level: up,
        mode: "test",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::training::run::{Attempt, RunDrill};

    /// A test of `kind` at `level` with each (right, seconds) answered.
    fn test_run(level: Level, questions: u16, answers: &[(bool, i64)]) -> Run {
        let mut run = Run::start(
            "r".into(),
            "tia".into(),
            Mode::Test { questions },
            Kind::ActionSeat,
            level,
            0,
        );
        for (i, (right, secs)) in answers.iter().enumerate() {
            run.drills.push(RunDrill {
                id: format!("d{i}"),
                seed: i as u64,
                issued_ms: 0,
                attempt: Some(Attempt {
                    right: *right,
                    elapsed_ms: secs * 1000,
                    answered_ms: secs * 1000,
                }),
            });
        }
        run
    }

    #[test]
    fn a_finished_test_passes_or_fails_against_its_pass_mark() {
        let mark = PassMark::DEFAULT; // 95 %, median under 20 s, level 2
        let all_right = [(true, 8); 10];
        let mut one_wrong = all_right;
        one_wrong[3] = (false, 8);
        /// The test's level, its answers, PASS, and what fell short.
        type Case<'a> = (Level, &'a [(bool, i64)], bool, &'a [&'a str]);
        let cases: [Case; 4] = [
            (Level::MEDIUM, &all_right, true, &[]),
            (
                Level::MEDIUM,
                &one_wrong,
                false,
                &["9 right of 10 (needs 95%)"],
            ),
            (
                Level::HARD,
                &[(true, 25); 10],
                false,
                &["median 25.0 s (needs under 20 s)"],
            ),
            (
                Level::EASY,
                &all_right,
                false,
                &["level 1 is below the pass mark's level 2"],
            ),
        ];
        for (level, answers, passed, short_of) in cases {
            let v = test_verdict(&test_run(level, 10, answers), &mark, 0).expect("finished");
            assert_eq!(v.passed, passed, "{level}");
            assert_eq!(v.short_of, short_of, "{level}");
            assert_eq!(v.questions, 10);
        }
    }

    #[test]
    fn only_a_finished_test_has_a_verdict() {
        let unfinished = test_run(Level::MEDIUM, 10, &[(true, 5); 3]);
        assert_eq!(test_verdict(&unfinished, &PassMark::DEFAULT, 0), None);
        let mut practice = test_run(Level::MEDIUM, 3, &[(true, 5); 3]);
        practice.mode = Mode::Practice;
        assert_eq!(test_verdict(&practice, &PassMark::DEFAULT, 0), None);
    }

    #[test]
    fn after_a_fail_practise_after_a_pass_the_next_level() {
        let mark = PassMark::DEFAULT;
        let fail = test_verdict(&test_run(Level::MEDIUM, 2, &[(false, 5); 2]), &mark, 0).unwrap();
        let pass = test_verdict(&test_run(Level::MEDIUM, 2, &[(true, 5); 2]), &mark, 0).unwrap();
        let next = |v: &TestVerdict, level| {
            let n = next_drill(v, Kind::Decide, level);
            (n.kind, n.level, n.mode)
        };
        assert_eq!(
            next(&fail, Level::MEDIUM),
            (Kind::Decide, Level::MEDIUM, "practice")
        );
        assert_eq!(
            next(&pass, Level::MEDIUM),
            (Kind::Decide, Level::HARD, "test")
        );
        assert_eq!(
            next(&pass, Level::HARD),
            (Kind::Decide, Level::HARD, "test")
        );
    }
}
