//! A trainee's progress from their recorded attempts: per kind the
//! attempts, accuracy, median time and the trend over attempts; whether each
//! kind's pass mark is met (the training manager's "95% of the last 40 at
//! level 2 or above, median under 20 s"); the weakest skill and what to
//! practise next; and the sign-off rule. Pure: the shell reads the
//! attempts and the marks and passes them in.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{Kind, Level};
use crate::common::field_error::FieldError;
use crate::staff::Role;

/// One recorded attempt, as progress reads it (attempts are passed in the
/// order they were answered).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptRow {
    pub kind: Kind,
    pub level: Level,
    pub right: bool,
    pub elapsed_ms: i64,
}

/// Limits on a pass mark, each field's range.
pub const WINDOW_RANGE: (i64, i64) = (5, 200);
pub const ACCURACY_RANGE: (i64, i64) = (1, 100);
pub const MEDIAN_SECONDS_RANGE: (i64, i64) = (1, 600);

/// What a trainee must show on one kind to be ready: of their last
/// `window` attempts at `level` or above, at least `accuracy_pct` percent
/// right and a median time under `median_seconds`. A kind not `required`
/// is shown but does not hold a sign-off back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct PassMark {
    pub window: u16,
    pub accuracy_pct: u8,
    pub median_seconds: u16,
    pub level: Level,
    pub required: bool,
}

impl PassMark {
    /// The default for every kind: 95% of the last 40 at level 2 or above,
    /// median under 20 s, required.
    pub const DEFAULT: PassMark = PassMark {
        window: 40,
        accuracy_pct: 95,
        median_seconds: 20,
        level: Level::MEDIUM,
        required: true,
    };

    /// A pass mark from the numbers given, each out of range named by its
    /// field (`window`, `accuracy_pct`, `median_seconds`, `level`).
    pub fn parse(
        window: i64,
        accuracy_pct: i64,
        median_seconds: i64,
        level: i64,
        required: bool,
    ) -> Result<PassMark, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut within = |field: &str, n: i64, (lo, hi): (i64, i64), what: &str| {
            if !(lo..=hi).contains(&n) {
                errors.push(
                    FieldError::new(field, format!("{n} is not {what} ({lo}..{hi})"))
                        .with_value(n.to_string()),
                );
            }
        };
        within("window", window, WINDOW_RANGE, "a number of attempts");
        within("accuracy_pct", accuracy_pct, ACCURACY_RANGE, "a percentage");
        within(
            "median_seconds",
            median_seconds,
            MEDIAN_SECONDS_RANGE,
            "a number of seconds",
        );
        let level = Level::new(level).map_err(|e| errors.push(e)).ok();
        match level {
            Some(level) if errors.is_empty() => Ok(PassMark {
                window: window as u16,
                accuracy_pct: accuracy_pct as u8,
                median_seconds: median_seconds as u16,
                level,
                required,
            }),
            _ => Err(errors),
        }
    }
}

/// The pass marks of every kind, the default where none was set.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PassMarks(BTreeMap<&'static str, PassMark>);

impl PassMarks {
    pub fn set(&mut self, kind: Kind, mark: PassMark) {
        self.0.insert(kind.name(), mark);
    }

    pub fn of(&self, kind: Kind) -> PassMark {
        self.0
            .get(kind.name())
            .copied()
            .unwrap_or(PassMark::DEFAULT)
    }
}

/// How a kind stands against its pass mark.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Readiness {
    pub met: bool,
    /// Right answers among the counted window, and the window's attempts.
    pub window_right: usize,
    pub window_attempts: usize,
    pub window_median_ms: Option<i64>,
    /// Why not, in words ("12 of the 40 attempts needed").
    pub short_of: Vec<String>,
}

/// Attempts a point of the trend stands for.
pub const TREND_BLOCK: usize = 10;
/// The most points a trend keeps (the latest).
pub const TREND_POINTS_MAX: usize = 12;

/// One point of a kind's trend: attempts `first..=last` (counted from 1,
/// oldest first), up to [`TREND_BLOCK`] of them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TrendPoint {
    pub first: usize,
    pub last: usize,
    pub right: usize,
    pub median_ms: i64,
}

impl TrendPoint {
    pub fn attempts(&self) -> usize {
        self.last + 1 - self.first
    }

    /// Percent right, rounded down.
    pub fn pct(&self) -> usize {
        self.right * 100 / self.attempts()
    }
}

/// One kind's progress.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct KindProgress {
    pub kind: Kind,
    pub attempts: usize,
    pub right: usize,
    /// Percent right, rounded down; none before the first attempt.
    pub accuracy_pct: Option<u8>,
    pub median_ms: Option<i64>,
    /// The highest level attempted.
    pub top_level: Option<Level>,
    /// Every [`TREND_BLOCK`] attempts in turn, the latest
    /// [`TREND_POINTS_MAX`] points.
    pub trend: Vec<TrendPoint>,
    pub mark: PassMark,
    pub readiness: Readiness,
}

/// A trainee's progress: every kind, the weakest and what to practise next.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TrainingProgress)]
pub struct Progress {
    pub kinds: Vec<KindProgress>,
    /// The required kind furthest from its pass mark (none when all are met).
    pub weakest: Option<Kind>,
    /// What to practise next: the weakest kind at the level to work on.
    pub next: Option<(Kind, Level)>,
    /// Every required kind's pass mark met.
    pub ready: bool,
}

/// The median of `values` (the lower middle for an even count).
pub fn median(values: &mut [i64]) -> Option<i64> {
    if values.is_empty() {
        return None;
    }
    values.sort_unstable();
    Some(values[(values.len() - 1) / 2])
}

fn percent(right: usize, n: usize) -> Option<u8> {
    (n > 0).then(|| (right * 100 / n) as u8)
}

/// A time in seconds to the tenth ("12.3 s").
pub fn seconds(ms: i64) -> String {
    format!("{}.{} s", ms / 1000, ms % 1000 / 100)
}

/// Where `right` answers of `n` with a median of `median_ms` fall short of
/// `mark`'s accuracy and speed, in words (none: both met).
pub fn accuracy_and_speed(
    mark: &PassMark,
    right: usize,
    n: usize,
    median_ms: Option<i64>,
) -> Vec<String> {
    let mut short_of = Vec::new();
    // right / n >= pct / 100, in integers.
    if right * 100 < usize::from(mark.accuracy_pct) * n {
        short_of.push(format!(
            "{right} right of {n} (needs {}%)",
            mark.accuracy_pct
        ));
    }
    let limit_ms = i64::from(mark.median_seconds) * 1000;
    if let Some(m) = median_ms.filter(|m| *m >= limit_ms) {
        short_of.push(format!(
            "median {} (needs under {} s)",
            seconds(m),
            mark.median_seconds
        ));
    }
    short_of
}

/// How `attempts` (one kind's, oldest first) stand against `mark`.
pub fn readiness(attempts: &[AttemptRow], mark: &PassMark) -> Readiness {
    let counted: Vec<&AttemptRow> = attempts.iter().filter(|a| a.level >= mark.level).collect();
    let window = &counted[counted.len().saturating_sub(usize::from(mark.window))..];
    let right = window.iter().filter(|a| a.right).count();
    let mut times: Vec<i64> = window.iter().map(|a| a.elapsed_ms).collect();
    let median_ms = median(&mut times);
    let mut short_of = Vec::new();
    let needed = usize::from(mark.window);
    if window.is_empty() {
        short_of.push(format!(
            "no attempts at level {} or above yet (needs {needed})",
            mark.level
        ));
        return Readiness {
            met: false,
            window_right: 0,
            window_attempts: 0,
            window_median_ms: None,
            short_of,
        };
    }
    if window.len() < needed {
        short_of.push(format!(
            "{} of the {needed} attempts at level {} or above",
            window.len(),
            mark.level
        ));
    }
    short_of.extend(accuracy_and_speed(mark, right, window.len(), median_ms));
    Readiness {
        met: short_of.is_empty(),
        window_right: right,
        window_attempts: window.len(),
        window_median_ms: median_ms,
        short_of,
    }
}

fn trend(attempts: &[&AttemptRow]) -> Vec<TrendPoint> {
    let blocks = attempts.len().div_ceil(TREND_BLOCK);
    (blocks.saturating_sub(TREND_POINTS_MAX)..blocks)
        .map(|b| {
            let first = b * TREND_BLOCK;
            let block = &attempts[first..attempts.len().min(first + TREND_BLOCK)];
            let mut times: Vec<i64> = block.iter().map(|a| a.elapsed_ms).collect();
            TrendPoint {
                first: first + 1,
                last: first + block.len(),
                right: block.iter().filter(|a| a.right).count(),
                median_ms: median(&mut times).unwrap_or(0),
            }
        })
        .collect()
}

/// Progress from every attempt (oldest first) under `marks`.
pub fn progress(attempts: &[AttemptRow], marks: &PassMarks) -> Progress {
    let kinds: Vec<KindProgress> = Kind::ALL
        .into_iter()
        .map(|kind| {
            let of_kind: Vec<&AttemptRow> = attempts.iter().filter(|a| a.kind == kind).collect();
            let owned: Vec<AttemptRow> = of_kind.iter().map(|a| **a).collect();
            let right = of_kind.iter().filter(|a| a.right).count();
            let mut times: Vec<i64> = of_kind.iter().map(|a| a.elapsed_ms).collect();
            let mark = marks.of(kind);
            KindProgress {
                kind,
                attempts: of_kind.len(),
                right,
                accuracy_pct: percent(right, of_kind.len()),
                median_ms: median(&mut times),
                top_level: of_kind.iter().map(|a| a.level).max(),
                trend: trend(&of_kind),
                readiness: readiness(&owned, &mark),
                mark,
            }
        })
        .collect();
    let weakest = kinds
        .iter()
        .filter(|k| k.mark.required && !k.readiness.met)
        .min_by_key(|k| {
            // Furthest from the mark: the lowest window accuracy, then the
            // fewest attempts; a kind never tried counts as 0%.
            let pct = percent(k.readiness.window_right, k.readiness.window_attempts).unwrap_or(0);
            (pct, k.readiness.window_attempts)
        })
        .map(|k| k.kind);
    let next = weakest.map(|kind| (kind, next_level(attempts, kind)));
    Progress {
        ready: kinds.iter().all(|k| !k.mark.required || k.readiness.met),
        weakest,
        next,
        kinds,
    }
}

/// The level to practise `kind` at: one up from the highest level whose
/// last 10 attempts were at least 9 right, never above 3; level 1 until
/// then.
fn next_level(attempts: &[AttemptRow], kind: Kind) -> Level {
    let mastered = |level: Level| {
        let mut last: Vec<bool> = attempts
            .iter()
            .filter(|a| a.kind == kind && a.level == level)
            .map(|a| a.right)
            .collect();
        let tail = last.split_off(last.len().saturating_sub(10));
        tail.len() == 10 && tail.iter().filter(|r| **r).count() >= 9
    };
    let mut level = Level::EASY;
    for l in Level::ALL {
        if mastered(l) {
            level = Level::ALL
                .into_iter()
                .find(|n| *n > l)
                .unwrap_or(Level::HARD);
        }
    }
    level
}

/// Why a sign-off is refused: 403 for who may not, 409 for the trainee's
/// state.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SignOffRefusal {
    /// No one signs themselves off.
    OwnSignOff,
    /// Required kinds whose pass mark is not met.
    NotReady(Vec<Kind>),
    AlreadySignedOff,
}

impl std::fmt::Display for SignOffRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SignOffRefusal::OwnSignOff => f.write_str("no one may sign themselves off"),
            SignOffRefusal::NotReady(kinds) => {
                let names: Vec<&str> = kinds.iter().map(|k| k.title()).collect();
                write!(
                    f,
                    "not ready: the pass mark is not met for {}",
                    names.join(", ")
                )
            }
            SignOffRefusal::AlreadySignedOff => f.write_str("already signed off"),
        }
    }
}

/// The sign-off rule: someone else signs, the trainee is ready on every
/// required kind, and not signed off before. Returns whether the sign-off
/// promotes: asked for (`promote`) and the account still a trainee's (a
/// dealer or supervisor who drilled is signed off as they are).
pub fn check_sign_off(
    signer: &str,
    trainee: &str,
    progress: &Progress,
    already: bool,
    promote: bool,
    role: Role,
) -> Result<bool, SignOffRefusal> {
    if signer == trainee {
        return Err(SignOffRefusal::OwnSignOff);
    }
    if already {
        return Err(SignOffRefusal::AlreadySignedOff);
    }
    let short: Vec<Kind> = progress
        .kinds
        .iter()
        .filter(|k| k.mark.required && !k.readiness.met)
        .map(|k| k.kind)
        .collect();
    if short.is_empty() {
        Ok(promote && role == Role::Trainee)
    } else {
        Err(SignOffRefusal::NotReady(short))
    }
}

#[cfg(test)]
#[path = "progress_tests.rs"]
mod tests;
