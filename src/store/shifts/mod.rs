//! Shifts (docs/shifts.md): opening one for the room or a table,
//! dealer changes, closing it with its report signed, and the room's
//! "shifts required" setting. Every change reads what the core needs under
//! the chain lock (the open shifts, the shift, the table's dealers, the
//! hands still open), lets the core (`domain::shifts`) decide, then writes
//! its audit record and its row in the one transaction. `audit verify`
//! folds the same records through the same core (`store/verify/shifts.rs`).

pub mod floor;
mod reads;
pub mod report;
pub mod room_now;

pub use reads::*;

use super::audit::{NewRecord, append_at, canonical_json, now_text};
use super::{Db, StoreError, WriteTx, begin_write};
use crate::domain::common::audit::AuditKey;
use crate::domain::common::field_error::FieldError;
use crate::domain::shifts::report::Report;
use crate::domain::shifts::{Shift, ShiftEvent, ShiftRefusal, Signature, Stamp};

/// A shift change refused or failed. The shell maps each to its status.
#[derive(Debug, thiserror::Error)]
pub enum ShiftError {
    /// The core's refusal: 422 for bad input naming its field, 409 for a
    /// state it does not fit.
    #[error("{0}")]
    Refused(ShiftRefusal),
    #[error("{0}")]
    NotFound(String),
    #[error(transparent)]
    Store(#[from] StoreError),
}

impl From<sqlx::Error> for ShiftError {
    fn from(e: sqlx::Error) -> Self {
        ShiftError::Store(e.into())
    }
}

impl From<ShiftRefusal> for ShiftError {
    fn from(e: ShiftRefusal) -> Self {
        ShiftError::Refused(e)
    }
}

/// The stamp a change is tried with before its record is written: now,
/// by `actor`, no sequence number yet.
fn trial_stamp(now: &str, actor: &str) -> Stamp {
    Stamp {
        at: now.to_string(),
        by: actor.to_string(),
        seq: 0,
    }
}

/// A stamp's columns bound to a query, in the order the shift tables list
/// them.
trait BindStamp<'q> {
    /// Binds when and by whom.
    fn bind_at_by(self, stamp: &'q Stamp) -> Self;
    /// Binds when, by whom and the record's sequence number.
    fn bind_stamp(self, stamp: &'q Stamp) -> Self;
}

impl<'q, DB> BindStamp<'q> for sqlx::query::Query<'q, DB, <DB as sqlx::Database>::Arguments<'q>>
where
    DB: sqlx::Database,
    &'q String: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
    i64: sqlx::Encode<'q, DB> + sqlx::Type<DB>,
{
    fn bind_at_by(self, stamp: &'q Stamp) -> Self {
        self.bind(&stamp.at).bind(&stamp.by)
    }

    fn bind_stamp(self, stamp: &'q Stamp) -> Self {
        self.bind_at_by(stamp).bind(stamp.seq)
    }
}

fn invalid(field: &str, message: String) -> ShiftError {
    ShiftError::Refused(ShiftRefusal::Invalid(FieldError::new(field, message)))
}

/// Appends `event` (by `actor`, at `table` if any) now: its stamp.
async fn append(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    table: Option<&str>,
    event: &ShiftEvent,
    now: &str,
) -> Result<(Stamp, String), StoreError> {
    let record = NewRecord {
        actor: actor.to_string(),
        table: table.map(str::to_string),
        hand: None,
        event_type: event.type_name().to_string(),
        payload: canonical_json(&event.payload())?,
    };
    let written = append_at(tx, key, &[record], now).await?;
    let last = written
        .last()
        .ok_or_else(|| StoreError::Internal("no record appended".into()))?;
    Ok((
        Stamp {
            at: now.to_string(),
            by: actor.to_string(),
            seq: last.seq,
        },
        last.hash.clone(),
    ))
}

/// Opens a shift for the room (`table` None) or one table; its id.
pub async fn open(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    table: Option<&str>,
) -> Result<Shift, ShiftError> {
    let mut tx = begin_write(db).await?;
    if let Some(t) = table
        && !table_exists(&mut tx, t).await?
    {
        return Err(invalid("table", format!("there is no table \"{t}\"")));
    }
    let open = open_shifts_tx(&mut tx).await?;
    let id = uuid::Uuid::now_v7().to_string();
    let now = now_text();
    // The core decides before anything is written; the stamp's seq is
    // filled in once the record is.
    let probe = trial_stamp(&now, actor);
    Shift::open(id.clone(), table.map(str::to_string), &open, probe)?;
    let event = ShiftEvent::ShiftOpened {
        shift: id.clone(),
        table: table.map(str::to_string),
    };
    let (stamp, _) = append(&mut tx, key, actor, table, &event, &now).await?;
    let shift = Shift::open(id.clone(), table.map(str::to_string), &open, stamp.clone())?;
    let sql = "INSERT INTO shifts (id, table_id, opened_at, opened_by, opened_seq) \
               VALUES ($1, $2, $3, $4, $5)";
    execute_on_tx!(&mut tx, sql, |q| q.bind(&id).bind(table).bind_stamp(&stamp));
    tx.commit().await?;
    Ok(shift)
}

async fn table_exists(tx: &mut WriteTx, table: &str) -> Result<bool, StoreError> {
    let sql = "SELECT 1 FROM card_tables WHERE name = $1";
    Ok(on_tx!(tx, |c| sqlx::query(sql)
        .bind(table)
        .fetch_optional(&mut **c)
        .await?
        .is_some()))
}

async fn shift_tx(tx: &mut WriteTx, id: &str) -> Result<Shift, ShiftError> {
    load_tx(tx, id)
        .await?
        .ok_or_else(|| ShiftError::NotFound(format!("there is no shift {id}")))
}

/// A dealer takes the box at `table` in shift `id` (`dealer` None: the box
/// is left empty). The dealer must be assigned to the table.
pub async fn change_dealer(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    id: &str,
    table: &str,
    dealer: Option<&str>,
) -> Result<Shift, ShiftError> {
    let mut tx = begin_write(db).await?;
    let mut shift = shift_tx(&mut tx, id).await?;
    if !table_exists(&mut tx, table).await? {
        return Err(invalid("table", format!("there is no table \"{table}\"")));
    }
    let assigned = assigned_dealers(&mut tx, table).await?;
    let now = now_text();
    let probe = trial_stamp(&now, actor);
    shift
        .clone()
        .change_dealer(table, dealer, Some(&assigned), probe)?;
    let event = ShiftEvent::DealerChanged {
        shift: id.to_string(),
        table: table.to_string(),
        dealer: dealer.map(str::to_string),
    };
    let (stamp, _) = append(&mut tx, key, actor, Some(table), &event, &now).await?;
    shift.change_dealer(table, dealer, Some(&assigned), stamp.clone())?;
    let sql = "INSERT INTO shift_dealers (seq, shift_id, table_id, dealer, changed_at, changed_by) \
               VALUES ($1, $2, $3, $4, $5, $6)";
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(stamp.seq)
        .bind(id)
        .bind(table)
        .bind(dealer)
        .bind_at_by(&stamp));
    tx.commit().await?;
    Ok(shift)
}

async fn assigned_dealers(tx: &mut WriteTx, table: &str) -> Result<Vec<String>, StoreError> {
    let sql = "SELECT username FROM table_dealers WHERE table_name = $1 ORDER BY username";
    let rows: Vec<(String,)> = on_tx!(tx, |c| sqlx::query_as(sql)
        .bind(table)
        .fetch_all(&mut **c)
        .await?);
    Ok(rows.into_iter().map(|(u,)| u).collect())
}

/// What signing a shift's report goes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Signing {
    /// Close the shift (the `shift_closed` record), then sign its report.
    Close,
    /// Sign the closed shift's report again as it stands now (after a
    /// correction superseded the signature before).
    Again,
}

/// Signs shift `id`'s report, closing the shift first for
/// [`Signing::Close`], in one transaction: `shift_report_signed` carries
/// the digest of the report as it stands. Returns the signed report.
pub async fn sign(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    id: &str,
    zone: chrono_tz::Tz,
    signing: Signing,
) -> Result<Report, ShiftError> {
    let mut tx = begin_write(db).await?;
    let mut shift = shift_tx(&mut tx, id).await?;
    let now = now_text();
    if signing == Signing::Close {
        close_tx(&mut tx, key, actor, &mut shift, &now).await?;
    }
    let report = sign_tx(&mut tx, key, actor, &mut shift, zone, &now).await?;
    tx.commit().await?;
    Ok(report)
}

/// Closes `shift` once no hand is open at its tables: the `shift_closed`
/// record and the row's closing stamp.
async fn close_tx(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    shift: &mut Shift,
    now: &str,
) -> Result<(), ShiftError> {
    let hands_open = open_hands(tx, shift).await?;
    let probe = trial_stamp(now, actor);
    shift.clone().close(&hands_open, probe)?;
    let event = ShiftEvent::ShiftClosed {
        shift: shift.id.clone(),
    };
    let table = shift.table.clone();
    let (stamp, _) = append(tx, key, actor, table.as_deref(), &event, now).await?;
    shift.close(&hands_open, stamp.clone())?;
    let sql = "UPDATE shifts SET closed_at = $2, closed_by = $3, closed_seq = $4 WHERE id = $1";
    execute_on_tx!(tx, sql, |q| q.bind(&shift.id).bind_stamp(&stamp));
    Ok(())
}

/// Computes `shift`'s report as its hands stand, lets the core accept the
/// signature (closed, a digest not already signed), then appends
/// `shift_report_signed` and its row. The report signed.
async fn sign_tx(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    shift: &mut Shift,
    zone: chrono_tz::Tz,
    now: &str,
) -> Result<Report, ShiftError> {
    let report = report::of_shift(&mut report::On::Tx(tx), shift, zone, now).await?;
    let signature = |stamp: Stamp| Signature {
        digest: report.digest.clone(),
        hands: report.room.hands,
        drop: report.room.drop,
        stamp,
    };
    let probe = trial_stamp(now, actor);
    shift.clone().sign(signature(probe))?;
    let event = ShiftEvent::ShiftReportSigned {
        shift: shift.id.clone(),
        digest: report.digest.clone(),
        hands: report.room.hands,
        drop: report.room.drop,
    };
    let table = shift.table.clone();
    let (stamp, _) = append(tx, key, actor, table.as_deref(), &event, now).await?;
    shift.sign(signature(stamp.clone()))?;
    insert_signature(tx, &shift.id, &report, &stamp).await?;
    Ok(report)
}

async fn insert_signature(
    tx: &mut WriteTx,
    id: &str,
    report: &Report,
    stamp: &Stamp,
) -> Result<(), StoreError> {
    let sql = "INSERT INTO shift_signatures (seq, shift_id, digest, hands, drop_total, signed_at, signed_by) \
               VALUES ($1, $2, $3, $4, $5, $6, $7)";
    execute_on_tx!(tx, sql, |q| q
        .bind(stamp.seq)
        .bind(id)
        .bind(&report.digest)
        .bind(report.room.hands as i64)
        .bind(report.room.drop.to_canonical())
        .bind_at_by(stamp));
    Ok(())
}

/// The hands still being played at the shift's real tables, by name (a
/// practice hand at a training table counts for nothing, and holds no
/// shift open).
async fn open_hands(tx: &mut WriteTx, shift: &Shift) -> Result<Vec<String>, StoreError> {
    // The cast types the placeholder for PostgreSQL, which will not guess
    // the type of a bare `$1 IS NULL`.
    let sql = "SELECT table_id, number FROM hands \
               WHERE status IN ('betting', 'dealt') \
               AND (CAST($1 AS TEXT) IS NULL OR table_id = $1) \
               AND table_id NOT IN (SELECT name FROM card_tables WHERE training) \
               ORDER BY table_id, number";
    let rows: Vec<(String, Option<i64>)> = on_tx!(tx, |c| sqlx::query_as(sql)
        .bind(shift.table.as_deref())
        .fetch_all(&mut **c)
        .await?);
    Ok(rows
        .into_iter()
        .map(|(t, n)| match n {
            Some(n) => format!("{t} #{n}"),
            None => t,
        })
        .collect())
}

/// Sets whether a hand may open at a table no open shift covers.
pub async fn set_required(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    required: bool,
) -> Result<(), ShiftError> {
    let mut tx = begin_write(db).await?;
    let now = now_text();
    let event = ShiftEvent::ShiftsRequiredSet { required };
    let (stamp, _) = append(&mut tx, key, actor, None, &event, &now).await?;
    let sql = match &tx {
        WriteTx::Sqlite(_) => {
            "INSERT INTO room_settings (key, value, seq) VALUES ('shifts_required', $1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = excluded.value, seq = excluded.seq"
        }
        WriteTx::Postgres(_) => {
            "INSERT INTO room_settings (key, value, seq) VALUES ('shifts_required', $1, $2) \
             ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value, seq = EXCLUDED.seq"
        }
    };
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(if required { "true" } else { "false" })
        .bind(stamp.seq));
    tx.commit().await?;
    Ok(())
}
