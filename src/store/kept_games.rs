//! The mechanics every game kept at the table shares (dice games, Tripoley):
//! a projection row holding the game's canonical JSON, a version that each
//! action names (a stale page is refused), the last action's key (a double
//! tap records once), and an audit record per action appended in the same
//! transaction as the row's change. The row's times are its records'
//! `recorded_at` and the action's key is in its first record, so `audit
//! verify` re-derives both. What a game *is* stays with its module.

use sqlx::Row;

use super::audit::{self, NewRecord, canonical_json};

/// The field of an action's first record that holds the action's
/// idempotency key (the row's `last_key`).
pub(crate) const KEY_FIELD: &str = "key";
use super::{Db, StoreError, WriteTx};
use crate::domain::common::audit::AuditKey;

/// The tables of kept games; the names are constants, never input.
#[derive(Debug, Clone, Copy)]
pub(super) enum KeptTable {
    Dice,
    Tripoley,
}

impl KeptTable {
    fn select(self) -> &'static str {
        match self {
            KeptTable::Dice => {
                "SELECT id, game, state, status, version, created_by, created_at, last_key FROM dice_games"
            }
            KeptTable::Tripoley => {
                "SELECT id, CAST(NULL AS TEXT) AS game, state, status, version, created_by, created_at, \
                 last_key FROM tripoley_games"
            }
        }
    }

    fn name(self) -> &'static str {
        match self {
            KeptTable::Dice => "dice_games",
            KeptTable::Tripoley => "tripoley_games",
        }
    }
}

/// A kept game's row as stored.
#[derive(Debug, Clone)]
pub(super) struct KeptRow {
    pub id: String,
    /// The kind of game, where the table holds several.
    pub kind: Option<String>,
    pub state: String,
    pub status: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: String,
    pub last_key: Option<String>,
}

/// Why an action on a kept game was refused or failed.
#[derive(Debug, thiserror::Error)]
pub enum KeptGameError {
    /// The game's rules refused the action: its field error.
    #[error(transparent)]
    Rules(crate::domain::common::field_error::FieldError),
    #[error("version: the game is at version {current}, the page was at {expected}; reload it")]
    Stale { expected: i64, current: i64 },
    #[error("game: no game \"{0}\"")]
    Unknown(String),
    /// A game's own error that is not bad input: a bug, shown as internal.
    #[error("internal error: {0}")]
    Game(#[source] Box<dyn std::error::Error + Send + Sync>),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for KeptGameError {
    fn from(e: sqlx::Error) -> Self {
        KeptGameError::Store(StoreError::Query(e))
    }
}

fn from_row<R: Row>(row: &R) -> Result<KeptRow, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    Ok(KeptRow {
        id: row.try_get("id")?,
        kind: row.try_get("game")?,
        state: row.try_get("state")?,
        status: row.try_get("status")?,
        version: row.try_get("version")?,
        created_by: row.try_get("created_by")?,
        created_at: row.try_get("created_at")?,
        last_key: row.try_get("last_key")?,
    })
}

pub(super) async fn get(
    db: &Db,
    table: KeptTable,
    id: &str,
) -> Result<Option<KeptRow>, StoreError> {
    let sql = format!("{} WHERE id = $1", table.select());
    Ok(on_pool!(db, |pool| sqlx::query(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()?))
}

/// The newest games first.
pub(super) async fn list(
    db: &Db,
    table: KeptTable,
    limit: i64,
) -> Result<Vec<KeptRow>, StoreError> {
    let sql = format!(
        "{} ORDER BY created_at DESC, id DESC LIMIT $1",
        table.select()
    );
    on_pool!(db, |pool| sqlx::query(&sql)
        .bind(limit)
        .fetch_all(pool)
        .await?
        .iter()
        .map(from_row)
        .collect())
}

/// What an action may do with the game, read inside the write transaction.
pub(super) enum Claim {
    /// The same key as the last action: answer with the game as it is.
    Repeat(KeptRow),
    /// The action may go on from this row.
    Go(KeptRow),
}

/// Reads the game for an action: unknown game, stale version or a repeated
/// key are decided here, before the game's own rules.
pub(super) async fn claim(
    tx: &mut WriteTx,
    table: KeptTable,
    id: &str,
    expected_version: i64,
    idempotency_key: &str,
) -> Result<Claim, KeptGameError> {
    let sql = format!("{} WHERE id = $1", table.select());
    let row = on_tx!(tx, |c| sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut **c)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()?);
    let Some(row) = row else {
        return Err(KeptGameError::Unknown(id.to_string()));
    };
    if !idempotency_key.is_empty() && row.last_key.as_deref() == Some(idempotency_key) {
        return Ok(Claim::Repeat(row));
    }
    if row.version != expected_version {
        return Err(KeptGameError::Stale {
            expected: expected_version,
            current: row.version,
        });
    }
    Ok(Claim::Go(row))
}

/// A new game's row (version 1), with `kind` where the table holds several.
pub(super) async fn insert(
    tx: &mut WriteTx,
    table: KeptTable,
    kind: Option<&str>,
    state: &str,
    actor: &str,
    now: &str,
) -> Result<String, StoreError> {
    let id = uuid::Uuid::now_v7().to_string();
    // Only the dice table records the kind of game.
    let (sql, kind) = match table {
        KeptTable::Dice => (
            "INSERT INTO dice_games (id, state, created_by, created_at, updated_at, status, version, game) \
             VALUES ($1, $2, $3, $4, $4, 'playing', 1, $5)",
            Some(kind.unwrap_or_default()),
        ),
        KeptTable::Tripoley => (
            "INSERT INTO tripoley_games (id, state, created_by, created_at, updated_at, status, version) \
             VALUES ($1, $2, $3, $4, $4, 'playing', 1)",
            None,
        ),
    };
    on_tx!(tx, |c| {
        let query = sqlx::query(sql).bind(&id).bind(state).bind(actor).bind(now);
        let query = match kind {
            Some(kind) => query.bind(kind),
            None => query,
        };
        query.execute(&mut **c).await.map(drop)?
    });
    Ok(id)
}

/// The game after an action: its new state and status, the action's key,
/// and `now` (the time its records are written with).
pub(super) async fn update(
    tx: &mut WriteTx,
    table: KeptTable,
    row: &KeptRow,
    state: &str,
    status: &str,
    idempotency_key: &str,
    now: &str,
) -> Result<(), StoreError> {
    let sql = format!(
        "UPDATE {} SET state = $2, status = $3, version = version + 1, last_key = $4, \
         updated_at = $5 WHERE id = $1 AND version = $6",
        table.name()
    );
    on_tx!(tx, |c| sqlx::query(&sql)
        .bind(&row.id)
        .bind(state)
        .bind(status)
        .bind(idempotency_key)
        .bind(now)
        .bind(row.version)
        .execute(&mut **c)
        .await
        .map(drop)?);
    Ok(())
}

/// One audit record of a kept game's action, recorded at `now` (the time
/// the row is written with).
pub(super) async fn record(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    event_type: &str,
    payload: serde_json::Value,
    now: &str,
) -> Result<(), StoreError> {
    let record = NewRecord {
        actor: actor.to_string(),
        table: None,
        hand: None,
        event_type: event_type.to_string(),
        payload: canonical_json(&payload)?,
    };
    audit::append_at(tx, key, &[record], now).await.map(drop)
}
