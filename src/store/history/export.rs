//! Reading the hands an export holds (docs/hand-history.md): the hands the
//! search's filter keeps, newest first as the search lists them, in
//! batches by keyset, and each batch's audit records read in one sequential
//! pass over the log (`verify`'s log reader: rusqlite memory-mapped on
//! SQLite, a binary COPY on PostgreSQL) instead of a query per hand. Memory
//! holds one batch, whatever the number of hands.

use std::collections::HashMap;
use std::ops::ControlFlow;

use sqlx::Row;

use crate::domain::history::{Cursor, HandFilter};
use crate::domain::history_export::{ExportRecord, HandSource};
use crate::store::audit::{AuditRecord, SELECT_RECORD};
use crate::store::history::query::Bind;
use crate::store::verify::log_reader::{
    RawRecord, RecordVisitor, open_read_only, read_postgres, read_sqlite, read_sqlite_on,
};
use crate::store::{Db, StoreError};

/// Hands read and built together.
pub const BATCH_HANDS: usize = 1024;
/// A hand whose records span more seqs than this (corrected days later,
/// left open for a shift) is read on its own by the log's hand index, so
/// the batch's sequential read stays short.
const SPAN_MAX: i64 = 4096;

/// One hand of a batch, as the `hands` row places it in the log.
#[derive(Debug, Clone)]
pub struct BatchHand {
    pub id: String,
    pub number: i64,
    pub opened_at: String,
    /// Its first record (its `hand_opened`).
    pub first_seq: i64,
    /// Its last record when the batch was read; later ones are left out,
    /// so a hand still being played is exported as it stood.
    pub last_seq: i64,
}

const SELECT_BATCH: &str = "SELECT h.id, h.number, h.opened_at, h.last_seq, \
    (SELECT MIN(a.seq) FROM audit_log a WHERE a.hand_id = h.id) FROM hands h";

/// The next batch of hands `filter` keeps, newest first, after `after`,
/// with their records; and where the batch after it starts (None: this was
/// the last). `bounds`: its time range in UTC (`time::bounds`). Blocking:
/// call it on a blocking thread. On an SQLite file both reads go through
/// one rusqlite connection on this thread (sqlx's driver hands each row
/// across threads); PostgreSQL is read through `runtime`.
pub fn next_batch(
    db: &Db,
    runtime: &tokio::runtime::Handle,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    after: Option<&Cursor>,
) -> Result<(Vec<HandSource>, Option<Cursor>), StoreError> {
    let mut filter = filter.clone();
    filter.after = after.cloned();
    let (sql, conditions) =
        super::page_query(db, SELECT_BATCH, &filter, bounds, BATCH_HANDS as i64)?;
    let (batch, sources) = match crate::store::sqlite_file(db) {
        Some(path) => {
            let conn = open_read_only(&path)?;
            let batch = sqlite_batch(&conn, &sql, &conditions.binds)?;
            let sources = read_batch(db, runtime, &batch, Some(&conn))?;
            (batch, sources)
        }
        None => {
            let batch = runtime.block_on(pooled_batch(db, &sql, &conditions.binds))?;
            let sources = read_batch(db, runtime, &batch, None)?;
            (batch, sources)
        }
    };
    let next = if batch.len() < BATCH_HANDS {
        None
    } else {
        cursor_after(&batch)
    };
    Ok((sources, next))
}

fn batch_hand(
    id: String,
    number: i64,
    opened_at: String,
    last_seq: i64,
    first_seq: Option<i64>,
) -> BatchHand {
    BatchHand {
        id,
        number,
        opened_at,
        last_seq,
        first_seq: first_seq.unwrap_or(last_seq),
    }
}

async fn pooled_batch(db: &Db, sql: &str, binds: &[Bind]) -> Result<Vec<BatchHand>, StoreError> {
    Ok(on_pool!(db, |pool| {
        let rows = bound!(sqlx::query(sql), binds).fetch_all(pool).await?;
        rows.iter()
            .map(|r| {
                Ok::<_, sqlx::Error>(batch_hand(
                    r.try_get(0)?,
                    r.try_get(1)?,
                    r.try_get(2)?,
                    r.try_get(3)?,
                    r.try_get(4)?,
                ))
            })
            .collect::<Result<Vec<_>, _>>()?
    }))
}

fn sqlite_batch(
    conn: &rusqlite::Connection,
    sql: &str,
    binds: &[Bind],
) -> Result<Vec<BatchHand>, StoreError> {
    let mut statement = conn.prepare(sql)?;
    crate::store::statement::bind_numbered(&mut statement, binds)?;
    let mut rows = statement.raw_query();
    let mut batch = Vec::new();
    while let Some(r) = rows.next()? {
        batch.push(batch_hand(
            r.get(0)?,
            r.get(1)?,
            r.get(2)?,
            r.get(3)?,
            r.get(4)?,
        ));
    }
    Ok(batch)
}

/// Where the batch after `batch` starts.
fn cursor_after(batch: &[BatchHand]) -> Option<Cursor> {
    batch.last().map(|h| Cursor {
        opened_at: h.opened_at.clone(),
        id: h.id.clone(),
    })
}

/// Collects the records of a batch's hands as the log streams past.
struct Collect<'a> {
    index: HashMap<&'a str, usize>,
    hands: &'a [BatchHand],
    records: Vec<Vec<ExportRecord>>,
}

fn owned(r: &RawRecord<'_>) -> ExportRecord {
    let f = &r.fields;
    ExportRecord {
        seq: f.seq,
        recorded_at: f.recorded_at.to_string(),
        actor: f.actor.to_string(),
        table_id: f.table.map(str::to_string),
        hand_id: f.hand.map(str::to_string),
        event_type: f.event_type.to_string(),
        payload: f.payload.to_string(),
        prev_hash: f.prev_hash.to_string(),
        hash: r.hash.to_string(),
    }
}

impl RecordVisitor for Collect<'_> {
    fn visit(&mut self, r: &RawRecord<'_>) -> ControlFlow<()> {
        if let Some(&i) = r.fields.hand.and_then(|h| self.index.get(h))
            && r.fields.seq <= self.hands[i].last_seq
        {
            self.records[i].push(owned(r));
        }
        ControlFlow::Continue(())
    }
}

fn from_stored(r: AuditRecord) -> ExportRecord {
    ExportRecord {
        seq: r.seq,
        recorded_at: r.recorded_at,
        actor: r.actor,
        table_id: r.table_id,
        hand_id: r.hand_id,
        event_type: r.event_type,
        payload: r.payload,
        prev_hash: r.prev_hash,
        hash: r.hash,
    }
}

/// The records of every hand of `batch`, in the batch's order, on `conn`
/// when given (an SQLite file's), else through `runtime`.
fn read_batch(
    db: &Db,
    runtime: &tokio::runtime::Handle,
    batch: &[BatchHand],
    conn: Option<&rusqlite::Connection>,
) -> Result<Vec<HandSource>, StoreError> {
    let compact = |h: &&BatchHand| h.last_seq - h.first_seq <= SPAN_MAX;
    let mut collect = Collect {
        index: batch
            .iter()
            .enumerate()
            .filter(|(_, h)| compact(h))
            .map(|(i, h)| (h.id.as_str(), i))
            .collect(),
        hands: batch,
        records: vec![Vec::new(); batch.len()],
    };
    let from = batch.iter().filter(compact).map(|h| h.first_seq).min();
    let to = batch.iter().filter(compact).map(|h| h.last_seq).max();
    if let (Some(from), Some(to)) = (from, to) {
        match (db, conn) {
            (_, Some(conn)) => read_sqlite_on(conn, from, to, &mut collect)?,
            (Db::Sqlite(pool), None) => {
                let path = pool.connect_options().get_filename().to_path_buf();
                read_sqlite(&path, from, to, &mut collect)?;
            }
            (Db::Postgres(pool), None) => {
                runtime.block_on(read_postgres(pool, from, to, &mut collect))?
            }
        }
    }
    let mut records = collect.records;
    for (i, hand) in batch.iter().enumerate() {
        if !compact(&hand) {
            records[i] = runtime.block_on(hand_records(db, &hand.id, hand.last_seq))?;
        }
    }
    Ok(batch
        .iter()
        .zip(records)
        .map(|(h, records)| HandSource {
            id: h.id.clone(),
            number: Some(h.number),
            records,
        })
        .collect())
}

/// One hand's records up to `last_seq`, by the log's hand index.
async fn hand_records(db: &Db, id: &str, last_seq: i64) -> Result<Vec<ExportRecord>, StoreError> {
    let sql = format!("{SELECT_RECORD} WHERE hand_id = $1 AND seq <= $2 ORDER BY seq");
    let stored: Vec<AuditRecord> = on_pool!(db, |pool| sqlx::query_as(&sql)
        .bind(id)
        .bind(last_seq)
        .fetch_all(pool)
        .await?);
    Ok(stored.into_iter().map(from_stored).collect())
}
