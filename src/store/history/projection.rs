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

/// A hand's totals set from its events (the backfill).
pub const UPDATE_SEARCH_COLUMNS: &str = "UPDATE hands SET pd_name = $2, pd_net_e4 = $3, \
    bank_e4 = $4, wagered_e4 = $5, max_wager_e4 = $6, collection_e4 = $7, corrected = $8, \
    summarized = 1 WHERE id = $1";

/// The hand's people replaced: its old rows out (their name keys back).
pub const DELETE_PEOPLE: &str = "DELETE FROM hand_people WHERE hand_id = $1 RETURNING name_key";
/// One person in; the hand's time, last record, money and criteria from
/// its row (written just before), so a name's search need not read the
/// hands (migration 0019).
pub const INSERT_PERSON: &str = "INSERT INTO hand_people (hand_id, role, name, name_key, \
    staked_e4, received_e4, net_e4, keys_before, opened_at, last_seq, hand_wagered_e4, \
    hand_collection_e4, hand_pd_net_e4, table_id, dealer, status, corrected, bank_e4, \
    max_wager_e4) SELECT $1, $2, $3, $4, $5, $6, $7, $8, h.opened_at, h.last_seq, \
    h.wagered_e4, h.collection_e4, h.pd_net_e4, h.table_id, h.dealer, h.status, h.corrected, \
    h.bank_e4, h.max_wager_e4 FROM hands h WHERE h.id = $1";
pub const INSERT_NAME: &str =
    "INSERT INTO person_names (name_key) VALUES ($1) ON CONFLICT (name_key) DO NOTHING";
/// [`INSERT_PERSON`] for `people` rows in one statement: `$1` the hand,
/// then each person's seven values in [`INSERT_PERSON`]'s order.
pub fn insert_people(people: usize) -> String {
    let (head, select) = INSERT_PERSON
        .split_once(" SELECT ")
        .expect("INSERT_PERSON inserts a SELECT");
    let selects: Vec<String> = (0..people)
        .map(|i| {
            format!(
                "SELECT {}",
                renumbered(select, |k| if k == 1 { 1 } else { k + i * 7 })
            )
        })
        .collect();
    format!("{head} {}", selects.join(" UNION ALL "))
}

/// `sql` with each placeholder `$k` written `$f(k)`.
fn renumbered(sql: &str, f: impl Fn(usize) -> usize) -> String {
    let mut out = String::with_capacity(sql.len() + 16);
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c != '$' {
            continue;
        }
        let mut digits = String::new();
        while let Some(d) = chars.peek().filter(|d| d.is_ascii_digit()) {
            digits.push(*d);
            chars.next();
        }
        match digits.parse::<usize>() {
            Ok(k) => out.push_str(&f(k).to_string()),
            Err(_) => out.push_str(&digits),
        }
    }
    out
}

/// [`INSERT_NAME`] for `keys` names in one statement.
pub fn insert_names(keys: usize) -> String {
    let values: Vec<String> = (1..=keys).map(|i| format!("(${i})")).collect();
    format!(
        "INSERT INTO person_names (name_key) VALUES {} ON CONFLICT (name_key) DO NOTHING",
        values.join(", ")
    )
}

/// A name no hand holds any more leaves the list.
pub const DELETE_NAME_IF_UNUSED: &str = "DELETE FROM person_names WHERE name_key = $1 \
    AND NOT EXISTS (SELECT 1 FROM hand_people p WHERE p.name_key = $1)";

/// The names a hand's old rows held that its new ones do not.
pub fn dropped<'a>(old: &'a [String], new: &HandSearch) -> Vec<&'a str> {
    let kept = new.keys();
    let mut gone: Vec<&str> = old
        .iter()
        .map(String::as_str)
        .filter(|k| !kept.contains(k))
        .collect();
    gone.sort_unstable();
    gone.dedup();
    gone
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_people_of_a_hand_are_one_statement_each_person_numbered_after_the_last() {
        let one = insert_people(1);
        assert!(one.ends_with(INSERT_PERSON.split_once(" SELECT ").unwrap().1));
        let three = insert_people(3);
        assert_eq!(three.matches(" UNION ALL ").count(), 2);
        // Each person's seven values follow the hand's $1, in order; every
        // SELECT reads the one hand.
        for (i, part) in three.split(" UNION ALL ").enumerate() {
            let first = 2 + i * 7;
            let values: Vec<String> = (first..first + 7).map(|k| format!("${k}")).collect();
            assert!(
                part.contains(&format!("SELECT $1, {}, h.opened_at", values.join(", "))),
                "{part}"
            );
            assert!(part.ends_with("FROM hands h WHERE h.id = $1"), "{part}");
        }
        assert_eq!(
            insert_names(2),
            "INSERT INTO person_names (name_key) VALUES ($1), ($2) ON CONFLICT (name_key) DO NOTHING"
        );
    }
}
