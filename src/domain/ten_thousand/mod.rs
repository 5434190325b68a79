//! 10,000 ("Crapola", Dix Mille): scoring a throw, every legal keep with
//! its points, busts (../shared/rules/ten-thousand.md). A turn and a
//! recorded game scored to a score sheet are in `game.rs`; the contract the
//! CLI and the HTTP API share is in `api.rs` (docs/dice-games.md). Pure.

mod api;
mod game;
#[cfg(test)]
mod game_tests;
mod keeper;
#[cfg(test)]
mod tests;

pub use api::*;
pub use game::*;
pub use keeper::*;

use serde::Serialize;

/// The most dice in a throw (the six-dice game).
pub const DICE_MAX: usize = 6;
/// Points of a straight.
pub const STRAIGHT_POINTS: u32 = 1000;

/// How many of each face, index 1..=6 (index 0 unused).
pub type Counts = [u8; 7];

pub fn counts(dice: &[u8]) -> Counts {
    let mut c = [0u8; 7];
    for &d in dice {
        if (1..=6).contains(&d) {
            c[usize::from(d)] += 1;
        }
    }
    c
}

fn total(c: &Counts) -> usize {
    c.iter().map(|&n| usize::from(n)).sum()
}

/// The dice of `c`, lowest first.
pub fn dice_of(c: &Counts) -> Vec<u8> {
    (1..=6u8)
        .flat_map(|f| std::iter::repeat_n(f, usize::from(c[usize::from(f)])))
        .collect()
}

/// `a - b` when `b` is within `a`.
fn minus(a: &Counts, b: &Counts) -> Option<Counts> {
    let mut r = *a;
    for f in 1..=6 {
        r[f] = a[f].checked_sub(b[f])?;
    }
    Some(r)
}

/// Three or more of a kind: face × 100 (ones 1,000), doubled per extra die.
pub fn kind_points(face: u8, n: u8) -> u32 {
    let base = if face == 1 {
        1000
    } else {
        u32::from(face) * 100
    };
    base << n.saturating_sub(3).min(3)
}

/// The straights: 1-5, 2-6 and (six dice) 1-6.
pub fn straights() -> [Counts; 3] {
    [
        [0, 1, 1, 1, 1, 1, 0],
        [0, 0, 1, 1, 1, 1, 1],
        [0, 1, 1, 1, 1, 1, 1],
    ]
}

/// The best scoring of a set of dice in which every die scores (a single 1
/// or 5, inside three or more of a kind, or inside a straight); `None` when
/// some die cannot score. The empty set scores 0.
pub fn best_score(c: &Counts) -> Option<u32> {
    if total(c) == 0 {
        return Some(0);
    }
    let mut best: Option<u32> = None;
    let mut consider = |points: u32, rest: Counts| {
        if let Some(r) = best_score(&rest) {
            best = Some(best.map_or(points + r, |b| b.max(points + r)));
        }
    };
    for face in 1..=6u8 {
        let have = c[usize::from(face)];
        for n in 3..=have {
            let mut rest = *c;
            rest[usize::from(face)] -= n;
            consider(kind_points(face, n), rest);
        }
    }
    for (face, points) in [(1usize, 100), (5, 50)] {
        if c[face] > 0 {
            let mut rest = *c;
            rest[face] -= 1;
            consider(points, rest);
        }
    }
    for s in straights() {
        if let Some(rest) = minus(c, &s) {
            consider(STRAIGHT_POINTS, rest);
        }
    }
    best
}

/// Dice kept earlier in the turn, when they are only single 1s and/or 5s:
/// a throw that completes a straight with them may take the straight
/// (1,000) in place of those singles' points.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Across {
    pub kept: Counts,
}

impl Across {
    fn singles_points(&self) -> u32 {
        100 * u32::from(self.kept[1]) + 50 * u32::from(self.kept[5])
    }
}

/// A keep's points: the best scoring of its dice, or (with `across`) the
/// straight completed with the singles kept before less their points, plus
/// the best scoring of the keep's other dice. `None`: not a legal keep.
/// The flag tells whether the straight across throws was used.
pub fn keep_points(keep: &Counts, across: Option<&Across>) -> Option<(u32, bool)> {
    if total(keep) == 0 {
        return None;
    }
    let mut best = best_score(keep).map(|p| (p, false));
    if let Some(a) = across.filter(|a| total(&a.kept) > 0) {
        for s in straights() {
            let Some(need) = minus(&s, &a.kept) else {
                continue;
            };
            let Some(rest) = minus(keep, &need) else {
                continue;
            };
            if let Some(r) = best_score(&rest) {
                let p = (STRAIGHT_POINTS + r).saturating_sub(a.singles_points());
                if best.is_none_or(|(b, _)| p > b) {
                    best = Some((p, true));
                }
            }
        }
    }
    best
}

/// One legal keep.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandKeep)]
pub struct Keep {
    /// Lowest first.
    pub dice: Vec<u8>,
    pub points: u32,
}

/// Every distinct legal keep of a throw, by points then dice; empty on a
/// bust.
pub fn keeps(throw: &Counts, across: Option<&Across>) -> Vec<Keep> {
    let mut out = Vec::new();
    let mut sub = [0u8; 7];
    loop {
        if let Some((points, _)) = keep_points(&sub, across) {
            out.push(Keep {
                dice: dice_of(&sub),
                points,
            });
        }
        // Next sub-multiset (odometer over the faces).
        let mut f = 1;
        while f <= 6 {
            if sub[f] < throw[f] {
                sub[f] += 1;
                break;
            }
            sub[f] = 0;
            f += 1;
        }
        if f > 6 {
            break;
        }
    }
    out.sort_by(|a, b| (a.points, &a.dice).cmp(&(b.points, &b.dice)));
    out
}

/// A throw with no legal keep loses the turn.
pub fn is_bust(throw: &Counts, across: Option<&Across>) -> bool {
    keeps(throw, across).is_empty()
}

/// The faces of a set that score in no way: not a 1 or 5, fewer than three,
/// in no straight within the set (or completed across throws).
pub fn dead_faces(keep: &Counts, across: Option<&Across>) -> Vec<u8> {
    let in_straight = |face: usize| {
        straights().iter().any(|s| {
            s[face] > 0
                && (minus(keep, s).is_some()
                    || across.is_some_and(|a| {
                        minus(s, &a.kept)
                            .and_then(|need| minus(keep, &need))
                            .is_some()
                    }))
        })
    };
    (1..=6u8)
        .filter(|&f| {
            let i = usize::from(f);
            keep[i] > 0 && f != 1 && f != 5 && keep[i] < 3 && !in_straight(i)
        })
        .collect()
}
