//! `pitbook history check FILE`: an export checked offline, with no
//! database (docs/hand-history.md). Lines are read a chunk at a time and
//! checked on every CPU (`domain::history_export::check_alone`: each hand
//! re-settled with the engine and compared with its line, each record's
//! HMAC with the key); the links between records are then checked in the
//! file's order. The three run at once, each on its own thread, a chunk
//! apart: memory holds about three chunks, whatever the file's size.

use std::io::{BufRead, Write};
use std::path::PathBuf;

use clap::Args;

use super::CliError;
use crate::domain::common::audit::AuditKey;
use crate::domain::history_export::{HandCheck, LineError, Links, check_alone, read_line};
use crate::store::audit::key::{self, MissingKey};

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The export: JSON lines as `pitbook history export` writes them (- for stdin).
    file: PathBuf,
    /// The audit key (as `serve` takes it): with it every record's HMAC is
    /// checked too.
    #[arg(long)]
    audit_key_file: Option<PathBuf>,
}

/// Lines checked together: enough to keep every CPU busy, few enough to
/// keep memory small.
const CHUNK_LINES: usize = 2048;

/// What the whole file gave.
#[derive(Debug, Default)]
struct Summary {
    hands: u64,
    differ: u64,
    settled: u64,
    records: u64,
    hashes: u64,
}

pub fn run(args: CheckArgs) -> Result<(), CliError> {
    let key = match &args.audit_key_file {
        None => None,
        Some(path) => Some(
            key::load("", None, Some(path), MissingKey::Refuse)
                .map_err(|e| CliError::BadInput(format!("--audit-key-file: {e}")))?
                .0,
        ),
    };
    let name = args.file.display().to_string();
    let input: Box<dyn BufRead + Send> = if args.file.as_os_str() == "-" {
        Box::new(std::io::BufReader::with_capacity(1 << 20, std::io::stdin()))
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|e| CliError::Failure(format!("cannot read {name}: {e}")))?;
        Box::new(std::io::BufReader::with_capacity(1 << 20, file))
    };
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let (summary, links) = check_file(input, key.as_ref(), &name, &mut out)?;
    let hashes = match key {
        Some(_) => format!("{} record hashes checked with the key", summary.hashes),
        None => "record hashes not checked (no --audit-key-file)".to_string(),
    };
    let counts = format!(
        "{} settlements recomputed, {} records, {hashes}, {} links checked",
        summary.settled, summary.records, links
    );
    let written = if summary.differ == 0 {
        writeln!(out, "OK: {} hands checked: {counts}", summary.hands)
    } else {
        writeln!(
            out,
            "FAILED: {} of {} hands differ from their records ({counts})",
            summary.differ, summary.hands
        )
    };
    written
        .and_then(|()| out.flush())
        .map_err(|e| CliError::Failure(format!("writing the report: {e}")))?;
    if summary.differ == 0 {
        Ok(())
    } else {
        Err(CliError::Verification(format!(
            "{name}: {} of {} hands differ from their records",
            summary.differ, summary.hands
        )))
    }
}

/// Checks every line of `input`, each hand's problems written to `out` as
/// found; the summary and the links checked.
fn check_file(
    input: impl BufRead + Send,
    key: Option<&AuditKey>,
    name: &str,
    out: &mut impl Write,
) -> Result<(Summary, u64), CliError> {
    let mut summary = Summary::default();
    let mut links = Links::default();
    // The id of the hand on the line before, which each line names.
    let mut before: Option<String> = None;
    // Three stages, each on its own thread, a chunk deep: the next chunk
    // is read while this one is checked on every CPU while the one before
    // has its links checked and its problems written here. Done in turn,
    // reading and the links left a core idle (user CPU 1.6 × the wall
    // time; 1.85 × in stages, BENCHMARKS.md).
    let (chunks, chunks_read) = std::sync::mpsc::sync_channel(1);
    let (results, results_checked) = std::sync::mpsc::sync_channel(1);
    std::thread::scope(|scope| {
        scope.spawn(move || read_chunks(input, name, &chunks));
        scope.spawn(move || {
            for chunk in chunks_read {
                let checked = chunk.map(|chunk| {
                    // On rayon's threads, kept for the whole file (a thread
                    // started per chunk allocated from fresh pages the
                    // kernel zeroed first).
                    use rayon::prelude::*;
                    chunk
                        .par_iter()
                        .map(|l| check_line(l, key))
                        .collect::<Vec<_>>()
                });
                if results.send(checked).is_err() {
                    return;
                }
            }
        });
        for checked in results_checked {
            for result in checked? {
                let (line, hand, mut check) =
                    result.map_err(|e| CliError::BadInput(format!("{name} {e}")))?;
                links.take(&mut check);
                if hand.previous != before {
                    check.problems.push(format!(
                        "previous: the line names {} as the hand on the line before, but that line holds {} — a line was removed, added or moved",
                        hand.previous.as_deref().unwrap_or("none"),
                        before.as_deref().unwrap_or("none (this is the first line)")
                    ));
                }
                before = Some(hand.id);
                summary.hands += 1;
                summary.settled += u64::from(check.settled);
                summary.records += check.records;
                summary.hashes += check.hashes;
                if !check.problems.is_empty() {
                    summary.differ += 1;
                    for problem in &check.problems {
                        writeln!(out, "line {line}: hand {}: {problem}", hand.named)
                            .map_err(|e| CliError::Failure(format!("writing the report: {e}")))?;
                    }
                }
            }
        }
        Ok((summary, links.checked))
    })
}

/// A chunk of lines, each with its number (from 1).
type Chunk = Vec<(u64, String)>;

/// Reads `input` a chunk at a time into `chunks`, until the end, an error,
/// or the checker stops taking them (it found a line that is not one).
fn read_chunks(
    mut input: impl BufRead,
    name: &str,
    chunks: &std::sync::mpsc::SyncSender<Result<Chunk, CliError>>,
) {
    let mut number = 0u64;
    loop {
        let mut chunk: Chunk = Vec::with_capacity(CHUNK_LINES);
        while chunk.len() < CHUNK_LINES {
            let mut line = String::new();
            match input.read_line(&mut line) {
                Ok(0) => break,
                Ok(_) => {
                    number += 1;
                    chunk.push((number, line));
                }
                Err(e) => {
                    let failed = CliError::BadInput(format!("{name} line {}: {e}", number + 1));
                    let _ = chunks.send(Err(failed));
                    return;
                }
            }
        }
        if chunk.is_empty() || chunks.send(Ok(chunk)).is_err() {
            return;
        }
    }
}

/// A line's hand, as the report names it and as the next line names it.
struct Named {
    /// `T1 #42 (id)`.
    named: String,
    id: String,
    /// The hand the line says is on the line before.
    previous: Option<String>,
}

/// One line read and checked: its number, its hand, what was found.
fn check_line(
    (number, text): &(u64, String),
    key: Option<&AuditKey>,
) -> Result<(u64, Named, HandCheck), LineError> {
    let text = text.trim_end_matches(['\n', '\r']);
    if text.trim().is_empty() {
        return Err(LineError {
            line: *number,
            field: None,
            message: "blank: an export has one hand on every line".into(),
        });
    }
    let hand = read_line(*number, text)?;
    let named = Named {
        named: match hand.number {
            Some(n) => format!("{} #{n} ({})", hand.table, hand.id),
            None => format!("{} ({})", hand.table, hand.id),
        },
        id: hand.id.clone(),
        previous: hand.previous.clone(),
    };
    Ok((*number, named, check_alone(hand, key)))
}
