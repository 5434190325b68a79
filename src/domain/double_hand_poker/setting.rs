//! Setting a hand (7 cards → a 5-card high hand and a 2-card low hand), foul
//! detection, the 21 possible settings, and deciding a position against the
//! Player-Dealer.

use std::fmt;

use serde::Serialize;

use super::house_way::HouseWay;
use super::options::{FoulRule, RuleOptions};
use super::outcome::Outcome;
use crate::cards::eval::{EvalRules, HandRank, eval2_with, eval5_with};
use crate::cards::{Card, CardError, check_deal, format_cards, parse_cards};

/// A set hand: `high` (back, 5 cards) and `low` (front, 2 cards). Each part
/// is kept sorted from the highest card down (the joker first).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
pub struct SetHand {
    pub high: [Card; 5],
    pub low: [Card; 2],
}

/// The five positions left behind when `i` and `j` (0..7) go in front.
pub fn back_positions(i: usize, j: usize) -> [u8; 5] {
    BACK[(i % 7) * 7 + j % 7]
}

const BACK: [[u8; 5]; 49] = {
    let mut t = [[0u8; 5]; 49];
    let mut p = 0;
    while p < 49 {
        let (i, j) = (p / 7, p % 7);
        let (mut k, mut n) = (0, 0);
        while k < 7 && n < 5 {
            if k != i && k != j {
                t[p][n] = k as u8;
                n += 1;
            }
            k += 1;
        }
        p += 1;
    }
    t
};

/// The 21 ways to pick the low hand's two positions out of seven.
pub const LOW_POSITIONS: [(usize, usize); 21] = {
    let mut out = [(0, 0); 21];
    let (mut i, mut n) = (0, 0);
    while i < 7 {
        let mut j = i + 1;
        while j < 7 {
            out[n] = (i, j);
            n += 1;
            j += 1;
        }
        i += 1;
    }
    out
};

impl SetHand {
    /// A set hand from its parts (no validation; the parts are sorted).
    pub fn new(mut high: [Card; 5], mut low: [Card; 2]) -> SetHand {
        // A sorting network (highest first): branch-free, and this runs
        // once per house-way setting.
        for (x, y) in [
            (0, 1),
            (3, 4),
            (2, 4),
            (2, 3),
            (0, 3),
            (0, 2),
            (1, 4),
            (1, 3),
            (1, 2),
        ] {
            if high[x] < high[y] {
                high.swap(x, y);
            }
        }
        if low[0] < low[1] {
            low.swap(0, 1);
        }
        SetHand { high, low }
    }

    /// Cards `i` and `j` in front, the other five behind.
    pub fn split(cards: &[Card; 7], i: usize, j: usize) -> SetHand {
        let back = back_positions(i, j);
        SetHand::new(
            back.map(|k| cards[usize::from(k)]),
            [cards[i % 7], cards[j % 7]],
        )
    }

    /// Parses and validates a set hand: exactly 5 cards behind and 2 in
    /// front, no card twice, the joker only if the profile has one.
    pub fn parse(high: &str, low: &str, opts: &RuleOptions) -> Result<SetHand, CardError> {
        let h = parse_cards(high)?;
        let l = parse_cards(low)?;
        let h5 = <[Card; 5]>::try_from(h.as_slice()).map_err(|_| CardError::SideCount {
            side: "high",
            expected: 5,
            got: h.len(),
        })?;
        let l2 = <[Card; 2]>::try_from(l.as_slice()).map_err(|_| CardError::SideCount {
            side: "low",
            expected: 2,
            got: l.len(),
        })?;
        let hand = SetHand::new(h5, l2);
        check_deal(&hand.cards(), opts)?;
        Ok(hand)
    }

    /// All seven cards: the high hand then the low hand.
    pub fn cards(&self) -> [Card; 7] {
        let (h, l) = (self.high, self.low);
        [h[0], h[1], h[2], h[3], h[4], l[0], l[1]]
    }

    pub fn high_rank(&self, opts: &RuleOptions) -> HandRank {
        eval5_with(&self.high, EvalRules::from_options(opts))
    }

    pub fn low_rank(&self, opts: &RuleOptions) -> HandRank {
        eval2_with(&self.low, EvalRules::from_options(opts))
    }

    /// Fouled: the high hand does not outrank the low hand.
    pub fn is_fouled(&self, opts: &RuleOptions) -> bool {
        fouled_with(self, EvalRules::from_options(opts))
    }
}

pub fn fouled_with(hand: &SetHand, rules: EvalRules) -> bool {
    eval5_with(&hand.high, rules) <= eval2_with(&hand.low, rules)
}

/// `As Ks Qs Js Ts | 9c 9d`
impl fmt::Display for SetHand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} | {}",
            format_cards(&self.high),
            format_cards(&self.low)
        )
    }
}

/// One way to set seven cards, with both hands' values.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Setting {
    pub hand: SetHand,
    pub high_rank: HandRank,
    pub low_rank: HandRank,
    pub fouled: bool,
}

/// The 21 ways to set seven cards, fouled ones marked, in a fixed order
/// (low positions (0,1), (0,2), … (5,6) of the given cards).
pub fn all_settings(cards: &[Card; 7], opts: &RuleOptions) -> Vec<Setting> {
    let rules = EvalRules::from_options(opts);
    LOW_POSITIONS
        .iter()
        .map(|&(i, j)| {
            let hand = SetHand::split(cards, i, j);
            let high_rank = eval5_with(&hand.high, rules);
            let low_rank = eval2_with(&hand.low, rules);
            Setting {
                hand,
                high_rank,
                low_rank,
                fouled: high_rank <= low_rank,
            }
        })
        .collect()
}

/// The decision for one position against the PD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Decision {
    pub outcome: Outcome,
    pub player_fouled: bool,
    pub pd_fouled: bool,
    /// As played: after any house-way reset.
    pub player: SetHand,
    pub pd: SetHand,
    pub explanation: String,
}

/// Decides a position: high against high, low against low, copies to the PD.
/// A fouled PD hand is always re-set by house way; a fouled player hand
/// loses (`foul: loses`) or is re-set by house way (`foul: reset_house_way`).
pub fn decide(
    player: &SetHand,
    pd: &SetHand,
    opts: &RuleOptions,
    house_way: &dyn HouseWay,
) -> Decision {
    let mut notes = Vec::new();
    let player_fouled = player.is_fouled(opts);
    let pd_fouled = pd.is_fouled(opts);
    let mut pd_played = *pd;
    if pd_fouled {
        let reset = house_way.set(&pd.cards(), opts);
        notes.push(format!(
            "PD hand {pd} is fouled; re-set by house way ({}): {} ({}).",
            house_way.name(),
            reset.hand,
            reset.rule
        ));
        pd_played = reset.hand;
    }
    let mut player_played = *player;
    if player_fouled {
        match opts.foul {
            FoulRule::Loses => {
                notes.push(format!(
                    "Player hand {player} is fouled ({} behind does not beat {} in front): \
                     it loses both hands to the PD.",
                    player.high_rank(opts),
                    player.low_rank(opts)
                ));
                return Decision {
                    outcome: Outcome::Pd,
                    player_fouled,
                    pd_fouled,
                    player: player_played,
                    pd: pd_played,
                    explanation: notes.join(" "),
                };
            }
            FoulRule::ResetHouseWay => {
                let reset = house_way.set(&player.cards(), opts);
                notes.push(format!(
                    "Player hand {player} is fouled; re-set by house way ({}): {} ({}).",
                    house_way.name(),
                    reset.hand,
                    reset.rule
                ));
                player_played = reset.hand;
            }
        }
    }
    let high = compare(
        "High",
        player_played.high_rank(opts),
        pd_played.high_rank(opts),
    );
    let low = compare(
        "Low",
        player_played.low_rank(opts),
        pd_played.low_rank(opts),
    );
    notes.push(high.1);
    notes.push(low.1);
    let outcome = match (high.0, low.0) {
        (true, true) => Outcome::Player,
        (false, false) => Outcome::Pd,
        _ => Outcome::Push,
    };
    notes.push(
        match outcome {
            Outcome::Player => "Player wins both hands.",
            Outcome::Pd => "PD wins.",
            Outcome::Push => "Push.",
        }
        .to_string(),
    );
    Decision {
        outcome,
        player_fouled,
        pd_fouled,
        player: player_played,
        pd: pd_played,
        explanation: notes.join(" "),
    }
}

/// (player wins this hand, text). A copy goes to the PD.
fn compare(which: &str, player: HandRank, pd: HandRank) -> (bool, String) {
    let verdict = match player.cmp(&pd) {
        std::cmp::Ordering::Greater => "player",
        std::cmp::Ordering::Less => "PD",
        std::cmp::Ordering::Equal => "copy, to the PD",
    };
    (
        player > pd,
        format!("{which}: player {player} vs PD {pd}: {verdict}."),
    )
}

#[cfg(test)]
#[path = "setting_tests.rs"]
mod tests;
