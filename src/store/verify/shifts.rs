//! `audit verify`'s check of shifts (docs/shifts.md): the records
//! (`shift_opened`, `dealer_changed`, `shift_closed`,
//! `shift_report_signed`, `shifts_required_set`, and the PD rotation's
//! `tppp_registered`, `tppp_marked`, `tppp_unmarked`,
//! `pd_rotation_overridden`) folded through the same
//! core the store writes with (`domain::shifts::ShiftLog`: one open shift a
//! table, changes only while open, a signature only once closed), the rows
//! (`shifts`, `shift_dealers`, `shift_signatures`, `room_settings`,
//! `tppps`, `card_tables.tppps`, `rotation_overrides`)
//! compared with the fold as text, and every signed report (from an
//! anchor: every report signed since it) computed again from its hands:
//! a digest that no longer matches is a problem unless a correction or
//! void of one of its hands came after the signature (the report is then
//! superseded, which its page says).

use std::collections::{BTreeMap, BTreeSet};

use super::Problem;
use super::training::compare;
use crate::domain::shifts::report::{Report, standing};
use crate::domain::shifts::{SHIFT_EVENTS, Shift, ShiftEvent, ShiftLog, Signature};
use crate::store::shifts::report::{On, of_shift};
use crate::store::{Db, StoreError};

mod fold;

type Record = (i64, String, String, String, String);

/// Signed reports computed again at once, each reading its hands on up to
/// two connections of the pool's 16: a year of a 48-table room is 52,560
/// reports, about 2 ms each, one query at a time (BENCHMARKS.md, "A year
/// of shifts before the anchor").
const REPORTS_AT_ONCE: usize = 4;

fn problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: {message}"),
    }
}

/// The shift records of the PD rotation and the room's setting: few, read
/// whole on every run (the state a rule after `--from` is checked against).
const ROOM_EVENTS: [&str; 5] = [
    "shifts_required_set",
    "tppp_registered",
    "tppp_marked",
    "tppp_unmarked",
    "pd_rotation_overridden",
];

fn quoted(kinds: &[&str]) -> String {
    kinds
        .iter()
        .map(|k| format!("'{k}'"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The fold of the records and the rows it derives, as text by key.
#[derive(Default)]
struct Derived {
    log: ShiftLog,
    shifts: BTreeMap<String, (String, i64)>,
    dealers: BTreeMap<String, (String, i64)>,
    signatures: BTreeMap<String, (String, i64)>,
    settings: BTreeMap<String, (String, i64)>,
    tppps: BTreeMap<String, (String, i64)>,
    marks: BTreeMap<String, (String, i64)>,
    overrides: BTreeMap<String, (String, i64)>,
}

/// From an anchor (`from` > 1) the shifts are resumed as their rows stood
/// before it (the verification that vouched for the log up to it checked
/// them) and only the shift records since it are folded and compared, so
/// the check reads what was written since the anchor, not years of shifts;
/// the room's few records (`ROOM_EVENTS`) are folded whole every time.
pub async fn check(db: &Db, head_seq: i64, from: i64) -> Result<Option<Problem>, StoreError> {
    let from = from.max(1);
    // The rows first: a change committed after this read has its record
    // after the walked head, and is skipped.
    let mut rows = read_rows(db, from).await?;
    let derived = match derive(db, head_seq, from, &mut rows).await? {
        Ok(derived) => derived,
        Err(p) => return Ok(Some(p)),
    };
    let (log, found) = rows_problem(rows, derived, head_seq);
    if found.is_some() {
        return Ok(found);
    }
    reports_problem(db, &log, from).await
}

/// The shift tables' rows (the shifts, dealer changes and signatures from
/// `from`, the room's settings, the PD rotation's registry, marks and
/// overrides) and the shift records (the room's before `from`, every
/// shift record since).
struct Rows {
    shifts: Vec<crate::store::shifts::ShiftRow>,
    dealers: Vec<(i64, String, String, Option<String>, String, String)>,
    signatures: Vec<(i64, String, String, i64, String, String, String)>,
    settings: Vec<(String, String, i64)>,
    room: Vec<Record>,
    since: Vec<Record>,
    floor: Floor,
}

/// The PD rotation's rows: the TPPPs, each table's marks, the overrides.
type Floor = (
    Vec<(String, String, String, String, String, i64)>,
    Vec<(String, String)>,
    Vec<(i64, String, String, String, String)>,
);

async fn read_rows(db: &Db, from: i64) -> Result<Rows, StoreError> {
    let select = "SELECT seq, recorded_at, actor, event_type, payload FROM audit_log \
                  WHERE hand_id IS NULL AND event_type IN";
    let room_sql = format!(
        "{select} ({}) AND seq < $1 ORDER BY seq",
        quoted(&ROOM_EVENTS)
    );
    let since_sql = format!(
        "{select} ({}) AND seq >= $1 ORDER BY seq",
        quoted(&SHIFT_EVENTS)
    );
    Ok(on_pool!(db, |pool| {
        let shifts: Vec<crate::store::shifts::ShiftRow> = sqlx::query_as(
            "SELECT id, table_id, opened_at, opened_by, opened_seq, closed_at, closed_by, closed_seq \
             FROM shifts WHERE opened_seq >= $1 OR closed_seq >= $1",
        )
        .bind(from)
        .fetch_all(pool)
        .await?;
        let dealers: Vec<(i64, String, String, Option<String>, String, String)> = sqlx::query_as(
            "SELECT seq, shift_id, table_id, dealer, changed_at, changed_by FROM shift_dealers \
             WHERE seq >= $1",
        )
        .bind(from)
        .fetch_all(pool)
        .await?;
        let signatures: Vec<(i64, String, String, i64, String, String, String)> = sqlx::query_as(
            "SELECT seq, shift_id, digest, hands, drop_total, signed_at, signed_by \
             FROM shift_signatures WHERE seq >= $1",
        )
        .bind(from)
        .fetch_all(pool)
        .await?;
        let settings: Vec<(String, String, i64)> =
            sqlx::query_as("SELECT key, value, seq FROM room_settings")
                .fetch_all(pool)
                .await?;
        let room: Vec<Record> = sqlx::query_as(&room_sql).bind(from).fetch_all(pool).await?;
        let since: Vec<Record> = sqlx::query_as(&since_sql)
            .bind(from)
            .fetch_all(pool)
            .await?;
        let tppps: Vec<(String, String, String, String, String, i64)> = sqlx::query_as(
            "SELECT name, company, badge, registered_at, registered_by, registered_seq FROM tppps",
        )
        .fetch_all(pool)
        .await?;
        let marks: Vec<(String, String)> =
            sqlx::query_as("SELECT name, tppps FROM card_tables WHERE tppps IS NOT NULL")
                .fetch_all(pool)
                .await?;
        let overrides: Vec<(i64, String, String, String, String)> =
            sqlx::query_as("SELECT seq, table_id, reason, at, by_user FROM rotation_overrides")
                .fetch_all(pool)
                .await?;
        Rows {
            shifts,
            dealers,
            signatures,
            settings,
            room,
            since,
            floor: (tppps, marks, overrides),
        }
    }))
}

/// The fold of the room's records, the shifts as they stood at `from`
/// (from an anchor) and the shift records since, up to the walked head;
/// Err: the first record the core refuses.
async fn derive(
    db: &Db,
    head_seq: i64,
    from: i64,
    rows: &mut Rows,
) -> Result<Result<Derived, Problem>, StoreError> {
    let mut derived = Derived::default();
    for record in std::mem::take(&mut rows.room) {
        if let Err(p) = derived.fold(record) {
            return Ok(Err(p));
        }
    }
    if from > 1 {
        for shift in shifts_at(db, from, &rows.since).await? {
            derived.log.resume(shift);
        }
    }
    for record in std::mem::take(&mut rows.since) {
        if record.0 > head_seq {
            break;
        }
        if let Err(p) = derived.fold(record) {
            return Ok(Err(p));
        }
    }
    Ok(Ok(derived))
}

/// The rows, as text by key, against those the fold derives: the earliest
/// difference, with the fold's shift log.
fn rows_problem(rows: Rows, derived: Derived, head_seq: i64) -> (ShiftLog, Option<Problem>) {
    let Rows {
        shifts,
        dealers,
        signatures,
        settings,
        floor,
        ..
    } = rows;
    let Derived {
        log,
        shifts: derived_shifts,
        dealers: derived_dealers,
        signatures: derived_signatures,
        settings: derived_settings,
        tppps: derived_tppps,
        marks: derived_marks,
        overrides: derived_overrides,
    } = derived;
    let shift_rows: BTreeMap<String, String> = shifts
        .into_iter()
        .map(|(id, table, oa, ob, os, ca, cb, cs)| {
            let n = |o: Option<String>| o.unwrap_or_else(|| "NULL".into());
            let text = format!(
                "{}|{oa}|{ob}|{os}|{}|{}|{}",
                n(table),
                n(ca),
                n(cb),
                n(cs.map(|s| s.to_string()))
            );
            (id, text)
        })
        .collect();
    let dealer_rows: BTreeMap<String, String> = dealers
        .into_iter()
        .map(|(seq, shift, table, dealer, at, by)| {
            let d = dealer.unwrap_or_else(|| "NULL".into());
            (seq.to_string(), format!("{shift}|{table}|{d}|{at}|{by}"))
        })
        .collect();
    let signature_rows: BTreeMap<String, String> = signatures
        .into_iter()
        .map(|(seq, shift, digest, hands, drop, at, by)| {
            (
                seq.to_string(),
                format!("{shift}|{digest}|{hands}|{drop}|{at}|{by}"),
            )
        })
        .collect();
    let setting_rows: BTreeMap<String, String> = settings
        .into_iter()
        .map(|(key, value, _)| (key, value))
        .collect();
    let (tppps, marks, overrides) = floor;
    let tppp_rows: BTreeMap<String, String> = tppps
        .into_iter()
        .map(|(name, company, badge, at, by, seq)| {
            (name, format!("{company}|{badge}|{at}|{by}|{seq}"))
        })
        .collect();
    let mark_rows: BTreeMap<String, String> = marks.into_iter().collect();
    let override_rows: BTreeMap<String, String> = overrides
        .into_iter()
        .map(|(seq, table, reason, at, by)| {
            (seq.to_string(), format!("{table}|{reason}|{at}|{by}"))
        })
        .collect();
    let found = [
        compare("shift", &shift_rows, &derived_shifts, head_seq),
        compare("TPPP", &tppp_rows, &derived_tppps, head_seq),
        compare("table's TPPPs", &mark_rows, &derived_marks, head_seq),
        compare(
            "rotation override",
            &override_rows,
            &derived_overrides,
            head_seq,
        ),
        compare("dealer change", &dealer_rows, &derived_dealers, head_seq),
        compare(
            "shift report signature",
            &signature_rows,
            &derived_signatures,
            head_seq,
        ),
        compare("room setting", &setting_rows, &derived_settings, head_seq),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|p| p.seq);
    (log, found)
}

/// Each signed report again from its hands: the first that no longer
/// matches them with no correction or void after its signature.
async fn reports_problem(
    db: &Db,
    log: &ShiftLog,
    from: i64,
) -> Result<Option<Problem>, StoreError> {
    // Each signed report again from its hands; from an anchor, the reports
    // signed since it (the earlier ones were recomputed by the
    // verification that vouched for the log up to it, and a hand corrected
    // since only supersedes them), so years of shifts are not re-read.
    // Computed a few at once, taken in order: the first problem is the
    // same as one at a time would find.
    let mut signed = Vec::new();
    for shift in log.shifts.values() {
        if let Some(signature) = shift.signature()
            && signature.stamp.seq >= from
        {
            signed.push((shift, signature));
        }
    }
    for batch in signed.chunks(REPORTS_AT_ONCE) {
        let again = batch
            .iter()
            .map(|&(shift, signature)| signed_report_again(db, shift, signature));
        for (shift, signature, report) in futures_util::future::join_all(again).await {
            let report = report?;
            if let crate::domain::shifts::report::Standing::Superseded { changed, .. } =
                standing(shift, &report)
                && changed.is_empty()
            {
                return Ok(Some(problem(
                    signature.stamp.seq,
                    format!(
                        "shift {}'s signed report no longer matches its hands (digest {} signed, {} now) and no correction or void came after the signature",
                        shift.id, signature.digest, report.digest
                    ),
                )));
            }
        }
    }
    Ok(None)
}

/// `shift`'s signed report computed again from its hands, as it closed.
async fn signed_report_again<'a>(
    db: &Db,
    shift: &'a Shift,
    signature: &'a Signature,
) -> (&'a Shift, &'a Signature, Result<Report, StoreError>) {
    let now = shift.closed.as_ref().map_or("", |c| c.at.as_str());
    let report = of_shift(&mut On::Db(db), shift, chrono_tz::UTC, now).await;
    (shift, signature, report)
}

/// The shifts as they stood before `from` that the records since it need:
/// those open then (a shift opening is checked against them) and those the
/// records name (a late signature), each from its rows (`Shift::as_of`).
async fn shifts_at(db: &Db, from: i64, since: &[Record]) -> Result<Vec<Shift>, StoreError> {
    let sql =
        "SELECT id FROM shifts WHERE opened_seq < $1 AND (closed_seq IS NULL OR closed_seq >= $1)";
    let mut ids: BTreeSet<String> = on_pool!(db, |pool| sqlx::query_scalar(sql)
        .bind(from)
        .fetch_all(pool)
        .await?)
    .into_iter()
    .collect();
    for (_, _, _, event_type, payload) in since {
        if let Ok(
            ShiftEvent::DealerChanged { shift, .. }
            | ShiftEvent::ShiftClosed { shift }
            | ShiftEvent::ShiftReportSigned { shift, .. },
        ) = ShiftEvent::parse(event_type, payload)
        {
            ids.insert(shift);
        }
    }
    let mut shifts = Vec::with_capacity(ids.len());
    for id in ids {
        if let Some(shift) = crate::store::shifts::load(db, &id).await? {
            shifts.extend(shift.as_of(from));
        }
    }
    Ok(shifts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every shift record kind is either one shift's (folded from the
    /// anchor on, its shift resumed from its rows) or the room's (folded
    /// whole): a new room kind missing from `ROOM_EVENTS` would lose its
    /// state before an anchor.
    #[test]
    fn every_kind_not_of_one_shift_is_read_whole() {
        let one_shift = [
            "shift_opened",
            "dealer_changed",
            "shift_closed",
            "shift_report_signed",
        ];
        for kind in SHIFT_EVENTS {
            assert!(
                one_shift.contains(&kind) != ROOM_EVENTS.contains(&kind),
                "{kind}"
            );
        }
        assert!(ROOM_EVENTS.iter().all(|k| SHIFT_EVENTS.contains(k)));
    }
}
