//! What the floor reads besides the tables, their open hands and rotation
//! clocks: each table's hands and drop since its shift began, and the
//! hands noted (disputed) since. Each one statement, however many tables.

use std::collections::HashMap;

use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::domain::history::units::from_e4;
use crate::store::history::totals::by_state;
use crate::store::{Db, StoreError};

/// A table's hands since a time, by the totals' rule: the closed hands
/// and their drop (the house collection), the voided counted apart.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub closed: i64,
    pub voided: i64,
    pub drop: Money,
}

/// Each table's [`Tally`] of the hands opened at or after `since` (UTC,
/// as `opened_at` is written), by `hands_by_time`.
pub async fn tallies_since(db: &Db, since: &str) -> Result<HashMap<String, Tally>, StoreError> {
    let [closed, _, voided] = by_state("status");
    let sql = format!(
        "SELECT table_id, CAST(SUM(CASE WHEN {closed} THEN 1 ELSE 0 END) AS BIGINT), \
         CAST(SUM(CASE WHEN {voided} THEN 1 ELSE 0 END) AS BIGINT), \
         CAST(COALESCE(SUM(CASE WHEN {closed} THEN collection_e4 END), 0) AS BIGINT) \
         FROM hands WHERE opened_at >= $1 GROUP BY table_id"
    );
    let rows: Vec<(String, i64, i64, i64)> = on_pool!(db, |pool| sqlx::query_as(&sql)
        .bind(since)
        .fetch_all(pool)
        .await?);
    Ok(rows
        .into_iter()
        .map(|(table, closed, voided, drop)| {
            let tally = Tally {
                closed,
                voided,
                drop: from_e4(drop),
            };
            (table, tally)
        })
        .collect())
}

/// A note added to a hand: the hand, who, when (UTC) and the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandNote {
    pub hand_id: String,
    pub table: String,
    pub number: i64,
    pub by: String,
    pub at: String,
    pub text: String,
}

/// The notes recorded at or after `since` (UTC), newest first, at most
/// `limit`: the newest `limit` notes by the notes' own index (migration
/// 0016), those before `since` left out. A time condition in the statement
/// would have SQLite walk every record since by `audit_log_by_time`.
pub async fn notes_since(db: &Db, since: &str, limit: i64) -> Result<Vec<HandNote>, StoreError> {
    let sql = "SELECT a.hand_id, h.table_id, h.number, a.actor, a.recorded_at, a.payload \
               FROM audit_log a JOIN hands h ON h.id = a.hand_id \
               WHERE a.event_type = 'hand_note_added' ORDER BY a.seq DESC LIMIT $1";
    type Row = (String, String, i64, String, String, String);
    let rows: Vec<Row> = on_pool!(db, |pool| sqlx::query_as(sql)
        .bind(limit)
        .fetch_all(pool)
        .await?);
    rows.into_iter()
        .filter(|(_, _, _, _, at, _)| at.as_str() >= since)
        .map(|(hand_id, table, number, by, at, payload)| {
            let text = match HandEvent::from_json(&payload) {
                Ok(HandEvent::HandNoteAdded { text }) => text,
                _ => {
                    return Err(StoreError::Internal(format!(
                        "hand {hand_id}: a note record is not a note"
                    )));
                }
            };
            Ok(HandNote {
                hand_id,
                table,
                number,
                by,
                at,
                text,
            })
        })
        .collect()
}
