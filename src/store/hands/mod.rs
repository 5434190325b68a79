//! The hand store: commands in, events out. A command (one or more events
//! for one hand) is applied to the hand's folded state by the pure core; its
//! events, the audit records and the projection row commit in one
//! transaction or not at all. Commands name the version they were built on
//! (optimistic concurrency) and carry an idempotency key (a double-tap at the
//! table returns the first result and records nothing new).

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use sqlx::Row;

use super::audit::{self, NewRecord, canonical_json};
use super::{Backend, Db, StoreError, WriteTx, begin_write};

use crate::domain::audit::AuditKey;
use crate::domain::hand_record::{
    GAME_DOUBLE_HAND_POKER, HandError, HandEvent, HandState, Phase, RecordedSettlement,
};

/// Most events in one command (a whole hand fits).
pub const COMMAND_EVENTS_MAX: usize = 200;
/// Longest idempotency key.
pub const IDEMPOTENCY_KEY_CHARS_MAX: usize = 128;

/// A command from the dealer's screen, the API or a script.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HandCommand {
    /// Client-generated (a UUID); a repeat returns the first result.
    pub idempotency_key: String,
    /// The hand version the command was built on; required for an existing
    /// hand, absent when the command opens one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expected_version: Option<u64>,
    /// Who acts (the staff member on duty).
    pub actor: String,
    pub events: Vec<HandEvent>,
}

/// What a command did.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CommandResult {
    pub hand_id: String,
    pub version: u64,
    pub phase: Phase,
    /// The audit records written: (seq, event type, hash).
    pub records: Vec<RecordRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settlement: Option<RecordedSettlement>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordRef {
    pub seq: i64,
    pub event_type: String,
    pub hash: String,
}

#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error(transparent)]
    Hand(#[from] HandError),
    #[error("hand_id: no hand \"{0}\"")]
    UnknownHand(String),
    #[error(
        "expected_version: the hand is at version {current}, the command was built on {expected}; reload the hand"
    )]
    Stale { expected: u64, current: u64 },
    #[error("expected_version: required for a command on an existing hand")]
    MissingVersion,
    #[error("expected_version: a command that opens a hand has no version")]
    UnexpectedVersion,
    #[error("idempotency_key: \"{0}\" was already used for a different command")]
    IdempotencyMismatch(String),
    #[error("{field}: {message}")]
    Invalid {
        field: &'static str,
        message: String,
    },
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl CommandError {
    /// HTTP status: 409 for a conflict with the hand's state, 422 for bad
    /// input, 500 for the store.
    pub fn status(&self) -> u16 {
        match self {
            CommandError::Stale { .. } => 409,
            CommandError::Hand(e) if e.is_state_conflict() => 409,
            CommandError::Hand(e) if !e.is_bad_input() => 500,
            CommandError::Store(_) => 500,
            _ => 422,
        }
    }
}

impl From<sqlx::Error> for CommandError {
    fn from(e: sqlx::Error) -> Self {
        CommandError::Store(StoreError::Query(e))
    }
}

/// Executes a command: `hand_id` None opens a new hand.
/// Returns the result and whether it is a replay of an earlier command.
/// Executes one command in its own transaction (one fsync). The server uses
/// [`super::writer::HandWriter`], which commits several commands together.
pub async fn execute(
    db: &Db,
    key: &AuditKey,
    hand_id: Option<&str>,
    command: &HandCommand,
) -> Result<(CommandResult, bool), CommandError> {
    let mut tx = begin_write(db).await?;
    let result = execute_in(&mut tx, key, hand_id, command).await?;
    tx.commit().await?;
    Ok(result)
}

/// Executes a command inside an open write transaction. On error nothing
/// has been written by it (all checks come before the first write; a
/// database error mid-way is undone by the caller's savepoint or rollback).
pub async fn execute_in(
    tx: &mut WriteTx,
    key: &AuditKey,
    hand_id: Option<&str>,
    command: &HandCommand,
) -> Result<(CommandResult, bool), CommandError> {
    check_shape(command)?;
    let request_hash = request_hash(hand_id, command)?;

    if let Some(first) = stored_result(tx, &command.idempotency_key).await? {
        let (hash, body) = first;
        if hash != request_hash {
            return Err(CommandError::IdempotencyMismatch(
                command.idempotency_key.clone(),
            ));
        }
        let result: CommandResult = serde_json::from_str(&body)
            .map_err(|e| StoreError::Internal(format!("stored result: {e}")))?;
        return Ok((result, true));
    }

    let (hand_id, state, mut all_events) = match hand_id {
        None => {
            if command.expected_version.is_some() {
                return Err(CommandError::UnexpectedVersion);
            }
            // Time-ordered ids keep the by-hand index append-only.
            (uuid::Uuid::now_v7().to_string(), None, Vec::new())
        }
        Some(id) => {
            let current = hand_version(tx, id)
                .await?
                .ok_or_else(|| CommandError::UnknownHand(id.into()))?;
            let expected = command
                .expected_version
                .ok_or(CommandError::MissingVersion)?;
            if expected != current {
                return Err(CommandError::Stale { expected, current });
            }
            let events = load_events(tx, id).await?;
            let state = HandState::fold(&events)?;
            (id.to_string(), Some(state), events)
        }
    };

    let (state, recorded) = HandState::apply_command(state, &command.events)?;

    // The store's own check, when a settlement is about to be recorded (at
    // close and at each correction): replaying the whole stream from
    // scratch gives that settlement.
    let settles = recorded.iter().any(|e| {
        matches!(
            e,
            HandEvent::HandClosed { .. } | HandEvent::OutcomeCorrected { .. }
        )
    });
    if settles {
        all_events.extend(recorded.iter().cloned());
        let replayed = HandState::fold(&all_events)?;
        if replayed.settlement() != state.settlement() {
            return Err(StoreError::Internal(format!(
                "hand {hand_id}: recorded settlement differs from replay"
            ))
            .into());
        }
    }

    let mut records = Vec::with_capacity(recorded.len());
    for event in &recorded {
        records.push(NewRecord {
            actor: command.actor.clone(),
            table: Some(state.table.clone()),
            hand: Some(hand_id.clone()),
            event_type: event.type_name().to_string(),
            payload: canonical_json(event)?,
        });
    }
    let written = audit::append(tx, key, &records).await?;
    let (last_seq, now) = match written.last() {
        Some(r) => (r.seq, r.recorded_at.clone()),
        None => return Err(StoreError::Internal("a command wrote no audit record".into()).into()),
    };
    write_projection(
        tx,
        &hand_id,
        &state,
        command.expected_version,
        last_seq,
        &now,
    )
    .await?;

    let result = CommandResult {
        hand_id,
        version: state.version,
        phase: state.phase,
        records: written
            .iter()
            .map(|r| RecordRef {
                seq: r.seq,
                event_type: r.event_type.clone(),
                hash: r.hash.clone(),
            })
            .collect(),
        settlement: state.settlement().cloned(),
    };
    let body = serde_json::to_string(&result).map_err(|e| StoreError::Internal(e.to_string()))?;
    let insert = "INSERT INTO idempotency_keys (key, request_hash, response_status, response_body, created_at) \
                  VALUES ($1, $2, $3, $4, $5)";
    on_tx!(tx, |c| sqlx::query(insert)
        .bind(&command.idempotency_key)
        .bind(&request_hash)
        .bind(200_i32)
        .bind(&body)
        .bind(&now)
        .execute(&mut **c)
        .await
        .map(drop)?);
    Ok((result, false))
}

fn check_shape(command: &HandCommand) -> Result<(), CommandError> {
    let key_chars = command.idempotency_key.chars().count();
    if key_chars == 0 || key_chars > IDEMPOTENCY_KEY_CHARS_MAX {
        return Err(CommandError::Invalid {
            field: "idempotency_key",
            message: format!("must be 1..{IDEMPOTENCY_KEY_CHARS_MAX} characters"),
        });
    }
    if command.actor.trim().is_empty() || command.actor.chars().count() > 64 {
        return Err(CommandError::Invalid {
            field: "actor",
            message: format!("\"{}\" must be 1..64 characters", command.actor),
        });
    }
    if command.events.is_empty() || command.events.len() > COMMAND_EVENTS_MAX {
        return Err(CommandError::Invalid {
            field: "events",
            message: format!(
                "{} events; a command has 1..{COMMAND_EVENTS_MAX}",
                command.events.len()
            ),
        });
    }
    Ok(())
}

fn request_hash(hand_id: Option<&str>, command: &HandCommand) -> Result<String, StoreError> {
    let text = canonical_json(&(hand_id, command))?;
    Ok(hex::encode(Sha256::digest(text.as_bytes())))
}

async fn stored_result(
    tx: &mut WriteTx,
    key: &str,
) -> Result<Option<(String, String)>, StoreError> {
    let sql = "SELECT request_hash, response_body FROM idempotency_keys WHERE key = $1";
    Ok(on_tx!(tx, |c| sqlx::query(sql)
        .bind(key)
        .fetch_optional(&mut **c)
        .await?
        .map(|r| (r.get(0), r.get(1)))))
}

async fn hand_version(tx: &mut WriteTx, id: &str) -> Result<Option<u64>, StoreError> {
    let sql = "SELECT version FROM hands WHERE id = $1";
    let version: Option<i64> = on_tx!(tx, |c| sqlx::query(sql)
        .bind(id)
        .fetch_optional(&mut **c)
        .await?
        .map(|r| r.get(0)));
    Ok(version.map(|v| v as u64))
}

/// The hand's events in order, from the audit log itself.
async fn load_events(tx: &mut WriteTx, id: &str) -> Result<Vec<HandEvent>, StoreError> {
    let sql = "SELECT payload FROM audit_log WHERE hand_id = $1 ORDER BY seq";
    let payloads: Vec<String> = on_tx!(tx, |c| sqlx::query(sql)
        .bind(id)
        .fetch_all(&mut **c)
        .await?
        .into_iter()
        .map(|r| r.get(0))
        .collect());
    payloads
        .iter()
        .map(|p| {
            HandEvent::from_json(p)
                .map_err(|e| StoreError::Internal(format!("hand {id}: stored event: {e}")))
        })
        .collect()
}

async fn write_projection(
    tx: &mut WriteTx,
    id: &str,
    state: &HandState,
    expected_version: Option<u64>,
    last_seq: i64,
    now: &str,
) -> Result<(), CommandError> {
    let bank = state.pd().map(|pd| pd.bank.to_canonical());
    let house = state
        .settlement()
        .and_then(|s| s.house_collection())
        .map(|m| m.to_canonical());
    let settlement = state.settlement().map(|s| s.text().to_string());
    let numeric = |n: u8| match tx.backend() {
        Backend::Sqlite => format!("${n}"),
        Backend::Postgres => format!("CAST(${n} AS NUMERIC)"),
    };
    let version = state.version as i64;
    let rows = match expected_version {
        None => {
            let sql = format!(
                "INSERT INTO hands (id, table_id, game, dealer, status, version, bank, house_collection, \
                 settlement, opened_at, updated_at, last_seq) VALUES ($1, $2, $3, $4, $5, $6, {}, {}, $9, $10, $10, $11)",
                numeric(7),
                numeric(8)
            );
            on_tx!(tx, |c| sqlx::query(&sql)
                .bind(id)
                .bind(&state.table)
                .bind(GAME_DOUBLE_HAND_POKER)
                .bind(&state.dealer)
                .bind(state.phase.name())
                .bind(version)
                .bind(&bank)
                .bind(&house)
                .bind(&settlement)
                .bind(now)
                .bind(last_seq)
                .execute(&mut **c)
                .await?
                .rows_affected())
        }
        Some(expected) => {
            let sql = format!(
                "UPDATE hands SET status = $2, version = $3, bank = {}, house_collection = {}, settlement = $6, \
                 updated_at = $7, last_seq = $8 WHERE id = $1 AND version = $9",
                numeric(4),
                numeric(5)
            );
            on_tx!(tx, |c| sqlx::query(&sql)
                .bind(id)
                .bind(state.phase.name())
                .bind(version)
                .bind(&bank)
                .bind(&house)
                .bind(&settlement)
                .bind(now)
                .bind(last_seq)
                .bind(expected as i64)
                .execute(&mut **c)
                .await?
                .rows_affected())
        }
    };
    if rows != 1 {
        return Err(StoreError::Internal(format!(
            "hand {id}: projection write touched {rows} rows"
        ))
        .into());
    }
    Ok(())
}

/// The table a hand is at, if the hand exists.
pub async fn table_of(db: &Db, id: &str) -> Result<Option<String>, StoreError> {
    let sql = "SELECT table_id FROM hands WHERE id = $1";
    Ok(on_pool!(db, |pool| sqlx::query(sql)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(|r| r.get(0))))
}

/// A hand as stored: its projection row and its full history.
#[derive(Debug, Clone, Serialize)]
pub struct HandView {
    pub id: String,
    pub table: String,
    pub game: String,
    pub dealer: String,
    pub status: String,
    pub version: i64,
    pub bank: Option<String>,
    pub house_collection: Option<String>,
    pub settlement: Option<RecordedSettlement>,
    pub opened_at: String,
    pub updated_at: String,
    pub events: Vec<audit::AuditRecord>,
}

pub async fn get(db: &Db, id: &str) -> Result<Option<HandView>, StoreError> {
    let sql = "SELECT id, table_id, game, dealer, status, version, CAST(bank AS TEXT), \
               CAST(house_collection AS TEXT), settlement, opened_at, updated_at FROM hands WHERE id = $1";
    let row = on_pool!(db, |pool| sqlx::query(sql)
        .bind(id)
        .fetch_optional(pool)
        .await?
        .map(|r| {
            (
                r.get::<String, _>(0),
                r.get::<String, _>(1),
                r.get::<String, _>(2),
                r.get::<String, _>(3),
                r.get::<String, _>(4),
                r.get::<i64, _>(5),
                r.get::<Option<String>, _>(6),
                r.get::<Option<String>, _>(7),
                r.get::<Option<String>, _>(8),
                r.get::<String, _>(9),
                r.get::<String, _>(10),
            )
        }));
    let Some((
        id,
        table,
        game,
        dealer,
        status,
        version,
        bank,
        house,
        settlement,
        opened_at,
        updated_at,
    )) = row
    else {
        return Ok(None);
    };
    let events_sql = format!("{} WHERE hand_id = $1 ORDER BY seq", audit::SELECT_RECORD);
    let events: Vec<audit::AuditRecord> = on_pool!(db, |pool| sqlx::query_as(&events_sql)
        .bind(&id)
        .fetch_all(pool)
        .await?);
    let settlement = settlement
        .map(|s| RecordedSettlement::from_text(&s))
        .transpose()
        .map_err(|e| StoreError::Internal(format!("hand {id}: {e}")))?;
    let money = |m: Option<String>| {
        m.and_then(|t| crate::domain::money::Money::parse(&t).ok())
            .map(|m| m.to_canonical())
    };
    Ok(Some(HandView {
        id,
        table,
        game,
        dealer,
        status,
        version,
        bank: money(bank),
        house_collection: money(house),
        settlement,
        opened_at,
        updated_at,
        events,
    }))
}
