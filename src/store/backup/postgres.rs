//! PostgreSQL: `pg_dump --format=custom` (one snapshot, so consistent while
//! every instance keeps writing — ours, exported, so the head printed is
//! the one the dump holds) and `pg_restore` in one transaction into an
//! empty database, then the migrations. PostgreSQL's own tools, from
//! PATH: a dump they wrote restores with them by hand too. The password
//! reaches them in `PGPASSWORD`, never on a command line `ps` shows.

use std::path::Path;

use sqlx::Row;

use super::{
    APPLIED_SQL, BackupError, Restored, Written, applied_if, chain_of, remove_partial, schema_of,
    sync_file,
};
use crate::domain::common::audit::Anchor;
use crate::domain::common::backup::{Applied, migrations_from_copy};
use crate::store::{Backend, Db, redact};

pub(super) async fn backup(url: &str, path: &Path) -> Result<Written, BackupError> {
    let db = Db::connect(url).await?;
    let Db::Postgres(pool) = &db else {
        unreachable!("a postgres:// URL opens PostgreSQL")
    };
    let dumped = dump(pool, url, path).await;
    db.close().await;
    let (applied, head, fingerprint) = dumped?;
    sync_file(path)?;
    // What was written must read back as a pitbook backup.
    archive_migrations(path)
        .await
        .map_err(|e| BackupError::Failed(format!("the dump does not read back: {e}")))?;
    Ok(Written {
        backend: Backend::Postgres,
        version: applied.iter().map(|a| a.version).max().unwrap_or(0),
        head,
        fingerprint,
    })
}

/// `pg_dump` of the snapshot this connection exports, with the migrations,
/// head and key fingerprint read in that same snapshot.
async fn dump(
    pool: &sqlx::PgPool,
    url: &str,
    path: &Path,
) -> Result<(Vec<Applied>, Option<Anchor>, Option<String>), BackupError> {
    let Some(applied) = applied(pool).await? else {
        return Err(BackupError::Refused(format!(
            "the database at {} is not a pitbook database (no migrations table)",
            redact(url)
        )));
    };
    let failed = |e: sqlx::Error| BackupError::Failed(e.to_string());
    let mut tx = pool.begin().await.map_err(failed)?;
    sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        .execute(&mut *tx)
        .await
        .map_err(failed)?;
    let snapshot: String = sqlx::query_scalar("SELECT pg_export_snapshot()")
        .fetch_one(&mut *tx)
        .await
        .map_err(failed)?;
    let head = sqlx::query("SELECT seq, hash FROM audit_log ORDER BY seq DESC LIMIT 1")
        .fetch_optional(&mut *tx)
        .await
        .map_err(failed)?
        .map(|r| Anchor {
            seq: r.get(0),
            hash: r.get(1),
        });
    let fingerprint: Option<String> =
        sqlx::query_scalar("SELECT value FROM pitbook_meta WHERE key = 'audit_key_fingerprint'")
            .fetch_optional(&mut *tx)
            .await
            .map_err(failed)?;
    let (url_alone, password) = split_password(url);
    let mut args = vec!["--format=custom".into(), "--no-password".into()];
    args.push(format!("--snapshot={snapshot}").into());
    args.extend(["--file".into(), path.as_os_str().to_owned()]);
    args.extend(["--dbname".into(), url_alone.into()]);
    let dumped = run("pg_dump", &args, password.as_deref()).await;
    // The snapshot lives as long as this transaction: it ends only now.
    let _ = tx.rollback().await;
    if let Err(e) = dumped {
        remove_partial(path);
        return Err(e);
    }
    Ok((applied, head, fingerprint))
}

pub(super) async fn restore(backup: &Path, url: &str) -> Result<Restored, BackupError> {
    let applied = archive_migrations(backup).await?;
    let schema = schema_of(Backend::Postgres, &applied, backup)?;
    let db = Db::connect(url).await?;
    let Db::Postgres(pool) = &db else {
        unreachable!("a postgres:// URL opens PostgreSQL")
    };
    // Any table, index, sequence or view outside PostgreSQL's own schemas.
    let relations: Result<i64, sqlx::Error> = sqlx::query_scalar(
        "SELECT COUNT(*) FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace \
         WHERE n.nspname NOT IN ('pg_catalog', 'information_schema') \
         AND n.nspname NOT LIKE 'pg\\_toast%' AND n.nspname NOT LIKE 'pg\\_temp%'",
    )
    .fetch_one(pool)
    .await;
    db.close().await;
    let relations = relations.map_err(|e| BackupError::Failed(e.to_string()))?;
    if relations > 0 {
        return Err(BackupError::Refused(format!(
            "the database at {} is not empty ({relations} tables, indexes or sequences): \
             restore into a new, empty database (createdb)",
            redact(url)
        )));
    }
    let (url_alone, password) = split_password(url);
    let args = [
        "--no-owner",
        "--no-acl",
        "--single-transaction",
        "--exit-on-error",
        "--no-password",
        "--dbname",
        url_alone.as_str(),
    ]
    .map(Into::into)
    .into_iter()
    .chain([backup.as_os_str().to_owned()])
    .collect::<Vec<_>>();
    run("pg_restore", &args, password.as_deref())
        .await
        .map_err(|e| BackupError::Failed(format!("{e} (one transaction: nothing was restored)")))?;
    let db = Db::open(url).await.map_err(|e| {
        BackupError::Failed(format!(
            "the backup was restored but migrating it failed: {e}"
        ))
    })?;
    let chain = chain_of(&db).await;
    db.close().await;
    let (head, fingerprint) = chain?;
    Ok(Restored {
        backend: Backend::Postgres,
        schema,
        version: super::newest_version(Backend::Postgres),
        head,
        fingerprint,
    })
}

/// The migrations table's rows; None when the database has none.
async fn applied(pool: &sqlx::PgPool) -> Result<Option<Vec<Applied>>, BackupError> {
    let failed = |e: sqlx::Error| BackupError::Failed(e.to_string());
    let exists: bool = sqlx::query_scalar("SELECT to_regclass('_sqlx_migrations') IS NOT NULL")
        .fetch_one(pool)
        .await
        .map_err(failed)?;
    applied_if(exists, sqlx::query_as(APPLIED_SQL).fetch_all(pool)).await
}

/// The migrations table as a custom-format archive holds it, read without
/// restoring anything; an archive without one is not a pitbook backup.
async fn archive_migrations(path: &Path) -> Result<Vec<Applied>, BackupError> {
    let args = ["--data-only", "--table=_sqlx_migrations", "--file=-"]
        .map(Into::into)
        .into_iter()
        .chain([path.as_os_str().to_owned()])
        .collect::<Vec<_>>();
    let script = run("pg_restore", &args, None).await.map_err(|e| match e {
        BackupError::Failed(m) if !m.starts_with("cannot run") => BackupError::Refused(format!(
            "{} is not a pg_dump archive pg_restore can read: {m}",
            path.display()
        )),
        other => other,
    })?;
    match migrations_from_copy(&script) {
        Some(Ok(rows)) => Ok(rows),
        Some(Err(e)) => Err(BackupError::Refused(format!(
            "{}: its migrations table does not read: {e}",
            path.display()
        ))),
        None => Err(BackupError::Refused(format!(
            "{} is not a pitbook backup (a pg_dump archive without pitbook's migrations table)",
            path.display()
        ))),
    }
}

/// Runs a PostgreSQL client tool; its stdout on success, its stderr as the
/// failure.
async fn run(
    tool: &str,
    args: &[std::ffi::OsString],
    password: Option<&str>,
) -> Result<String, BackupError> {
    let mut command = tokio::process::Command::new(tool);
    command.args(args).stdin(std::process::Stdio::null());
    if let Some(password) = password {
        command.env("PGPASSWORD", password);
    }
    let out = command.output().await.map_err(|e| {
        BackupError::Failed(format!(
            "cannot run {tool}: {e} (install PostgreSQL's client tools, the server's major \
             version or newer, or follow deploy/README.md \"Backups\")"
        ))
    })?;
    if out.status.success() {
        return Ok(String::from_utf8_lossy(&out.stdout).into_owned());
    }
    let stderr = String::from_utf8_lossy(&out.stderr);
    Err(BackupError::Failed(format!(
        "{tool} failed ({}): {}",
        out.status,
        stderr.trim()
    )))
}

/// The URL without its password, and the password (percent-decoded) for
/// `PGPASSWORD`.
fn split_password(url: &str) -> (String, Option<String>) {
    let Some(scheme_end) = url.find("://").map(|i| i + 3) else {
        return (url.to_string(), None);
    };
    let rest = &url[scheme_end..];
    let authority = &rest[..rest.find(['/', '?']).unwrap_or(rest.len())];
    let Some(at) = authority.rfind('@') else {
        return (url.to_string(), None);
    };
    let Some((user, password)) = authority[..at].split_once(':') else {
        return (url.to_string(), None);
    };
    let alone = format!("{}{user}{}", &url[..scheme_end], &rest[at..]);
    (alone, Some(percent_decode(password)))
}

fn percent_decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = bytes
            .get(i + 1..i + 3)
            .filter(|h| bytes[i] == b'%' && h.iter().all(u8::is_ascii_hexdigit))
            .and_then(|h| u8::from_str_radix(std::str::from_utf8(h).ok()?, 16).ok());
        match hex {
            Some(byte) => {
                out.push(byte);
                i += 3;
            }
            None => {
                out.push(bytes[i]);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::split_password;

    #[test]
    fn the_password_leaves_the_url_decoded() {
        assert_eq!(
            split_password("postgres://app:p%40ss%2Fw@db.example:5432/pitbook?sslmode=require"),
            (
                "postgres://app@db.example:5432/pitbook?sslmode=require".to_string(),
                Some("p@ss/w".to_string())
            )
        );
        assert_eq!(
            split_password("postgres://app@h/db"),
            ("postgres://app@h/db".to_string(), None)
        );
        assert_eq!(
            split_password("postgres://h/db?user=a@b"),
            ("postgres://h/db?user=a@b".to_string(), None)
        );
    }
}
