//! One turn of 10,000: its throws checked one by one (the dice thrown, the
//! keep chosen, the bust that ends it) and scored, and the turn's stop
//! checked against the opening, `min_record` and hot dice.

use super::super::api::{Rules, TenThousandError, check_dice};
use super::super::{Across, Counts, Keep, counts, dead_faces, dice_of, keep_points, keeps};
use super::{THROWS_PER_TURN_MAX, ThrowView, TurnRecord, TurnResult, show, thousands};

/// A turn in progress: accumulated points, dice left to throw, what was
/// kept (for the straight across throws).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnState {
    pub points: u32,
    pub dice_left: u8,
    /// Every die kept this turn.
    pub kept: Counts,
    /// Whether every keep so far was single 1s and/or 5s.
    pub singles_only: bool,
    /// The last keep used every die: the next throw is of all of them.
    pub hot_dice: bool,
}

impl TurnState {
    pub fn new(rules: &Rules) -> TurnState {
        TurnState {
            points: 0,
            dice_left: rules.dice,
            kept: [0; 7],
            singles_only: true,
            hot_dice: false,
        }
    }

    /// The straight across throws, when it applies.
    pub fn across(&self) -> Option<Across> {
        (self.singles_only && self.kept.iter().any(|&n| n > 0))
            .then_some(Across { kept: self.kept })
    }

    /// Applies a keep already checked legal, worth `points`.
    pub fn keep(&mut self, rules: &Rules, keep: &Counts, points: u32, across_used: bool) {
        let n: u8 = keep.iter().sum();
        let singles =
            !across_used && (1..=6).all(|f| keep[f] == 0 || ((f == 1 || f == 5) && keep[f] < 3));
        self.singles_only &= singles;
        for (kept, &k) in self.kept.iter_mut().zip(keep) {
            *kept = kept.saturating_add(k);
        }
        self.points = self.points.saturating_add(points);
        self.dice_left = self.dice_left.saturating_sub(n);
        self.hot_dice = self.dice_left == 0;
        if self.hot_dice {
            self.dice_left = rules.dice;
        }
    }
}

/// Plays one turn's throws; returns the throws, how the turn ended, and
/// the points lost to a bust (0 when it recorded its points).
pub(super) fn play_turn(
    rules: &Rules,
    turn: &TurnRecord,
    field: &str,
    on_board: bool,
) -> Result<(Vec<ThrowView>, TurnResult, u32), TenThousandError> {
    let n = turn.throws.len();
    if n == 0 || n > THROWS_PER_TURN_MAX {
        return Err(TenThousandError::new(
            format!("{field}.throws"),
            format!("{n} throws; a turn has 1 to {THROWS_PER_TURN_MAX}"),
        ));
    }
    let mut state = TurnState::new(rules);
    let mut views = Vec::with_capacity(n);
    for (k, throw) in turn.throws.iter().enumerate() {
        let tf = format!("{field}.throws[{k}]");
        let last = k + 1 == n;
        let dice = check_dice(&throw.dice, &format!("{tf}.dice"), rules.dice)?;
        check_dice_left(&dice, &state, &tf)?;
        let thrown = counts(&dice);
        let across = state.across();
        let offered = keeps(&thrown, across.as_ref());
        let Some(keep) = &throw.keep else {
            check_bust(
                &dice,
                &offered,
                last,
                &format!("{field}.throws[{}]", k + 1),
                &tf,
            )?;
            let lost = state.points;
            views.push(ThrowView {
                dice,
                keep: None,
                points: 0,
                straight_across: false,
                hot_dice: false,
                bust: true,
                turn_points: 0,
            });
            return Ok((views, TurnResult::Bust, lost));
        };
        let kf = format!("{tf}.keep");
        if offered.is_empty() {
            return Err(TenThousandError::new(
                kf,
                format!("the throw {} is a bust: nothing can be kept", show(&dice)),
            ));
        }
        let (kept, points, across_used) = checked_keep(rules, keep, &dice, across.as_ref(), &kf)?;
        state.keep(rules, &kept, points, across_used);
        views.push(ThrowView {
            dice,
            keep: Some(dice_of(&kept)),
            points,
            straight_across: across_used,
            hot_dice: state.hot_dice,
            bust: false,
            turn_points: state.points,
        });
        if last {
            check_stop(rules, &state, on_board, &tf)?;
        }
    }
    Ok((views, TurnResult::Recorded, 0))
}

/// A throw is of the dice left to throw.
fn check_dice_left(dice: &[u8], state: &TurnState, tf: &str) -> Result<(), TenThousandError> {
    if dice.len() == usize::from(state.dice_left) {
        return Ok(());
    }
    Err(TenThousandError::new(
        format!("{tf}.dice"),
        format!(
            "{} dice ({}); {} dice are left to throw",
            dice.len(),
            show(dice),
            state.dice_left
        ),
    ))
}

/// A throw without a keep is a bust: nothing it `offered` scores, and it
/// is the turn's last (`next`: the field of a throw after it).
fn check_bust(
    dice: &[u8],
    offered: &[Keep],
    last: bool,
    next: &str,
    tf: &str,
) -> Result<(), TenThousandError> {
    if let Some(best) = offered.last() {
        return Err(TenThousandError::new(
            format!("{tf}.keep"),
            format!(
                "the throw {} scores (up to {}): a keep of at least one scoring die is needed",
                show(dice),
                best.points
            ),
        ));
    }
    if !last {
        return Err(TenThousandError::new(
            next,
            format!("a throw after the bust {}: the turn ended", show(dice)),
        ));
    }
    Ok(())
}

/// The keep of a throw that scores: dice of the throw, every one scoring.
/// Its counts, its points, and whether it completed a straight across
/// throws.
fn checked_keep(
    rules: &Rules,
    keep: &[i64],
    dice: &[u8],
    across: Option<&Across>,
    kf: &str,
) -> Result<(Counts, u32, bool), TenThousandError> {
    if keep.is_empty() {
        return Err(TenThousandError::new(
            kf,
            "an empty keep; keep at least one scoring die",
        ));
    }
    let keep = check_dice(keep, kf, rules.dice)?;
    let kept = counts(&keep);
    let thrown = counts(dice);
    if (1..=6).any(|f| kept[f] > thrown[f]) {
        return Err(TenThousandError::new(
            kf,
            format!("{} is not in the throw {}", show(&keep), show(dice)),
        ));
    }
    let Some((points, across_used)) = keep_points(&kept, across) else {
        let dead = dead_faces(&kept, across);
        let why = if dead.is_empty() {
            "not every die scores".to_string()
        } else {
            format!("{} does not score", show(&dead))
        };
        return Err(TenThousandError::new(
            kf,
            format!("the keep {}: {why}", show(&keep)),
        ));
    };
    Ok((kept, points, across_used))
}

/// A turn may stop on its last keep only off hot dice (when they must be
/// thrown), with the opening once off the board, and with `min_record`.
fn check_stop(
    rules: &Rules,
    state: &TurnState,
    on_board: bool,
    tf: &str,
) -> Result<(), TenThousandError> {
    if state.hot_dice && rules.hot_dice_must_roll {
        return Err(TenThousandError::new(
            tf,
            format!(
                "stops on hot dice with {}; hot_dice_must_roll is on: all the dice must be thrown again",
                thousands(state.points)
            ),
        ));
    }
    if !on_board && state.points < rules.opening {
        return Err(TenThousandError::new(
            tf,
            format!(
                "stops to record {}, below the opening {} needed to get on the board",
                thousands(state.points),
                thousands(rules.opening)
            ),
        ));
    }
    if state.points < rules.min_record {
        return Err(TenThousandError::new(
            tf,
            format!(
                "stops to record {}, below min_record {}",
                thousands(state.points),
                thousands(rules.min_record)
            ),
        ));
    }
    Ok(())
}
