//! The bench's timings: each search filter of docs/history.md, a combination
//! and a player's history, `queries` times each with other parameters,
//! through the same store functions the API calls (the filter parsed from
//! query pairs, the page and the filtered set's totals). Times on UTC.

use std::time::Instant;

use super::Rng;
use super::hands::{dealers, players};
use crate::cli::CliError;
use crate::domain::history::{HandFilter, PlayerQuery};
use crate::store::{Db, history};

/// A filter's query pairs, drawn for one query.
type Draw = Box<dyn Fn(&mut Rng) -> Vec<(String, String)>>;

/// What the database holds, for drawing parameters that find hands.
struct Held {
    tables: Vec<String>,
    /// The first and last hands' days (`YYYY-MM-DD`), and the days between.
    days: Vec<String>,
    numbers_max: i64,
}

async fn held(db: &Db) -> Result<Held, CliError> {
    let tables_sql = "SELECT name FROM card_tables ORDER BY name";
    let span_sql = "SELECT MIN(opened_at), MAX(opened_at), COALESCE(MAX(number), 1) FROM hands";
    type Span = (Option<String>, Option<String>, i64);
    let read = async {
        Ok::<_, sqlx::Error>(match db {
            Db::Sqlite(pool) => (
                sqlx::query_scalar(tables_sql).fetch_all(pool).await?,
                sqlx::query_as::<_, Span>(span_sql).fetch_one(pool).await?,
            ),
            Db::Postgres(pool) => (
                sqlx::query_scalar(tables_sql).fetch_all(pool).await?,
                sqlx::query_as::<_, Span>(span_sql).fetch_one(pool).await?,
            ),
        })
    };
    let (tables, (first, last, numbers_max)): (Vec<String>, Span) =
        read.await.map_err(|e| CliError::Failure(e.to_string()))?;
    let day = |t: Option<String>| {
        t.and_then(|t| chrono::NaiveDate::parse_from_str(t.get(..10)?, "%Y-%m-%d").ok())
    };
    let (Some(first), Some(last)) = (day(first), day(last)) else {
        return Err(CliError::BadInput(
            "the database holds no hands to search".into(),
        ));
    };
    let days = first
        .iter_days()
        .take_while(|d| *d <= last)
        .map(|d| d.to_string())
        .collect();
    Ok(Held {
        tables,
        days,
        numbers_max,
    })
}

fn pairs(items: &[(&str, String)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(k, v)| (k.to_string(), v.clone()))
        .collect()
}

/// Part of a name, as someone types it: 3–5 letters from its start, or
/// its last name.
fn partial(rng: &mut Rng, name: &str) -> String {
    let words: Vec<&str> = name.split(' ').collect();
    let word = rng.pick(&words);
    let chars: Vec<char> = word.chars().collect();
    let n = (3 + rng.below(3) as usize).min(chars.len());
    chars[..n].iter().collect::<String>().to_lowercase()
}

/// Every search filter (docs/history.md), with how to draw its parameters.
fn filters(held: Held) -> Vec<(&'static str, Draw)> {
    let tables = std::rc::Rc::new(held.tables);
    let days = std::rc::Rc::new(held.days);
    let names = std::rc::Rc::new(players());
    let dealers = std::rc::Rc::new(dealers());
    let numbers_max = held.numbers_max.max(1) as u64;
    let (t1, t2, d1, d2, n1, n2, n3, dl) = (
        tables.clone(),
        tables.clone(),
        days.clone(),
        days.clone(),
        names.clone(),
        names.clone(),
        names.clone(),
        dealers.clone(),
    );
    vec![
        (
            "table",
            Box::new(move |r: &mut Rng| pairs(&[("table", r.pick(&t1).clone())])),
        ),
        (
            "date (a day)",
            Box::new(move |r: &mut Rng| pairs(&[("date", r.pick(&d1).clone())])),
        ),
        (
            "from/to (a few hours)",
            Box::new(move |r: &mut Rng| {
                let day = r.pick(&d2).clone();
                let from = r.below(20);
                let to = from + 1 + r.below(4);
                pairs(&[
                    ("from", format!("{day}T{from:02}:00")),
                    ("to", format!("{day}T{to:02}:00")),
                ])
            }),
        ),
        (
            "dealer",
            Box::new(move |r: &mut Rng| pairs(&[("dealer", r.pick(&dl).clone())])),
        ),
        (
            "pd (partial)",
            Box::new(move |r: &mut Rng| {
                let name = r.pick(&n1).clone();
                pairs(&[("pd", partial(r, &name))])
            }),
        ),
        (
            "player (partial)",
            Box::new(move |r: &mut Rng| {
                let name = r.pick(&n2).clone();
                pairs(&[("player", partial(r, &name))])
            }),
        ),
        (
            "status",
            Box::new(|r: &mut Rng| {
                pairs(&[(
                    "status",
                    r.pick(&["open", "closed", "corrected", "voided"])
                        .to_string(),
                )])
            }),
        ),
        (
            "kind",
            Box::new(|r: &mut Rng| pairs(&[("kind", r.pick(&["training", "real"]).to_string())])),
        ),
        (
            "bank_min",
            Box::new(|r: &mut Rng| pairs(&[("bank_min", (200 + 50 * r.below(100)).to_string())])),
        ),
        (
            "wager_min",
            Box::new(|r: &mut Rng| pairs(&[("wager_min", (5 * (1 + r.below(100))).to_string())])),
        ),
        (
            "number",
            Box::new(move |r: &mut Rng| {
                pairs(&[("number", (1 + r.below(numbers_max)).to_string())])
            }),
        ),
        (
            "table + day + player + wager_min",
            Box::new(move |r: &mut Rng| {
                let name = r.pick(&n3).clone();
                pairs(&[
                    ("table", r.pick(&t2).clone()),
                    ("date", r.pick(&days).clone()),
                    ("player", partial(r, &name)),
                    ("wager_min", (5 * (1 + r.below(10))).to_string()),
                ])
            }),
        ),
    ]
}

/// p50, p99 and the slowest of `times` (ms).
fn percentiles(mut times: Vec<f64>) -> (f64, f64, f64) {
    times.sort_by(f64::total_cmp);
    let at = |q: f64| times[((times.len() as f64 * q).ceil() as usize).clamp(1, times.len()) - 1];
    (at(0.50), at(0.99), times[times.len() - 1])
}

fn line(name: &str, times: Vec<f64>, found: u64, target: f64) {
    let queries = times.len();
    let (p50, p99, max) = percentiles(times);
    let verdict = if p99 < target { "ok" } else { "MISSED" };
    println!(
        "| {name} | {queries} | {p50:.1} | {p99:.1} | {max:.1} | {:.0} | {verdict} (< {target} ms) |",
        found as f64 / queries as f64
    );
}

pub async fn run(db: &Db, queries: u64, seed: u64) -> Result<(), CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failure(e.to_string());
    let hands = super::hands_held(db).await?;
    println!(
        "timing the search over {hands} hands, {queries} queries each (ms; hands: the filtered set's mean)"
    );
    println!("| query | queries | p50 | p99 | max | hands | target |");
    println!("| --- | --- | --- | --- | --- | --- | --- |");
    let queries = queries.max(1);
    let mut rng = Rng::new(seed);
    for (name, draw) in filters(held(db).await?) {
        let mut times = Vec::with_capacity(queries as usize);
        let mut found = 0;
        for _ in 0..queries {
            let filter = HandFilter::parse(&draw(&mut rng))
                .map_err(|e| CliError::Failure(format!("{name}: {e:?}")))?;
            let bounds =
                history::time::bounds(filter.range.as_ref(), chrono::Utc::now(), chrono_tz::UTC);
            let started = Instant::now();
            let page = history::search(db, &filter, bounds)
                .await
                .map_err(|e| failed(&e))?;
            times.push(started.elapsed().as_secs_f64() * 1000.0);
            found += page.totals.all_hands() as u64;
        }
        line(name, times, found, 100.0);
    }
    let names = players();
    let mut times = Vec::with_capacity(queries as usize);
    let mut found = 0;
    for _ in 0..queries {
        let name = rng.pick(&names).clone();
        let query = PlayerQuery::parse(&[("player".to_string(), name)])
            .map_err(|e| CliError::Failure(format!("player history: {e:?}")))?;
        let started = Instant::now();
        let history = history::player::history(db, &query)
            .await
            .map_err(|e| failed(&e))?;
        times.push(started.elapsed().as_secs_f64() * 1000.0);
        found += history.totals.all_hands() as u64;
    }
    line("a player's history", times, found, 200.0);
    Ok(())
}
