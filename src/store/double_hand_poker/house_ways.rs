//! House ways a supervisor loaded (docs/house-ways.md, "Loading a house
//! way"): each load is a `house_way_loaded` audit record carrying the whole
//! file, written in the same transaction as its `house_ways` row; `audit
//! verify` checks every file again from the log and compares the rows
//! (`verify/house_ways.rs`). The core's registry holds the files this
//! process sets hands by; the store fills it.

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::domain::common::audit::AuditKey;
use crate::domain::double_hand_poker::house_way::loaded::{self, LOADED_MAX, LoadError};
use crate::domain::double_hand_poker::options::HouseWayName;
use crate::store::audit::{self, NewRecord, canonical_json};
use crate::store::write_error::WriteError;
use crate::store::{Db, StoreError, begin_write};

/// The record a load writes.
pub const HOUSE_WAY_LOADED: &str = "house_way_loaded";

/// A `house_way_loaded` record's payload: the name tables use and the file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoadedPayload {
    pub house_way: HouseWayName,
    pub text: String,
}

/// A loaded house way as the `house_ways` row keeps it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct StoredWay {
    /// What a table's `house_way` option names: `name@digest`.
    #[schema(value_type = String, example = "my-room@3fa2c1d09b7e")]
    pub house_way: HouseWayName,
    pub title: String,
    pub loaded_by: String,
    pub loaded_at: String,
    /// The seq of its `house_way_loaded` record.
    pub seq: i64,
}

fn refused(e: LoadError) -> WriteError {
    WriteError::invalid("text", e.to_string())
}

/// Checks `text` (in the core, on a blocking thread: under a second of
/// CPU) and records it, loaded by `actor`; its name. A file loaded before
/// is not recorded again.
pub async fn load(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    text: &str,
) -> Result<StoredWay, WriteError> {
    let owned = text.to_string();
    let name = tokio::task::spawn_blocking(move || loaded::register(&owned))
        .await
        .map_err(|e| StoreError::Internal(format!("house-way check: {e}")))?
        .map_err(refused)?;
    let mut tx = begin_write(db).await?;
    let sql = "SELECT COUNT(*), SUM(CASE WHEN name = $1 THEN 1 ELSE 0 END) FROM house_ways";
    let (count, same): (i64, Option<i64>) = on_tx!(&mut tx, |c| {
        let row = sqlx::query(sql)
            .bind(name.name())
            .fetch_one(&mut **c)
            .await?;
        (row.get(0), row.get(1))
    });
    if same.unwrap_or(0) == 0 {
        if count >= LOADED_MAX as i64 {
            return Err(WriteError::invalid(
                "text",
                format!("at most {LOADED_MAX} house ways can be loaded"),
            ));
        }
        let way = loaded::get(name).expect("registered above");
        let payload = LoadedPayload {
            house_way: name,
            text: text.to_string(),
        };
        let now = audit::now_text();
        let record = NewRecord {
            actor: actor.to_string(),
            table: None,
            hand: None,
            event_type: HOUSE_WAY_LOADED.to_string(),
            payload: canonical_json(&payload)?,
        };
        let written = audit::append_at(&mut tx, key, &[record], &now).await?;
        let seq = written.first().map_or(0, |r| r.seq);
        let insert = "INSERT INTO house_ways (name, title, text, loaded_by, loaded_at, loaded_seq) \
                      VALUES ($1, $2, $3, $4, $5, $6)";
        execute_on_tx!(&mut tx, insert, |q| q
            .bind(name.name())
            .bind(&way.file.title)
            .bind(text)
            .bind(actor)
            .bind(&now)
            .bind(seq));
        tx.commit().await?;
    }
    list(db)
        .await?
        .into_iter()
        .find(|w| w.house_way == name)
        .ok_or_else(|| StoreError::Internal("a loaded house way's row is missing".into()).into())
}

/// Every loaded house way, oldest first.
pub async fn list(db: &Db) -> Result<Vec<StoredWay>, StoreError> {
    let sql = "SELECT name, title, loaded_by, loaded_at, loaded_seq FROM house_ways \
               ORDER BY loaded_seq";
    let rows: Vec<(String, String, String, String, i64)> =
        on_pool!(db, |pool| sqlx::query_as(sql).fetch_all(pool).await?);
    rows.into_iter()
        .map(|(name, title, loaded_by, loaded_at, seq)| {
            Ok(StoredWay {
                house_way: HouseWayName::parse(&name).ok_or_else(|| {
                    StoreError::Internal(format!("stored house way name \"{name}\""))
                })?,
                title,
                loaded_by,
                loaded_at,
                seq,
            })
        })
        .collect()
}

/// Holds every stored house way this process does not hold yet (at open,
/// and when a name another instance loaded turns up); how many were new.
pub async fn hold_stored(db: &Db) -> Result<usize, StoreError> {
    let held: Vec<String> = loaded::all()
        .iter()
        .map(|w| w.name.name().to_string())
        .collect();
    let sql = "SELECT name, text FROM house_ways ORDER BY loaded_seq";
    let rows: Vec<(String, String)> =
        on_pool!(db, |pool| sqlx::query_as(sql).fetch_all(pool).await?);
    let new: Vec<(String, String)> = rows
        .into_iter()
        .filter(|(n, _)| !held.contains(n))
        .collect();
    if new.is_empty() {
        return Ok(0);
    }
    // A row that no longer loads as its name (changed outside pitbook) is
    // left unheld: its tables' hands are refused, and `audit verify` says
    // which record it differs from; the server still starts.
    let held = tokio::task::spawn_blocking(move || {
        new.into_iter()
            .filter(|(name, text)| match loaded::register(text) {
                Ok(held) if held.name() == name => true,
                Ok(held) => {
                    tracing::error!(house_way = %name, text_is = %held, "a stored house way's text is not its name's");
                    false
                }
                Err(e) => {
                    tracing::error!(house_way = %name, error = %e, "a stored house way does not load");
                    false
                }
            })
            .count()
    })
    .await
    .map_err(|e| StoreError::Internal(format!("house-way check: {e}")))?;
    Ok(held)
}

/// Holds the house way `name` if it is stored and not held yet: a table
/// or hand naming a way another instance loaded since this one started.
pub async fn hold(db: &Db, name: HouseWayName) -> Result<(), StoreError> {
    if matches!(name, HouseWayName::Loaded(_)) && loaded::get(name).is_none() {
        hold_stored(db).await?;
    }
    Ok(())
}
