//! Hand evaluation: five-card hands with the joker (`bug` or `wild`), five of
//! a kind on top, the `wheel` option, and two-card hands.
//!
//! A [`HandRank`] is one `u32`: `category << 26 | major << 13 | minor`, where
//! `major` and `minor` are 13-bit rank sets (bit 0 = two … bit 12 = ace) or,
//! for straights, a strength number. Comparing two ranks as integers compares
//! category, then the major ranks, then the remaining cards from the highest
//! down — exactly the rules file's order, for five-card hands, for two-card
//! hands, and between a five-card and a two-card hand (the foul check). In
//! that last case a card beats no card: `A K Q 7 4` outranks `A K`.
//!
//! The evaluator counts ranks with four bitmasks (seen once/twice/three/four
//! times), checks the suits with one more, and allocates nothing.

use std::fmt;

use serde::Serialize;

use super::rules::{CardRules, JokerRule, WheelRule};
use super::{Card, Rank};

/// Hand categories, lowest first.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Category {
    HighCard = 0,
    Pair,
    TwoPair,
    ThreeOfAKind,
    Straight,
    Flush,
    FullHouse,
    FourOfAKind,
    StraightFlush,
    /// Four aces and the joker (`bug`); any rank under `wild`.
    FiveOfAKind,
}

impl Category {
    pub const ALL: [Category; 10] = [
        Category::HighCard,
        Category::Pair,
        Category::TwoPair,
        Category::ThreeOfAKind,
        Category::Straight,
        Category::Flush,
        Category::FullHouse,
        Category::FourOfAKind,
        Category::StraightFlush,
        Category::FiveOfAKind,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Category::HighCard => "High card",
            Category::Pair => "One pair",
            Category::TwoPair => "Two pair",
            Category::ThreeOfAKind => "Three of a kind",
            Category::Straight => "Straight",
            Category::Flush => "Flush",
            Category::FullHouse => "Full house",
            Category::FourOfAKind => "Four of a kind",
            Category::StraightFlush => "Straight flush",
            Category::FiveOfAKind => "Five of a kind",
        }
    }
}

impl fmt::Display for Category {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A comparable hand value; higher is better. See the module docs.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, utoipa::ToSchema,
)]
#[serde(transparent)]
pub struct HandRank(u32);

const CAT_SHIFT: u32 = 26;
const MAJOR_SHIFT: u32 = 13;
const RANKS: u32 = 0x1FFF;
const ACE: u32 = 1 << 12;
const WHEEL: u32 = 0x100F;
const JOKER_BIT: u32 = 1 << 13;

impl HandRank {
    /// The raw comparable value.
    pub fn value(self) -> u32 {
        self.0
    }

    pub fn category(self) -> Category {
        Category::ALL[((self.0 >> CAT_SHIFT) as usize).min(9)]
    }

    fn major(self) -> u32 {
        (self.0 >> MAJOR_SHIFT) & RANKS
    }

    fn minor(self) -> u32 {
        self.0 & RANKS
    }

    /// A human name: "Full house, kings over fours", "Pair of aces",
    /// "Royal flush", "Straight, five high", "Ace high".
    pub fn name(self) -> String {
        let top = |set: u32| top_rank(set);
        let (major, minor) = (self.major(), self.minor());
        match self.category() {
            Category::FiveOfAKind => format!("Five {}", top(major).plural()),
            Category::StraightFlush if straight_top(major) == Rank::Ace => "Royal flush".into(),
            Category::StraightFlush => {
                format!("Straight flush, {} high", straight_top(major).name())
            }
            Category::FourOfAKind => format!("Four of a kind, {}", top(major).plural()),
            Category::FullHouse => {
                format!(
                    "Full house, {} over {}",
                    top(major).plural(),
                    top(minor).plural()
                )
            }
            Category::Flush => format!("Flush, {} high", top(minor).name()),
            Category::Straight => format!("Straight, {} high", straight_top(major).name()),
            Category::ThreeOfAKind => format!("Three of a kind, {}", top(major).plural()),
            Category::TwoPair => format!(
                "Two pair, {} and {}",
                top(major).plural(),
                top(major & !(1 << top(major).index())).plural()
            ),
            Category::Pair => format!("Pair of {}", top(major).plural()),
            Category::HighCard => capitalize(&format!("{} high", top(minor).name())),
        }
    }
}

impl fmt::Display for HandRank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

fn top_rank(set: u32) -> Rank {
    let i = 31u32.saturating_sub((set & RANKS).leading_zeros());
    Rank::from_index(i as u8).unwrap_or(Rank::Two)
}

/// Straight strength is twice the top rank's index; the wheel is 6 (five
/// high, lowest) or 23 (just below ace high) under `second_highest`.
fn straight_top(strength: u32) -> Rank {
    if strength % 2 == 1 {
        Rank::Five
    } else {
        Rank::from_index((strength / 2) as u8).unwrap_or(Rank::Two)
    }
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().chain(c).collect(),
        None => String::new(),
    }
}

/// Which rule options matter to evaluation, unpacked once.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EvalRules {
    /// The joker is wild (any card); otherwise it is a bug.
    pub wild: bool,
    /// A-2-3-4-5 ranks just below A-K-Q-J-T.
    pub wheel_high: bool,
}

impl EvalRules {
    /// Under `joker: none` a joker cannot be dealt (`check_deal`); if one is
    /// evaluated anyway it is treated as a bug.
    pub fn from_options(rules: impl Into<CardRules>) -> EvalRules {
        let opts = rules.into();
        EvalRules {
            wild: opts.joker == JokerRule::Wild,
            wheel_high: opts.wheel == WheelRule::SecondHighest,
        }
    }
}

/// Rank multiset as bitmasks: ranks seen at least 1, 2, 3, 4, 5 times.
#[derive(Clone, Copy, Default)]
struct Counts {
    a: u32,
    b: u32,
    c: u32,
    d: u32,
    e: u32,
}

impl Counts {
    #[inline(always)]
    fn add(mut self, m: u32) -> Counts {
        self.e |= self.d & m;
        self.d |= self.c & m;
        self.c |= self.b & m;
        self.b |= self.a & m;
        self.a |= m;
        self
    }
}

#[inline(always)]
fn straight_strength(a: u32, wheel_high: bool) -> u32 {
    let low = a & a.wrapping_neg();
    if a == low * 0x1F {
        2 * (low.trailing_zeros() + 4)
    } else if a == WHEEL {
        if wheel_high { 23 } else { 6 }
    } else {
        0
    }
}

/// Category by shape, indexed by which multiples are present: bit 0 a pair
/// or better, bit 1 two ranks seen twice or more, bit 2 three of a kind,
/// bit 3 four, bit 4 five. No pair: high card (straights and flushes are
/// decided apart). No popcount: the baseline x86-64 target lacks it.
const SHAPE_CATEGORY: [u32; 32] = {
    let mut t = [0u32; 32];
    let mut i = 1;
    while i < 32 {
        t[i] = if i & 16 != 0 {
            9
        } else if i & 8 != 0 {
            7
        } else if i & 4 != 0 && i & 2 != 0 {
            6
        } else if i & 4 != 0 {
            3
        } else if i & 2 != 0 {
            2
        } else {
            1
        };
        i += 1;
    }
    t
};

/// The hand value from the rank counts, branch-light: the major ranks are
/// the highest multiple (five, four, three or two of a kind), the minor
/// ranks the rest; a straight replaces both by its strength.
#[inline(always)]
fn finish(k: Counts, flush: bool, wheel_high: bool) -> u32 {
    let Counts { a, b, c, d, e } = k;
    let major = if e != 0 {
        e
    } else if d != 0 {
        d
    } else if c != 0 {
        c
    } else {
        b
    };
    let shape = usize::from(b != 0)
        | usize::from(b & b.wrapping_sub(1) != 0) << 1
        | usize::from(c != 0) << 2
        | usize::from(d != 0) << 3
        | usize::from(e != 0) << 4;
    let s = straight_strength(a, wheel_high);
    let code = usize::from(s != 0) | usize::from(flush) << 1;
    let cat = if code == 0 {
        SHAPE_CATEGORY[shape]
    } else {
        [0, 4, 5, 8][code]
    };
    let (major, minor) = if s != 0 { (s, 0) } else { (major, a ^ major) };
    (cat << CAT_SHIFT) | (major << MAJOR_SHIFT) | minor
}

/// Evaluates five cards under `rules`. The joker: under `bug` an ace or any
/// card (not already in the hand) completing a straight, flush or straight
/// flush; under `wild` any rank (five of a kind possible), suited only as a
/// card not already in the hand.
#[inline]
pub fn eval5_with(cards: &[Card; 5], rules: EvalRules) -> HandRank {
    // Branch-free accumulation: the joker (index 52) lands on rank bit 13,
    // outside the 13 ranks, and has no suit bit.
    let mut k = Counts::default();
    let mut suits = 0u32;
    for c in cards {
        let i = u32::from(c.index());
        k = k.add(1 << (i >> 2));
        suits |= (1 << (i & 3)) >> u32::from(i >= 52);
    }
    let one_suit = suits & suits.wrapping_sub(1) == 0;
    if k.a & JOKER_BIT == 0 {
        return HandRank(finish(k, one_suit, rules.wheel_high));
    }
    let real = Counts {
        a: k.a & RANKS,
        b: k.b & RANKS,
        c: k.c & RANKS,
        d: k.d & RANKS,
        e: 0,
    };
    HandRank(with_joker(real, one_suit && k.b & JOKER_BIT == 0, rules))
}

/// `eval5_with` reading the options each call.
pub fn eval5(cards: &[Card; 5], opts: impl Into<CardRules>) -> HandRank {
    eval5_with(cards, EvalRules::from_options(opts))
}

/// Four real cards (counts `k`, all of one suit if `suited`) plus the joker.
#[inline(never)]
fn with_joker(k: Counts, suited: bool, rules: EvalRules) -> u32 {
    let a = k.a;
    if k.b != 0 || a == 0 {
        // A pair or better among the four: no straight or flush is possible,
        // so the joker duplicates a rank: an ace under bug; under wild the
        // rank that makes the most of a kind.
        let dup = if rules.wild {
            let m = if k.d != 0 {
                k.d
            } else if k.c != 0 {
                k.c
            } else {
                k.b
            };
            1 << top_rank(m).index()
        } else {
            ACE
        };
        return finish(k.add(dup), false, rules.wheel_high);
    }
    // Four distinct ranks: a straight flush, else a flush, else a straight
    // if the joker completes one (it stands for a card not in the hand).
    let (fill, strength) = straight_fill(a, rules.wheel_high);
    match (suited, fill != 0) {
        (true, true) => (8 << CAT_SHIFT) | (strength << MAJOR_SHIFT),
        (true, false) => (5 << CAT_SHIFT) | a | 1 << top_rank(!a & RANKS).index(),
        (false, true) => (4 << CAT_SHIFT) | (strength << MAJOR_SHIFT),
        (false, false) => {
            // Pair the top rank under wild; under bug an ace: a pair of
            // aces, or ace high.
            let dup = if rules.wild {
                1 << top_rank(a).index()
            } else {
                ACE
            };
            if a & dup != 0 {
                (1 << CAT_SHIFT) | (dup << MAJOR_SHIFT) | (a ^ dup)
            } else {
                a | dup
            }
        }
    }
}

/// The rank bit completing the best straight from four distinct ranks, and
/// that straight's strength; (0, 0) if none.
#[inline(always)]
fn straight_fill(a: u32, wheel_high: bool) -> (u32, u32) {
    let hi = 31 - a.leading_zeros();
    let lo = a.trailing_zeros();
    let (mut fill, mut strength) = (0, 0);
    if hi - lo <= 4 {
        let top = (lo + 4).min(12);
        fill = (0x1F << (top - 4)) & !a;
        strength = 2 * top;
    }
    let wheel = if wheel_high { 23 } else { 6 };
    if a & !WHEEL == 0 && wheel > strength {
        fill = WHEEL & !a;
        strength = wheel;
    }
    (fill, strength)
}

/// Evaluates a two-card hand: a pair, or high card then low card. The joker
/// is an ace under `bug` (JK + A is a pair of aces); under `wild` it pairs
/// the other card.
#[inline]
pub fn eval2_with(cards: &[Card; 2], rules: EvalRules) -> HandRank {
    let rank_bit = |c: Card| 1u32 << (c.index() >> 2).min(12);
    let (x, y) = (cards[0], cards[1]);
    let (m1, m2) = match (x.is_joker(), y.is_joker()) {
        (false, false) => (rank_bit(x), rank_bit(y)),
        (true, true) => (ACE, ACE),
        (true, false) | (false, true) => {
            let other = if x.is_joker() {
                rank_bit(y)
            } else {
                rank_bit(x)
            };
            (if rules.wild { other } else { ACE }, other)
        }
    };
    if m1 == m2 {
        HandRank((1 << CAT_SHIFT) | (m1 << MAJOR_SHIFT))
    } else {
        HandRank(m1 | m2)
    }
}

/// `eval2_with` reading the options each call.
pub fn eval2(cards: &[Card; 2], opts: impl Into<CardRules>) -> HandRank {
    eval2_with(cards, EvalRules::from_options(opts))
}

/// Evaluates a 5- or 2-card hand given as a slice (for the CLI and API).
pub fn eval_any(cards: &[Card], opts: impl Into<CardRules>) -> Result<HandRank, super::CardError> {
    let opts = opts.into();
    super::check_deal(cards, opts)?;
    if let Ok(five) = <&[Card; 5]>::try_from(cards) {
        Ok(eval5(five, opts))
    } else if let Ok(two) = <&[Card; 2]>::try_from(cards) {
        Ok(eval2(two, opts))
    } else {
        Err(super::CardError::FiveOrTwo { got: cards.len() })
    }
}

#[cfg(test)]
#[path = "eval_tests.rs"]
mod tests;

#[cfg(test)]
#[path = "eval_reference_tests.rs"]
mod reference_tests;
