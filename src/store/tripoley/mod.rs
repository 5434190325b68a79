//! Tripoley games kept at the table. The game's state is a projection row
//! (canonical JSON of [`TripoleyGame`]); every action is an audit record
//! (`tripoley_started`, `tripoley_round` with the round's input and steps,
//! `tripoley_finished` with the last hand; a round kept step by step adds
//! one record per step — `tripoley_ante`, `_deal`, `_spare`, `_money_cards`,
//! `_bet`, `_showdown`, `_michigan_card`, `_michigan_result` — the last one
//! followed by its `tripoley_round`) appended in the same transaction.
//! An action names the version it was built on (a stale page is refused)
//! and carries a key (a double tap records once).

use crate::domain::common::field_error::FieldError;
use serde_json::json;

use super::audit::{self, canonical_json};
use super::kept_games::{self as kept, Claim, KeptGameError, KeptRow, KeptTable};
use super::{Db, StoreError, begin_write};
use crate::domain::common::audit::AuditKey;
use crate::domain::tripoley::TripoleyError;
use crate::domain::tripoley::game::{RoundEntry, TripoleyGame};
use crate::domain::tripoley::round_steps::RoundStep;
use crate::domain::tripoley::{Outcome, RoundOutput};

pub(crate) mod replay;

/// An action on a game.
#[derive(Debug, Clone)]
pub enum TripoleyAction {
    /// A whole round entered as its results.
    Round(RoundEntry),
    /// One step of the round kept step by step; the last one pays it out.
    Step(RoundStep),
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

/// Why an action on a Tripoley game was refused or failed.
pub type TripoleyGameError = KeptGameError;

impl From<TripoleyError> for KeptGameError {
    fn from(e: TripoleyError) -> Self {
        match e {
            TripoleyError::Input { field, message } => {
                KeptGameError::Rules(FieldError::new(field, message))
            }
            other => KeptGameError::Game(Box::new(other)),
        }
    }
}

/// The `tripoley_round` record of a paid-out round.
pub(crate) fn round_record(
    id: &str,
    version: i64,
    game: &TripoleyGame,
    out: &RoundOutput,
) -> (&'static str, serde_json::Value) {
    let played = game.rounds.last();
    let payload = json!({
        "game_id": id,
        "version": version,
        "round": played.map(|r| r.number),
        "input": played.map(|r| &r.input),
        "steps": out.outcome.steps,
        "chips": out.outcome.chips,
        "board": out.outcome.board,
        "next_dealer": out.next_dealer,
    });
    ("tripoley_round", payload)
}

/// The record of one step of a round kept step by step (`game` before it).
pub(crate) fn step_record(
    id: &str,
    version: i64,
    game: &TripoleyGame,
    step: &RoundStep,
) -> (&'static str, serde_json::Value) {
    let payload = json!({
        "game_id": id,
        "version": version,
        "round": game.rounds.len() + 1,
        "step": step,
    });
    (step.event(), payload)
}

/// The `tripoley_finished` record of the last hand.
pub(crate) fn finished_record(
    id: &str,
    version: i64,
    game: &TripoleyGame,
    out: &Outcome,
) -> (&'static str, serde_json::Value) {
    let payload = json!({
        "game_id": id,
        "version": version,
        "input": game.last_hand.as_ref().map(|r| &r.input),
        "steps": out.steps,
        "chips": out.chips,
        "money": out.money,
    });
    ("tripoley_finished", payload)
}

fn game_of(row: KeptRow) -> Result<StoredGame, StoreError> {
    let game = serde_json::from_str(&row.state).map_err(|source| StoreError::StoredJson {
        what: "stored tripoley game",
        source,
    })?;
    Ok(StoredGame {
        id: row.id,
        game,
        status: row.status,
        version: row.version,
        created_by: row.created_by,
        created_at: row.created_at,
    })
}

/// Starts a game (checked by [`TripoleyGame::start`]).
pub async fn start(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    game: &TripoleyGame,
) -> Result<String, TripoleyGameError> {
    let state = canonical_json(game)?;
    let mut tx = begin_write(db).await?;
    let now = audit::now_text();
    let id = kept::insert(&mut tx, KeptTable::Tripoley, None, &state, actor, &now).await?;
    let payload = json!({"game_id": id, "state": game});
    kept::record(&mut tx, key, actor, "tripoley_started", payload, &now).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn get(db: &Db, id: &str) -> Result<Option<StoredGame>, StoreError> {
    kept::get(db, KeptTable::Tripoley, id)
        .await?
        .map(game_of)
        .transpose()
}

/// The newest games first.
pub async fn list(db: &Db, limit: i64) -> Result<Vec<StoredGame>, StoreError> {
    kept::list(db, KeptTable::Tripoley, limit)
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
    action: &TripoleyAction,
) -> Result<StoredGame, TripoleyGameError> {
    let mut tx = begin_write(db).await?;
    let claim = kept::claim(
        &mut tx,
        KeptTable::Tripoley,
        id,
        expected_version,
        idempotency_key,
    );
    let row = match claim.await? {
        Claim::Repeat(row) => return Ok(game_of(row)?),
        Claim::Go(row) => row,
    };
    let stored = game_of(row.clone())?;
    let version = expected_version + 1;
    // One record per action; a step that completes the round also records
    // the round's payouts (`tripoley_round`), in the same transaction.
    let mut records = Vec::new();
    let game = match action {
        TripoleyAction::Round(entry) => {
            let (game, out) = stored.game.apply_round(entry)?;
            records.push(round_record(id, version, &game, &out));
            game
        }
        TripoleyAction::Step(step) => {
            let (game, out) = stored.game.apply_step(step)?;
            records.push(step_record(id, version, &stored.game, step));
            if let Some(out) = out {
                records.push(round_record(id, version, &game, &out));
            }
            game
        }
        TripoleyAction::Final(hands) => {
            let (game, out) = stored.game.finish(hands)?;
            records.push(finished_record(id, version, &game, &out));
            game
        }
    };
    let status = if game.finished() {
        "finished"
    } else {
        "playing"
    };
    let now = audit::now_text();
    kept::update(
        &mut tx,
        KeptTable::Tripoley,
        &row,
        &canonical_json(&game)?,
        status,
        idempotency_key,
        &now,
    )
    .await?;
    // The action's key goes in its first record (the row's `last_key`).
    if let Some(first) = records.first_mut().and_then(|(_, p)| p.as_object_mut()) {
        first.insert(kept::KEY_FIELD.into(), idempotency_key.into());
    }
    for (event, payload) in records {
        kept::record(&mut tx, key, actor, event, payload, &now).await?;
    }
    tx.commit().await?;
    Ok(StoredGame {
        game,
        status: status.to_string(),
        version,
        ..stored
    })
}
