//! The floor's PD rotation records (docs/shifts.md): the TPPP
//! registry, TPPPs marked at tables, and supervisors' overrides of the
//! rotation clock; and the clock itself, read for a table. Each change reads
//! what the core needs under the chain lock, lets `domain::shifts::tppp`
//! decide, then writes its audit record and its row in one transaction.

use chrono::{DateTime, Utc};
use sqlx::Row;

use super::{BindStamp, ShiftError, append};
use crate::domain::common::audit::AuditKey;
use crate::domain::double_hand_poker::rotation_clock::{
    Clock, ClockFacts, RecentHand, RotationRule,
};
use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::shifts::tppp::{self, RotationOverride, Tppp, name_key};
use crate::domain::shifts::{ShiftEvent, Stamp};
use crate::store::audit::now_text;
use crate::store::{Db, StoreError, WriteTx, begin_write};

type TpppRow = (String, String, String, String, String, i64);
const SELECT_TPPPS: &str = "SELECT name, company, badge, registered_at, registered_by, \
    registered_seq FROM tppps ORDER BY name_key";

fn tppp_of((name, company, badge, at, by, seq): TpppRow) -> Tppp {
    Tppp {
        name,
        company,
        badge,
        registered: Stamp { at, by, seq },
    }
}

/// Every registered TPPP, by name.
pub async fn tppps(db: &Db) -> Result<Vec<Tppp>, StoreError> {
    let rows: Vec<TpppRow> = on_pool!(db, |pool| sqlx::query_as(SELECT_TPPPS)
        .fetch_all(pool)
        .await?);
    Ok(rows.into_iter().map(tppp_of).collect())
}

async fn tppps_tx(tx: &mut WriteTx) -> Result<Vec<Tppp>, StoreError> {
    let rows: Vec<TpppRow> = on_tx!(tx, |c| sqlx::query_as(SELECT_TPPPS)
        .fetch_all(&mut **c)
        .await?);
    Ok(rows.into_iter().map(tppp_of).collect())
}

/// (table, TPPP name) for every TPPP marked at a table now.
fn marks_of(rows: Vec<(String, Option<String>)>) -> Result<Vec<(String, String)>, StoreError> {
    let mut marks = Vec::new();
    for (table, text) in rows {
        let names: Vec<String> = match text {
            Some(t) => serde_json::from_str(&t)
                .map_err(|e| StoreError::Internal(format!("table {table}: stored TPPPs: {e}")))?,
            None => Vec::new(),
        };
        marks.extend(names.into_iter().map(|n| (table.clone(), n)));
    }
    Ok(marks)
}

const SELECT_MARKS: &str =
    "SELECT name, tppps FROM card_tables WHERE tppps IS NOT NULL ORDER BY name";

pub async fn marks(db: &Db) -> Result<Vec<(String, String)>, StoreError> {
    let rows = on_pool!(db, |pool| sqlx::query_as(SELECT_MARKS)
        .fetch_all(pool)
        .await?);
    marks_of(rows)
}

/// The TPPPs marked at `table` now.
pub async fn marks_at(db: &Db, table: &str) -> Result<Vec<String>, StoreError> {
    Ok(marks(db)
        .await?
        .into_iter()
        .filter(|(t, _)| t == table)
        .map(|(_, n)| n)
        .collect())
}

async fn marks_tx(tx: &mut WriteTx) -> Result<Vec<(String, String)>, StoreError> {
    let rows = on_tx!(tx, |c| sqlx::query_as(SELECT_MARKS)
        .fetch_all(&mut **c)
        .await?);
    marks_of(rows)
}

/// Registers a TPPP.
pub async fn register(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    name: &str,
    company: &str,
    badge: &str,
) -> Result<Tppp, ShiftError> {
    let mut tx = begin_write(db).await?;
    let registry = tppps_tx(&mut tx).await?;
    let (name, company, badge) = tppp::check_registration(name, company, badge, &registry)?;
    let event = ShiftEvent::TpppRegistered {
        name: name.clone(),
        company: company.clone(),
        badge: badge.clone(),
    };
    let now = now_text();
    let (stamp, _) = append(&mut tx, key, actor, None, &event, &now).await?;
    let sql = "INSERT INTO tppps (name, name_key, company, badge, badge_key, registered_at, \
               registered_by, registered_seq) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)";
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(&name)
        .bind(name_key(&name))
        .bind(&company)
        .bind(&badge)
        .bind(badge.to_lowercase())
        .bind_stamp(&stamp));
    tx.commit().await?;
    Ok(Tppp {
        name,
        company,
        badge,
        registered: stamp,
    })
}

async fn table_config(tx: &mut WriteTx, table: &str) -> Result<TableConfig, ShiftError> {
    let sql = format!(
        "{} WHERE name = $1",
        crate::store::double_hand_poker::tables::SELECT_TABLE
    );
    let config = on_tx!(tx, |c| sqlx::query(&sql)
        .bind(table)
        .fetch_optional(&mut **c)
        .await?
        .as_ref()
        .map(crate::store::double_hand_poker::tables::config_from_row)
        .transpose()?);
    config.ok_or_else(|| ShiftError::NotFound(format!("there is no table \"{table}\"")))
}

async fn write_marks(
    tx: &mut WriteTx,
    table: &str,
    marks: &[(String, String)],
) -> Result<(), StoreError> {
    let names: Vec<&String> = marks
        .iter()
        .filter(|(t, _)| t == table)
        .map(|(_, n)| n)
        .collect();
    let text = (!names.is_empty())
        .then(|| serde_json::to_string(&names))
        .transpose()
        .map_err(|e| StoreError::Internal(e.to_string()))?;
    let sql = "UPDATE card_tables SET tppps = $1 WHERE name = $2";
    execute_on_tx!(tx, sql, |q| q.bind(text).bind(table));
    Ok(())
}

/// Marks a registered TPPP at `table` (`marked` true) or takes them off it.
/// Returns the name as registered.
pub async fn mark(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    table: &str,
    name: &str,
    marked: bool,
) -> Result<String, ShiftError> {
    let mut tx = begin_write(db).await?;
    let config = table_config(&mut tx, table).await?;
    let mut marks = marks_tx(&mut tx).await?;
    let (name, event) = if marked {
        let registry = tppps_tx(&mut tx).await?;
        let max = config.rules().tppp_max_per_table;
        let name = tppp::check_mark(name, table, max, &registry, &marks)?;
        marks.push((table.to_string(), name.clone()));
        let event = ShiftEvent::TpppMarked {
            table: table.to_string(),
            name: name.clone(),
        };
        (name, event)
    } else {
        let name = tppp::check_unmark(name, table, &marks)?;
        marks.retain(|(t, n)| !(t == table && *n == name));
        let event = ShiftEvent::TpppUnmarked {
            table: table.to_string(),
            name: name.clone(),
        };
        (name, event)
    };
    append(&mut tx, key, actor, Some(table), &event, &now_text()).await?;
    write_marks(&mut tx, table, &marks).await?;
    tx.commit().await?;
    Ok(name)
}

/// A supervisor lets the game at `table` go on past the rotation clock.
pub async fn override_rotation(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    table: &str,
    reason: &str,
) -> Result<RotationOverride, ShiftError> {
    let mut tx = begin_write(db).await?;
    let config = table_config(&mut tx, table).await?;
    let clock_on = RotationRule::of(&config.rules()).is_some();
    let reason = tppp::check_override(table, clock_on, reason)?;
    let event = ShiftEvent::PdRotationOverridden {
        table: table.to_string(),
        reason: reason.clone(),
    };
    let (stamp, _) = append(&mut tx, key, actor, Some(table), &event, &now_text()).await?;
    let sql = "INSERT INTO rotation_overrides (seq, table_id, reason, at, by_user) \
               VALUES ($1, $2, $3, $4, $5)";
    execute_on_tx!(&mut tx, sql, |q| q
        .bind(stamp.seq)
        .bind(table)
        .bind(&reason)
        .bind_at_by(&stamp));
    tx.commit().await?;
    Ok(RotationOverride {
        table: table.to_string(),
        reason,
        stamp,
    })
}

/// The overrides at `table` (every table: None) recorded from `from` to
/// `to` (UTC record times), oldest first.
pub async fn overrides(
    db: &Db,
    table: Option<&str>,
    from: &str,
    to: &str,
) -> Result<Vec<RotationOverride>, StoreError> {
    let sql = "SELECT table_id, reason, at, by_user, seq FROM rotation_overrides \
               WHERE ($1 IS NULL OR table_id = $1) AND at >= $2 AND at < $3 ORDER BY seq";
    let rows: Vec<(String, String, String, String, i64)> = on_pool!(db, |pool| sqlx::query_as(sql)
        .bind(table)
        .bind(from)
        .bind(to)
        .fetch_all(pool)
        .await?);
    Ok(rows
        .into_iter()
        .map(|(table, reason, at, by, seq)| RotationOverride {
            table,
            reason,
            stamp: Stamp { at, by, seq },
        })
        .collect())
}

fn parse_time(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|e| StoreError::Internal(format!("stored time {text:?}: {e}")))
}

/// The rotation clock of `table` at `now`; None when its rules have none.
/// Reads the hands of the last two windows (not voided), the table's
/// latest override and the TPPP registry.
pub async fn clock(
    db: &Db,
    config: &TableConfig,
    now: DateTime<Utc>,
) -> Result<Option<Clock>, StoreError> {
    let Some(rule) = RotationRule::of(&config.rules()) else {
        return Ok(None);
    };
    let since = (now - rule.lookback())
        .format("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string();
    let sql = "SELECT opened_at, pd_name FROM hands WHERE table_id = $1 AND opened_at >= $2 \
               AND status <> 'voided' ORDER BY opened_at";
    let rows: Vec<(String, Option<String>)> = on_pool!(db, |pool| sqlx::query_as(sql)
        .bind(&config.name)
        .bind(&since)
        .fetch_all(pool)
        .await?);
    let hands = rows
        .into_iter()
        .map(|(at, pd)| {
            Ok(RecentHand {
                opened_at: parse_time(&at)?,
                pd: pd.filter(|p| !p.is_empty()),
            })
        })
        .collect::<Result<Vec<_>, StoreError>>()?;
    let sql = "SELECT at FROM rotation_overrides WHERE table_id = $1 ORDER BY seq DESC LIMIT 1";
    let last: Option<String> = on_pool!(db, |pool| sqlx::query(sql)
        .bind(&config.name)
        .fetch_optional(pool)
        .await?
        .map(|r| r.get(0)));
    let facts = ClockFacts {
        hands,
        override_at: last.as_deref().map(parse_time).transpose()?,
        tppps: tppps(db).await?.into_iter().map(|t| t.name).collect(),
    };
    Ok(Some(Clock::at(rule, &facts, now)))
}
