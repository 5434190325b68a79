//! The PD rotation clock of the `california-2026` profile (docs/shifts.md,
//! "The rotation clock"): while a game runs, within every window of
//! `pd_rotation_minutes` the bank must have been held by at least
//! `pd_rotation_min_other_players` players other than a TPPP, or the game
//! stops. A hand opened once the clock has run out is refused unless a
//! supervisor overrode the rule (with a reason, audited), which restarts
//! the clock. Pure: the store gives the table's recent hands, its last
//! override and the TPPPs' names, and the time.
//!
//! The window slides: the rule holds at `now` while `min` distinct other
//! players banked a hand opened in the last `minutes`. A game that started
//! (or was overridden) less than `minutes` ago has until `minutes` after
//! its start. A game runs from its first hand while no gap between hands
//! reaches `minutes` (a table idle that long has stopped). So the clock
//! needs only the hands of the last `2 × minutes` ([`Clock::LOOKBACK`]).

use chrono::{DateTime, Duration, Utc};

use crate::double_hand_poker::options::RuleOptions;

/// The rule's numbers, from the table's options; None: no clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RotationRule {
    pub minutes: u32,
    pub min_other: u32,
}

impl RotationRule {
    pub fn of(rules: &RuleOptions) -> Option<RotationRule> {
        (rules.pd_rotation_minutes > 0 && rules.pd_rotation_min_other_players > 0).then_some(
            RotationRule {
                minutes: rules.pd_rotation_minutes,
                min_other: rules.pd_rotation_min_other_players,
            },
        )
    }

    fn window(self) -> Duration {
        Duration::minutes(i64::from(self.minutes))
    }

    /// How far back the store must read hands: two windows.
    pub fn lookback(self) -> Duration {
        self.window() * 2
    }

    /// The warning comes this long before the clock runs out: 10 minutes,
    /// or a quarter of a short window.
    pub fn warning(self) -> Duration {
        Duration::minutes(i64::from((self.minutes / 4).clamp(1, 10)))
    }
}

/// One recent hand at the table (not voided): when it opened and who
/// banked it (None while its PD is not set).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecentHand {
    pub opened_at: DateTime<Utc>,
    pub pd: Option<String>,
}

/// What the clock is read from.
#[derive(Debug, Clone, Default)]
pub struct ClockFacts {
    /// The table's hands opened in the last [`RotationRule::lookback`].
    pub hands: Vec<RecentHand>,
    /// The table's latest override, if any.
    pub override_at: Option<DateTime<Utc>>,
    /// Every registered TPPP's name: they never count as another player.
    pub tppps: Vec<String>,
}

/// A player who banked in the window, with their latest bank.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OtherBanker {
    pub player: String,
    pub at: DateTime<Utc>,
}

/// The clock at one moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Clock {
    pub rule: RotationRule,
    pub now: DateTime<Utc>,
    /// When the running game started (its first hand, or the override
    /// since); None: no game runs (the next hand starts one).
    pub started: Option<DateTime<Utc>>,
    /// The other players (not TPPPs) who banked in the window, latest first.
    pub others: Vec<OtherBanker>,
    /// Hands may open before this; None: no game runs.
    pub deadline: Option<DateTime<Utc>>,
}

/// How the clock stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockState {
    /// No game runs: the next hand starts the clock.
    Idle,
    Running,
    /// Less than [`RotationRule::warning`] left.
    Warning,
    /// Run out: a new hand needs a supervisor's override.
    Expired,
}

impl ClockState {
    pub fn name(self) -> &'static str {
        match self {
            ClockState::Idle => "idle",
            ClockState::Running => "running",
            ClockState::Warning => "warning",
            ClockState::Expired => "expired",
        }
    }
}

/// Whether `name` is a TPPP's (names compare trimmed, case-insensitively).
pub fn is_tppp(tppps: &[String], name: &str) -> bool {
    let name = name.trim().to_lowercase();
    tppps.iter().any(|t| t.trim().to_lowercase() == name)
}

impl Clock {
    pub fn at(rule: RotationRule, facts: &ClockFacts, now: DateTime<Utc>) -> Clock {
        let window = rule.window();
        let mut times: Vec<DateTime<Utc>> = facts
            .hands
            .iter()
            .map(|h| h.opened_at)
            .filter(|t| *t <= now)
            .collect();
        times.sort_unstable_by(|a, b| b.cmp(a));
        // Walk back while hands follow each other closer than a window.
        let mut started = None;
        let mut after = now;
        for t in times {
            if after - t >= window {
                break;
            }
            started = Some(t);
            after = t;
        }
        if let (Some(s), Some(o)) = (started, facts.override_at)
            && o > s
            && o <= now
        {
            started = Some(o);
        }
        // Every other player's latest bank in the facts (two windows): the
        // min-th latest, plus a window, is when the rule stops holding, even
        // if that is already past.
        let mut banked: Vec<OtherBanker> = Vec::new();
        for hand in &facts.hands {
            let Some(pd) = &hand.pd else { continue };
            if hand.opened_at > now || is_tppp(&facts.tppps, pd) {
                continue;
            }
            let key = pd.trim().to_lowercase();
            match banked
                .iter_mut()
                .find(|o| o.player.trim().to_lowercase() == key)
            {
                Some(o) => o.at = o.at.max(hand.opened_at),
                None => banked.push(OtherBanker {
                    player: pd.clone(),
                    at: hand.opened_at,
                }),
            }
        }
        banked.sort_by(|a, b| b.at.cmp(&a.at).then_with(|| a.player.cmp(&b.player)));
        let deadline = started.map(|s| {
            let first_window = s + window;
            match banked.get(rule.min_other as usize - 1) {
                Some(kept) => first_window.max(kept.at + window),
                None => first_window,
            }
        });
        let others = banked.into_iter().filter(|o| now - o.at < window).collect();
        Clock {
            rule,
            now,
            started,
            others,
            deadline,
        }
    }

    pub fn state(&self) -> ClockState {
        match self.deadline {
            None => ClockState::Idle,
            Some(d) if self.now >= d => ClockState::Expired,
            Some(d) if d - self.now <= self.rule.warning() => ClockState::Warning,
            Some(_) => ClockState::Running,
        }
    }

    /// Time left before the clock runs out (zero once it has).
    pub fn left(&self) -> Option<Duration> {
        self.deadline.map(|d| (d - self.now).max(Duration::zero()))
    }

    /// The players whose banks keep the rule now: the next bank must go to
    /// someone else (and not a TPPP) to push the deadline on. With fewer
    /// other players than the rule needs, every one of them.
    pub fn keeping(&self) -> Vec<String> {
        let min = self.rule.min_other as usize;
        let n = if self.others.len() < min {
            self.others.len()
        } else {
            min - 1
        };
        self.others[..n].iter().map(|o| o.player.clone()).collect()
    }

    /// Other players still to bank before the deadline for the rule to
    /// hold past it (at least one while a game runs).
    pub fn still_needed(&self) -> u32 {
        let have = self.others.len() as u32;
        if have < self.rule.min_other {
            self.rule.min_other - have
        } else {
            1
        }
    }

    /// Whether a new hand may open now.
    /// `at` words a time for the floor (the cardroom's zone).
    pub fn check_open(&self, at: impl Fn(DateTime<Utc>) -> String) -> Result<(), String> {
        if self.state() != ClockState::Expired {
            return Ok(());
        }
        let since = self.deadline.map(&at).unwrap_or_default();
        Err(format!(
            "the PD rotation clock ran out at {since}: the bank did not go to {} players other than a TPPP within {} minutes ({}), so the game stops; a supervisor may override the rule with a reason on the table page",
            self.rule.min_other,
            self.rule.minutes,
            self.banked_words()
        ))
    }

    /// "banked: Ann at 10:05, Bo at 10:20" or "no other player banked".
    fn banked_words(&self) -> String {
        if self.others.is_empty() {
            return "no other player banked".into();
        }
        let names: Vec<&str> = self.others.iter().map(|o| o.player.as_str()).collect();
        format!("other players who banked: {}", names.join(", "))
    }

    /// The dealer's line: what the clock says and who must bank next.
    pub fn words(&self, at: impl Fn(DateTime<Utc>) -> String) -> String {
        let (Some(deadline), Some(left)) = (self.deadline, self.left()) else {
            return format!(
                "Rotation clock: no game running; the next hand starts the {}-minute clock",
                self.rule.minutes
            );
        };
        if self.state() == ClockState::Expired {
            return format!(
                "Rotation clock ran out at {}: a supervisor's override is needed to go on",
                at(deadline)
            );
        }
        let keeping = self.keeping();
        let other_than = match keeping.as_slice() {
            [] => String::new(),
            names => format!(" other than {}", names.join(" and ")),
        };
        let what = match self.still_needed() {
            1 => format!("the bank must go to a player{other_than} who is not a TPPP"),
            n => format!("the bank must go to {n} more players{other_than} who are not TPPPs"),
        };
        format!(
            "Rotation clock: {} min left — before {}, {what}",
            left.num_minutes(),
            at(deadline)
        )
    }
}

#[cfg(test)]
mod tests;
