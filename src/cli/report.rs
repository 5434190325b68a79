//! `pitbook report shift`: a shift's report (`--shift ID`), or the report
//! of any range (`--date`, or `--from` and `--to`) at a table or for the
//! room, as text, CSV or JSON — the same core and reads as the report
//! page and `GET /api/v1/shifts/{id}/report` (docs/shifts.md).

use clap::{Args, Subcommand, ValueEnum};

use super::CliError;
use super::store_args::StoreArgs;
use crate::domain::shifts::report::{Report, standing, text};
use crate::store::audit::key::MissingKey;
use crate::store::audit::now_text;
use crate::store::shifts::{self, report as reports};

#[derive(Debug, Subcommand)]
pub enum ReportCommand {
    /// A shift's report, or any range's, at a table or for the room.
    Shift(ShiftArgs),
}

#[derive(Debug, Clone, Copy, ValueEnum)]
pub enum Format {
    Text,
    Csv,
    Json,
}

#[derive(Debug, Args)]
pub struct ShiftArgs {
    #[command(flatten)]
    store: StoreArgs,
    /// The shift (its id, from `/shifts` or `GET /api/v1/shifts`).
    #[arg(long, conflicts_with_all = ["date", "from", "to"])]
    shift: Option<String>,
    /// One table (default: the room).
    #[arg(long, conflicts_with = "shift")]
    table: Option<String>,
    /// A whole day on the cardroom's clock (YYYY-MM-DD).
    #[arg(long)]
    date: Option<String>,
    /// From (inclusive), YYYY-MM-DDTHH:MM on the cardroom's clock.
    #[arg(long)]
    from: Option<String>,
    /// To (exclusive), YYYY-MM-DDTHH:MM.
    #[arg(long)]
    to: Option<String>,
    #[arg(long, value_enum, default_value = "text")]
    format: Format,
    /// The cardroom's time zone: the range's times and the report's hours.
    #[arg(long, env = "PITBOOK_TIME_ZONE", default_value = "UTC",
          value_parser = super::serve::parse_time_zone)]
    time_zone: chrono_tz::Tz,
}

pub fn run(command: ReportCommand) -> Result<(), CliError> {
    match command {
        ReportCommand::Shift(args) => super::runtime()?.block_on(shift(args)),
    }
}

fn failure(e: impl std::fmt::Display) -> CliError {
    CliError::Failure(e.to_string())
}

async fn shift(args: ShiftArgs) -> Result<(), CliError> {
    // The range is the core's to read: refused before the database opens.
    let range = match &args.shift {
        Some(_) => None,
        None => Some(
            crate::web::shifts::range_bounds(
                args.date.as_deref(),
                args.from.as_deref(),
                args.to.as_deref(),
                args.time_zone,
            )
            .map_err(|e| CliError::BadInput(format!("--{}: {}", e.field(), e.message())))?,
        ),
    };
    let (db, _) = args.store.open(MissingKey::Refuse).await?;
    let (report, signature) = match (&args.shift, range) {
        (Some(id), _) => {
            let shift = shifts::load(&db, id)
                .await
                .map_err(failure)?
                .ok_or_else(|| CliError::BadInput(format!("--shift: there is no shift {id}")))?;
            let report = reports::of_shift(
                &mut reports::On::Db(&db),
                &shift,
                args.time_zone,
                &now_text(),
            )
            .await
            .map_err(failure)?;
            let signature = standing(&shift, &report);
            (report, Some(signature))
        }
        (None, Some((from, to))) => {
            let table = args
                .table
                .as_deref()
                .map(str::trim)
                .filter(|t| !t.is_empty());
            if let Some(t) = table
                && crate::store::double_hand_poker::tables::get(&db, t)
                    .await
                    .map_err(failure)?
                    .is_none()
            {
                return Err(CliError::BadInput(format!(
                    "--table: there is no table \"{t}\""
                )));
            }
            let report = reports::of_range(&db, table, &from, &to, args.time_zone)
                .await
                .map_err(failure)?;
            (report, None)
        }
        (None, None) => unreachable!("a range is read whenever no shift is named"),
    };
    print(&report, signature, args.format)
}

fn print(
    report: &Report,
    signature: Option<crate::domain::shifts::report::Standing>,
    format: Format,
) -> Result<(), CliError> {
    match format {
        Format::Text => {
            print!("{}", text(report));
            if let Some(s) = signature {
                println!("Signature: {}", serde_json::to_string(&s).map_err(failure)?);
            }
        }
        Format::Csv => {
            let bytes = crate::web::shifts::report_csv(report).map_err(failure)?;
            print!("{}", String::from_utf8_lossy(&bytes));
        }
        Format::Json => {
            use std::io::Write;
            let json = crate::domain::shifts::report::ReportJson { report, signature };
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            serde_json::to_writer_pretty(&mut out, &json).map_err(failure)?;
            writeln!(out).map_err(failure)?;
            out.flush().map_err(failure)?;
        }
    }
    Ok(())
}
