//! `pitbook history check FILE`: an export checked offline, with no
//! database (docs/hand-history.md). Lines are read a chunk at a time and
//! checked on every CPU (`domain::history_export::check_alone`: each hand
//! re-settled with the engine and compared with its line, each record's
//! HMAC with the key); the links between records are then checked in the
//! file's order. The three run at once, each on its own thread, a chunk
//! apart: memory holds about four chunks of 32 MiB, whatever the file's
//! size.

use std::io::{Read, Write};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender};

use rayon::prelude::*;

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

/// The bytes of lines checked together: enough to keep every CPU busy
/// (about 2,000 hands of 15 kB), few enough to keep memory small.
const CHUNK_BYTES: usize = 32 << 20;

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
    let input: Box<dyn Read + Send> = if args.file.as_os_str() == "-" {
        Box::new(std::io::stdin())
    } else {
        let file = std::fs::File::open(&args.file)
            .map_err(|e| CliError::Failure(format!("cannot read {name}: {e}")))?;
        Box::new(file)
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
    input: impl Read + Send,
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
    let (spare, spares) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        scope.spawn(move || read_chunks(input, name, CHUNK_BYTES, &chunks, &spares));
        scope.spawn(move || {
            for chunk in chunks_read {
                let checked = chunk.map(|chunk| {
                    // On rayon's threads, kept for the whole file (a thread
                    // started per chunk allocated from fresh pages the
                    // kernel zeroed first).
                    let checked = chunk
                        .lines()
                        .map(|l| check_line(l, key))
                        .collect::<Vec<_>>();
                    let _ = spare.send(chunk.bytes);
                    checked
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

/// Whole lines read together: their bytes, where each ends, and the
/// number of the first (from 1). One buffer per chunk, handed back for
/// the next once checked, rather than a string per line: a line's own
/// allocation, its copy out of the reader's buffer and the kernel zeroing
/// fresh pages for it cost a tenth of the check.
struct Chunk {
    first: u64,
    bytes: Vec<u8>,
    /// The end of each line, its newline excluded.
    ends: Vec<usize>,
}

impl Chunk {
    /// Each line with its number.
    fn lines(&self) -> impl IndexedParallelIterator<Item = (u64, &[u8])> + '_ {
        self.ends.par_iter().enumerate().map(|(i, &end)| {
            let start = if i == 0 { 0 } else { self.ends[i - 1] + 1 };
            (self.first + i as u64, &self.bytes[start..end])
        })
    }
}

/// Reads `input` a chunk (whole lines of at least `chunk_bytes`) at a
/// time into `chunks`, each in a buffer the checker hands back through
/// `spare`, until the end, an error, or the checker stops taking them (it
/// found a line that is not one).
fn read_chunks(
    mut input: impl Read,
    name: &str,
    chunk_bytes: usize,
    chunks: &SyncSender<Result<Chunk, CliError>>,
    spare: &Receiver<Vec<u8>>,
) {
    let mut first = 1u64;
    // The start of a line the chunk before ended in the middle of.
    let mut carried: Vec<u8> = Vec::new();
    loop {
        let mut bytes = spare.try_recv().unwrap_or_default();
        bytes.clear();
        bytes.append(&mut carried);
        // Whole lines of at least chunk_bytes, or the rest of the input:
        // cut after the last newline, looked for only in what came since
        // the last look (with none there, reading on finds a later one).
        let mut searched = 0;
        let (end, at_end) = loop {
            if bytes.len() >= chunk_bytes
                && let Some(last) = memchr::memrchr(b'\n', &bytes[searched..])
            {
                break (searched + last + 1, false);
            }
            searched = bytes.len();
            match fill(&mut input, &mut bytes) {
                Ok(0) => break (bytes.len(), true),
                Ok(_) => {}
                Err(e) => {
                    let failed = CliError::BadInput(format!("{name} line {first}: {e}"));
                    let _ = chunks.send(Err(failed));
                    return;
                }
            }
        };
        carried.extend_from_slice(&bytes[end..]);
        bytes.truncate(end);
        let mut ends: Vec<usize> = memchr::memchr_iter(b'\n', &bytes).collect();
        if bytes.last().is_some_and(|&b| b != b'\n') {
            ends.push(bytes.len()); // the last line, with no newline
        }
        let lines = ends.len() as u64;
        if lines == 0 {
            return;
        }
        if chunks.send(Ok(Chunk { first, bytes, ends })).is_err() || at_end {
            return;
        }
        first += lines;
    }
}

/// Reads up to 1 MiB more onto `bytes`; how many bytes came (0: the end).
fn fill(input: &mut impl Read, bytes: &mut Vec<u8>) -> std::io::Result<usize> {
    const READ_BYTES: usize = 1 << 20;
    let len = bytes.len();
    bytes.resize(len + READ_BYTES, 0);
    let read = loop {
        match input.read(&mut bytes[len..]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            read => break read,
        }
    };
    bytes.truncate(len + *read.as_ref().unwrap_or(&0));
    read
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
    (number, bytes): (u64, &[u8]),
    key: Option<&AuditKey>,
) -> Result<(u64, Named, HandCheck), LineError> {
    let refuse = |message: String| LineError {
        line: number,
        field: None,
        message,
    };
    let text = std::str::from_utf8(bytes)
        .map_err(|e| {
            refuse(format!(
                "not UTF-8 text (byte {}): an export is UTF-8",
                e.valid_up_to() + 1
            ))
        })?
        .trim_end_matches('\r');
    if text.trim().is_empty() {
        return Err(refuse("blank: an export has one hand on every line".into()));
    }
    let hand = read_line(number, text)?;
    let named = Named {
        named: match hand.number {
            Some(n) => format!("{} #{n} ({})", hand.table, hand.id),
            None => format!("{} ({})", hand.table, hand.id),
        },
        id: hand.id.clone(),
        previous: hand.previous.clone(),
    };
    Ok((number, named, check_alone(hand, key)))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Gives its bytes `step` at a time, so lines cross reads.
    struct Trickle<'a> {
        bytes: &'a [u8],
        step: usize,
    }

    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let n = self.step.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Every line, numbered, as the chunks give them.
    fn lines_read(text: &str, step: usize, chunk_bytes: usize) -> Vec<(u64, String)> {
        let (send, chunks) = std::sync::mpsc::sync_channel(64);
        let (_spare, spares) = std::sync::mpsc::channel();
        let input = Trickle {
            bytes: text.as_bytes(),
            step,
        };
        read_chunks(input, "f", chunk_bytes, &send, &spares);
        drop(send);
        let mut lines = Vec::new();
        for chunk in chunks {
            let chunk = chunk.unwrap();
            let mut got: Vec<(u64, String)> = chunk
                .lines()
                .map(|(n, l)| (n, String::from_utf8(l.to_vec()).unwrap()))
                .collect();
            lines.append(&mut got);
        }
        lines
    }

    #[test]
    fn chunks_hold_whole_lines_numbered_in_order_however_the_input_arrives() {
        let text = "first\nsecond line\n\nfourth\r\nlast, with no newline";
        let want: Vec<(u64, String)> = text
            .split('\n')
            .enumerate()
            .map(|(i, l)| (i as u64 + 1, l.to_string()))
            .collect();
        for step in [1, 2, 7, 1 << 20] {
            for chunk_bytes in [1, 5, 12, 1 << 20] {
                assert_eq!(
                    lines_read(text, step, chunk_bytes),
                    want,
                    "{step} {chunk_bytes}"
                );
            }
        }
        let ended = lines_read("a\nb\n", 1, 1);
        assert_eq!(ended, [(1, "a".to_string()), (2, "b".to_string())]);
        assert!(lines_read("", 3, 1).is_empty());
    }

    #[test]
    fn a_line_that_is_not_utf8_is_refused_by_its_number() {
        let e = check_line((7, b"{\"format\": \"\xff\"}"), None)
            .err()
            .unwrap();
        assert_eq!(e.line, 7);
        assert!(e.message.starts_with("not UTF-8 text (byte 13)"), "{e}");
    }
}
