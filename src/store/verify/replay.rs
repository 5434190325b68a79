//! The hand replay of `audit verify`: each hand's events folded as they stream
//! past, its recorded settlements checked against recomputed ones, and what
//! its `hands` row must hold remembered for the row checks.

use std::collections::HashMap;

use sqlx::Row;

use super::hand_rows::Expected;
use super::{Problem, ReplayRecord, earliest};
use crate::domain::double_hand_poker::hand_record::{HandError, HandEvent, HandState, Phase};
use crate::store::{Db, StoreError};

/// Replays hand events as they stream past; remembers what each closed
/// hand's rows must hold, to compare with them once the round is read
/// (`round.rs`).
#[derive(Default)]
pub(super) struct HandReplay {
    open: HashMap<String, OpenHand>,
    /// Closed or voided hand → what its projection row must hold (for a
    /// closed one, the record carrying its settlement: its close or latest
    /// correction).
    done: HashMap<String, Expected>,
    /// Hand → its records (seq, recorded_at, payload) waiting for its
    /// earlier ones.
    waiting: HashMap<String, Vec<(i64, String, String)>>,
    /// Settlements recomputed by this part (`parts::Joined` sums them).
    pub(super) settled: u64,
}

/// An open hand as the replay holds it.
pub(super) struct OpenHand {
    pub(super) state: HandState,
    /// The seq of its last record.
    last_seq: i64,
    /// The `recorded_at` of its first and of its last record: its row's
    /// `opened_at` and `updated_at`.
    opened_at: String,
    updated_at: String,
    /// The seq of its `hand_opened` record (its number's place).
    opened_seq: i64,
    /// The record that settled it, when it was loaded closed from the log
    /// (a correction read in a later part or round than its close).
    settlement_seq: Option<i64>,
}

pub(super) fn parse_event(record: &ReplayRecord<'_>) -> Result<HandEvent, Problem> {
    HandEvent::from_json(record.payload).map_err(|e| {
        settlement_problem(
            record.seq,
            format!("hand {}: unreadable event: {e}", record.hand_id),
        )
    })
}

impl HandReplay {
    /// Takes in the next part's hands (`other` read after `self`): where
    /// both know a hand, the later part replayed it from its start (its
    /// earlier records, settlement included, folded from the log), so its
    /// view is kept.
    pub(super) fn absorb(&mut self, other: HandReplay) {
        if self.done.is_empty() && self.open.is_empty() {
            // The first part: nothing to reconcile (and no rehashing).
            *self = other;
            return;
        }
        self.done.reserve(other.done.len());
        for (id, expected) in other.done {
            self.open.remove(&id);
            self.done.insert(id, expected);
        }
        for (id, open) in other.open {
            self.done.remove(&id);
            self.open.insert(id, open);
        }
    }

    /// Replays one record of a hand. A record of a hand not in memory — one
    /// begun before this part (or before `--from`), or a closed hand being
    /// corrected — waits, with the hand's later records, for
    /// [`Self::replay_waiting`], which reads the hand's earlier records.
    pub(super) fn apply(&mut self, record: &ReplayRecord<'_>) -> Option<Problem> {
        let hand_id = record.hand_id;
        let waits =
            |r: &ReplayRecord<'_>| (r.seq, r.recorded_at.to_string(), r.payload.to_string());
        if let Some(waiting) = self.waiting.get_mut(hand_id) {
            waiting.push(waits(record));
            return None;
        }
        let event = match parse_event(record) {
            Ok(event) => event,
            Err(p) => return Some(p),
        };
        // The key comes out with the state and goes back with the next one:
        // no allocation per record.
        let (key, open) = match self.open.remove_entry(hand_id) {
            Some((key, open)) => (Some(key), Some(open)),
            None if !matches!(event, HandEvent::HandOpened { .. }) => {
                self.waiting
                    .insert(hand_id.to_string(), vec![waits(record)]);
                return None;
            }
            None => (None, None),
        };
        self.advance(key, open, &event, record)
    }

    /// The hands that waited for their earlier records, replayed now; the
    /// earliest problem among them.
    pub(super) async fn replay_waiting(&mut self, db: &Db) -> Result<Option<Problem>, StoreError> {
        let mut waiting: Vec<_> = std::mem::take(&mut self.waiting).into_iter().collect();
        waiting.sort_by_key(|(_, records)| records[0].0);
        let mut problem = None;
        for (hand_id, records) in waiting {
            let mut open: Option<OpenHand> = None;
            for (seq, recorded_at, payload) in &records {
                if open.is_none() {
                    // Its first record here, or a correction after it closed
                    // again: fold its earlier records from the log.
                    match self.load_before(db, &hand_id, *seq).await {
                        Ok(loaded) => open = Some(loaded),
                        Err(e) => {
                            let message = format!("hand {hand_id}: its earlier records: {e}");
                            problem = earliest(problem, Some(settlement_problem(*seq, message)));
                            break;
                        }
                    }
                }
                let record = ReplayRecord {
                    seq: *seq,
                    recorded_at,
                    hand_id: &hand_id,
                    payload,
                };
                let found = match parse_event(&record) {
                    Ok(event) => self.advance(None, open.take(), &event, &record),
                    Err(p) => Some(p),
                };
                if found.is_some() {
                    problem = earliest(problem, found);
                    break;
                }
                // Still open: take it back for the next record.
                open = self.open.remove(&hand_id);
            }
            if let Some(open) = open {
                self.open.insert(hand_id, open);
            }
        }
        Ok(problem)
    }

    /// Applies a parsed event to the hand's state (None: not opened yet).
    pub(super) fn advance(
        &mut self,
        key: Option<String>,
        open: Option<OpenHand>,
        event: &HandEvent,
        record: &ReplayRecord<'_>,
    ) -> Option<Problem> {
        let hand_id = record.hand_id;
        let (state, opened_at, mut updated_at, opened_seq, loaded_settlement) = match open {
            Some(open) => (
                Some(open.state),
                open.opened_at,
                open.updated_at,
                open.opened_seq,
                open.settlement_seq,
            ),
            None => (
                None,
                record.recorded_at.to_string(),
                String::new(),
                record.seq,
                None,
            ),
        };
        // One buffer a hand for its last record's time.
        updated_at.clear();
        updated_at.push_str(record.recorded_at);
        let next = match HandState::replay(state, event) {
            Ok(next) => next,
            Err(e) => {
                return Some(settlement_problem(
                    record.seq,
                    format!("hand {hand_id}: {e}"),
                ));
            }
        };
        let settles = settles(&next, event);
        if settles {
            self.settled += 1;
        }
        if matches!(next.phase(), Phase::Closed | Phase::Voided) {
            // Closed hands leave memory but for what their row must hold;
            // a later correction reloads them.
            let settlement_seq = match self.done.get(hand_id) {
                _ if settles => Some(record.seq),
                Some(kept) => kept.settlement_seq(),
                None => loaded_settlement,
            };
            let times = (opened_at, updated_at);
            self.done.insert(
                hand_id.to_string(),
                Expected::of(&next, settlement_seq, (opened_seq, record.seq), times),
            );
        } else {
            self.open.insert(
                key.unwrap_or_else(|| hand_id.to_string()),
                OpenHand {
                    state: next,
                    last_seq: record.seq,
                    opened_at,
                    updated_at,
                    opened_seq,
                    settlement_seq: loaded_settlement,
                },
            );
        }
        None
    }

    /// The hand as its records before `seq` leave it.
    pub(super) async fn load_before(
        &self,
        db: &Db,
        hand_id: &str,
        seq: i64,
    ) -> Result<OpenHand, StoreError> {
        load(db, hand_id, seq).await?.ok_or_else(|| {
            StoreError::Internal(format!("hand {hand_id}: {}", HandError::NotOpened))
        })
    }
}

/// A hand as its records before `seq` leave it (None: it has none).
async fn load(db: &Db, hand_id: &str, seq: i64) -> Result<Option<OpenHand>, StoreError> {
    let sql = "SELECT payload, recorded_at, seq FROM audit_log \
               WHERE hand_id = $1 AND seq < $2 ORDER BY seq";
    let rows: Vec<(String, String, i64)> = on_pool!(db, |pool| sqlx::query(sql)
        .bind(hand_id)
        .bind(seq)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| (r.get(0), r.get(1), r.get(2)))
        .collect());
    if rows.is_empty() {
        return Ok(None);
    }
    let failed = |e: &dyn std::fmt::Display| StoreError::Internal(format!("hand {hand_id}: {e}"));
    let mut state = None;
    let mut settlement_seq = None;
    for (payload, _, seq) in &rows {
        let event = HandEvent::from_json(payload).map_err(|e| failed(&e))?;
        let next = HandState::replay(state, &event).map_err(|e| failed(&e))?;
        if settles(&next, &event) {
            settlement_seq = Some(*seq);
        }
        state = Some(next);
    }
    let state = state.ok_or_else(|| failed(&HandError::NotOpened))?;
    let time = |row: Option<&(String, String, i64)>| row.map(|r| r.1.clone()).unwrap_or_default();
    Ok(Some(OpenHand {
        state,
        last_seq: rows.last().map_or(0, |r| r.2),
        opened_at: time(rows.first()),
        updated_at: time(rows.last()),
        opened_seq: rows.first().map_or(0, |r| r.2),
        settlement_seq,
    }))
}

impl HandReplay {
    /// What each hand's rows must hold as this replay leaves it: a closed
    /// hand's kept view, an open one's state so far.
    pub(super) fn into_views(self) -> HashMap<String, Expected> {
        let mut views = self.done;
        for (id, open) in self.open {
            views.insert(id, open.into_view());
        }
        views
    }
}

impl OpenHand {
    fn into_view(self) -> Expected {
        let times = (self.opened_at, self.updated_at);
        let seqs = (self.opened_seq, self.last_seq);
        Expected::of(&self.state, self.settlement_seq, seqs, times)
    }
}

/// A hand's view from all its records up to `head_seq` (None: it has
/// none): for a row whose hand's last record another round replayed.
pub(super) async fn fold_hand(
    db: &Db,
    hand_id: &str,
    head_seq: i64,
) -> Result<Option<Expected>, StoreError> {
    Ok(load(db, hand_id, head_seq + 1)
        .await?
        .map(OpenHand::into_view))
}

/// Whether a view of the hand as of `last_seq` is its last up to
/// `head_seq` (no later record): asked only of a view its row differs from,
/// as a later round may hold the hand's later records.
pub(super) async fn is_final(
    db: &Db,
    hand_id: &str,
    last_seq: i64,
    head_seq: i64,
) -> Result<bool, StoreError> {
    let sql = "SELECT COUNT(*) FROM audit_log WHERE hand_id = $1 AND seq > $2 AND seq <= $3";
    let later: i64 = on_pool!(db, |pool| sqlx::query(sql)
        .bind(hand_id)
        .bind(last_seq)
        .bind(head_seq)
        .fetch_one(pool)
        .await?
        .get(0));
    Ok(later == 0)
}

/// Whether `event` (just applied, giving `next`) carries the hand's settlement.
fn settles(next: &HandState, event: &HandEvent) -> bool {
    next.settlement().is_some()
        && matches!(
            event,
            HandEvent::HandClosed { .. } | HandEvent::OutcomeCorrected { .. }
        )
}

pub(super) const SETTLEMENT_MISMATCH: &str = "settlement_mismatch";
pub(super) const TRUNCATED: &str = "truncated";

pub(super) fn settlement_problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: SETTLEMENT_MISMATCH,
        message: format!("seq {seq}: {message}"),
    }
}
