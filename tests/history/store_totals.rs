//! The search's totals, however they are read (whole days from
//! `hand_days`, an amount's rows of `hand_amounts`, a name's people rows,
//! the hands themselves: `store/history/totals.rs`), are the sums of the
//! hands its pages hold, for each filter over bench hands spread across a
//! week (partial days at both ends of a cardroom's day in Los Angeles), on
//! both databases; and `audit verify` passes over them, then names a
//! tampered day and a missing amount.

use pitbook::domain::history::HandFilter;
use pitbook::store::history::{self, Totals};
use pitbook::store::verify::verify;

use crate::common::cli::pitbook;
use crate::common::{Backend, TEST_KEY_HEX, TestDb};

/// The sums over every page of `query`'s results, and its totals.
async fn paged_and_totals(db: &pitbook::store::Db, query: &str) -> (Totals, Totals) {
    let zone = chrono_tz::America::Los_Angeles;
    let mut pairs: Vec<(String, String)> = url_pairs(query);
    pairs.push(("limit".into(), "7".into()));
    let mut sums = Totals::default();
    let mut totals = None;
    loop {
        let filter = HandFilter::parse(&pairs).unwrap_or_else(|e| panic!("{query}: {e:?}"));
        let bounds = history::time::bounds(filter.range.as_ref(), chrono::Utc::now(), zone);
        let page = history::search(db, &filter, bounds).await.expect(query);
        for h in &page.hands {
            sums.hands += 1;
            sums.wagered += h.wagered;
            sums.house_collection += h.house_collection.unwrap_or_default();
            sums.pd_results += h.pd_net.unwrap_or_default();
        }
        assert!(
            totals.is_none_or(|t| t == page.totals),
            "{query}: every page has the set's totals"
        );
        totals = Some(page.totals);
        match page.next {
            None => break,
            Some(next) => {
                pairs.retain(|(k, _)| k != "after");
                pairs.push(("after".into(), next));
            }
        }
    }
    (sums, totals.expect("a page"))
}

fn url_pairs(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').expect("key=value");
            (k.to_string(), v.to_string())
        })
        .collect()
}

async fn bench_week(backend: Backend) -> TestDb {
    let test_db = TestDb::new(backend).await;
    let dir = tempfile::tempdir().unwrap();
    let key_file = dir.path().join("audit.key");
    std::fs::write(&key_file, TEST_KEY_HEX).unwrap();
    let key = key_file.display().to_string();
    let (code, out, err) = pitbook(&[
        "bench",
        "hands",
        "--hands",
        "160",
        "--tables",
        "4",
        "--weeks",
        "1",
        "--queries",
        "0",
        "--database-url",
        &test_db.url,
        "--audit-key-file",
        &key,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    test_db
}

/// The day `days` days before today in Los Angeles, as a filter's date.
fn day_before(days: i64) -> String {
    let today = chrono::Utc::now()
        .with_timezone(&chrono_tz::America::Los_Angeles)
        .date_naive();
    (today - chrono::Duration::days(days)).to_string()
}

async fn totals_are_the_sums_of_the_pages_for_every_way_they_are_read(backend: Backend) {
    let test_db = bench_week(backend).await;
    let db = &test_db.db;
    let (d2, d4, d6) = (day_before(2), day_before(4), day_before(6));
    let queries = [
        String::new(),
        "table=B01".into(),
        "kind=training".into(),
        "kind=real".into(),
        "status=closed".into(),
        "status=corrected".into(),
        "status=voided".into(),
        format!("date={d2}"),
        format!("from={d6}T13:30&to={d2}T07:15"),
        format!("from={d4}T05:00"),
        format!("to={d4}T19:45"),
        format!("table=B02&status=closed&from={d6}T09:00&to={d2}T09:00"),
        format!("kind=real&from={d4}T22:00&to={}T03:00", day_before(3)),
        "dealer=dealer.ann".into(),
        "pd=lee".into(),
        "player=an".into(),
        format!("player=an&from={d6}T13:30&to={d2}T07:15"),
        "player=kim&table=B03".into(),
        "pd=a&status=closed&wager_min=50".into(),
        "bank_min=2500".into(),
        "bank_min=200".into(),
        "bank_min=99999".into(),
        format!("bank_min=1000&date={d2}"),
        "wager_min=100".into(),
        "player=an&pd=lee".into(),
        "number=3".into(),
    ];
    let (all, _) = paged_and_totals(db, "").await;
    assert_eq!(all.hands, 160, "every bench hand");
    for query in &queries {
        let (sums, totals) = paged_and_totals(db, query).await;
        assert_eq!(sums, totals, "{query}");
    }
    // The partitions add up to the whole.
    let mut by_kind = Totals::default();
    for kind in ["kind=training", "kind=real"] {
        let (_, t) = paged_and_totals(db, kind).await;
        assert!(t.hands > 0, "{kind}: the bench has both kinds");
        by_kind.hands += t.hands;
        by_kind.wagered += t.wagered;
    }
    assert_eq!((by_kind.hands, by_kind.wagered), (all.hands, all.wagered));
}

async fn verify_checks_the_daily_totals_against_the_hands(backend: Backend) {
    let test_db = bench_week(backend).await;
    let key = crate::common::test_key();
    let report = verify(&test_db.db, &key, 1, None).await.expect("verify");
    assert!(report.ok(), "{report:?}");
    let tamper = "UPDATE hand_days SET wagered_e4 = wagered_e4 + 10000 \
        WHERE day = (SELECT MIN(day) FROM hand_days) AND table_id = 'B01' AND status = 'closed'";
    crate::common::tamper(&test_db.db, &[tamper]).await;
    let report = verify(&test_db.db, &key, 1, None).await.expect("verify");
    let problem = report.problem.expect("the tampered day is found");
    assert!(
        problem.message.contains("hand_days for") && problem.message.contains("at B01, closed"),
        "{problem:?}"
    );

    let test_db = bench_week(backend).await;
    let tamper = "DELETE FROM hand_amounts WHERE amount = 'max_wager' \
        AND amount_e4 = (SELECT MIN(amount_e4) FROM hand_amounts WHERE amount = 'max_wager')";
    crate::common::tamper(&test_db.db, &[tamper]).await;
    let report = verify(&test_db.db, &key, 1, None).await.expect("verify");
    let problem = report.problem.expect("the missing amount is found");
    assert!(
        problem
            .message
            .contains("hand_amounts for max_wager 5.00 holds no row"),
        "{problem:?}"
    );
}

on_both_databases!(
    totals_are_the_sums_of_the_pages_for_every_way_they_are_read,
    verify_checks_the_daily_totals_against_the_hands,
);
