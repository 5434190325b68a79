//! `pitbook bench shifts`: a room's shifts, written as the floor writes
//! them — each table's shift opened, its dealer taking the box, its hands
//! dealt, the shift closed and its report signed — through the store's own
//! shift functions and the hand writer, one task per table. What it is
//! for: `audit verify --from` a shift back must not grow with the shifts
//! before it (a year of a 48-table room is ~52,000 shifts; BENCHMARKS.md).

use std::time::Instant;

use clap::Args;

use super::Rng;
use super::hands::{self, closed_hand};
use crate::cli::CliError;
use crate::cli::store_args::StoreArgs;
use crate::domain::common::audit::AuditKey;
use crate::domain::staff::Role;
use crate::store::Db;
use crate::store::audit::key::MissingKey;
use crate::store::double_hand_poker::tables;
use crate::store::double_hand_poker::writer::HandWriter;
use crate::store::{shifts, staff};

/// Who opens, closes and signs the bench's shifts.
const SUPERVISOR: &str = "bench";

#[derive(Debug, Args)]
pub struct ShiftsArgs {
    /// Tables, each with its shifts one after another (every fourth a
    /// training table).
    #[arg(long, default_value_t = 48)]
    tables: u64,
    /// Shifts a table (3 a day: 1,095 is a year).
    #[arg(long, default_value_t = 21)]
    shifts: u64,
    /// Closed hands dealt in each shift.
    #[arg(long, default_value_t = 2)]
    hands: u64,
    /// Seed of the hands' variety.
    #[arg(long, default_value_t = 17)]
    seed: u64,
    #[command(flatten)]
    store: StoreArgs,
}

pub async fn run(args: ShiftsArgs) -> Result<(), CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failure(e.to_string());
    if args.tables == 0 || args.shifts == 0 {
        return Err(CliError::BadInput(
            "--tables and --shifts: give 1 or more".into(),
        ));
    }
    let (db, key) = args.store.open(MissingKey::Create).await?;
    super::refuse_unless_empty(&db, "bench shifts", "").await?;
    let names = hands::create_tables(&db, &key, args.tables).await?;
    let dealers = dealers(&db, &key, &names).await?;
    let writer = HandWriter::spawn(db.clone(), key.clone()).map_err(|e| failed(&e))?;
    let started = Instant::now();
    let mut tasks = Vec::new();
    for (t, (table, dealer)) in names.iter().zip(dealers).enumerate() {
        let (db, key, writer, table) = (db.clone(), key.clone(), writer.clone(), table.clone());
        let seed = args.seed ^ (t as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D);
        let (count, hands) = (args.shifts, args.hands);
        tasks.push(tokio::spawn(async move {
            table_shifts(&db, &key, &writer, &table, &dealer, count, hands, seed).await
        }));
    }
    let mut last_round_from = i64::MAX;
    for task in tasks {
        let last_opened = task.await.map_err(|e| failed(&e))??;
        last_round_from = last_round_from.min(last_opened);
    }
    let secs = started.elapsed().as_secs_f64();
    let shifts = args.tables * args.shifts;
    println!(
        "wrote {shifts} shifts ({} hands) at {} tables in {secs:.1} s: {:.0} shifts/s",
        shifts * args.hands,
        args.tables,
        shifts as f64 / secs
    );
    println!(
        "the last round of shifts opens at record {last_round_from}: \
         `pitbook audit verify --from {last_round_from}` checks one shift back"
    );
    db.close().await;
    Ok(())
}

/// One dealer account a table (the bench hands' dealers), assigned to it.
async fn dealers(db: &Db, key: &AuditKey, tables: &[String]) -> Result<Vec<String>, CliError> {
    let failed = |e: &dyn std::fmt::Debug| CliError::Failure(format!("a bench dealer: {e:?}"));
    let pool = hands::dealers();
    let mut made = Vec::new();
    let mut chosen = Vec::new();
    for (i, table) in tables.iter().enumerate() {
        let dealer = pool[i % pool.len()].clone();
        if !made.contains(&dealer) {
            let password = uuid::Uuid::new_v4().to_string();
            staff::add_user(db, key, SUPERVISOR, &dealer, Role::Dealer, &password, false)
                .await
                .map_err(|e| failed(&e))?;
            made.push(dealer.clone());
        }
        tables::set_dealer(db, key, SUPERVISOR, table, &dealer, true)
            .await
            .map_err(|e| failed(&e))?;
        chosen.push(dealer);
    }
    Ok(chosen)
}

/// A table's shifts in turn; the seq its last shift opened at.
#[allow(clippy::too_many_arguments)]
async fn table_shifts(
    db: &Db,
    key: &AuditKey,
    writer: &HandWriter,
    table: &str,
    dealer: &str,
    count: u64,
    hands: u64,
    seed: u64,
) -> Result<i64, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failure(format!("{table}: {e}"));
    let players = hands::players();
    let dealers = [dealer.to_string()];
    let mut rng = Rng::new(seed);
    let mut last_opened = 0;
    for s in 0..count {
        let shift = shifts::open(db, key, SUPERVISOR, Some(table))
            .await
            .map_err(|e| failed(&e))?;
        last_opened = shift.opened.seq;
        shifts::change_dealer(db, key, SUPERVISOR, &shift.id, table, Some(dealer))
            .await
            .map_err(|e| failed(&e))?;
        for h in 0..hands {
            let idempotency = format!("bench-{table}-{s}-{h}");
            let command = closed_hand(&mut rng, table, &players, &dealers, &idempotency)?;
            writer.submit(None, command).await.map_err(|e| failed(&e))?;
        }
        let closing = shifts::Signing::Close;
        shifts::sign(db, key, SUPERVISOR, &shift.id, chrono_tz::UTC, closing)
            .await
            .map_err(|e| failed(&e))?;
    }
    Ok(last_opened)
}
