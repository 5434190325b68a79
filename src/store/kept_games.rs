//! The mechanics every game kept at the table shares (dice games, Tripoley):
//! a projection row holding the game's canonical JSON, a version that each
//! action names (a stale page is refused), the last action's key (a double
//! tap records once), and the audit records of each action appended in the
//! same transaction as the row's change. The row's times are its records'
//! `recorded_at` and the action's key is in its first record, so `audit
//! verify` re-derives both. What a game *is* — its state, its actions, the
//! records an action writes — is its [`KeptGame`] impl, in its module;
//! [`start`], [`get`], [`list`] and [`act`] are the same for every game.

use serde_json::{Value, json};

use super::audit::{self, NewRecord};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::common::audit::AuditKey;

/// The field of an action's first record that holds the action's
/// idempotency key (the row's `last_key`).
pub(crate) const KEY_FIELD: &str = "key";

/// One audit record a game writes: its event type and payload.
pub type GameRecord = (String, Value);

/// A game kept at the table, as the store keeps it.
pub trait KeptGame: Sized + Send + Sync + 'static {
    /// What the table does to the game (a throw, a round, a step …).
    type Action: Send + Sync;
    /// The table its rows are in.
    const TABLE: KeptTable;
    /// The kind of game stored beside the state, where the table holds several.
    fn kind(&self) -> Option<&'static str>;
    /// The state as stored in the row: canonical JSON.
    fn to_stored(&self) -> Result<String, StoreError>;
    /// The state back from a row (`kind` where the table records one).
    fn from_stored(kind: Option<&str>, state: &str) -> Result<Self, StoreError>;
    /// The event type of the record that starts a game.
    fn started_event(&self) -> String;
    /// The game after `action` (its rules checked) and the records the
    /// action writes, the action's own first (the store adds its key there).
    /// `version` is the one the game is at after it.
    fn fold(
        &self,
        id: &str,
        version: i64,
        action: &Self::Action,
    ) -> Result<(Self, Vec<GameRecord>), KeptGameError>;
    /// No action is taken any more: the row's status is `finished`.
    fn finished(&self) -> bool;
}

/// A kept game as stored: its row, the state read back.
#[derive(Debug, Clone)]
pub struct StoredGame<G> {
    pub id: String,
    pub game: G,
    pub status: String,
    pub version: i64,
    pub created_by: String,
    pub created_at: String,
}

/// The tables of kept games; the names are constants, never input.
#[derive(Debug, Clone, Copy)]
pub enum KeptTable {
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
#[derive(Debug, Clone, sqlx::FromRow)]
struct KeptRow {
    id: String,
    /// The kind of game, where the table holds several.
    #[sqlx(rename = "game")]
    kind: Option<String>,
    state: String,
    status: String,
    version: i64,
    created_by: String,
    created_at: String,
    last_key: Option<String>,
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

fn stored_of<G: KeptGame>(row: KeptRow) -> Result<StoredGame<G>, StoreError> {
    Ok(StoredGame {
        game: G::from_stored(row.kind.as_deref(), &row.state)?,
        id: row.id,
        status: row.status,
        version: row.version,
        created_by: row.created_by,
        created_at: row.created_at,
    })
}

/// Starts a game (its players and options already checked by its engine):
/// its row at version 1 and its `…_started` record with the state.
pub async fn start<G: KeptGame>(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    game: &G,
) -> Result<String, KeptGameError> {
    let state = game.to_stored()?;
    let mut tx = begin_write(db).await?;
    let now = audit::now_text();
    let id = insert(&mut tx, G::TABLE, game.kind(), &state, actor, &now).await?;
    let state_value: Value = serde_json::from_str(&state).map_err(StoreError::Json)?;
    let payload = json!({"game_id": id, "state": state_value});
    let started = vec![(game.started_event(), payload)];
    append(&mut tx, key, actor, started, &now).await?;
    tx.commit().await?;
    Ok(id)
}

pub async fn get<G: KeptGame>(db: &Db, id: &str) -> Result<Option<StoredGame<G>>, StoreError> {
    let sql = format!("{} WHERE id = $1", G::TABLE.select());
    let row: Option<KeptRow> = on_pool!(db, |pool| sqlx::query_as(&sql)
        .bind(id)
        .fetch_optional(pool)
        .await?);
    row.map(stored_of).transpose()
}

/// The newest games first.
pub async fn list<G: KeptGame>(db: &Db, limit: i64) -> Result<Vec<StoredGame<G>>, StoreError> {
    let sql = format!(
        "{} ORDER BY created_at DESC, id DESC LIMIT $1",
        G::TABLE.select()
    );
    let rows: Vec<KeptRow> = on_pool!(db, |pool| sqlx::query_as(&sql)
        .bind(limit)
        .fetch_all(pool)
        .await?);
    rows.into_iter().map(stored_of).collect()
}

/// Applies one action: unknown game, a repeated key and a stale version
/// are decided first, then the game's own rules ([`KeptGame::fold`]); the
/// row and the action's records are written in one transaction. A repeat
/// of the last action's key returns the game as it is and records nothing.
pub async fn act<G: KeptGame>(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    id: &str,
    expected_version: i64,
    idempotency_key: &str,
    action: &G::Action,
) -> Result<StoredGame<G>, KeptGameError> {
    let mut tx = begin_write(db).await?;
    let row = match claim(&mut tx, G::TABLE, id, expected_version, idempotency_key).await? {
        Claim::Repeat(row) => return Ok(stored_of(row)?),
        Claim::Go(row) => row,
    };
    let stored: StoredGame<G> = stored_of(row)?;
    let version = expected_version + 1;
    let (game, mut records) = stored.game.fold(id, version, action)?;
    let status = if game.finished() {
        "finished"
    } else {
        "playing"
    };
    let now = audit::now_text();
    let row = Update {
        id,
        version: stored.version,
        state: &game.to_stored()?,
        status,
        idempotency_key,
        now: &now,
    };
    update(&mut tx, G::TABLE, row).await?;
    if let Some(first) = records.first_mut().and_then(|(_, p)| p.as_object_mut()) {
        first.insert(KEY_FIELD.into(), idempotency_key.into());
    }
    append(&mut tx, key, actor, records, &now).await?;
    tx.commit().await?;
    Ok(StoredGame {
        game,
        status: status.to_string(),
        version,
        ..stored
    })
}

/// What an action may do with the game, read inside the write transaction.
enum Claim {
    /// The same key as the last action: answer with the game as it is.
    Repeat(KeptRow),
    /// The action may go on from this row.
    Go(KeptRow),
}

/// Reads the game for an action: unknown game, stale version or a repeated
/// key are decided here, before the game's own rules.
async fn claim(
    tx: &mut WriteTx,
    table: KeptTable,
    id: &str,
    expected_version: i64,
    idempotency_key: &str,
) -> Result<Claim, KeptGameError> {
    let sql = format!("{} WHERE id = $1", table.select());
    let row: Option<KeptRow> = on_tx!(tx, |c| sqlx::query_as(&sql)
        .bind(id)
        .fetch_optional(&mut **c)
        .await?);
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
async fn insert(
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

/// The row after an action: its new state and status, the action's key,
/// and `now` (the time its records are written with); `version` is the
/// one the action was built on.
struct Update<'a> {
    id: &'a str,
    version: i64,
    state: &'a str,
    status: &'a str,
    idempotency_key: &'a str,
    now: &'a str,
}

async fn update(tx: &mut WriteTx, table: KeptTable, row: Update<'_>) -> Result<(), StoreError> {
    let sql = format!(
        "UPDATE {} SET state = $2, status = $3, version = version + 1, last_key = $4, \
         updated_at = $5 WHERE id = $1 AND version = $6",
        table.name()
    );
    execute_on_tx!(tx, &sql, |q| q
        .bind(row.id)
        .bind(row.state)
        .bind(row.status)
        .bind(row.idempotency_key)
        .bind(row.now)
        .bind(row.version));
    Ok(())
}

/// An action's records, chained in order and recorded at `now` (the time
/// the row is written with).
async fn append(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    records: Vec<GameRecord>,
    now: &str,
) -> Result<(), StoreError> {
    let records = records
        .into_iter()
        .map(|(event_type, payload)| {
            Ok(NewRecord {
                actor: actor.to_string(),
                table: None,
                hand: None,
                event_type,
                payload: audit::canonical_json(&payload)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    audit::append_at(tx, key, &records, now).await.map(drop)
}
