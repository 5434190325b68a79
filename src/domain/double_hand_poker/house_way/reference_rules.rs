//! The reference house way's rules 1–9 (`double-hand-poker.md`), tried in
//! order on the seven cards; the first that applies gives the front and
//! the words of the rule.

use super::seven_cards::{Ctx, top};
use super::{ACE, KING, TEN, program};
use crate::cards::eval::HandRank;

/// The words of the rule that set a hand.
pub(super) type Rule = std::borrow::Cow<'static, str>;

/// A front (two positions) and the rule that chose it.
type Chosen = ((usize, usize), Rule);

impl Ctx<'_> {
    /// The front the first rule that applies chooses, and its words.
    pub(super) fn choose(&self) -> Chosen {
        let [_, _, pairs, trips, quads, fives] = self.by_count;
        // 1. Five aces.
        if fives != 0 {
            return self.five_aces(pairs);
        }
        // 2. Four of a kind.
        if quads != 0 {
            return self.four_of_a_kind(top(quads), pairs | trips);
        }
        // 3. Full house, including two three of a kinds.
        if trips != 0 && (trips.count_ones() >= 2 || pairs != 0) {
            return self.full_house(trips, pairs);
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
            return self.two_pair(pairs, singles);
        }
        // 6. Three of a kind.
        if trips != 0 {
            return self.three_of_a_kind(top(trips), singles);
        }
        // 7–8. One pair.
        if pairs != 0 {
            return self.one_pair(singles);
        }
        // 7, 9. No pair.
        self.no_pair(singles)
    }

    /// Rule 1: five aces (`pairs`: the ranks held twice).
    fn five_aces(&self, pairs: u16) -> Chosen {
        if pairs >> KING & 1 == 1 {
            return (
                self.pair_of(KING),
                "Five aces with a pair of kings: kings in front".into(),
            );
        }
        (
            self.pair_of(ACE),
            "Five aces: pair of aces in front, three aces behind".into(),
        )
    }

    /// Rule 2: four of a kind of rank `q`; `paired`: the other ranks held
    /// two or three times.
    fn four_of_a_kind(&self, q: u8, paired: u16) -> Chosen {
        if paired != 0 {
            return (
                self.pair_of(top(paired)),
                "Four of a kind and a pair: pair in front".into(),
            );
        }
        let rest: Vec<usize> = self
            .order
            .iter()
            .copied()
            .filter(|&i| self.rank[i] != q)
            .collect();
        match q {
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
        }
    }

    /// Rule 3: a full house, or two three of a kinds.
    fn full_house(&self, trips: u16, pairs: u16) -> Chosen {
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
        (self.pair_of(p), "Full house: split, pair in front".into())
    }

    /// Rule 5: two pair (with a joker, a straight or flush behind first).
    fn two_pair(&self, pairs: u16, singles: &[usize]) -> Chosen {
        if self.joker.is_some()
            && let Some(c) = self.straight_or_flush(None, true, 0)
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
        (
            self.pair_of(lo),
            "Two pair: split, lower pair in front".into(),
        )
    }

    /// Rule 6: three of a kind of rank `t`.
    fn three_of_a_kind(&self, t: u8, singles: &[usize]) -> Chosen {
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
        if let Some(c) = self.straight_or_flush(Some(front), false, 0) {
            return (
                c.front,
                behind_text("Three of a kind", c.high, "front at least as good"),
            );
        }
        (front, "Three of a kind: kept behind, best front".into())
    }

    /// Rules 7–8: one pair (a straight or flush behind first, when it
    /// leaves a front at least as good).
    fn one_pair(&self, singles: &[usize]) -> Chosen {
        let front = (singles[0], singles[1]);
        if let Some(c) = self.straight_or_flush(Some(front), false, 0) {
            return (
                c.front,
                behind_text("One pair", c.high, "front at least as good"),
            );
        }
        (
            front,
            "One pair: pair behind, two highest cards in front".into(),
        )
    }

    /// Rules 7 and 9: no pair (a straight or flush behind first).
    fn no_pair(&self, singles: &[usize]) -> Chosen {
        if let Some(c) = self.straight_or_flush(None, false, 0) {
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
