//! Hand evaluation and house-way speed on random hands (a fixed xorshift
//! seed, so every run sees the same hands).
//!
//! - `eval5/no_joker`: 5-card evaluations, hands from the 52 standard cards;
//! - `eval5/rs_poker`: the same hands ranked by rs_poker 4.1 (`rank_five`),
//!   the yardstick;
//! - `eval5/joker_bug`, `eval5/joker_wild`: hands that all hold the joker;
//! - `eval5/deck53`: hands from the 53-card deck (about 9% hold the joker);
//! - `house_way/reference`: 7-card hands from the 53-card deck set by the
//!   reference house way;
//! - `best_of_seven/by_21_evaluations`, `best_of_seven/by_table`: the best
//!   five of those 7-card hands, the slow way and by `cards::seven`'s
//!   table (the rank state walked from nothing for each hand);
//! - `house_way_values/{reference,foxwoods}/{set_ranked,table}`: the
//!   values of the setting each house way gives those hands, worked out
//!   by the house way (the compiled reference; the Foxwoods file run by
//!   the interpreter) and read from its table (`house_way/table.rs`).
//!
//! Throughput is in hands: one element = one evaluation or one setting.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pitbook::domain::cards::Card;
use pitbook::domain::cards::eval::{EvalRules, eval5_with};
use pitbook::domain::cards::seven::{Dealt, RankStates, SevenTable, best_of_seven_by_subsets};
use pitbook::domain::double_hand_poker::house_way::table::SetterTable;
use pitbook::domain::double_hand_poker::house_way::{HouseWay, ReferenceHouseWay};
use pitbook::domain::double_hand_poker::options::{HouseWayName, JokerRule, RuleOptions};
use rs_poker::core::{Card as RsCard, Rankable, Suit as RsSuit, Value as RsValue};

const HANDS: usize = 4096;

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// `N` distinct cards from `deck`, in random order.
    fn deal<const N: usize>(&mut self, deck: &[Card]) -> [Card; N] {
        let mut d = deck.to_vec();
        std::array::from_fn(|_| {
            let i = (self.next() % d.len() as u64) as usize;
            d.swap_remove(i)
        })
    }
}

fn bench(c: &mut Criterion) {
    let deck53: Vec<Card> = Card::deck().collect();
    let deck52: Vec<Card> = Card::deck().filter(|c| !c.is_joker()).collect();
    let mut rng = XorShift(0x2545_F491_4F6C_DD1D);

    let plain: Vec<[Card; 5]> = (0..HANDS).map(|_| rng.deal(&deck52)).collect();
    let with_joker: Vec<[Card; 5]> = (0..HANDS)
        .map(|_| {
            let mut h: [Card; 5] = rng.deal(&deck52);
            h[(rng.next() % 5) as usize] = Card::JOKER;
            h
        })
        .collect();
    let mixed: Vec<[Card; 5]> = (0..HANDS).map(|_| rng.deal(&deck53)).collect();
    let sevens: Vec<[Card; 7]> = (0..HANDS).map(|_| rng.deal(&deck53)).collect();
    let rs_hands: Vec<[RsCard; 5]> = plain
        .iter()
        .map(|h| {
            h.map(|c| {
                RsCard::new(
                    RsValue::from_u8(c.index() >> 2),
                    RsSuit::from_u8(c.index() & 3),
                )
            })
        })
        .collect();

    let lucky = RuleOptions::default();
    let bug = EvalRules::from_options(&lucky);
    let wild = EvalRules::from_options(&RuleOptions {
        joker: JokerRule::Wild,
        ..lucky
    });

    let mut g = c.benchmark_group("eval5");
    g.throughput(Throughput::Elements(HANDS as u64));
    let run = |hands: &[[Card; 5]], rules: EvalRules| {
        for h in hands {
            black_box(eval5_with(black_box(h), rules));
        }
    };
    g.bench_function("no_joker", |b| b.iter(|| run(&plain, bug)));
    g.bench_function("rs_poker", |b| {
        b.iter(|| {
            for h in &rs_hands {
                black_box(black_box(&h[..]).rank_five());
            }
        })
    });
    g.bench_function("joker_bug", |b| b.iter(|| run(&with_joker, bug)));
    g.bench_function("joker_wild", |b| b.iter(|| run(&with_joker, wild)));
    g.bench_function("deck53", |b| b.iter(|| run(&mixed, bug)));
    g.finish();

    let mut g = c.benchmark_group("house_way");
    g.throughput(Throughput::Elements(HANDS as u64));
    g.bench_function("reference", |b| {
        b.iter(|| {
            sevens.iter().fold(0usize, |acc, h| {
                acc + ReferenceHouseWay.set(black_box(h), &lucky).hand.low[0].index() as usize
            })
        })
    });
    g.finish();

    let rules = EvalRules::from_options(&lucky);
    let table = SevenTable::get(rules);
    let mut g = c.benchmark_group("best_of_seven");
    g.throughput(Throughput::Elements(HANDS as u64));
    g.bench_function("by_21_evaluations", |b| {
        b.iter(|| {
            sevens.iter().fold(0u64, |acc, h| {
                acc + u64::from(best_of_seven_by_subsets(black_box(h), rules).value())
            })
        })
    });
    g.bench_function("by_table", |b| {
        b.iter(|| {
            sevens.iter().fold(0u64, |acc, h| {
                acc + u64::from(table.best_of(black_box(h)).value())
            })
        })
    });
    g.finish();

    let states = RankStates::get();
    let mut g = c.benchmark_group("house_way_values");
    g.throughput(Throughput::Elements(HANDS as u64));
    for name in [HouseWayName::Reference, HouseWayName::Foxwoods] {
        let opts = RuleOptions {
            house_way: name,
            ..lucky
        };
        let way = opts.house_way().expect("a shipped house way");
        let setter = SetterTable::of(&opts).expect("a shipped house way");
        g.bench_function(format!("{}/set_ranked", name.name()), |b| {
            b.iter(|| {
                sevens.iter().fold(0u64, |acc, h| {
                    acc + u64::from(way.set_ranked(black_box(h), &opts).low.value())
                })
            })
        });
        g.bench_function(format!("{}/table", name.name()), |b| {
            b.iter(|| {
                sevens.iter().fold(0u64, |acc, h| {
                    let dealt = Dealt::of(states, black_box(h));
                    acc + u64::from(setter.values(way, h, dealt).1.value())
                })
            })
        });
    }
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
