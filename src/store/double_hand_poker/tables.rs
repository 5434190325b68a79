//! Card tables and dealer assignments. Each change is an audit record
//! (`table_created`, `dealer_assigned`, `dealer_unassigned`) written in the
//! same transaction as the projection row it describes.

use serde_json::json;
use sqlx::Row;

use crate::domain::common::audit::AuditKey;
use crate::domain::double_hand_poker::hand_record::GAME_DOUBLE_HAND_POKER;
use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::staff::{Action, Role, allows};
use crate::store::audit::{self, NewRecord, canonical_json};
use crate::store::{Db, StoreError, WriteTx, begin_write};

pub use super::hand_list::{hands, open_hands};

/// Most tables one pitbook keeps.
pub const TABLES_MAX: i64 = 500;

/// A table change refused (a field error) or failed (the store's).
pub type TableStoreError = crate::store::write_error::WriteError;

fn invalid(field: &'static str, message: String) -> TableStoreError {
    TableStoreError::invalid(field, message)
}

/// A table with its dealers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Table {
    pub config: TableConfig,
    pub dealers: Vec<String>,
}

/// A hand at a table, newest first in lists.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandSummary {
    pub id: String,
    /// Its number at the table (`#1042`).
    pub number: i64,
    pub status: String,
    pub dealer: String,
    pub bank: Option<String>,
    pub opened_at: String,
    /// A supervisor corrected a seat's result after close.
    pub corrected: bool,
    /// The PD's name, once set.
    pub pd: Option<String>,
}

impl HandSummary {
    /// The hand's state in the floor's words: a hand whose PD is not set
    /// yet is waiting for its PD, not betting.
    pub fn status_words(&self) -> &'static str {
        match (self.status.as_str(), &self.bank, self.corrected) {
            ("betting", None, _) => "waiting for the PD",
            ("betting", Some(_), _) => "taking wagers",
            ("dealt", _, _) => "dealt: results and settlement",
            ("closed", _, true) => "closed, corrected",
            ("closed", _, false) => "closed",
            ("voided", _, _) => "voided",
            _ => "unknown",
        }
    }

    /// The PD's bank as a page shows money (`2,000.00`), else a dash.
    pub fn bank_shown(&self) -> String {
        self.bank
            .as_deref()
            .and_then(|b| crate::domain::common::money::Money::parse(b).ok())
            .map_or_else(|| "—".to_string(), |m| m.to_display())
    }

    /// Whether the hand is still being played.
    pub fn is_open(&self) -> bool {
        matches!(self.status.as_str(), "betting" | "dealt")
    }
}

async fn config_record(
    tx: &mut WriteTx,
    key: &AuditKey,
    actor: &str,
    table: &str,
    event_type: &str,
    payload: serde_json::Value,
    now: &str,
) -> Result<(), StoreError> {
    let record = NewRecord {
        actor: actor.to_string(),
        table: Some(table.to_string()),
        hand: None,
        event_type: event_type.to_string(),
        payload: canonical_json(&payload)?,
    };
    // The row's time is its record's (audit verify compares the two).
    audit::append_at(tx, key, &[record], now).await.map(drop)
}

/// Creates a table (validated first; a taken name is refused).
pub async fn create(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    config: &TableConfig,
) -> Result<(), TableStoreError> {
    super::house_ways::hold(db, config.rules().house_way).await?;
    config.validate().map_err(|e| invalid(e.field, e.message))?;
    let mut tx = begin_write(db).await?;
    let taken = "SELECT COUNT(*), SUM(CASE WHEN name = $1 THEN 1 ELSE 0 END) FROM card_tables";
    let (count, same): (i64, Option<i64>) = on_tx!(&mut tx, |c| {
        let row = sqlx::query(taken)
            .bind(&config.name)
            .fetch_one(&mut **c)
            .await?;
        (row.get(0), row.get(1))
    });
    if same.unwrap_or(0) > 0 {
        return Err(invalid(
            "name",
            format!("a table \"{}\" already exists", config.name),
        ));
    }
    if count >= TABLES_MAX {
        return Err(invalid("name", format!("at most {TABLES_MAX} tables")));
    }
    let now = audit::now_text();
    let columns = TableColumns::of(config)?;
    let insert = "INSERT INTO card_tables (name, game, profile, options, seats, player_schedule, \
                  bank_schedule, wager_min, wager_max, created_at, created_by, training) \
                  VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)";
    execute_on_tx!(&mut tx, insert, |q| q
        .bind(&config.name)
        .bind(&columns.game)
        .bind(&columns.profile)
        .bind(&columns.options)
        .bind(columns.seats)
        .bind(&columns.player_schedule)
        .bind(&columns.bank_schedule)
        .bind(&columns.wager_min)
        .bind(&columns.wager_max)
        .bind(&now)
        .bind(actor)
        .bind(columns.training));
    let payload = serde_json::to_value(config).map_err(|e| StoreError::Internal(e.to_string()))?;
    let event = "table_created";
    config_record(&mut tx, key, actor, &config.name, event, payload, &now).await?;
    tx.commit().await?;
    Ok(())
}

/// The `card_tables` columns a configuration is stored as; `audit verify`
/// re-derives them from the `table_created` record the same way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct TableColumns {
    pub name: String,
    pub game: String,
    pub profile: String,
    pub options: String,
    pub seats: i64,
    pub player_schedule: Option<String>,
    pub bank_schedule: Option<String>,
    pub wager_min: Option<String>,
    pub wager_max: Option<String>,
    pub training: bool,
}

impl TableColumns {
    pub(crate) fn of(config: &TableConfig) -> Result<TableColumns, StoreError> {
        let json_of = |v: &Option<Vec<crate::domain::double_hand_poker::settle::BracketInput>>| {
            v.as_ref().map(canonical_json).transpose()
        };
        Ok(TableColumns {
            name: config.name.clone(),
            game: GAME_DOUBLE_HAND_POKER.to_string(),
            profile: config.profile.name().to_string(),
            options: canonical_json(&config.options)?,
            seats: config.seats,
            player_schedule: json_of(&config.player_schedule)?,
            bank_schedule: json_of(&config.bank_schedule)?,
            wager_min: config.wager_min.map(|m| m.to_canonical()),
            wager_max: config.wager_max.map(|m| m.to_canonical()),
            training: config.training,
        })
    }
}

/// A table's stored columns, in [`TableColumns`]' order: a literal, so a
/// statement reading them is written out whole (`concat!`).
macro_rules! table_columns {
    () => {
        "name, game, profile, options, seats, player_schedule, bank_schedule, wager_min, \
         wager_max, training"
    };
}
pub(in crate::store) use table_columns;

pub(in crate::store) const SELECT_TABLE: &str =
    concat!("SELECT ", table_columns!(), " FROM card_tables");

impl TableColumns {
    /// The configuration the stored columns hold.
    pub fn into_config(self) -> Result<TableConfig, StoreError> {
        let bad = |what: &str, e: String| StoreError::Internal(format!("stored table {what}: {e}"));
        let schedule = |column: &str, text: Option<String>| {
            text.map(|t| serde_json::from_str(&t).map_err(|e| bad(column, e.to_string())))
                .transpose()
        };
        let money = |column: &str, text: Option<String>| {
            text.map(|t| {
                crate::domain::common::money::Money::parse(&t)
                    .map_err(|e| bad(column, e.to_string()))
            })
            .transpose()
        };
        Ok(TableConfig {
            profile: crate::domain::double_hand_poker::options::Profile::parse(&self.profile)
                .ok_or_else(|| bad("profile", self.profile.clone()))?,
            options: serde_json::from_str(&self.options)
                .map_err(|e| bad("options", e.to_string()))?,
            seats: self.seats,
            player_schedule: schedule("player_schedule", self.player_schedule)?,
            bank_schedule: schedule("bank_schedule", self.bank_schedule)?,
            wager_min: money("wager_min", self.wager_min)?,
            wager_max: money("wager_max", self.wager_max)?,
            training: self.training,
            name: self.name,
        })
    }
}

pub(in crate::store) fn config_from_row<R: Row>(row: &R) -> Result<TableConfig, StoreError>
where
    for<'a> &'a str: sqlx::ColumnIndex<R>,
    for<'a> String: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> Option<String>: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> i64: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
    for<'a> bool: sqlx::Decode<'a, R::Database> + sqlx::Type<R::Database>,
{
    TableColumns {
        name: row.try_get("name")?,
        game: row.try_get("game")?,
        profile: row.try_get("profile")?,
        options: row.try_get("options")?,
        seats: row.try_get("seats")?,
        player_schedule: row.try_get("player_schedule")?,
        bank_schedule: row.try_get("bank_schedule")?,
        wager_min: row.try_get("wager_min")?,
        wager_max: row.try_get("wager_max")?,
        training: row.try_get("training")?,
    }
    .into_config()
}

/// Every table, by name, with its dealers.
pub async fn list(db: &Db) -> Result<Vec<Table>, StoreError> {
    let sql = format!("{SELECT_TABLE} ORDER BY name");
    let configs: Vec<TableConfig> = on_pool!(db, |pool| sqlx::query(&sql)
        .fetch_all(pool)
        .await?
        .iter()
        .map(config_from_row)
        .collect::<Result<_, _>>()?);
    let sql = "SELECT table_name, username FROM table_dealers ORDER BY table_name, username";
    let pairs: Vec<(String, String)> = on_pool!(db, |pool| sqlx::query(sql)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect());
    Ok(configs
        .into_iter()
        .map(|config| {
            let dealers = pairs
                .iter()
                .filter(|(t, _)| *t == config.name)
                .map(|(_, u)| u.clone())
                .collect();
            Table { config, dealers }
        })
        .collect())
}

pub async fn get(db: &Db, name: &str) -> Result<Option<Table>, StoreError> {
    let sql = format!("{SELECT_TABLE} WHERE name = $1");
    let config = on_pool!(db, |pool| sqlx::query(&sql)
        .bind(name)
        .fetch_optional(pool)
        .await?
        .as_ref()
        .map(config_from_row)
        .transpose()?);
    let Some(config) = config else {
        return Ok(None);
    };
    let sql = "SELECT username FROM table_dealers WHERE table_name = $1 ORDER BY username";
    let dealers = on_pool!(db, |pool| sqlx::query(sql)
        .bind(name)
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| r.get(0))
        .collect());
    Ok(Some(Table { config, dealers }))
}

/// Where a command's hand or table stands for a user, in one query: is it a
/// table configured in pitbook, and is the user assigned to it. None when
/// the hand does not exist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Assignment {
    pub configured: bool,
    pub assigned: bool,
    /// A training table: practice hands, run by trainees too.
    pub training: bool,
}

impl Assignment {
    /// What running a hand there takes (an unconfigured table name — a
    /// script, an import — counts as a real table nobody is assigned to).
    pub fn run_hands(self) -> crate::domain::staff::Action {
        crate::domain::staff::Action::run_hands(self.training, self.assigned)
    }
}

/// What a command names: an existing hand, or the table a new hand opens at.
pub enum AtTable<'a> {
    Hand(&'a str),
    Table(&'a str),
}

pub async fn assignment(
    db: &Db,
    at: AtTable<'_>,
    username: &str,
) -> Result<Option<Assignment>, StoreError> {
    const CONFIGURED: &str = "(SELECT c.training FROM card_tables c WHERE c.name = t)";
    const ASSIGNED: &str =
        "EXISTS (SELECT 1 FROM table_dealers d WHERE d.table_name = t AND d.username = $2)";
    let (sql, key) = match at {
        AtTable::Hand(id) => (
            format!(
                "SELECT {CONFIGURED}, {ASSIGNED} FROM (SELECT table_id AS t FROM hands WHERE id = $1) h"
            ),
            id,
        ),
        AtTable::Table(name) => (
            format!("SELECT {CONFIGURED}, {ASSIGNED} FROM (SELECT CAST($1 AS TEXT) AS t) h"),
            name,
        ),
    };
    Ok(on_pool!(db, |pool| sqlx::query(&sql)
        .bind(key)
        .bind(username)
        .fetch_optional(pool)
        .await?
        .map(|r| {
            let training: Option<bool> = r.get(0);
            Assignment {
                configured: training.is_some(),
                assigned: r.get(1),
                training: training.unwrap_or(false),
            }
        })))
}

pub async fn is_assigned(db: &Db, table: &str, username: &str) -> Result<bool, StoreError> {
    let sql = "SELECT 1 FROM table_dealers WHERE table_name = $1 AND username = $2";
    Ok(on_pool!(db, |pool| sqlx::query(sql)
        .bind(table)
        .bind(username)
        .fetch_optional(pool)
        .await?
        .is_some()))
}

/// Assigns (`assign` true) or removes a dealer. Only accounts whose role
/// may run a table can be assigned.
pub async fn set_dealer(
    db: &Db,
    key: &AuditKey,
    actor: &str,
    table: &str,
    username: &str,
    assign: bool,
) -> Result<(), TableStoreError> {
    let mut tx = begin_write(db).await?;
    let exists = "SELECT 1 FROM card_tables WHERE name = $1";
    let found = on_tx!(&mut tx, |c| sqlx::query(exists)
        .bind(table)
        .fetch_optional(&mut **c)
        .await?
        .is_some());
    if !found {
        return Err(invalid("table", format!("no table \"{table}\"")));
    }
    let role_sql = "SELECT role FROM staff_users WHERE username = $1 AND NOT disabled";
    let role: Option<String> = on_tx!(&mut tx, |c| sqlx::query(role_sql)
        .bind(username)
        .fetch_optional(&mut **c)
        .await?
        .map(|r| r.get(0)));
    let role: Role = match role.map(|r| r.parse()) {
        Some(Ok(role)) => role,
        _ => {
            return Err(invalid(
                "username",
                format!("no active account \"{username}\""),
            ));
        }
    };
    if assign && !allows(role, Action::ActOnTable { assigned: true }) {
        return Err(invalid(
            "username",
            format!("\"{username}\" is a {role}: only dealers, supervisors and admins run tables"),
        ));
    }
    let assigned = {
        let sql = "SELECT 1 FROM table_dealers WHERE table_name = $1 AND username = $2";
        on_tx!(&mut tx, |c| sqlx::query(sql)
            .bind(table)
            .bind(username)
            .fetch_optional(&mut **c)
            .await?
            .is_some())
    };
    if assigned == assign {
        let state = if assign { "already" } else { "not" };
        return Err(invalid(
            "username",
            format!("\"{username}\" is {state} assigned to {table}"),
        ));
    }
    let now = audit::now_text();
    if assign {
        let sql = "INSERT INTO table_dealers (table_name, username, assigned_at, assigned_by) \
                   VALUES ($1, $2, $3, $4)";
        execute_on_tx!(&mut tx, sql, |q| q
            .bind(table)
            .bind(username)
            .bind(&now)
            .bind(actor));
    } else {
        let sql = "DELETE FROM table_dealers WHERE table_name = $1 AND username = $2";
        execute_on_tx!(&mut tx, sql, |q| q.bind(table).bind(username));
    }
    let event = if assign {
        "dealer_assigned"
    } else {
        "dealer_unassigned"
    };
    config_record(
        &mut tx,
        key,
        actor,
        table,
        event,
        json!({"dealer": username}),
        &now,
    )
    .await?;
    tx.commit().await?;
    Ok(())
}
