//! `pitbook audit verify`: walk the chain, recompute every hash, replay every
//! hand and recompute every settlement, and compare the hands projection;
//! then replay the Tripoley games (`tripoley/replay.rs`). The loaded house
//! ways are checked and held first (`house_ways.rs`).
//! Streams the log in one run per CPU, so memory stays bounded by the hands
//! still open.

mod replay;

use replay::*;

mod hand_days;
mod hand_rows;
mod hand_search;
mod hand_search_describe;
mod house_ways;
pub(crate) mod log_reader;
mod projections;
mod shifts;
mod staff;
mod training;

use std::ops::ControlFlow;

use serde::Serialize;
use sqlx::Row;

use crate::domain::common::audit::{
    Anchor, AnchorCheck, AuditKey, ChainProblem, ChainReport, ChainVerifier, GENESIS_HASH,
};
use crate::store::{Db, StoreError};
use log_reader::{RawRecord, RecordVisitor, read_postgres, read_sqlite};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Records checked.
    pub count: u64,
    /// Hands whose settlement was recomputed.
    pub hands_settled: u64,
    /// Tripoley games replayed from their first record.
    pub tripoley_games: u64,
    /// Anchors found in the chain with their hash (`--anchor`, anchor log).
    pub anchors_checked: u64,
    /// Anchors before `--from`, not checked.
    pub anchors_skipped: u64,
    pub head: Option<String>,
    /// The first thing wrong, if any.
    pub problem: Option<Problem>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Problem {
    pub seq: i64,
    pub kind: &'static str,
    pub message: String,
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.problem.is_none()
    }
}

fn chain_problem(p: ChainProblem) -> Problem {
    let kind = match p {
        ChainProblem::Gap { .. } => "gap",
        ChainProblem::Reordered { .. } => "reordering",
        ChainProblem::BrokenLink { .. } => "broken_link",
        ChainProblem::HashMismatch { .. } => "hash_mismatch",
        ChainProblem::AnchorMismatch { .. } => "anchor_mismatch",
        ChainProblem::AnchorBeyondHead { .. } => TRUNCATED,
    };
    Problem {
        seq: p.seq(),
        kind,
        message: p.to_string(),
    }
}

/// Most parts a verification is split into: each part (a run of seqs) is
/// read and checked on its own thread, so this many CPUs are kept busy.
const PARTS_MAX: usize = 8;
/// Fewest records worth a part of their own: below this, a thread costs
/// more than it saves.
const PART_RECORDS_MIN: i64 = 20_000;

/// One part of the log, `first..=last`, checked by one thread: every
/// record's place, hash and link (the first record's link is checked when
/// the parts are joined), and every hand record replayed.
struct Part {
    chain: ChainVerifier,
    hands: HandReplay,
    runtime: tokio::runtime::Handle,
    /// The first record read: its seq and the hash it links to.
    first: Option<(i64, String)>,
    problem: Option<Problem>,
}

impl RecordVisitor for Part {
    fn visit(&mut self, record: &RawRecord<'_>) -> ControlFlow<()> {
        let fields = &record.fields;
        if self.first.is_none() {
            self.first = Some((fields.seq, fields.prev_hash.to_string()));
        }
        if let Err(p) = self.chain.check(fields, record.hash) {
            self.problem = Some(chain_problem(p));
            return ControlFlow::Break(());
        }
        let Some(hand_id) = fields.hand else {
            return ControlFlow::Continue(());
        };
        let record = ReplayRecord {
            seq: fields.seq,
            recorded_at: fields.recorded_at,
            hand_id,
            payload: fields.payload,
        };
        match self.hands.apply(&record) {
            None => ControlFlow::Continue(()),
            Some(p) => {
                self.problem = Some(p);
                ControlFlow::Break(())
            }
        }
    }
}

/// What the replay needs of a hand record.
struct ReplayRecord<'a> {
    seq: i64,
    recorded_at: &'a str,
    hand_id: &'a str,
    payload: &'a str,
}

/// What a part found, once read.
struct PartReport {
    first: Option<(i64, String)>,
    chain: Result<ChainReport, Problem>,
    hands: HandReplay,
}

/// Which of two problems at one seq is reported: a record's own hash
/// first (it was changed), then its place in the chain, then its replay.
fn rank(problem: &Problem) -> u8 {
    match problem.kind {
        "hash_mismatch" => 0,
        SETTLEMENT_MISMATCH => 2,
        _ => 1,
    }
}

/// The problem to report: the earliest.
fn earliest(a: Option<Problem>, b: Option<Problem>) -> Option<Problem> {
    match (a, b) {
        (Some(a), Some(b)) => Some(if (b.seq, rank(&b)) < (a.seq, rank(&a)) {
            b
        } else {
            a
        }),
        (a, b) => a.or(b),
    }
}

/// Splits `from..=head` into at most `parts_max` runs of at least
/// `records_min` seqs (one run for a small log).
fn split(from: i64, head: i64, parts_max: usize, records_min: i64) -> Vec<(i64, i64)> {
    let records = (head - from + 1).max(0);
    let parts = (records / records_min.max(1)).clamp(1, parts_max.max(1) as i64);
    let size = (records + parts - 1) / parts;
    (0..parts)
        .map(|i| (from + i * size, (from + (i + 1) * size - 1).min(head)))
        .filter(|(first, last)| first <= last)
        .collect()
}

/// Verifies records from `from` (1 = all) to the head.
pub async fn verify(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchor: Option<Anchor>,
) -> Result<VerifyReport, StoreError> {
    verify_with_anchors(db, key, from, AnchorCheck::flag(anchor)).await
}

/// [`verify`] against every anchor given (the anchor log's and `--anchor`s),
/// on one thread per CPU.
pub async fn verify_with_anchors(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchors: Vec<AnchorCheck>,
) -> Result<VerifyReport, StoreError> {
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    verify_in_parts(
        db,
        key,
        from,
        anchors,
        threads.min(PARTS_MAX),
        PART_RECORDS_MIN,
    )
    .await
}

/// [`verify_with_anchors`] split into at most `parts_max` parts of at least
/// `part_records_min` records (the tests split small logs finely). The log
/// is split by seq into runs read and checked side by side, each by its own
/// thread: the chain within each run (sequence, hashes, links, anchors), the
/// links between runs once all are read, and the hands — a run that meets a
/// hand begun in an earlier run replays that hand's earlier records from
/// the log first, and the later run's view of a hand is the one kept. Any
/// problem is the earliest found, as one walk from `from` would report it.
pub async fn verify_in_parts(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchors: Vec<AnchorCheck>,
    parts_max: usize,
    part_records_min: i64,
) -> Result<VerifyReport, StoreError> {
    // Phase times, for RUST_LOG=pitbook=debug (what to look at when it is slow).
    let started = std::time::Instant::now();
    let phase_done = |phase: &str| {
        let elapsed_ms = started.elapsed().as_millis() as u64;
        tracing::debug!(elapsed_ms, "verify: {phase} done");
    };
    let from = from.max(1);
    let prev_hash = if from == 1 {
        Some(GENESIS_HASH.to_string())
    } else {
        let sql = "SELECT hash FROM audit_log WHERE seq = $1";
        on_pool!(db, |pool| sqlx::query(sql)
            .bind(from - 1)
            .fetch_optional(pool)
            .await?
            .map(|r| r.get(0)))
    };
    // The head when the walk starts: records appended while it runs are
    // for the next verification.
    let sql = "SELECT MAX(seq) FROM audit_log";
    let head_seq: Option<i64> = on_pool!(db, |pool| sqlx::query(sql).fetch_one(pool).await?.get(0));
    let ranges = split(from, head_seq.unwrap_or(0), parts_max, part_records_min);
    // The loaded house ways before any hand: a hand replays with the file
    // its table named.
    let house_way_problem = house_ways::hold_and_check(db, head_seq.unwrap_or(0)).await?;
    phase_done("house ways");

    let mut reads = Vec::with_capacity(ranges.len().max(1));
    let mut anchors = anchors;
    anchors.sort_by_key(|a| a.anchor.seq);
    let ranges_or_empty = if ranges.is_empty() {
        vec![(from, from - 1)]
    } else {
        ranges
    };
    let part_count = ranges_or_empty.len();
    for (i, &(first, last)) in ranges_or_empty.iter().enumerate() {
        // A part checks the anchors in its run; the first also those before
        // `from` (skipped), the last those past the head (a truncation).
        let mine = if i + 1 == part_count {
            std::mem::take(&mut anchors)
        } else {
            let end = anchors.partition_point(|a| a.anchor.seq <= last);
            anchors.drain(..end).collect()
        };
        let mut part = Part {
            chain: ChainVerifier::with_anchors(
                key.clone(),
                first,
                if i == 0 { prev_hash.clone() } else { None },
                mine,
            ),
            hands: HandReplay::default(),
            runtime: tokio::runtime::Handle::current(),
            first: None,
            problem: None,
        };
        let db = db.clone();
        reads.push(tokio::task::spawn_blocking(move || {
            match &db {
                Db::Sqlite(pool) => {
                    let path = pool.connect_options().get_filename().to_path_buf();
                    read_sqlite(&path, first, last, &mut part)?;
                }
                Db::Postgres(pool) => {
                    let runtime = part.runtime.clone();
                    runtime.block_on(read_postgres(pool, first, last, &mut part))?;
                }
            }
            let waiting = part.runtime.block_on(part.hands.replay_waiting(&db))?;
            let chain = match earliest(part.problem, waiting) {
                Some(p) => Err(p),
                None => part.chain.finish().map_err(chain_problem),
            };
            Ok::<_, StoreError>(PartReport {
                first: part.first,
                chain,
                hands: part.hands,
            })
        }));
    }
    let mut parts = Vec::with_capacity(reads.len());
    for read in reads {
        parts.push(
            read.await
                .map_err(|e| StoreError::Internal(format!("verify thread: {e}")))??,
        );
    }
    phase_done("chain walk and replay");

    // Join the parts: each run must begin where the one before ended, and
    // link to its last hash.
    let mut problem: Option<Problem> = None;
    let mut before: Option<Anchor> = None;
    let mut count = 0;
    let mut anchors_counted = (0, 0);
    let mut head = None;
    let mut hands = HandReplay::default();
    // A run that ends before its last seq (its last records removed) is a
    // truncation only if no later run has records: else that run's gap is
    // what one walk would report.
    let mut truncated: Option<Problem> = None;
    let last_part = parts.len().saturating_sub(1);
    for (i, part) in parts.into_iter().enumerate() {
        if part.first.is_some() {
            truncated = None;
        }
        if let (Some(end), Some((seq, prev_hash))) = (&before, &part.first) {
            let joined = if *seq != end.seq + 1 {
                Err(ChainProblem::Gap {
                    expected: end.seq + 1,
                    found: *seq,
                })
            } else if *prev_hash != end.hash {
                Err(ChainProblem::BrokenLink { seq: *seq })
            } else {
                Ok(())
            };
            if let Err(p) = joined {
                problem = earliest(Some(chain_problem(p)), problem);
            }
        }
        match part.chain {
            Ok(report) => {
                count += report.count;
                anchors_counted.0 += report.anchors_checked;
                anchors_counted.1 += report.anchors_skipped;
                if report.count > 0 || before.is_none() {
                    before = report.head.clone();
                    head = report.head;
                }
            }
            Err(p) if p.kind == TRUNCATED && i < last_part => {
                truncated = truncated.or(Some(p));
            }
            Err(p) => problem = earliest(problem, Some(p)),
        }
        hands.absorb(part.hands);
    }
    let problem = earliest(earliest(problem, truncated), house_way_problem);
    let chain_head_seq = head.as_ref().map_or(from - 1, |h| h.seq);
    let hands_settled = hands.settled;
    let problem = match problem {
        Some(p) => Some(p),
        None => hands.compare_projection(db, chain_head_seq, from).await?,
    };
    phase_done("projection check");
    let problem = staff::check(db, chain_head_seq, problem).await?;
    phase_done("staff accounts check");
    let problem = training::check(db, chain_head_seq, problem).await?;
    phase_done("training check");
    let problem = shifts::check(db, chain_head_seq, from, problem).await?;
    phase_done("shifts check");
    let (problem, tripoley_games) =
        crate::store::tripoley::replay::first_problem(db, chain_head_seq, problem).await?;
    phase_done("Tripoley replay");
    let problem = projections::first_problem(db, chain_head_seq, problem).await?;
    phase_done("table and game rows");
    // On a problem nothing is vouched for (the parts read past it).
    let (count, hands_settled, tripoley_games) = if problem.is_some() {
        (0, 0, 0)
    } else {
        (count, hands_settled, tripoley_games)
    };
    let (anchors_checked, anchors_skipped) = if problem.is_some() {
        (0, 0)
    } else {
        anchors_counted
    };
    Ok(VerifyReport {
        count,
        hands_settled,
        tripoley_games,
        anchors_checked,
        anchors_skipped,
        head: if problem.is_some() {
            None
        } else {
            head.map(|h| h.to_string())
        },
        problem,
    })
}

/// The current head, for the shift report.
pub async fn anchor(db: &Db) -> Result<Option<Anchor>, StoreError> {
    let sql = "SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1";
    Ok(on_pool!(db, |pool| sqlx::query(sql)
        .fetch_optional(pool)
        .await?
        .map(|r| Anchor {
            seq: r.get(0),
            hash: r.get(1)
        })))
}

#[cfg(test)]
mod tests;
