//! A batch's writes, held until its end and then written a statement per
//! table touched: the records, the new hands, the moved hands, their
//! people and names, the commands' results. Every write of a hand command
//! is here, once, for both executors: the sqlx one flushes a batch of
//! commands (on PostgreSQL each statement is a round trip made while every
//! other writer waits for the chain, so a batch of 64 commands costs about
//! seven round trips instead of six a command: BENCHMARKS.md, "Several
//! instances, one database"); the SQLite writer thread flushes each command
//! as it goes, through rusqlite ([`crate::store::statement::Blocking`]).
//!
//! A hand that several of the batch's commands moved is written once, as
//! the last left it: inserted if the batch opened it, else updated where
//! its stored version is still the one the batch read (anything else is an
//! internal error, and the batch rolls back). A row is written as little as
//! the commands changed it: the search's values (and the indexes and
//! rollups they feed) only when one changed, its people's rows replaced
//! only when the people changed, else given the row's new values.

use std::collections::HashMap;

use super::plan::{Changed, Projection};
use crate::domain::double_hand_poker::hand_record::GAME_DOUBLE_HAND_POKER;
use crate::store::StoreError;
use crate::store::audit::{self, AuditRecord};
use crate::store::history::projection::{self as h, HandSearch};
use crate::store::statement::{Exec, Statement, Value, rows};

/// Most hands in one statement: at 21 values a row, far under either
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
    /// What the batch's commands changed of it, together.
    changed: Changed,
}

/// What the batch's commands wrote, not yet sent to the database.
#[derive(Default)]
pub(super) struct Pending {
    records: Vec<AuditRecord>,
    hands: Vec<PendingHand>,
    /// Index into `hands` by hand id.
    at: HashMap<String, usize>,
    /// The commands' results.
    results: Vec<StoredResult>,
}

/// A command's result as its idempotency key keeps it.
struct StoredResult {
    key: String,
    hash: String,
    body: String,
    created_at: String,
    /// The command opened its hand: kept for good (docs/audit.md).
    opens_hand: bool,
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

/// The columns of `hands` a command writes, in [`row_values`]' order.
const ROW_COLUMNS: &str = "status, version, bank, house_collection, settlement_seq, \
    updated_at, last_seq, pd_name, pd_net_e4, bank_e4, wagered_e4, max_wager_e4, \
    collection_e4, corrected";

/// A hand's row after a command: [`ROW_COLUMNS`]' values.
fn row_values(row: &Projection) -> impl Iterator<Item = Value<'_>> {
    [
        Value::text(row.status),
        Value::int(row.version),
        Value::Money(row.bank.as_deref()),
        Value::Money(row.house_collection.as_deref()),
        Value::Int(row.settlement_seq),
        Value::text(&row.now),
        Value::int(row.last_seq),
    ]
    .into_iter()
    .chain(h::search_values(&row.search.columns))
}

impl Pending {
    /// Whether a command of this batch moved the hand (its records are not
    /// yet in the database).
    pub(super) fn holds(&self, hand_id: &str) -> bool {
        self.at.contains_key(hand_id)
    }

    /// Holds a command's records, its hand's new row and its result (key,
    /// request hash, body).
    pub(super) fn add(
        &mut self,
        records: Vec<AuditRecord>,
        write: HandWrite<'_>,
        (key, hash, body): (&str, &str, &str),
    ) {
        self.records.extend(records);
        let now = write.row.now.clone();
        match self.at.get(write.id) {
            Some(&i) => {
                let held = &mut self.hands[i];
                // An UPDATE keeps the stored settlement when a command
                // recorded none; so does the row held here.
                let settlement_seq = write.row.settlement_seq.or(held.row.settlement_seq);
                held.changed = held.changed.or(write.row.changed);
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
                    opened_at: now.clone(),
                    changed: write.row.changed,
                    row: write.row,
                });
            }
        }
        self.results.push(StoredResult {
            key: key.to_string(),
            hash: hash.to_string(),
            body: body.to_string(),
            created_at: now,
            opens_hand: write.expected_version.is_none(),
        });
    }

    /// Writes everything held, in the order the foreign keys and the
    /// people's copy of their hand's row need: records, hands, people,
    /// results.
    pub(super) async fn flush(&mut self, e: &mut impl Exec) -> Result<(), StoreError> {
        let records = std::mem::take(&mut self.records);
        let hands = std::mem::take(&mut self.hands);
        let results = std::mem::take(&mut self.results);
        self.at.clear();
        audit::insert_records(e, &records).await?;
        type Hands<'a> = Vec<&'a PendingHand>;
        let (new, moved): (Hands, Hands) = hands.iter().partition(|h| h.stored_version.is_none());
        insert_hands(e, &new).await?;
        let (searched, touched): (Hands, Hands) = moved.iter().partition(|h| h.changed.row);
        update_hands(e, &searched, SET_ROW).await?;
        update_hands(e, &touched, SET_TOUCHED).await?;
        let (replaced, kept): (Hands, Hands) = moved.iter().partition(|h| h.changed.people);
        let stored: Vec<&str> = replaced.iter().map(|h| h.id.as_str()).collect();
        let people: Vec<(&str, &HandSearch)> = new
            .iter()
            .chain(&replaced)
            .map(|h| (h.id.as_str(), &h.row.search))
            .collect();
        h::replace_people(e, &stored, &people).await?;
        let kept: Vec<&str> = kept.iter().map(|h| h.id.as_str()).collect();
        h::copy_hands_to_people(e, &kept).await?;
        insert_results(e, &results).await
    }
}

/// Each table's last hand number: one statement for the batch's tables.
async fn last_numbers(
    e: &mut impl Exec,
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
        let values = chunk.iter().map(|t| Value::text(t)).collect();
        numbers.extend(e.text_ints(&Statement { sql, values }).await?);
    }
    Ok(numbers)
}

/// The batch's new hands, numbered after their table's last (the
/// transaction holds the chain: no other writer numbers one meanwhile).
async fn insert_hands(e: &mut impl Exec, new: &[&PendingHand]) -> Result<(), StoreError> {
    if new.is_empty() {
        return Ok(());
    }
    let mut tables: Vec<&str> = new.iter().map(|h| h.table.as_str()).collect();
    tables.sort_unstable();
    tables.dedup();
    let mut last = last_numbers(e, &tables).await?;
    let numbers: Vec<i64> = new
        .iter()
        .map(|h| {
            let n = last.entry(h.table.clone()).or_insert(0);
            *n += 1;
            *n
        })
        .collect();
    for (chunk, numbers) in new.chunks(ROWS_MAX).zip(numbers.chunks(ROWS_MAX)) {
        let sql = format!(
            "INSERT INTO hands (id, table_id, game, dealer, opened_at, number, summarized, \
             {ROW_COLUMNS}) VALUES {}",
            rows(chunk.len(), 21)
        );
        let values = chunk
            .iter()
            .zip(numbers)
            .flat_map(|(hand, number)| {
                [
                    Value::text(&hand.id),
                    Value::text(&hand.table),
                    Value::text(GAME_DOUBLE_HAND_POKER),
                    Value::text(&hand.dealer),
                    Value::text(&hand.opened_at),
                    Value::int(*number),
                    Value::int(1),
                ]
                .into_iter()
                .chain(row_values(&hand.row))
            })
            .collect();
        touched_each(e.execute(&Statement { sql, values }).await?, chunk.len())?;
    }
    Ok(())
}

/// What a moved hand's UPDATE sets: the whole row, when a command changed
/// its search's values ...
const SET_ROW: &str = "status = v.status, version = v.version, bank = v.bank, \
    house_collection = v.house_collection, \
    settlement_seq = COALESCE(v.settlement_seq, hands.settlement_seq), \
    updated_at = v.updated_at, last_seq = v.last_seq, pd_name = v.pd_name, \
    pd_net_e4 = v.pd_net_e4, bank_e4 = v.bank_e4, wagered_e4 = v.wagered_e4, \
    max_wager_e4 = v.max_wager_e4, collection_e4 = v.collection_e4, \
    corrected = v.corrected, summarized = 1";
/// ... else what every command moves (no index but `last_seq`'s, no rollup).
const SET_TOUCHED: &str = "version = v.version, \
    settlement_seq = COALESCE(v.settlement_seq, hands.settlement_seq), \
    updated_at = v.updated_at, last_seq = v.last_seq";

/// The hands the batch moved, each where its version is still the one the
/// batch read.
async fn update_hands(
    e: &mut impl Exec,
    moved: &[&PendingHand],
    set: &str,
) -> Result<(), StoreError> {
    for chunk in moved.chunks(ROWS_MAX) {
        let sql = format!(
            "WITH v (id, stored_version, {ROW_COLUMNS}) AS (VALUES {}) \
             UPDATE hands SET {set} FROM v \
             WHERE hands.id = v.id AND hands.version = v.stored_version",
            rows(chunk.len(), 16)
        );
        let values = chunk
            .iter()
            .flat_map(|hand| {
                [Value::text(&hand.id), Value::Int(hand.stored_version)]
                    .into_iter()
                    .chain(row_values(&hand.row))
            })
            .collect();
        touched_each(e.execute(&Statement { sql, values }).await?, chunk.len())?;
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

/// The commands' results, in the transaction of the records they answer.
async fn insert_results(e: &mut impl Exec, results: &[StoredResult]) -> Result<(), StoreError> {
    for chunk in results.chunks(ROWS_MAX) {
        let sql = format!(
            "INSERT INTO idempotency_keys (key, request_hash, response_status, response_body, \
             created_at, opens_hand) VALUES {}",
            rows(chunk.len(), 6)
        );
        let values = chunk
            .iter()
            .flat_map(|r| {
                [
                    Value::text(&r.key),
                    Value::text(&r.hash),
                    Value::int(200),
                    Value::text(&r.body),
                    Value::text(&r.created_at),
                    Value::int(i64::from(r.opens_hand)),
                ]
            })
            .collect();
        e.execute(&Statement { sql, values }).await?;
    }
    Ok(())
}
