//! Hands listed by their row: a table's newest, and every hand still open
//! in the room (the floor's), each a [`HandSummary`].

use super::tables::HandSummary;
use crate::store::{Db, StoreError};

/// A [`HandSummary`]'s row, with its hand's table.
#[derive(sqlx::FromRow)]
struct SummaryRow {
    id: String,
    status: String,
    dealer: String,
    bank: Option<String>,
    opened_at: String,
    corrected: bool,
    number: i64,
    pd: Option<String>,
    table_id: String,
}

impl SummaryRow {
    fn split(self) -> (String, HandSummary) {
        let hand = HandSummary {
            id: self.id,
            status: self.status,
            dealer: self.dealer,
            bank: self.bank,
            opened_at: self.opened_at,
            corrected: self.corrected,
            number: self.number,
            pd: self.pd,
        };
        (self.table_id, hand)
    }
}

const SUMMARY: &str = "SELECT id, status, dealer, CAST(bank AS TEXT) AS bank, opened_at, \
    EXISTS (SELECT 1 FROM audit_log a WHERE a.hand_id = hands.id \
            AND a.event_type = 'outcome_corrected') AS corrected, number, pd_name AS pd, \
    table_id FROM hands";

/// The table's hands, newest first (at most `limit`).
pub async fn hands(db: &Db, table: &str, limit: i64) -> Result<Vec<HandSummary>, StoreError> {
    let sql = format!("{SUMMARY} WHERE table_id = $1 ORDER BY opened_at DESC, id DESC LIMIT $2");
    let rows: Vec<SummaryRow> = on_pool!(db, |pool| sqlx::query_as(&sql)
        .bind(table)
        .bind(limit)
        .fetch_all(pool)
        .await?);
    Ok(rows.into_iter().map(|r| r.split().1).collect())
}

/// Every hand still open in the room, by table, oldest first: one
/// statement (`hands_by_status_time`) however many tables.
pub async fn open_hands(db: &Db) -> Result<Vec<(String, HandSummary)>, StoreError> {
    let sql = format!("{SUMMARY} WHERE status IN ('betting', 'dealt') ORDER BY opened_at, id");
    let rows: Vec<SummaryRow> = on_pool!(db, |pool| sqlx::query_as(&sql).fetch_all(pool).await?);
    Ok(rows.into_iter().map(SummaryRow::split).collect())
}
