//! The command line: a thin shell over the same engine the web app uses.
//! Exit codes: 0 success, 1 failure (database, IO), 2 bad input or usage.

mod anchor_log;
mod audit;
mod backup;
mod bench;
mod checked_ways;
mod dice_games;
mod drill;
mod hand;
mod history;
mod history_check;
mod house_way;
mod report;
mod restore;
mod serve;
mod settle;
mod store_args;
mod tripoley;
mod user;

use std::io::Read;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use crate::telemetry::LogFormat;

#[derive(Debug, Parser)]
#[command(
    name = "pitbook",
    version,
    about = "Settlement, payouts and scoring for cardroom staff"
)]
pub struct Cli {
    /// Log format on stderr.
    #[arg(
        long,
        global = true,
        env = "PITBOOK_LOG_FORMAT",
        value_enum,
        default_value_t
    )]
    pub log_format: LogFormat,
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the web server.
    Serve(serve::ServeArgs),
    /// Verify, anchor and export the audit log.
    #[command(subcommand)]
    Audit(audit::AuditCommand),
    /// Hand tools: evaluate, set by house way, list the 21 settings.
    #[command(subcommand)]
    Hand(hand::HandCommand),
    /// House ways as files: check one over every hand, diff two.
    #[command(subcommand)]
    HouseWay(house_way::HouseWayCommand),
    /// Three dice → the ACTION seat.
    Dice(hand::DiceArgs),
    /// Settle a hand: scenario JSON in (FILE, or stdin), settlement JSON out.
    Settle(settle::SettleArgs),
    /// Poker dice (Caribeña): rank a hand, compare hands, check a round.
    #[command(subcommand)]
    PokerDice(dice_games::PokerDiceCommand),
    /// 10,000 (Crapola): score a throw, check and score a recorded game.
    #[command(subcommand)]
    TenThousand(dice_games::TenThousandCommand),
    /// A training drill: the question, with `--answer` its answer (docs/training.md).
    Drill(drill::DrillArgs),
    /// Hand histories: export the hands a search keeps; check an export offline.
    #[command(subcommand)]
    History(history::HistoryCommand),
    /// Reports: a shift's report, or any range's, as text, CSV or JSON.
    #[command(subcommand)]
    Report(report::ReportCommand),
    /// Tripoley: a round's payouts, the end-of-game last hand (JSON in, JSON out).
    #[command(subcommand)]
    Tripoley(tripoley::TripoleyCommand),
    /// Back the database up into a new file while it serves (SQLite's
    /// VACUUM INTO, PostgreSQL's pg_dump); the audit key is not in it.
    Backup(backup::BackupArgs),
    /// Restore a backup into an empty database, migrated forward.
    Restore(restore::RestoreArgs),
    /// Staff accounts: add one; issue and revoke API tokens.
    #[command(subcommand)]
    User(user::UserCommand),
    /// Benchmarks over a database: `bench hands` writes hands through the
    /// store and times the hand search (BENCHMARKS.md).
    #[command(subcommand)]
    Bench(bench::BenchCommand),
}

/// Why a command failed, and so its exit code.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// The input can never succeed as given: exit 2, nothing on stdout.
    #[error("{0}")]
    BadInput(String),
    /// The environment failed us (database, file, network): exit 1.
    #[error("{0}")]
    Failure(String),
    /// A check ran and found a problem (audit verify): exit 1, report on stdout.
    #[error("{0}")]
    Verification(String),
}

impl CliError {
    fn exit_code(&self) -> ExitCode {
        match self {
            CliError::BadInput(_) => ExitCode::from(2),
            CliError::Failure(_) | CliError::Verification(_) => ExitCode::from(1),
        }
    }
}

pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return usage_error(e),
    };
    crate::telemetry::init(cli.log_format);
    match run(cli.command, cli.log_format) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {}", one_line(&e.to_string()));
            e.exit_code()
        }
    }
}

fn run(command: Command, log_format: LogFormat) -> Result<(), CliError> {
    match command {
        Command::Serve(args) => serve::run(args, log_format),
        Command::Audit(command) => audit::run(command),
        Command::Hand(command) => hand::run(command),
        Command::HouseWay(command) => house_way::run(command),
        Command::Dice(args) => hand::run_dice(args),
        Command::Settle(args) => settle::run(args),
        Command::PokerDice(command) => dice_games::run_poker_dice(command),
        Command::TenThousand(command) => dice_games::run_ten_thousand(command),
        Command::Tripoley(command) => tripoley::run(command),
        Command::Drill(args) => drill::run(args),
        Command::History(command) => history::run(command),
        Command::Report(command) => report::run(command),
        Command::Backup(args) => backup::run(args),
        Command::Restore(args) => restore::run(args),
        Command::User(command) => user::run(command),
        Command::Bench(command) => bench::run(command),
    }
}

/// Help and version print in full; a usage error prints its first line only.
fn usage_error(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp
        | ErrorKind::DisplayVersion
        | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                ExitCode::from(2)
            } else {
                ExitCode::SUCCESS
            }
        }
        _ => {
            let rendered = e.render().to_string();
            let mut lines = rendered.lines().map(str::trim).filter(|l| !l.is_empty());
            let first = lines.next().unwrap_or("usage error");
            // "the following required arguments were not provided:" names
            // them on the next line: keep it on the one line.
            match lines.next() {
                Some(next) if first.ends_with(':') => eprintln!("{first} {next}"),
                _ => eprintln!("{first}"),
            }
            ExitCode::from(2)
        }
    }
}

fn one_line(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A runtime for commands that talk to the database.
fn runtime() -> Result<tokio::runtime::Runtime, CliError> {
    tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| CliError::Failure(format!("cannot start the async runtime: {e}")))
}

/// Prints a value as one line of compact JSON (what the API returns).
pub(crate) fn print_json(value: &impl serde::Serialize) -> Result<(), CliError> {
    let text = serde_json::to_string(value)
        .map_err(|e| CliError::Failure(format!("cannot write JSON: {e}")))?;
    println!("{text}");
    Ok(())
}

/// `--json`: the API's JSON; otherwise the dealer-friendly text.
pub(crate) fn output<T: serde::Serialize>(
    json: bool,
    value: &T,
    text: fn(&T) -> String,
) -> Result<(), CliError> {
    if json {
        print_json(value)
    } else {
        print!("{}", text(value));
        Ok(())
    }
}

/// The bytes of `file` (stdin when absent or `-`) with the name messages
/// give their source. Reads at most one byte more than `max`, so a huge input
/// is refused (by the caller or the engine) without being held in memory.
fn read_file_or_stdin(
    file: Option<&std::path::Path>,
    max: usize,
) -> Result<(Vec<u8>, String), CliError> {
    let read = |reader: &mut dyn Read, source: String| {
        let mut bytes = Vec::new();
        Read::take(reader, max as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| CliError::Failure(format!("cannot read {source}: {e}")))?;
        Ok((bytes, source))
    };
    match file {
        Some(path) if path.as_os_str() != "-" => {
            let mut file = std::fs::File::open(path)
                .map_err(|e| CliError::Failure(format!("cannot read {}: {e}", path.display())))?;
            read(&mut file, path.display().to_string())
        }
        _ => read(&mut std::io::stdin().lock(), "stdin".to_string()),
    }
}
