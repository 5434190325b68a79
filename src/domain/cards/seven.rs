//! Seven cards by table: the best five of seven with the joker, and the
//! running state the house-way setter's table reads.
//!
//! Without a flush, what seven cards are worth depends on their ranks
//! alone. So every multiset of up to seven ranks (each real rank at most
//! four times, the joker at most once) is a numbered [`RankStates`] state,
//! with a transition per rank: dealing a card is one table read, and a
//! seven-card state indexes whatever was computed once for its ranks (by
//! the ordinary evaluator, on one hand of those ranks dealt with no flush
//! possible). A flush is possible only when some suit holds five of the
//! seven (the joker counting in every suit); [`Dealt`] tracks that with
//! a packed count per suit, and the suited ranks for [`SevenTable`]'s
//! flush lookup. Enumerating hands in nested loops ([`for_each_seven`])
//! deals each level's card once for all the hands below it.

use std::collections::HashMap;
use std::sync::OnceLock;

use super::Card;
use super::eval::{EvalRules, HandRank, eval5_with};

/// Ranks 0..13 and the joker, as a transition's column.
const COLUMNS: usize = 14;
const JOKER_COLUMN: usize = 13;
/// A transition that would give a fifth copy of a rank, a second joker or
/// an eighth card.
const NONE: u32 = u32::MAX;
/// The cards a state can hold.
pub const MAX_CARDS: usize = 7;

/// Every rank multiset of up to seven cards, numbered breadth first (the
/// empty hand is state 0), and the transition for each card's rank.
pub struct RankStates {
    next: Vec<u32>,
    /// Each state's ranks: three bits of count per rank, bit 39 the joker.
    packed: Vec<u64>,
}

impl RankStates {
    /// The states, built the first time they are asked for (67,600
    /// seven-card states, 103,105 in all; 5.8 MB of transitions).
    pub fn get() -> &'static RankStates {
        static STATES: OnceLock<RankStates> = OnceLock::new();
        STATES.get_or_init(RankStates::build)
    }

    fn build() -> RankStates {
        let mut ids: HashMap<u64, u32> = HashMap::from([(0, 0)]);
        let mut packed = vec![0u64];
        let mut next = Vec::new();
        let mut i = 0;
        while i < packed.len() {
            let from = packed[i];
            for column in 0..COLUMNS {
                let to = match with_rank(from, column) {
                    Some(to) => *ids.entry(to).or_insert_with(|| {
                        packed.push(to);
                        (packed.len() - 1) as u32
                    }),
                    None => NONE,
                };
                next.push(to);
            }
            i += 1;
        }
        RankStates { next, packed }
    }

    /// How many states there are (tables indexed by state have this length).
    pub fn len(&self) -> usize {
        self.packed.len()
    }

    pub fn is_empty(&self) -> bool {
        self.packed.is_empty()
    }

    /// The state after dealing `card` to `state`.
    #[inline(always)]
    pub fn next(&self, state: u32, card: Card) -> u32 {
        self.next[state as usize * COLUMNS + column(card)]
    }

    /// The seven-card states, each with seven cards of its ranks dealt so
    /// no five share a suit (the joker counting in every suit): a hand
    /// whose value the ranks alone decide.
    pub fn sevens(&self) -> impl Iterator<Item = (u32, [Card; 7])> + '_ {
        self.packed
            .iter()
            .enumerate()
            .filter(|(_, p)| cards_in(**p) == MAX_CARDS)
            .map(|(state, &p)| (state as u32, no_flush_hand(p)))
    }
}

impl RankStates {
    /// Every seven-card state with a flush possible, each way: for each
    /// set of the state's ranks that can be one suit's (five or more with
    /// the joker, every rank held four times among them), a hand of those
    /// ranks in spades, the joker, and the rest in the other suits — with
    /// its flush lane ([`Dealt::flush_lane`]). Any hand with a flush
    /// possible is one of these with its suits renamed and cards of a rank
    /// swapped, which changes no hand's value.
    pub fn flush_sevens(&self) -> impl Iterator<Item = (u32, usize, [Card; 7])> + '_ {
        self.packed
            .iter()
            .enumerate()
            .filter(|(_, p)| cards_in(**p) == MAX_CARDS)
            .flat_map(|(state, &p)| {
                let count = |r: u8| (p >> (3 * r) & 7) as u32;
                let joker = (p >> 39 & 1) as u32;
                let held: u32 = (0..13).filter(|&r| count(r) > 0).map(|r| 1 << r).sum();
                let quads: u32 = (0..13).filter(|&r| count(r) == 4).map(|r| 1 << r).sum();
                submasks(held)
                    .filter(move |lane| lane & quads == quads && lane.count_ones() + joker >= 5)
                    .map(move |lane| {
                        let hand = flush_hand(p, lane);
                        (state as u32, lane as usize | (joker as usize) << 13, hand)
                    })
            })
    }
}

/// Every subset of `set`'s bits.
fn submasks(set: u32) -> impl Iterator<Item = u32> {
    let mut next = Some(set);
    std::iter::from_fn(move || {
        let m = next?;
        next = (m != 0).then(|| (m - 1) & set);
        Some(m)
    })
}

/// The state's cards with the ranks of `lane` in spades (one card each),
/// the joker if held, and every other card in hearts, diamonds, clubs.
fn flush_hand(packed: u64, lane: u32) -> [Card; 7] {
    let mut hand = [Card::JOKER; 7];
    let mut dealt = 0;
    for rank in 0..13u8 {
        let copies = (packed >> (3 * rank) & 7) as u8;
        let first_suit = if lane >> rank & 1 == 1 { 0 } else { 1 };
        for suit in first_suit..first_suit + copies {
            hand[dealt] = Card::from_index(rank * 4 + suit).expect("rank and suit in range");
            dealt += 1;
        }
    }
    hand
}

fn column(card: Card) -> usize {
    usize::from(card.index() >> 2).min(JOKER_COLUMN)
}

fn with_rank(packed: u64, column: usize) -> Option<u64> {
    if cards_in(packed) == MAX_CARDS {
        return None;
    }
    if column == JOKER_COLUMN {
        return (packed >> 39 & 1 == 0).then_some(packed | 1 << 39);
    }
    (packed >> (3 * column) & 7 < 4).then_some(packed + (1 << (3 * column)))
}

fn cards_in(packed: u64) -> usize {
    (0..13)
        .map(|r| (packed >> (3 * r) & 7) as usize)
        .sum::<usize>()
        + (packed >> 39 & 1) as usize
}

/// Seven cards of the state's ranks, suits dealt in turn (spades, hearts,
/// diamonds, clubs, spades, …): at most two of a suit, so with the joker
/// at most three, never a flush.
fn no_flush_hand(packed: u64) -> [Card; 7] {
    let mut hand = [Card::JOKER; 7];
    let mut dealt = 0u8;
    for rank in 0..13u8 {
        for _ in 0..(packed >> (3 * rank) & 7) {
            hand[usize::from(dealt)] =
                Card::from_index(rank * 4 + dealt % 4).expect("rank and suit in range");
            dealt += 1;
        }
    }
    hand
}

/// The cards dealt so far: their rank state, a count per suit (a byte
/// each; the joker adds one to every suit) and the ranks of each suit
/// (a 16-bit lane each, bit 13 the joker).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Dealt {
    pub state: u32,
    suits: u32,
    lanes: u64,
}

const JOKER_SUITS: u32 = 0x0101_0101;
const JOKER_LANES: u64 = 0x2000_2000_2000_2000;

impl Dealt {
    /// `card` dealt too.
    #[inline(always)]
    pub fn with(self, states: &RankStates, card: Card) -> Dealt {
        let i = card.index();
        let (suits, lanes) = if card.is_joker() {
            (JOKER_SUITS, JOKER_LANES)
        } else {
            (1 << (8 * (i & 3)), 1 << (16 * (i & 3) + (i >> 2)))
        };
        Dealt {
            state: states.next(self.state, card),
            suits: self.suits + suits,
            lanes: self.lanes | lanes,
        }
    }

    /// The cards dealt one after another.
    pub fn of(states: &RankStates, cards: &[Card]) -> Dealt {
        cards
            .iter()
            .fold(Dealt::default(), |d, &c| d.with(states, c))
    }

    /// The ranks (and joker bit) of the suit holding five or more, if any:
    /// when None, no five of the cards make a flush.
    #[inline(always)]
    pub fn flush_lane(self) -> Option<usize> {
        let five = (self.suits + 0x0303_0303) & 0x0808_0808;
        (five != 0).then(|| (self.lanes >> (2 * five.trailing_zeros() - 6) & 0x3FFF) as usize)
    }
}

/// The best five of seven for one set of evaluation rules: by rank state,
/// and for a flush by the suit's ranks (2^14 lanes).
pub struct SevenTable {
    by_state: Vec<HandRank>,
    by_lane: Vec<HandRank>,
}

impl SevenTable {
    /// The table for `rules`, built the first time (~1.5 M five-card
    /// evaluations, tens of milliseconds; 0.5 MB).
    pub fn get(rules: EvalRules) -> &'static SevenTable {
        static TABLES: [OnceLock<SevenTable>; 4] = [const { OnceLock::new() }; 4];
        let i = usize::from(rules.wild) * 2 + usize::from(rules.wheel_high);
        TABLES[i].get_or_init(|| SevenTable::build(rules))
    }

    fn build(rules: EvalRules) -> SevenTable {
        let states = RankStates::get();
        let mut by_state = vec![HandRank::default(); states.len()];
        for (state, hand) in states.sevens() {
            by_state[state as usize] = best_of_seven_by_subsets(&hand, rules);
        }
        let mut by_lane = vec![HandRank::default(); 1 << 14];
        for (lane, best) in by_lane.iter_mut().enumerate() {
            let n = lane.count_ones() as usize;
            if (5..=MAX_CARDS).contains(&n) {
                let suited: Vec<Card> = (0..14u8)
                    .filter(|bit| lane >> bit & 1 == 1)
                    .map(|bit| Card::from_index(bit * 4).unwrap_or(Card::JOKER))
                    .collect();
                *best = best_of_subsets(&suited, rules);
            }
        }
        SevenTable { by_state, by_lane }
    }

    /// The best five of seven already dealt.
    #[inline(always)]
    pub fn best(&self, dealt: Dealt) -> HandRank {
        let by_ranks = self.by_state[dealt.state as usize];
        match dealt.flush_lane() {
            Some(lane) => by_ranks.max(self.by_lane[lane]),
            None => by_ranks,
        }
    }

    /// The best five of `cards` (seven different cards).
    pub fn best_of(&self, cards: &[Card; 7]) -> HandRank {
        self.best(Dealt::of(RankStates::get(), cards))
    }
}

/// The best five of seven the slow way: all 21 five-card evaluations.
pub fn best_of_seven_by_subsets(cards: &[Card; 7], rules: EvalRules) -> HandRank {
    best_of_subsets(cards, rules)
}

/// The best of every five of `cards` (five to seven of them).
fn best_of_subsets(cards: &[Card], rules: EvalRules) -> HandRank {
    let fives = (0u32..1 << cards.len()).filter(|m| m.count_ones() == 5);
    fives
        .map(|m| {
            let mut five = [Card::JOKER; 5];
            let chosen = cards.iter().enumerate().filter(|(i, _)| m >> i & 1 == 1);
            for (slot, (_, &card)) in five.iter_mut().zip(chosen) {
                *slot = card;
            }
            eval5_with(&five, rules)
        })
        .max()
        .unwrap_or_default()
}

/// Every seven of `cards` whose first is `cards[first]`, the others after
/// it in the list's order, each given with its [`Dealt`] state — built a
/// card at a time, so the innermost hand costs one transition.
#[inline]
pub fn for_each_seven(cards: &[Card], first: usize, mut f: impl FnMut(&[Card; 7], Dealt)) {
    let states = RankStates::get();
    let n = cards.len();
    let mut hand = [cards[first]; 7];
    let d1 = Dealt::default().with(states, cards[first]);
    for b in first + 1..n {
        hand[1] = cards[b];
        let d2 = d1.with(states, cards[b]);
        for c in b + 1..n {
            hand[2] = cards[c];
            let d3 = d2.with(states, cards[c]);
            for d in c + 1..n {
                hand[3] = cards[d];
                let d4 = d3.with(states, cards[d]);
                for e in d + 1..n {
                    hand[4] = cards[e];
                    let d5 = d4.with(states, cards[e]);
                    for g in e + 1..n {
                        hand[5] = cards[g];
                        let d6 = d5.with(states, cards[g]);
                        for &card in &cards[g + 1..] {
                            hand[6] = card;
                            f(&hand, d6.with(states, card));
                        }
                    }
                }
            }
        }
    }
}

/// How many hands of each category (`Category as usize`) among the
/// sevens of `deck` whose first card is `deck[first]`: one part of the
/// census `pitbook hand census` adds up.
pub fn census_part(deck: &[Card], first: usize, rules: EvalRules) -> [u64; 10] {
    let table = SevenTable::get(rules);
    let mut counts = [0u64; 10];
    for_each_seven(deck, first, |_, dealt| {
        counts[table.best(dealt).category() as usize] += 1;
    });
    counts
}

#[cfg(test)]
#[path = "seven_tests.rs"]
mod tests;
