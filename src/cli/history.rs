//! `pitbook history export | check` (docs/hand-history.md): the hands the
//! search's filters keep, written as JSON lines or CSV; and an export
//! checked offline, with no database (`history_check.rs`).

use std::path::{Path, PathBuf};

use clap::{Args, Subcommand};

use super::CliError;
use super::store_args::StoreArgs;
use crate::domain::common::field_error::FieldError;
use crate::store::audit::key::MissingKey;
use crate::web::history::export_lines::{Format, write_export};

#[derive(Debug, Subcommand)]
pub enum HistoryCommand {
    /// Export the hands the filters keep (newest first): JSON lines, one
    /// hand per line (pitbook-hand-history/1), or CSV, one row per wager.
    Export(Box<ExportArgs>),
    /// Check an export offline: every hand re-settled with the engine and
    /// compared; with the audit key, every record's HMAC. Exit 0 clean,
    /// 1 differences found, 2 not an export.
    Check(super::history_check::CheckArgs),
}

/// The search's filters, as `/history` and `GET /api/v1/hands` take them.
#[derive(Debug, Args)]
pub struct FilterArgs {
    /// The table's exact name.
    #[arg(long)]
    table: Option<String>,
    /// A quick pick on the cardroom's clock: shift, today or yesterday.
    #[arg(long)]
    period: Option<String>,
    /// One day on the cardroom's clock (2026-11-24).
    #[arg(long)]
    date: Option<String>,
    /// Opened at or after (2026-11-24 or 2026-11-24T18:30, the cardroom's clock).
    #[arg(long)]
    from: Option<String>,
    /// Opened before.
    #[arg(long)]
    to: Option<String>,
    /// Dealt by this user.
    #[arg(long)]
    dealer: Option<String>,
    /// Banked by a PD whose name holds this (any case).
    #[arg(long)]
    pd: Option<String>,
    /// With this name as PD or bettor (any case, partial).
    #[arg(long)]
    player: Option<String>,
    /// With a note whose text holds this (any case, partial).
    #[arg(long)]
    note: Option<String>,
    /// open, closed, corrected or voided.
    #[arg(long)]
    status: Option<String>,
    /// Only hands at training tables.
    #[arg(long, conflicts_with = "real")]
    training: bool,
    /// Only hands at real (not training) tables.
    #[arg(long)]
    real: bool,
    /// The PD's bank at least this amount.
    #[arg(long, allow_hyphen_values = true)]
    bank_at_least: Option<String>,
    /// With a wager of at least this amount.
    #[arg(long, allow_hyphen_values = true)]
    wager_at_least: Option<String>,
    /// The hand's number at its table (1042 or #1042).
    #[arg(long)]
    number: Option<String>,
}

/// Each flag and the filter key it gives (`domain::history::filter`).
const FLAGS: [(&str, &str); 14] = [
    ("--table", "table"),
    ("--period", "period"),
    ("--date", "date"),
    ("--from", "from"),
    ("--to", "to"),
    ("--dealer", "dealer"),
    ("--pd", "pd"),
    ("--player", "player"),
    ("--note", "note"),
    ("--status", "status"),
    ("--training/--real", "kind"),
    ("--bank-at-least", "bank_min"),
    ("--wager-at-least", "wager_min"),
    ("--number", "number"),
];

impl FilterArgs {
    /// The flags as the query pairs `HandFilter::parse` reads.
    pub fn pairs(&self) -> Vec<(String, String)> {
        let kind = match (self.training, self.real) {
            (true, _) => Some("training".to_string()),
            (_, true) => Some("real".to_string()),
            _ => None,
        };
        let values = [
            &self.table,
            &self.period,
            &self.date,
            &self.from,
            &self.to,
            &self.dealer,
            &self.pd,
            &self.player,
            &self.note,
            &self.status,
            &kind,
            &self.bank_at_least,
            &self.wager_at_least,
            &self.number,
        ];
        FLAGS
            .iter()
            .zip(values)
            .filter_map(|((_, key), value)| value.clone().map(|v| (key.to_string(), v)))
            .collect()
    }
}

/// A refused filter, named by its flag.
fn refused(errors: Vec<FieldError>) -> CliError {
    let named: Vec<String> = errors
        .iter()
        .map(|e| {
            let flag = FLAGS
                .iter()
                .find(|(_, key)| *key == e.field())
                .map_or(e.field(), |(flag, _)| flag);
            format!("{flag}: {}", e.message())
        })
        .collect();
    CliError::BadInput(named.join("; "))
}

#[derive(Debug, Args)]
pub struct ExportArgs {
    #[command(flatten)]
    store: StoreArgs,
    #[command(flatten)]
    filters: FilterArgs,
    #[arg(long, value_enum, default_value = "jsonl")]
    format: Format,
    /// Write to FILE (created only once the export is complete) instead
    /// of stdout.
    #[arg(long)]
    out: Option<PathBuf>,
    /// The cardroom's time zone: the filters' dates and the CSV's local time.
    #[arg(long, env = "PITBOOK_TIME_ZONE", default_value = "UTC",
          value_parser = super::serve::parse_time_zone)]
    time_zone: chrono_tz::Tz,
}

pub fn run(command: HistoryCommand) -> Result<(), CliError> {
    match command {
        HistoryCommand::Export(args) => super::runtime()?.block_on(export(*args)),
        HistoryCommand::Check(args) => super::history_check::run(args),
    }
}

fn failure(e: impl std::fmt::Display) -> CliError {
    CliError::Failure(e.to_string())
}

async fn export(args: ExportArgs) -> Result<(), CliError> {
    let pairs = args.filters.pairs();
    // The core's parse first: a bad filter is refused before the database opens.
    crate::domain::history::HandFilter::parse(&pairs).map_err(refused)?;
    let (db, _) = args.store.open(MissingKey::Refuse).await?;
    let (filter, bounds) = crate::web::history::check_filter(&db, args.time_zone, &pairs)
        .await
        .map_err(failure)?
        .map_err(refused)?;
    let runtime = tokio::runtime::Handle::current();
    let (format, zone, out) = (args.format, args.time_zone, args.out);
    let written = tokio::task::spawn_blocking(move || match out {
        None => {
            let mut stdout = std::io::BufWriter::new(std::io::stdout().lock());
            write_export(&db, &runtime, &filter, bounds, format, zone, &mut stdout).map_err(failure)
        }
        Some(path) => to_file(&path, |file| {
            write_export(&db, &runtime, &filter, bounds, format, zone, file).map_err(failure)
        }),
    })
    .await
    .map_err(failure)??;
    tracing::info!(hands = written, "history export written");
    Ok(())
}

/// Writes `FILE.partial`, renamed to `path` only once `write` succeeds;
/// a path that is there and not a file (`/dev/stdout`, a pipe) is
/// written as it is, never replaced.
fn to_file(
    path: &Path,
    write: impl FnOnce(&mut dyn std::io::Write) -> Result<u64, CliError>,
) -> Result<u64, CliError> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file()) {
        let cannot = |e: std::io::Error| CliError::Failure(format!("{}: {e}", path.display()));
        let device = std::fs::OpenOptions::new()
            .write(true)
            .open(path)
            .map_err(cannot)?;
        return write(&mut std::io::BufWriter::with_capacity(1 << 20, device));
    }
    let mut partial = path.as_os_str().to_owned();
    partial.push(".partial");
    let partial = PathBuf::from(partial);
    let cannot = |e: std::io::Error| CliError::Failure(format!("{}: {e}", path.display()));
    let file = std::fs::File::create(&partial).map_err(cannot)?;
    let mut out = std::io::BufWriter::with_capacity(1 << 20, file);
    match write(&mut out) {
        Ok(written) => {
            drop(out);
            std::fs::rename(&partial, path).map_err(cannot)?;
            Ok(written)
        }
        Err(e) => {
            drop(out);
            let _ = std::fs::remove_file(&partial);
            Err(e)
        }
    }
}
