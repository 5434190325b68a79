//! `pitbook audit verify`: walk the chain, recompute every hash, replay every
//! hand and recompute every settlement, and compare the hands projection;
//! then replay the Tripoley games (`tripoley/replay.rs`).
//! Streams the log, so memory stays bounded by the hands still open.

mod hand_rows;
mod hand_times;
mod log_reader;
mod projections;
mod staff;

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::ops::Range;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};

use serde::Serialize;
use sqlx::Row;

use crate::domain::common::audit::{
    Anchor, AnchorCheck, AuditKey, ChainProblem, ChainVerifier, GENESIS_HASH, RecordFields,
};
use crate::domain::double_hand_poker::hand_record::{Check, HandEvent, HandState, Phase};
use crate::store::{Db, StoreError};
use hand_rows::Expected;
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
        ChainProblem::AnchorBeyondHead { .. } => "truncated",
    };
    Problem {
        seq: p.seq(),
        kind,
        message: p.to_string(),
    }
}

/// Records sent to a replay thread at once: at most this many, or as many
/// as fill this much text.
const REPLAY_BATCH_RECORDS: usize = 512;
const REPLAY_BATCH_BYTES: usize = 128 * 1024;
/// Batches in flight between the chain walk and each replay thread.
const REPLAY_QUEUE_BATCHES: usize = 16;

/// Records on their way to a replay thread: their text in one buffer, so a
/// batch costs two allocations, not several per record.
struct ReplayBatch {
    text: String,
    records: Vec<BatchRecord>,
}

/// A record's fields as ranges of [`ReplayBatch::text`].
struct BatchRecord {
    seq: i64,
    recorded_at: Range<usize>,
    actor: Range<usize>,
    table: Option<Range<usize>>,
    hand: Option<Range<usize>>,
    event_type: Range<usize>,
    payload: Range<usize>,
    prev_hash: Range<usize>,
    hash: Range<usize>,
}

impl ReplayBatch {
    /// Buffers sized for a full batch once, so they never grow in use: a
    /// batch goes round between the walk and its replay thread.
    fn new() -> ReplayBatch {
        ReplayBatch {
            // The record that fills a batch may pass the byte limit.
            text: String::with_capacity(REPLAY_BATCH_BYTES + REPLAY_BATCH_BYTES / 2),
            records: Vec::with_capacity(REPLAY_BATCH_RECORDS),
        }
    }

    fn is_full(&self) -> bool {
        self.records.len() >= REPLAY_BATCH_RECORDS || self.text.len() >= REPLAY_BATCH_BYTES
    }

    fn push(&mut self, record: &RawRecord<'_>) {
        let text = &mut self.text;
        let mut add = |s: &str| {
            let start = text.len();
            text.push_str(s);
            start..text.len()
        };
        let f = &record.fields;
        self.records.push(BatchRecord {
            seq: f.seq,
            recorded_at: add(f.recorded_at),
            actor: add(f.actor),
            table: f.table.map(&mut add),
            hand: f.hand.map(&mut add),
            event_type: add(f.event_type),
            payload: add(f.payload),
            prev_hash: add(f.prev_hash),
            hash: add(record.hash),
        });
    }

    /// Empties it, keeping its buffers for the next batch.
    fn clear(&mut self) {
        self.text.clear();
        self.records.clear();
    }

    fn iter(&self) -> impl Iterator<Item = RawRecord<'_>> {
        let at = |r: &Range<usize>| &self.text[r.clone()];
        self.records.iter().map(move |r| RawRecord {
            fields: RecordFields {
                seq: r.seq,
                recorded_at: at(&r.recorded_at),
                actor: at(&r.actor),
                table: r.table.as_ref().map(at),
                hand: r.hand.as_ref().map(at),
                event_type: at(&r.event_type),
                payload: at(&r.payload),
                prev_hash: at(&r.prev_hash),
            },
            hash: at(&r.hash),
        })
    }
}

/// What the replay needs of a hand record.
struct ReplayRecord<'a> {
    seq: i64,
    hand_id: &'a str,
    payload: &'a str,
}

/// Most replay threads: hands are independent, so each thread replays the
/// hands whose id hashes to it.
const REPLAY_THREADS_MAX: usize = 8;

/// One replay thread's queue and the batch being filled for it.
struct Shard {
    batch: ReplayBatch,
    /// None once the thread has stopped at its first problem.
    to_replay: Option<SyncSender<ReplayBatch>>,
    /// Batches the thread has replayed, emptied, to be filled again: fresh
    /// buffers for every batch cost more in page faults than the copy.
    replayed: Receiver<ReplayBatch>,
}

impl Shard {
    fn flush(&mut self) {
        let next = self
            .replayed
            .try_recv()
            .unwrap_or_else(|_| ReplayBatch::new());
        let batch = std::mem::replace(&mut self.batch, next);
        if let Some(to_replay) = &self.to_replay
            && !batch.records.is_empty()
            && to_replay.send(batch).is_err()
        {
            self.to_replay = None;
        }
    }
}

/// The replay thread a record goes to: a hand's records all go to one
/// (FNV-1a of its id); other records spread by seq.
fn shard_of(record: &RecordFields<'_>, shards: usize) -> usize {
    let hash = match record.hand {
        Some(hand_id) => hand_id.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
        }),
        None => record.seq.unsigned_abs(),
    };
    (hash % shards as u64) as usize
}

/// The chain walk: checks each record's place in the sequence and its link
/// to the one before as it is read, and passes every record on to a replay
/// thread, which checks its hash (the costly part) and replays hand records.
struct Walk {
    chain: ChainVerifier,
    problem: Option<Problem>,
    shards: Vec<Shard>,
}

impl Walk {
    fn flush(&mut self) {
        self.shards.iter_mut().for_each(Shard::flush);
    }
}

impl RecordVisitor for Walk {
    fn visit(&mut self, record: &RawRecord<'_>) -> ControlFlow<()> {
        if let Err(p) = self.chain.check_sequence(&record.fields) {
            self.problem = Some(chain_problem(p));
            return ControlFlow::Break(());
        }
        // A record that breaks the link is still hashed: at one seq, a
        // changed record (hash mismatch) is the problem to report.
        let linked = self.chain.link(&record.fields, record.hash);
        let count = self.shards.len();
        let shard = &mut self.shards[shard_of(&record.fields, count)];
        if shard.to_replay.is_some() {
            shard.batch.push(record);
            if shard.batch.is_full() {
                shard.flush();
            }
        }
        match linked {
            Ok(()) => ControlFlow::Continue(()),
            Err(p) => {
                self.problem = Some(chain_problem(p));
                ControlFlow::Break(())
            }
        }
    }
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

/// Verifies records from `from` (1 = all) to the head. The chain walk (read,
/// sequence and links) runs on one thread; each record's hash and the hand
/// replay (settlements) run on one thread per CPU, each with its share of
/// the records.
pub async fn verify(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchor: Option<Anchor>,
) -> Result<VerifyReport, StoreError> {
    let anchors = anchor
        .map(|anchor| AnchorCheck {
            anchor,
            origin: "--anchor".to_string(),
        })
        .into_iter()
        .collect();
    verify_with_anchors(db, key, from, anchors).await
}

/// [`verify`] against every anchor given (the anchor log's and `--anchor`s).
pub async fn verify_with_anchors(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchors: Vec<AnchorCheck>,
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

    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, REPLAY_THREADS_MAX);
    let mut shards = Vec::with_capacity(threads);
    let mut replays = Vec::with_capacity(threads);
    for _ in 0..threads {
        let (to_replay, replay_queue) = sync_channel::<ReplayBatch>(REPLAY_QUEUE_BATCHES);
        let (give_back, replayed) = sync_channel::<ReplayBatch>(REPLAY_QUEUE_BATCHES + 1);
        shards.push(Shard {
            batch: ReplayBatch::new(),
            to_replay: Some(to_replay),
            replayed,
        });
        let db = db.clone();
        let key = key.clone();
        let runtime = tokio::runtime::Handle::current();
        replays.push(tokio::task::spawn_blocking(move || {
            let mut hands = HandReplay::default();
            for mut batch in replay_queue {
                for record in batch.iter() {
                    if let Err(p) = key.check_hash(&record.fields, record.hash) {
                        return Ok::<_, StoreError>((hands, Some(chain_problem(p))));
                    }
                    let Some(hand_id) = record.fields.hand else {
                        continue;
                    };
                    let record = ReplayRecord {
                        seq: record.fields.seq,
                        hand_id,
                        payload: record.fields.payload,
                    };
                    if let Some(p) = hands.apply(&runtime, &db, &record)? {
                        return Ok((hands, Some(p)));
                    }
                }
                batch.clear();
                // A full return queue only means a fresh batch next time.
                let _ = give_back.try_send(batch);
            }
            Ok((hands, None))
        }));
    }

    let mut walk = Walk {
        chain: ChainVerifier::with_anchors(key.clone(), from, prev_hash, anchors),
        problem: None,
        shards,
    };
    walk = match db {
        Db::Sqlite(pool) => {
            let path = pool.connect_options().get_filename().to_path_buf();
            tokio::task::spawn_blocking(move || read_sqlite(&path, from, &mut walk).map(|()| walk))
                .await
                .map_err(|e| StoreError::Internal(format!("chain walk thread: {e}")))??
        }
        Db::Postgres(pool) => {
            read_postgres(pool, from, &mut walk).await?;
            walk
        }
    };
    phase_done("chain walk");
    walk.flush();
    let Walk {
        chain,
        problem: chain_problem_found,
        shards,
    } = walk;
    // Closing the queues ends the replay threads' loops.
    drop(shards);
    let mut hands = HandReplay::default();
    let mut replay_problem: Option<Problem> = None;
    for replay in replays {
        let (shard, problem) = replay
            .await
            .map_err(|e| StoreError::Internal(format!("replay thread: {e}")))??;
        hands.absorb(shard);
        replay_problem = earliest(replay_problem, problem);
    }

    let mut anchors_counted = (0, 0);
    let (count, head, chain_problem_found) = match chain_problem_found {
        Some(p) => (0, None, Some(p)),
        None => match chain.finish() {
            Ok(report) => {
                anchors_counted = (report.anchors_checked, report.anchors_skipped);
                (report.count, report.head, None)
            }
            Err(p) => (0, None, Some(chain_problem(p))),
        },
    };
    let chain_head_seq = head.as_ref().map_or(from - 1, |h| h.seq);
    let problem = earliest(chain_problem_found, replay_problem);
    phase_done("replay");
    let hands_settled = hands.settled;
    let problem = match problem {
        Some(p) => Some(p),
        None => hands.compare_projection(db, chain_head_seq, from).await?,
    };
    phase_done("projection check");
    let problem = staff::check(db, chain_head_seq, problem).await?;
    phase_done("staff accounts check");
    let (problem, tripoley_games) =
        crate::store::tripoley::replay::first_problem(db, chain_head_seq, problem).await?;
    phase_done("Tripoley replay");
    let problem = projections::first_problem(db, chain_head_seq, problem).await?;
    phase_done("table and game rows");
    let problem = hand_times::first_problem(db, chain_head_seq, problem).await?;
    phase_done("hand row times");
    let count = if problem.is_some() { 0 } else { count };
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

/// Replays hand events as they stream past; remembers each closed hand's
/// last recorded settlement to compare with the projection at the end.
#[derive(Default)]
struct HandReplay {
    /// Open hand → its state and the seq of its last record.
    open: HashMap<String, (HandState, i64)>,
    /// Closed or voided hand → what its projection row must hold (for a
    /// closed one, the record carrying its settlement: its close or latest
    /// correction).
    done: HashMap<String, Expected>,
    settled: u64,
}

impl HandReplay {
    /// Takes in another thread's share of the hands (each hand is in one).
    fn absorb(&mut self, other: HandReplay) {
        self.settled += other.settled;
        self.done.extend(other.done);
        self.open.extend(other.open);
    }

    fn apply(
        &mut self,
        runtime: &tokio::runtime::Handle,
        db: &Db,
        record: &ReplayRecord<'_>,
    ) -> Result<Option<Problem>, StoreError> {
        let hand_id = record.hand_id;
        let event: HandEvent = match HandEvent::from_json(record.payload) {
            Ok(e) => e,
            Err(e) => {
                return Ok(Some(settlement_problem(
                    record.seq,
                    format!("hand {hand_id}: unreadable event: {e}"),
                )));
            }
        };
        // The key comes out with the state and goes back with the next one:
        // no allocation per record.
        let (key, state) = match self.open.remove_entry(hand_id) {
            Some((key, (state, _))) => (Some(key), Some(state)),
            // A hand opened before `--from`, or a closed hand being corrected:
            // replay its earlier events from the log.
            None if !matches!(event, HandEvent::HandOpened { .. }) => (
                None,
                Some(runtime.block_on(self.load_before(db, hand_id, record.seq))?),
            ),
            None => (None, None),
        };
        let next = match HandState::apply_with(state, &event, Check::Replay) {
            Ok((next, _)) => next,
            Err(e) => {
                return Ok(Some(settlement_problem(
                    record.seq,
                    format!("hand {hand_id}: {e}"),
                )));
            }
        };
        let settles = next.settlement().is_some()
            && matches!(
                event,
                HandEvent::HandClosed { .. } | HandEvent::OutcomeCorrected { .. }
            );
        if settles {
            self.settled += 1;
        }
        if matches!(next.phase, Phase::Closed | Phase::Voided) {
            // Closed hands leave memory but for what their row must hold;
            // a later correction reloads them.
            let settlement_seq = match self.done.get(hand_id) {
                _ if settles => Some(record.seq),
                Some(kept) => kept.settlement_seq(),
                None => None,
            };
            self.done.insert(
                hand_id.to_string(),
                Expected::of(&next, settlement_seq, record.seq),
            );
        } else {
            self.open.insert(
                key.unwrap_or_else(|| hand_id.to_string()),
                (next, record.seq),
            );
        }
        Ok(None)
    }

    async fn load_before(&self, db: &Db, hand_id: &str, seq: i64) -> Result<HandState, StoreError> {
        let sql = "SELECT payload FROM audit_log WHERE hand_id = $1 AND seq < $2 ORDER BY seq";
        let payloads: Vec<String> = on_pool!(db, |pool| sqlx::query(sql)
            .bind(hand_id)
            .bind(seq)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| r.get(0))
            .collect());
        let events: Vec<HandEvent> = payloads
            .iter()
            .map(|p| HandEvent::from_json(p))
            .collect::<Result<_, _>>()
            .map_err(|e| StoreError::Internal(format!("hand {hand_id}: {e}")))?;
        HandState::fold(&events).map_err(|e| StoreError::Internal(format!("hand {hand_id}: {e}")))
    }

    /// Every hand's projection row against the fold of its events
    /// (`hand_rows.rs`).
    async fn compare_projection(
        self,
        db: &Db,
        head_seq: i64,
        from: i64,
    ) -> Result<Option<Problem>, StoreError> {
        let mut expected = self.done;
        for (id, (state, last_seq)) in self.open {
            expected.insert(id, Expected::of(&state, None, last_seq));
        }
        hand_rows::first_problem(db, expected, head_seq, from == 1).await
    }
}

const SETTLEMENT_MISMATCH: &str = "settlement_mismatch";

fn settlement_problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: SETTLEMENT_MISMATCH,
        message: format!("seq {seq}: {message}"),
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
mod tests {
    use super::*;

    fn at(seq: i64, kind: &'static str) -> Option<Problem> {
        Some(Problem {
            seq,
            kind,
            message: String::new(),
        })
    }

    #[test]
    fn the_earliest_problem_is_reported_and_a_changed_record_first_at_one_seq() {
        let cases = [
            (
                at(5, "broken_link"),
                at(5, "hash_mismatch"),
                "hash_mismatch",
                5,
            ),
            (
                at(5, "hash_mismatch"),
                at(5, "broken_link"),
                "hash_mismatch",
                5,
            ),
            (at(5, SETTLEMENT_MISMATCH), at(5, "gap"), "gap", 5),
            (
                at(4, SETTLEMENT_MISMATCH),
                at(5, "hash_mismatch"),
                SETTLEMENT_MISMATCH,
                4,
            ),
            (None, at(9, "anchor_mismatch"), "anchor_mismatch", 9),
        ];
        for (a, b, kind, seq) in cases {
            let found = earliest(a, b).unwrap();
            assert_eq!((found.kind, found.seq), (kind, seq));
        }
        assert!(earliest(None, None).is_none());
    }

    #[test]
    fn a_hands_records_all_go_to_one_replay_thread() {
        let record = |seq, hand| RecordFields {
            seq,
            recorded_at: "",
            actor: "",
            table: None,
            hand,
            event_type: "",
            payload: "",
            prev_hash: "",
        };
        let first = shard_of(&record(1, Some("h-1")), 4);
        assert!((2..50).all(|seq| shard_of(&record(seq, Some("h-1")), 4) == first));
        // Records of no hand spread over every thread.
        let used: std::collections::BTreeSet<usize> =
            (1..9).map(|seq| shard_of(&record(seq, None), 4)).collect();
        assert_eq!(used.len(), 4);
    }
}
