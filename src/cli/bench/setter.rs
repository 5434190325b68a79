//! `pitbook bench setter`: how fast a house way sets hands, from its table
//! (`house_way/table.rs`) over every seven-card hand and by the house way
//! itself over a sample — the figures BENCHMARKS.md gives for house ways.

use std::time::Instant;

use clap::Args;
use rayon::prelude::*;

use super::super::CliError;
use super::super::hand::RuleArgs;
use crate::domain::cards::Card;
use crate::domain::cards::seven::for_each_seven;
use crate::domain::double_hand_poker::house_way::census::deck_size;
use crate::domain::double_hand_poker::house_way::table::{SetterTable, Values};
use crate::domain::double_hand_poker::house_way::{HouseWay, by_name};

#[derive(Debug, Args)]
pub struct SetterArgs {
    #[command(flatten)]
    rules: RuleArgs,
    /// Threads setting hands (1: the one-core figure).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The sample the house way sets itself: hands whose lowest card is
    /// this card index or higher (25: 1,184,040 hands of 53 cards).
    #[arg(long, default_value_t = 25)]
    sample_from: usize,
}

/// A value of the settings that the optimiser can't drop: the sum of both
/// hands' ranks.
fn fold(sum: u64, (high, low): Values) -> u64 {
    sum.wrapping_add(u64::from(high.value()) ^ u64::from(low.value()) << 32)
}

pub fn run(args: SetterArgs) -> Result<(), CliError> {
    let opts = args.rules.options();
    let way: &(dyn HouseWay + Sync) =
        by_name(opts.house_way).map_err(|e| CliError::BadInput(e.to_string()))?;
    let deck: Vec<Card> = (0..deck_size(&opts)).filter_map(Card::from_index).collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.threads.max(1))
        .build()
        .map_err(|e| CliError::Failure(e.to_string()))?;
    let parts = 0..deck.len() - 6;
    let sample = args.sample_from.min(deck.len() - 7)..deck.len() - 6;

    let started = Instant::now();
    let table = SetterTable::new(way, &opts);
    let built = started.elapsed();

    let by_table = |parts: std::ops::Range<usize>| {
        pool.install(|| {
            parts
                .into_par_iter()
                .map(|first| {
                    let (mut hands, mut sum) = (0u64, 0u64);
                    for_each_seven(&deck, first, |hand, dealt| {
                        hands += 1;
                        sum = fold(sum, table.values(way, hand, dealt));
                    });
                    (hands, sum)
                })
                .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1.wrapping_add(b.1)))
        })
    };
    let started = Instant::now();
    let (hands, _) = by_table(parts);
    let table_secs = started.elapsed().as_secs_f64();

    let started = Instant::now();
    let (sampled, direct_sum) = pool.install(|| {
        sample
            .clone()
            .into_par_iter()
            .map(|first| {
                let (mut hands, mut sum) = (0u64, 0u64);
                for_each_seven(&deck, first, |hand, _| {
                    hands += 1;
                    let set = way.set_ranked(hand, &opts);
                    sum = fold(sum, (set.high, set.low));
                });
                (hands, sum)
            })
            .reduce(|| (0, 0), |a, b| (a.0 + b.0, a.1.wrapping_add(b.1)))
    });
    let direct_secs = started.elapsed().as_secs_f64();
    let (_, table_sum) = by_table(sample);

    let rate = |n: u64, secs: f64| n as f64 / secs.max(1e-9) / 1e6;
    println!(
        "house way {} on {} thread(s); the table: {} entries, built in {:.1} ms",
        way.name(),
        args.threads.max(1),
        table.values.len(),
        built.as_secs_f64() * 1e3
    );
    println!(
        "by its table: {hands} settings in {table_secs:.2} s, {:.1} M settings/s",
        rate(hands, table_secs)
    );
    println!(
        "by the house way itself: {sampled} settings in {direct_secs:.2} s, {:.1} M settings/s; \
         the table's values the same: {}",
        rate(sampled, direct_secs),
        if table_sum == direct_sum { "yes" } else { "NO" }
    );
    if table_sum != direct_sum {
        return Err(CliError::Failure(
            "the table's settings differ from the house way's".into(),
        ));
    }
    Ok(())
}
