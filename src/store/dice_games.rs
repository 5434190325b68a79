//! Dice games kept at the table (10,000 and poker dice). The game's state is
//! a projection row; every action is an audit record (`ten_thousand_started`,
//! `ten_thousand_action`, `ten_thousand_finished`, and the same for
//! `poker_dice_…`) appended in the same transaction. An action names
//! the version it was built on (a stale page is refused) and carries a key
//! (a double tap records once).

use serde_json::json;
use sqlx::Row;

use super::audit::{self, NewRecord, canonical_json};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::audit::AuditKey;
use crate::domain::poker_dice::{PokerDiceError, RoundAction, RoundKeeper};
use crate::domain::ten_thousand::{Keeper, KeeperAction, TenThousandError};

/// A game's state, by kind.
#[derive(Debug, Clone)]
pub enum DiceState {
    TenThousand(Keeper),
    PokerDice(RoundKeeper),
}

/// An action, by kind.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum DiceAction {
    TenThousand(KeeperAction),
    PokerDice(RoundAction),
}

impl DiceState {
    pub fn kind(&self) -> &'static str {
        match self {
            DiceState::TenThousand(_) => "ten-thousand",
            DiceState::PokerDice(_) => "poker-dice",
        }
    }

    /// The prefix of the game's audit event types.
    fn event_prefix(&self) -> &'static str {
        match self {
            DiceState::TenThousand(_) => "ten_thousand",
            DiceState::PokerDice(_) => "poker_dice",
        }
    }

    pub fn players(&self) -> &[String] {
        match self {
            DiceState::TenThousand(k) => &k.players,
            DiceState::PokerDice(k) => &k.players,
        }
    }

    fn finished(&self) -> bool {
        match self {
            DiceState::TenThousand(k) => k.sheet().is_ok_and(|s| s.finished),
            DiceState::PokerDice(k) => k.finished(),
        }
    }

    /// Who won, for the `…_finished` record.
    fn outcome(&self) -> serde_json::Value {
        match self {
            DiceState::TenThousand(k) => match k.sheet() {
                Ok(s) => json!({"winner": s.winner, "totals": s.totals, "reason": s.reason}),
                Err(e) => json!({"error": e.to_string()}),
            },
            DiceState::PokerDice(k) => match k.result() {
                Some(Ok(r)) => json!({"winners": r.winner_names, "reason": r.decision.reason}),
                Some(Err(e)) => json!({"error": e.to_string()}),
                None => serde_json::Value::Null,
            },
        }
    }

    fn to_json(&self) -> Result<String, StoreError> {
        match self {
            DiceState::TenThousand(k) => canonical_json(k),
            DiceState::PokerDice(k) => canonical_json(k),
        }
    }

    fn from_json(kind: &str, text: &str) -> Result<DiceState, StoreError> {
        let bad = |e: serde_json::Error| StoreError::Internal(format!("stored dice game: {e}"));
        match kind {
            "ten-thousand" => serde_json::from_str(text)
                .map(DiceState::TenThousand)
                .map_err(bad),
            "poker-dice" => serde_json::from_str(text)
                .map(DiceState::PokerDice)
                .map_err(bad),
            other => Err(StoreError::Internal(format!(
                "stored dice game of kind {other:?}"
            ))),
        }
    }

    fn apply(&self, action: &DiceAction) -> Result<DiceState, DiceGameError> {
        match (self, action) {
            (DiceState::TenThousand(k), DiceAction::TenThousand(a)) => {
                Ok(DiceState::TenThousand(k.apply(a)?))
            }
            (DiceState::PokerDice(k), DiceAction::PokerDice(a)) => {
                Ok(DiceState::PokerDice(k.apply(a)?))
            }
            _ => Err(DiceGameError::Rules {
                field: "action".into(),
                message: format!("not an action of a {} game", self.kind()),
            }),
        }
    }
}

#[derive(Debug, Clone)]
pub struct DiceGame {
    pub id: String,
    pub game: String,
    pub state: DiceState,
    pub status: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: String,
}

#[derive(Debug, thiserror::Error)]
pub enum DiceGameError {
    #[error("{field}: {message}")]
    Rules { field: String, message: String },
    #[error("version: the game is at version {current}, the page was at {expected}; reload it")]
    Stale { expected: i64, current: i64 },
    #[error("game: no game \"{0}\"")]
    Unknown(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<TenThousandError> for DiceGameError {
    fn from(e: TenThousandError) -> Self {
        DiceGameError::Rules {
            field: e.field,
            message: e.message,
        }
    }
}

impl From<PokerDiceError> for DiceGameError {
    fn from(e: PokerDiceError) -> Self {
        DiceGameError::Rules {
            field: e.field,
            message: e.message,
        }
    }
}

impl From<sqlx::Error> for DiceGameError {
    fn from(e: sqlx::Error) -> Self {
        DiceGameError::Store(StoreError::Query(e))
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

/// Starts a game (its players and options already checked by its engine).
pub async fn start(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    game: &DiceState,
) -> Result<String, DiceGameError> {
    let id = uuid::Uuid::now_v7().to_string();
    let now = audit::now_text();
    let state = game.to_json()?;
    let mut tx = begin_write(db).await?;
    let sql = "INSERT INTO dice_games (id, game, state, status, version, last_key, created_by, created_at, updated_at) \
               VALUES ($1, $2, $3, 'playing', 1, NULL, $4, $5, $5)";
    on_tx!(&mut tx, |c| sqlx::query(sql)
        .bind(&id)
        .bind(game.kind())
        .bind(&state)
        .bind(actor)
        .bind(&now)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let payload = json!({"game_id": id, "state": serde_json::from_str::<serde_json::Value>(&state)
        .map_err(|e| StoreError::Internal(e.to_string()))?});
    let event = format!("{}_started", game.event_prefix());
    record(&mut tx, key, actor, &event, payload).await?;
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
    let text: String = row.try_get("state")?;
    let game: String = row.try_get("game")?;
    let state = DiceState::from_json(&game, &text)?;
    Ok((
        DiceGame {
            id: row.try_get("id")?,
            game,
            state,
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
    action: &DiceAction,
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
    let state = game.state.apply(action)?;
    let status = if state.finished() {
        "finished"
    } else {
        "playing"
    };
    let now = audit::now_text();
    let update = "UPDATE dice_games SET state = $2, status = $3, version = version + 1, last_key = $4, \
                  updated_at = $5 WHERE id = $1 AND version = $6";
    on_tx!(&mut tx, |c| sqlx::query(update)
        .bind(id)
        .bind(state.to_json()?)
        .bind(status)
        .bind(idempotency_key)
        .bind(&now)
        .bind(expected_version)
        .execute(&mut **c)
        .await
        .map(drop)?);
    let prefix = state.event_prefix();
    let payload = json!({"game_id": id, "version": expected_version + 1, "action": action});
    record(&mut tx, key, actor, &format!("{prefix}_action"), payload).await?;
    if status == "finished" {
        let payload = json!({"game_id": id, "outcome": state.outcome()});
        record(&mut tx, key, actor, &format!("{prefix}_finished"), payload).await?;
    }
    tx.commit().await?;
    Ok(DiceGame {
        state,
        status: status.to_string(),
        version: expected_version + 1,
        ..game
    })
}
