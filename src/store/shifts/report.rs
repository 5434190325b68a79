//! What a shift report is computed from (`domain::shifts::report`): the
//! hands opened in its range at its tables, each with the money of its
//! recorded settlement as the search's projection holds it (re-derived
//! by `audit verify`), each player's sums at each table, the corrections'
//! and voids' reasons, and the chain's anchors at the shift's ends.

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

use crate::domain::double_hand_poker::options::{OptionOverrides, Profile, RuleOptions};
use crate::domain::double_hand_poker::rotation_clock::RotationRule;
use crate::domain::history::units::from_e4;
use crate::domain::shifts::report::{
    self, Anchor, HandChange, HandStatus, PlayerRow, Report, ReportHand, ReportInput, Scope,
};
use crate::domain::shifts::tppp::{RotationOverride, Tppp};
use crate::domain::shifts::{Shift, Stamp};
use crate::store::{Db, StoreError, WriteTx};

/// Where the report's reads run: in the write transaction that signs it,
/// or on the pool for a page.
pub enum On<'a> {
    Tx(&'a mut WriteTx),
    Db(&'a Db),
}

macro_rules! fetch {
    ($on:expr, $sql:expr, |$q:ident| $bind:expr) => {
        match $on {
            On::Tx(tx) => on_tx!(&mut **tx, |c| {
                let $q = sqlx::query_as($sql);
                $bind.fetch_all(&mut **c).await?
            }),
            On::Db(db) => on_pool!(*db, |pool| {
                let $q = sqlx::query_as($sql);
                $bind.fetch_all(pool).await?
            }),
        }
    };
}

/// The SQLite file a page's report reads (None: PostgreSQL, an in-memory
/// database, or the signing transaction, which must read what it holds).
fn sqlite_file_of(on: &On<'_>) -> Option<std::path::PathBuf> {
    match on {
        On::Db(db) => crate::store::sqlite_file(db),
        On::Tx(_) => None,
    }
}

/// Runs `read` on a read-only connection to the SQLite file at `path` on
/// a blocking thread: sqlx's SQLite driver hands each row across threads,
/// which was most of a 15,000-hand report's time (BENCHMARKS.md, "Shift
/// report").
async fn blocking<T: Send + 'static>(
    path: std::path::PathBuf,
    read: impl FnOnce(&rusqlite::Connection) -> rusqlite::Result<T> + Send + 'static,
) -> Result<T, StoreError> {
    tokio::task::spawn_blocking(move || {
        let conn = rusqlite::Connection::open_with_flags(
            &path,
            rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        conn.busy_timeout(std::time::Duration::from_secs(5))?;
        read(&conn)
    })
    .await
    .map_err(|e| StoreError::Internal(format!("the report's read: {e}")))?
    .map_err(StoreError::from)
}

/// A PostgreSQL connection of `on`, for the statements only it runs.
enum Pg<'a> {
    Tx(&'a mut sqlx::Transaction<'static, sqlx::Postgres>),
    Pool(&'a sqlx::PgPool),
}

fn postgres_of<'a>(on: &'a mut On<'_>) -> Option<Pg<'a>> {
    match on {
        On::Tx(WriteTx::Postgres(c)) => Some(Pg::Tx(c)),
        On::Db(Db::Postgres(pool)) => Some(Pg::Pool(pool)),
        _ => None,
    }
}

fn is_postgres(on: &On<'_>) -> bool {
    matches!(on, On::Tx(WriteTx::Postgres(_)) | On::Db(Db::Postgres(_)))
}

/// A table filter bound as `$3`: PostgreSQL needs its type named.
fn table_test(on: &On<'_>, column: &str) -> String {
    let param = if is_postgres(on) {
        "CAST($3 AS TEXT)"
    } else {
        "$3"
    };
    format!("({param} IS NULL OR {column} = {param})")
}

type HandRow = (
    String,
    String,
    Option<i64>,
    bool,
    String,
    String,
    bool,
    String,
    Option<String>,
    Option<i64>,
    i64,
    Option<i64>,
    Option<i64>,
    Option<i64>,
);

type PlayerSums = (String, String, i64, i64, i64);

type ChangeRow = (String, String, String, String, String, i64);

/// The hour of `at` (UTC text) on the cardroom's clock.
fn hour_of(zone: Tz, at: &str) -> String {
    DateTime::parse_from_rfc3339(at)
        .map(|t| {
            t.with_timezone(&Utc)
                .with_timezone(&zone)
                .format("%Y-%m-%d %H:00")
                .to_string()
        })
        .unwrap_or_else(|_| at.to_string())
}

fn minutes_between(from: &str, to: &str) -> i64 {
    match (
        DateTime::parse_from_rfc3339(from),
        DateTime::parse_from_rfc3339(to),
    ) {
        (Ok(a), Ok(b)) => (b - a).num_minutes(),
        _ => 0,
    }
}

/// The report of `shift` (its range ends at `now` while it is open).
pub async fn of_shift(
    on: &mut On<'_>,
    shift: &Shift,
    zone: Tz,
    now: &str,
) -> Result<Report, StoreError> {
    let to = shift
        .closed
        .as_ref()
        .map_or_else(|| now.to_string(), |c| c.at.clone());
    let scope = Scope {
        shift: Some(shift.id.clone()),
        table: shift.table.clone(),
        minutes: minutes_between(&shift.opened.at, &to),
        from: shift.opened.at.clone(),
        to,
    };
    let mut input = read(on, &scope, zone).await?;
    let mut seqs = vec![shift.opened.seq];
    seqs.extend(shift.closed.as_ref().map(|c| c.seq));
    input.anchors = anchors(on, &seqs).await?;
    Ok(report::compute(scope, Some(shift), input))
}

/// The report of the hands opened in [from, to) (UTC texts), at `table`
/// or in the room.
pub async fn of_range(
    db: &Db,
    table: Option<&str>,
    from: &str,
    to: &str,
    zone: Tz,
) -> Result<Report, StoreError> {
    let scope = Scope {
        shift: None,
        table: table.map(str::to_string),
        minutes: minutes_between(from, to),
        from: from.to_string(),
        to: to.to_string(),
    };
    let input = read(&mut On::Db(db), &scope, zone).await?;
    Ok(report::compute(scope, None, input))
}

/// The hands, players and changes of `scope`.
pub async fn read(on: &mut On<'_>, scope: &Scope, zone: Tz) -> Result<ReportInput, StoreError> {
    // From a pool, the two big reads run at once on two connections.
    let (rows, sums) = match on {
        On::Db(db) => {
            let db: &Db = db;
            let (mut a, mut b) = (On::Db(db), On::Db(db));
            tokio::try_join!(hand_rows(&mut a, scope), player_sums(&mut b, scope))?
        }
        On::Tx(_) => (hand_rows(on, scope).await?, player_sums(on, scope).await?),
    };
    let hands: Vec<ReportHand> = rows
        .into_iter()
        .map(|r| {
            let status = match r.5.as_str() {
                "closed" => HandStatus::Closed,
                "voided" => HandStatus::Voided,
                _ => HandStatus::Open,
            };
            ReportHand {
                hour: hour_of(zone, &r.4),
                id: r.0,
                table: r.1,
                number: r.2.unwrap_or(0),
                training: r.3,
                opened_at: r.4,
                status,
                corrected: r.6,
                dealer: r.7,
                pd: r.8,
                bank: r.9.map(from_e4),
                wagered: from_e4(r.10),
                collection: r.11.map(from_e4),
                pd_net: r.12.map(from_e4),
                settlement_seq: r.13,
            }
        })
        .collect();
    let players = sums
        .into_iter()
        .map(|(table, name, hands, staked, net)| PlayerRow {
            table,
            name,
            hands: hands as u64,
            staked: from_e4(staked),
            net: from_e4(net),
        })
        .collect();
    let changes = changes(on, &hands).await?;
    let (rotation, overrides, tppps) = floor(on, scope).await?;
    Ok(ReportInput {
        hands,
        players,
        changes,
        anchors: Vec::new(),
        rotation,
        overrides,
        tppps,
    })
}

/// The range's hands, as the report reads them.
async fn hand_rows(on: &mut On<'_>, scope: &Scope) -> Result<Vec<HandRow>, StoreError> {
    let hands_sql = format!(
        "SELECT h.id, h.table_id, h.number, COALESCE(c.training, FALSE), h.opened_at, h.status, \
         h.corrected <> 0, h.dealer, h.pd_name, h.bank_e4, h.wagered_e4, h.collection_e4, h.pd_net_e4, \
         h.settlement_seq FROM hands h LEFT JOIN card_tables c ON c.name = h.table_id \
         WHERE h.opened_at >= $1 AND h.opened_at < $2 AND {}",
        table_test(on, "h.table_id")
    );
    let table = scope.table.as_deref();
    let binds = [
        Some(scope.from.clone()),
        Some(scope.to.clone()),
        scope.table.clone(),
    ];
    let rows: Vec<HandRow> = match sqlite_file_of(on) {
        Some(path) => {
            let b = binds.clone();
            blocking(path, move |conn| {
                let mut statement = conn.prepare(&hands_sql)?;
                let rows = statement.query_map(rusqlite::params_from_iter(b.iter()), |r| {
                    HandRow::try_from(r)
                })?;
                rows.collect()
            })
            .await?
        }
        None => fetch!(on, &hands_sql, |q| q
            .bind(&scope.from)
            .bind(&scope.to)
            .bind(table)),
    };
    Ok(rows)
}

/// Each player's bets at each table over the range, summed.
async fn player_sums(on: &mut On<'_>, scope: &Scope) -> Result<Vec<PlayerSums>, StoreError> {
    let table = scope.table.as_deref();
    let binds = [
        Some(scope.from.clone()),
        Some(scope.to.clone()),
        scope.table.clone(),
    ];
    // Each player's bets at each table. The range's closed hands, and
    // each hand's bets along the people's primary key.
    let range = format!(
        "WHERE h.opened_at >= $1 AND h.opened_at < $2 AND {} AND h.status = 'closed'",
        table_test(on, "h.table_id")
    );
    let bets = "FROM hands h JOIN hand_people p ON p.hand_id = h.id";
    let sums: Vec<PlayerSums> = if let Some(path) = sqlite_file_of(on) {
        // Each bet's row, summed here: SQLite's GROUP BY sorts them first,
        // which took as long as reading them.
        let sql = format!(
            "SELECT h.table_id, p.name, p.staked_e4, COALESCE(p.net_e4, 0) {bets} {range} \
             AND p.role = 'bettor'"
        );
        blocking(path, move |conn| {
            let mut statement = conn.prepare(&sql)?;
            let mut rows = statement.query(rusqlite::params_from_iter(binds.iter()))?;
            let mut sums: std::collections::HashMap<(String, String), (i64, i64, i64)> =
                std::collections::HashMap::new();
            while let Some(r) = rows.next()? {
                let key = (r.get::<_, String>(0)?, r.get::<_, String>(1)?);
                let sum = sums.entry(key).or_default();
                sum.0 += 1;
                sum.1 += r.get::<_, i64>(2)?;
                sum.2 += r.get::<_, i64>(3)?;
            }
            Ok(sums
                .into_iter()
                .map(|((table, name), (n, staked, net))| (table, name, n, staked, net))
                .collect())
        })
        .await?
    } else if is_postgres(on) {
        // SUM of BIGINT is NUMERIC on PostgreSQL: cast back. `OFFSET 0`
        // keeps the planner from flattening the lateral read into a scan
        // of every hand's people (BENCHMARKS.md, "Shift report").
        let sql = format!(
            "SELECT h.table_id, p.name, COUNT(*), CAST(SUM(p.staked_e4) AS BIGINT), \
             CAST(SUM(COALESCE(p.net_e4, 0)) AS BIGINT) FROM hands h CROSS JOIN LATERAL \
             (SELECT q.name, q.staked_e4, q.net_e4 FROM hand_people q \
              WHERE q.hand_id = h.id AND q.role = 'bettor' OFFSET 0) p \
             {range} GROUP BY h.table_id, p.name"
        );
        fetch!(on, &sql, |q| q
            .bind(&scope.from)
            .bind(&scope.to)
            .bind(table))
    } else {
        let sql = format!(
            "SELECT h.table_id, p.name, COUNT(*), SUM(p.staked_e4), \
             SUM(COALESCE(p.net_e4, 0)) {bets} {range} AND p.role = 'bettor' \
             GROUP BY h.table_id, p.name"
        );
        fetch!(on, &sql, |q| q
            .bind(&scope.from)
            .bind(&scope.to)
            .bind(table))
    };
    Ok(sums)
}

/// The corrections' and voids' reasons of the `hands` that changed, along
/// the log's hand index (a hand's few records; the kinds kept here): a
/// join of the range's hands with the log, or a test of the kind in the
/// statement, let PostgreSQL's planner scan the log. PostgreSQL reads them
/// in one statement (`= ANY`), an SQLite file through one prepared
/// statement, the signing transaction hand by hand.
async fn changes(on: &mut On<'_>, hands: &[ReportHand]) -> Result<Vec<HandChange>, StoreError> {
    const SQL: &str = "SELECT hand_id, event_type, payload, actor, recorded_at, seq \
        FROM audit_log WHERE hand_id = $1 ORDER BY seq";
    let ids: Vec<String> = hands
        .iter()
        .filter(|h| h.corrected || h.status == HandStatus::Voided)
        .map(|h| h.id.clone())
        .collect();
    let rows: Vec<ChangeRow> = if ids.is_empty() {
        Vec::new()
    } else if let Some(pg) = postgres_of(on) {
        let sql = "SELECT hand_id, event_type, payload, actor, recorded_at, seq \
            FROM audit_log WHERE hand_id = ANY($1) ORDER BY seq";
        let query = sqlx::query_as(sql).bind(&ids);
        match pg {
            Pg::Tx(c) => query.fetch_all(&mut **c).await?,
            Pg::Pool(pool) => query.fetch_all(pool).await?,
        }
    } else if let Some(path) = sqlite_file_of(on) {
        blocking(path, move |conn| {
            let mut statement = conn.prepare(SQL)?;
            let mut rows = Vec::new();
            for id in &ids {
                let found = statement.query_map([id], |r| ChangeRow::try_from(r))?;
                for row in found {
                    rows.push(row?);
                }
            }
            Ok(rows)
        })
        .await?
    } else {
        let mut rows = Vec::new();
        for id in &ids {
            let found: Vec<ChangeRow> = fetch!(on, SQL, |q| q.bind(id));
            rows.extend(found);
        }
        rows
    };
    let by_id: std::collections::HashMap<&str, &ReportHand> =
        hands.iter().map(|h| (h.id.as_str(), h)).collect();
    let mut changes: Vec<HandChange> = rows
        .into_iter()
        .filter(|r| r.1 == "outcome_corrected" || r.1 == "hand_voided")
        .filter_map(|(id, kind, payload, by, at, seq)| {
            let h = by_id.get(id.as_str())?;
            Some(HandChange {
                reason: serde_json::from_str::<serde_json::Value>(&payload)
                    .ok()
                    .and_then(|v| v.get("reason").and_then(|r| r.as_str()).map(String::from))
                    .unwrap_or_default(),
                kind: if kind == "hand_voided" {
                    "void"
                } else {
                    "correction"
                },
                hand: id,
                table: h.table.clone(),
                number: h.number,
                by,
                at,
                seq,
            })
        })
        .collect();
    changes.sort_by_key(|c| c.seq);
    Ok(changes)
}

type Floor = (
    std::collections::BTreeMap<String, RotationRule>,
    Vec<RotationOverride>,
    Vec<Tppp>,
);

/// The PD rotation part's input: each table's clock (by its rules as
/// configured now), the overrides in the range, the TPPP registry.
async fn floor(on: &mut On<'_>, scope: &Scope) -> Result<Floor, StoreError> {
    let tables: Vec<(String, String, Option<String>)> =
        fetch!(on, "SELECT name, profile, options FROM card_tables", |q| q);
    let mut rotation = std::collections::BTreeMap::new();
    for (name, profile, options) in tables {
        let profile = Profile::parse(&profile).unwrap_or_default();
        let options: OptionOverrides = options
            .map(|o| serde_json::from_str(&o))
            .transpose()
            .map_err(|e| StoreError::Internal(format!("table {name}: stored options: {e}")))?
            .unwrap_or_default();
        if let Some(rule) = RotationRule::of(&RuleOptions::for_profile(profile).with(&options)) {
            rotation.insert(name, rule);
        }
    }
    let rows: Vec<(String, String, String, String, i64)> = fetch!(
        on,
        "SELECT table_id, reason, at, by_user, seq FROM rotation_overrides \
         WHERE at >= $1 AND at < $2 ORDER BY seq",
        |q| q.bind(&scope.from).bind(&scope.to)
    );
    let overrides = rows
        .into_iter()
        .filter(|r| scope.table.as_ref().is_none_or(|t| *t == r.0))
        .map(|(table, reason, at, by, seq)| RotationOverride {
            table,
            reason,
            stamp: Stamp { at, by, seq },
        })
        .collect();
    let rows: Vec<(String, String, String, String, String, i64)> = fetch!(
        on,
        "SELECT name, company, badge, registered_at, registered_by, registered_seq FROM tppps",
        |q| q
    );
    let tppps = rows
        .into_iter()
        .map(|(name, company, badge, at, by, seq)| Tppp {
            name,
            company,
            badge,
            registered: Stamp { at, by, seq },
        })
        .collect();
    Ok((rotation, overrides, tppps))
}

/// The records at `seqs`, as anchors.
async fn anchors(on: &mut On<'_>, seqs: &[i64]) -> Result<Vec<Anchor>, StoreError> {
    let mut out = Vec::new();
    for &seq in seqs {
        let rows: Vec<(i64, String, String)> = fetch!(
            on,
            "SELECT seq, hash, recorded_at FROM audit_log WHERE seq = $1",
            |q| q.bind(seq)
        );
        out.extend(
            rows.into_iter()
                .map(|(seq, hash, at)| Anchor { seq, hash, at }),
        );
    }
    Ok(out)
}
