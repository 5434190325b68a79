//! Tripoley games kept at the table. The game's state is a projection row
//! (canonical JSON of [`TripoleyGame`]); every action is an audit record
//! (`tripoley_started`, `tripoley_round` with the round's input and steps,
//! `tripoley_finished` with the last hand) appended in the same transaction.
//! An action names the version it was built on (a stale page is refused)
//! and carries a key (a double tap records once).

use serde_json::json;
use sqlx::Row;

use super::audit::{self, NewRecord, canonical_json};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::audit::AuditKey;
use crate::domain::tripoley::TripoleyError;
use crate::domain::tripoley::game::{RoundEntry, TripoleyGame};

/// An action on a game.
#[derive(Debug, Clone)]
pub enum TripoleyAction {
    Round(RoundEntry),
    /// Each player's last five cards.
    Final(Vec<(String, String)>),
}

#[derive(Debug, Clone)]
pub struct StoredGame {
    pub id: String,
    pub game: TripoleyGame,
    pub status: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum TripoleyGameError {
    #[error("{field}: {message}")]
    Rules { field: String, message: String },
    #[error("version: the game is at version {current}, the page was at {expected}; reload it")]
    Stale { expected: i64, current: i64 },
    #[error("game: no game \"{0}\"")]
    Unknown(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<TripoleyError> for TripoleyGameError {
    fn from(e: TripoleyError) -> Self {
        match e {
            TripoleyError::Input { field, message } => TripoleyGameError::Rules { field, message },
            other => TripoleyGameError::Store(StoreError::Internal(other.to_string())),
        }
    }
}

impl From<sqlx::Error> for TripoleyGameError {
    fn from(e: sqlx::Error) -> Self {
        TripoleyGameError::Store(StoreError::Query(e))
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

/// Starts a game (checked by [`TripoleyGame::start`]).
pub async fn start(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    game: &TripoleyGame,
) -> Result<String, TripoleyGameError> {
    let id = uuid::Uuid::now_v7().to_string();
    let now = audit::now_text();
    let state = canonical_json(game)?;
    let mut tx = begin_write(db).await?;
    let sql = "INSERT INTO tripoley_games (id, state, status, version, last_key, created_by, created_at, updated_at) \
               VALUES ($1, $2, 'playing', 1, NULL, $3, $4, $4)";
    on_tx!(&mut tx, |c| sqlx::query(sql)
        .bind(&id)
        .bind(&state)
        .bind(actor)
        .bind(&now)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let payload = json!({"game_id": id, "state": game});
    record(&mut tx, key, actor, "tripoley_started", payload).await?;
    tx.commit().await?;
    Ok(id)
}

const SELECT: &str =
    "SELECT id, state, status, version, created_by, created_at, last_key FROM tripoley_games";

fn from_row<R: Row>(row: &R) -> Result<(StoredGame, Option<String>), StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    let text: String = row.try_get("state")?;
    let game = serde_json::from_str(&text)
        .map_err(|e| StoreError::Internal(format!("stored tripoley game: {e}")))?;
    Ok((
        StoredGame {
            id: row.try_get("id")?,
            game,
            status: row.try_get("status")?,
            version: row.try_get("version")?,
            created_by: row.try_get("created_by")?,
            created_at: row.try_get("created_at")?,
        },
        row.try_get("last_key")?,
    ))
}

pub async fn get(db: &Db, id: &str) -> Result<Option<StoredGame>, StoreError> {
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
pub async fn list(db: &Db, limit: i64) -> Result<Vec<StoredGame>, StoreError> {
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
    action: &TripoleyAction,
) -> Result<StoredGame, TripoleyGameError> {
    let mut tx = begin_write(db).await?;
    let sql = format!("{SELECT} WHERE id = $1");
    let row = on_tx!(&mut tx, |c| sqlx::query(&sql)
        .bind(id)
        .fetch_optional(&mut **c)
        .await?
        .as_ref()
        .map(from_row)
        .transpose()?);
    let Some((stored, last_key)) = row else {
        return Err(TripoleyGameError::Unknown(id.to_string()));
    };
    if !idempotency_key.is_empty() && last_key.as_deref() == Some(idempotency_key) {
        return Ok(stored);
    }
    if stored.version != expected_version {
        return Err(TripoleyGameError::Stale {
            expected: expected_version,
            current: stored.version,
        });
    }
    let version = expected_version + 1;
    let (game, event, payload) = match action {
        TripoleyAction::Round(entry) => {
            let (game, out) = stored.game.apply_round(entry)?;
            let played = game.rounds.last().cloned();
            let payload = json!({
                "game_id": id,
                "version": version,
                "round": played.as_ref().map(|r| r.number),
                "input": played.as_ref().map(|r| &r.input),
                "steps": out.outcome.steps,
                "chips": out.outcome.chips,
                "board": out.outcome.board,
                "next_dealer": out.next_dealer,
            });
            (game, "tripoley_round", payload)
        }
        TripoleyAction::Final(hands) => {
            let (game, out) = stored.game.finish(hands)?;
            let payload = json!({
                "game_id": id,
                "version": version,
                "input": game.last_hand.as_ref().map(|r| &r.input),
                "steps": out.steps,
                "chips": out.chips,
                "money": out.money,
            });
            (game, "tripoley_finished", payload)
        }
    };
    let status = if game.finished() {
        "finished"
    } else {
        "playing"
    };
    let now = audit::now_text();
    let update = "UPDATE tripoley_games SET state = $2, status = $3, version = version + 1, last_key = $4, \
                  updated_at = $5 WHERE id = $1 AND version = $6";
    on_tx!(&mut tx, |c| sqlx::query(update)
        .bind(id)
        .bind(canonical_json(&game)?)
        .bind(status)
        .bind(idempotency_key)
        .bind(&now)
        .bind(expected_version)
        .execute(&mut **c)
        .await
        .map(drop)?);
    record(&mut tx, key, actor, event, payload).await?;
    tx.commit().await?;
    Ok(StoredGame {
        game,
        status: status.to_string(),
        version,
        ..stored
    })
}
