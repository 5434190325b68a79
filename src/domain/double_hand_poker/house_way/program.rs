//! A house-way file run: its rules tried in order on the hand's ranks and
//! counts (the reference's own primitives, `Ctx`), the first whose hand,
//! conditions and play all apply deciding.

use super::file::{AtLeast, Condition, FrontPair, HandClass, HouseWayFile, Play, Ranks, Rule};
use super::{ACE, Ctx, HouseWay, HouseWaySetting, Ranked, finish, finish_hand, top};
use crate::cards::Card;
use crate::cards::eval::{Category, EvalRules};
use crate::double_hand_poker::options::RuleOptions;

/// What the hand holds, exclusively, from the top.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Holds {
    FiveAces,
    Four,
    FullHouse,
    ThreePair,
    TwoPair,
    Three,
    OnePair,
    NoPair,
}

impl Ctx<'_> {
    fn holds(&self) -> Holds {
        let [_, _, pairs, trips, quads, fives] = self.by_count;
        if fives != 0 {
            Holds::FiveAces
        } else if quads != 0 {
            Holds::Four
        } else if trips != 0 && (trips.count_ones() >= 2 || pairs != 0) {
            Holds::FullHouse
        } else if pairs.count_ones() >= 3 {
            Holds::ThreePair
        } else if pairs.count_ones() == 2 {
            Holds::TwoPair
        } else if trips != 0 {
            Holds::Three
        } else if pairs != 0 {
            Holds::OnePair
        } else {
            Holds::NoPair
        }
    }

    fn is(&self, class: HandClass) -> bool {
        let [_, _, _, trips, quads, _] = self.by_count;
        let holds = self.holds();
        match class {
            HandClass::Any => true,
            HandClass::FiveAces => holds == Holds::FiveAces,
            HandClass::FourOfAKind(r) => holds == Holds::Four && r.holds(top(quads)),
            HandClass::TwoTrips => holds == Holds::FullHouse && trips.count_ones() >= 2,
            HandClass::FullHouse => holds == Holds::FullHouse,
            HandClass::ThreePair => holds == Holds::ThreePair,
            HandClass::TwoPair => holds == Holds::TwoPair,
            HandClass::ThreeOfAKind(r) => holds == Holds::Three && r.holds(top(trips)),
            HandClass::OnePair => holds == Holds::OnePair,
            HandClass::NoPair => holds == Holds::NoPair,
        }
    }

    fn meets(&self, condition: &Condition) -> bool {
        let [_, ones, pairs, trips, _, _] = self.by_count;
        let (s, n) = self.singles();
        match condition {
            Condition::Pair(r) => any_in(pairs, *r),
            Condition::HighPair(r) => pairs != 0 && r.holds(top(pairs)),
            Condition::WithPair => pairs | trips != 0,
            Condition::AceSingle => ones >> ACE & 1 == 1,
            Condition::HighestSingleAtLeast(r) => n > 0 && self.rank[s[0]] >= *r,
            Condition::Singles(ranks) => {
                n == ranks.len() && ranks.iter().zip(&s[..n]).all(|(&r, &i)| self.rank[i] == r)
            }
            Condition::Joker => self.joker.is_some(),
            Condition::NoJoker => self.joker.is_none(),
        }
    }

    /// The front `play` puts there and, for a straight or flush, what is
    /// played behind; None when the play does not apply to this hand.
    fn front_of(&self, play: &Play) -> Option<((usize, usize), Option<Category>)> {
        let [_, _, pairs, trips, quads, _] = self.by_count;
        let (s, n) = self.singles();
        let single = |place: usize| (place <= n).then(|| s[place - 1]);
        let front = match play {
            Play::FrontPair(which) => match which {
                FrontPair::Rank(r) => (self.of_rank(*r).count() >= 2).then(|| self.pair_of(*r))?,
                FrontPair::Highest => (pairs != 0).then(|| self.pair_of(top(pairs)))?,
                FrontPair::Lower => {
                    let hi = top(pairs);
                    let rest = pairs & !(1 << hi);
                    (pairs != 0 && rest != 0).then(|| self.pair_of(top(rest)))?
                }
                FrontPair::HigherTrips => (trips != 0).then(|| self.pair_of(top(trips)))?,
                FrontPair::Other => {
                    (pairs | trips != 0).then(|| self.pair_of(top(pairs | trips)))?
                }
                FrontPair::FromQuads => {
                    if quads == 0 {
                        return None;
                    }
                    let q = top(quads);
                    if q == ACE && self.joker.is_some() {
                        // A-A-A + joker: two natural aces in front; which
                        // one stays behind with the joker is the best back.
                        let [a, b, c] = self.natural_aces();
                        self.best_front_then_back(&[(a, b), (a, c), (b, c)])
                    } else {
                        self.pair_of(q)
                    }
                }
            },
            Play::FrontBest => {
                let group = if quads != 0 {
                    Some(top(quads))
                } else if trips != 0 {
                    Some(top(trips))
                } else {
                    None
                };
                let rest: Vec<usize> = self
                    .order
                    .iter()
                    .copied()
                    .filter(|&i| Some(self.rank[i]) != group)
                    .collect();
                if rest.len() < 2 {
                    return None;
                }
                self.best_front(&rest)
            }
            Play::FrontSingles(a, b) => (single(*a)?, single(*b)?),
            Play::FrontAceAndHighestSingle => {
                if trips >> ACE & 1 == 0 || n == 0 {
                    return None;
                }
                if self.joker.is_some() {
                    // A-A + joker: which natural ace goes in front (and which
                    // stays behind with the joker) is the best back.
                    let [a, b, _] = self.natural_aces();
                    self.best_front_then_back(&[(a, s[0]), (b, s[0])])
                } else {
                    (self.pair_of(ACE).0, s[0])
                }
            }
            Play::StraightOrFlush {
                pair_front,
                without,
                at_least,
            } => {
                let min_front = match at_least {
                    Some(AtLeast::Singles(a, b)) => Some((single(*a)?, single(*b)?)),
                    None => None,
                };
                let c = self.straight_or_flush(min_front, *pair_front, *without)?;
                return Some((c.front, Some(c.high.category())));
            }
        };
        Some((front, None))
    }

    /// The first rule of `rules` that applies: its place, its front and
    /// its words.
    fn first_rule(&self, rules: &[Rule]) -> Option<(usize, (usize, usize), String)> {
        rules.iter().enumerate().find_map(|(n, rule)| {
            if !self.is(rule.hand) || !rule.conditions.iter().all(|c| self.meets(c)) {
                return None;
            }
            let (front, played) = self.front_of(&rule.play)?;
            let words = match played {
                Some(category) => rule.words.replace("{played}", played_text(category)),
                None => rule.words.clone(),
            };
            Some((n, front, words))
        })
    }
}

fn any_in(set: u16, r: Ranks) -> bool {
    (r.low..=r.high).any(|rank| set >> rank & 1 == 1)
}

pub(super) fn played_text(category: Category) -> &'static str {
    match category {
        Category::StraightFlush => "straight flush",
        Category::Flush => "flush",
        _ => "straight",
    }
}

/// Words for a hand no rule of the file sets (`house-way check` refuses
/// such a file; a table never plays one).
pub const NO_RULE: &str = "No rule of the house way applies";

impl HouseWay for HouseWayFile {
    fn name(&self) -> &str {
        &self.name
    }

    fn set(&self, cards: &[Card; 7], opts: &RuleOptions) -> HouseWaySetting {
        self.set_by_rule(cards, opts).1
    }

    fn set_ranked(&self, cards: &[Card; 7], opts: &RuleOptions) -> Ranked {
        self.ranked(cards, opts)
    }
}

impl HouseWayFile {
    /// [`HouseWay::set_ranked`] without the words [`HouseWay::set`] writes.
    pub(super) fn ranked(&self, cards: &[Card; 7], opts: &RuleOptions) -> Ranked {
        let ctx = Ctx::new(cards, EvalRules::from_options(opts));
        let front = self.rules.iter().find_map(|rule| {
            if !ctx.is(rule.hand) || !rule.conditions.iter().all(|c| ctx.meets(c)) {
                return None;
            }
            ctx.front_of(&rule.play).map(|(front, _)| front)
        });
        let front =
            front.unwrap_or_else(|| ctx.best_setting(|_, _| true).map_or((0, 1), |b| b.front));
        finish_hand(&ctx, front).0
    }

    /// [`HouseWay::set`], and the rule that set the hand (its index; None
    /// when none applies): one pass, what `house-way check` needs.
    pub fn set_by_rule(
        &self,
        cards: &[Card; 7],
        opts: &RuleOptions,
    ) -> (Option<usize>, HouseWaySetting) {
        let ctx = Ctx::new(cards, EvalRules::from_options(opts));
        match ctx.first_rule(&self.rules) {
            Some((n, front, words)) => (Some(n), finish(&ctx, front, words)),
            None => {
                let front = ctx.best_setting(|_, _| true).map_or((0, 1), |b| b.front);
                (None, finish(&ctx, front, NO_RULE.to_string()))
            }
        }
    }

    /// The rule that sets `cards` (its index), None when none applies.
    pub fn rule_for(&self, cards: &[Card; 7], opts: &RuleOptions) -> Option<usize> {
        self.set_by_rule(cards, opts).0
    }
}
