//! `pitbook tripoley round [FILE]` and `pitbook tripoley final [FILE]`: the
//! round or end-of-game JSON in (FILE, or stdin when there is no FILE or it
//! is `-`), the payouts JSON out. The same pure functions as
//! `POST /api/v1/tripoley/round` and `/final` (`domain::tripoley`); without
//! `--pretty` stdout is exactly the API's body plus a newline.
//! See docs/tripoley.md.

use std::io::Write;
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
    let (bytes, _) = super::read_file_or_stdin(args.file.as_deref(), INPUT_BYTES_MAX)?;
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
