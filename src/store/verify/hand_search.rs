//! `audit verify`'s check of the search projection (migration 0015,
//! `store/history/projection.rs`): every hand's totals on its `hands` row
//! and its `hand_people` rows (as a set, each with its `keys_before` and
//! the hand's `opened_at`, `last_seq`, money and criteria) must be what `HandSearch::of` gives for the fold of its
//! events, and `person_names` must hold exactly the name keys `hand_people`
//! holds. Like `hand_rows.rs`: a round's window of `last_seq` at a time
//! (read by index, hand by hand with their people, so nothing is sorted on
//! disk however long the log), a hand changed after the walked head left for the next
//! verification, and from `--from` only the hands the replay saw compared.
//! A difference from a hand's view is reported only if the view is the
//! hand's last (`replay::is_final`): a later round may hold more of it.
//!
//! The replay keeps a 16-byte digest of each hand's search projection, not
//! the projection (a million hands' people would cost ~1 GB); a hand whose
//! stored rows digest differently is folded again from the log to name the
//! field that differs.

use std::collections::{HashMap, HashSet};
use std::ops::ControlFlow;
use std::path::Path;
use std::sync::Arc;

use futures_util::TryStreamExt;
use sqlx::Row;

use super::Problem;
use super::hand_rows::Expected;
use super::hand_search_digest::digest;
pub(super) use super::hand_search_digest::{SearchDigest, derived};
use crate::domain::history::Role;
use crate::store::history::projection::{PersonRow, SearchColumns};
use crate::store::{Db, StoreError};

/// A hand's search projection as stored.
pub(super) struct StoredHand {
    pub(super) id: String,
    pub(super) columns: SearchColumns,
    summarized: i64,
    last_seq: i64,
    /// The row's table, dealer and state (checked against the events by
    /// `hand_rows.rs`), which its people rows copy.
    row: (String, String, String),
    pub(super) people: Vec<StoredPerson>,
}

/// A `hand_people` row with what it copies of its hand: `opened_at`,
/// `last_seq`, the money and the criteria (migrations 0018, 0019).
pub(super) struct StoredPerson {
    pub(super) person: PersonRow,
    opened_at: String,
    last_seq: i64,
    copy: HandCopy,
}

/// What a people row copies of its hand's row beside its time and seq.
#[derive(Debug, PartialEq, Eq)]
struct HandCopy {
    wagered_e4: i64,
    collection_e4: Option<i64>,
    pd_net_e4: Option<i64>,
    table_id: String,
    dealer: String,
    status: String,
    corrected: i64,
    bank_e4: Option<i64>,
    max_wager_e4: Option<i64>,
}

impl HandCopy {
    /// What the people rows of `hand` must hold.
    fn of(hand: &StoredHand) -> HandCopy {
        let c = &hand.columns;
        HandCopy {
            wagered_e4: c.wagered_e4,
            collection_e4: c.collection_e4,
            pd_net_e4: c.pd_net_e4,
            table_id: hand.row.0.clone(),
            dealer: hand.row.1.clone(),
            status: hand.row.2.clone(),
            corrected: c.corrected,
            bank_e4: c.bank_e4,
            max_wager_e4: c.max_wager_e4,
        }
    }
}

/// The window's hands in `last_seq` order (one hand a seq), each followed
/// by its people (none: one row of NULLs). On PostgreSQL each hand's
/// people are looked up by the primary key (`LATERAL`; `OFFSET 0` keeps
/// the planner from flattening it back into a plain join, which it plans
/// as a hash join over every `hand_people` row, once a round: 3.7 s and
/// 120 MB of sort on disk a round at 15 M records, against 0.5 s). SQLite
/// has no `LATERAL`, and plans a plain join that way.
fn stored_sql(db: &Db) -> String {
    let people = "p.role, p.name, p.name_key, p.staked_e4, p.received_e4, p.net_e4, \
        p.keys_before, p.opened_at, p.last_seq, p.hand_wagered_e4, p.hand_collection_e4, \
        p.hand_pd_net_e4, p.table_id, p.dealer, p.status, p.corrected, p.bank_e4, p.max_wager_e4";
    let join = match db {
        Db::Sqlite(_) => "LEFT JOIN hand_people p ON p.hand_id = h.id",
        Db::Postgres(_) => {
            "LEFT JOIN LATERAL (SELECT * FROM hand_people WHERE hand_id = h.id OFFSET 0) p ON TRUE"
        }
    };
    format!(
        "SELECT h.id, h.pd_name, h.pd_net_e4, h.bank_e4, h.wagered_e4, h.max_wager_e4, \
         h.collection_e4, h.corrected, h.summarized, h.last_seq, h.table_id, h.dealer, \
         h.status, {people} FROM hands h {join} \
         WHERE h.last_seq >= $1 AND h.last_seq <= $2 ORDER BY h.last_seq, h.id"
    )
}

/// The lowest `last_seq` a verification from `from` reads rows at: the
/// rows of hands not touched since `from` are trusted, as their records
/// are (migration 0025 indexes `last_seq`).
pub(super) fn rows_from(from: i64) -> i64 {
    if from <= 1 { i64::MIN } else { from }
}

/// A result row's columns, read alike from rusqlite and sqlx.
trait Columns {
    fn text(&self, i: usize) -> Result<Option<String>, StoreError>;
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError>;
}

fn failed(e: rusqlite::Error) -> StoreError {
    StoreError::Internal(format!("reading the search projection: {e}"))
}

impl Columns for rusqlite::Row<'_> {
    fn text(&self, i: usize) -> Result<Option<String>, StoreError> {
        self.get(i).map_err(failed)
    }
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        self.get(i).map_err(failed)
    }
}

impl Columns for sqlx::postgres::PgRow {
    fn text(&self, i: usize) -> Result<Option<String>, StoreError> {
        Ok(self.try_get(i)?)
    }
    fn int(&self, i: usize) -> Result<Option<i64>, StoreError> {
        Ok(self.try_get(i)?)
    }
}

fn required<T>(v: Option<T>, what: &str) -> Result<T, StoreError> {
    v.ok_or_else(|| StoreError::Internal(format!("the search check read a NULL {what}")))
}

/// A hand's columns and, if the row has one, one of its people.
fn read_row(r: &impl Columns) -> Result<(StoredHand, Option<StoredPerson>), StoreError> {
    let hand = StoredHand {
        id: required(r.text(0)?, "hands.id")?,
        columns: SearchColumns {
            pd_name: r.text(1)?,
            pd_net_e4: r.int(2)?,
            bank_e4: r.int(3)?,
            wagered_e4: required(r.int(4)?, "wagered_e4")?,
            max_wager_e4: r.int(5)?,
            collection_e4: r.int(6)?,
            corrected: required(r.int(7)?, "corrected")?,
        },
        summarized: required(r.int(8)?, "summarized")?,
        last_seq: required(r.int(9)?, "hands.last_seq")?,
        row: (
            required(r.text(10)?, "hands.table_id")?,
            required(r.text(11)?, "hands.dealer")?,
            required(r.text(12)?, "hands.status")?,
        ),
        people: Vec::new(),
    };
    let Some(role) = r.text(13)? else {
        return Ok((hand, None));
    };
    let person = PersonRow {
        // The column's CHECK allows only these two.
        role: Role::parse(&role).map_or("?", Role::as_str),
        name: required(r.text(14)?, "name")?,
        name_key: required(r.text(15)?, "name_key")?,
        staked_e4: required(r.int(16)?, "staked_e4")?,
        received_e4: r.int(17)?,
        net_e4: r.int(18)?,
        keys_before: required(r.text(19)?, "keys_before")?,
    };
    let stored = StoredPerson {
        person,
        opened_at: required(r.text(20)?, "hand_people.opened_at")?,
        last_seq: required(r.int(21)?, "hand_people.last_seq")?,
        copy: HandCopy {
            wagered_e4: required(r.int(22)?, "hand_people.hand_wagered_e4")?,
            collection_e4: r.int(23)?,
            pd_net_e4: r.int(24)?,
            table_id: required(r.text(25)?, "hand_people.table_id")?,
            dealer: required(r.text(26)?, "hand_people.dealer")?,
            status: required(r.text(27)?, "hand_people.status")?,
            corrected: required(r.int(28)?, "hand_people.corrected")?,
            bank_e4: r.int(29)?,
            max_wager_e4: r.int(30)?,
        },
    };
    Ok((hand, Some(stored)))
}

/// What the walk over the stored hands found.
enum Found {
    Problem(Problem),
    /// A hand whose rows digest otherwise than its events: folded again to
    /// say how.
    Differs(StoredHand, i64),
}

/// Groups the joined rows into hands and checks each.
struct Walk {
    expected: HashMap<String, Expected>,
    names: Arc<HashSet<String>>,
    head_seq: i64,
    current: Option<StoredHand>,
    /// `hand_people` rows read (an orphan row is not among them).
    people_read: i64,
    /// Hands whose rows differ from their view, in the order read, with
    /// the hand and its view's last record: a problem if the view is the
    /// hand's last (a later round may hold more of it).
    differing: Vec<(String, i64, Found)>,
}

impl Walk {
    fn push(&mut self, (hand, person): (StoredHand, Option<StoredPerson>)) -> ControlFlow<Found> {
        let mut checked = ControlFlow::Continue(());
        if self.current.as_ref().is_none_or(|c| c.id != hand.id)
            && let Some(done) = self.current.replace(hand)
        {
            checked = self.compare(done);
        }
        if let (Some(p), Some(current)) = (person, self.current.as_mut()) {
            self.people_read += 1;
            current.people.push(p);
        }
        checked
    }

    fn finish(&mut self) -> ControlFlow<Found> {
        match self.current.take() {
            Some(done) => self.compare(done),
            None => ControlFlow::Continue(()),
        }
    }

    /// A name missing from the list stops the walk; a difference from the
    /// hand's view is kept for [`first_problem`] to weigh.
    fn compare(&mut self, stored: StoredHand) -> ControlFlow<Found> {
        let id = stored.id.clone();
        match self.check(stored) {
            None => ControlFlow::Continue(()),
            Some((found, None)) => ControlFlow::Break(found),
            Some((found, Some(view_last_seq))) => {
                self.differing.push((id, view_last_seq, found));
                ControlFlow::Continue(())
            }
        }
    }

    /// What is wrong with the hand's rows, and the last record of the view
    /// it was found against (None: wrong whatever the log says).
    fn check(&self, stored: StoredHand) -> Option<(Found, Option<i64>)> {
        if stored.last_seq > self.head_seq {
            return None;
        }
        let problem = |seq: i64, message: String| {
            let found = Found::Problem(search_problem(seq, &stored.id, message));
            Some((found, Some(seq)))
        };
        // Whatever the log says, a stored name must be in the names list.
        if let Some(p) = stored
            .people
            .iter()
            .map(|s| &s.person)
            .find(|p| !self.names.contains(&p.name_key))
        {
            let message = format!(
                "person_names lacks {:?}, the name key of {} {:?}",
                p.name_key, p.role, p.name
            );
            let found = Found::Problem(search_problem(stored.last_seq, &stored.id, message));
            return Some((found, None));
        }
        // A hand the replay did not see: before `--from`, or a row without
        // events (`hand_rows.rs` reports it).
        let want = self.expected.get(&stored.id)?;
        let seq = want.last_seq();
        if stored.summarized != 1 {
            return problem(seq, format!("summarized is {}, not 1", stored.summarized));
        }
        let wanted = match want.search() {
            Err(e) => return problem(seq, format!("its events give no search projection: {e}")),
            Ok(d) => d,
        };
        let people: Vec<PersonRow> = stored.people.iter().map(|s| s.person.clone()).collect();
        if digest(&stored.columns, &people) != *wanted {
            return Some((Found::Differs(stored, seq), Some(seq)));
        }
        // The columns equal the events' (above), so the copies must equal them.
        let copy = HandCopy::of(&stored);
        let stale = stored
            .people
            .iter()
            .find(|s| s.opened_at != want.opened_at() || s.last_seq != seq || s.copy != copy);
        if let Some(s) = stale {
            let message = format!(
                "hand_people's row for {} {:?} has opened_at {:?}, last_seq {} and the hand's \
                 money and criteria {:?}; the hand's are {:?}, {seq} and {copy:?}",
                s.person.role,
                s.person.name,
                s.opened_at,
                s.last_seq,
                s.copy,
                want.opened_at()
            );
            return problem(seq, message);
        }
        None
    }
}

fn search_problem(seq: i64, hand: &str, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: hand {hand}: the search projection: {message}"),
    }
}

/// Name keys in `person_names` that no `hand_people` row holds.
const SELECT_UNUSED_NAME: &str = "SELECT n.name_key FROM person_names n WHERE NOT EXISTS \
    (SELECT 1 FROM hand_people p WHERE p.name_key = n.name_key) ORDER BY n.name_key LIMIT 1";

/// `hand_people` rows whose hand has no row, the earliest first.
const SELECT_ORPHAN: &str = "SELECT p.hand_id, p.last_seq FROM hand_people p WHERE p.last_seq <= $1 \
    AND p.last_seq >= $2 AND NOT EXISTS (SELECT 1 FROM hands h WHERE h.id = p.hand_id) \
    ORDER BY p.last_seq, p.hand_id LIMIT 1";

/// Every name key `person_names` holds, read once for a verification.
pub(super) async fn names(db: &Db) -> Result<Arc<HashSet<String>>, StoreError> {
    let names = on_pool!(db, |pool| sqlx::query("SELECT name_key FROM person_names")
        .fetch_all(pool)
        .await?
        .iter()
        .map(|r| r.try_get(0))
        .collect::<Result<_, _>>()?);
    Ok(Arc::new(names))
}

/// The first hand of a round's window of `last_seq` (`window`, inclusive)
/// whose search projection differs from its fold, or the first stray row.
/// `expected`: every hand the round replayed, given back for the row
/// checks; `names`: [`names`].
pub(super) async fn first_problem(
    db: &Db,
    expected: HashMap<String, Expected>,
    names: Arc<HashSet<String>>,
    window: (i64, i64),
    head_seq: i64,
) -> Result<(Option<Problem>, HashMap<String, Expected>), StoreError> {
    let mut walk = Walk {
        expected,
        names,
        head_seq,
        current: None,
        people_read: 0,
        differing: Vec::new(),
    };
    let found = match db {
        Db::Sqlite(pool) => {
            let path = pool.connect_options().get_filename().to_path_buf();
            let sql = stored_sql(db);
            let (found, back) = tokio::task::spawn_blocking(move || {
                read_sqlite(&path, &sql, window, &mut walk).map(|found| (found, walk))
            })
            .await
            .map_err(|e| StoreError::Internal(format!("hand search thread: {e}")))??;
            walk = back;
            found
        }
        Db::Postgres(pool) => {
            let mut found = None;
            let sql = stored_sql(db);
            // The nested loop's estimate is high enough for PostgreSQL to
            // compile it (~0.3 s a round) for a read of ~0.2 s.
            let mut tx = pool.begin().await?;
            sqlx::query("SET LOCAL jit = off").execute(&mut *tx).await?;
            {
                let mut rows = sqlx::query(&sql)
                    .bind(window.0)
                    .bind(window.1)
                    .fetch(&mut *tx);
                while let Some(r) = rows.try_next().await? {
                    if let ControlFlow::Break(f) = walk.push(read_row(&r)?) {
                        found = Some(f);
                        break;
                    }
                }
            }
            tx.rollback().await?;
            found.or_else(|| walk.finish().break_value())
        }
    };
    let mut found = found;
    for (id, view_last_seq, differs) in std::mem::take(&mut walk.differing) {
        if found.is_some() {
            break;
        }
        if super::replay::is_final(db, &id, view_last_seq, head_seq).await? {
            found = Some(differs);
        }
    }
    let problem = match found {
        Some(Found::Problem(p)) => Some(p),
        Some(Found::Differs(stored, seq)) => {
            let message = super::hand_search_describe::describe(db, &stored, head_seq).await?;
            Some(search_problem(seq, &stored.id, message))
        }
        None => orphan_people(db, walk.people_read, window).await?,
    };
    Ok((problem, walk.expected))
}

/// A `hand_people` row of the window whose hand has no row.
async fn orphan_people(
    db: &Db,
    people_read: i64,
    window: (i64, i64),
) -> Result<Option<Problem>, StoreError> {
    // Rows of hands with no `hands` row are not in the join: counted apart
    // (each row carries its hand's `last_seq`).
    let sql = "SELECT COUNT(*) FROM hand_people WHERE last_seq >= $1 AND last_seq <= $2";
    let people: i64 = on_pool!(db, |pool| sqlx::query(sql)
        .bind(window.0)
        .bind(window.1)
        .fetch_one(pool)
        .await?
        .try_get(0)?);
    if people == people_read {
        return Ok(None);
    }
    let orphan: Option<(String, i64)> = on_pool!(db, |pool| sqlx::query_as(SELECT_ORPHAN)
        .bind(window.1)
        .bind(window.0)
        .fetch_optional(pool)
        .await?);
    Ok(orphan.map(|(hand, seq)| {
        let message = "hand_people has rows for it but the hands table has no row".to_string();
        search_problem(seq, &hand, message)
    }))
}

/// A name in `person_names` that no `hand_people` row holds, once every
/// round is checked.
pub(super) async fn unused_name(db: &Db, head_seq: i64) -> Result<Option<Problem>, StoreError> {
    let unused: Option<String> = on_pool!(db, |pool| sqlx::query(SELECT_UNUSED_NAME)
        .fetch_optional(pool)
        .await?
        .map(|r| r.try_get(0))
        .transpose()?);
    Ok(unused.map(|key| Problem {
        seq: head_seq,
        kind: "projection",
        message: format!(
            "seq {head_seq}: person_names holds {key:?}, which no hand_people row holds"
        ),
    }))
}

fn read_sqlite(
    path: &Path,
    sql: &str,
    (first, last): (i64, i64),
    walk: &mut Walk,
) -> Result<Option<Found>, StoreError> {
    let conn = super::log_reader::open_read_only(path).map_err(failed)?;
    let mut statement = conn.prepare(sql).map_err(failed)?;
    let mut rows = statement.query([first, last]).map_err(failed)?;
    while let Some(r) = rows.next().map_err(failed)? {
        if let ControlFlow::Break(found) = walk.push(read_row(r)?) {
            return Ok(Some(found));
        }
    }
    Ok(walk.finish().break_value())
}
