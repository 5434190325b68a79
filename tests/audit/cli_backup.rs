//! `pitbook backup` and `pitbook restore`, the real binary on both
//! databases: a backup taken while the server records hands restores into
//! an empty database and verifies with the same key; an older schema is
//! migrated forward; every refusal exits 2 and changes nothing.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use crate::audit_tamper::whole_hand;
use crate::common::cli::{bad, pitbook};
use crate::common::{Backend, TEST_KEY_HEX, TestDb, spawn_app, test_key};
use pitbook::domain::common::audit::Anchor;
use pitbook::store::Db;
use pitbook::store::audit::key::check_fingerprint;
use pitbook::store::verify;

/// The key in a file, as `--audit-key-file` names it.
fn key_file(dir: &Path) -> String {
    let path = dir.join("pitbook.audit-key");
    std::fs::write(&path, format!("{TEST_KEY_HEX}\n")).expect("key file");
    path.display().to_string()
}

fn backup_file(dir: &Path, backend: Backend) -> String {
    let name = match backend {
        Backend::Sqlite => "backup.db",
        Backend::Postgres => "backup.dump",
    };
    dir.join(name).display().to_string()
}

/// An empty database to restore into: a new SQLite file's URL (nothing
/// there yet), or a new PostgreSQL database with no table.
async fn empty_target(backend: Backend, dir: &Path) -> (String, Option<TestDb>) {
    match backend {
        Backend::Sqlite => {
            let url = format!("sqlite:{}", dir.join("restored.db").display());
            (url, None)
        }
        Backend::Postgres => {
            let db = TestDb::unmigrated(Backend::Postgres).await;
            (db.url.clone(), Some(db))
        }
    }
}

/// Whether the restore target still holds nothing: no SQLite file, or no
/// relation in the PostgreSQL database.
async fn still_empty(url: &str, target: &Option<TestDb>) -> bool {
    match target {
        None => !Path::new(url.trim_start_matches("sqlite:")).exists(),
        Some(db) => {
            let Db::Postgres(pool) = &db.db else {
                unreachable!()
            };
            let sql = "SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
                       WHERE n.nspname = 'public'";
            let n: i64 = sqlx::query_scalar(sql)
                .fetch_one(pool)
                .await
                .expect("count");
            n == 0
        }
    }
}

/// The `SEQ:HASH` after "audit chain head " in a command's output.
fn printed_head(out: &str) -> Anchor {
    let after = out.split("audit chain head ").nth(1).expect("a head");
    let text = after.split_whitespace().next().expect("SEQ:HASH");
    Anchor::parse(text.trim_end_matches(',')).unwrap_or_else(|| panic!("{text}"))
}

async fn head(db: &Db) -> Anchor {
    verify::anchor(db).await.expect("head").expect("records")
}

async fn a_backup_taken_while_serving_restores_and_verifies(backend: Backend) {
    let app = spawn_app(backend).await;
    // As `serve` does at its first start: the key's fingerprint (seq 3).
    check_fingerprint(&app.database.db, &test_key())
        .await
        .expect("key registered");
    app.configured_table("T1", false).await; // seq 4; each hand then 9 records
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path());
    let backup = backup_file(dir.path(), backend);

    // A writer records whole hands until told to stop, then one more, so
    // hands are written before, during and after the backup.
    let stop = Arc::new(AtomicBool::new(false));
    let (started, on_started) = tokio::sync::oneshot::channel();
    let writer = {
        let (client, url, stop) = (app.client.clone(), app.url("/api/v1/hands"), stop.clone());
        tokio::spawn(async move {
            let (mut started, mut hands) = (Some(started), 0);
            loop {
                let last = stop.load(Ordering::SeqCst);
                let r = client.post(&url).json(&whole_hand()).send().await;
                assert_eq!(r.expect("post").status().as_u16(), 201);
                hands += 1;
                if hands == 3 {
                    let _ = started.take().map(|s| s.send(()));
                }
                if last {
                    return hands;
                }
            }
        })
    };
    on_started.await.expect("three hands before the backup");
    let before = head(&app.database.db).await;
    // On a blocking thread: the server and the writer keep running meanwhile.
    let args = ["backup", &backup, "--database-url", &app.database.url];
    let args = [&args[..], &["--audit-key-file", &key]].concat();
    let args: Vec<String> = args.into_iter().map(String::from).collect();
    let (code, out, err) = tokio::task::spawn_blocking(move || {
        pitbook(&args.iter().map(String::as_str).collect::<Vec<_>>())
    })
    .await
    .expect("backup ran");
    stop.store(true, Ordering::SeqCst);
    let hands = writer.await.expect("writer");
    let after = head(&app.database.db).await;
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!("backup written: {backup} (")),
        "{out}"
    );
    // The key custody reminder names the key file and its fingerprint, never the key.
    assert!(out.contains(&format!("the key file {key}")), "{out}");
    assert!(out.contains(test_key().fingerprint()), "{out}");
    assert!(out.contains("not in the backup"), "{out}");
    assert!(!out.contains(TEST_KEY_HEX) && !err.contains(TEST_KEY_HEX));

    // The backup is one moment of the log: at or after the head before it
    // began, before the hand written after it ended, and whole hands only.
    let backed_up = printed_head(&out);
    assert!(
        before.seq <= backed_up.seq && backed_up.seq < after.seq,
        "{before} ≤ {backed_up} < {after} ({hands} hands)"
    );
    assert_eq!((backed_up.seq - 4) % 9, 0, "whole hands: {backed_up}");

    let (target, _target_db) = empty_target(backend, dir.path()).await;
    let (code, out, err) = pitbook(&[
        "restore",
        &backup,
        "--database-url",
        &target,
        "--audit-key-file",
        &key,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.starts_with(&format!("restored {backup} into ")),
        "{out}"
    );
    assert_eq!(printed_head(&out), backed_up);
    assert!(out.contains("next: pitbook audit verify"), "{out}");
    assert!(out.contains(&format!("--anchor {backed_up}")), "{out}");
    assert!(out.contains(&format!("the key file {key}")), "{out}");

    let (code, out, err) = pitbook(&[
        "audit",
        "verify",
        "--database-url",
        &target,
        "--audit-key-file",
        &key,
        "--anchor",
        &backed_up.to_string(),
    ]);
    assert_eq!(code, 0, "{out}{err}");
    let hands_backed_up = (backed_up.seq - 4) / 9;
    assert!(
        out.starts_with(&format!(
            "OK: {} records verified, {hands_backed_up} settlements recomputed",
            backed_up.seq
        )),
        "{out}"
    );
    assert!(out.contains("1 of 1 anchors checked"), "{out}");
}

/// Migrations up to the one before this binary's newest, as a database
/// an earlier pitbook wrote has them.
async fn migrate_all_but_the_last(db: &Db, backend: Backend) -> i64 {
    let mut migrator = pitbook::store::migrator(match backend {
        Backend::Sqlite => pitbook::store::Backend::Sqlite,
        Backend::Postgres => pitbook::store::Backend::Postgres,
    });
    let newest = migrator.migrations.last().expect("migrations").version;
    let earlier: Vec<_> = migrator.migrations[..migrator.migrations.len() - 1].to_vec();
    migrator.migrations = earlier.into();
    match db {
        Db::Sqlite(pool) => migrator.run(pool).await,
        Db::Postgres(pool) => migrator.run(pool).await,
    }
    .expect("earlier migrations");
    newest
}

async fn an_older_backup_is_migrated_forward(backend: Backend) {
    let old = TestDb::unmigrated(backend).await;
    let newest = migrate_all_but_the_last(&old.db, backend).await;
    check_fingerprint(&old.db, &test_key())
        .await
        .expect("a record under the old schema");
    let dir = tempfile::tempdir().unwrap();
    let key = key_file(dir.path());
    let backup = backup_file(dir.path(), backend);
    let (code, out, err) = pitbook(&["backup", &backup, "--database-url", &old.url]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!("schema version {}", newest - 1)),
        "{out}"
    );

    let (target, _target_db) = empty_target(backend, dir.path()).await;
    let (code, out, err) = pitbook(&["restore", &backup, "--database-url", &target]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(
        out.contains(&format!(
            "schema version {}, migrated to {newest} (1 migration)",
            newest - 1
        )),
        "{out}"
    );
    // No key configured for the target: the restore says which one it needs.
    assert!(
        out.contains(&format!(
            "with the key of fingerprint {}",
            test_key().fingerprint()
        )),
        "{out}"
    );
    let (code, out, err) = pitbook(&[
        "audit",
        "verify",
        "--database-url",
        &target,
        "--audit-key-file",
        &key,
    ]);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("OK: 1 records verified"), "{out}");
}

async fn refusals_exit_2_and_change_nothing(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let (status, body, _) = app.post_json("/api/v1/hands", &whole_hand()).await;
    assert_eq!(status, 201, "{body}");
    let dir = tempfile::tempdir().unwrap();
    let backup = backup_file(dir.path(), backend);
    let source = app.database.url.clone();
    let (code, out, err) = pitbook(&["backup", &backup, "--database-url", &source]);
    assert_eq!(code, 0, "{out}{err}");

    // A backup never overwrites a file.
    let written = std::fs::read(&backup).expect("backup");
    bad(
        &["backup", &backup, "--database-url", &source],
        "already exists",
    );
    assert_eq!(std::fs::read(&backup).expect("backup"), written);

    // Into a database that is not empty: the live one.
    let live_head = head(&app.database.db).await;
    bad(
        &["restore", &backup, "--database-url", &source],
        "is not empty",
    );
    assert_eq!(head(&app.database.db).await, live_head);

    let (target, target_db) = empty_target(backend, dir.path()).await;
    let mut refused = Vec::new();
    let text = dir.path().join("notes.txt");
    std::fs::write(&text, "not a backup\n").unwrap();
    refused.push((text, "is not a pitbook backup"));
    // An SQLite database that is not pitbook's.
    let other = dir.path().join("other.db");
    let options = sqlx::sqlite::SqliteConnectOptions::new()
        .filename(&other)
        .create_if_missing(true);
    let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
    sqlx::query("CREATE TABLE recipes (name TEXT)")
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    match backend {
        Backend::Sqlite => {
            refused.push((other, "without pitbook's migrations table"));
            let dump = dir.path().join("pitbook.dump");
            std::fs::write(&dump, b"PGDMP\x01\x0e\x00 rest of an archive").unwrap();
            refused.push((dump, "is a pg_dump archive"));
        }
        Backend::Postgres => {
            refused.push((other, "is an SQLite database"));
            // A real archive, of a database that is not pitbook's.
            let dump = dir.path().join("empty.dump");
            let status = std::process::Command::new("pg_dump")
                .args(["--format=custom", "--file"])
                .arg(&dump)
                .args(["--dbname", &target])
                .status()
                .expect("pg_dump");
            assert!(status.success());
            refused.push((dump, "without pitbook's migrations table"));
        }
    }
    // A backup from a newer pitbook: one migration more than this one knows.
    let newer = dir.path().join(match backend {
        Backend::Sqlite => "newer.db",
        Backend::Postgres => "newer.dump",
    });
    let add_migration = "INSERT INTO _sqlx_migrations \
        (version, description, success, checksum, execution_time) \
        VALUES (99999, 'from the future', TRUE, X'00', 1)";
    match &app.database.db {
        Db::Sqlite(_) => {
            std::fs::copy(&backup, &newer).unwrap();
            let options = sqlx::sqlite::SqliteConnectOptions::new().filename(&newer);
            let pool = sqlx::SqlitePool::connect_with(options).await.unwrap();
            sqlx::query(add_migration).execute(&pool).await.unwrap();
            pool.close().await;
        }
        Db::Postgres(pool) => {
            let add = add_migration.replace("X'00'", "'\\x00'::bytea");
            sqlx::query(&add).execute(pool).await.unwrap();
            let newer = newer.display().to_string();
            let (code, out, err) = pitbook(&["backup", &newer, "--database-url", &source]);
            assert_eq!(code, 0, "{out}{err}");
        }
    }
    refused.push((newer, "newer than this pitbook's"));

    for (file, needle) in &refused {
        let file = file.display().to_string();
        bad(&["restore", &file, "--database-url", &target], needle);
        assert!(still_empty(&target, &target_db).await, "{file}");
    }
    bad(
        &["restore", "no-such-backup.db", "--database-url", &target],
        "cannot read backup",
    );
    assert!(still_empty(&target, &target_db).await);
}

on_both_databases!(
    a_backup_taken_while_serving_restores_and_verifies,
    an_older_backup_is_migrated_forward,
    refusals_exit_2_and_change_nothing,
);
