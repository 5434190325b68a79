//! An export written (docs/hand-history.md): the hands the filter keeps,
//! read a batch at a time (`store::history::export`), each built from its
//! records by the core (`domain::history_export::build`) on every CPU, and
//! written in order as JSON lines or CSV rows to any `Write` — a file or
//! stdout for `pitbook history export`, the streamed body of
//! `/history/export` and `/api/v1/hands/export`. Blocking: run it on a
//! blocking thread.

use std::io::Write;

use chrono_tz::Tz;

use crate::domain::history::HandFilter;
use crate::domain::history_export::{self, BuildError, CSV_HEADER, HandSource};
use crate::store::history::export::next_batch;
use crate::store::{Db, StoreError};

/// What an export is written as.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// One hand per line, `pitbook-hand-history/1`: the checkable export.
    Jsonl,
    /// One row per wager, for a spreadsheet.
    Csv,
}

impl Format {
    pub fn parse(text: &str) -> Option<Format> {
        match text.trim() {
            "jsonl" => Some(Format::Jsonl),
            "csv" => Some(Format::Csv),
            _ => None,
        }
    }

    pub fn extension(self) -> &'static str {
        match self {
            Format::Jsonl => "jsonl",
            Format::Csv => "csv",
        }
    }

    pub fn content_type(self) -> &'static str {
        match self {
            Format::Jsonl => "application/x-ndjson; charset=utf-8",
            Format::Csv => "text/csv; charset=utf-8",
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ExportError {
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A hand's records do not make its hand: the log is not what pitbook
    /// wrote (`pitbook audit verify` says where).
    #[error("hand {hand}: {error}; run pitbook audit verify")]
    Build { hand: String, error: BuildError },
    #[error("writing the export: {0}")]
    Write(#[from] std::io::Error),
}

/// Writes every hand `filter` keeps (paging ignored: the whole set),
/// newest first, to `out`; returns how many. `bounds`: the filter's time
/// range in UTC; `zone`: the cardroom's, for the CSV's local time.
pub fn write_export(
    db: &Db,
    runtime: &tokio::runtime::Handle,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    format: Format,
    zone: Tz,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    if format == Format::Csv {
        let mut header = csv::Writer::from_writer(Vec::new());
        header.write_record(CSV_HEADER).map_err(csv_error)?;
        out.write_all(&header.into_inner().map_err(|e| e.into_error())?)?;
    }
    // Two stages, so the log is read while the batch before is built and
    // written: the reader sends each batch's sources (ids of the hand
    // before included) through a channel one batch deep, which bounds
    // memory to about three batches.
    let (send, receive) = std::sync::mpsc::sync_channel::<Batch>(1);
    std::thread::scope(|scope| {
        let reader = scope.spawn(move || read_all(db, runtime, filter, bounds, send));
        // On a failed write `receive` is dropped with the call, which
        // stops the reader before it is joined.
        let written = build_and_write(receive, format, zone, out);
        let read = reader
            .join()
            .unwrap_or_else(|p| std::panic::resume_unwind(p));
        read?;
        written
    })
}

/// Builds and writes each batch `receive` brings, in order; returns how
/// many hands.
fn build_and_write(
    receive: std::sync::mpsc::Receiver<Batch>,
    format: Format,
    zone: Tz,
    out: &mut dyn Write,
) -> Result<u64, ExportError> {
    let mut written = 0;
    // The runs' buffers, kept from batch to batch: a fresh one each time
    // had its pages faulted in and zeroed again (a sixth of the export's
    // time).
    let mut buffers: Vec<Vec<u8>> = Vec::new();
    for sources in receive {
        written += sources.len() as u64;
        for chunk in built(sources, format, zone, &mut buffers)? {
            out.write_all(&chunk)?;
            buffers.push(chunk);
        }
    }
    out.flush()?;
    Ok(written)
}

/// One batch's hands, each with the id of the hand on the line before.
type Batch = Vec<(HandSource, Option<String>)>;

/// Reads every batch `filter` keeps, in order, into `send` (stopping
/// early, without error, when the receiver has gone).
fn read_all(
    db: &Db,
    runtime: &tokio::runtime::Handle,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    send: std::sync::mpsc::SyncSender<Batch>,
) -> Result<(), ExportError> {
    let mut after = None;
    let mut previous: Option<String> = None;
    loop {
        let (sources, next) = next_batch(db, runtime, filter, bounds.clone(), after.as_ref())?;
        let sources: Batch = sources
            .into_iter()
            .map(|s| {
                let before = previous.replace(s.id.clone());
                (s, before)
            })
            .collect();
        if !sources.is_empty() && send.send(sources).is_err() {
            return Ok(());
        }
        match next {
            Some(cursor) => after = Some(cursor),
            None => return Ok(()),
        }
    }
}

fn csv_error(e: csv::Error) -> ExportError {
    ExportError::Write(e.into())
}

/// Hands a run builds: small enough that the CPUs finish a batch
/// together (a thread done early takes the next run rather than waiting
/// on the slowest), large enough that taking one costs nothing.
const RUN_HANDS: usize = 32;

/// The hands built and written, in order: split into runs of
/// [`RUN_HANDS`], which rayon's threads (one per CPU, kept for the whole
/// export) take one after another, each into a buffer of its own. Threads
/// started for each batch cost a fifth of the export's CPU: each new
/// thread's allocations came from fresh pages the kernel zeroed first
/// (BENCHMARKS.md). Each hand comes with the id of the hand on the line
/// before.
fn built(
    sources: Vec<(HandSource, Option<String>)>,
    format: Format,
    zone: Tz,
    buffers: &mut Vec<Vec<u8>>,
) -> Result<Vec<Vec<u8>>, ExportError> {
    use rayon::prelude::*;
    use std::sync::Mutex;

    let mut runs: Vec<Batch> = Vec::new();
    let mut sources = sources.into_iter().peekable();
    while sources.peek().is_some() {
        runs.push(sources.by_ref().take(RUN_HANDS).collect());
    }
    let pool = Mutex::new(std::mem::take(buffers));
    let done = runs
        .into_par_iter()
        .map(|run| {
            let mut buffer = lock(&pool).pop().unwrap_or_default();
            buffer.clear();
            lines(run, format, zone, buffer)
        })
        .collect::<Result<Vec<_>, _>>();
    *buffers = pool.into_inner().unwrap_or_else(|p| p.into_inner());
    done
}

/// A lock no panic has left poisoned in any way that matters here: a
/// panicking run is resumed on the caller's thread by rayon.
fn lock<T>(m: &std::sync::Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The run's lines (or rows) written into `out` (empty, its capacity kept
/// from an earlier batch).
fn lines(
    run: Vec<(HandSource, Option<String>)>,
    format: Format,
    zone: Tz,
    mut out: Vec<u8>,
) -> Result<Vec<u8>, ExportError> {
    out.reserve(run.len() * 4096);
    let mut csv =
        csv::WriterBuilder::new()
            .has_headers(false)
            .from_writer(if format == Format::Csv {
                std::mem::take(&mut out)
            } else {
                Vec::new()
            });
    for (source, previous) in run {
        let hand = source.id.clone();
        let mut exported =
            history_export::build(source).map_err(|error| ExportError::Build { hand, error })?;
        exported.previous = previous;
        match format {
            Format::Jsonl => {
                history_export::write_line(&mut exported, &mut out)
                    .map_err(std::io::Error::from)?;
                out.push(b'\n');
            }
            Format::Csv => {
                let local = crate::web::time::when(zone, &exported.opened_at).local;
                for row in history_export::csv_rows(&exported, &local) {
                    csv.write_record(&row).map_err(csv_error)?;
                }
            }
        }
    }
    if format == Format::Csv {
        out = csv.into_inner().map_err(|e| e.into_error())?;
    }
    Ok(out)
}
