//! `audit verify`'s check of `hand_days` (migration 0018), the search's
//! daily totals: each row must be the sum of the `hands` rows of its day,
//! table, state and correction, and every such group must have its row.
//! The `hands` rows are checked against the log (`hand_rows.rs`,
//! `hand_search.rs`), so this ties the totals to the log too. One
//! statement, so both sides are read at one snapshot whatever is written
//! meanwhile.

use sqlx::Row;

use super::Problem;
use crate::domain::history::units::from_e4;
use crate::store::{Db, StoreError};

/// The first group (by day, table, state, correction) where the hands and
/// `hand_days` disagree.
const SELECT_DIFFERENCE: &str = "WITH a AS (SELECT substr(opened_at, 1, 10) AS day, table_id, \
    status, corrected, COUNT(*) AS hands, CAST(SUM(wagered_e4) AS BIGINT) AS w, \
    CAST(COALESCE(SUM(collection_e4), 0) AS BIGINT) AS c, \
    CAST(COALESCE(SUM(pd_net_e4), 0) AS BIGINT) AS n FROM hands GROUP BY 1, 2, 3, 4) \
    SELECT COALESCE(a.day, d.day), COALESCE(a.table_id, d.table_id), \
    COALESCE(a.status, d.status), COALESCE(a.corrected, d.corrected), \
    a.hands, a.w, a.c, a.n, d.hands, d.wagered_e4, d.collection_e4, d.pd_net_e4 \
    FROM a FULL JOIN hand_days d ON d.day = a.day AND d.table_id = a.table_id \
    AND d.status = a.status AND d.corrected = a.corrected \
    WHERE a.hands IS NULL OR d.hands IS NULL OR a.hands <> d.hands OR a.w <> d.wagered_e4 \
    OR a.c <> d.collection_e4 OR a.n <> d.pd_net_e4 ORDER BY 1, 2, 3, 4 LIMIT 1";

/// One side of a group: hands, wagered, collection, PD results.
type Sums = (Option<i64>, Option<i64>, Option<i64>, Option<i64>);

fn words(s: Sums) -> String {
    match s {
        (Some(hands), Some(w), Some(c), Some(n)) => format!(
            "{hands} hands, {} wagered, {} collected, PD results {}",
            from_e4(w),
            from_e4(c),
            from_e4(n)
        ),
        _ => "no row".to_string(),
    }
}

/// The first disagreement as a problem at the walked head.
pub(super) async fn first_problem(db: &Db, head_seq: i64) -> Result<Option<Problem>, StoreError> {
    type Found = (String, String, String, i64, Sums, Sums);
    let found: Option<Found> = on_pool!(db, |pool| {
        match sqlx::query(SELECT_DIFFERENCE).fetch_optional(pool).await? {
            None => None,
            Some(r) => Some((
                r.try_get(0)?,
                r.try_get(1)?,
                r.try_get(2)?,
                r.try_get(3)?,
                (r.try_get(4)?, r.try_get(5)?, r.try_get(6)?, r.try_get(7)?),
                (r.try_get(8)?, r.try_get(9)?, r.try_get(10)?, r.try_get(11)?),
            )),
        }
    });
    Ok(found.map(|(day, table, status, corrected, hands, stored)| {
        let corrected = if corrected == 0 { "" } else { " corrected" };
        let hands = match hands.0 {
            None => "no hands".to_string(),
            Some(_) => words(hands),
        };
        Problem {
            seq: head_seq,
            kind: "projection",
            message: format!(
                "seq {head_seq}: hand_days for {day} at {table}, {status}{corrected}, holds {}; \
                 the hands rows give {hands}",
                words(stored)
            ),
        }
    }))
}
