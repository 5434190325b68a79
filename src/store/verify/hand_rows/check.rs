//! A `hands` row against its hand's view from the fold of its events: the
//! first column that differs, its number, and its first and last records'
//! times.

use super::{Expected, Problem, StoredRow, projection_problem};
use crate::domain::common::money::Money;

/// A row's number against the place its hand's opening record gives it;
/// reported at that record.
pub(super) fn number_problem(row: &StoredRow, want: &Expected) -> Option<Problem> {
    let n = want.number.filter(|&n| n != row.number)?;
    Some(projection_problem(
        want.opened_seq,
        format!(
            "hand {}: the stored number is {}; its events give {n}",
            row.id, row.number
        ),
    ))
}

/// A row against its hand's view: the first column that differs.
pub(super) fn check(row: &StoredRow, want: &Expected, head_seq: i64) -> Option<Problem> {
    if row.last_seq > head_seq {
        // Written after the walked head: the next verification's.
        return None;
    }
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
    // Its number is its opening record's, reported there.
    if let Some(p) = number_problem(row, want) {
        return Some(p);
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
