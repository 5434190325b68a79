//! `audit verify`'s check of the search's rollups (migrations 0018, 0028,
//! 0030): `hand_days`, each UTC day's hands by table, state and correction,
//! `hand_dealer_days`, each day's by dealer, state and correction, and
//! `hand_amounts`, each bank amount's and largest wager's hands by state.
//! Each row must be the sum of the `hands` rows it keys, and every such
//! group must have its row. The `hands` rows are checked against the log
//! (`hand_rows.rs`, `hand_search.rs`), so this ties the totals to the log
//! too. One statement per rollup, so both sides are read at one snapshot
//! whatever is written meanwhile.

use sqlx::Row;

use super::Problem;
use crate::domain::history::units::from_e4;
use crate::store::{Db, StoreError};

/// The sums of a group of hands, as both sides keep them.
const SUMS: &str = "COUNT(*) AS hands, CAST(SUM(wagered_e4) AS BIGINT) AS w, \
    CAST(COALESCE(SUM(collection_e4), 0) AS BIGINT) AS c, \
    CAST(COALESCE(SUM(pd_net_e4), 0) AS BIGINT) AS n";

/// Where a group's two sides differ (or one is missing).
const DIFFERS: &str = "WHERE a.hands IS NULL OR d.hands IS NULL OR a.hands <> d.hands \
    OR a.w <> d.wagered_e4 OR a.c <> d.collection_e4 OR a.n <> d.pd_net_e4";

/// A rollup of each UTC day's hands: its table and its keys in order
/// (`day` is the hand's `opened_at` day, the others its columns of the
/// same name; the last two the state and the correction), and the word
/// between the first two in a group's name ("2026-11-02 at B01, closed").
struct RollupShape {
    table: &'static str,
    keys: [&'static str; 4],
    between: &'static str,
}

const DAY_ROLLUPS: [RollupShape; 2] = [
    RollupShape {
        table: "hand_days",
        keys: ["day", "table_id", "status", "corrected"],
        between: "at",
    },
    RollupShape {
        table: "hand_dealer_days",
        keys: ["dealer", "day", "status", "corrected"],
        between: "on",
    },
];

/// The first group of `rollup` where the rollup and the hands disagree:
/// its name, then the hands' sums, then the row's. From a day on (`$1`, the
/// first day a verification from an anchor touched, `YYYY-MM-DD`: every
/// hand opened that day compares above it) or, `since` false, every day.
fn days_sql(rollup: &RollupShape, since: bool) -> String {
    let table = rollup.table;
    let (hands, days) = if since {
        (
            "(SELECT * FROM hands WHERE opened_at >= $1)".to_string(),
            format!("(SELECT * FROM {table} WHERE day >= $1)"),
        )
    } else {
        ("hands".to_string(), table.to_string())
    };
    let keyed = |key: &str| match key {
        "day" => "substr(opened_at, 1, 10) AS day".to_string(),
        column => column.to_string(),
    };
    let group: Vec<String> = rollup.keys.iter().map(|k| keyed(k)).collect();
    let k = |key: &str| format!("COALESCE(a.{key}, d.{key})");
    let on: Vec<String> = rollup
        .keys
        .iter()
        .map(|c| format!("d.{c} = a.{c}"))
        .collect();
    let coalesced = rollup.keys.map(k);
    let order = coalesced.join(", ");
    let [first, second, status, corrected] = &coalesced;
    let name = format!(
        "{first} || ' {} ' || {second} || ', ' || {status} \
         || CASE WHEN {corrected} = 0 THEN '' ELSE ' corrected' END",
        rollup.between
    );
    format!(
        "WITH a AS (SELECT {group}, {SUMS} FROM {hands} h GROUP BY 1, 2, 3, 4) \
         SELECT {name}, a.hands, a.w, a.c, a.n, d.hands, d.wagered_e4, d.collection_e4, \
         d.pd_net_e4 FROM a FULL JOIN {days} d ON {on} {DIFFERS} ORDER BY {order} LIMIT 1",
        group = group.join(", "),
        on = on.join(" AND "),
    )
}

/// The first amount kind, amount and state where they disagree, as
/// [`days_sql`].
fn amounts_sql() -> String {
    format!(
        "WITH a AS (SELECT 'bank' AS amount, bank_e4 AS amount_e4, status, {SUMS} FROM hands \
         WHERE bank_e4 IS NOT NULL GROUP BY bank_e4, status \
         UNION ALL SELECT 'max_wager', max_wager_e4, status, {SUMS} FROM hands \
         WHERE max_wager_e4 IS NOT NULL GROUP BY max_wager_e4, status) \
         SELECT COALESCE(a.amount, d.amount), COALESCE(a.amount_e4, d.amount_e4), \
         COALESCE(a.status, d.status), \
         a.hands, a.w, a.c, a.n, d.hands, d.wagered_e4, d.collection_e4, d.pd_net_e4 \
         FROM a FULL JOIN hand_amounts d ON d.amount = a.amount \
         AND d.amount_e4 = a.amount_e4 AND d.status = a.status {DIFFERS} \
         ORDER BY COALESCE(a.amount, d.amount), COALESCE(a.amount_e4, d.amount_e4), \
         COALESCE(a.status, d.status) LIMIT 1"
    )
}

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

/// A differing group: its name, the hands' sums and the row's.
type Difference = (String, Sums, Sums);

/// Reads the difference `sql` finds; `name` makes the group's name from the
/// columns before the sums (`keys` of them).
async fn difference(
    db: &Db,
    sql: &str,
    since: Option<&str>,
    keys: usize,
    name: impl Fn(&[String]) -> String,
) -> Result<Option<Difference>, StoreError> {
    macro_rules! read {
        ($r:expr) => {{
            let r = $r;
            let mut parts = Vec::new();
            for i in 0..keys {
                parts.push(match r.try_get::<String, _>(i) {
                    Ok(text) => text,
                    Err(_) => from_e4(r.try_get::<i64, _>(i)?).to_string(),
                });
            }
            let side = |at: usize| -> Result<Sums, sqlx::Error> {
                Ok((
                    r.try_get(at)?,
                    r.try_get(at + 1)?,
                    r.try_get(at + 2)?,
                    r.try_get(at + 3)?,
                ))
            };
            (name(&parts), side(keys)?, side(keys + 4)?)
        }};
    }
    Ok(on_pool!(db, |pool| {
        let query = match since {
            Some(day) => sqlx::query(sql).bind(day),
            None => sqlx::query(sql),
        };
        match query.fetch_optional(pool).await? {
            None => None,
            Some(r) => Some(read!(r)),
        }
    }))
}

/// The first disagreement of either rollup, as a problem at the walked head.
pub(super) async fn first_problem(
    db: &Db,
    head_seq: i64,
    from: i64,
) -> Result<Option<Problem>, StoreError> {
    // From an anchor: the days from the first one a hand touched since it
    // opened (its rows are read by `hands_by_time`); the amounts' rollups
    // sum hands of every year, so only a whole verification checks them.
    let since: Option<String> = if from <= 1 {
        None
    } else {
        // The day, not the time: MIN(opened_at) would be read by walking
        // `hands_by_time` from the first hand ever (230 ms at 700,000
        // hands), where this reads the hands since `from` by `last_seq`.
        let sql = "SELECT MIN(substr(opened_at, 1, 10)) FROM hands WHERE last_seq >= $1";
        let first_day: Option<String> = on_pool!(db, |pool| sqlx::query(sql)
            .bind(from)
            .fetch_one(pool)
            .await?
            .try_get(0)?);
        match first_day {
            None => return Ok(None),
            day => day,
        }
    };
    let mut found = None;
    for rollup in &DAY_ROLLUPS {
        let sql = days_sql(rollup, since.is_some());
        found = difference(db, &sql, since.as_deref(), 1, |k| {
            format!("{} for {}", rollup.table, k[0])
        })
        .await?;
        if found.is_some() {
            break;
        }
    }
    if found.is_none() && since.is_none() {
        found = difference(db, &amounts_sql(), None, 3, |k| {
            format!("hand_amounts for {} {}, {}", k[0], k[1], k[2])
        })
        .await?;
    }
    Ok(found.map(|(group, hands, stored)| {
        let hands = match hands.0 {
            None => "no hands".to_string(),
            Some(_) => words(hands),
        };
        Problem {
            seq: head_seq,
            kind: "projection",
            message: format!(
                "seq {head_seq}: {group} holds {}; the hands rows give {hands}",
                words(stored)
            ),
        }
    }))
}
