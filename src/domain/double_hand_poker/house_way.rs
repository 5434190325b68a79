//! House way: how the dealer sets a hand on request, and how the product sets
//! the PD's hand. [`ReferenceHouseWay`] is the reference house way of the
//! rules file; a cardroom can supply its own through [`HouseWay`].
//!
//! Rules 1–9 are tried in order; the first that applies decides. For telling
//! which rule applies, the joker counts as an ace ("A + JK" is a pair of
//! aces); for judging the hands it plays as the rule options say.

use super::options::{HouseWayName, RuleOptions};
use super::setting::SetHand;
use crate::cards::Card;
use crate::cards::eval::{EvalRules, HandRank, eval2_with, eval5_with};

/// A way to set seven cards.
pub trait HouseWay {
    fn name(&self) -> &str;
    /// Sets the seven cards. Must never return a fouled hand.
    fn set(&self, cards: &[Card; 7], opts: &RuleOptions) -> HouseWaySetting;

    /// The hand [`HouseWay::set`] gives, without its words, and the values
    /// of its two hands: what counting millions of hands needs (`ev`).
    fn set_ranked(&self, cards: &[Card; 7], opts: &RuleOptions) -> Ranked {
        let hand = self.set(cards, opts).hand;
        Ranked {
            high: hand.high_rank(opts),
            low: hand.low_rank(opts),
            hand,
        }
    }
}

/// A setting and the values of its hands behind and in front.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Ranked {
    pub hand: SetHand,
    pub high: HandRank,
    pub low: HandRank,
}

/// A house-way result and the rule that made it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct HouseWaySetting {
    pub hand: SetHand,
    pub rule: String,
}

/// The reference house way of `double-hand-poker.md`.
#[derive(Debug, Clone, Copy, Default)]
pub struct ReferenceHouseWay;

const ACE: u8 = 12;
const KING: u8 = 11;
const TEN: u8 = 8;

impl HouseWay for ReferenceHouseWay {
    fn name(&self) -> &str {
        "reference"
    }

    fn set(&self, cards: &[Card; 7], opts: &RuleOptions) -> HouseWaySetting {
        let ctx = Ctx::new(cards, EvalRules::from_options(opts));
        let (front, rule) = ctx.choose();
        finish(&ctx, front, rule.into_owned())
    }

    fn set_ranked(&self, cards: &[Card; 7], opts: &RuleOptions) -> Ranked {
        let ctx = Ctx::new(cards, EvalRules::from_options(opts));
        finish_hand(&ctx, ctx.choose().0).0
    }
}

/// The setting with `front` in front, which `rule` chose; when it fouls
/// (possible with a wild joker), the legal setting with the best front,
/// then the best back.
fn finish(ctx: &Ctx<'_>, front: (usize, usize), rule: String) -> HouseWaySetting {
    match finish_hand(ctx, front) {
        (set, false) => HouseWaySetting {
            hand: set.hand,
            rule,
        },
        (set, true) => HouseWaySetting {
            hand: set.hand,
            rule: format!("{rule} would foul: played the legal setting with the best front"),
        },
    }
}

/// [`finish`]'s hand alone, with the values its foul check found, and
/// whether `front` fouled.
fn finish_hand(ctx: &Ctx<'_>, front: (usize, usize)) -> (Ranked, bool) {
    let ranked = |(i, j): (usize, usize)| {
        let hand = SetHand::split(ctx.cards, i, j);
        Ranked {
            high: eval5_with(&hand.high, ctx.rules),
            low: eval2_with(&hand.low, ctx.rules),
            hand,
        }
    };
    let set = ranked(front);
    if set.high > set.low {
        return (set, false);
    }
    let best = ctx.best_setting(|_, _| true).map_or(front, |b| b.front);
    (ranked(best), true)
}

/// House ways as files (docs/house-ways.md).
pub mod census;
pub mod chart;
pub mod file;
pub mod loaded;
mod program;
mod reference_rules;
mod seven_cards;
pub mod table;

pub use file::{FileError, HouseWayFile};
pub use program::NO_RULE;
use seven_cards::{Ctx, top};

/// The house ways pitbook ships, by name: each a file of
/// `house_way/ways/`, its source cited in it.
pub const SHIPPED: [(&str, &str); 5] = [
    ("reference", include_str!("house_way/ways/reference.txt")),
    ("foxwoods", include_str!("house_way/ways/foxwoods.txt")),
    (
        "atlantic-city",
        include_str!("house_way/ways/atlantic-city.txt"),
    ),
    ("gold-star", include_str!("house_way/ways/gold-star.txt")),
    ("mgm", include_str!("house_way/ways/mgm.txt")),
];

/// A loaded house way this process does not hold: named by a record
/// (another instance loaded it since this one started) or typed by hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("no house way \"{0}\" is loaded: a supervisor loads it at /house-ways")]
pub struct NotLoaded(pub HouseWayName);

/// The house way a table's `house_way` option names: the compiled
/// reference (which the census test holds equal to its file), a shipped
/// file, each parsed once, the first time it is named, or a loaded file.
pub fn by_name(name: HouseWayName) -> Result<&'static (dyn HouseWay + Sync), NotLoaded> {
    use std::sync::OnceLock;
    static PARSED: [OnceLock<HouseWayFile>; SHIPPED.len()] =
        [const { OnceLock::new() }; SHIPPED.len()];
    if name == HouseWayName::Reference {
        return Ok(&ReferenceHouseWay);
    }
    if let HouseWayName::Loaded(_) = name {
        return loaded::get(name)
            .map(|w| &w.file as _)
            .ok_or(NotLoaded(name));
    }
    let i = SHIPPED
        .iter()
        .position(|(n, _)| *n == name.name())
        .expect("every shipped name is in SHIPPED (tested)");
    Ok(PARSED[i].get_or_init(|| {
        HouseWayFile::parse(SHIPPED[i].1).expect("a shipped house way parses (tested)")
    }))
}

/// Every house way a table can name: the shipped, then the loaded ones
/// this process holds, in the order loaded.
pub fn names() -> Vec<String> {
    HouseWayName::ALL
        .iter()
        .map(|w| w.name().to_string())
        .chain(loaded::all().iter().map(|w| w.name.name().to_string()))
        .collect()
}

/// A house way's file by the name a table gives it: a shipped one parsed,
/// or a loaded one's.
pub fn file_of(name: HouseWayName) -> Option<HouseWayFile> {
    match name {
        HouseWayName::Loaded(_) => loaded::get(name).map(|w| w.file.clone()),
        _ => shipped(name.name()),
    }
}

/// A shipped house way, parsed.
pub fn shipped(name: &str) -> Option<HouseWayFile> {
    SHIPPED
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| HouseWayFile::parse(text).expect("a shipped house way parses (tested)"))
}

#[cfg(test)]
#[path = "house_way_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "house_way_property_tests.rs"]
mod property_tests;
