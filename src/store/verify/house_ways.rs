//! `audit verify`'s check of the loaded house ways: every
//! `house_way_loaded` record's file is checked again by the core and held,
//! before any hand is replayed (a hand at a table playing a loaded way is
//! replayed with the file its record names, or is a problem), and the
//! `house_ways` rows are compared with the records field by field.
//!
//! Every record up to the walked head is read, also before `--from`: a
//! hand after an anchor may play a way loaded before it. The records are
//! few (at most `LOADED_MAX`), read through the partial index of the
//! records without a hand (migration 0011).

use std::collections::BTreeMap;

use super::Problem;
use crate::domain::double_hand_poker::house_way::loaded;
use crate::store::double_hand_poker::house_ways::{HOUSE_WAY_LOADED, LoadedPayload};
use crate::store::{Db, StoreError};

fn problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: {message}"),
    }
}

/// A `house_ways` row, as text.
#[derive(Debug, PartialEq, Eq)]
struct Row {
    title: String,
    text: String,
    loaded_by: String,
    loaded_at: String,
    loaded_seq: i64,
}

/// Holds every loaded house way the log records up to `head_seq`, and
/// compares the rows; the first problem.
pub async fn hold_and_check(db: &Db, head_seq: i64) -> Result<Option<Problem>, StoreError> {
    // The rows first: a way loaded after this read has its record after
    // the head, and is skipped.
    let rows_sql = "SELECT name, title, text, loaded_by, loaded_at, loaded_seq FROM house_ways";
    let records_sql = format!(
        "SELECT seq, recorded_at, actor, payload FROM audit_log \
         WHERE hand_id IS NULL AND event_type = '{HOUSE_WAY_LOADED}' AND seq <= $1 ORDER BY seq"
    );
    type DbRow = (String, String, String, String, String, i64);
    type DbRecord = (i64, String, String, String);
    let (rows, records): (Vec<DbRow>, Vec<DbRecord>) = on_pool!(db, |pool| {
        let rows = sqlx::query_as(rows_sql).fetch_all(pool).await?;
        let records = sqlx::query_as(&records_sql)
            .bind(head_seq)
            .fetch_all(pool)
            .await?;
        (rows, records)
    });
    let mut rows: BTreeMap<String, Row> = rows
        .into_iter()
        .filter(|r| r.5 <= head_seq)
        .map(|(name, title, text, loaded_by, loaded_at, loaded_seq)| {
            let row = Row {
                title,
                text,
                loaded_by,
                loaded_at,
                loaded_seq,
            };
            (name, row)
        })
        .collect();
    let checked = tokio::task::spawn_blocking(move || {
        for (seq, recorded_at, actor, payload) in records {
            let payload: LoadedPayload = match serde_json::from_str(&payload) {
                Ok(p) => p,
                Err(e) => return Some(problem(seq, format!("house_way_loaded: {e}"))),
            };
            let name = payload.house_way.name().to_string();
            let held = match loaded::register(&payload.text) {
                Ok(held) => held,
                Err(e) => {
                    return Some(problem(seq, format!("house way {name} does not load: {e}")));
                }
            };
            if held != payload.house_way {
                return Some(problem(
                    seq,
                    format!("house way {name}: its text is {held}'s (the digest differs)"),
                ));
            }
            let way = loaded::get(held).expect("registered above");
            let expected = Row {
                title: way.file.title.clone(),
                text: payload.text,
                loaded_by: actor,
                loaded_at: recorded_at,
                loaded_seq: seq,
            };
            match rows.remove(&name) {
                None => return Some(problem(seq, format!("house way {name} has no row"))),
                Some(row) if row != expected => {
                    return Some(problem(
                        seq,
                        format!("house way {name}'s row differs from its record"),
                    ));
                }
                Some(_) => {}
            }
        }
        rows.into_iter().next().map(|(name, row)| {
            problem(
                row.loaded_seq,
                format!("house way {name} has a row but no record"),
            )
        })
    })
    .await
    .map_err(|e| StoreError::Internal(format!("house-way check: {e}")))?;
    Ok(checked)
}
