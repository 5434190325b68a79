//! Hands listed by their row: a table's newest, and every hand still open
//! in the room (the floor's), each a [`HandSummary`].

use sqlx::Row;

use super::tables::HandSummary;
use crate::store::{Db, StoreError};

/// The columns of a [`HandSummary`], then the hand's table.
const SUMMARY: &str = "SELECT id, status, dealer, CAST(bank AS TEXT), opened_at, \
    EXISTS (SELECT 1 FROM audit_log a WHERE a.hand_id = hands.id \
            AND a.event_type = 'outcome_corrected'), number, pd_name, table_id FROM hands";

/// The table's hands, newest first (at most `limit`).
pub async fn hands(db: &Db, table: &str, limit: i64) -> Result<Vec<HandSummary>, StoreError> {
    let sql = format!("{SUMMARY} WHERE table_id = $1 ORDER BY opened_at DESC, id DESC LIMIT $2");
    Ok(on_pool!(db, |pool| sqlx::query(&sql)
        .bind(table)
        .bind(limit)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| summary(r).1)
        .collect()))
}

/// Every hand still open in the room, by table, oldest first: one
/// statement (`hands_by_status_time`) however many tables.
pub async fn open_hands(db: &Db) -> Result<Vec<(String, HandSummary)>, StoreError> {
    let sql = format!("{SUMMARY} WHERE status IN ('betting', 'dealt') ORDER BY opened_at, id");
    Ok(on_pool!(db, |pool| sqlx::query(&sql)
        .fetch_all(pool)
        .await?
        .iter()
        .map(summary)
        .collect()))
}

fn summary<R: Row>(r: &R) -> (String, HandSummary)
where
    for<'c> &'c str: sqlx::ColumnIndex<R>,
    usize: sqlx::ColumnIndex<R>,
    String: for<'r> sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    Option<String>: for<'r> sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    bool: for<'r> sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
    i64: for<'r> sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    let hand = HandSummary {
        id: r.get(0),
        status: r.get(1),
        dealer: r.get(2),
        bank: r.get(3),
        opened_at: r.get(4),
        corrected: r.get(5),
        number: r.get(6),
        pd: r.get(7),
    };
    (r.get(8), hand)
}
