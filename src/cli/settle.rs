//! `pitbook settle [FILE]`: scenario JSON in (FILE, or stdin when there is
//! no FILE or it is `-`), settlement JSON out. The same pure functions as
//! `POST /api/v1/settle` (`domain::double_hand_poker::settle`); without `--pretty` stdout is
//! exactly the API's body plus a newline. See docs/settle.md.

use std::io::Write;
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::domain::double_hand_poker::settle::{self, SettleError, limits};

#[derive(Debug, Args)]
pub struct SettleArgs {
    /// The scenario JSON file; stdin when absent or `-`.
    #[arg(value_name = "FILE")]
    file: Option<PathBuf>,
    /// Print indented JSON instead of one line.
    #[arg(long)]
    pretty: bool,
}

pub fn run(args: SettleArgs) -> Result<(), CliError> {
    let max = limits::INPUT_BYTES_MAX;
    let (bytes, source) = super::read_file_or_stdin(args.file.as_deref(), max)?;
    let text = input_text(bytes, &source, max)?;
    let scenario = settle::parse_scenario(&text).map_err(settle_error)?;
    let settlement = settle::settle(&scenario).map_err(settle_error)?;
    let json = if args.pretty {
        settle::to_json_pretty(&settlement)
    } else {
        settle::to_json(&settlement)
    }
    .map_err(settle_error)?;
    let mut out = std::io::stdout().lock();
    writeln!(out, "{json}")
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failure(format!("cannot write to stdout: {e}")))
}

/// The input read (one byte more than `max` at most) as text: too long or
/// not UTF-8 is bad input naming its source.
fn input_text(bytes: Vec<u8>, source: &str, max: usize) -> Result<String, CliError> {
    if bytes.len() > max {
        return Err(CliError::BadInput(format!(
            "input: {source} is more than the limit of {max} bytes"
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        CliError::BadInput(format!(
            "input: {source} is not UTF-8 text (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

fn settle_error(e: SettleError) -> CliError {
    if e.is_bad_input() {
        CliError::BadInput(e.to_string())
    } else {
        CliError::Failure(e.to_string())
    }
}
