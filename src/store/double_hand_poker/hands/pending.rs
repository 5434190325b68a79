//! A batch's writes, held until its end and then written a statement per
//! table touched: the records, the new hands, the moved hands, their
//! people and names. On PostgreSQL each statement is a round trip made
//! while every other writer waits for the chain, so a batch of 64 commands
//! costs about seven round trips instead of six a command (BENCHMARKS.md,
//! "Several instances, one database").
//!
//! A hand that several of the batch's commands moved is written once, as
//! the last left it: inserted if the batch opened it, else updated where
//! its stored version is still the one the batch read (anything else is an
//! internal error, and the batch rolls back).

use std::collections::{BTreeSet, HashMap};

use sqlx::Row;

use super::plan::Projection;
use crate::domain::double_hand_poker::hand_record::GAME_DOUBLE_HAND_POKER;
use crate::store::audit::{self, AuditRecord};
use crate::store::history::projection as h;
use crate::store::{Backend, StoreError, WriteTx};

/// Most rows in one statement: at 19 values a row, far under either
/// database's limit on a statement's values (PostgreSQL 65,535, SQLite
/// 32,766).
const ROWS_MAX: usize = 256;

/// A hand as the batch's last command on it left it.
struct PendingHand {
    id: String,
    /// Its version before the batch; None: the batch opened it.
    stored_version: Option<i64>,
    table: String,
    dealer: String,
    opened_at: String,
    row: Projection,
}

/// What the batch's commands wrote, not yet sent to the database.
#[derive(Default)]
pub(super) struct Pending {
    records: Vec<AuditRecord>,
    hands: Vec<PendingHand>,
    /// Index into `hands` by hand id.
    at: HashMap<String, usize>,
}

/// What one command wrote to its hand.
pub(super) struct HandWrite<'a> {
    pub id: &'a str,
    pub table: &'a str,
    pub dealer: &'a str,
    /// The version the command was built on (None: it opened the hand).
    pub expected_version: Option<u64>,
    pub row: Projection,
}

impl Pending {
    /// Whether a command of this batch moved the hand (its records are not
    /// yet in the database).
    pub(super) fn holds(&self, hand_id: &str) -> bool {
        self.at.contains_key(hand_id)
    }

    /// Holds a command's records and its hand's new row.
    pub(super) fn add(&mut self, records: Vec<AuditRecord>, write: HandWrite<'_>) {
        self.records.extend(records);
        match self.at.get(write.id) {
            Some(&i) => {
                let held = &mut self.hands[i];
                // An UPDATE keeps the stored settlement when a command
                // recorded none; so does the row held here.
                let settlement_seq = write.row.settlement_seq.or(held.row.settlement_seq);
                held.row = write.row;
                held.row.settlement_seq = settlement_seq;
            }
            None => {
                self.at.insert(write.id.to_string(), self.hands.len());
                self.hands.push(PendingHand {
                    id: write.id.to_string(),
                    stored_version: write.expected_version.map(|v| v as i64),
                    table: write.table.to_string(),
                    dealer: write.dealer.to_string(),
                    opened_at: write.row.now.clone(),
                    row: write.row,
                });
            }
        }
    }

    /// Writes everything held, in the order the foreign keys and the
    /// people's copy of their hand's row need: records, hands, people.
    pub(super) async fn flush(&mut self, tx: &mut WriteTx) -> Result<(), StoreError> {
        let records = std::mem::take(&mut self.records);
        let hands = std::mem::take(&mut self.hands);
        self.at.clear();
        audit::insert_records(tx, &records).await?;
        let (new, moved): (Vec<_>, Vec<_>) =
            hands.into_iter().partition(|h| h.stored_version.is_none());
        insert_hands(tx, &new).await?;
        update_hands(tx, &moved).await?;
        let old_keys = delete_people(tx, &moved).await?;
        let all: Vec<&PendingHand> = new.iter().chain(&moved).collect();
        insert_people(tx, &all).await?;
        let kept: BTreeSet<&str> = all.iter().flat_map(|h| h.row.search.keys()).collect();
        insert_names(tx, &kept).await?;
        let dropped: BTreeSet<&str> = old_keys
            .iter()
            .map(String::as_str)
            .filter(|k| !kept.contains(k))
            .collect();
        delete_names_if_unused(tx, &dropped).await
    }
}

/// `count` rows of `width` placeholders each, numbered from $1; `cell`
/// words a value from its placeholder and its column.
fn values(count: usize, width: usize, cell: impl Fn(String, usize) -> String) -> String {
    (0..count)
        .map(|r| {
            let cells: Vec<String> = (0..width)
                .map(|c| cell(format!("${}", r * width + c + 1), c))
                .collect();
            format!("({})", cells.join(", "))
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// PostgreSQL keeps money as NUMERIC (bound as its canonical text), SQLite
/// as the text itself.
fn money(backend: Backend, placeholder: String) -> String {
    match backend {
        Backend::Postgres => format!("CAST({placeholder} AS NUMERIC)"),
        Backend::Sqlite => placeholder,
    }
}

/// Each table's last hand number: one statement for the batch's tables.
async fn last_numbers(
    tx: &mut WriteTx,
    tables: &[&str],
) -> Result<HashMap<String, i64>, StoreError> {
    let mut numbers = HashMap::new();
    for chunk in tables.chunks(ROWS_MAX) {
        let sql = (1..=chunk.len())
            .map(|i| {
                format!(
                    "SELECT ${i}, (SELECT COALESCE(MAX(n.number), 0) FROM hands n \
                     WHERE n.table_id = ${i})"
                )
            })
            .collect::<Vec<_>>()
            .join(" UNION ALL ");
        let rows: Vec<(String, i64)> = on_tx!(tx, |c| {
            let mut q = sqlx::query(&sql);
            for t in chunk {
                q = q.bind(*t);
            }
            q.fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect()
        });
        numbers.extend(rows);
    }
    Ok(numbers)
}

/// The batch's new hands, numbered after their table's last (the
/// transaction holds the chain: no other writer numbers one meanwhile).
async fn insert_hands(tx: &mut WriteTx, new: &[PendingHand]) -> Result<(), StoreError> {
    if new.is_empty() {
        return Ok(());
    }
    let mut tables: Vec<&str> = new.iter().map(|h| h.table.as_str()).collect();
    tables.sort_unstable();
    tables.dedup();
    let mut last = last_numbers(tx, &tables).await?;
    let numbers: Vec<i64> = new
        .iter()
        .map(|h| {
            let n = last.entry(h.table.clone()).or_insert(0);
            *n += 1;
            *n
        })
        .collect();
    let backend = tx.backend();
    for (chunk, numbers) in new.chunks(ROWS_MAX).zip(numbers.chunks(ROWS_MAX)) {
        let sql = format!(
            "INSERT INTO hands (id, table_id, game, dealer, status, version, bank, \
             house_collection, settlement_seq, opened_at, updated_at, last_seq, number, {}, \
             summarized) VALUES {}",
            super::plan::SEARCH_COLUMNS,
            values(chunk.len(), 19, |p, c| match c {
                2 => format!("'{GAME_DOUBLE_HAND_POKER}', {p}"),
                5 | 6 => money(backend, p),
                18 => format!("{p}, 1"),
                _ => p,
            })
        );
        let rows = on_tx!(tx, |c| {
            let mut q = sqlx::query(&sql);
            for (hand, number) in chunk.iter().zip(numbers) {
                let r = &hand.row;
                let q_row = q
                    .bind(&hand.id)
                    .bind(&hand.table)
                    .bind(&hand.dealer)
                    .bind(r.status)
                    .bind(r.version)
                    .bind(&r.bank)
                    .bind(&r.house_collection)
                    .bind(r.settlement_seq)
                    .bind(&hand.opened_at)
                    .bind(&r.now)
                    .bind(r.last_seq)
                    .bind(*number);
                q = crate::store::history::bind_search(q_row, &r.search.columns);
            }
            q.execute(&mut **c).await?.rows_affected()
        });
        touched_each(rows, chunk.len())?;
    }
    Ok(())
}

/// The hands the batch moved, each where its version is still the one the
/// batch read.
async fn update_hands(tx: &mut WriteTx, moved: &[PendingHand]) -> Result<(), StoreError> {
    let backend = tx.backend();
    for chunk in moved.chunks(ROWS_MAX) {
        let sql = format!(
            "WITH v (id, status, version, bank, house_collection, settlement_seq, updated_at, \
             last_seq, stored_version, pd_name, pd_net_e4, bank_e4, wagered_e4, max_wager_e4, \
             collection_e4, corrected) AS (VALUES {}) \
             UPDATE hands SET status = v.status, version = v.version, bank = {}, \
             house_collection = {}, settlement_seq = COALESCE(v.settlement_seq, \
             hands.settlement_seq), updated_at = v.updated_at, last_seq = v.last_seq, \
             pd_name = v.pd_name, pd_net_e4 = v.pd_net_e4, bank_e4 = v.bank_e4, \
             wagered_e4 = v.wagered_e4, max_wager_e4 = v.max_wager_e4, \
             collection_e4 = v.collection_e4, corrected = v.corrected, summarized = 1 \
             FROM v WHERE hands.id = v.id AND hands.version = v.stored_version",
            values(chunk.len(), 16, |p, _| p),
            money(backend, "v.bank".into()),
            money(backend, "v.house_collection".into()),
        );
        let rows = on_tx!(tx, |c| {
            let mut q = sqlx::query(&sql);
            for hand in chunk {
                let r = &hand.row;
                let q_row = q
                    .bind(&hand.id)
                    .bind(r.status)
                    .bind(r.version)
                    .bind(&r.bank)
                    .bind(&r.house_collection)
                    .bind(r.settlement_seq)
                    .bind(&r.now)
                    .bind(r.last_seq)
                    .bind(hand.stored_version);
                q = crate::store::history::bind_search(q_row, &r.search.columns);
            }
            q.execute(&mut **c).await?.rows_affected()
        });
        touched_each(rows, chunk.len())?;
    }
    Ok(())
}

/// A projection write touches exactly its hands' rows: the versioned
/// UPDATE matched each, the INSERT added each.
fn touched_each(rows: u64, hands: usize) -> Result<(), StoreError> {
    if rows != hands as u64 {
        return Err(StoreError::Internal(format!(
            "a batch's projection write touched {rows} rows of {hands} hands"
        )));
    }
    Ok(())
}

/// The moved hands' people rows out; the name keys they held back.
async fn delete_people(tx: &mut WriteTx, moved: &[PendingHand]) -> Result<Vec<String>, StoreError> {
    let mut keys = Vec::new();
    for chunk in moved.chunks(ROWS_MAX) {
        let sql = format!(
            "DELETE FROM hand_people WHERE hand_id IN ({}) RETURNING name_key",
            placeholders(chunk.len())
        );
        let old: Vec<String> = on_tx!(tx, |c| {
            let mut q = sqlx::query(&sql);
            for hand in chunk {
                q = q.bind(&hand.id);
            }
            q.fetch_all(&mut **c)
                .await?
                .iter()
                .map(|r| r.get(0))
                .collect()
        });
        keys.extend(old);
    }
    Ok(keys)
}

fn placeholders(count: usize) -> String {
    values(1, count, |p, _| p)
        .trim_matches(|c| c == '(' || c == ')')
        .to_string()
}

/// Every held hand's people, each row with its hand's time, last record,
/// money and criteria copied from the row just written (migration 0019).
async fn insert_people(tx: &mut WriteTx, hands: &[&PendingHand]) -> Result<(), StoreError> {
    let people: Vec<(&str, &h::PersonRow)> = hands
        .iter()
        .flat_map(|hand| hand.row.search.people.iter().map(|p| (hand.id.as_str(), p)))
        .collect();
    for chunk in people.chunks(ROWS_MAX) {
        let sql = format!(
            "WITH v (hand_id, role, name, name_key, staked_e4, received_e4, net_e4, \
             keys_before) AS (VALUES {}) \
             INSERT INTO hand_people (hand_id, role, name, name_key, staked_e4, received_e4, \
             net_e4, keys_before, opened_at, last_seq, hand_wagered_e4, hand_collection_e4, \
             hand_pd_net_e4, table_id, dealer, status, corrected, bank_e4, max_wager_e4) \
             SELECT v.hand_id, v.role, v.name, v.name_key, v.staked_e4, v.received_e4, \
             v.net_e4, v.keys_before, h.opened_at, h.last_seq, h.wagered_e4, \
             h.collection_e4, h.pd_net_e4, h.table_id, h.dealer, h.status, h.corrected, \
             h.bank_e4, h.max_wager_e4 FROM v JOIN hands h ON h.id = v.hand_id",
            values(chunk.len(), 8, |p, _| p)
        );
        let rows = on_tx!(tx, |c| {
            let mut q = sqlx::query(&sql);
            for (hand, p) in chunk {
                q = crate::store::history::bind_person(q.bind(*hand), p);
            }
            q.execute(&mut **c).await?.rows_affected()
        });
        if rows != chunk.len() as u64 {
            return Err(StoreError::Internal(format!(
                "{} people of a batch's hands, {rows} rows written",
                chunk.len()
            )));
        }
    }
    Ok(())
}

/// The names the held hands' people go by, on the list once each.
async fn insert_names(tx: &mut WriteTx, keys: &BTreeSet<&str>) -> Result<(), StoreError> {
    execute_for_keys(tx, keys, h::insert_names).await
}

/// Names the moved hands held and no longer do leave the list when no hand
/// holds them.
async fn delete_names_if_unused(tx: &mut WriteTx, keys: &BTreeSet<&str>) -> Result<(), StoreError> {
    execute_for_keys(tx, keys, |n| {
        format!(
            "DELETE FROM person_names WHERE name_key IN ({}) AND NOT EXISTS \
             (SELECT 1 FROM hand_people p WHERE p.name_key = person_names.name_key)",
            placeholders(n)
        )
    })
    .await
}

/// Runs `sql(n)` with `n` name keys bound, a statement for each chunk.
async fn execute_for_keys(
    tx: &mut WriteTx,
    keys: &BTreeSet<&str>,
    sql: impl Fn(usize) -> String,
) -> Result<(), StoreError> {
    let keys: Vec<&str> = keys.iter().copied().collect();
    for chunk in keys.chunks(ROWS_MAX) {
        let sql = sql(chunk.len());
        on_tx!(tx, |c| {
            let mut q = sqlx::query(&sql);
            for key in chunk {
                q = q.bind(*key);
            }
            q.execute(&mut **c).await.map(drop)?
        });
    }
    Ok(())
}
