//! `pitbook bench hands`: writes N closed hands through the hand writer —
//! the server's own path, so the audit records, the hand numbers and the
//! search's projection are the real ones — then times every search filter
//! and a player's history over them (`queries.rs`). BENCHMARKS.md holds
//! the figures and the commands.
//!
//! The hands vary as a cardroom's do: several tables (every fourth a
//! training table), a pool of dealers, PDs and a few thousand player names,
//! 1–8 wagers a hand, some hands corrected and some voided afterwards.
//! Their times are spread over `--weeks`: the writer takes a stepping clock
//! (`store::audit::Clock`), one reading per command, ending now.
//!
//! `pitbook bench shifts` writes a room's shifts instead (`shifts.rs`), and
//! `pitbook bench setter` times the house ways' setting (`setter.rs`).

mod hands;
mod queries;
mod setter;
mod shifts;

use std::time::Instant;

use clap::{Args, Subcommand};

use super::CliError;
use super::store_args::StoreArgs;
use crate::store::Db;
use crate::store::audit::Clock;
use crate::store::audit::key::MissingKey;
use crate::store::double_hand_poker::writer::HandWriter;

#[derive(Debug, Subcommand)]
pub enum BenchCommand {
    /// Write N closed hands through the store, then time the hand search.
    Hands(HandsArgs),
    /// Set every seven-card hand by a house way's table, and a sample by
    /// the house way itself: settings a second.
    Setter(setter::SetterArgs),
    /// Write a room's shifts through the store, each with its dealer, its
    /// hands and its signed report (the log `audit verify --from` a shift
    /// back is measured on).
    Shifts(shifts::ShiftsArgs),
}

#[derive(Debug, Args)]
pub struct HandsArgs {
    /// Closed hands to write (0: only time the queries, over the hands the
    /// database holds).
    #[arg(long, default_value_t = 10_000)]
    hands: u64,
    /// Tables writing at once (every fourth a training table).
    #[arg(long, default_value_t = 12)]
    tables: u64,
    /// The hands' times are spread over this many weeks, ending now.
    #[arg(long, default_value_t = 6)]
    weeks: u64,
    /// Queries timed per filter, each with other parameters.
    #[arg(long, default_value_t = 300)]
    queries: u64,
    /// Seed of the hands' and the queries' variety.
    #[arg(long, default_value_t = 17)]
    seed: u64,
    #[command(flatten)]
    store: StoreArgs,
}

pub fn run(command: BenchCommand) -> Result<(), CliError> {
    match command {
        BenchCommand::Hands(args) => super::runtime()?.block_on(bench_hands(args)),
        BenchCommand::Setter(args) => setter::run(args),
        BenchCommand::Shifts(args) => super::runtime()?.block_on(shifts::run(args)),
    }
}

/// A small deterministic generator: the core's SplitMix64
/// (`domain::training::rng`) with `seed` as its state, so the same seed
/// gives the same hands and queries on both databases.
pub(super) struct Rng(crate::domain::training::rng::Rng);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // The core's `new` mixes in a stream (0: none) and steps once, by
        // SplitMix64's increment: start one step back, and the state is
        // `seed` itself.
        let one_step_back = seed.wrapping_sub(0x9E37_79B9_7F4A_7C15);
        Rng(crate::domain::training::rng::Rng::new(one_step_back, 0))
    }

    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len() as u64) as usize]
    }
}

const COUNT_HANDS: &str = "SELECT COUNT(*) FROM hands";

/// How many hands the database holds.
pub(super) async fn hands_held(db: &Db) -> Result<i64, CliError> {
    count(db, COUNT_HANDS).await
}

async fn count(db: &Db, sql: &str) -> Result<i64, CliError> {
    match db {
        Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .map_err(|e| CliError::Failure(e.to_string()))
}

/// Refuses (exit 2, nothing written) a database that already holds hands,
/// tables or shifts: a bench writes its own tables into an empty one, and
/// a rerun would collide with the first run's table names.
/// `or_else`: what else the user could run, if anything.
pub(super) async fn refuse_unless_empty(
    db: &Db,
    command: &str,
    or_else: &str,
) -> Result<(), CliError> {
    for (what, sql) in [
        ("hands", COUNT_HANDS),
        ("tables", "SELECT COUNT(*) FROM card_tables"),
        ("shifts", "SELECT COUNT(*) FROM shifts"),
    ] {
        let held = count(db, sql).await?;
        if held > 0 {
            return Err(CliError::BadInput(format!(
                "the database already holds {held} {what}; {command} writes into an empty one{or_else}"
            )));
        }
    }
    Ok(())
}

async fn bench_hands(args: HandsArgs) -> Result<(), CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failure(e.to_string());
    if args.tables == 0 {
        return Err(CliError::BadInput("--tables: give 1 or more".into()));
    }
    let (db, key) = args.store.open(MissingKey::Create).await?;
    if args.hands > 0 {
        refuse_unless_empty(
            &db,
            "bench hands",
            " (--hands 0 times the queries over what it holds)",
        )
        .await?;
    }
    let span_micros = (args.weeks.max(1) * 7 * 86_400 * 1_000_000) as i64;
    if args.hands > 0 {
        let tables = hands::create_tables(&db, &key, args.tables).await?;
        // One clock reading per command (a hand, a correction, a void):
        // the last lands about now.
        let commands = args.hands + args.hands / 50;
        let step = span_micros / commands as i64;
        let start = chrono::Utc::now() - chrono::Duration::microseconds(span_micros);
        let writer =
            HandWriter::spawn_with_clock(db.clone(), key.clone(), Clock::stepping(start, step))
                .map_err(|e| failed(&e))?;
        let started = Instant::now();
        let written = hands::write(&writer, &tables, args.hands, args.seed).await?;
        let secs = started.elapsed().as_secs_f64();
        println!(
            "wrote {} closed hands ({} corrected, {} voided) at {} tables in {secs:.1} s: {:.0} hands/s",
            written.hands,
            written.corrected,
            written.voided,
            tables.len(),
            written.hands as f64 / secs
        );
    }
    // As a long-running server would have them by now.
    db.refresh_planner_stats().await.map_err(|e| failed(&e))?;
    queries::run(&db, args.queries, args.seed).await?;
    db.close().await;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn the_seed_is_splitmix64s_state() {
        // SplitMix64's first three draws from the state 42.
        let mut rng = Rng::new(42);
        let drawn = [rng.next(), rng.next(), rng.next()];
        assert_eq!(
            drawn,
            [
                0xbdd7_3226_2feb_6e95,
                0x28ef_e333_b266_f103,
                0x4752_6757_130f_9f52
            ]
        );
    }
}
