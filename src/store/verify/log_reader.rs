//! Fast sequential reads of the whole audit log, for `audit verify`.
//! sqlx hands rows over one at a time (~5 µs per SQLite row), and a
//! verification reads millions; so this reads SQLite through rusqlite on the
//! calling (blocking) thread and PostgreSQL through
//! `COPY … TO STDOUT (FORMAT binary)`, and shows each record to a visitor as
//! borrowed fields: nothing is allocated per record.

use std::ops::ControlFlow;
use std::path::Path;

use futures_util::TryStreamExt;
use sqlx::postgres::PgPool;

use crate::domain::common::audit::RecordFields;
use crate::store::StoreError;

/// One stored record, borrowed from the reader's buffer.
pub struct RawRecord<'a> {
    pub fields: RecordFields<'a>,
    pub hash: &'a str,
}

/// What is shown each record; `Break` stops the read.
pub trait RecordVisitor {
    fn visit(&mut self, record: &RawRecord<'_>) -> ControlFlow<()>;
}

const COLUMNS: &str =
    "seq, recorded_at, actor, table_id, hand_id, event_type, payload, prev_hash, hash";

/// Reads records with `seq >= from` in seq order from the SQLite file at
/// `path`, on the calling thread (call it from a blocking task). Read-only:
/// a WAL reader sees one consistent snapshot and never blocks the writer.
pub fn read_sqlite(
    path: &Path,
    from: i64,
    to: i64,
    visitor: &mut (dyn RecordVisitor + Send),
) -> Result<(), StoreError> {
    let conn = open_read_only(path).map_err(log_read_failed)?;
    read_sqlite_on(&conn, from, to, visitor)
}

fn log_read_failed(e: rusqlite::Error) -> StoreError {
    StoreError::Internal(format!("reading the audit log: {e}"))
}

/// [`read_sqlite`] on a connection already open (read-only, as
/// [`open_read_only`] opens it).
pub fn read_sqlite_on(
    conn: &rusqlite::Connection,
    from: i64,
    to: i64,
    visitor: &mut (dyn RecordVisitor + Send),
) -> Result<(), StoreError> {
    let failed = log_read_failed;
    let sql = format!("SELECT {COLUMNS} FROM audit_log WHERE seq >= ?1 AND seq <= ?2 ORDER BY seq");
    let mut statement = conn.prepare(&sql).map_err(failed)?;
    let mut rows = statement.query([from, to]).map_err(failed)?;
    while let Some(row) = rows.next().map_err(failed)? {
        let text = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_str()?));
        let optional = |i: usize| row.get_ref(i).and_then(|v| Ok(v.as_str_or_null()?));
        let record = RawRecord {
            fields: RecordFields {
                seq: row.get(0).map_err(failed)?,
                recorded_at: text(1).map_err(failed)?,
                actor: text(2).map_err(failed)?,
                table: optional(3).map_err(failed)?,
                hand: optional(4).map_err(failed)?,
                event_type: text(5).map_err(failed)?,
                payload: text(6).map_err(failed)?,
                prev_hash: text(7).map_err(failed)?,
            },
            hash: text(8).map_err(failed)?,
        };
        if visitor.visit(&record).is_break() {
            break;
        }
    }
    Ok(())
}

/// Every hand in the projection that has a settlement: its id, the seq of
/// the record carrying its settlement, and the seq of its last record.
/// Largest file mapped into memory for a read (SQLite falls back to reads
/// beyond it).
const MMAP_BYTES_MAX: i64 = 1 << 40;

pub(crate) fn open_read_only(path: &Path) -> rusqlite::Result<rusqlite::Connection> {
    use rusqlite::OpenFlags;
    let conn = rusqlite::Connection::open_with_flags(
        path,
        OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    // Pages straight from the page cache, not copied by read(2) first.
    conn.pragma_update(None, "mmap_size", MMAP_BYTES_MAX)?;
    Ok(conn)
}

/// Reads records with `seq >= from` in seq order from PostgreSQL with one
/// binary COPY, parsing tuples as the bytes arrive.
pub async fn read_postgres(
    pool: &PgPool,
    from: i64,
    to: i64,
    visitor: &mut (dyn RecordVisitor + Send),
) -> Result<(), StoreError> {
    // `from` is an i64, so formatting it into the statement is safe.
    let sql = format!(
        "COPY (SELECT {COLUMNS} FROM audit_log WHERE seq >= {from} AND seq <= {to} ORDER BY seq) \
         TO STDOUT (FORMAT binary)"
    );
    let mut conn = pool.acquire().await?;
    match copy_records(&mut conn, &sql, visitor).await {
        // Read to its end and its transaction closed: back to the pool (a
        // connection opened for each of an export's batches cost a tenth
        // of it).
        Ok(true) => Ok(()),
        // It may hold unread COPY data (the visitor stopped early) or the
        // open transaction: it leaves the pool.
        Ok(false) => {
            conn.close_on_drop();
            Ok(())
        }
        Err(e) => {
            conn.close_on_drop();
            Err(e)
        }
    }
}

/// Runs `sql` (a COPY of records) on `conn` in a read-only transaction,
/// each record to `visitor`; whether the COPY was read to its end and the
/// transaction closed, leaving `conn` as it was.
async fn copy_records(
    conn: &mut sqlx::pool::PoolConnection<sqlx::Postgres>,
    sql: &str,
    visitor: &mut (dyn RecordVisitor + Send),
) -> Result<bool, StoreError> {
    sqlx::query("BEGIN READ ONLY").execute(&mut **conn).await?;
    // Along the primary key, never a sort: with statistics not yet updated
    // after a burst of writes the planner would sort the whole log (in
    // memory, or on disk for a long one) before the first row.
    sqlx::query("SET LOCAL enable_sort = off")
        .execute(&mut **conn)
        .await?;
    let mut buffer: Vec<u8> = Vec::with_capacity(1 << 20);
    let mut parser = CopyParser::default();
    let mut stream = conn.copy_out_raw(sql).await?;
    // Past the trailer, or stopped by the visitor, the rest is not read.
    while !parser.done
        && let Some(chunk) = stream.try_next().await?
    {
        buffer.extend_from_slice(&chunk);
        let consumed = parser.parse(&buffer, visitor)?;
        buffer.drain(..consumed);
    }
    if !parser.done && !buffer.is_empty() {
        return Err(bad_copy("the COPY stream ended inside a record"));
    }
    if !parser.ended {
        return Ok(false);
    }
    // The trailer read: what follows it is the COPY's end.
    while stream.try_next().await?.is_some() {}
    drop(stream);
    sqlx::query("ROLLBACK").execute(&mut **conn).await?;
    Ok(true)
}

fn bad_copy(what: &str) -> StoreError {
    StoreError::Internal(format!("reading the audit log: {what}"))
}

/// PostgreSQL's binary COPY format: a signature and header, then per tuple a
/// field count (i16) and per field a length (i32, −1 for NULL) and bytes;
/// a field count of −1 ends the data.
#[derive(Default)]
struct CopyParser {
    header_read: bool,
    done: bool,
    /// The trailer was read: the stream holds nothing more.
    ended: bool,
}

const COPY_SIGNATURE: &[u8] = b"PGCOPY\n\xff\r\n\0";
const FIELDS: i16 = 9;

impl CopyParser {
    /// Parses every complete tuple in `buf`; returns the bytes consumed.
    fn parse(
        &mut self,
        buf: &[u8],
        visitor: &mut (dyn RecordVisitor + Send),
    ) -> Result<usize, StoreError> {
        let mut at = 0;
        if !self.header_read {
            // Signature, flags (i32), header extension length (i32) + extension.
            let fixed = COPY_SIGNATURE.len() + 8;
            if buf.len() < fixed {
                return Ok(0);
            }
            if &buf[..COPY_SIGNATURE.len()] != COPY_SIGNATURE {
                return Err(bad_copy("not a binary COPY stream"));
            }
            let extension = read_i32(buf, COPY_SIGNATURE.len() + 4) as usize;
            if buf.len() < fixed + extension {
                return Ok(0);
            }
            at = fixed + extension;
            self.header_read = true;
        }
        while !self.done {
            match parse_tuple(&buf[at..])? {
                Tuple::Incomplete => break,
                Tuple::End => {
                    self.done = true;
                    self.ended = true;
                    at += 2;
                }
                Tuple::Record(len, fields) => {
                    let record = record_of(&fields)?;
                    at += len;
                    if visitor.visit(&record).is_break() {
                        self.done = true;
                    }
                }
            }
        }
        Ok(at)
    }
}

enum Tuple<'a> {
    Incomplete,
    End,
    /// Bytes taken and the fields (None = NULL).
    Record(usize, [Option<&'a [u8]>; FIELDS as usize]),
}

fn parse_tuple(buf: &[u8]) -> Result<Tuple<'_>, StoreError> {
    if buf.len() < 2 {
        return Ok(Tuple::Incomplete);
    }
    let count = i16::from_be_bytes([buf[0], buf[1]]);
    if count == -1 {
        return Ok(Tuple::End);
    }
    if count != FIELDS {
        return Err(bad_copy("unexpected column count"));
    }
    let mut at = 2;
    let mut fields = [None; FIELDS as usize];
    for field in &mut fields {
        if buf.len() < at + 4 {
            return Ok(Tuple::Incomplete);
        }
        let len = read_i32(buf, at);
        at += 4;
        if len < 0 {
            continue;
        }
        let len = len as usize;
        if buf.len() < at + len {
            return Ok(Tuple::Incomplete);
        }
        *field = Some(&buf[at..at + len]);
        at += len;
    }
    Ok(Tuple::Record(at, fields))
}

fn read_i32(buf: &[u8], at: usize) -> i32 {
    i32::from_be_bytes([buf[at], buf[at + 1], buf[at + 2], buf[at + 3]])
}

fn record_of<'a>(f: &[Option<&'a [u8]>; FIELDS as usize]) -> Result<RawRecord<'a>, StoreError> {
    let optional = |i: usize| -> Result<Option<&'a str>, StoreError> {
        f[i].map(|b| std::str::from_utf8(b).map_err(|_| bad_copy("a text column is not UTF-8")))
            .transpose()
    };
    let text = |i: usize| optional(i)?.ok_or_else(|| bad_copy("a NOT NULL column is NULL"));
    let seq = match f[0] {
        Some(b) if b.len() == 8 => i64::from_be_bytes(b.try_into().map_err(|_| bad_copy("seq"))?),
        _ => return Err(bad_copy("seq is not a bigint")),
    };
    Ok(RawRecord {
        fields: RecordFields {
            seq,
            recorded_at: text(1)?,
            actor: text(2)?,
            table: optional(3)?,
            hand: optional(4)?,
            event_type: text(5)?,
            payload: text(6)?,
            prev_hash: text(7)?,
        },
        hash: text(8)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Collect(Vec<(i64, Option<String>, String)>);

    impl RecordVisitor for Collect {
        fn visit(&mut self, r: &RawRecord<'_>) -> ControlFlow<()> {
            self.0.push((
                r.fields.seq,
                r.fields.hand.map(str::to_string),
                r.fields.payload.to_string(),
            ));
            ControlFlow::Continue(())
        }
    }

    fn field(out: &mut Vec<u8>, value: Option<&[u8]>) {
        match value {
            None => out.extend_from_slice(&(-1i32).to_be_bytes()),
            Some(v) => {
                out.extend_from_slice(&(v.len() as i32).to_be_bytes());
                out.extend_from_slice(v);
            }
        }
    }

    fn stream(records: &[(i64, Option<&str>, &str)]) -> Vec<u8> {
        let mut out = COPY_SIGNATURE.to_vec();
        out.extend_from_slice(&0i32.to_be_bytes());
        out.extend_from_slice(&0i32.to_be_bytes());
        for (seq, hand, payload) in records {
            out.extend_from_slice(&FIELDS.to_be_bytes());
            field(&mut out, Some(&seq.to_be_bytes()));
            for text in ["t", "actor"] {
                field(&mut out, Some(text.as_bytes()));
            }
            field(&mut out, None);
            field(&mut out, hand.map(str::as_bytes));
            for text in ["wager_placed", payload, "p", "h"] {
                field(&mut out, Some(text.as_bytes()));
            }
        }
        out.extend_from_slice(&(-1i16).to_be_bytes());
        out
    }

    #[test]
    fn copy_tuples_split_anywhere_parse_the_same() {
        let records = [(1, Some("h1"), "{\"a\":\"tab\\t\"}"), (2, None, "{}")];
        let bytes = stream(&records);
        let expected = vec![
            (1, Some("h1".to_string()), "{\"a\":\"tab\\t\"}".to_string()),
            (2, None, "{}".to_string()),
        ];
        // Feed the stream in every possible two-chunk split.
        for split in 0..=bytes.len() {
            let mut parser = CopyParser::default();
            let mut seen = Collect(Vec::new());
            let mut buffer = bytes[..split].to_vec();
            let used = parser.parse(&buffer, &mut seen).unwrap();
            buffer.drain(..used);
            buffer.extend_from_slice(&bytes[split..]);
            let used = parser.parse(&buffer, &mut seen).unwrap();
            assert_eq!(used, buffer.len(), "split {split}");
            assert!(parser.done, "split {split}");
            assert_eq!(seen.0, expected, "split {split}");
        }
    }

    #[test]
    fn a_wrong_column_count_is_an_error() {
        let mut bytes = stream(&[(1, None, "{}")]);
        let tuple_start = COPY_SIGNATURE.len() + 8;
        bytes[tuple_start + 1] = 3;
        let mut parser = CopyParser::default();
        assert!(parser.parse(&bytes, &mut Collect(Vec::new())).is_err());
    }

    #[test]
    fn a_foreign_stream_is_refused() {
        let mut parser = CopyParser::default();
        let err = parser
            .parse(b"NOTPGCOPY-----------", &mut Collect(Vec::new()))
            .err()
            .map(|e| e.to_string());
        assert_eq!(
            err.as_deref(),
            Some("internal error: reading the audit log: not a binary COPY stream")
        );
    }
}
