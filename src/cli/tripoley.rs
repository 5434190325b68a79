//! `pitbook tripoley round [FILE]` and `pitbook tripoley final [FILE]`: the
//! round or end-of-game JSON in (FILE, or stdin when there is no FILE or it
//! is `-`), the payouts JSON out. The same pure functions as
//! `POST /api/v1/tripoley/round` and `/final` (`domain::tripoley`); without
//! `--pretty` stdout is exactly the API's body plus a newline.
//! See docs/tripoley.md.

use std::io::{Read, Write};
use std::path::PathBuf;

use clap::{Args, Subcommand};

use super::CliError;
use crate::domain::tripoley::{self, INPUT_BYTES_MAX, TripoleyError};

/// `round_json` or `final_json`.
type Compute = fn(&[u8], bool) -> Result<String, TripoleyError>;

#[derive(Debug, Subcommand)]
pub enum TripoleyCommand {
    /// A round's payouts: round JSON in, steps and chips after out.
    Round(TripoleyArgs),
    /// The end of the game: the board to the Pot, the best last hand takes it.
    Final(TripoleyArgs),
}

#[derive(Debug, Args)]
pub struct TripoleyArgs {
    /// The JSON file; stdin when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print indented JSON instead of one line.
    #[arg(long)]
    pretty: bool,
}

pub fn run(command: TripoleyCommand) -> Result<(), CliError> {
    let (args, compute): (_, Compute) = match command {
        TripoleyCommand::Round(args) => (args, tripoley::round_json),
        TripoleyCommand::Final(args) => (args, tripoley::final_json),
    };
    let bytes = match args.file.as_deref() {
        Some(path) if path.as_os_str() != "-" => {
            let file = std::fs::File::open(path)
                .map_err(|e| CliError::Failure(format!("cannot read {}: {e}", path.display())))?;
            read_input(file, &path.display().to_string())?
        }
        _ => read_input(std::io::stdin().lock(), "stdin")?,
    };
    let json = compute(&bytes, args.pretty).map_err(|e| {
        if e.is_bad_input() {
            CliError::BadInput(e.to_string())
        } else {
            CliError::Failure(e.to_string())
        }
    })?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{json}")
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failure(format!("cannot write to stdout: {e}")))
}

/// Reads at most one byte more than the engine accepts, so a huge input is
/// refused (by the engine, with its message) without being held in memory.
fn read_input(reader: impl Read, source: &str) -> Result<Vec<u8>, CliError> {
    let mut bytes = Vec::new();
    reader
        .take(INPUT_BYTES_MAX as u64 + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| CliError::Failure(format!("cannot read {source}: {e}")))?;
    Ok(bytes)
}
