//! The anchor log: the chain's head written outside the database, one line
//! per anchor, `TIME SEQ:HASH` (RFC 3339 UTC, then the head as
//! `pitbook audit anchor` prints it). `serve` appends to it at start, every
//! `--anchor-interval-mins` while the head moves, and at shutdown;
//! `audit verify` checks the chain against every line (docs/audit.md,
//! deploy/README.md "Anchors off the machine").

use std::io::Write;
use std::path::{Path, PathBuf};

use chrono::{DateTime, SecondsFormat, Utc};
use tokio::sync::Mutex;

use super::CliError;
use super::store_args::StoreArgs;
use crate::domain::common::audit::{Anchor, AnchorCheck};
use crate::store::{Db, audit, verify};

/// Where the anchor log is when no `--anchor-log` names it: beside the
/// audit key file (`X.audit-key` → `X.anchors`, any other key file `K` →
/// `K.anchors`) — the SQLite default key's place (`pitbook.db.anchors`)
/// when no key file is named — else `pitbook.anchors` in the working
/// directory (PostgreSQL with the key in the environment).
pub fn default_path(store: &StoreArgs) -> PathBuf {
    let key_file = store
        .audit_key_file
        .clone()
        .or_else(|| audit::key::default_key_path(&store.database_url));
    match key_file {
        Some(key) => {
            let text = key.to_string_lossy();
            match text.strip_suffix(".audit-key") {
                Some(stem) => PathBuf::from(format!("{stem}.anchors")),
                None => PathBuf::from(format!("{text}.anchors")),
            }
        }
        None => PathBuf::from("pitbook.anchors"),
    }
}

/// One line of the log, `2026-12-01T09:30:00Z 28:5d1f…`.
pub fn line(time: DateTime<Utc>, anchor: &Anchor) -> String {
    format!(
        "{} {anchor}",
        time.to_rfc3339_opts(SecondsFormat::Secs, true)
    )
}

/// Reads a line back: its time and anchor, or what is wrong with it.
pub fn parse_line(text: &str) -> Result<(DateTime<Utc>, Anchor), String> {
    let (time, anchor) = text
        .split_once(' ')
        .ok_or_else(|| format!("\"{text}\" is not TIME SEQ:HASH"))?;
    let time = DateTime::parse_from_rfc3339(time)
        .map_err(|_| format!("\"{time}\" is not an RFC 3339 time"))?
        .with_timezone(&Utc);
    let anchor = Anchor::parse(anchor.trim()).ok_or_else(|| {
        format!("\"{anchor}\" is not SEQ:HASH (a sequence number ≥ 1 and 64 hex characters)")
    })?;
    Ok((time, anchor))
}

/// Every anchor of the log at `path`, each named by its line
/// (`pitbook.db.anchors line 3`). Blank lines are skipped; any other line
/// that does not parse fails verification (the log was edited).
pub fn read(path: &Path) -> Result<Vec<AnchorCheck>, CliError> {
    let text = std::fs::read_to_string(path).map_err(|e| {
        CliError::Failure(format!(
            "cannot read the anchor log {}: {e}",
            path.display()
        ))
    })?;
    let mut anchors = Vec::new();
    for (i, text) in text.lines().enumerate() {
        if text.trim().is_empty() {
            continue;
        }
        let origin = format!("{} line {}", path.display(), i + 1);
        let (_, anchor) =
            parse_line(text).map_err(|e| CliError::Verification(format!("{origin}: {e}")))?;
        anchors.push(AnchorCheck { anchor, origin });
    }
    Ok(anchors)
}

/// `serve`'s writer: appends the head when it moved since its last line.
pub struct AnchorWriter {
    path: PathBuf,
    last: Mutex<Option<Anchor>>,
}

impl AnchorWriter {
    pub fn new(path: PathBuf) -> AnchorWriter {
        AnchorWriter {
            path,
            last: Mutex::new(None),
        }
    }

    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Appends the chain's head unless it is the one this writer appended
    /// last (the first call always appends). Returns the anchor appended.
    pub async fn append_head(&self, db: &Db) -> Result<Option<Anchor>, String> {
        let mut last = self.last.lock().await;
        let head = verify::anchor(db)
            .await
            .map_err(|e| format!("reading the chain's head: {e}"))?;
        let Some(head) = head else {
            return Ok(None);
        };
        if last.as_ref() == Some(&head) {
            return Ok(None);
        }
        let text = format!("{}\n", line(Utc::now(), &head));
        let path = self.path.clone();
        tokio::task::spawn_blocking(move || append(&path, &text))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| {
                format!(
                    "cannot append to the anchor log {}: {e}",
                    self.path.display()
                )
            })?;
        tracing::info!(anchor = %head, path = %self.path.display(), "anchor appended");
        *last = Some(head.clone());
        Ok(Some(head))
    }
}

/// One line, appended in one write and flushed to the disk.
fn append(path: &Path, text: &str) -> std::io::Result<()> {
    let mut file = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)?;
    file.write_all(text.as_bytes())?;
    file.sync_data()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn store(url: &str, key_file: Option<&str>) -> StoreArgs {
        StoreArgs {
            database_url: url.to_string(),
            audit_key_file: key_file.map(PathBuf::from),
        }
    }

    #[test]
    fn the_default_is_beside_the_key() {
        let path = |url, key| default_path(&store(url, key));
        assert_eq!(
            path("sqlite:/var/lib/pitbook/pitbook.db", None),
            PathBuf::from("/var/lib/pitbook/pitbook.db.anchors")
        );
        assert_eq!(
            path("sqlite:p.db", Some("/srv/keys/p.audit-key")),
            PathBuf::from("/srv/keys/p.anchors")
        );
        assert_eq!(
            path("postgres://db/pitbook", Some("/srv/keys/key.hex")),
            PathBuf::from("/srv/keys/key.hex.anchors")
        );
        assert_eq!(
            path("postgres://db/pitbook", None),
            PathBuf::from("pitbook.anchors")
        );
    }

    #[test]
    fn lines_read_back() {
        let anchor = Anchor {
            seq: 28,
            hash: "ab".repeat(32),
        };
        let time = DateTime::parse_from_rfc3339("2026-12-01T09:30:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let text = line(time, &anchor);
        assert_eq!(text, format!("2026-12-01T09:30:00Z 28:{}", "ab".repeat(32)));
        assert_eq!(parse_line(&text), Ok((time, anchor)));
        for bad in [
            "",
            "28:abcd",
            "yesterday 28:abababab",
            &format!("2026-12-01T09:30:00Z 0:{}", "ab".repeat(32)),
            &format!("2026-12-01T09:30:00Z 28:{}", "zz".repeat(32)),
        ] {
            assert!(parse_line(bad).is_err(), "{bad:?}");
        }
    }

    #[test]
    fn a_log_names_each_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a.anchors");
        let good = format!("2026-12-01T09:30:00Z 3:{}", "ab".repeat(32));
        std::fs::write(&path, format!("{good}\n\n{good}\n")).unwrap();
        let anchors = read(&path).unwrap();
        assert_eq!(anchors.len(), 2);
        assert!(
            anchors[1].origin.ends_with("a.anchors line 3"),
            "{:?}",
            anchors[1]
        );
        std::fs::write(&path, format!("{good}\n3:{}\n", "ab".repeat(32))).unwrap();
        match read(&path) {
            Err(CliError::Verification(m)) => assert!(m.contains("line 2"), "{m}"),
            other => panic!("{other:?}"),
        }
    }
}
