//! The search's totals, however they are read (whole days from
//! `hand_days` or `hand_dealer_days`, an amount's rows of `hand_amounts`, a name's people rows,
//! the hands themselves: `store/history/totals.rs`), are the sums of the
//! hands its pages hold, for each filter over bench hands spread across a
//! week (partial days at both ends of a cardroom's day in Los Angeles), on
//! both databases; and `audit verify` passes over them, then names a
//! tampered day, a missing dealer's day and a missing amount. Every
//! total sums the closed hands only and counts the open and voided apart;
//! a player's add up.

use pitbook::domain::history::{HandFilter, totals};
use pitbook::store::history::{self, Totals};
use pitbook::store::verify::verify;

use crate::common::cli::pitbook;
use crate::common::{Backend, TEST_KEY_HEX, TestDb};

/// The sums over every page of `query`'s results, and its totals.
async fn paged_and_totals(db: &pitbook::store::Db, query: &str) -> (Totals, Totals) {
    let (sums, totals, _) = paged(db, query).await;
    (sums, totals)
}

/// As [`paged_and_totals`], with the ids of the hands the pages held (in
/// their order).
async fn paged(db: &pitbook::store::Db, query: &str) -> (Totals, Totals, Vec<String>) {
    let mut ids = Vec::new();
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
            ids.push(h.id.clone());
            match h.status.as_str() {
                totals::SUMMED => {
                    sums.hands += 1;
                    sums.wagered += h.wagered;
                    sums.house_collection += h.house_collection.unwrap_or_default();
                    sums.pd_results += h.pd_net.unwrap_or_default();
                }
                totals::VOIDED => sums.voided += 1,
                _ => sums.open += 1,
            }
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
    (sums, totals.expect("a page"), ids)
}

/// The ids of the hands `sql` selects, sorted.
async fn ids_by_sql(db: &pitbook::store::Db, sql: &str) -> Vec<String> {
    let mut ids: Vec<String> = match db {
        pitbook::store::Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_all(pool).await,
        pitbook::store::Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_all(pool).await,
    }
    .expect(sql);
    ids.sort();
    ids
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
        "dealer=dealer.ann&status=closed".into(),
        "dealer=dealer.bo&status=corrected".into(),
        format!("dealer=dealer.ann&from={d6}T13:30&to={d2}T07:15"),
        format!("dealer=dealer.bo&status=open&date={d2}"),
        format!("dealer=dealer.bo&to={d4}T19:45"),
        "dealer=dealer.ann&table=B01".into(),
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
    assert_eq!(all.hands + all.open + all.voided, 160, "every bench hand");
    assert!(all.voided > 0, "the bench voids some hands: {all:?}");
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
        by_kind.voided += t.voided;
    }
    assert_eq!(
        (by_kind.hands, by_kind.wagered, by_kind.voided),
        (all.hands, all.wagered, all.voided)
    );
}

async fn verify_checks_the_daily_totals_against_the_hands(backend: Backend) {
    let test_db = bench_week(backend).await;
    let key = crate::common::test_key();
    let report = verify(&test_db.db, &key, 1, None).await.expect("verify");
    assert!(report.ok(), "{report:?}");
    // Each rollup tampered in a fresh week, and what the report must say.
    // The first day B01 has closed hands on: the week's first day may hold
    // none, by the time of day the bench ran (a tamper then changed nothing).
    let tampers = [
        (
            "UPDATE hand_days SET wagered_e4 = wagered_e4 + 10000 \
             WHERE table_id = 'B01' AND status = 'closed' AND day = (SELECT MIN(day) \
             FROM hand_days WHERE table_id = 'B01' AND status = 'closed')",
            ["hand_days for ", " at B01, closed holds "],
        ),
        (
            "DELETE FROM hand_dealer_days WHERE status = 'closed' \
             AND (dealer, day) = (SELECT dealer, MIN(day) FROM hand_dealer_days \
             WHERE dealer = 'dealer.ann' AND status = 'closed' GROUP BY dealer)",
            [
                "hand_dealer_days for dealer.ann on ",
                ", closed holds no row",
            ],
        ),
        (
            "DELETE FROM hand_amounts WHERE amount = 'max_wager' AND status = 'closed' \
             AND amount_e4 = (SELECT MIN(amount_e4) FROM hand_amounts \
             WHERE amount = 'max_wager' AND status = 'closed')",
            ["hand_amounts for max_wager 5.00, closed holds no row", ""],
        ),
    ];
    for (tamper, says) in tampers {
        let test_db = bench_week(backend).await;
        crate::common::tamper(&test_db.db, &[tamper]).await;
        let report = verify(&test_db.db, &key, 1, None).await.expect("verify");
        let problem = report.problem.unwrap_or_else(|| panic!("found: {tamper}"));
        assert!(
            says.iter().all(|part| problem.message.contains(part)),
            "{problem:?}"
        );
    }
}

/// A name's hands read from its people rows alone (each hand by the first
/// of its people the name matches, the hand's criteria from the rows'
/// copies: migration 0019) are the hands any of whose people the name
/// matches and whose own row meets the rest, each once.
async fn a_names_hands_are_each_hand_it_matches_once(backend: Backend) {
    let test_db = bench_week(backend).await;
    let db = &test_db.db;
    let people = "EXISTS (SELECT 1 FROM hand_people p WHERE p.hand_id = h.id AND";
    let cases = [
        ("player=an", format!("{people} p.name_key LIKE '%an%')")),
        ("player=a", format!("{people} p.name_key LIKE '%a%')")),
        (
            "player=an&table=B03&status=closed",
            format!(
                "{people} p.name_key LIKE '%an%') AND h.table_id = 'B03' AND h.status = 'closed'"
            ),
        ),
        (
            "player=e&wager_min=50&bank_min=500",
            format!(
                "{people} p.name_key LIKE '%e%') AND h.max_wager_e4 >= 500000 AND h.bank_e4 >= 5000000"
            ),
        ),
        (
            "player=a&status=voided",
            format!("{people} p.name_key LIKE '%a%') AND h.status = 'voided'"),
        ),
        (
            "player=a&status=corrected",
            format!("{people} p.name_key LIKE '%a%') AND h.corrected = 1 AND h.status = 'closed'"),
        ),
        (
            "player=an&dealer=dealer.ann",
            format!("{people} p.name_key LIKE '%an%') AND h.dealer = 'dealer.ann'"),
        ),
        (
            "pd=a&kind=training",
            format!(
                "{people} p.role = 'pd' AND p.name_key LIKE '%a%') AND h.table_id IN (SELECT name FROM card_tables WHERE training)"
            ),
        ),
        (
            "player=a&number=3",
            format!("{people} p.name_key LIKE '%a%') AND h.number = 3"),
        ),
    ];
    let mut several = 0;
    for (query, condition) in cases {
        let (sums, totals, mut paged_ids) = paged(db, query).await;
        assert_eq!(sums, totals, "{query}");
        let n = paged_ids.len();
        paged_ids.sort();
        paged_ids.dedup();
        assert_eq!(paged_ids.len(), n, "{query}: a hand listed twice");
        let want = ids_by_sql(db, &format!("SELECT h.id FROM hands h WHERE {condition}")).await;
        assert!(!want.is_empty(), "{query}: the bench has such hands");
        assert_eq!(paged_ids, want, "{query}");
        several += ids_by_sql(
            db,
            &format!(
                "SELECT h.id FROM hands h WHERE (SELECT COUNT(*) FROM hand_people p \
                 WHERE p.hand_id = h.id AND p.name_key LIKE '%an%') > 1 AND {condition}"
            ),
        )
        .await
        .len();
    }
    assert!(several > 0, "some hands hold two people the name matches");
}

/// Migration 0019 fills `keys_before` and the criteria's copies on a
/// database written before it as the writers do: its hands are undone to
/// 0018's columns, the migration runs again, and `audit verify` (which
/// derives both from the events) passes, the search as before.
async fn migration_0019_fills_the_people_rows_as_the_writers_do(backend: Backend) {
    let test_db = bench_week(backend).await;
    let db = &test_db.db;
    let before = paged(db, "player=an&table=B02").await;
    let mut undo: Vec<String> = vec![
        "DROP INDEX hand_people_by_name".into(),
        "DROP INDEX hand_people_pds".into(),
    ];
    for column in [
        "keys_before",
        "table_id",
        "dealer",
        "status",
        "corrected",
        "bank_e4",
        "max_wager_e4",
    ] {
        undo.push(format!("ALTER TABLE hand_people DROP COLUMN {column}"));
    }
    undo.push("CREATE INDEX hand_people_by_name ON hand_people (name_key)".into());
    undo.push("CREATE INDEX hand_people_pds ON hand_people (name_key) WHERE role = 'pd'".into());
    let undo: Vec<&str> = undo.iter().map(String::as_str).collect();
    crate::common::tamper(db, &undo).await;
    // The migration's statements one by one (no `;` but theirs outside its
    // comments).
    let sql = match backend {
        Backend::Sqlite => include_str!("../../migrations/sqlite/0019_search_people_alone.sql"),
        Backend::Postgres => include_str!("../../migrations/postgres/0019_search_people_alone.sql"),
    };
    let code: Vec<&str> = sql
        .lines()
        .filter(|l| !l.trim_start().starts_with("--"))
        .collect();
    let code = code.join("\n");
    let statements: Vec<&str> = code.split(';').filter(|s| !s.trim().is_empty()).collect();
    assert!(statements.len() > 10, "{statements:?}");
    crate::common::tamper(db, &statements).await;
    let key = crate::common::test_key();
    let report = verify(db, &key, 1, None).await.expect("verify");
    assert!(report.ok(), "{report:?}");
    assert_eq!(paged(db, "player=an&table=B02").await, before);
}

/// Every name's totals over the bench week (closed, corrected, voided and
/// open hands) sum its closed hands only and add up — staked − received =
/// −net — with its open and voided hands counted apart: the same as the
/// hands its history lists.
async fn every_players_totals_add_up_over_the_bench_hands(backend: Backend) {
    use pitbook::domain::common::money::Money;
    use pitbook::domain::history::PlayerQuery;
    let test_db = bench_week(backend).await;
    let db = &test_db.db;
    let keys = ids_by_sql(db, "SELECT DISTINCT name_key FROM hand_people").await;
    assert!(keys.len() > 5, "the bench has players: {keys:?}");
    let mut voided_seen = 0;
    for key in keys {
        let pairs = [
            ("player".to_string(), key.clone()),
            ("limit".to_string(), "500".to_string()),
        ];
        let q = PlayerQuery::parse(&pairs).expect("a name");
        let found = history::player::history(db, &q)
            .await
            .expect("totals that add up");
        assert!(found.next.is_none(), "{key}: one page holds them all");
        let t = &found.totals;
        assert_eq!(t.staked - t.received, -t.net, "{key}: {t:?}");
        let closed = found.hands.iter().filter(|h| h.status == totals::SUMMED);
        let sum = |f: fn(&history::player::PlayerHand) -> Money| {
            closed.clone().fold(Money::ZERO, |s, h| s + f(h))
        };
        assert_eq!(t.staked, sum(|h| h.staked), "{key}");
        assert_eq!(t.received, sum(|h| h.received.unwrap_or_default()), "{key}");
        assert_eq!(t.net, sum(|h| h.net.unwrap_or_default()), "{key}");
        let hands_with = |status: &dyn Fn(&str) -> bool| {
            let mut ids: Vec<&str> = found
                .hands
                .iter()
                .filter(|h| status(&h.status))
                .map(|h| h.hand_id.as_str())
                .collect();
            ids.dedup();
            ids.len() as i64
        };
        assert_eq!(t.hands, hands_with(&|s| s == "closed"), "{key}");
        assert_eq!(t.open, hands_with(&|s| totals::OPEN.contains(&s)), "{key}");
        assert_eq!(t.voided, hands_with(&|s| s == "voided"), "{key}");
        voided_seen += t.voided;
    }
    assert!(
        voided_seen > 0,
        "the bench voids hands: the rule was tried on them"
    );
}

on_both_databases!(
    every_players_totals_add_up_over_the_bench_hands,
    migration_0019_fills_the_people_rows_as_the_writers_do,
    a_names_hands_are_each_hand_it_matches_once,
    totals_are_the_sums_of_the_pages_for_every_way_they_are_read,
    verify_checks_the_daily_totals_against_the_hands,
);
