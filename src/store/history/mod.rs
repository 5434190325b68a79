//! The hand search and a player's history over the search's projection
//! (`projection.rs`, written with each hand's row): a checked filter in
//! (`domain/history`), one page of hands newest first by keyset, and the
//! whole filtered set's totals.

pub mod backfill;
pub mod player;
pub mod projection;
pub mod query;
pub mod time;

use serde::Serialize;
use sqlx::Row;

use crate::domain::common::money::Money;
use crate::domain::history::units::from_e4;
use crate::domain::history::{Cursor, HandFilter};
use crate::store::{Db, StoreError};

/// One hand in the results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct HandRow {
    pub id: String,
    pub table: String,
    pub number: i64,
    pub dealer: String,
    /// `betting`, `dealt`, `closed` or `voided`.
    pub status: String,
    pub corrected: bool,
    pub training: bool,
    pub opened_at: String,
    pub pd: Option<String>,
    pub bank: Option<Money>,
    pub wagered: Money,
    pub house_collection: Option<Money>,
    pub pd_net: Option<Money>,
}

/// The filtered set's totals (every page's, not this page's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Default, utoipa::ToSchema)]
#[schema(as = SearchTotals)]
pub struct Totals {
    /// The closed hands summed (`domain::history::totals`).
    pub hands: i64,
    pub wagered: Money,
    pub house_collection: Money,
    /// The sum of the PDs' nets.
    pub pd_results: Money,
    /// Hands the filter keeps still open, not in the totals.
    pub open: i64,
    /// Hands the filter keeps voided, not in the totals.
    pub voided: i64,
}

impl Totals {
    /// Every hand the filter keeps, summed or not.
    pub fn all_hands(&self) -> i64 {
        self.hands + self.open + self.voided
    }

    /// What is left out, in words (`totals::left_out`).
    pub fn left_out(&self) -> String {
        crate::domain::history::totals::left_out(self.open, self.voided)
    }
}

/// One page of results.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct SearchPage {
    pub hands: Vec<HandRow>,
    pub totals: Totals,
    /// The cursor of the next page; None on the last.
    pub next: Option<String>,
}

const SELECT_HANDS: &str = "SELECT h.id, h.table_id, h.number, h.dealer, h.status, h.corrected, \
    COALESCE((SELECT t.training FROM card_tables t WHERE t.name = h.table_id), FALSE), \
    h.opened_at, h.pd_name, h.bank_e4, h.wagered_e4, h.collection_e4, h.pd_net_e4 FROM hands h";

/// Binds `binds` in order.
macro_rules! bound {
    ($query:expr, $binds:expr) => {{
        let mut q = $query;
        for b in $binds {
            q = match b {
                $crate::store::history::query::Bind::Text(t) => q.bind(t.clone()),
                $crate::store::history::query::Bind::Int(i) => q.bind(*i),
                $crate::store::history::query::Bind::Bool(v) => q.bind(*v),
            };
        }
        q
    }};
}

/// The export's reading and the totals (after [`bound!`], which they use).
pub mod export;
pub mod totals;

pub use totals::totals;

/// A result row of [`SELECT_HANDS`] (either backend's row type).
macro_rules! hand_row {
    ($r:expr) => {{
        let r = $r;
        let money = |v: Option<i64>| v.map(from_e4);
        Ok::<_, sqlx::Error>(HandRow {
            id: r.try_get(0)?,
            table: r.try_get(1)?,
            number: r.try_get(2)?,
            dealer: r.try_get(3)?,
            status: r.try_get(4)?,
            corrected: r.try_get::<i64, _>(5)? != 0,
            training: r.try_get(6)?,
            opened_at: r.try_get(7)?,
            pd: r.try_get(8)?,
            bank: money(r.try_get(9)?),
            wagered: from_e4(r.try_get(10)?),
            house_collection: money(r.try_get(11)?),
            pd_net: money(r.try_get(12)?),
        })
    }};
}

/// A set this small is sorted whole rather than found by walking every
/// hand newest first (sorting 4,096 rows costs a few milliseconds; the
/// walk, for a set this rare at a million hands, some hundreds).
const SMALL_SET: i64 = 4096;

/// One page of the hands `filter` keeps, newest first, after its cursor;
/// `bounds`: its time range in UTC (`time::bounds`).
pub async fn search(
    db: &Db,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
) -> Result<SearchPage, StoreError> {
    // The totals first: an empty set needs no page, and a small one is
    // read by its amount's index on SQLite (`query::amount_index`).
    let totals = totals(db, filter, bounds.clone()).await?;
    if totals.all_hands() == 0 {
        return Ok(SearchPage {
            hands: Vec::new(),
            totals,
            next: None,
        });
    }
    let limit = filter.limit as i64;
    let mut select = SELECT_HANDS.to_string();
    if let (Db::Sqlite(_), Some(index)) = (db, query::amount_index(filter))
        && totals.all_hands() <= SMALL_SET
        && query::one_name(filter).is_none()
    {
        select.push_str(" INDEXED BY ");
        select.push_str(index);
    }
    let (sql, page) = page_query(db, &select, filter, bounds, limit + 1)?;
    let mut hands: Vec<HandRow> = on_pool!(db, |pool| {
        let rows = bound!(sqlx::query(&sql), &page.binds)
            .fetch_all(pool)
            .await?;
        rows.iter()
            .map(|r| hand_row!(r))
            .collect::<Result<Vec<_>, _>>()?
    });
    let next = if hands.len() as i64 > limit {
        hands.truncate(filter.limit);
        hands.last().map(|h| {
            Cursor {
                opened_at: h.opened_at.clone(),
                id: h.id.clone(),
            }
            .encode()
        })
    } else {
        None
    };
    Ok(SearchPage {
        hands,
        totals,
        next,
    })
}

/// `select` (over `hands h`) for the newest `limit` hands `filter` keeps
/// after its cursor, newest first; and its binds. A one-name filter's
/// hands come from the name's people rows first, newest first by their
/// index, every other criterion on the hand joined to them. On PostgreSQL
/// each matching name's newest `limit` rows are read by a seek of their
/// own and merged (a partial name matching 150 names: 150 short index
/// reads, where one read of all their rows kept the newest from ~274,000
/// at a million hands); SQLite, with no LATERAL, keeps the newest as it
/// reads them all.
pub(crate) fn page_query(
    db: &Db,
    select: &str,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    limit: i64,
) -> Result<(String, query::Where), StoreError> {
    let after = filter.after.as_ref();
    if query::one_name(filter).is_none() {
        let page = query::conditions(filter, bounds, after)?;
        let sql = format!(
            "{select}{} ORDER BY h.opened_at DESC, h.id DESC LIMIT {limit}",
            page.sql()
        );
        return Ok((sql, page));
    }
    let names = match db {
        Db::Postgres(_) => query::Names::Each,
        Db::Sqlite(_) => query::Names::In,
    };
    let (page, joined) =
        query::person_conditions(filter, bounds, after, names, matches!(db, Db::Postgres(_)))?;
    let join = if joined {
        " JOIN hands h ON h.id = p.hand_id"
    } else {
        ""
    };
    if names == query::Names::Each {
        // Each name's newest `limit` (one row a hand, `person_conditions`),
        // then the newest `limit` of those: the set's newest `limit`, as
        // each of them is among its own name's newest.
        let sql = format!(
            "{select} WHERE h.id IN (SELECT k.hand_id FROM (SELECT x.opened_at, x.hand_id \
             FROM person_names n CROSS JOIN LATERAL (SELECT p.opened_at, p.hand_id \
             FROM hand_people p{join}{} ORDER BY p.opened_at DESC, p.hand_id DESC \
             LIMIT {limit}) x WHERE {each} ORDER BY x.opened_at DESC, x.hand_id DESC \
             LIMIT {limit}) k) \
             ORDER BY h.opened_at DESC, h.id DESC",
            page.sql(),
            each = query::EACH_NAME,
        );
        return Ok((sql, page));
    }
    // One row a hand (`person_conditions`): no DISTINCT, so the database
    // keeps only the newest `limit` as it reads.
    let sql = format!(
        "{select} WHERE h.id IN (SELECT k.hand_id FROM (SELECT p.opened_at, p.hand_id \
         FROM hand_people p{join}{} ORDER BY p.opened_at DESC, p.hand_id DESC \
         LIMIT {limit}) k) ORDER BY h.opened_at DESC, h.id DESC",
        page.sql()
    );
    Ok((sql, page))
}

/// Whether `name` is a configured table.
pub async fn table_exists(db: &Db, name: &str) -> Result<bool, StoreError> {
    let sql = "SELECT 1 FROM card_tables WHERE name = $1";
    Ok(on_pool!(db, |pool| sqlx::query(sql)
        .bind(name)
        .fetch_optional(pool)
        .await?
        .is_some()))
}

/// The id of hand `number` at `table`.
pub async fn hand_by_number(
    db: &Db,
    table: &str,
    number: i64,
) -> Result<Option<String>, StoreError> {
    let sql = "SELECT id FROM hands WHERE table_id = $1 AND number = $2";
    Ok(on_pool!(db, |pool| sqlx::query(sql)
        .bind(table)
        .bind(number)
        .fetch_optional(pool)
        .await?
        .map(|r| r.get(0))))
}
