//! The filtered set's totals (hands, wagered, collection, PD results),
//! read one of three ways by what the filter holds, each bounded at a
//! million hands (BENCHMARKS.md, "Hand search"):
//!
//! - tables, states and kinds only: whole UTC days from `hand_days`
//!   (migration 0018), the partial days at the range's ends from
//!   `hands_by_time`, which carries what a day's row keys; a dealer and
//!   states: whole days from `hand_dealer_days` (migration 0028), the
//!   partial days from `hands_by_dealer_time`;
//! - one amount alone ("bank at least", "wager at least", all time): the
//!   rows of `hand_amounts` from the amount up, one per amount held;
//! - one name (PD or player): that name's people rows, which carry their
//!   hand's money and criteria, each hand once (the PD's row, or the
//!   first row of the hand the name matches), the hand joined only for a
//!   hand number;
//! - anything else: the hands themselves, by the index of the criterion
//!   (`hands_by_bank`, `hands_by_max_wager`, `hands_by_dealer_time` carry
//!   the money).

use super::Totals;
use super::query::{
    self, DayRollup, Where, criteria_conditions, day_rollup, one_name, person_conditions,
};
use crate::domain::history::HandFilter;
use crate::domain::history::totals::{OPEN, SUMMED, VOIDED};
use crate::domain::history::units::from_e4;
use crate::store::{Db, StoreError};
use chrono::NaiveDate;

/// The conditions on a hand's state `column` of the closed hands summed,
/// the open and the voided counted apart (`domain::history::totals`).
pub fn by_state(column: &str) -> [String; 3] {
    [
        format!("{column} = '{SUMMED}'"),
        format!("{column} IN ('{}', '{}')", OPEN[0], OPEN[1]),
        format!("{column} = '{VOIDED}'"),
    ]
}

/// The sums over rows `(s, n, w, c, p)` (a state, hands and their money)
/// as one row on both databases: the closed hands' four, then the open and
/// the voided hands counted.
fn sums() -> String {
    let [closed, open, voided] = by_state("t.s");
    let sum = |when: &str, column: &str| {
        format!("CAST(COALESCE(SUM(CASE WHEN {when} THEN t.{column} END), 0) AS BIGINT)")
    };
    format!(
        "SELECT {}, {}, {}, {}, {}, {} FROM",
        sum(&closed, "n"),
        sum(&closed, "w"),
        sum(&closed, "c"),
        sum(&closed, "p"),
        sum(&open, "n"),
        sum(&voided, "n")
    )
}

/// A hand's contribution: its state, itself and its money.
const HAND_SUMS: &str = "SELECT h.status AS s, 1 AS n, h.wagered_e4 AS w, \
    h.collection_e4 AS c, h.pd_net_e4 AS p FROM hands h";

/// The totals of every hand `filter` keeps (whatever the page);
/// `bounds`: its time range in UTC (`time::bounds`).
pub async fn totals(
    db: &Db,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
) -> Result<Totals, StoreError> {
    let (sql, w) = if let Some(rollup) = day_rollup(filter) {
        days_sql(rollup, filter, bounds)?
    } else if let Some(w) = query::amount_alone(filter, &bounds)? {
        let sql = format!(
            "{} (SELECT h.status AS s, h.hands AS n, h.wagered_e4 AS w, \
             h.collection_e4 AS c, h.pd_net_e4 AS p FROM hand_amounts h{}) t",
            sums(),
            w.sql()
        );
        (sql, w)
    } else if one_name(filter).is_some() {
        if let Db::Postgres(pool) = db {
            return person_totals_in_halves(pool, filter, bounds).await;
        }
        person_sql(filter, bounds, false, query::Names::In)?
    } else {
        let w = query::conditions(filter, bounds, None)?;
        (format!("{} ({HAND_SUMS}{}) t", sums(), w.sql()), w)
    };
    let sums: Sums = on_pool!(db, |pool| {
        bound!(sqlx::query_as(&sql), &w.binds)
            .fetch_one(pool)
            .await?
    });
    Ok(totals_of(sums))
}

/// The closed hands, wagered, collection and PD results (in units of
/// 1/10,000), then the open and the voided hands.
type Sums = (i64, i64, i64, i64, i64, i64);

fn totals_of((hands, wagered, collection, pd, open, voided): Sums) -> Totals {
    Totals {
        hands,
        wagered: from_e4(wagered),
        house_collection: from_e4(collection),
        pd_results: from_e4(pd),
        open,
        voided,
    }
}

/// A one-name filter's totals on PostgreSQL: the matching names split in
/// two by their key's hash, each half summed on its own connection at
/// once. A broad partial name ("ma": 207 names, 315,000 rows at a million
/// hands) was the search's slowest statement, one CPU reading every row
/// (BENCHMARKS.md, "Hand search"); each hand's row is in exactly one half.
async fn person_totals_in_halves(
    pool: &sqlx::PgPool,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
) -> Result<Totals, StoreError> {
    let half = |k: u8| -> Result<(String, Where), StoreError> {
        person_sql(filter, bounds.clone(), true, query::Names::InHalf(k))
    };
    let ((even_sql, even), (odd_sql, odd)) = (half(0)?, half(1)?);
    let sum = |sql: String, w: Where| async move {
        bound!(sqlx::query_as::<_, Sums>(&sql), &w.binds)
            .fetch_one(pool)
            .await
    };
    let (a, b) = tokio::try_join!(sum(even_sql, even), sum(odd_sql, odd))?;
    Ok(totals_of((
        a.0 + b.0,
        a.1 + b.1,
        a.2 + b.2,
        a.3 + b.3,
        a.4 + b.4,
        a.5 + b.5,
    )))
}

/// A one-name filter's totals: its people rows, one per hand.
fn person_sql(
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
    postgres: bool,
    names: query::Names,
) -> Result<(String, Where), StoreError> {
    let (w, joined) = person_conditions(filter, bounds, None, names, postgres)?;
    let join = if joined {
        " JOIN hands h ON h.id = p.hand_id"
    } else {
        ""
    };
    // One row a hand: a PD's own, or the first of a hand's people the name
    // matches (`person_conditions`).
    let sql = format!(
        "{} (SELECT p.status AS s, 1 AS n, p.hand_wagered_e4 AS w, \
         p.hand_collection_e4 AS c, p.hand_pd_net_e4 AS p FROM hand_people p{join}{}) t",
        sums(),
        w.sql()
    );
    Ok((sql, w))
}

/// Midnight UTC of `day`, as `opened_at` is written.
fn midnight(day: NaiveDate) -> String {
    format!("{day}T00:00:00.000000Z")
}

fn day_of(t: &str) -> Result<NaiveDate, StoreError> {
    t.get(..10)
        .and_then(|d| NaiveDate::parse_from_str(d, "%Y-%m-%d").ok())
        .ok_or_else(|| StoreError::Internal(format!("{t:?} is not a UTC time")))
}

/// How `[from, to)` splits: the whole days `[first, end)` (None: open on
/// that side) and the partial ends, each a `[from, to)` of times.
#[derive(Debug, PartialEq, Eq)]
pub struct Split {
    pub whole: Option<(Option<NaiveDate>, Option<NaiveDate>)>,
    pub ends: Vec<(Option<String>, Option<String>)>,
}

pub fn split(bounds: &(Option<String>, Option<String>)) -> Result<Split, StoreError> {
    let first = match &bounds.0 {
        None => None,
        Some(from) => {
            let day = day_of(from)?;
            Some(if *from == midnight(day) {
                day
            } else {
                day.succ_opt().unwrap_or(day)
            })
        }
    };
    let end = bounds.1.as_deref().map(day_of).transpose()?;
    if let (Some(f), Some(e)) = (first, end)
        && f >= e
    {
        // No whole day inside: the hands of the range itself.
        return Ok(Split {
            whole: None,
            ends: vec![bounds.clone()],
        });
    }
    let mut ends = Vec::new();
    if let (Some(from), Some(f)) = (&bounds.0, first)
        && *from != midnight(f)
    {
        ends.push((Some(from.clone()), Some(midnight(f))));
    }
    if let (Some(to), Some(e)) = (&bounds.1, end)
        && *to != midnight(e)
    {
        ends.push((Some(midnight(e)), Some(to.clone())));
    }
    Ok(Split {
        whole: Some((first, end)),
        ends,
    })
}

/// A filter of `rollup`'s keys: whole days from the rollup, the partial
/// ends from the hands.
fn days_sql(
    rollup: DayRollup,
    filter: &HandFilter,
    bounds: (Option<String>, Option<String>),
) -> Result<(String, Where), StoreError> {
    let split = split(&bounds)?;
    let mut w = Where::default();
    let mut parts = Vec::new();
    if let Some((first, end)) = split.whole {
        let conditions = criteria_conditions(&mut w, filter, |w| {
            let mut days = Vec::new();
            if let Some(f) = first {
                days.push(format!("h.day >= {}", w.bind_text(f.to_string())));
            }
            if let Some(e) = end {
                days.push(format!("h.day < {}", w.bind_text(e.to_string())));
            }
            (!days.is_empty()).then(|| days.join(" AND "))
        })?;
        parts.push(format!(
            "SELECT h.status AS s, h.hands AS n, h.wagered_e4 AS w, h.collection_e4 AS c, \
             h.pd_net_e4 AS p FROM {} h{conditions}",
            rollup.table()
        ));
    }
    for (from, to) in split.ends {
        let conditions = criteria_conditions(&mut w, filter, |w| {
            let mut times = Vec::new();
            if let Some(f) = from {
                times.push(format!("h.opened_at >= {}", w.bind_text(f)));
            }
            if let Some(t) = to {
                times.push(format!("h.opened_at < {}", w.bind_text(t)));
            }
            (!times.is_empty()).then(|| times.join(" AND "))
        })?;
        parts.push(format!("{HAND_SUMS}{conditions}"));
    }
    Ok((format!("{} ({}) t", sums(), parts.join(" UNION ALL ")), w))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Option<String> {
        Some(s.to_string())
    }

    fn d(s: &str) -> Option<NaiveDate> {
        NaiveDate::parse_from_str(s, "%Y-%m-%d").ok()
    }

    #[test]
    fn a_range_splits_into_whole_days_and_its_partial_ends() {
        let cases = [
            // All time: every day, no ends.
            ((None, None), Some((None, None)), vec![]),
            // Midnight to midnight: whole days only.
            (
                (
                    t("2026-11-02T00:00:00.000000Z"),
                    t("2026-11-04T00:00:00.000000Z"),
                ),
                Some((d("2026-11-02"), d("2026-11-04"))),
                vec![],
            ),
            // A cardroom day at UTC-8: one partial end each side.
            (
                (
                    t("2026-11-02T08:00:00.000000Z"),
                    t("2026-11-04T08:00:00.000000Z"),
                ),
                Some((d("2026-11-03"), d("2026-11-04"))),
                vec![
                    (
                        t("2026-11-02T08:00:00.000000Z"),
                        t("2026-11-03T00:00:00.000000Z"),
                    ),
                    (
                        t("2026-11-04T00:00:00.000000Z"),
                        t("2026-11-04T08:00:00.000000Z"),
                    ),
                ],
            ),
            // From only: the rest of its day, then every day after.
            (
                (t("2026-11-02T08:00:00.000000Z"), None),
                Some((d("2026-11-03"), None)),
                vec![(
                    t("2026-11-02T08:00:00.000000Z"),
                    t("2026-11-03T00:00:00.000000Z"),
                )],
            ),
            // To only: every day before, then its own day's start.
            (
                (None, t("2026-11-02T08:00:00.000000Z")),
                Some((None, d("2026-11-02"))),
                vec![(
                    t("2026-11-02T00:00:00.000000Z"),
                    t("2026-11-02T08:00:00.000000Z"),
                )],
            ),
        ];
        for (bounds, whole, ends) in cases {
            assert_eq!(split(&bounds).unwrap(), Split { whole, ends }, "{bounds:?}");
        }
    }

    #[test]
    fn a_filter_sums_whole_days_from_the_rollup_keyed_by_all_its_criteria() {
        use crate::domain::history::HandFilter;
        let cases = [
            ("", Some(DayRollup::Tables)),
            ("table=B01&status=closed&kind=real", Some(DayRollup::Tables)),
            ("dealer=dealer.ann", Some(DayRollup::Dealer)),
            (
                "dealer=dealer.ann&status=corrected",
                Some(DayRollup::Dealer),
            ),
            // A dealer's rollup keys no table, hence no kind either.
            ("dealer=dealer.ann&table=B01", None),
            ("dealer=dealer.ann&kind=real", None),
            ("dealer=dealer.ann&player=lee", None),
            ("table=B01&bank_min=100", None),
        ];
        for (query, rollup) in cases {
            let pairs: Vec<(String, String)> = serde_urlencoded::from_str(query).expect(query);
            let filter = HandFilter::parse(&pairs).expect(query);
            assert_eq!(day_rollup(&filter), rollup, "{query}");
        }
    }

    #[test]
    fn a_range_inside_a_day_or_across_one_midnight_is_read_from_the_hands() {
        for bounds in [
            (
                t("2026-11-02T08:00:00.000000Z"),
                t("2026-11-02T12:00:00.000000Z"),
            ),
            (
                t("2026-11-02T20:00:00.000000Z"),
                t("2026-11-03T04:00:00.000000Z"),
            ),
        ] {
            assert_eq!(
                split(&bounds).unwrap(),
                Split {
                    whole: None,
                    ends: vec![bounds.clone()]
                }
            );
        }
    }
}
