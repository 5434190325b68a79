//! The hands the upgrade test (migration_upgrades.rs) writes at each old
//! schema: one table and its hands as the app writes them at the newest
//! schema — a hand closed then corrected, one closed then voided, one still
//! taking wagers — copied into the old database under a new table name and
//! new hand ids. The records are appended to its chain with the test key;
//! each projection row is written with the columns that schema has, and the
//! rest are left to the later migrations and the store's backfill. After
//! the last migration every row must be the template's again, with the
//! names, seqs and times mapped: what an upgrade must carry over.

use std::collections::{BTreeMap, HashMap};

use crate::audit_tamper_hand_search::command;
use crate::common::{Backend, TestApp, scalar_i64, spawn_app};
use pitbook::domain::common::audit::AuditKey;
use pitbook::store::audit::{self, AuditRecord, NewRecord};
use pitbook::store::{Db, WriteTx};
use serde_json::json;
use sqlx::Row as _;

/// The template's table; each copy's is `U` and the schema's version.
const TABLE: &str = "TPL1";

/// Tables whose rows are not the template table's and hands' own: the
/// schema's and the chain's, staff and their tokens, the replies kept for
/// repeated requests, and the search's totals, which triggers keep from
/// `hands` (each copied row adds itself to them).
const NOT_COPIED: [&str; 10] = [
    "_sqlx_migrations",
    "pitbook_meta",
    "audit_log",
    "staff_users",
    "staff_sessions",
    "api_tokens",
    "idempotency_keys",
    "hand_days",
    "hand_dealer_days",
    "hand_amounts",
];

/// A row as text by column (NULL as `None`), so one comparison serves every
/// column type on both databases.
pub type Row = BTreeMap<String, Option<String>>;

/// The template: its records in order, its hands' ids and every
/// projection row it wrote, by table.
pub struct Template {
    records: Vec<AuditRecord>,
    hands: Vec<String>,
    rows: Vec<(String, Row)>,
    /// The template's database, kept so its files outlive the reads.
    _app: TestApp,
}

/// How one copy renamed the template: strings (table name, hand ids)
/// replaced wherever they occur, seqs and times by their template value.
pub struct Copy {
    strings: Vec<(String, String)>,
    seqs: HashMap<i64, i64>,
    times: HashMap<String, String>,
}

/// Opens a hand with `events` after its `hand_opened`; its id and version.
async fn hand(app: &TestApp, events: serde_json::Value) -> (String, u64) {
    let mut all = vec![json!({"type": "hand_opened", "table": TABLE})];
    all.extend(events.as_array().expect("events").iter().cloned());
    let body = json!({"idempotency_key": uuid::Uuid::new_v4().to_string(), "events": all});
    let (status, body, _) = app.post_json("/api/v1/hands", &body).await;
    assert_eq!(status, 201, "{body}");
    let id = body["hand_id"].as_str().expect("hand_id").to_string();
    (id, body["version"].as_u64().expect("version"))
}

fn settled() -> serde_json::Value {
    json!([
        {"type": "pd_set", "seat": 1, "player": "Pat Oyelaran", "bank": "200"},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann Lee", "amount": "60"},
        {"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo Chen", "amount": "60"},
        {"type": "collection_taken"},
        {"type": "action_set", "seat": 4},
        {"type": "outcome_recorded", "seat": 4, "outcome": "pd"},
        {"type": "outcome_recorded", "seat": 5, "outcome": "player"},
        {"type": "steps_confirmed", "wagers": ["w1", "w2"]},
        {"type": "hand_closed"}
    ])
}

impl Template {
    /// Writes the template through the app's JSON API on a fresh database
    /// at the newest schema, and reads back what it wrote.
    pub async fn make(backend: Backend) -> Template {
        let app = spawn_app(backend).await;
        app.configured_table(TABLE, true).await;
        let (corrected, version) = hand(&app, settled()).await;
        let correction =
            json!([{"type": "outcome_corrected", "seat": 5, "outcome": "pd", "reason": "misread"}]);
        command(&app, &corrected, version, correction).await;
        let (voided, version) = hand(&app, settled()).await;
        let void = json!([{"type": "hand_voided", "reason": "misdeal"}]);
        command(&app, &voided, version, void).await;
        let open = json!([
            {"type": "pd_set", "seat": 2, "player": "Cy Novak", "bank": "1000"},
            {"type": "wager_placed", "id": "w1", "seat": 3, "bettor": "Di Park", "amount": "25"}
        ]);
        let (open, _) = hand(&app, open).await;

        let db = &app.database.db;
        let sql = format!("{} WHERE table_id = $1 ORDER BY seq", audit::SELECT_RECORD);
        let records: Vec<AuditRecord> = match db {
            Db::Sqlite(pool) => sqlx::query_as(&sql).bind(TABLE).fetch_all(pool).await,
            Db::Postgres(pool) => sqlx::query_as(&sql).bind(TABLE).fetch_all(pool).await,
        }
        .expect("the template's records");
        let hands = vec![corrected, voided, open];
        // Every hand record is the table's too: none is left behind.
        let of_hands = records.iter().filter(|r| r.hand_id.is_some()).count() as i64;
        let all_of_hands = scalar_i64(
            db,
            "SELECT COUNT(*) FROM audit_log WHERE hand_id IS NOT NULL",
        );
        assert_eq!(of_hands, all_of_hands.await);
        assert_eq!(records[0].event_type, "table_created");

        let mut rows = Vec::new();
        for table in tables(db).await {
            if NOT_COPIED.contains(&table.as_str()) {
                continue;
            }
            let columns: Vec<String> = columns(db, &table).await.into_keys().collect();
            for row in read_rows(db, &table, &columns).await {
                rows.push((table.clone(), row));
            }
        }
        let copied: Vec<&str> = rows.iter().map(|(t, _)| t.as_str()).collect();
        for table in ["card_tables", "hands", "hand_people", "person_names"] {
            assert!(copied.contains(&table), "no {table} row in {copied:?}");
        }
        Template {
            records,
            hands,
            rows,
            _app: app,
        }
    }

    /// The tables the template wrote rows to.
    pub fn tables(&self) -> Vec<String> {
        let mut tables: Vec<String> = self.rows.iter().map(|(t, _)| t.clone()).collect();
        tables.dedup();
        tables
    }

    /// How many records each copy appends.
    pub fn record_count(&self) -> usize {
        self.records.len()
    }

    /// Copies the template into `db` at its present schema as table
    /// `U{version:04}`, in one write transaction as the app writes a hand.
    pub async fn copy_into(&self, db: &Db, key: &AuditKey, version: i64) -> Copy {
        let mut strings = vec![(TABLE.to_string(), format!("U{version:04}"))];
        for hand in &self.hands {
            strings.push((hand.clone(), uuid::Uuid::now_v7().to_string()));
        }
        let mut copy = Copy {
            strings,
            seqs: HashMap::new(),
            times: HashMap::new(),
        };
        let mut present = HashMap::new();
        for table in tables(db).await {
            let columns = columns(db, &table).await;
            present.insert(table, columns);
        }

        let mut tx = pitbook::store::begin_write(db).await.expect("begin");
        let mut head = audit::head(&mut tx).await.expect("the chain's head");
        // One append a template command (its records share a time).
        for group in self.records.chunk_by(|a, b| a.recorded_at == b.recorded_at) {
            let new: Vec<NewRecord> = group
                .iter()
                .map(|r| NewRecord {
                    actor: r.actor.clone(),
                    table: r.table_id.as_deref().map(|t| copy.text(t)),
                    hand: r.hand_id.as_deref().map(|h| copy.text(h)),
                    event_type: r.event_type.clone(),
                    payload: copy.text(&r.payload),
                })
                .collect();
            let now = audit::now_text();
            let written = audit::append_after(&mut tx, key, head, &new, &now)
                .await
                .expect("append");
            for (old, new) in group.iter().zip(&written) {
                copy.seqs.insert(old.seq, new.seq);
                copy.times
                    .insert(old.recorded_at.clone(), new.recorded_at.clone());
            }
            let last = written.last().expect("a record");
            head = (last.seq, last.hash.clone());
        }
        for (table, row) in &self.rows {
            // A table a later migration creates is that migration's to fill.
            let Some(columns) = present.get(table) else {
                continue;
            };
            let mut row = copy.row(row);
            with_dropped_columns(table, &mut row);
            let kept: Vec<(&String, &Option<String>)> = row
                .iter()
                .filter(|(c, _)| columns.contains_key(*c))
                .collect();
            insert(&mut tx, table, &kept, columns).await;
        }
        tx.commit().await.expect("commit");
        copy
    }
}

impl Copy {
    fn text(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (old, new) in &self.strings {
            text = text.replace(old, new);
        }
        text
    }

    /// The template's row as this copy must hold it.
    pub fn row(&self, row: &Row) -> Row {
        row.iter()
            .map(|(column, value)| {
                let mapped = value.as_ref().map(|v| {
                    if column.ends_with("_seq") {
                        let seq: i64 = v.parse().expect("a seq");
                        let new = self.seqs.get(&seq);
                        new.unwrap_or_else(|| panic!("{column} {seq}: not the template's"))
                            .to_string()
                    } else if let Some(time) = self.times.get(v) {
                        time.clone()
                    } else {
                        self.text(v)
                    }
                });
                (column.clone(), mapped)
            })
            .collect()
    }

    /// Every copy's rows of `table` as they must be, sorted, a row the
    /// copies share once.
    pub fn expected(copies: &[Copy], template: &Template, table: &str) -> Vec<Row> {
        let mut rows: Vec<Row> = copies
            .iter()
            .flat_map(|copy| {
                template
                    .rows
                    .iter()
                    .filter(|(t, _)| t == table)
                    .map(|(_, row)| copy.row(row))
            })
            .collect();
        rows.sort();
        rows.dedup();
        rows
    }
}

/// Adds to a row the columns an earlier schema has that the newest
/// dropped, as the app of that schema wrote them: `hands.settlement`, the
/// settlement's JSON, which migration 0010 replaced by `settlement_seq`,
/// set where `settlement` was not NULL.
fn with_dropped_columns(table: &str, row: &mut Row) {
    if table == "hands" {
        let settled = row.get("settlement_seq").cloned().flatten();
        row.insert("settlement".into(), settled.map(|_| "{}".to_string()));
    }
}

/// The database's tables at its present schema.
async fn tables(db: &Db) -> Vec<String> {
    match db {
        Db::Sqlite(pool) => {
            let sql = "SELECT name FROM sqlite_master WHERE type = 'table' \
                       AND name NOT LIKE 'sqlite_%' ORDER BY name";
            sqlx::query_scalar(sql).fetch_all(pool).await
        }
        Db::Postgres(pool) => {
            let sql = "SELECT table_name::text FROM information_schema.tables \
                       WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                       ORDER BY table_name";
            sqlx::query_scalar(sql).fetch_all(pool).await
        }
    }
    .expect("tables")
}

/// A table's columns and their types at its present schema.
pub async fn columns(db: &Db, table: &str) -> BTreeMap<String, String> {
    let rows: Vec<(String, String)> = match db {
        Db::Sqlite(pool) => {
            let sql = "SELECT name, type FROM pragma_table_info($1)";
            sqlx::query_as(sql).bind(table).fetch_all(pool).await
        }
        Db::Postgres(pool) => {
            let sql = "SELECT a.attname::text, format_type(a.atttypid, a.atttypmod) \
                       FROM pg_attribute a WHERE a.attrelid = CAST($1 AS regclass) \
                       AND a.attnum > 0 AND NOT a.attisdropped";
            sqlx::query_as(sql).bind(table).fetch_all(pool).await
        }
    }
    .expect("columns");
    rows.into_iter().collect()
}

/// Every row of `table`, its `columns` as text.
pub async fn read_rows(db: &Db, table: &str, columns: &[String]) -> Vec<Row> {
    let list: Vec<String> = columns
        .iter()
        .map(|c| format!("CAST(\"{c}\" AS TEXT)"))
        .collect();
    let sql = format!("SELECT {} FROM \"{table}\"", list.join(", "));
    macro_rules! rows {
        ($pool:expr) => {
            sqlx::query(&sql)
                .fetch_all($pool)
                .await
                .expect("rows")
                .iter()
                .map(|r| {
                    (0..columns.len())
                        .map(|i| (columns[i].clone(), r.get::<Option<String>, _>(i)))
                        .collect::<Row>()
                })
                .collect()
        };
    }
    let mut rows: Vec<Row> = match db {
        Db::Sqlite(pool) => rows!(pool),
        Db::Postgres(pool) => rows!(pool),
    };
    rows.sort();
    rows
}

/// Inserts one row, each value cast from text to its column's type; a row
/// already there is left (a name in `person_names` is every copy's).
async fn insert(
    tx: &mut WriteTx,
    table: &str,
    row: &[(&String, &Option<String>)],
    types: &BTreeMap<String, String>,
) {
    let names: Vec<String> = row.iter().map(|(c, _)| format!("\"{c}\"")).collect();
    let values: Vec<String> = row
        .iter()
        .enumerate()
        .map(|(i, (c, _))| match tx {
            WriteTx::Sqlite(_) => format!("${}", i + 1),
            WriteTx::Postgres(_) => format!("CAST(${} AS {})", i + 1, types[*c]),
        })
        .collect();
    let sql = format!(
        "INSERT INTO \"{table}\" ({}) VALUES ({}) ON CONFLICT DO NOTHING",
        names.join(", "),
        values.join(", ")
    );
    macro_rules! run {
        ($tx:expr) => {{
            let mut query = sqlx::query(&sql);
            for (_, value) in row {
                query = query.bind(value.as_deref());
            }
            query
                .execute(&mut **$tx)
                .await
                .unwrap_or_else(|e| panic!("{sql}: {e}"));
        }};
    }
    match tx {
        WriteTx::Sqlite(t) => run!(t),
        WriteTx::Postgres(t) => run!(t),
    }
}
