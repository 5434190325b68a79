//! `pitbook audit verify`: walk the chain, recompute every hash, replay every
//! hand and recompute every settlement, and compare the hands projection.
//! Streams the log, so memory stays bounded by the hands still open.

use std::collections::HashMap;

use futures_util::TryStreamExt;
use serde::Serialize;
use sqlx::Row;

use super::audit::{AuditRecord, SELECT_RECORD};
use super::{Db, StoreError};
use crate::domain::audit::{Anchor, AuditKey, ChainProblem, ChainVerifier, GENESIS_HASH};
use crate::domain::hand_record::{Check, HandEvent, HandState, Phase};

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VerifyReport {
    /// Records checked.
    pub count: u64,
    /// Hands whose settlement was recomputed.
    pub hands_settled: u64,
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

/// Records in flight between the chain walk and the hand replay.
const REPLAY_QUEUE_RECORDS: usize = 4096;

/// Verifies records from `from` (1 = all) to the head. The chain walk (read
/// and hash) and the hand replay (settlements) run on two threads.
pub async fn verify(
    db: &Db,
    key: &AuditKey,
    from: i64,
    anchor: Option<Anchor>,
) -> Result<VerifyReport, StoreError> {
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
    let mut chain = ChainVerifier::new(key.clone(), from, prev_hash, anchor);

    let (to_replay, replay_queue) =
        std::sync::mpsc::sync_channel::<AuditRecord>(REPLAY_QUEUE_RECORDS);
    let replay = {
        let db = db.clone();
        let runtime = tokio::runtime::Handle::current();
        tokio::task::spawn_blocking(move || {
            let mut hands = HandReplay::default();
            for record in replay_queue {
                if let Some(p) = hands.apply(&runtime, &db, &record)? {
                    return Ok::<_, StoreError>((hands, Some(p)));
                }
            }
            Ok((hands, None))
        })
    };

    let sql = format!("{SELECT_RECORD} WHERE seq >= $1 ORDER BY seq");
    let chain_problem_found: Option<Problem> = on_pool!(db, |pool| {
        let mut rows = sqlx::query_as::<_, AuditRecord>(&sql)
            .bind(from)
            .fetch(pool);
        let mut problem = None;
        let mut replaying = true;
        while let Some(record) = rows.try_next().await? {
            if let Err(p) = chain.check(&record.fields(), &record.hash) {
                problem = Some(chain_problem(p));
                break;
            }
            // The replay thread stops at its first problem; then only the
            // chain walk goes on.
            if replaying && record.hand_id.is_some() && to_replay.send(record).is_err() {
                replaying = false;
            }
        }
        problem
    });
    drop(to_replay);
    let (hands, replay_problem) = replay
        .await
        .map_err(|e| StoreError::Internal(format!("replay thread: {e}")))??;

    let (count, head, chain_problem_found) = match chain_problem_found {
        Some(p) => (0, None, Some(p)),
        None => match chain.finish() {
            Ok(report) => (report.count, report.head.map(|a| a.to_string()), None),
            Err(p) => (0, None, Some(chain_problem(p))),
        },
    };
    // The earliest problem is the one reported.
    let problem = match (chain_problem_found, replay_problem) {
        (Some(c), Some(r)) => Some(if r.seq < c.seq { r } else { c }),
        (c, r) => c.or(r),
    };
    let problem = match problem {
        Some(p) => Some(p),
        None => hands.compare_projection(db).await?,
    };
    let count = if problem.is_some() { 0 } else { count };
    Ok(VerifyReport {
        count,
        hands_settled: hands.settled,
        head: if problem.is_some() { None } else { head },
        problem,
    })
}

/// Replays hand events as they stream past; remembers each closed hand's
/// last recorded settlement to compare with the projection at the end.
#[derive(Default)]
struct HandReplay {
    open: HashMap<String, HandState>,
    closed: HashMap<String, (i64, String)>,
    settled: u64,
}

impl HandReplay {
    fn apply(
        &mut self,
        runtime: &tokio::runtime::Handle,
        db: &Db,
        record: &AuditRecord,
    ) -> Result<Option<Problem>, StoreError> {
        let Some(hand_id) = &record.hand_id else {
            return Ok(None);
        };
        let event: HandEvent = match HandEvent::from_json(&record.payload) {
            Ok(e) => e,
            Err(e) => {
                return Ok(Some(settlement_problem(
                    record.seq,
                    format!("hand {hand_id}: unreadable event: {e}"),
                )));
            }
        };
        let state = match self.open.remove(hand_id) {
            Some(state) => Some(state),
            // A hand opened before `--from`, or a closed hand being corrected:
            // replay its earlier events from the log.
            None if !matches!(event, HandEvent::HandOpened { .. }) => {
                Some(runtime.block_on(self.load_before(db, hand_id, record.seq))?)
            }
            None => None,
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
        if let Some(settlement) = next.settlement().filter(|_| {
            matches!(
                event,
                HandEvent::HandClosed { .. } | HandEvent::OutcomeCorrected { .. }
            )
        }) {
            self.settled += 1;
            self.closed
                .insert(hand_id.clone(), (record.seq, settlement.text().to_string()));
        }
        if matches!(next.phase, Phase::Closed | Phase::Voided) {
            // Closed hands leave memory; a later correction reloads them.
            if next.phase == Phase::Voided {
                self.closed.remove(hand_id);
            }
        } else {
            self.open.insert(hand_id.clone(), next);
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

    /// The projection's stored settlement of every closed hand must be the
    /// one the events produce.
    async fn compare_projection(&self, db: &Db) -> Result<Option<Problem>, StoreError> {
        let sql = "SELECT id, settlement FROM hands WHERE settlement IS NOT NULL";
        let rows: Vec<(String, String)> = on_pool!(db, |pool| sqlx::query(sql)
            .fetch_all(pool)
            .await?
            .into_iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect());
        for (id, stored) in rows {
            if let Some((seq, replayed)) = self.closed.get(&id)
                && *replayed != stored
            {
                return Ok(Some(settlement_problem(
                    *seq,
                    format!(
                        "hand {id}: the stored settlement differs from the one recomputed from its events"
                    ),
                )));
            }
        }
        Ok(None)
    }
}

fn settlement_problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "settlement_mismatch",
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
