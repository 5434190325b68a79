//! Reading shifts back as the core's `Shift` (under the chain lock when a
//! change follows, from the pool for a page).

use crate::domain::common::money::Money;
use crate::domain::shifts::{DealerChange, Shift, Signature, Stamp};
use crate::store::{Db, StoreError, WriteTx};

/// Runs `$query`'s `fetch_all` in a write transaction (`tx`) or on the pool (`db`).
macro_rules! fetch_all {
    (tx $tx:expr, $query:expr) => {
        on_tx!($tx, |c| $query.fetch_all(&mut **c).await?)
    };
    (db $db:expr, $query:expr) => {
        on_pool!($db, |pool| $query.fetch_all(pool).await?)
    };
}

/// A `shifts` row: id, table, the opening stamp, the closing one if any.
pub(crate) type ShiftRow = (
    String,
    Option<String>,
    String,
    String,
    i64,
    Option<String>,
    Option<String>,
    Option<i64>,
);
const SELECT_SHIFT: &str = "SELECT id, table_id, opened_at, opened_by, opened_seq, closed_at, \
    closed_by, closed_seq FROM shifts";

type DealerRow = (i64, String, Option<String>, String, String);
const SELECT_DEALERS: &str = "SELECT seq, table_id, dealer, changed_at, changed_by \
    FROM shift_dealers WHERE shift_id = $1 ORDER BY seq";

type SignatureRow = (i64, String, i64, String, String, String);
const SELECT_SIGNATURES: &str = "SELECT seq, digest, hands, drop_total, signed_at, signed_by \
    FROM shift_signatures WHERE shift_id = $1 ORDER BY seq";

fn build(
    row: ShiftRow,
    dealers: Vec<DealerRow>,
    signatures: Vec<SignatureRow>,
) -> Result<Shift, StoreError> {
    let (id, table, opened_at, opened_by, opened_seq, closed_at, closed_by, closed_seq) = row;
    let closed = match (closed_at, closed_by, closed_seq) {
        (Some(at), Some(by), Some(seq)) => Some(Stamp { at, by, seq }),
        _ => None,
    };
    let signatures = signatures
        .into_iter()
        .map(|(seq, digest, hands, drop, at, by)| {
            Ok(Signature {
                digest,
                hands: hands as u64,
                drop: Money::parse(&drop)
                    .map_err(|e| StoreError::Internal(format!("stored drop {drop:?}: {e}")))?,
                stamp: Stamp { at, by, seq },
            })
        })
        .collect::<Result<_, StoreError>>()?;
    Ok(Shift {
        id,
        table,
        opened: Stamp {
            at: opened_at,
            by: opened_by,
            seq: opened_seq,
        },
        closed,
        dealers: dealers
            .into_iter()
            .map(|(seq, table, dealer, at, by)| DealerChange {
                table,
                dealer,
                stamp: Stamp { at, by, seq },
            })
            .collect(),
        signatures,
    })
}

/// A shift with its dealer changes and signatures, under the chain lock.
pub(super) async fn load_tx(tx: &mut WriteTx, id: &str) -> Result<Option<Shift>, StoreError> {
    let sql = format!("{SELECT_SHIFT} WHERE id = $1");
    let rows: Vec<ShiftRow> = fetch_all!(tx tx, sqlx::query_as(&sql).bind(id));
    let Some(row) = rows.into_iter().next() else {
        return Ok(None);
    };
    let dealers: Vec<DealerRow> = fetch_all!(tx tx, sqlx::query_as(SELECT_DEALERS).bind(id));
    let signatures: Vec<SignatureRow> =
        fetch_all!(tx tx, sqlx::query_as(SELECT_SIGNATURES).bind(id));
    build(row, dealers, signatures).map(Some)
}

/// A shift with its dealer changes and signatures.
pub async fn load(db: &Db, id: &str) -> Result<Option<Shift>, StoreError> {
    let sql = format!("{SELECT_SHIFT} WHERE id = $1");
    let rows: Vec<ShiftRow> = fetch_all!(db db, sqlx::query_as(&sql).bind(id));
    let Some(row) = rows.into_iter().next() else {
        return Ok(None);
    };
    let dealers: Vec<DealerRow> = fetch_all!(db db, sqlx::query_as(SELECT_DEALERS).bind(id));
    let signatures: Vec<SignatureRow> =
        fetch_all!(db db, sqlx::query_as(SELECT_SIGNATURES).bind(id));
    build(row, dealers, signatures).map(Some)
}

/// The shifts open now (with their dealers), under the chain lock.
pub(super) async fn open_shifts_tx(tx: &mut WriteTx) -> Result<Vec<Shift>, StoreError> {
    let sql = "SELECT id FROM shifts WHERE closed_at IS NULL ORDER BY opened_seq";
    let ids: Vec<(String,)> = fetch_all!(tx tx, sqlx::query_as(sql));
    let mut shifts = Vec::new();
    for (id,) in ids {
        if let Some(s) = load_tx(tx, &id).await? {
            shifts.push(s);
        }
    }
    Ok(shifts)
}

/// The newest shifts first (at most `limit`), with their dealers and
/// signatures.
pub async fn recent(db: &Db, limit: i64) -> Result<Vec<Shift>, StoreError> {
    let sql = "SELECT id FROM shifts ORDER BY opened_seq DESC LIMIT $1";
    let ids: Vec<(String,)> = fetch_all!(db db, sqlx::query_as(sql).bind(limit));
    let mut shifts = Vec::new();
    for (id,) in ids {
        if let Some(s) = load(db, &id).await? {
            shifts.push(s);
        }
    }
    Ok(shifts)
}

/// Every open shift, oldest first, with its dealers (the floor's view).
pub async fn open_shifts(db: &Db) -> Result<Vec<Shift>, StoreError> {
    let sql = "SELECT id FROM shifts WHERE closed_at IS NULL ORDER BY opened_seq";
    let ids: Vec<(String,)> = fetch_all!(db db, sqlx::query_as(sql));
    let mut shifts = Vec::with_capacity(ids.len());
    for (id,) in ids {
        shifts.extend(load(db, &id).await?);
    }
    Ok(shifts)
}

/// The open shift covering `table`, if any.
pub async fn open_at(db: &Db, table: &str) -> Result<Option<Shift>, StoreError> {
    let sql = "SELECT id FROM shifts WHERE closed_at IS NULL AND (table_id IS NULL OR table_id = $1) \
               ORDER BY opened_seq LIMIT 1";
    let ids: Vec<(String,)> = fetch_all!(db db, sqlx::query_as(sql).bind(table));
    match ids.into_iter().next() {
        Some((id,)) => load(db, &id).await,
        None => Ok(None),
    }
}

/// Whether the room requires an open shift for a hand.
pub async fn required(db: &Db) -> Result<bool, StoreError> {
    let sql = "SELECT value FROM room_settings WHERE key = 'shifts_required'";
    let rows: Vec<(String,)> = fetch_all!(db db, sqlx::query_as(sql));
    Ok(rows.first().is_some_and(|(v,)| v == "true"))
}
