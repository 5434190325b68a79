//! The hand store: commands in, events out. A command (one or more events
//! for one hand) is applied to the hand's folded state by the pure core; its
//! events, the audit records and the projection row commit in one
//! transaction or not at all. Commands name the version they were built on
//! (optimistic concurrency) and carry an idempotency key (a double-tap at the
//! table returns the first result and records nothing new).

mod batch;
mod cache;
mod pending;
mod plan;
mod rotation;
pub(super) mod sqlite_writer;

use serde::{Deserialize, Serialize};
use sqlx::Row;

use crate::domain::common::audit::AuditKey;
use crate::domain::common::field_error::{AsFieldError, FieldError};
use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::{
    HandError, HandEvent, Phase, RecordedSettlement,
};
use crate::store::audit::{self, Clock};
use crate::store::{Db, StoreError, WriteTx, begin_write};
pub(super) use batch::BatchReads;
pub(super) use cache::{HandCache, NoCache, OpenHands};
pub(super) use rotation::check_rotation;
pub use rotation::{ROTATION_HANDS, rotation_history};

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
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
pub struct CommandResult {
    pub hand_id: String,
    pub version: u64,
    pub phase: Phase,
    /// The audit records written: (seq, event type, hash).
    pub records: Vec<RecordRef>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub settlement: Option<RecordedSettlement>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
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
        "events[0].table: \"{0}\" is not a configured table; a supervisor creates tables on the tables page"
    )]
    UnknownTable(String),
    #[error(
        "expected_version: the hand is at version {current}, the command was built on {expected}; reload the hand"
    )]
    Stale { expected: u64, current: u64 },
    #[error("expected_version: required for a command on an existing hand")]
    MissingVersion,
    #[error("expected_version: a command that opens a hand has no version")]
    UnexpectedVersion,
    /// No open shift covers the table and the room requires one (409).
    #[error("events[0].table: {0}")]
    NoShift(String),
    /// The table's PD rotation clock ran out (409).
    #[error("events[0].table: {0}")]
    RotationClock(String),
    #[error("idempotency_key: \"{0}\" was already used for a different command")]
    IdempotencyMismatch(String),
    /// A command field the store checks itself (the idempotency key).
    #[error(transparent)]
    Invalid(FieldError),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl CommandError {
    /// Why it was refused, as the metrics label it (docs/metrics.md).
    pub fn reason(&self) -> &'static str {
        match self {
            CommandError::Hand(_) => "rule",
            CommandError::UnknownHand(_) => "unknown_hand",
            CommandError::UnknownTable(_) => "unknown_table",
            CommandError::Stale { .. } => "stale_version",
            CommandError::MissingVersion => "missing_version",
            CommandError::UnexpectedVersion => "unexpected_version",
            CommandError::NoShift(_) => "no_shift",
            CommandError::RotationClock(_) => "rotation_clock",
            CommandError::IdempotencyMismatch(_) => "idempotency_mismatch",
            CommandError::Invalid(_) => "invalid",
            CommandError::Store(_) => "store_error",
        }
    }
}

impl AsFieldError for CommandError {
    fn field_error(&self) -> Option<FieldError> {
        let worded = |field: &str| FieldError::worded(field, self);
        Some(match self {
            CommandError::Hand(e) => return e.field_error(),
            CommandError::UnknownHand(id) => worded("hand_id").with_value(id.as_str()),
            CommandError::NoShift(_) | CommandError::RotationClock(_) => worded("events[0].table"),
            CommandError::UnknownTable(table) => {
                worded("events[0].table").with_value(table.as_str())
            }
            CommandError::Stale { expected, .. } => {
                worded("expected_version").with_value(expected.to_string())
            }
            CommandError::MissingVersion | CommandError::UnexpectedVersion => {
                worded("expected_version")
            }
            CommandError::IdempotencyMismatch(key) => {
                worded("idempotency_key").with_value(key.as_str())
            }
            CommandError::Invalid(e) => e.clone(),
            CommandError::Store(_) => return None,
        })
    }
}

impl From<sqlx::Error> for CommandError {
    fn from(e: sqlx::Error) -> Self {
        CommandError::Store(StoreError::Query(e))
    }
}

/// Executes one command in its own transaction (one fsync): `hand_id` None
/// opens a new hand. Returns the result and whether it is a replay of an
/// earlier command. The server uses [`super::writer::HandWriter`], which
/// commits several commands together.
pub async fn execute(
    db: &Db,
    key: &AuditKey,
    hand_id: Option<&str>,
    command: &HandCommand,
) -> Result<(CommandResult, bool), CommandError> {
    check_rotation(db, chrono_tz::UTC, hand_id, command).await?;
    execute_at(db, key, &Clock::System, hand_id, command).await
}

/// [`execute`] with its records' time from `clock`.
pub(super) async fn execute_at(
    db: &Db,
    key: &AuditKey,
    clock: &Clock,
    hand_id: Option<&str>,
    command: &HandCommand,
) -> Result<(CommandResult, bool), CommandError> {
    let mut tx = begin_write(db).await?;
    let mut reads = BatchReads::default();
    let result = execute_in(
        &mut tx,
        key,
        clock,
        hand_id,
        command,
        &mut NoCache,
        &mut reads,
    )
    .await?;
    reads.flush(&mut tx).await?;
    tx.commit().await?;
    Ok(result)
}

/// Executes a command inside an open write transaction. On error nothing
/// has been written by it (all checks come before the first write; a
/// database error mid-way is undone by the caller's rollback). Its result
/// row is among `reads`' pending rows: the caller flushes them before the
/// commit.
pub(super) async fn execute_in(
    tx: &mut WriteTx,
    key: &AuditKey,
    clock: &Clock,
    hand_id: Option<&str>,
    command: &HandCommand,
    cache: &mut dyn HandCache,
    reads: &mut BatchReads,
) -> Result<(CommandResult, bool), CommandError> {
    let request_hash = plan::request_hash(hand_id, command)?;
    if let Some(stored) = reads.stored_result(tx, &command.idempotency_key).await? {
        return plan::replay(command, &request_hash, stored);
    }
    let prior = match hand_id {
        None => {
            let name = plan::table_to_open(command)?;
            let table = reads.table(tx, &name).await?;
            plan::new_hand(command, &name, table)?
        }
        Some(id) => {
            let version = plan::check_version(id, command, reads.hand_version(tx, id).await?)?;
            match cache.take(id, version) {
                Some(prior) => prior,
                None => {
                    reads.write_held(tx, id).await?;
                    plan::existing_hand(id, &hand_payloads(tx, id).await?)?
                }
            }
        }
    };
    let planned = plan::plan(prior, command)?;
    // Chained now, written with the batch (`pending.rs`): nothing is held
    // for a command until every step that can refuse it has passed.
    let head = reads.head(tx).await?;
    let written = audit::chain(key, head.0, head.1, &clock.now_text(), &planned.records);
    let write = planned.hand_write(&written, command.expected_version)?;
    let (result, body) = planned.result(&written)?;
    reads.wrote(
        written,
        write,
        (&command.idempotency_key, &request_hash, &body),
    );
    cache.keep(planned);
    Ok((result, false))
}

async fn hand_payloads(tx: &mut WriteTx, id: &str) -> Result<Vec<String>, StoreError> {
    Ok(on_tx!(tx, |c| sqlx::query(plan::SELECT_HAND_EVENTS)
        .bind(id)
        .fetch_all(&mut **c)
        .await?
        .into_iter()
        .map(|r| r.get(0))
        .collect()))
}

/// A hand as stored: its projection row and its full history.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
pub struct HandView {
    pub id: String,
    pub table: String,
    /// Its number at its table (`DHP-1 #1042`), from 1.
    pub number: i64,
    pub game: String,
    pub dealer: String,
    pub status: String,
    pub version: i64,
    #[schema(value_type = Option<Money>)]
    pub bank: Option<String>,
    #[schema(value_type = Option<Money>)]
    pub house_collection: Option<String>,
    pub settlement: Option<RecordedSettlement>,
    pub opened_at: String,
    pub updated_at: String,
    pub events: Vec<audit::AuditRecord>,
}

pub async fn get(db: &Db, id: &str) -> Result<Option<HandView>, StoreError> {
    let sql = "SELECT id, game, opened_at, updated_at, number FROM hands WHERE id = $1";
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
                r.get::<i64, _>(4),
            )
        }));
    let Some((id, game, opened_at, updated_at, number)) = row else {
        return Ok(None);
    };
    let events_sql = format!("{} WHERE hand_id = $1 ORDER BY seq", audit::SELECT_RECORD);
    let events: Vec<audit::AuditRecord> = on_pool!(db, |pool| sqlx::query_as(&events_sql)
        .bind(&id)
        .fetch_all(pool)
        .await?);
    // The settlement is the one its last close or correction carries.
    let settlement = events
        .iter()
        .rev()
        .find(|r| HandEvent::carries_settlement(&r.event_type))
        .map(|r| {
            HandEvent::from_json(&r.payload)
                .map_err(|e| StoreError::Internal(format!("hand {id}: seq {}: {e}", r.seq)))
        })
        .transpose()?
        .and_then(|event| event.settlement().cloned());
    // What is shown is the fold of the events, never the row alone: a
    // row edited behind pitbook's back shows nothing it does not hold.
    let parsed = events
        .iter()
        .map(|r| HandEvent::from_json(&r.payload))
        .collect::<Result<Vec<_>, _>>()
        .map_err(|e| StoreError::Internal(format!("hand {id}: stored event: {e}")))?;
    let state = crate::domain::double_hand_poker::hand_record::HandState::fold(&parsed)
        .map_err(|e| StoreError::Internal(format!("hand {id}: {e}")))?;
    Ok(Some(HandView {
        id,
        table: state.table.clone(),
        number,
        game,
        dealer: state.dealer.clone(),
        status: state.phase().name().to_string(),
        version: state.version as i64,
        bank: state.pd().map(|pd| pd.bank.to_canonical()),
        house_collection: state
            .settlement()
            .and_then(|s| s.house_collection())
            .map(|m| m.to_canonical()),
        settlement,
        opened_at,
        updated_at,
        events,
    }))
}
