//! The search's projection of a hand, written with its `hands` row in the
//! command's transaction by both hand executors (sqlx and the SQLite
//! writer thread): the hand's totals (columns of `hands`) and its people
//! (`hand_people` rows, `person_names`). Derived from the folded hand by
//! the core (`domain/history/people.rs`), so `audit verify` derives the
//! same.

use crate::domain::common::money::Money;
use crate::domain::double_hand_poker::hand_record::HandState;
use crate::domain::history::units::to_e4;
use crate::domain::history::{HandPeople, Person};
use crate::store::StoreError;
use crate::store::statement::{Exec, Statement, Value, list, rows};
use std::collections::BTreeSet;

/// The hand's totals as `hands` keeps them.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct SearchColumns {
    pub pd_name: Option<String>,
    pub pd_net_e4: Option<i64>,
    pub bank_e4: Option<i64>,
    pub wagered_e4: i64,
    pub max_wager_e4: Option<i64>,
    pub collection_e4: Option<i64>,
    pub corrected: i64,
}

/// One `hand_people` row's values (its hand, `opened_at` and `last_seq`
/// are the hand's).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct PersonRow {
    pub role: &'static str,
    pub name: String,
    pub name_key: String,
    pub staked_e4: i64,
    pub received_e4: Option<i64>,
    pub net_e4: Option<i64>,
    /// The name keys of the hand's rows before this one (by role, then
    /// name, byte order) joined by [`KEY_SEPARATOR`]: a partial name counts
    /// the hand once, by the row it matches while no key before it does.
    pub keys_before: String,
}

/// Between the keys of `keys_before`: a control character, which no name
/// the search is given holds (`domain/history/filter.rs`), so a name's
/// pattern matches inside one key or none.
pub const KEY_SEPARATOR: char = '\u{1f}';

fn e4(m: Money) -> Result<i64, StoreError> {
    to_e4(m).ok_or_else(|| StoreError::Internal(format!("{m} is finer than 0.0001")))
}

fn e4_opt(m: Option<Money>) -> Result<Option<i64>, StoreError> {
    m.map(e4).transpose()
}

impl PersonRow {
    fn of(p: &Person) -> Result<PersonRow, StoreError> {
        Ok(PersonRow {
            role: p.role.as_str(),
            name: p.name.clone(),
            name_key: p.key(),
            staked_e4: e4(p.staked)?,
            received_e4: e4_opt(p.received)?,
            net_e4: e4_opt(p.net)?,
            keys_before: String::new(),
        })
    }
}

/// `rows` with each one's `keys_before` set.
fn with_keys_before(mut rows: Vec<PersonRow>) -> Vec<PersonRow> {
    let mut order: Vec<(&'static str, String, String)> = rows
        .iter()
        .map(|r| (r.role, r.name.clone(), r.name_key.clone()))
        .collect();
    order.sort_unstable();
    for row in &mut rows {
        let before: Vec<&str> = order
            .iter()
            .take_while(|(role, name, _)| (*role, name.as_str()) < (row.role, row.name.as_str()))
            .map(|(_, _, key)| key.as_str())
            .collect();
        row.keys_before = before.join(&KEY_SEPARATOR.to_string());
    }
    rows
}

/// What the search keeps of a hand.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandSearch {
    pub columns: SearchColumns,
    pub people: Vec<PersonRow>,
}

impl HandSearch {
    pub fn of(state: &HandState) -> Result<HandSearch, StoreError> {
        let people = HandPeople::of(state).map_err(StoreError::Internal)?;
        let collection = state.settlement().and_then(|s| s.house_collection());
        Ok(HandSearch {
            columns: SearchColumns {
                pd_name: people.pd.clone(),
                pd_net_e4: e4_opt(people.pd_net)?,
                bank_e4: e4_opt(state.pd().map(|pd| pd.bank))?,
                wagered_e4: e4(people.wagered)?,
                max_wager_e4: e4_opt(people.max_wager)?,
                collection_e4: e4_opt(collection)?,
                corrected: i64::from(people.corrected),
            },
            people: with_keys_before(
                people
                    .people
                    .iter()
                    .map(PersonRow::of)
                    .collect::<Result<_, _>>()?,
            ),
        })
    }

    /// The name keys of its people, each once.
    pub fn keys(&self) -> Vec<&str> {
        let mut keys: Vec<&str> = self.people.iter().map(|p| p.name_key.as_str()).collect();
        keys.sort_unstable();
        keys.dedup();
        keys
    }
}

/// A hand's totals set from its events (the backfill): `$1` the hand, then
/// [`search_values`].
pub const UPDATE_SEARCH_COLUMNS: &str = "UPDATE hands SET pd_name = $2, pd_net_e4 = $3, \
    bank_e4 = $4, wagered_e4 = $5, max_wager_e4 = $6, collection_e4 = $7, corrected = $8, \
    summarized = 1 WHERE id = $1";

/// The search columns' values, in [`UPDATE_SEARCH_COLUMNS`]' order.
pub(crate) fn search_values(c: &SearchColumns) -> [Value<'_>; 7] {
    [
        Value::Text(c.pd_name.as_deref()),
        Value::Int(c.pd_net_e4),
        Value::Int(c.bank_e4),
        Value::int(c.wagered_e4),
        Value::Int(c.max_wager_e4),
        Value::Int(c.collection_e4),
        Value::int(c.corrected),
    ]
}

/// Most people (or hands, or names) in one statement: at 8 values a row,
/// far under either database's limit on a statement's values.
const ROWS_MAX: usize = 256;

/// What a person's row copies from its hand's row (migrations 0018, 0019),
/// as `hand_people` names it = as `hands` does.
const COPIED: &str = "opened_at = h.opened_at, last_seq = h.last_seq, \
    hand_wagered_e4 = h.wagered_e4, hand_collection_e4 = h.collection_e4, \
    hand_pd_net_e4 = h.pd_net_e4, table_id = h.table_id, dealer = h.dealer, \
    status = h.status, corrected = h.corrected, bank_e4 = h.bank_e4, \
    max_wager_e4 = h.max_wager_e4";

/// The people of `hands` written as their searches hold them, each row
/// with its hand's values copied from the hand's row (written before):
/// `stored`, the hands among them whose old rows go first. A name no hand
/// holds any more leaves `person_names`.
pub(crate) async fn replace_people(
    e: &mut impl Exec,
    stored: &[&str],
    hands: &[(&str, &HandSearch)],
) -> Result<(), StoreError> {
    let mut old = Vec::new();
    for chunk in stored.chunks(ROWS_MAX) {
        let sql = format!(
            "DELETE FROM hand_people WHERE hand_id IN ({}) RETURNING name_key",
            list(chunk.len())
        );
        let values = chunk.iter().map(|id| Value::text(id)).collect();
        old.extend(e.texts(&Statement { sql, values }).await?);
    }
    let people: Vec<(&str, &PersonRow)> = hands
        .iter()
        .flat_map(|(id, search)| search.people.iter().map(move |p| (*id, p)))
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
            rows(chunk.len(), 8)
        );
        let values = chunk
            .iter()
            .flat_map(|(id, p)| {
                [
                    Value::text(id),
                    Value::text(p.role),
                    Value::text(&p.name),
                    Value::text(&p.name_key),
                    Value::int(p.staked_e4),
                    Value::Int(p.received_e4),
                    Value::Int(p.net_e4),
                    Value::text(&p.keys_before),
                ]
            })
            .collect();
        let written = e.execute(&Statement { sql, values }).await?;
        if written != chunk.len() as u64 {
            return Err(StoreError::Internal(format!(
                "{} people of the hands written, {written} rows",
                chunk.len()
            )));
        }
    }
    let kept: BTreeSet<&str> = hands.iter().flat_map(|(_, s)| s.keys()).collect();
    let kept: Vec<&str> = kept.into_iter().collect();
    for chunk in kept.chunks(ROWS_MAX) {
        let sql = format!(
            "INSERT INTO person_names (name_key) VALUES {} ON CONFLICT (name_key) DO NOTHING",
            rows(chunk.len(), 1)
        );
        let values = chunk.iter().map(|k| Value::text(k)).collect();
        e.execute(&Statement { sql, values }).await?;
    }
    let dropped: BTreeSet<&str> = old
        .iter()
        .map(String::as_str)
        .filter(|k| kept.binary_search(k).is_err())
        .collect();
    let dropped: Vec<&str> = dropped.into_iter().collect();
    for chunk in dropped.chunks(ROWS_MAX) {
        let sql = format!(
            "DELETE FROM person_names WHERE name_key IN ({}) AND NOT EXISTS \
             (SELECT 1 FROM hand_people p WHERE p.name_key = person_names.name_key)",
            list(chunk.len())
        );
        let values = chunk.iter().map(|k| Value::text(k)).collect();
        e.execute(&Statement { sql, values }).await?;
    }
    Ok(())
}

/// The people of `hands`, unchanged, given their hand's new values (its
/// last record, state, money) from its row, written before.
pub(crate) async fn copy_hands_to_people(
    e: &mut impl Exec,
    hands: &[&str],
) -> Result<(), StoreError> {
    for chunk in hands.chunks(ROWS_MAX) {
        let sql = format!(
            "UPDATE hand_people SET {COPIED} FROM hands h \
             WHERE h.id = hand_people.hand_id AND hand_people.hand_id IN ({})",
            list(chunk.len())
        );
        let values = chunk.iter().map(|id| Value::text(id)).collect();
        e.execute(&Statement { sql, values }).await?;
    }
    Ok(())
}
