//! Appending to the hash-chained audit log. Appends happen only inside a
//! write transaction that holds the chain lock (see [`super::begin_write`]),
//! so concurrent writers — several app instances on one PostgreSQL too —
//! never fork the chain.

pub mod key;

use futures_util::TryStreamExt;
use serde::Serialize;
use sqlx::Row;

use super::statement::{Exec, Statement, Value, rows};
use super::{StoreError, WriteTx};
use crate::domain::common::audit::{AuditKey, GENESIS_HASH, RecordFields};

/// A record to append: everything but seq, time and hashes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NewRecord {
    pub actor: String,
    pub table: Option<String>,
    pub hand: Option<String>,
    pub event_type: String,
    /// Canonical JSON (see [`canonical_json`]).
    pub payload: String,
}

impl NewRecord {
    /// A record by `actor` of no table and no hand (the staff and training
    /// logs), its payload canonical JSON.
    pub fn tableless(
        actor: &str,
        event_type: &str,
        payload: &serde_json::Value,
    ) -> Result<NewRecord, StoreError> {
        Ok(NewRecord {
            actor: actor.to_string(),
            table: None,
            hand: None,
            event_type: event_type.to_string(),
            payload: canonical_json(payload)?,
        })
    }
}

/// A record as stored.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, sqlx::FromRow, utoipa::ToSchema)]
pub struct AuditRecord {
    pub seq: i64,
    pub recorded_at: String,
    pub actor: String,
    pub table_id: Option<String>,
    pub hand_id: Option<String>,
    pub event_type: String,
    pub payload: String,
    pub prev_hash: String,
    pub hash: String,
}

impl AuditRecord {
    pub fn fields(&self) -> RecordFields<'_> {
        RecordFields {
            seq: self.seq,
            recorded_at: &self.recorded_at,
            actor: &self.actor,
            table: self.table_id.as_deref(),
            hand: self.hand_id.as_deref(),
            event_type: &self.event_type,
            payload: &self.payload,
            prev_hash: &self.prev_hash,
        }
    }
}

/// The payload text of a typed value: compact JSON, fields in their
/// declaration order. Deterministic for a given value, which is all the
/// chain needs: a record's hash covers the stored text exactly as written.
pub fn canonical_json<T: Serialize>(value: &T) -> Result<String, StoreError> {
    serde_json::to_string(value).map_err(|e| StoreError::Internal(e.to_string()))
}

/// The timestamp form that is stored and hashed: UTC with microseconds.
pub fn now_text() -> String {
    time_text(chrono::Utc::now())
}

pub(crate) fn time_text(t: chrono::DateTime<chrono::Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

/// Where the hand writer's records get their time. The server's is the
/// system clock; `pitbook bench hands` writes weeks of hands in minutes, so
/// its clock steps by a set interval at each reading, from a set start —
/// one reading per command, in seq order, so times still rise with seq.
#[derive(Debug, Clone, Default)]
pub enum Clock {
    #[default]
    System,
    Stepping {
        /// Microseconds since the Unix epoch of the next reading.
        next: std::sync::Arc<std::sync::atomic::AtomicI64>,
        step_micros: i64,
    },
}

impl Clock {
    pub fn stepping(start: chrono::DateTime<chrono::Utc>, step_micros: i64) -> Clock {
        let next = std::sync::Arc::new(start.timestamp_micros().into());
        Clock::Stepping { next, step_micros }
    }

    pub fn now_text(&self) -> String {
        match self {
            Clock::System => now_text(),
            Clock::Stepping { next, step_micros } => {
                use std::sync::atomic::Ordering;
                let micros = next.fetch_add(*step_micros, Ordering::Relaxed);
                chrono::DateTime::from_timestamp_micros(micros).map_or_else(now_text, time_text)
            }
        }
    }
}

pub const SELECT_RECORD: &str = "SELECT seq, recorded_at, actor, table_id, hand_id, event_type, payload, prev_hash, hash FROM audit_log";

pub(super) const SELECT_HEAD: &str = "SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1";

pub(super) const INSERT_RECORDS: &str = "INSERT INTO audit_log \
     (seq, recorded_at, actor, table_id, hand_id, event_type, payload, prev_hash, hash) VALUES ";

/// Rows per INSERT statement (9 values a row): one round trip for a
/// whole hand, or for a batch's 64 commands' records on PostgreSQL.
const INSERT_ROWS_MAX: usize = 1024;

/// The chain's head: (seq, hash) of the last record, or (0, GENESIS).
pub async fn head(tx: &mut WriteTx) -> Result<(i64, String), StoreError> {
    let row = on_tx!(tx, |c| sqlx::query(SELECT_HEAD)
        .fetch_optional(&mut **c)
        .await?
        .map(|r| (r.get(0), r.get(1))));
    Ok(row.unwrap_or((0, GENESIS_HASH.to_string())))
}

/// Appends records after the head, in order, all with the same timestamp.
pub async fn append(
    tx: &mut WriteTx,
    key: &AuditKey,
    records: &[NewRecord],
) -> Result<Vec<AuditRecord>, StoreError> {
    append_at(tx, key, records, &now_text()).await
}

/// [`append`] with the records' `recorded_at` given: a projection row
/// written in the same transaction carries the same time, so `audit
/// verify` can compare the row's time with its record's.
pub async fn append_at(
    tx: &mut WriteTx,
    key: &AuditKey,
    records: &[NewRecord],
    recorded_at: &str,
) -> Result<Vec<AuditRecord>, StoreError> {
    let head = head(tx).await?;
    append_after(tx, key, head, records, recorded_at).await
}

/// [`append_at`] after `head`, the chain's head as this transaction last
/// read or wrote it (the hand writer keeps it across a batch's commands:
/// nothing else appends while its transaction holds the chain).
pub async fn append_after(
    tx: &mut WriteTx,
    key: &AuditKey,
    (seq, prev_hash): (i64, String),
    records: &[NewRecord],
    recorded_at: &str,
) -> Result<Vec<AuditRecord>, StoreError> {
    let written = chain(key, seq, prev_hash, recorded_at, records);
    insert_records(tx, &written).await?;
    Ok(written)
}

/// Inserts records already chained ([`chain`]), a statement for up to
/// [`INSERT_ROWS_MAX`]: the caller holds the chain.
pub(crate) async fn insert_records(
    e: &mut impl Exec,
    records: &[AuditRecord],
) -> Result<(), StoreError> {
    for chunk in records.chunks(INSERT_ROWS_MAX) {
        let sql = format!("{INSERT_RECORDS}{}", rows(chunk.len(), 9));
        let values = chunk
            .iter()
            .flat_map(|r| {
                [
                    Value::int(r.seq),
                    Value::text(&r.recorded_at),
                    Value::text(&r.actor),
                    Value::Text(r.table_id.as_deref()),
                    Value::Text(r.hand_id.as_deref()),
                    Value::text(&r.event_type),
                    Value::text(&r.payload),
                    Value::text(&r.prev_hash),
                    Value::text(&r.hash),
                ]
            })
            .collect();
        e.execute(&Statement { sql, values }).await?;
    }
    Ok(())
}

/// The records as they follow `(head_seq, head_hash)` on the chain: each
/// numbered, stamped and hashed over the one before it. Pure.
pub(crate) fn chain(
    key: &AuditKey,
    head_seq: i64,
    head_hash: String,
    recorded_at: &str,
    records: &[NewRecord],
) -> Vec<AuditRecord> {
    let (mut seq, mut prev_hash) = (head_seq, head_hash);
    let mut written = Vec::with_capacity(records.len());
    for r in records {
        seq += 1;
        let mut record = AuditRecord {
            seq,
            recorded_at: recorded_at.to_string(),
            actor: r.actor.clone(),
            table_id: r.table.clone(),
            hand_id: r.hand.clone(),
            event_type: r.event_type.clone(),
            payload: r.payload.clone(),
            prev_hash,
            hash: String::new(),
        };
        record.hash = key.record_hash(&record.fields());
        prev_hash = record.hash.clone();
        written.push(record);
    }
    written
}

/// Appends one staff or configuration record in its own transaction.
pub async fn record(
    db: &super::Db,
    key: &AuditKey,
    record: NewRecord,
) -> Result<AuditRecord, StoreError> {
    let mut tx = super::begin_write(db).await?;
    let mut written = append(&mut tx, key, std::slice::from_ref(&record)).await?;
    tx.commit().await?;
    written
        .pop()
        .ok_or_else(|| StoreError::Internal("append wrote no record".into()))
}

/// The newest record of `event_type` among the records of no hand (a
/// verification, a staff change), if any. Looked for through the
/// `audit_log_not_hands` index: the whole log, walked back from its head,
/// took 29 s over a week of 2.5 M records before the first verification
/// (the chain page and every metrics scrape ask).
pub async fn last_of_type(
    db: &super::Db,
    event_type: &str,
) -> Result<Option<AuditRecord>, StoreError> {
    let sql = format!(
        "{SELECT_RECORD} WHERE event_type = $1 AND hand_id IS NULL ORDER BY seq DESC LIMIT 1"
    );
    Ok(on_pool!(db, |pool| sqlx::query_as::<_, AuditRecord>(&sql)
        .bind(event_type)
        .fetch_optional(pool)
        .await?))
}

/// One end of a record range: a sequence number or a UTC time text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordBound {
    Seq(i64),
    Time(String),
}

/// Streams the records in `[from, to]` (inclusive, either open) in order.
pub async fn for_each_record(
    db: &super::Db,
    from: Option<RecordBound>,
    to: Option<RecordBound>,
    mut each: impl FnMut(&AuditRecord),
) -> Result<(), StoreError> {
    let mut clauses = Vec::new();
    let mut binds = Vec::new();
    for (bound, op) in [(from, ">="), (to, "<=")] {
        if let Some(bound) = bound {
            let n = binds.len() + 1;
            clauses.push(match &bound {
                RecordBound::Seq(_) => format!("seq {op} ${n}"),
                RecordBound::Time(_) => format!("recorded_at {op} ${n}"),
            });
            binds.push(bound);
        }
    }
    let filter = if clauses.is_empty() {
        String::new()
    } else {
        format!(" WHERE {}", clauses.join(" AND "))
    };
    let sql = format!("{SELECT_RECORD}{filter} ORDER BY seq");
    on_pool!(db, |pool| {
        let mut query = sqlx::query_as::<_, AuditRecord>(&sql);
        for bound in &binds {
            query = match bound {
                RecordBound::Seq(seq) => query.bind(*seq),
                RecordBound::Time(time) => query.bind(time.clone()),
            };
        }
        let mut rows = query.fetch(pool);
        while let Some(record) = rows.try_next().await? {
            each(&record);
        }
    });
    Ok(())
}
