//! Hands recorded before the search's projection existed (`summarized` =
//! 0 after migration 0015) get their totals and people from their events,
//! once, when the store opens. A hand whose events no longer read is left
//! as it is, with a warning: `audit verify` reports it.

use sqlx::Row;

use crate::domain::double_hand_poker::hand_record::{HandEvent, HandState};
use crate::store::{Db, StoreError, begin_write};

use super::projection::{HandSearch, UPDATE_SEARCH_COLUMNS, replace_people, search_values};
use crate::store::statement::{Exec, Statement, Value};

/// Hands filled per transaction.
const BATCH: i64 = 500;

/// Fills every unsummarized hand; returns how many.
pub async fn run(db: &Db) -> Result<u64, StoreError> {
    let mut done = 0;
    let mut skipped: Vec<String> = Vec::new();
    loop {
        let sql = format!("SELECT id FROM hands WHERE summarized = 0 ORDER BY id LIMIT {BATCH}");
        let ids: Vec<String> = on_pool!(db, |pool| sqlx::query(&sql)
            .fetch_all(pool)
            .await?
            .iter()
            .map(|r| r.get(0))
            .filter(|id: &String| !skipped.contains(id))
            .collect());
        if ids.is_empty() {
            return Ok(done);
        }
        let mut tx = begin_write(db).await?;
        for id in ids {
            let events_sql = "SELECT payload FROM audit_log WHERE hand_id = $1 ORDER BY seq";
            let payloads: Vec<String> = on_tx!(&mut tx, |c| sqlx::query(events_sql)
                .bind(&id)
                .fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect());
            let folded = payloads
                .iter()
                .map(|p| HandEvent::from_json(p).map_err(|e| e.to_string()))
                .collect::<Result<Vec<_>, _>>()
                .and_then(|events| HandState::fold(&events).map_err(|e| e.to_string()))
                .and_then(|state| HandSearch::of(&state).map_err(|e| e.to_string()));
            let search = match folded {
                Ok(search) => search,
                Err(e) => {
                    tracing::warn!(hand = %id, error = %e, "hand not summarized for search");
                    skipped.push(id);
                    continue;
                }
            };
            let values = std::iter::once(Value::text(&id))
                .chain(search_values(&search.columns))
                .collect();
            let update = Statement {
                sql: UPDATE_SEARCH_COLUMNS.to_string(),
                values,
            };
            tx.execute(&update).await?;
            replace_people(&mut tx, &[&id], &[(&id, &search)]).await?;
            done += 1;
        }
        tx.commit().await?;
    }
}
