//! `audit verify`'s check of the `hands` projection: every row's table,
//! dealer, status, version, bank, house collection, settlement record and
//! last record must be what the fold of the hand's events gives, and every
//! hand the log holds must have its row. A row changed after the walked
//! head (a live server goes on writing) is left for the next verification.
//! Read a round's window of `last_seq` at a time (`round.rs`).
//! The search's columns and people are `hand_search.rs`'s.

use std::collections::HashMap;
use std::path::Path;

use futures_util::TryStreamExt;
use sqlx::Row;

use super::Problem;
use super::hand_search::SearchDigest;
use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::{HandState, Phase};
use crate::store::{Db, StoreError};

mod check;

use check::{check, number_problem};

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
    /// its table's (`Numbering`).
    opened_seq: i64,
    /// Its number, once numbered (None: opened before `--from`, not
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
            status: state.phase().name(),
            version: state.version as i64,
            bank: state.pd().map(|pd| pd.bank),
            house_collection: state.settlement().and_then(|s| s.house_collection()),
            settlement_seq: (state.phase() == Phase::Closed)
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
#[derive(sqlx::FromRow)]
struct StoredRow {
    id: String,
    #[sqlx(rename = "table_id")]
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
    CAST(bank AS TEXT) AS bank, CAST(house_collection AS TEXT) AS house_collection, \
    settlement_seq, last_seq, opened_at, updated_at, number FROM hands";

/// The rows whose last record is in a round's window, by `hands_by_last_seq`.
fn rows_in_window_sql() -> String {
    format!("{SELECT_HAND_ROWS} WHERE last_seq >= $1 AND last_seq <= $2")
}

/// The number of a table's last hand opened before `from` (`$2`): the
/// number its next hand follows. Read from that hand's row, which the
/// verification that vouched for the log up to `from` checked, through
/// `hands_by_table_number` walked down from the table's last number,
/// passing over the hands the replay saw opened since `from` (`$3`, a JSON
/// array of ids) and any opened later (known by their first record,
/// `audit_log_by_hand`): bounded by what was written since the anchor, not
/// by the log. (Counting the table's `hand_opened` records before `from`
/// read every record before it: 10–50 s at 51 M records.)
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

/// Each table's count of hands opened so far in the walk, so the hands a
/// round sees opened are numbered after those of the rounds before it.
pub(super) struct Numbering {
    from: i64,
    opened: HashMap<String, i64>,
}

impl Numbering {
    pub(super) fn new(from: i64) -> Numbering {
        Numbering {
            from,
            opened: HashMap::new(),
        }
    }

    /// Gives every hand opened in this round (from `round_first`) its
    /// number: its place among its table's `hand_opened` records in seq
    /// order, after its table's hands opened earlier — in earlier rounds,
    /// or (from an anchor, a table's first round) before `from`, as the
    /// table's stored rows say.
    async fn number(
        &mut self,
        db: &Db,
        views: &mut HashMap<String, Expected>,
        round_first: i64,
    ) -> Result<(), StoreError> {
        let first = round_first.max(self.from);
        let mut by_table: HashMap<String, Vec<(i64, String)>> = HashMap::new();
        for (id, e) in views.iter().filter(|(_, e)| e.opened_seq >= first) {
            let list = by_table.entry(e.table.clone()).or_default();
            list.push((e.opened_seq, id.clone()));
        }
        for (table, mut hands) in by_table {
            hands.sort_unstable();
            let base = match self.opened.get(&table) {
                Some(&count) => count,
                None if self.from <= 1 => 0,
                None => self.number_before(db, &table, &hands).await?,
            };
            for (place, (_, id)) in hands.iter().enumerate() {
                if let Some(e) = views.get_mut(id) {
                    e.number = Some(base + place as i64 + 1);
                }
            }
            self.opened.insert(table, base + hands.len() as i64);
        }
        Ok(())
    }

    async fn number_before(
        &self,
        db: &Db,
        table: &str,
        opened_since: &[(i64, String)],
    ) -> Result<i64, StoreError> {
        let ids: Vec<&str> = opened_since.iter().map(|(_, id)| id.as_str()).collect();
        let ids = serde_json::to_string(&ids)
            .map_err(|e| StoreError::Internal(format!("hand ids as JSON: {e}")))?;
        let sql = number_before_sql(db);
        let number: Option<i64> = on_pool!(db, |pool| sqlx::query(&sql)
            .bind(table)
            .bind(self.from)
            .bind(&ids)
            .fetch_optional(pool)
            .await?
            .map(|r| r.get(0)));
        Ok(number.unwrap_or(0))
    }
}

fn projection_problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: {message}"),
    }
}

/// The rows of one round's window of `last_seq` (`window`, inclusive)
/// against the views of the hands the round replayed (`views`): the first
/// row that differs from its hand's fold, or the first hand the log holds
/// without a row. A row and a view meet when the row's `last_seq` is in
/// the window; the few that do not are looked up one by one — a hand
/// still open at the round's end or corrected later (its row is further
/// on: only its number is checked here, the rest by the round that
/// replays its last record), a row whose hand the round did not replay
/// (folded again from the log).
pub(super) async fn first_problem(
    db: &Db,
    mut views: HashMap<String, Expected>,
    numbering: &mut Numbering,
    window: (i64, i64),
    head_seq: i64,
) -> Result<Option<Problem>, StoreError> {
    numbering.number(db, &mut views, window.0).await?;
    let pairing = Pairing {
        views,
        unpaired_rows: Vec::new(),
        differing: Vec::new(),
        head_seq,
    };
    let Pairing {
        views,
        unpaired_rows,
        differing,
        ..
    } = pair_rows(db, window, pairing).await?;
    for (row, want) in differing {
        let problem = if super::replay::is_final(db, &row.id, want.last_seq, head_seq).await? {
            check(&row, &want, head_seq)
        } else {
            // The row was written by a later record (or claims to be):
            // the round that replays the hand's last record checks the rest.
            number_problem(&row, &want)
        };
        if problem.is_some() {
            return Ok(problem);
        }
    }
    let from = numbering.from;
    for row in unpaired_rows {
        // A hand whose records all precede `from` was vouched for then.
        let problem = match super::replay::fold_hand(db, &row.id, head_seq).await? {
            Some(want) if want.last_seq >= from => check(&row, &want, head_seq),
            Some(_) => None,
            None if from > 1 => None,
            None => Some(projection_problem(
                row.last_seq,
                format!(
                    "hand {}: the hands table has a row the log has no events for",
                    row.id
                ),
            )),
        };
        if problem.is_some() {
            return Ok(problem);
        }
    }
    unpaired_views(db, views, head_seq).await
}

/// The window's rows met with their views as they are read.
struct Pairing {
    views: HashMap<String, Expected>,
    /// Rows whose hand the round did not replay (few: see `first_problem`).
    unpaired_rows: Vec<StoredRow>,
    /// Rows that differ from their view, in the order read: a problem if
    /// the view is the hand's last (a later round may hold more of it).
    differing: Vec<(StoredRow, Expected)>,
    head_seq: i64,
}

impl Pairing {
    fn pair(&mut self, row: StoredRow) {
        match self.views.remove(&row.id) {
            Some(want) if check(&row, &want, self.head_seq).is_some() => {
                self.differing.push((row, want));
            }
            Some(_) => {}
            None => self.unpaired_rows.push(row),
        }
    }
}

/// Reads the window's rows into `pairing` (SQLite through rusqlite on a
/// blocking thread, as the log is read).
async fn pair_rows(
    db: &Db,
    window: (i64, i64),
    mut pairing: Pairing,
) -> Result<Pairing, StoreError> {
    match db {
        Db::Sqlite(pool) => {
            let path = pool.connect_options().get_filename().to_path_buf();
            tokio::task::spawn_blocking(move || {
                read_sqlite(&path, window, &mut |row| pairing.pair(row)).map(|()| pairing)
            })
            .await
            .map_err(|e| StoreError::Internal(format!("hand rows thread: {e}")))?
        }
        Db::Postgres(pool) => {
            let sql = rows_in_window_sql();
            let mut rows = sqlx::query_as::<_, StoredRow>(&sql)
                .bind(window.0)
                .bind(window.1)
                .fetch(pool);
            while let Some(row) = rows.try_next().await? {
                pairing.pair(row);
            }
            Ok(pairing)
        }
    }
}

/// Views whose row is not in the window, in `last_seq` order.
async fn unpaired_views(
    db: &Db,
    views: HashMap<String, Expected>,
    head_seq: i64,
) -> Result<Option<Problem>, StoreError> {
    let mut views: Vec<(String, Expected)> = views.into_iter().collect();
    views.sort_by(|a, b| (a.1.last_seq, &a.0).cmp(&(b.1.last_seq, &b.0)));
    let sql = format!("{SELECT_HAND_ROWS} WHERE id = $1");
    for (id, want) in views {
        let row: Option<StoredRow> = on_pool!(db, |pool| sqlx::query_as(&sql)
            .bind(&id)
            .fetch_optional(pool)
            .await?);
        let problem = match row {
            Some(row) if row.last_seq > head_seq => None,
            // Its later records are further on: the round that replays
            // them checks the rest of the row.
            Some(row) if row.last_seq > want.last_seq => number_problem(&row, &want),
            Some(row) => match check(&row, &want, head_seq) {
                Some(p) if super::replay::is_final(db, &id, want.last_seq, head_seq).await? => {
                    Some(p)
                }
                _ => number_problem(&row, &want),
            },
            None => {
                let last = super::replay::is_final(db, &id, want.last_seq, head_seq).await?;
                last.then(|| {
                    projection_problem(
                        want.last_seq,
                        format!(
                            "hand {id}: its events are in the log but the hands table has no row for it"
                        ),
                    )
                })
            }
        };
        if problem.is_some() {
            return Ok(problem);
        }
    }
    Ok(None)
}

fn read_sqlite(
    path: &Path,
    (first, last): (i64, i64),
    visit: &mut dyn FnMut(StoredRow),
) -> Result<(), StoreError> {
    let failed = |e: rusqlite::Error| StoreError::Internal(format!("reading the hands: {e}"));
    let conn = super::log_reader::open_read_only(path).map_err(failed)?;
    let mut statement = conn.prepare(&rows_in_window_sql()).map_err(failed)?;
    let mut rows = statement.query([first, last]).map_err(failed)?;
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
        visit(row);
    }
    Ok(())
}
