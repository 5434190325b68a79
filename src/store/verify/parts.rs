//! The parts of a verification: each run of seqs read and checked by its
//! own thread (chain and hand replay), and the parts joined in seq order —
//! each run must begin where the one before ended and link to its hash.
//! Runs are grouped in rounds (`ROUND_RECORDS`) so the hands held between
//! reading and comparing their rows are one round's (`round.rs`).

use std::ops::ControlFlow;

use super::log_reader::{RawRecord, RecordVisitor, read_postgres, read_sqlite};
use super::replay::{HandReplay, TRUNCATED};
use super::{Problem, ReplayRecord, chain_problem, earliest};
use crate::domain::common::audit::{
    Anchor, AnchorCheck, AuditKey, ChainProblem, ChainReport, ChainVerifier,
};
use crate::store::{Db, StoreError};

/// Most parts a verification is split into: each part (a run of seqs) is
/// read and checked on its own thread, so this many CPUs are kept busy.
pub(super) const PARTS_MAX: usize = 8;
/// Fewest records worth a part of their own: below this, a thread costs
/// more than it saves.
pub(super) const PART_RECORDS_MIN: i64 = 20_000;

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

/// What a part found, once read.
pub(super) struct PartReport {
    first: Option<(i64, String)>,
    chain: Result<ChainReport, Problem>,
    hands: HandReplay,
}

/// Splits `from..=head` into at most `parts_max` runs of at least
/// `records_min` seqs (one run for a small log).
pub(super) fn split(from: i64, head: i64, parts_max: usize, records_min: i64) -> Vec<(i64, i64)> {
    let records = (head - from + 1).max(0);
    let parts = (records / records_min.max(1)).clamp(1, parts_max.max(1) as i64);
    let size = (records + parts - 1) / parts;
    (0..parts)
        .map(|i| (from + i * size, (from + (i + 1) * size - 1).min(head)))
        .filter(|(first, last)| first <= last)
        .collect()
}

/// Records a round holds: its hands' expected rows are kept until the
/// round's rows are compared (~740 bytes a hand, ~15 records a hand: ~50
/// MB a round), and the next round is read while they are, so this bounds
/// a whole verification's memory at two rounds' hands. A round
/// costs a few queries beyond its rows; its parts still get
/// `PART_RECORDS_MIN` records each.
pub(super) const ROUND_RECORDS: i64 = 1_000_000;

/// How a verification is split: rounds one after another, each read in
/// parts side by side.
#[derive(Debug, Clone, Copy)]
pub struct Split {
    /// Most parts a round is read in (one thread each).
    pub parts_max: usize,
    /// Fewest records worth a part of their own.
    pub part_records_min: i64,
    /// Records a round holds.
    pub round_records: i64,
}

/// `from..=head` in rounds, each a list of parts (one empty part when
/// there is nothing to read, so the anchors are still checked).
pub(super) fn plan(from: i64, head: i64, how: Split) -> Vec<Vec<(i64, i64)>> {
    let size = how.round_records.max(1);
    let mut rounds = Vec::new();
    let mut first = from;
    while first <= head {
        let last = head.min(first.saturating_add(size - 1));
        rounds.push(split(first, last, how.parts_max, how.part_records_min));
        first = last + 1;
    }
    if rounds.is_empty() {
        rounds.push(vec![(from, from - 1)]);
    }
    rounds
}

/// Reads and checks one part on a blocking thread. `prev_hash`: the hash
/// the first part links to (the others' links are checked when joined).
pub(super) fn read_part(
    db: &Db,
    key: &AuditKey,
    (first, last): (i64, i64),
    prev_hash: Option<String>,
    anchors: Vec<AnchorCheck>,
) -> tokio::task::JoinHandle<Result<PartReport, StoreError>> {
    let mut part = Part {
        chain: ChainVerifier::with_anchors(key.clone(), first, prev_hash, anchors),
        hands: HandReplay::default(),
        runtime: tokio::runtime::Handle::current(),
        first: None,
        problem: None,
    };
    let db = db.clone();
    tokio::task::spawn_blocking(move || {
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
    })
}

/// The parts joined so far, in seq order.
#[derive(Default)]
pub(super) struct Joined {
    pub(super) problem: Option<Problem>,
    /// A run that ends before its last seq (its last records removed) is
    /// a truncation only if no later run has records: else that run's gap
    /// is what one walk would report.
    pub(super) truncated: Option<Problem>,
    before: Option<Anchor>,
    pub(super) count: u64,
    pub(super) anchors_counted: (u64, u64),
    pub(super) head: Option<Anchor>,
    pub(super) hands_settled: u64,
}

impl Joined {
    /// Joins the next part (`last`: the walk's last); gives back its hands.
    pub(super) fn join(&mut self, part: PartReport, last: bool) -> HandReplay {
        if part.first.is_some() {
            self.truncated = None;
        }
        if let (Some(end), Some((seq, prev_hash))) = (&self.before, &part.first) {
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
                self.problem = earliest(Some(chain_problem(p)), self.problem.take());
            }
        }
        match part.chain {
            Ok(ChainReport {
                count,
                anchors_checked,
                anchors_skipped,
                head,
            }) => {
                self.count += count;
                self.anchors_counted.0 += anchors_checked;
                self.anchors_counted.1 += anchors_skipped;
                if count > 0 || self.before.is_none() {
                    self.before = head.clone();
                    self.head = head;
                }
            }
            Err(p) if p.kind == TRUNCATED && !last => {
                self.truncated = self.truncated.take().or(Some(p));
            }
            Err(p) => self.problem = earliest(self.problem.take(), Some(p)),
        }
        self.hands_settled += part.hands.settled;
        part.hands
    }
}
