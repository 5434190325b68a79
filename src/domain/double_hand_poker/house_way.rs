//! House way: how the dealer sets a hand on request, and how the product sets
//! the PD's hand. [`ReferenceHouseWay`] is the reference house way of the
//! rules file; a cardroom can supply its own through [`HouseWay`].
//!
//! Rules 1–9 are tried in order; the first that applies decides. For telling
//! which rule applies, the joker counts as an ace ("A + JK" is a pair of
//! aces); for judging the hands it plays as the rule options say.

use super::options::{HouseWayName, RuleOptions};
use super::setting::{LOW_POSITIONS, SetHand, back_positions};
use crate::cards::Card;
use crate::cards::eval::{Category, EvalRules, HandRank, eval2_with, eval5_with};

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
pub mod table;

pub use file::{FileError, HouseWayFile};
pub use program::NO_RULE;

/// The house ways pitbook ships, by name: each a file of
/// `house_way/ways/`, its source cited in it.
pub const SHIPPED: [(&str, &str); 4] = [
    ("reference", include_str!("house_way/ways/reference.txt")),
    ("foxwoods", include_str!("house_way/ways/foxwoods.txt")),
    (
        "atlantic-city",
        include_str!("house_way/ways/atlantic-city.txt"),
    ),
    ("gold-star", include_str!("house_way/ways/gold-star.txt")),
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

type Rule = std::borrow::Cow<'static, str>;

/// For each set of ranks: the most of them inside one straight's five ranks
/// (A-2-3-4-5 included).
const WINDOW_MAX: [u8; 8192] = {
    let mut t = [0u8; 8192];
    let mut m = 0;
    while m < 8192 {
        let mut best = (m as u32 & 0x100F).count_ones();
        let mut s = 0;
        while s < 9 {
            let n = (m as u32 >> s & 0x1F).count_ones();
            if n > best {
                best = n;
            }
            s += 1;
        }
        t[m] = best as u8;
        m += 1;
    }
    t
};

/// The seven cards, their ranks (the joker as an ace) and rank counts.
struct Ctx<'a> {
    cards: &'a [Card; 7],
    rules: EvalRules,
    rank: [u8; 7],
    joker: Option<usize>,
    /// `by_count[n]`: bit set of ranks held exactly `n` times.
    by_count: [u16; 6],
    /// Positions from the highest rank down; natural cards before the joker.
    order: [usize; 7],
}

#[derive(Clone, Copy)]
struct Candidate {
    front: (usize, usize),
    low: HandRank,
    high: HandRank,
}

fn top(set: u16) -> u8 {
    15u8.saturating_sub(set.leading_zeros() as u8)
}

impl<'a> Ctx<'a> {
    fn new(cards: &'a [Card; 7], rules: EvalRules) -> Ctx<'a> {
        let mut rank = [0u8; 7];
        let mut joker = None;
        // Ranks seen at least once, twice, … five times (as in `eval`).
        let [mut a, mut b, mut c, mut d, mut e] = [0u16; 5];
        for (i, card) in cards.iter().enumerate() {
            rank[i] = (card.index() >> 2).min(ACE);
            if card.is_joker() {
                joker = Some(i);
            }
            let m = 1u16 << rank[i];
            e |= d & m;
            d |= c & m;
            c |= b & m;
            b |= a & m;
            a |= m;
        }
        let by_count = [!a & 0x1FFF, a & !b, b & !c, c & !d, d & !e, e];
        // Insertion sort of the positions by (rank, natural) descending, then
        // by suit (spades, hearts, diamonds, clubs) — never the dealt order,
        // so the same cards in any order give the same setting; the position
        // is kept in the low 3 bits of the key.
        let mut keys: [u16; 7] = std::array::from_fn(|i| {
            let suit = u16::from(cards[i].index() & 3);
            u16::from(rank[i]) << 8 | u16::from(Some(i) != joker) << 7 | (3 - suit) << 3 | i as u16
        });
        for n in 1..7 {
            let mut m = n;
            while m > 0 && keys[m - 1] < keys[m] {
                keys.swap(m - 1, m);
                m -= 1;
            }
        }
        let order = keys.map(|k| usize::from(k & 7));
        Ctx {
            cards,
            rules,
            rank,
            joker,
            by_count,
            order,
        }
    }

    /// Positions holding rank `r`: natural cards first, the joker last.
    fn of_rank(&self, r: u8) -> impl Iterator<Item = usize> + '_ {
        self.order
            .iter()
            .copied()
            .filter(move |&i| self.rank[i] == r)
    }

    fn pair_of(&self, r: u8) -> (usize, usize) {
        let mut it = self.of_rank(r);
        let a = it.next().unwrap_or(0);
        (a, it.next().unwrap_or(a))
    }

    /// The positions of the natural aces (up to three, in the cards' order;
    /// unused places repeat the first).
    fn natural_aces(&self) -> [usize; 3] {
        let mut out = [usize::MAX; 3];
        let mut n = 0;
        for i in self.of_rank(ACE) {
            if Some(i) != self.joker && n < 3 {
                out[n] = i;
                n += 1;
            }
        }
        out.map(|i| if i == usize::MAX { out[0] } else { i })
    }

    /// Of the fronts the rule allows, the best front, then the best back;
    /// ties keep the first (the fronts come in the cards' order).
    fn best_front_then_back(&self, fronts: &[(usize, usize)]) -> (usize, usize) {
        let mut best: Option<((HandRank, HandRank), (usize, usize))> = None;
        for &(i, j) in fronts {
            let c = self.eval(i, j);
            if best.is_none_or(|(b, _)| (c.low, c.high) > b) {
                best = Some(((c.low, c.high), (i, j)));
            }
        }
        best.map_or(fronts[0], |b| b.1)
    }

    /// Positions of cards held once, highest rank first.
    fn singles(&self) -> ([usize; 7], usize) {
        let mut out = [0usize; 7];
        let mut n = 0;
        for &i in &self.order {
            if self.by_count[1] >> self.rank[i] & 1 == 1 {
                out[n] = i;
                n += 1;
            }
        }
        (out, n)
    }

    fn eval(&self, i: usize, j: usize) -> Candidate {
        let high = back_positions(i, j).map(|k| self.cards[usize::from(k)]);
        Candidate {
            front: (i, j),
            low: eval2_with(&[self.cards[i], self.cards[j]], self.rules),
            high: eval5_with(&high, self.rules),
        }
    }

    /// The legal setting with the best front, then the best back, among those
    /// accepted by `keep`; the joker stays behind when that changes nothing.
    /// Ties go to the first in the cards' order (`order`), not the dealt one.
    fn best_setting(&self, keep: impl Fn(HandRank, HandRank) -> bool) -> Option<Candidate> {
        let mut best: Option<(Candidate, bool)> = None;
        for &(a, b) in &LOW_POSITIONS {
            let (i, j) = (self.order[a], self.order[b]);
            let c = self.eval(i, j);
            if c.high <= c.low || !keep(c.low, c.high) {
                continue;
            }
            let behind = self.joker.is_none_or(|k| k != i && k != j);
            let better = best
                .is_none_or(|(b, b_behind)| (c.low, c.high, behind) > (b.low, b.high, b_behind));
            if better {
                best = Some((c, behind));
            }
        }
        best.map(|b| b.0)
    }

    /// The best front from the positions in `avail`, the joker kept behind
    /// when that changes nothing.
    /// `avail` is in the cards' order, so ties do not depend on the dealt one.
    fn best_front(&self, avail: &[usize]) -> (usize, usize) {
        let mut best: Option<((HandRank, bool), (usize, usize))> = None;
        for (n, &i) in avail.iter().enumerate() {
            for &j in &avail[n + 1..] {
                let low = eval2_with(&[self.cards[i], self.cards[j]], self.rules);
                let key = (low, self.joker.is_none_or(|k| k != i && k != j));
                if best.is_none_or(|(b, _)| key > b) {
                    best = Some((key, (i, j)));
                }
            }
        }
        best.map_or((0, 1), |b| b.1)
    }

    /// Can any five of the seven cards make a straight or a flush?
    fn straight_or_flush_possible(&self) -> bool {
        let j = u32::from(self.joker.is_some());
        let mut suits = [0u32; 4];
        let mut ranks = 0u32;
        for (i, c) in self.cards.iter().enumerate() {
            if Some(i) != self.joker {
                suits[(c.index() & 3) as usize] += 1;
                ranks |= 1 << self.rank[i];
            }
        }
        if suits.iter().any(|&n| n + j >= 5) {
            return true;
        }
        u32::from(WINDOW_MAX[ranks as usize & 0x1FFF]) + j >= 5
    }

    /// Rule 7's search: the straight, flush or straight flush behind that
    /// leaves the best front, if its front is at least `min_front`.
    fn straight_or_flush(
        &self,
        min_front: Option<(usize, usize)>,
        pair_front: bool,
    ) -> Option<Candidate> {
        if !self.straight_or_flush_possible() {
            return None;
        }
        let min_front =
            min_front.map(|(i, j)| eval2_with(&[self.cards[i], self.cards[j]], self.rules));
        self.best_setting(|low, high| {
            matches!(
                high.category(),
                Category::Straight | Category::Flush | Category::StraightFlush
            ) && min_front.is_none_or(|m| low >= m)
                && (!pair_front || low.category() == Category::Pair)
        })
    }

    fn choose(&self) -> ((usize, usize), Rule) {
        let [_, _, pairs, trips, quads, fives] = self.by_count;
        // 1. Five aces.
        if fives != 0 {
            if pairs >> KING & 1 == 1 {
                return (
                    self.pair_of(KING),
                    "Five aces with a pair of kings: kings in front".into(),
                );
            }
            return (
                self.pair_of(ACE),
                "Five aces: pair of aces in front, three aces behind".into(),
            );
        }
        // 2. Four of a kind.
        if quads != 0 {
            let q = top(quads);
            if pairs | trips != 0 {
                let p = top(pairs | trips);
                return (
                    self.pair_of(p),
                    "Four of a kind and a pair: pair in front".into(),
                );
            }
            let rest: Vec<usize> = self
                .order
                .iter()
                .copied()
                .filter(|&i| self.rank[i] != q)
                .collect();
            return match q {
                0..=4 => (
                    self.best_front(&rest),
                    "Four of a kind (2s to 6s): kept together".into(),
                ),
                5..=9 if rest.iter().any(|&i| self.rank[i] == ACE) => (
                    self.best_front(&rest),
                    "Four of a kind (7s to jacks) with an ace: kept together".into(),
                ),
                5..=9 => (
                    self.pair_of(q),
                    "Four of a kind (7s to jacks): split".into(),
                ),
                ACE if self.joker.is_some() => {
                    // A-A-A + joker: two natural aces in front; which one
                    // stays behind with the joker is the best back.
                    let [a, b, c] = self.natural_aces();
                    (
                        self.best_front_then_back(&[(a, b), (a, c), (b, c)]),
                        "Four of a kind (queens to aces): split".into(),
                    )
                }
                _ => (
                    self.pair_of(q),
                    "Four of a kind (queens to aces): split".into(),
                ),
            };
        }
        // 3. Full house, including two three of a kinds.
        if trips != 0 && (trips.count_ones() >= 2 || pairs != 0) {
            if trips.count_ones() >= 2 {
                return (
                    self.pair_of(top(trips)),
                    "Two three of a kinds: pair from the higher in front".into(),
                );
            }
            let p = top(pairs);
            let (s, n) = self.singles();
            if p == 0 && pairs.count_ones() == 1 && n == 2 {
                let (a, k) = (s[0], s[1]);
                if self.rank[a] == ACE && self.rank[k] == KING {
                    return (
                        (a, k),
                        "Full house with 2s and A-K: kept together, A-K in front".into(),
                    );
                }
            }
            return (self.pair_of(p), "Full house: split, pair in front".into());
        }
        // 4. Three pair.
        if pairs.count_ones() >= 3 {
            return (
                self.pair_of(top(pairs)),
                "Three pair: highest pair in front".into(),
            );
        }
        let (s, n) = self.singles();
        let singles = &s[..n];
        // 5. Two pair.
        if pairs.count_ones() == 2 {
            if self.joker.is_some()
                && let Some(c) = self.straight_or_flush(None, true)
            {
                return (c.front, behind_text("Two pair", c.high, "pair in front"));
            }
            let hi = top(pairs);
            let lo = top(pairs & !(1 << hi));
            if hi <= TEN && self.rank[singles[0]] == ACE {
                return (
                    (singles[0], singles[1]),
                    "Two pair with ace: pairs kept behind, ace in front".into(),
                );
            }
            return (
                self.pair_of(lo),
                "Two pair: split, lower pair in front".into(),
            );
        }
        // 6. Three of a kind.
        if trips != 0 {
            let t = top(trips);
            if t == ACE {
                let front = if self.joker.is_some() {
                    // A-A + joker: which natural ace goes in front (and
                    // which stays behind with the joker) is the best back.
                    let [a, b, _] = self.natural_aces();
                    self.best_front_then_back(&[(a, singles[0]), (b, singles[0])])
                } else {
                    (self.pair_of(ACE).0, singles[0])
                };
                return (front, "Three aces: split, ace in front".into());
            }
            let front = (singles[0], singles[1]);
            if let Some(c) = self.straight_or_flush(Some(front), false) {
                return (
                    c.front,
                    behind_text("Three of a kind", c.high, "front at least as good"),
                );
            }
            return (front, "Three of a kind: kept behind, best front".into());
        }
        // 7–8. One pair.
        if pairs != 0 {
            let front = (singles[0], singles[1]);
            if let Some(c) = self.straight_or_flush(Some(front), false) {
                return (
                    c.front,
                    behind_text("One pair", c.high, "front at least as good"),
                );
            }
            return (
                front,
                "One pair: pair behind, two highest cards in front".into(),
            );
        }
        // 7, 9. No pair.
        if let Some(c) = self.straight_or_flush(None, false) {
            return (c.front, behind_text("No pair", c.high, "best front"));
        }
        (
            (singles[1], singles[2]),
            "No pair: highest card behind, next two in front".into(),
        )
    }
}

fn behind_text(what: &str, high: HandRank, front: &str) -> Rule {
    let played = program::played_text(high.category());
    format!("{what}: {played} behind, {front}").into()
}

#[cfg(test)]
#[path = "house_way_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "house_way_property_tests.rs"]
mod property_tests;
