//! What a command does, decided from what the store already holds. Both
//! executors — sqlx (PostgreSQL, and SQLite without a file) and the
//! rusqlite writer thread (SQLite) — read the same facts, call these
//! functions and write what they return, so the rules of a command live in
//! one place. No IO here.

use crate::domain::common::field_error::FieldError;
use sha2::{Digest, Sha256};

use super::COMMAND_EVENTS_MAX;
use super::pending::HandWrite;
use super::{CommandError, CommandResult, HandCommand, IDEMPOTENCY_KEY_CHARS_MAX, RecordRef};
use crate::domain::double_hand_poker::hand_record::{
    HandError, HandEvent, HandState, open_request, opened_at,
};
use crate::domain::double_hand_poker::table::TableConfig;
use crate::store::StoreError;
use crate::store::audit::{AuditRecord, NewRecord, canonical_json};
use crate::store::history::projection::HandSearch;

pub(super) const SELECT_STORED_RESULT: &str =
    "SELECT request_hash, response_body FROM idempotency_keys WHERE key = $1";
pub(super) const SELECT_HAND_VERSION: &str = "SELECT version FROM hands WHERE id = $1";
/// The hand's events in order, from the audit log itself.
pub(super) const SELECT_HAND_EVENTS: &str =
    "SELECT payload FROM audit_log WHERE hand_id = $1 ORDER BY seq";
/// The table a new hand opens at, read in the command's transaction, with
/// the open shift covering it (column 10), the room's "shifts
/// required" setting (column 11) and the TPPPs marked at it (column 12).
pub(super) const SELECT_TABLE_AT_OPEN: &str = concat!(
    "SELECT ",
    crate::store::double_hand_poker::tables::table_columns!(),
    ", (SELECT s.id FROM shifts s WHERE s.closed_at IS NULL \
     AND (s.table_id IS NULL OR s.table_id = card_tables.name) ORDER BY s.opened_seq LIMIT 1), \
     (SELECT r.value FROM room_settings r WHERE r.key = 'shifts_required'), \
     card_tables.tppps FROM card_tables WHERE name = $1"
);

/// The rest of [`SELECT_TABLE_AT_OPEN`]'s row: the covering shift's id, the
/// setting's text, and the marked TPPPs (a JSON array of names).
#[derive(Clone)]
pub(super) struct ShiftAtOpen {
    pub covering: Option<String>,
    pub required: Option<String>,
    pub tppps: Option<String>,
}

/// Checks the command's shape and returns the hash its idempotency key is
/// bound to (the hand id and the whole command).
pub(super) fn request_hash(
    hand_id: Option<&str>,
    command: &HandCommand,
) -> Result<String, CommandError> {
    check_shape(command)?;
    let text = canonical_json(&(hand_id, command))?;
    Ok(hex::encode(Sha256::digest(text.as_bytes())))
}

fn check_shape(command: &HandCommand) -> Result<(), CommandError> {
    let key_chars = command.idempotency_key.chars().count();
    if key_chars == 0 || key_chars > IDEMPOTENCY_KEY_CHARS_MAX {
        return Err(CommandError::Invalid(FieldError::new(
            "idempotency_key",
            format!("must be 1..{IDEMPOTENCY_KEY_CHARS_MAX} characters"),
        )));
    }
    if command.actor.trim().is_empty() || command.actor.chars().count() > 64 {
        return Err(CommandError::Invalid(
            FieldError::new(
                "actor",
                format!("\"{}\" must be 1..64 characters", command.actor),
            )
            .with_value(command.actor.as_str()),
        ));
    }
    if command.events.is_empty() || command.events.len() > COMMAND_EVENTS_MAX {
        return Err(CommandError::Invalid(FieldError::new(
            "events",
            format!(
                "{} events; a command has 1..{COMMAND_EVENTS_MAX}",
                command.events.len()
            ),
        )));
    }
    Ok(())
}

/// A repeated idempotency key: the first result, if the command is the same.
pub(super) fn replay(
    command: &HandCommand,
    request_hash: &str,
    (stored_hash, body): (String, String),
) -> Result<(CommandResult, bool), CommandError> {
    if stored_hash != request_hash {
        return Err(CommandError::IdempotencyMismatch(
            command.idempotency_key.clone(),
        ));
    }
    let result: CommandResult = serde_json::from_str(&body)
        .map_err(|e| StoreError::Internal(format!("stored result: {e}")))?;
    Ok((result, true))
}

/// The hand a command works on, before it: its id, folded state and events.
pub(in crate::store) struct Prior {
    pub hand_id: String,
    pub state: Option<HandState>,
    pub events: Vec<HandEvent>,
    /// A new hand's `hand_opened` as recorded: the table's rules and the
    /// signed-in dealer, in place of what the client sent.
    pub opening: Option<HandEvent>,
}

/// The table a command that opens a hand names, checked as free text (the
/// rules and the dealer are not the client's to send).
pub(super) fn table_to_open(command: &HandCommand) -> Result<String, CommandError> {
    let first = command.events.first().ok_or(HandError::NotOpened)?;
    open_request(first, &command.actor).map_err(|error| {
        HandError::At {
            index: 0,
            error: Box::new(error),
        }
        .into()
    })
}

/// A command that opens a hand at `table` (as configured now; None: no such
/// table): a new, time-ordered id (the by-hand index stays append-only).
pub(super) fn new_hand(
    command: &HandCommand,
    name: &str,
    table: Option<(TableConfig, ShiftAtOpen)>,
) -> Result<Prior, CommandError> {
    if command.expected_version.is_some() {
        return Err(CommandError::UnexpectedVersion);
    }
    let (table, shift) = table.ok_or_else(|| CommandError::UnknownTable(name.to_string()))?;
    crate::domain::shifts::check_hand_shift(
        name,
        table.training,
        shift.covering.as_deref(),
        shift.required.as_deref() == Some("true"),
    )
    .map_err(|e| CommandError::NoShift(e.to_string()))?;
    let tppps: Vec<String> = match &shift.tppps {
        Some(text) => serde_json::from_str(text)
            .map_err(|e| StoreError::Internal(format!("table {name}: stored TPPPs: {e}")))?,
        None => Vec::new(),
    };
    Ok(Prior {
        hand_id: uuid::Uuid::now_v7().to_string(),
        state: None,
        events: Vec::new(),
        opening: Some(opened_at(&table, &command.actor, tppps)),
    })
}

/// The command's version against the hand's stored one (`None`: no hand).
pub(super) fn check_version(
    hand_id: &str,
    command: &HandCommand,
    stored: Option<u64>,
) -> Result<u64, CommandError> {
    let current = stored.ok_or_else(|| CommandError::UnknownHand(hand_id.into()))?;
    let expected = command
        .expected_version
        .ok_or(CommandError::MissingVersion)?;
    if expected != current {
        return Err(CommandError::Stale { expected, current });
    }
    Ok(current)
}

/// Parses stored event payloads and folds them.
pub(super) fn existing_hand(hand_id: &str, payloads: &[String]) -> Result<Prior, CommandError> {
    let events = payloads
        .iter()
        .map(|p| {
            HandEvent::from_json(p)
                .map_err(|e| StoreError::Internal(format!("hand {hand_id}: stored event: {e}")))
        })
        .collect::<Result<Vec<_>, _>>()?;
    let state = HandState::fold(&events)?;
    Ok(Prior {
        hand_id: hand_id.to_string(),
        state: Some(state),
        events,
        opening: None,
    })
}

/// A command the rules accept, ready to write.
pub(in crate::store) struct Planned {
    pub hand_id: String,
    pub state: HandState,
    /// Every event of the hand, the command's last.
    pub events: Vec<HandEvent>,
    pub records: Vec<NewRecord>,
    /// The hand's row values before the command (None: it opens the hand).
    before: Option<Searched>,
}

/// The values of a hand's row that only some commands change: what the
/// search's indexes, its rollups (kept by triggers) and its people's rows
/// hold.
#[derive(PartialEq)]
struct Searched {
    status: &'static str,
    bank: Option<String>,
    house_collection: Option<String>,
    search: HandSearch,
}

impl Searched {
    fn of(state: &HandState) -> Result<Searched, StoreError> {
        Ok(Searched {
            status: state.phase().name(),
            bank: state.pd().map(|pd| pd.bank.to_canonical()),
            house_collection: state
                .settlement()
                .and_then(|s| s.house_collection())
                .map(|m| m.to_canonical()),
            search: HandSearch::of(state)?,
        })
    }
}

/// What a command changed of its hand's stored row, so the writer writes
/// only that: most commands change neither.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(in crate::store) struct Changed {
    /// The state, the bank, the collection or a search column.
    pub row: bool,
    /// A person's own values (who, staked, received, net).
    pub people: bool,
}

impl Changed {
    pub(super) fn or(self, other: Changed) -> Changed {
        Changed {
            row: self.row || other.row,
            people: self.people || other.people,
        }
    }
}

/// Applies the command to the hand; refused commands return an error and
/// nothing is to be written.
pub(super) fn plan(prior: Prior, command: &HandCommand) -> Result<Planned, CommandError> {
    let Prior {
        hand_id,
        state,
        mut events,
        opening,
    } = prior;
    let before = state.as_ref().map(Searched::of).transpose()?;
    let (state, recorded) = match opening {
        Some(opening) => {
            let mut sent = command.events.clone();
            sent[0] = opening;
            HandState::apply_command(state, &sent)?
        }
        None => HandState::apply_command(state, &command.events)?,
    };
    let first_new = events.len();
    events.extend(recorded);

    // The store's own check, when a settlement is about to be recorded (at
    // close and at each correction): replaying the whole stream from
    // scratch gives that settlement.
    let settles = events[first_new..].iter().any(|e| {
        matches!(
            e,
            HandEvent::HandClosed { .. } | HandEvent::OutcomeCorrected { .. }
        )
    });
    if settles {
        let replayed = HandState::fold(&events)?;
        if replayed.settlement() != state.settlement() {
            return Err(StoreError::Internal(format!(
                "hand {hand_id}: recorded settlement differs from replay"
            ))
            .into());
        }
    }

    let records = events[first_new..]
        .iter()
        .map(|event| {
            Ok(NewRecord {
                actor: command.actor.clone(),
                table: Some(state.table.clone()),
                hand: Some(hand_id.clone()),
                event_type: event.type_name().to_string(),
                payload: canonical_json(event)?,
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    Ok(Planned {
        hand_id,
        state,
        events,
        records,
        before,
    })
}

/// The projection row's values after the command.
pub(super) struct Projection {
    pub status: &'static str,
    pub version: i64,
    pub bank: Option<String>,
    pub house_collection: Option<String>,
    /// The record carrying the settlement, when this command recorded one
    /// (None keeps the one stored).
    pub settlement_seq: Option<i64>,
    pub last_seq: i64,
    pub now: String,
    /// The search's columns and people (`store/history/projection.rs`).
    pub search: HandSearch,
    /// What the command changed of the row before it.
    pub changed: Changed,
}

impl Planned {
    /// The hand's row as the command leaves it, for [`super::pending::Pending::add`];
    /// `expected_version` is the one the command was built on.
    pub(super) fn hand_write(
        &self,
        written: &[AuditRecord],
        expected_version: Option<u64>,
    ) -> Result<HandWrite<'_>, CommandError> {
        Ok(HandWrite {
            id: &self.hand_id,
            table: &self.state.table,
            dealer: &self.state.dealer,
            expected_version,
            row: self.projection(written)?,
        })
    }

    fn projection(&self, written: &[AuditRecord]) -> Result<Projection, CommandError> {
        let Some(last) = written.last() else {
            return Err(StoreError::Internal("a command wrote no audit record".into()).into());
        };
        let now = Searched::of(&self.state)?;
        let changed = match &self.before {
            None => Changed {
                row: true,
                people: true,
            },
            Some(before) => Changed {
                row: before.status != now.status
                    || before.bank != now.bank
                    || before.house_collection != now.house_collection
                    || before.search.columns != now.search.columns,
                people: before.search.people != now.search.people,
            },
        };
        Ok(Projection {
            status: now.status,
            version: self.state.version as i64,
            bank: now.bank,
            house_collection: now.house_collection,
            settlement_seq: written
                .iter()
                .rev()
                .find(|r| HandEvent::carries_settlement(&r.event_type))
                .map(|r| r.seq),
            last_seq: last.seq,
            now: last.recorded_at.clone(),
            search: now.search,
            changed,
        })
    }

    /// The command's result and its stored form (the idempotency row's body).
    pub(super) fn result(
        &self,
        written: &[AuditRecord],
    ) -> Result<(CommandResult, String), CommandError> {
        let result = CommandResult {
            hand_id: self.hand_id.clone(),
            version: self.state.version,
            phase: self.state.phase(),
            records: written
                .iter()
                .map(|r| RecordRef {
                    seq: r.seq,
                    event_type: r.event_type.clone(),
                    hash: r.hash.clone(),
                })
                .collect(),
            settlement: self.state.settlement().cloned(),
        };
        let body = canonical_json(&result)?;
        Ok((result, body))
    }
}
