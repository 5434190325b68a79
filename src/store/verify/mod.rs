//! `pitbook audit verify`: walk the chain, recompute every hash, replay every
//! hand and recompute every settlement, and compare the hands projection;
//! then replay the Tripoley games (`tripoley/replay.rs`). The loaded house
//! ways are checked and held first (`house_ways.rs`).
//! Walks the log in rounds of records (`parts.rs`), each read in one run
//! per CPU and then its hands' rows compared (`round.rs`) while the next
//! round is read, so memory holds two rounds' hands however long the log.

mod parts;
mod replay;
mod round;

pub use parts::Split;
use parts::*;
use replay::*;

mod hand_days;
mod hand_rows;
mod hand_search;
mod hand_search_describe;
mod hand_search_digest;
mod house_ways;
pub(crate) mod log_reader;
mod projections;
mod shifts;
mod staff;
mod training;

use serde::Serialize;
use sqlx::Row;

use crate::domain::common::audit::{Anchor, AnchorCheck, AuditKey, ChainProblem, GENESIS_HASH};
use crate::store::{Db, StoreError};

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

/// What the replay needs of a hand record.
struct ReplayRecord<'a> {
    seq: i64,
    recorded_at: &'a str,
    hand_id: &'a str,
    payload: &'a str,
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
    let how = Split {
        parts_max: threads.min(PARTS_MAX),
        part_records_min: PART_RECORDS_MIN,
        round_records: ROUND_RECORDS,
    };
    verify_in_parts(db, key, from, anchors, how).await
}

/// Starts the reading of rounds, in order: which part is which, the
/// anchors not yet given to a part, and the hash the first part links to.
struct RoundReads {
    part_count: usize,
    parts_started: usize,
    anchors: Vec<AnchorCheck>,
    prev_hash: Option<Option<String>>,
}

/// A round whose parts are being read: their threads, in seq order, the
/// number of its first part (from 1) and its first and last seq.
struct RoundRead {
    reads: Vec<tokio::task::JoinHandle<Result<PartReport, StoreError>>>,
    first_part: usize,
    seqs: (i64, i64),
}

impl RoundReads {
    /// Starts reading the parts `ranges` of the next round, each on a thread.
    fn start(&mut self, db: &Db, key: &AuditKey, ranges: Vec<(i64, i64)>) -> RoundRead {
        let first_part = self.parts_started + 1;
        let mut reads = Vec::with_capacity(ranges.len());
        for &(first, last) in &ranges {
            self.parts_started += 1;
            // A part checks the anchors in its run; the first also those
            // before `from` (skipped), the last those past the head (a
            // truncation).
            let mine = if self.parts_started == self.part_count {
                std::mem::take(&mut self.anchors)
            } else {
                let end = self.anchors.partition_point(|a| a.anchor.seq <= last);
                self.anchors.drain(..end).collect()
            };
            let links_to = self.prev_hash.take().flatten();
            reads.push(read_part(db, key, (first, last), links_to, mine));
        }
        RoundRead {
            reads,
            first_part,
            seqs: (ranges[0].0, ranges[ranges.len() - 1].1),
        }
    }
}

/// [`verify_with_anchors`] split as `how` says (the tests split small logs
/// finely). The log is walked in rounds; each round is split by seq into
/// runs read and checked side by side, each by its own thread: the chain
/// within each run (sequence, hashes, links, anchors), the links between
/// runs once all are read, and the hands — a run that meets a hand begun
/// in an earlier run replays that hand's earlier records from the log
/// first, and the later run's view of a hand is the one kept. Then the
/// round's rows are compared with its hands (`round.rs`) while the next
/// round's runs are read. Any problem is
/// the earliest found, as one walk from `from` would report it.
pub async fn verify_in_parts(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchors: Vec<AnchorCheck>,
    how: Split,
) -> Result<VerifyReport, StoreError> {
    // Phase times, for RUST_LOG=pitbook=debug (what to look at when it is slow).
    let started = std::time::Instant::now();
    let phase_done = |phase: &str| {
        let elapsed_ms = started.elapsed().as_millis() as u64;
        tracing::debug!(elapsed_ms, "verify: {phase} done");
    };
    let from = from.max(1);
    let (prev_hash, head_seq) = walk_start(db, from).await?;
    // The loaded house ways before any hand: a hand replays with the file
    // its table named.
    let house_way_problem = house_ways::hold_and_check(db, head_seq).await?;
    phase_done("house ways");

    let rounds = plan(from, head_seq, how);
    let mut reads = RoundReads {
        part_count: rounds.iter().map(Vec::len).sum(),
        parts_started: 0,
        anchors,
        prev_hash: Some(prev_hash),
    };
    reads.anchors.sort_by_key(|a| a.anchor.seq);
    let mut joined = Joined::default();
    let mut rows = round::RowChecks::new(db, from, head_seq).await?;
    let mut rounds = rounds.into_iter();
    let mut next = rounds.next().map(|ranges| reads.start(db, key, ranges));
    while let Some(round) = next.take() {
        let mut hands = HandReplay::default();
        for (i, read) in round.reads.into_iter().enumerate() {
            let part = read
                .await
                .map_err(|e| StoreError::Internal(format!("verify thread: {e}")))??;
            let last_part = round.first_part + i == reads.part_count;
            hands.absorb(joined.join(part, last_part));
        }
        phase_done("a round's chain walk and replay");
        if joined.problem.is_some() {
            // Nothing after the first problem is vouched for.
            break;
        }
        // The next round's runs are read while this round's rows are
        // checked (the walk on this machine's CPUs, the rows' reads mostly
        // on the database's): memory holds two rounds' hands at most.
        next = rounds.next().map(|ranges| reads.start(db, key, ranges));
        let (round_first, round_last) = round.seqs;
        if joined.truncated.is_some() || round_last < round_first {
            // A truncation pending (a later run's records decide what it
            // is), or nothing read.
            continue;
        }
        let window_first = if round_first == from {
            hand_search::rows_from(from)
        } else {
            round_first
        };
        let problem = rows.round(db, hands, (window_first, round_last)).await?;
        phase_done("a round's projection check");
        if problem.is_some() {
            // The next round's reads, begun, are let finish unread.
            joined.problem = problem;
            break;
        }
    }

    let problem = earliest(
        earliest(joined.problem.take(), joined.truncated.take()),
        house_way_problem,
    );
    let chain_head_seq = joined.head.as_ref().map_or(from - 1, |h| h.seq);
    let problem = match problem {
        Some(p) => Some(p),
        None => rows.finish(db, from).await?,
    };
    phase_done("projection check");
    let (problem, tripoley_games) =
        later_checks(db, chain_head_seq, from, problem, &phase_done).await?;
    Ok(vouched(joined, tripoley_games, problem))
}

/// The checks beside the chain and the hands, in order (the staff
/// accounts, training, shifts, the Tripoley replay, the table and game
/// rows), none looking past the first problem found: that problem, and the
/// Tripoley games replayed.
async fn later_checks(
    db: &Db,
    head_seq: i64,
    from: i64,
    problem: Option<Problem>,
    phase_done: &impl Fn(&str),
) -> Result<(Option<Problem>, u64), StoreError> {
    let problem = or_else(problem, staff::check(db, head_seq)).await?;
    phase_done("staff accounts check");
    let problem = or_else(problem, training::check(db, head_seq)).await?;
    phase_done("training check");
    let problem = or_else(problem, shifts::check(db, head_seq, from)).await?;
    phase_done("shifts check");
    let (problem, tripoley_games) =
        crate::store::tripoley::replay::first_problem(db, head_seq, problem).await?;
    phase_done("Tripoley replay");
    let problem = projections::first_problem(db, head_seq, problem).await?;
    phase_done("table and game rows");
    Ok((problem, tripoley_games))
}

/// The report of the walk: on a problem nothing is vouched for (the parts
/// read past it).
fn vouched(joined: Joined, tripoley_games: u64, problem: Option<Problem>) -> VerifyReport {
    let (count, hands_settled, tripoley_games) = if problem.is_some() {
        (0, 0, 0)
    } else {
        (joined.count, joined.hands_settled, tripoley_games)
    };
    let (anchors_checked, anchors_skipped) = if problem.is_some() {
        (0, 0)
    } else {
        joined.anchors_counted
    };
    VerifyReport {
        count,
        hands_settled,
        tripoley_games,
        anchors_checked,
        anchors_skipped,
        head: if problem.is_some() {
            None
        } else {
            joined.head.map(|h| h.to_string())
        },
        problem,
    }
}

/// Where the walk from `from` starts: the hash the record at `from` must
/// link to (None: there is no record before it), and the head when the
/// walk starts (records appended while it runs are for the next
/// verification).
async fn walk_start(db: &Db, from: i64) -> Result<(Option<String>, i64), StoreError> {
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
    let sql = "SELECT MAX(seq) FROM audit_log";
    let head_seq: Option<i64> = on_pool!(db, |pool| sqlx::query(sql).fetch_one(pool).await?.get(0));
    Ok((prev_hash, head_seq.unwrap_or(0)))
}

/// The problem already `found`, or else what `check` finds (awaited only
/// then: nothing after the first problem is looked at).
async fn or_else(
    found: Option<Problem>,
    check: impl Future<Output = Result<Option<Problem>, StoreError>>,
) -> Result<Option<Problem>, StoreError> {
    match found {
        Some(p) => Ok(Some(p)),
        None => check.await,
    }
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
