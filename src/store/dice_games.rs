//! Dice games kept at the table (10,000 and poker dice). The game's state is
//! a projection row; every action is an audit record (`ten_thousand_started`,
//! `ten_thousand_action`, `ten_thousand_finished`, and the same for
//! `poker_dice_…`) appended in the same transaction. An action names
//! the version it was built on (a stale page is refused) and carries a key
//! (a double tap records once).

use crate::domain::common::field_error::FieldError;
use serde_json::json;

use super::audit::{self, canonical_json};
use super::kept_games::{self as kept, Claim, KeptGameError, KeptRow, KeptTable};
use super::{Db, StoreError, begin_write};
use crate::domain::common::audit::AuditKey;
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
    pub(crate) fn event_prefix(&self) -> &'static str {
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

    pub(crate) fn finished(&self) -> bool {
        match self {
            DiceState::TenThousand(k) => k.sheet().is_ok_and(|s| s.finished),
            DiceState::PokerDice(k) => k.finished(),
        }
    }

    /// Who won, for the `…_finished` record.
    pub(crate) fn outcome(&self) -> serde_json::Value {
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

    pub(crate) fn to_json(&self) -> Result<String, StoreError> {
        match self {
            DiceState::TenThousand(k) => canonical_json(k),
            DiceState::PokerDice(k) => canonical_json(k),
        }
    }

    pub(crate) fn from_json(kind: &str, text: &str) -> Result<DiceState, StoreError> {
        let bad = |source| StoreError::StoredJson {
            what: "stored dice game",
            source,
        };
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

    pub(crate) fn apply(&self, action: &DiceAction) -> Result<DiceState, DiceGameError> {
        match (self, action) {
            (DiceState::TenThousand(k), DiceAction::TenThousand(a)) => {
                Ok(DiceState::TenThousand(k.apply(a)?))
            }
            (DiceState::PokerDice(k), DiceAction::PokerDice(a)) => {
                Ok(DiceState::PokerDice(k.apply(a)?))
            }
            _ => Err(KeptGameError::Rules(FieldError::new(
                "action",
                format!("not an action of a {} game", self.kind()),
            ))),
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

/// Why an action on a dice game was refused or failed.
pub type DiceGameError = KeptGameError;

impl From<TenThousandError> for KeptGameError {
    fn from(e: TenThousandError) -> Self {
        KeptGameError::Rules(FieldError::new(e.field, e.message))
    }
}

impl From<PokerDiceError> for KeptGameError {
    fn from(e: PokerDiceError) -> Self {
        KeptGameError::Rules(FieldError::new(e.field, e.message))
    }
}

fn game_of(row: KeptRow) -> Result<DiceGame, StoreError> {
    let kind = row.kind.unwrap_or_default();
    Ok(DiceGame {
        state: DiceState::from_json(&kind, &row.state)?,
        id: row.id,
        game: kind,
        status: row.status,
        version: row.version,
        created_by: row.created_by,
        created_at: row.created_at,
    })
}

/// Starts a game (its players and options already checked by its engine).
pub async fn start(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    game: &DiceState,
) -> Result<String, DiceGameError> {
    let state = game.to_json()?;
    let mut tx = begin_write(db).await?;
    let now = audit::now_text();
    let id = kept::insert(
        &mut tx,
        KeptTable::Dice,
        Some(game.kind()),
        &state,
        actor,
        &now,
    )
    .await?;
    let state_value: serde_json::Value = serde_json::from_str(&state).map_err(StoreError::Json)?;
    let payload = json!({"game_id": id, "state": state_value});
    let event = format!("{}_started", game.event_prefix());
    kept::record(&mut tx, key, actor, &event, payload, &now).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn get(db: &Db, id: &str) -> Result<Option<DiceGame>, StoreError> {
    kept::get(db, KeptTable::Dice, id)
        .await?
        .map(game_of)
        .transpose()
}

/// The newest games first.
pub async fn list(db: &Db, limit: i64) -> Result<Vec<DiceGame>, StoreError> {
    kept::list(db, KeptTable::Dice, limit)
        .await?
        .into_iter()
        .map(game_of)
        .collect()
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
    let row = match kept::claim(
        &mut tx,
        KeptTable::Dice,
        id,
        expected_version,
        idempotency_key,
    )
    .await?
    {
        Claim::Repeat(row) => return Ok(game_of(row)?),
        Claim::Go(row) => row,
    };
    let game = game_of(row.clone())?;
    let state = game.state.apply(action)?;
    let status = if state.finished() {
        "finished"
    } else {
        "playing"
    };
    let now = audit::now_text();
    kept::update(
        &mut tx,
        KeptTable::Dice,
        &row,
        &state.to_json()?,
        status,
        idempotency_key,
        &now,
    )
    .await?;
    let prefix = state.event_prefix();
    let payload = json!({
        "game_id": id,
        "version": expected_version + 1,
        "action": action,
        "key": idempotency_key,
    });
    let event = format!("{prefix}_action");
    kept::record(&mut tx, key, actor, &event, payload, &now).await?;
    if status == "finished" {
        let payload = json!({"game_id": id, "outcome": state.outcome()});
        let event = format!("{prefix}_finished");
        kept::record(&mut tx, key, actor, &event, payload, &now).await?;
    }
    tx.commit().await?;
    Ok(DiceGame {
        state,
        status: status.to_string(),
        version: expected_version + 1,
        ..game
    })
}
