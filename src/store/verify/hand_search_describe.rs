//! What differs between a hand's stored search projection and its events,
//! named field by field for `audit verify`'s report (`hand_search.rs`
//! finds the hand by its digest; this folds it again to say how).

use super::hand_search::StoredHand;
use crate::domain::history::units::from_e4;
use crate::store::history::projection::{HandSearch, KEY_SEPARATOR, PersonRow, SearchColumns};
use crate::store::{Db, StoreError};

/// What differs between a hand's stored search projection and the one its
/// events up to the head give.
pub(super) async fn describe(
    db: &Db,
    stored: &StoredHand,
    head_seq: i64,
) -> Result<String, StoreError> {
    let open = super::replay::HandReplay::default()
        .load_before(db, &stored.id, head_seq + 1)
        .await?;
    let want = HandSearch::of(&open.state)?;
    if let Some(difference) = columns_difference(&stored.columns, &want.columns) {
        return Ok(difference);
    }
    let stored_people: Vec<&PersonRow> = stored.people.iter().map(|s| &s.person).collect();
    Ok(people_difference(&stored_people, &want.people))
}

/// An amount in ten-thousandths as money, or "none".
fn money(v: Option<i64>) -> String {
    v.map_or_else(|| "none".to_string(), |v| from_e4(v).to_string())
}

/// The first of the hand's columns stored otherwise than its events give.
fn columns_difference(s: &SearchColumns, w: &SearchColumns) -> Option<String> {
    let columns = [
        (
            "pd_name",
            s.pd_name != w.pd_name,
            format!("{:?}", s.pd_name),
            format!("{:?}", w.pd_name),
        ),
        (
            "pd_net_e4",
            s.pd_net_e4 != w.pd_net_e4,
            money(s.pd_net_e4),
            money(w.pd_net_e4),
        ),
        (
            "bank_e4",
            s.bank_e4 != w.bank_e4,
            money(s.bank_e4),
            money(w.bank_e4),
        ),
        (
            "wagered_e4",
            s.wagered_e4 != w.wagered_e4,
            money(Some(s.wagered_e4)),
            money(Some(w.wagered_e4)),
        ),
        (
            "max_wager_e4",
            s.max_wager_e4 != w.max_wager_e4,
            money(s.max_wager_e4),
            money(w.max_wager_e4),
        ),
        (
            "collection_e4",
            s.collection_e4 != w.collection_e4,
            money(s.collection_e4),
            money(w.collection_e4),
        ),
        (
            "corrected",
            s.corrected != w.corrected,
            s.corrected.to_string(),
            w.corrected.to_string(),
        ),
    ];
    let (field, _, stored, folded) = columns.into_iter().find(|c| c.1)?;
    Some(format!(
        "the stored {field} is {stored}; its events give {folded}"
    ))
}

/// How the stored people differ from those the events give (as a set).
fn people_difference(stored_people: &[&PersonRow], want: &[PersonRow]) -> String {
    let person = |p: &PersonRow| {
        let before: Vec<&str> = p
            .keys_before
            .split(KEY_SEPARATOR)
            .filter(|k| !k.is_empty())
            .collect();
        format!(
            "{} {:?} (key {:?}) staked {}, received {}, net {}, after the keys {before:?}",
            p.role,
            p.name,
            p.name_key,
            money(Some(p.staked_e4)),
            money(p.received_e4),
            money(p.net_e4)
        )
    };
    for w in want {
        match stored_people
            .iter()
            .find(|s| (s.role, &s.name) == (w.role, &w.name))
        {
            None => {
                return format!("hand_people lacks the row its events give: {}", person(w));
            }
            Some(s) if *s != w => {
                return format!(
                    "hand_people holds {}; its events give {}",
                    person(s),
                    person(w)
                );
            }
            Some(_) => {}
        }
    }
    let extra = stored_people
        .iter()
        .find(|s| !want.iter().any(|w| (w.role, &w.name) == (s.role, &s.name)));
    match extra {
        Some(s) => format!(
            "hand_people has a row its events do not give: {}",
            person(s)
        ),
        // Two rows for one person (a primary key dropped) digest otherwise.
        None => format!(
            "hand_people holds {} rows; its events give {}",
            stored_people.len(),
            want.len()
        ),
    }
}
