//! Where the audit chain's secret comes from. It is never stored in the
//! database: `PITBOOK_AUDIT_KEY`, or a key file (`--audit-key-file`). With
//! the embedded SQLite default and neither configured, `serve` creates a key
//! file beside the database (0600); with PostgreSQL a key is required.

use std::io::Write;
use std::path::{Path, PathBuf};

use sqlx::Row;

use crate::domain::common::audit::AuditKey;
use crate::store::{Db, StoreError};

/// How the key was found, for the startup log.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum KeyOrigin {
    Environment,
    File(PathBuf),
    Created(PathBuf),
}

/// Whether a missing key file beside an SQLite database may be created.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MissingKey {
    /// `serve`: the first start of the embedded default creates one.
    Create,
    /// `audit …`: a new key could never verify old records.
    Refuse,
}

/// Finds the key: the environment value, then the key file, then (SQLite
/// only) the default file beside the database.
pub fn load(
    database_url: &str,
    env_key: Option<&str>,
    key_file: Option<&Path>,
    missing: MissingKey,
) -> Result<(AuditKey, KeyOrigin), StoreError> {
    let parse = |text: &str, origin: &str| {
        AuditKey::from_text(text).map_err(|e| StoreError::AuditKey(format!("{origin}: {e}")))
    };
    if let Some(text) = env_key.filter(|t| !t.trim().is_empty()) {
        return Ok((parse(text, "PITBOOK_AUDIT_KEY")?, KeyOrigin::Environment));
    }
    if let Some(path) = key_file {
        let text = std::fs::read_to_string(path).map_err(|e| {
            StoreError::AuditKey(format!("cannot read key file {}: {e}", path.display()))
        })?;
        return Ok((
            parse(&text, &path.display().to_string())?,
            KeyOrigin::File(path.to_path_buf()),
        ));
    }
    let Some(path) = default_key_path(database_url) else {
        return Err(StoreError::AuditKey(
            "no audit key: set PITBOOK_AUDIT_KEY or --audit-key-file (a PostgreSQL install keeps its key outside the database)"
                .into(),
        ));
    };
    if path.exists() {
        let text = std::fs::read_to_string(&path).map_err(|e| {
            StoreError::AuditKey(format!("cannot read key file {}: {e}", path.display()))
        })?;
        return Ok((
            parse(&text, &path.display().to_string())?,
            KeyOrigin::File(path),
        ));
    }
    match missing {
        MissingKey::Refuse => Err(StoreError::AuditKey(format!(
            "no audit key: {} does not exist; set PITBOOK_AUDIT_KEY or --audit-key-file",
            path.display()
        ))),
        MissingKey::Create => {
            let key = create_key_file(&path)?;
            Ok((key, KeyOrigin::Created(path)))
        }
    }
}

/// `sqlite:DIR/NAME.db` → `DIR/NAME.db.audit-key`; None for PostgreSQL and
/// in-memory databases.
pub fn default_key_path(database_url: &str) -> Option<PathBuf> {
    let rest = database_url.strip_prefix("sqlite:")?;
    let rest = rest.strip_prefix("//").unwrap_or(rest);
    let path = rest.split('?').next().unwrap_or(rest);
    if path.is_empty() || path.starts_with(":memory:") {
        return None;
    }
    Some(PathBuf::from(format!("{path}.audit-key")))
}

fn create_key_file(path: &Path) -> Result<AuditKey, StoreError> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes)
        .map_err(|e| StoreError::AuditKey(format!("no randomness for a new key: {e}")))?;
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(path).map_err(|e| {
        StoreError::AuditKey(format!("cannot create key file {}: {e}", path.display()))
    })?;
    file.write_all(format!("{}\n", hex::encode(bytes)).as_bytes())
        .and_then(|()| file.sync_all())
        .map_err(|e| {
            StoreError::AuditKey(format!("cannot write key file {}: {e}", path.display()))
        })?;
    AuditKey::from_bytes(&bytes).map_err(|e| StoreError::AuditKey(e.to_string()))
}

/// The database remembers the fingerprint of the key its chain was started
/// with, so a server started with the wrong key refuses instead of writing
/// records that can never verify.
pub async fn check_fingerprint(db: &Db, key: &AuditKey) -> Result<(), StoreError> {
    match stored_fingerprint(db).await? {
        Some(fp) if fp == key.fingerprint() => Ok(()),
        Some(fp) => Err(StoreError::AuditKey(format!(
            "this database's chain was written with the key of fingerprint {fp}; the configured key's is {}",
            key.fingerprint()
        ))),
        None => register(db, key).await,
    }
}

/// The fingerprint of the key the database's chain was started with; None
/// before the first start with a key (and so an empty log).
pub async fn stored_fingerprint(db: &Db) -> Result<Option<String>, StoreError> {
    let select = "SELECT value FROM pitbook_meta WHERE key = 'audit_key_fingerprint'";
    Ok(on_pool!(db, |pool| sqlx::query(select)
        .fetch_optional(pool)
        .await?
        .map(|r| r.get(0))))
}

/// The first start with a key: the fingerprint goes into the database, and
/// the registration is itself the chain's first configuration record.
async fn register(db: &Db, key: &AuditKey) -> Result<(), StoreError> {
    let insert = "INSERT INTO pitbook_meta (key, value) VALUES ('audit_key_fingerprint', $1) ON CONFLICT DO NOTHING";
    let mut tx = crate::store::begin_write(db).await?;
    let inserted = on_tx!(&mut tx, |c| sqlx::query(insert)
        .bind(key.fingerprint())
        .execute(&mut **c)
        .await?
        .rows_affected());
    if inserted == 0 {
        // Another instance registered a key first: it must be this one.
        drop(tx);
        return Box::pin(check_fingerprint(db, key)).await;
    }
    {
        let payload =
            super::canonical_json(&serde_json::json!({"fingerprint": key.fingerprint()}))?;
        let record = super::NewRecord {
            actor: "system".into(),
            table: None,
            hand: None,
            event_type: "audit_key_registered".into(),
            payload,
        };
        super::append(&mut tx, key, &[record]).await?;
    }
    tx.commit().await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_key_sits_beside_an_sqlite_file_only() {
        assert_eq!(
            default_key_path("sqlite:pitbook.db"),
            Some(PathBuf::from("pitbook.db.audit-key"))
        );
        assert_eq!(
            default_key_path("sqlite:///var/x.db?mode=rwc"),
            Some(PathBuf::from("/var/x.db.audit-key"))
        );
        assert_eq!(default_key_path("sqlite::memory:"), None);
        assert_eq!(default_key_path("postgres://h/db"), None);
    }

    #[test]
    fn a_created_key_file_is_private_and_reloads() {
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("p.db").display());
        let (key, origin) = load(&url, None, None, MissingKey::Create).unwrap();
        let KeyOrigin::Created(path) = origin else {
            panic!("created")
        };
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            assert_eq!(
                std::fs::metadata(&path).unwrap().permissions().mode() & 0o777,
                0o600
            );
        }
        let (again, origin) = load(&url, None, None, MissingKey::Refuse).unwrap();
        assert_eq!(origin, KeyOrigin::File(path));
        assert_eq!(again.fingerprint(), key.fingerprint());
    }

    #[test]
    fn postgres_without_a_key_is_refused_and_short_keys_too() {
        let err = load("postgres://h/db", None, None, MissingKey::Create).unwrap_err();
        assert!(err.to_string().contains("PITBOOK_AUDIT_KEY"), "{err}");
        let err = load("postgres://h/db", Some("short"), None, MissingKey::Create).unwrap_err();
        assert!(err.to_string().contains("at least 32 bytes"), "{err}");
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite:{}", dir.path().join("p.db").display());
        assert!(load(&url, None, None, MissingKey::Refuse).is_err());
    }
}
