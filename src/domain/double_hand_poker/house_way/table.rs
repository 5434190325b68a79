//! A house way as a table: the values of the setting it gives every rank
//! pattern of seven cards, computed once, so counting millions of hands
//! (`hand ev`) reads one entry a hand.
//!
//! Without a flush among the seven cards (no five of a suit, the joker
//! counting in every suit) a house way's setting is decided by the ranks:
//! which cards of a rank go where changes neither hand's value. So the
//! table holds, for each seven-card rank state ([`RankStates`]), the high
//! and low values of the setting the house way gives one hand of those
//! ranks dealt with no flush possible. With a flush possible the flush
//! suit's ranks decide the rest ([`RankStates::flush_sevens`]): one entry
//! for each state and flush lane. The census test holds the table equal to
//! the house way on every one of the 154,143,080 hands.

use rustc_hash::FxHashMap;

use std::sync::{Arc, Mutex, OnceLock};

use super::{HouseWay, NotLoaded, by_name};
use crate::cards::Card;
use crate::cards::eval::{EvalRules, HandRank};
use crate::cards::seven::{Dealt, RankStates};
use crate::double_hand_poker::options::{HouseWayName, RuleOptions};

/// The high and low values a house way's setting plays.
pub type Values = (HandRank, HandRank);

/// Something for every seven cards that their ranks and their flush
/// suit's ranks decide: by rank state, and by state and flush lane.
#[derive(Clone, Default)]
pub struct ByRanks<V> {
    by_state: Vec<V>,
    by_flush: FxHashMap<u64, V>,
}

fn flush_key(state: u32, lane: usize) -> u64 {
    u64::from(state) << 14 | lane as u64
}

impl<V: Copy + Default + Send> ByRanks<V> {
    /// `of` each seven-card rank pattern and each of its ways to hold a
    /// flush, given one hand of it: 292,253 calls, on rayon's threads (the
    /// one place the core uses threads: a pure function of each hand, so
    /// the table is the same on any number of them).
    pub fn new(of: impl Fn(&[Card; 7]) -> V + Sync) -> ByRanks<V> {
        use rayon::prelude::*;
        let states = RankStates::get();
        let sevens: Vec<(u32, [Card; 7])> = states.sevens().collect();
        let flushes: Vec<(u32, usize, [Card; 7])> = states.flush_sevens().collect();
        let mut by_state = vec![V::default(); states.len()];
        let values: Vec<V> = sevens.par_iter().map(|(_, hand)| of(hand)).collect();
        for ((state, _), value) in sevens.iter().zip(values) {
            by_state[*state as usize] = value;
        }
        let values: Vec<V> = flushes.par_iter().map(|(_, _, hand)| of(hand)).collect();
        let by_flush = flushes
            .iter()
            .zip(values)
            .map(|((state, lane, _), value)| (flush_key(*state, *lane), value))
            .collect();
        ByRanks { by_state, by_flush }
    }

    /// The same shape with `f` of each entry.
    pub fn map<W>(&self, f: impl Fn(V) -> W) -> ByRanks<W> {
        ByRanks {
            by_state: self.by_state.iter().map(|&v| f(v)).collect(),
            by_flush: self.by_flush.iter().map(|(&k, &v)| (k, f(v))).collect(),
        }
    }

    /// The entry for seven cards dealt; None only for a flush the table
    /// lacks, which [`RankStates::flush_sevens`] makes impossible (tested).
    #[inline(always)]
    pub fn get(&self, dealt: Dealt) -> Option<V> {
        match dealt.flush_lane() {
            None => Some(self.by_state[dealt.state as usize]),
            Some(lane) => self.by_flush.get(&flush_key(dealt.state, lane)).copied(),
        }
    }

    /// Entries: rank patterns and flush ways (for saying what it costs).
    pub fn len(&self) -> usize {
        self.by_state.len() + self.by_flush.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// Loaded house ways' tables kept at once (the rest are built again when
/// asked for: well under a second).
pub const LOADED_TABLES_MAX: usize = 4;

/// A house way's settings' values for every seven cards, under one set of
/// options.
#[derive(Clone, Debug)]
pub struct SetterTable {
    pub values: ByRanks<Values>,
    opts: RuleOptions,
}

impl<V> std::fmt::Debug for ByRanks<V> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ByRanks")
            .field("states", &self.by_state.len())
            .field("flushes", &self.by_flush.len())
            .finish()
    }
}

impl SetterTable {
    /// Sets one hand of each of the 67,600 seven-card rank patterns by
    /// `way`, and one of each of their ways to hold a flush.
    pub fn new(way: &(dyn HouseWay + Sync), opts: &RuleOptions) -> SetterTable {
        let values = ByRanks::new(|hand| {
            let set = way.set_ranked(hand, opts);
            (set.high, set.low)
        });
        SetterTable {
            values,
            opts: *opts,
        }
    }

    /// The table of the house way `opts` names, under its joker and wheel
    /// rules: built the first time it is asked for. A shipped way's is kept
    /// for the process (6–7 MB each; at most one per house way and rule
    /// set); a loaded way's among the [`LOADED_TABLES_MAX`] last asked for.
    pub fn of(opts: &RuleOptions) -> Result<Arc<SetterTable>, NotLoaded> {
        const WAYS: usize = HouseWayName::ALL.len();
        static TABLES: [[OnceLock<Arc<SetterTable>>; 4]; WAYS] =
            [const { [const { OnceLock::new() }; 4] }; WAYS];
        static LOADED: Mutex<Vec<(HouseWayName, usize, Arc<SetterTable>)>> = Mutex::new(Vec::new());
        let rules = EvalRules::from_options(opts);
        let i = usize::from(rules.wild) * 2 + usize::from(rules.wheel_high);
        let way = by_name(opts.house_way)?;
        let Some(shipped) = HouseWayName::ALL
            .iter()
            .position(|name| *name == opts.house_way)
        else {
            let mut kept = LOADED.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(at) = kept
                .iter()
                .position(|(n, r, _)| *n == opts.house_way && *r == i)
            {
                let entry = kept.remove(at);
                let table = Arc::clone(&entry.2);
                kept.push(entry);
                return Ok(table);
            }
            let table = Arc::new(SetterTable::new(way, opts));
            if kept.len() >= LOADED_TABLES_MAX {
                kept.remove(0);
            }
            kept.push((opts.house_way, i, Arc::clone(&table)));
            return Ok(table);
        };
        Ok(Arc::clone(
            TABLES[shipped][i].get_or_init(|| Arc::new(SetterTable::new(way, opts))),
        ))
    }

    /// The values of the setting `way` (the one the table was built from)
    /// gives `cards`, whose dealt state is `dealt`.
    #[inline(always)]
    pub fn values(&self, way: &dyn HouseWay, cards: &[Card; 7], dealt: Dealt) -> Values {
        self.values.get(dealt).unwrap_or_else(|| {
            let set = way.set_ranked(cards, &self.opts);
            (set.high, set.low)
        })
    }
}

#[cfg(test)]
#[path = "table_tests.rs"]
mod tests;
