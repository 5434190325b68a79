//! The seven cards as the reference house way reads them: their ranks
//! (the joker as an ace), which ranks are held once, twice or more, the
//! positions in rank order, and the searches its rules make over them
//! (the best front, the best legal setting, a straight or flush behind).

use super::ACE;
use crate::cards::Card;
use crate::cards::eval::{Category, EvalRules, HandRank, eval2_with, eval5_with};
use crate::double_hand_poker::setting::{LOW_POSITIONS, back_positions};

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
pub(super) struct Ctx<'a> {
    pub(super) cards: &'a [Card; 7],
    pub(super) rules: EvalRules,
    pub(super) rank: [u8; 7],
    pub(super) joker: Option<usize>,
    /// `by_count[n]`: bit set of ranks held exactly `n` times.
    pub(super) by_count: [u16; 6],
    /// Positions from the highest rank down; natural cards before the joker.
    pub(super) order: [usize; 7],
}

#[derive(Clone, Copy)]
pub(super) struct Candidate {
    pub(super) front: (usize, usize),
    pub(super) low: HandRank,
    pub(super) high: HandRank,
}

/// The highest rank in `set`.
pub(super) fn top(set: u16) -> u8 {
    15u8.saturating_sub(set.leading_zeros() as u8)
}

impl<'a> Ctx<'a> {
    pub(super) fn new(cards: &'a [Card; 7], rules: EvalRules) -> Ctx<'a> {
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
    pub(super) fn of_rank(&self, r: u8) -> impl Iterator<Item = usize> + '_ {
        self.order
            .iter()
            .copied()
            .filter(move |&i| self.rank[i] == r)
    }

    pub(super) fn pair_of(&self, r: u8) -> (usize, usize) {
        let mut it = self.of_rank(r);
        let a = it.next().unwrap_or(0);
        (a, it.next().unwrap_or(a))
    }

    /// The positions of the natural aces (up to three, in the cards' order;
    /// unused places repeat the first).
    pub(super) fn natural_aces(&self) -> [usize; 3] {
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
    pub(super) fn best_front_then_back(&self, fronts: &[(usize, usize)]) -> (usize, usize) {
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
    pub(super) fn singles(&self) -> ([usize; 7], usize) {
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

    pub(super) fn eval(&self, i: usize, j: usize) -> Candidate {
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
    pub(super) fn best_setting(
        &self,
        keep: impl Fn(HandRank, HandRank) -> bool,
    ) -> Option<Candidate> {
        self.best_setting_holding(0, keep)
    }

    /// [`Ctx::best_setting`] among the fronts that hold every position of
    /// `front` (a bit per position): those cards never go behind.
    fn best_setting_holding(
        &self,
        front: u8,
        keep: impl Fn(HandRank, HandRank) -> bool,
    ) -> Option<Candidate> {
        let mut best: Option<(Candidate, bool)> = None;
        for &(a, b) in &LOW_POSITIONS {
            let (i, j) = (self.order[a], self.order[b]);
            if front & !(1 << i | 1 << j) != 0 {
                continue;
            }
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
    pub(super) fn best_front(&self, avail: &[usize]) -> (usize, usize) {
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
    pub(super) fn straight_or_flush_possible(&self) -> bool {
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
    /// leaves the best front, if its front is at least `min_front`, made
    /// without the cards of the ranks in `without` (a bit per rank, the
    /// joker as an ace), which must then all fit in front.
    pub(super) fn straight_or_flush(
        &self,
        min_front: Option<(usize, usize)>,
        pair_front: bool,
        without: u16,
    ) -> Option<Candidate> {
        if !self.straight_or_flush_possible() {
            return None;
        }
        let min_front =
            min_front.map(|(i, j)| eval2_with(&[self.cards[i], self.cards[j]], self.rules));
        let front = if without == 0 {
            0
        } else {
            (0..7)
                .filter(|&i| without >> self.rank[i] & 1 == 1)
                .fold(0u8, |bits, i| bits | 1 << i)
        };
        if front.count_ones() > 2 {
            return None;
        }
        self.best_setting_holding(front, |low, high| {
            matches!(
                high.category(),
                Category::Straight | Category::Flush | Category::StraightFlush
            ) && min_front.is_none_or(|m| low >= m)
                && (!pair_front || low.category() == Category::Pair)
        })
    }
}
