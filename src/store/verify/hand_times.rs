//! `audit verify` for the `hands` rows' times: a row's `opened_at` is the
//! `recorded_at` of the hand's first record and its `updated_at` that of
//! its `last_seq` record (every record of a command shares one time, and
//! the row is written with it: `store/double_hand_poker/hands/plan.rs`, `Projection::now`).
//! One query joins each row to those two records (by the primary key and
//! the by-hand index) and returns only a row that differs — the log is not
//! read again. Rows whose last record is after the walked head (a live
//! server goes on writing) are left for the next verification.

use sqlx::Row;

use super::Problem;
use crate::store::{Db, StoreError};

const MISMATCH: &str = "SELECT h.id, h.opened_at, h.updated_at, h.last_seq, \
     f.recorded_at, l.recorded_at FROM hands h \
     LEFT JOIN audit_log l ON l.seq = h.last_seq \
     LEFT JOIN audit_log f ON f.seq = \
       (SELECT MIN(a.seq) FROM audit_log a WHERE a.hand_id = h.id) \
     WHERE h.last_seq <= $1 AND (f.recorded_at IS NULL OR l.recorded_at IS NULL \
       OR f.recorded_at <> h.opened_at OR l.recorded_at <> h.updated_at) \
     ORDER BY h.last_seq, h.id LIMIT 1";

/// The earlier of the problem already found and the first `hands` row up
/// to `head_seq` whose times are not its records'.
pub async fn first_problem(
    db: &Db,
    head_seq: i64,
    found: Option<Problem>,
) -> Result<Option<Problem>, StoreError> {
    type Found = (String, String, String, i64, Option<String>, Option<String>);
    let row: Option<Found> = on_pool!(db, |pool| sqlx::query(MISMATCH)
        .bind(head_seq)
        .fetch_optional(pool)
        .await?
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5))));
    let mine = row.map(|(id, opened_at, updated_at, seq, first, last)| {
        let (field, stored, recorded) = if first.as_deref() != Some(opened_at.as_str()) {
            ("opened_at", opened_at, first)
        } else {
            ("updated_at", updated_at, last)
        };
        let recorded = recorded.map_or("no record".to_string(), |t| format!("{t:?}"));
        Problem {
            seq,
            kind: "projection",
            message: format!(
                "seq {seq}: hands row {id}: {field} is {stored:?} in the row, {recorded} from its records"
            ),
        }
    });
    Ok(match (found, mine) {
        (Some(f), Some(m)) => Some(if m.seq < f.seq { m } else { f }),
        (f, m) => f.or(m),
    })
}
