//! Dice games kept at the table (10,000). The game's state is a projection
//! row; every action is an audit record (`ten_thousand_started`,
//! `ten_thousand_action`) appended in the same transaction. An action names
//! the version it was built on (a stale page is refused) and carries a key
//! (a double tap records once).

use serde_json::json;
use sqlx::Row;

use super::audit::{self, NewRecord, canonical_json};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::audit::AuditKey;
use crate::domain::ten_thousand::{Keeper, KeeperAction, TenThousandError};

pub const GAME_TEN_THOUSAND: &str = "ten-thousand";

#[derive(Debug, Clone)]
pub struct DiceGame {
    pub id: String,
    pub game: String,
    pub keeper: Keeper,
    pub status: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DiceGameError {
    #[error(transparent)]
    Rules(#[from] TenThousandError),
    #[error("version: the game is at version {current}, the page was at {expected}; reload it")]
    Stale { expected: i64, current: i64 },
    #[error("game: no game \"{0}\"")]
    Unknown(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for DiceGameError {
    fn from(e: sqlx::Error) -> Self {
        DiceGameError::Store(StoreError::Query(e))
    }
}

fn state_json(keeper: &Keeper) -> Result<String, StoreError> {
    canonical_json(keeper)
}

fn status_of(keeper: &Keeper) -> &'static str {
    match keeper.sheet() {
        Ok(sheet) if sheet.finished => "finished",
        _ => "playing",
    }
}

async fn record(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    event_type: &str,
    payload: serde_json::Value,
) -> Result<(), StoreError> {
    let record = NewRecord {
        actor: actor.to_string(),
        table: None,
        hand: None,
        event_type: event_type.to_string(),
        payload: canonical_json(&payload)?,
    };
    audit::append(tx, key, &[record]).await.map(drop)
}

/// Starts a game of 10,000 (players and options checked by the engine).
pub async fn start(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    keeper: &Keeper,
) -> Result<String, DiceGameError> {
    keeper.sheet()?;
    let id = uuid::Uuid::now_v7().to_string();
    let now = audit::now_text();
    let state = state_json(keeper)?;
    let mut tx = begin_write(db).await?;
    let sql = "INSERT INTO dice_games (id, game, state, status, version, last_key, created_by, created_at, updated_at) \
               VALUES ($1, $2, $3, 'playing', 1, NULL, $4, $5, $5)";
    on_tx!(&mut tx, |c| sqlx::query(sql)
        .bind(&id)
        .bind(GAME_TEN_THOUSAND)
        .bind(&state)
        .bind(actor)
        .bind(&now)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let payload = json!({"game_id": id, "players": keeper.players, "options": keeper.options});
    record(&mut tx, key, actor, "ten_thousand_started", payload).await?;
    tx.commit().await?;
    Ok(id)
}

const SELECT: &str =
    "SELECT id, game, state, status, version, created_by, created_at, last_key FROM dice_games";

fn from_row<R: Row>(row: &R) -> Result<(DiceGame, Option<String>), StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let state: String = row.try_get("state")?;
    let keeper = serde_json::from_str(&state)
        .map_err(|e| StoreError::Internal(format!("stored dice game: {e}")))?;
    Ok((
        DiceGame {
            id: row.try_get("id")?,
            game: row.try_get("game")?,
            keeper,
            status: row.try_get("status")?,
            version: row.try_get("version")?,
            created_by: row.try_get("created_by")?,
            created_at: row.try_get("created_at")?,
        },
        row.try_get("last_key")?,
    ))
}

pub async fn get(db: &Db, id: &str) -> Result<Option<DiceGame>, StoreError> {
    let sql = format!("{SELECT} WHERE id = $1");
    Ok(on_pool!(db, |pool| sqlx::query(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()?
        .map(|(g, _)| g)))
}

/// The newest games first.
pub async fn list(db: &Db, limit: i64) -> Result<Vec<DiceGame>, StoreError> {
    let sql = format!("{SELECT} ORDER BY created_at DESC, id DESC LIMIT $1");
    on_pool!(db, |pool| sqlx::query(&sql)
        .bind(limit)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| from_row(r).map(|(g, _)| g))
        .collect())
}

/// Applies one action. A repeat of the last action's key returns the game
/// as it is and records nothing.
pub async fn act(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    id: &str,
    expected_version: i64,
    idempotency_key: &str,
    action: &KeeperAction,
) -> Result<DiceGame, DiceGameError> {
    let mut tx = begin_write(db).await?;
    let sql = format!("{SELECT} WHERE id = $1");
    let row = on_tx!(&mut tx, |c| sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut **c)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()?);
    let Some((game, last_key)) = row else {
        return Err(DiceGameError::Unknown(id.to_string()));
    };
    if !idempotency_key.is_empty() && last_key.as_deref() == Some(idempotency_key) {
        return Ok(game);
    }
    if game.version != expected_version {
        return Err(DiceGameError::Stale {
            expected: expected_version,
            current: game.version,
        });
    }
    let keeper = game.keeper.apply(action)?;
    let status = status_of(&keeper);
    let now = audit::now_text();
    let update = "UPDATE dice_games SET state = $2, status = $3, version = version + 1, last_key = $4, \
                  updated_at = $5 WHERE id = $1 AND version = $6";
    on_tx!(&mut tx, |c| sqlx::query(update)
        .bind(id)
        .bind(state_json(&keeper)?)
        .bind(status)
        .bind(idempotency_key)
        .bind(&now)
        .bind(expected_version)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let payload = json!({"game_id": id, "version": expected_version + 1, "action": action});
    record(&mut tx, key, actor, "ten_thousand_action", payload).await?;
    if status == "finished" {
        let sheet = keeper.sheet()?;
        let payload = json!({"game_id": id, "winner": sheet.winner, "totals": sheet.totals});
        record(&mut tx, key, actor, "ten_thousand_finished", payload).await?;
    }
    tx.commit().await?;
    Ok(DiceGame {
        keeper,
        status: status.to_string(),
        version: expected_version + 1,
        ..game
    })
}
