//! The house-way files this user's pitbook has checked (docs/house-ways.md,
//! "A table's house way"): `--house-way FILE` checks a file over every hand
//! pattern the first time, and keeps its SHA-256 here, so the next use of
//! the same text loads in milliseconds. A changed file has a new digest and
//! is checked again; so is every file after an upgrade, the pitbook version
//! being part of what is kept.
//!
//! The list is one line per file, `house-way-check VERSION SHA256`, in
//! `$PITBOOK_CACHE_DIR/house-ways-checked` (else `$XDG_CACHE_HOME/pitbook/`,
//! else `$HOME/.cache/pitbook/`). It only saves time: when it cannot be
//! read or written the file is checked as if it were not there.

use std::io::Write;
use std::path::PathBuf;

use crate::domain::double_hand_poker::house_way::loaded::{
    LoadError, full_digest_of, register, register_checked,
};
use crate::domain::double_hand_poker::options::HouseWayName;

const FILE_NAME: &str = "house-ways-checked";
/// Lines kept: past it the oldest half is dropped.
const LINES_MAX: usize = 1000;

/// Checks and holds a house-way file's text, skipping the check over every
/// hand pattern when this text passed it before; a file that passes is
/// kept in the list.
pub fn load(text: &str) -> Result<HouseWayName, LoadError> {
    let key = key_of(text);
    let path = list_path();
    let known = path.as_ref().is_some_and(|p| lines(p).contains(&key));
    if known {
        return register_checked(text);
    }
    let name = register(text)?;
    if let Some(path) = path {
        remember(&path, &key);
    }
    Ok(name)
}

/// What the list keeps for a text: this pitbook's version and its digest.
fn key_of(text: &str) -> String {
    format!(
        "house-way-check {} {}",
        env!("CARGO_PKG_VERSION"),
        full_digest_of(text)
    )
}

fn list_path() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    let dir = var("PITBOOK_CACHE_DIR")
        .map(PathBuf::from)
        .or_else(|| var("XDG_CACHE_HOME").map(|d| PathBuf::from(d).join("pitbook")))
        .or_else(|| var("HOME").map(|d| PathBuf::from(d).join(".cache").join("pitbook")))?;
    Some(dir.join(FILE_NAME))
}

fn lines(path: &PathBuf) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|t| t.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Adds `key` to the list (its oldest half dropped when full); a list
/// that cannot be written is left as it is.
fn remember(path: &PathBuf, key: &str) {
    let mut kept = lines(path);
    let written = if kept.len() < LINES_MAX {
        path.parent()
            .map_or(Ok(()), std::fs::create_dir_all)
            .and_then(|()| {
                let mut list = std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)?;
                writeln!(list, "{key}")
            })
    } else {
        kept.drain(..LINES_MAX / 2);
        kept.push(key.to_string());
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, kept.join("\n") + "\n").and_then(|()| std::fs::rename(&tmp, path))
    };
    if let Err(e) = written {
        tracing::debug!(path = %path.display(), error = %e, "house-way check list not written");
    }
}
