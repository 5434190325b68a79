//! Upgrades from every earlier schema: the migrations applied one at a
//! time, each step's schema holding what pitbook wrote at it, then the
//! chain over all of it verifies with the test key; and a database whose
//! schema this binary does not know is refused (exit 2) and left as it was.
//!
//! What each step holds: step 1 (`pitbook_meta`) only its own row; step 2
//! (the audit log) the key's registration, the chain's first record; every
//! step from 3 (staff accounts) on one more account and its `user_added`
//! record, through the app's own store functions, whose statements touch
//! only `pitbook_meta`, `audit_log` and `staff_users`, tables no later
//! migration alters; and every step from 5 (card tables) on a table of its
//! own with three hands — closed and corrected, voided, open — copied from
//! ones the app wrote at the newest schema, each row with the columns that
//! step's schema has (upgrade_template.rs). After the last migration each
//! copied row must be the app's own again, and the chain verifies.

use crate::common::{Backend, TEST_KEY_HEX, TestDb, scalar_i64, test_key, verify_split_every_way};
use crate::upgrade_template::{Copy, Template, columns, read_rows};
use pitbook::domain::staff::Role;
use pitbook::store::{self, Db};
use sqlx::Row;

/// The migration that creates `card_tables`: hands are written from its
/// step on (a hand's table is recorded by then).
const FIRST_WITH_CARD_TABLES: i64 = 5;

const ROLES: [Role; 5] = [
    Role::Admin,
    Role::Supervisor,
    Role::Dealer,
    Role::Trainee,
    Role::Auditor,
];

/// The backend's first `n` migrations, as a database of that age has them.
fn first(backend: store::Backend, n: usize) -> sqlx::migrate::Migrator {
    let mut migrator = store::migrator(backend);
    migrator.migrations = migrator.migrations[..n].to_vec().into();
    migrator
}

fn store_backend(backend: Backend) -> store::Backend {
    match backend {
        Backend::Sqlite => store::Backend::Sqlite,
        Backend::Postgres => store::Backend::Postgres,
    }
}

/// The migrations before `version`, as a database written before it has them.
pub(crate) fn migrations_before(backend: Backend, version: i64) -> sqlx::migrate::Migrator {
    let mut migrator = store::migrator(store_backend(backend));
    migrator.migrations = migrator
        .migrations
        .iter()
        .filter(|m| m.version < version)
        .cloned()
        .collect::<Vec<_>>()
        .into();
    migrator
}

/// `_sqlx_migrations` as (version, checksum, success), in version order.
async fn migrations_table(db: &Db) -> Vec<(i64, Vec<u8>, bool)> {
    let sql = "SELECT version, checksum, success FROM _sqlx_migrations ORDER BY version";
    macro_rules! rows {
        ($pool:expr) => {
            sqlx::query(sql)
                .fetch_all($pool)
                .await
                .expect("migrations table")
                .iter()
                .map(|r| (r.get(0), r.get(1), r.get(2)))
                .collect()
        };
    }
    match db {
        Db::Sqlite(pool) => rows!(pool),
        Db::Postgres(pool) => rows!(pool),
    }
}

async fn execute(db: &Db, sql: &str, bytes: Vec<u8>) {
    match db {
        Db::Sqlite(pool) => sqlx::query(sql).bind(bytes).execute(pool).await.map(drop),
        Db::Postgres(pool) => sqlx::query(sql).bind(bytes).execute(pool).await.map(drop),
    }
    .expect(sql)
}

/// `pitbook ARGS --database-url URL` with the test key.
fn run(args: &[&str], url: &str) -> (i32, String, String) {
    let out = std::process::Command::new(crate::common::cli::BIN)
        .args(args)
        .args(["--database-url", url])
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .env_remove("RUST_LOG")
        .output()
        .expect("run pitbook");
    (
        out.status.code().expect("exit code"),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

async fn every_earlier_schema_upgrades_and_its_chain_verifies(backend: Backend) {
    let test_db = TestDb::unmigrated(backend).await;
    let db = &test_db.db;
    let key = test_key();
    let all = store::migrator(store_backend(backend));
    let versions: Vec<i64> = all.migrations.iter().map(|m| m.version).collect();
    assert!(versions.len() >= 3, "{versions:?}");
    let template = Template::make(backend).await;

    let mut usernames = Vec::new();
    let mut copies: Vec<Copy> = Vec::new();
    for (i, &version) in versions.iter().enumerate() {
        let step = first(store_backend(backend), i + 1);
        match db {
            Db::Sqlite(pool) => step.run(pool).await,
            Db::Postgres(pool) => step.run(pool).await,
        }
        .unwrap_or_else(|e| panic!("migration {version}: {e}"));
        assert_eq!(migrations_table(db).await.len(), i + 1, "after {version}");
        match version {
            1 => {}
            // The first start with a key registers it: the chain's seq 1.
            2 => store::audit::key::check_fingerprint(db, &key)
                .await
                .expect("register the key"),
            _ => {
                let username = format!("staff{version:04}");
                let role = ROLES[usernames.len() % ROLES.len()];
                store::staff::add_user(
                    db,
                    &key,
                    "admin",
                    &username,
                    role,
                    "correct horse battery staple",
                    false,
                )
                .await
                .unwrap_or_else(|e| panic!("an account at {version}: {e:?}"));
                usernames.push(username);
                if version >= FIRST_WITH_CARD_TABLES {
                    copies.push(template.copy_into(db, &key, version).await);
                }
            }
        }
    }

    // Opening it as the server does finds nothing left to apply.
    let before = migrations_table(db).await;
    let opened = Db::open(&test_db.url).await.expect("open");
    assert_eq!(migrations_table(&opened).await, before);
    opened.close().await;

    // What the migrations and the backfill made of each copy is what the
    // app wrote.
    for table in template.tables() {
        let newest: Vec<String> = columns(db, &table).await.into_keys().collect();
        let (upgraded, expected) = (
            read_rows(db, &table, &newest).await,
            Copy::expected(&copies, &template, &table),
        );
        assert_eq!(upgraded.len(), expected.len(), "{table}: rows");
        for (got, want) in upgraded.iter().zip(&expected) {
            let differing: Vec<_> = want
                .iter()
                .filter(|(column, value)| got.get(*column) != Some(value))
                .map(|(column, value)| (column, value, got.get(column)))
                .collect();
            assert!(
                differing.is_empty(),
                "{table}: (column, the app's, upgraded) {differing:?} in {want:?}"
            );
        }
    }

    let records = 1 + (usernames.len() + copies.len() * template.record_count()) as i64;
    assert_eq!(
        scalar_i64(db, "SELECT COUNT(*) FROM audit_log").await,
        records
    );
    assert_eq!(
        scalar_i64(db, "SELECT COUNT(*) FROM staff_users").await,
        usernames.len() as i64
    );
    let report = verify_split_every_way(db, &key, 1, Vec::new()).await;
    assert_eq!(report.problem, None, "{report:?}");
    assert_eq!(report.count, records as u64);

    let (code, out, err) = run(&["audit", "verify"], &test_db.url);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!("OK: {records} records verified")),
        "{out}"
    );
}

/// What a refusal must leave as it was: the migrations table and the log.
async fn snapshot(db: &Db) -> (Vec<(i64, Vec<u8>, bool)>, i64) {
    (
        migrations_table(db).await,
        scalar_i64(db, "SELECT COUNT(*) FROM audit_log").await,
    )
}

/// `serve` refuses in the same open as `audit verify`, before it binds
/// (port 0, so a regression could not collide with another test's server).
fn refused(url: &str, needle: &str) {
    for args in [
        &["audit", "verify"][..],
        &["serve", "--bind", "127.0.0.1:0"],
    ] {
        refused_by(args, url, needle);
    }
}

fn refused_by(args: &[&str], url: &str, needle: &str) {
    let (code, out, err) = run(args, url);
    assert_eq!(code, 2, "{args:?}: {out}{err}");
    assert_eq!(out, "");
    // The message is one line, the last (PostgreSQL's notices are logged before it).
    let last = err.lines().last().unwrap_or_default();
    assert!(last.starts_with("error: "), "{err}");
    assert!(last.contains(needle), "{err}");
    assert!(last.contains("nothing was changed"), "{err}");
}

async fn a_newer_or_modified_schema_is_refused_and_left_unchanged(backend: Backend) {
    let key = test_key();

    // A migration this binary never had, as a newer pitbook leaves it.
    let newer = TestDb::new(backend).await;
    store::audit::key::check_fingerprint(&newer.db, &key)
        .await
        .expect("register the key");
    execute(
        &newer.db,
        "INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) \
         VALUES (9999, 'from a newer pitbook', TRUE, $1, 0)",
        vec![7; 48],
    )
    .await;
    let before = snapshot(&newer.db).await;
    refused(
        &newer.url,
        "schema has migration 9999, which this pitbook does not know",
    );
    assert_eq!(snapshot(&newer.db).await, before);

    // A migration this binary has, applied from different SQL.
    let modified = TestDb::new(backend).await;
    store::audit::key::check_fingerprint(&modified.db, &key)
        .await
        .expect("register the key");
    execute(
        &modified.db,
        "UPDATE _sqlx_migrations SET checksum = $1 WHERE version = 5",
        vec![7; 48],
    )
    .await;
    let before = snapshot(&modified.db).await;
    refused(&modified.url, "migration 5 differs from this pitbook's");
    assert_eq!(snapshot(&modified.db).await, before);
}

on_both_databases!(
    every_earlier_schema_upgrades_and_its_chain_verifies,
    a_newer_or_modified_schema_is_refused_and_left_unchanged
);
