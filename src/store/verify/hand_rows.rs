//! `audit verify`'s check of the `hands` projection: every row's table,
//! dealer, status, version, bank, house collection, settlement record and
//! last record must be what the fold of the hand's events gives, and every
//! hand the log holds must have its row. A row changed after the walked
//! head (a live server goes on writing) is left for the next verification.
//! The search's columns and people are `hand_search.rs`'s.

use std::collections::HashMap;
use std::ops::ControlFlow;
use std::path::Path;

use futures_util::TryStreamExt;
use sqlx::Row;

use super::Problem;
use super::hand_search::SearchDigest;
use super::hand_search::rows_from;
use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::{HandState, Phase};
use crate::store::{Db, StoreError};

/// What the projection row of a hand must hold, from the fold of its events.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Expected {
    table: String,
    dealer: String,
    status: &'static str,
    version: i64,
    bank: Option<Money>,
    house_collection: Option<Money>,
    /// The record carrying the settlement (None: not compared, e.g. voided).
    settlement_seq: Option<i64>,
    last_seq: i64,
    /// The seq of its `hand_opened` record: its number is its place among
    /// its table's (`numbered`).
    opened_seq: i64,
    /// Its number, once `numbered` (None: opened before `--from`, not
    /// checked).
    number: Option<i64>,
    /// The `recorded_at` of the hand's first and last records.
    opened_at: String,
    updated_at: String,
    /// What the search projection must hold (`hand_search.rs`).
    search: Result<SearchDigest, String>,
}

impl Expected {
    pub fn last_seq(&self) -> i64 {
        self.last_seq
    }

    pub fn opened_at(&self) -> &str {
        &self.opened_at
    }

    pub fn search(&self) -> &Result<SearchDigest, String> {
        &self.search
    }

    pub fn settlement_seq(&self) -> Option<i64> {
        self.settlement_seq
    }

    /// Keeps `earlier`'s settlement record when this later view of the same
    /// closed hand (from a part of the log read apart) did not see one.
    pub fn settled_before(&mut self, earlier: &Expected) {
        if self.status == earlier.status && self.settlement_seq.is_none() {
            self.settlement_seq = earlier.settlement_seq;
        }
    }

    /// `seqs`: the seqs of its `hand_opened` and of its last record;
    /// `times`: the `recorded_at` of the hand's first and last records.
    pub fn of(
        state: &HandState,
        settlement_seq: Option<i64>,
        (opened_seq, last_seq): (i64, i64),
        times: (String, String),
    ) -> Expected {
        Expected {
            table: state.table.clone(),
            dealer: state.dealer.clone(),
            status: state.phase.name(),
            version: state.version as i64,
            bank: state.pd().map(|pd| pd.bank),
            house_collection: state.settlement().and_then(|s| s.house_collection()),
            settlement_seq: (state.phase == Phase::Closed)
                .then_some(settlement_seq)
                .flatten(),
            last_seq,
            opened_seq,
            number: None,
            opened_at: times.0,
            updated_at: times.1,
            search: super::hand_search::derived(state),
        }
    }
}

/// A `hands` row as stored (money as text).
struct StoredRow {
    id: String,
    table: String,
    dealer: String,
    status: String,
    version: i64,
    bank: Option<String>,
    house_collection: Option<String>,
    settlement_seq: Option<i64>,
    last_seq: i64,
    opened_at: String,
    updated_at: String,
    number: i64,
}

const SELECT_HAND_ROWS: &str = "SELECT id, table_id, dealer, status, version, \
    CAST(bank AS TEXT), CAST(house_collection AS TEXT), settlement_seq, last_seq, \
    opened_at, updated_at, number FROM hands WHERE last_seq >= $1";

/// The number of a table's last hand opened before `from` (`$2`): the
/// number its next hand follows. Read from that hand's row, which the
/// verification that vouched for the log up to `from` checked, through
/// `hands_by_table_number` walked down from the table's last number,
/// passing over the hands the replay saw opened since `from` (`$3`, a JSON
/// array of ids) and any opened past the walked head (known by their first
/// record, `audit_log_by_hand`): bounded by what was written since the
/// anchor, not by the log. (Counting the table's `hand_opened` records
/// before `from` read every record before it: 10–50 s at 51 M records.)
fn number_before_sql(db: &Db) -> String {
    let ids = match db {
        Db::Sqlite(_) => "SELECT value FROM json_each($3)",
        Db::Postgres(_) => "SELECT jsonb_array_elements_text(CAST($3 AS JSONB))",
    };
    format!(
        "SELECT h.number FROM hands h WHERE h.table_id = $1 AND h.id NOT IN ({ids}) \
         AND (SELECT MIN(a.seq) FROM audit_log a WHERE a.hand_id = h.id) < $2 \
         ORDER BY h.number DESC LIMIT 1"
    )
}

/// Gives every hand the log opened from `from` on its number: its place
/// among its table's `hand_opened` records in seq order, after the
/// `before` hands of that table opened earlier.
fn numbered(expected: &mut HashMap<String, Expected>, before: &HashMap<String, i64>, from: i64) {
    let mut by_table: HashMap<String, Vec<(i64, String)>> = HashMap::new();
    for (id, e) in expected.iter().filter(|(_, e)| e.opened_seq >= from) {
        let list = by_table.entry(e.table.clone()).or_default();
        list.push((e.opened_seq, id.clone()));
    }
    for (table, mut hands) in by_table {
        hands.sort_unstable();
        let base = before.get(&table).copied().unwrap_or(0);
        for (place, (_, id)) in hands.into_iter().enumerate() {
            if let Some(e) = expected.get_mut(&id) {
                e.number = Some(base + place as i64 + 1);
            }
        }
    }
}

fn projection_problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: {message}"),
    }
}

/// The first row that differs from its hand's fold, or the first hand the
/// log holds without a row. `expected`: every hand the replay saw, from
/// `from`; from seq 1 (the whole log) a row of a hand it did not see has no
/// events.
pub(super) async fn first_problem(
    db: &Db,
    mut expected: HashMap<String, Expected>,
    head_seq: i64,
    from: i64,
) -> Result<Option<Problem>, StoreError> {
    let whole_log = from <= 1;
    let mut before: HashMap<String, i64> = HashMap::new();
    if !whole_log {
        let mut opened_since: HashMap<&str, Vec<&str>> = HashMap::new();
        for (id, e) in expected.iter().filter(|(_, e)| e.opened_seq >= from) {
            opened_since.entry(e.table.as_str()).or_default().push(id);
        }
        let sql = number_before_sql(db);
        for (table, ids) in opened_since {
            let ids = serde_json::to_string(&ids)
                .map_err(|e| StoreError::Internal(format!("hand ids as JSON: {e}")))?;
            let number: Option<i64> = on_pool!(db, |pool| sqlx::query(&sql)
                .bind(table)
                .bind(from)
                .bind(&ids)
                .fetch_optional(pool)
                .await?
                .map(|r| r.get(0)));
            before.insert(table.to_string(), number.unwrap_or(0));
        }
    }
    numbered(&mut expected, &before, from);
    let problem = match db {
        Db::Sqlite(pool) => {
            let path = pool.connect_options().get_filename().to_path_buf();
            let (problem, rest) = tokio::task::spawn_blocking(move || {
                let mut problem = None;
                read_sqlite(&path, rows_from(from), &mut |row| {
                    problem = check(&mut expected, row, head_seq, whole_log);
                    if problem.is_some() {
                        ControlFlow::Break(())
                    } else {
                        ControlFlow::Continue(())
                    }
                })
                .map(|()| (problem, expected))
            })
            .await
            .map_err(|e| StoreError::Internal(format!("hand rows thread: {e}")))??;
            expected = rest;
            problem
        }
        Db::Postgres(pool) => {
            let mut problem = None;
            let mut rows = sqlx::query(SELECT_HAND_ROWS)
                .bind(rows_from(from))
                .fetch(pool);
            while let Some(r) = rows.try_next().await? {
                let row = StoredRow {
                    id: r.try_get(0)?,
                    table: r.try_get(1)?,
                    dealer: r.try_get(2)?,
                    status: r.try_get(3)?,
                    version: r.try_get(4)?,
                    bank: r.try_get(5)?,
                    house_collection: r.try_get(6)?,
                    settlement_seq: r.try_get(7)?,
                    last_seq: r.try_get(8)?,
                    opened_at: r.try_get(9)?,
                    updated_at: r.try_get(10)?,
                    number: r.try_get(11)?,
                };
                problem = check(&mut expected, row, head_seq, whole_log);
                if problem.is_some() {
                    break;
                }
            }
            problem
        }
    };
    if problem.is_some() {
        return Ok(problem);
    }
    // Hands in the log whose row is missing.
    Ok(expected
        .into_iter()
        .map(|(id, e)| (e.last_seq, id))
        .min()
        .map(|(seq, id)| {
            projection_problem(
                seq,
                format!(
                    "hand {id}: its events are in the log but the hands table has no row for it"
                ),
            )
        }))
}

fn check(
    expected: &mut HashMap<String, Expected>,
    row: StoredRow,
    head_seq: i64,
    whole_log: bool,
) -> Option<Problem> {
    if row.last_seq > head_seq {
        expected.remove(&row.id);
        return None;
    }
    let Some(want) = expected.remove(&row.id) else {
        if !whole_log {
            return None;
        }
        return Some(projection_problem(
            row.last_seq,
            format!(
                "hand {}: the hands table has a row the log has no events for",
                row.id
            ),
        ));
    };
    let money = |text: &Option<String>| text.as_deref().map(Money::parse);
    let bank_ok = money(&row.bank) == want.bank.map(Ok);
    let house_ok = money(&row.house_collection) == want.house_collection.map(Ok);
    // A column compared as it is, shown as it reads.
    fn column<T: PartialEq + ToString>(
        name: &'static str,
        stored: &T,
        folded: &T,
    ) -> (&'static str, bool, String, String) {
        (
            name,
            stored != folded,
            stored.to_string(),
            folded.to_string(),
        )
    }
    let differs = [
        column("table", &row.table, &want.table),
        column("dealer", &row.dealer, &want.dealer),
        (
            "status",
            row.status != want.status,
            row.status.clone(),
            want.status.to_string(),
        ),
        column("version", &row.version, &want.version),
        (
            "bank",
            !bank_ok,
            format!("{:?}", row.bank),
            format!("{:?}", want.bank.map(|m| m.to_canonical())),
        ),
        (
            "house_collection",
            !house_ok,
            format!("{:?}", row.house_collection),
            format!("{:?}", want.house_collection.map(|m| m.to_canonical())),
        ),
        column("last_seq", &row.last_seq, &want.last_seq),
        (
            "number",
            want.number.is_some_and(|n| n != row.number),
            row.number.to_string(),
            want.number.map_or_else(String::new, |n| n.to_string()),
        ),
        (
            "settlement_seq",
            want.settlement_seq.is_some() && row.settlement_seq != want.settlement_seq,
            format!("{:?}", row.settlement_seq),
            format!("{:?}", want.settlement_seq),
        ),
    ];
    if let Some((field, _, stored, folded)) =
        differs.into_iter().find(|(_, differs, _, _)| *differs)
    {
        return Some(projection_problem(
            want.last_seq,
            format!(
                "hand {}: the stored {field} is {stored}; its events give {folded}",
                row.id
            ),
        ));
    }
    // A row's times are its first and last records' (every record of a
    // command shares one time, and the row is written with it:
    // `store/hands/plan.rs`, `Projection::now`).
    let times = [
        ("opened_at", &row.opened_at, &want.opened_at),
        ("updated_at", &row.updated_at, &want.updated_at),
    ];
    let (field, stored, recorded) = times
        .into_iter()
        .find(|(_, stored, recorded)| stored != recorded)?;
    Some(projection_problem(
        row.last_seq,
        format!(
            "hands row {}: {field} is {stored:?} in the row, {recorded:?} from its records",
            row.id
        ),
    ))
}

fn read_sqlite(
    path: &Path,
    from: i64,
    visit: &mut dyn FnMut(StoredRow) -> ControlFlow<()>,
) -> Result<(), StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Internal(format!("reading the hands: {e}"));
    let conn = super::log_reader::open_read_only(path).map_err(failed)?;
    let mut statement = conn.prepare(SELECT_HAND_ROWS).map_err(failed)?;
    let mut rows = statement.query([from]).map_err(failed)?;
    while let Some(r) = rows.next().map_err(failed)? {
        let row = StoredRow {
            id: r.get(0).map_err(failed)?,
            table: r.get(1).map_err(failed)?,
            dealer: r.get(2).map_err(failed)?,
            status: r.get(3).map_err(failed)?,
            version: r.get(4).map_err(failed)?,
            bank: r.get(5).map_err(failed)?,
            house_collection: r.get(6).map_err(failed)?,
            settlement_seq: r.get(7).map_err(failed)?,
            opened_at: r.get(9).map_err(failed)?,
            updated_at: r.get(10).map_err(failed)?,
            last_seq: r.get(8).map_err(failed)?,
            number: r.get(11).map_err(failed)?,
        };
        if visit(row).is_break() {
            break;
        }
    }
    Ok(())
}
