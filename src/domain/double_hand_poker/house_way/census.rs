//! Every seven-card hand through a house way: `pitbook house-way check`
//! (each hand set, never fouled, the seven cards used; how many hands each
//! rule decides) and `house-way diff` (the hands two ways set differently).
//! The hands are split by their lowest card, so callers run the parts on
//! every CPU and add them up.

use super::file::HouseWayFile;
use super::{HouseWay, HouseWaySetting};
use crate::cards::Card;
use crate::double_hand_poker::options::{JokerRule, RuleOptions};

/// Hands kept as examples of each problem.
pub const EXAMPLES_MAX: usize = 5;

/// The deck the options deal: 53 cards, or 52 without the joker.
pub fn deck_size(opts: &RuleOptions) -> u8 {
    if opts.joker == JokerRule::None {
        52
    } else {
        53
    }
}

/// What `check` found over some of the hands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckCounts {
    pub hands: u64,
    /// Hands each rule decided, by the rule's place in the file.
    pub by_rule: Vec<u64>,
    /// Hands no rule sets.
    pub unset: u64,
    /// Hands whose setting fouls, or does not use the seven cards.
    pub fouled: u64,
    pub examples: Vec<Problem>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub cards: [Card; 7],
    pub what: String,
}

impl CheckCounts {
    pub fn plus(mut self, other: CheckCounts) -> CheckCounts {
        self.hands += other.hands;
        if self.by_rule.len() < other.by_rule.len() {
            self.by_rule.resize(other.by_rule.len(), 0);
        }
        for (a, b) in self.by_rule.iter_mut().zip(other.by_rule) {
            *a += b;
        }
        self.unset += other.unset;
        self.fouled += other.fouled;
        self.examples.extend(other.examples);
        self.examples.truncate(EXAMPLES_MAX);
        self
    }
}

/// `check` over the hands whose lowest card is `first` (a card index).
pub fn check_part(way: &HouseWayFile, opts: &RuleOptions, first: u8) -> CheckCounts {
    let mut counts = CheckCounts {
        by_rule: vec![0; way.rules.len()],
        ..CheckCounts::default()
    };
    for_each_hand_from(first, deck_size(opts), &mut |cards| {
        check_hand(way, opts, cards, &mut counts);
    });
    counts
}

/// `check` over one hand of each seven-card rank pattern and of each of
/// its ways to hold a flush (292,253 hands, [`RankStates`]): a file's
/// rules read only what the ranks and the flush suit's ranks decide, so
/// these stand for all 154,143,080 (the census test holds each shipped
/// way's table, built from the same hands, equal to the way on every
/// hand). What loading a house way runs: well under a second.
///
/// [`RankStates`]: crate::cards::seven::RankStates
pub fn check_patterns(way: &HouseWayFile, opts: &RuleOptions) -> CheckCounts {
    use rayon::prelude::*;
    let states = crate::cards::seven::RankStates::get();
    let hands: Vec<[Card; 7]> = states
        .sevens()
        .map(|(_, hand)| hand)
        .chain(states.flush_sevens().map(|(_, _, hand)| hand))
        .filter(|hand| opts.joker != JokerRule::None || !hand.contains(&Card::JOKER))
        .collect();
    hands
        .par_chunks(4096)
        .map(|chunk| {
            let mut counts = CheckCounts {
                by_rule: vec![0; way.rules.len()],
                ..CheckCounts::default()
            };
            for cards in chunk {
                check_hand(way, opts, cards, &mut counts);
            }
            counts
        })
        .reduce(CheckCounts::default, CheckCounts::plus)
}

fn check_hand(way: &HouseWayFile, opts: &RuleOptions, cards: &[Card; 7], counts: &mut CheckCounts) {
    counts.hands += 1;
    let (rule, setting) = way.set_by_rule(cards, opts);
    let Some(rule) = rule else {
        counts.unset += 1;
        keep(&mut counts.examples, cards, "no rule sets it".to_string());
        return;
    };
    counts.by_rule[rule] += 1;
    if let Some(problem) = problem_of(cards, &setting, opts) {
        counts.fouled += 1;
        let line = way.rules[rule].line;
        keep(
            &mut counts.examples,
            cards,
            format!("{problem} (the rule at line {line})"),
        );
    }
}

fn problem_of(cards: &[Card; 7], setting: &HouseWaySetting, opts: &RuleOptions) -> Option<String> {
    let mut used = setting.hand.cards();
    used.sort();
    let mut dealt = *cards;
    dealt.sort();
    if used != dealt {
        return Some(format!("it sets {} from other cards", setting.hand));
    }
    setting
        .hand
        .is_fouled(opts)
        .then(|| format!("it sets {}, which fouls", setting.hand))
}

fn keep(examples: &mut Vec<Problem>, cards: &[Card; 7], what: String) {
    if examples.len() < EXAMPLES_MAX {
        examples.push(Problem {
            cards: *cards,
            what,
        });
    }
}

/// What `diff` found over some of the hands.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DiffCounts {
    pub hands: u64,
    pub different: u64,
    pub examples: Vec<([Card; 7], HouseWaySetting, HouseWaySetting)>,
}

impl DiffCounts {
    pub fn plus(mut self, other: DiffCounts) -> DiffCounts {
        self.hands += other.hands;
        self.different += other.different;
        self.examples.extend(other.examples);
        self.examples.truncate(EXAMPLES_MAX);
        self
    }
}

/// The hands whose lowest card is `first` that `a` and `b` set to
/// different cards behind and in front (their words may differ).
pub fn diff_part(
    a: &(dyn HouseWay + Sync),
    b: &(dyn HouseWay + Sync),
    opts: &RuleOptions,
    first: u8,
) -> DiffCounts {
    let mut counts = DiffCounts::default();
    for_each_hand_from(first, deck_size(opts), &mut |cards| {
        counts.hands += 1;
        let (x, y) = (a.set(cards, opts), b.set(cards, opts));
        if x.hand != y.hand {
            counts.different += 1;
            if counts.examples.len() < EXAMPLES_MAX {
                counts.examples.push((*cards, x, y));
            }
        }
    });
    counts
}

/// Every seven-card hand of a `deck`-card deck whose lowest card index is
/// `first`, in increasing order of the others.
pub fn for_each_hand_from(first: u8, deck: u8, f: &mut dyn FnMut(&[Card; 7])) {
    let cards: Vec<Card> = (0..deck)
        .map(|i| Card::from_index(i).unwrap_or(Card::JOKER))
        .collect();
    for_each_seven_of(&cards, usize::from(first), f);
}

/// Every seven of `cards` whose first is `cards[first]`, the others after
/// it in the list's order (the tests deal the other side's hands with it).
pub fn for_each_seven_of(cards: &[Card], first: usize, f: &mut dyn FnMut(&[Card; 7])) {
    crate::cards::seven::for_each_seven(cards, first, |hand, _| f(hand));
}
