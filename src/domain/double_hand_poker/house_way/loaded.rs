//! House ways a supervisor loaded (docs/house-ways.md, "Loading a house
//! way"): a file is checked here — it parses, its name is not a shipped
//! one's, and under every joker and wheel rule each rank pattern is set by
//! a rule, never fouled — and named by its digest (`my-room@3fa2c1d09b7e`),
//! so a recorded hand names exactly the file it was played under.
//!
//! The files this process holds are kept in one registry, filled by the
//! store (every stored file when it opens, each new one as it is loaded,
//! and when another instance's file is named) and by `audit verify` from
//! the log. An entry is never removed: a name always means one file.

use std::sync::RwLock;

use sha2::{Digest, Sha256};

use super::census::{CheckCounts, check_patterns};
use super::file::{FileError, HouseWayFile};
use crate::cards::Card;
use crate::double_hand_poker::hand_words::{joker_name, wheel_name};
use crate::double_hand_poker::options::{
    HouseWayName, JokerRule, LoadedName, RuleOptions, WheelRule,
};

/// Most house ways one pitbook holds (each file's table, when `hand ev`
/// builds one, is 6–7 MB; the files themselves are at most 64 KB).
pub const LOADED_MAX: usize = 100;

/// A loaded house way: its text as loaded and the file parsed from it.
#[derive(Debug)]
pub struct LoadedWay {
    pub name: HouseWayName,
    pub text: String,
    pub file: HouseWayFile,
}

/// Why a file was refused; `line` is 0 for the file as a whole.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{}{message}", line_words(*.line))]
pub struct LoadError {
    pub line: usize,
    pub message: String,
}

fn line_words(line: usize) -> String {
    if line == 0 {
        String::new()
    } else {
        format!("line {line}: ")
    }
}

impl From<FileError> for LoadError {
    fn from(e: FileError) -> LoadError {
        LoadError {
            line: e.line,
            message: if e.found.is_empty() {
                e.message
            } else {
                format!("{} (found \"{}\")", e.message, e.found)
            },
        }
    }
}

/// The first 12 hex digits of the text's SHA-256: what names a loaded
/// file, with its own name.
pub fn digest_of(text: &str) -> String {
    let digest = hex::encode(Sha256::digest(text.as_bytes()));
    digest[..LoadedName::DIGEST_CHARS].to_string()
}

/// Every joker and wheel rule a table can play a house way under (a deck
/// without the joker deals a subset of the `bug` deck's hands, valued the
/// same).
pub(super) fn rule_sets() -> impl Iterator<Item = RuleOptions> {
    let base = RuleOptions::default();
    [JokerRule::Bug, JokerRule::Wild]
        .into_iter()
        .flat_map(move |joker| {
            [WheelRule::Lowest, WheelRule::SecondHighest]
                .into_iter()
                .map(move |wheel| RuleOptions {
                    joker,
                    wheel,
                    ..base
                })
        })
}

/// Checks a file for loading: it parses, names no shipped house way, and
/// sets every rank pattern by a rule without fouling under every rule set.
/// Pure: the same file gives the same answer everywhere (a replay in
/// `audit verify` runs it again).
pub fn check(text: &str) -> Result<(HouseWayName, HouseWayFile), LoadError> {
    let (name, file) = parse_named(text)?;
    for opts in rule_sets() {
        let counts = check_patterns(&file, &opts);
        if let Some(problem) = first_problem(&counts, &opts) {
            return Err(problem);
        }
    }
    Ok((name, file))
}

/// The first steps of [`check`]: the file parses and names no shipped
/// house way; its `name@digest`. Its hands are not set.
fn parse_named(text: &str) -> Result<(HouseWayName, HouseWayFile), LoadError> {
    let file = HouseWayFile::parse(text)?;
    if HouseWayName::ALL.iter().any(|w| w.name() == file.name) {
        return Err(LoadError {
            line: 0,
            message: format!(
                "\"{}\" is a shipped house way's name: name yours for your room (a \"name\" line)",
                file.name
            ),
        });
    }
    let name = LoadedName::parse(&format!("{}@{}", file.name, digest_of(text)))
        .expect("file.rs takes only the names LoadedName::parse takes");
    Ok((HouseWayName::Loaded(name), file))
}

/// The whole SHA-256 of a file's text, in hex: what a caller keeps to know
/// a file passed [`check`] before (`pitbook --house-way FILE` keeps these).
pub fn full_digest_of(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

fn first_problem(counts: &CheckCounts, opts: &RuleOptions) -> Option<LoadError> {
    let problem = counts.examples.first()?;
    let cards = problem
        .cards
        .iter()
        .map(Card::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    let rules = format!(
        "joker {}, wheel {}",
        joker_name(opts.joker),
        wheel_name(opts.wheel)
    );
    Some(LoadError {
        line: 0,
        message: format!(
            "{} rank patterns set by no rule, {} fouled ({rules}); for one, {cards}: {}",
            counts.unset, counts.fouled, problem.what
        ),
    })
}

static REGISTRY: RwLock<Vec<&'static LoadedWay>> = RwLock::new(Vec::new());

/// Checks and holds a file; its name. Holding one already held is no
/// change. Refused past [`LOADED_MAX`].
pub fn register(text: &str) -> Result<HouseWayName, LoadError> {
    if let Some(way) = all().into_iter().find(|w| w.text == text) {
        return Ok(way.name);
    }
    let (name, file) = check(text)?;
    hold(name, file, text)
}

/// Holds a file whose [`check`] passed before, as its caller knows (it
/// kept the file's [`full_digest_of`]): the file is parsed and named again,
/// but its hands are not all set again. Otherwise as [`register`].
pub fn register_checked(text: &str) -> Result<HouseWayName, LoadError> {
    if let Some(way) = all().into_iter().find(|w| w.text == text) {
        return Ok(way.name);
    }
    let (name, file) = parse_named(text)?;
    hold(name, file, text)
}

fn hold(name: HouseWayName, file: HouseWayFile, text: &str) -> Result<HouseWayName, LoadError> {
    let mut held = REGISTRY.write().unwrap_or_else(|e| e.into_inner());
    if let Some(way) = held.iter().find(|w| w.name == name) {
        return Ok(way.name);
    }
    if held.len() >= LOADED_MAX {
        return Err(LoadError {
            line: 0,
            message: format!("at most {LOADED_MAX} house ways can be loaded"),
        });
    }
    let way: &'static LoadedWay = Box::leak(Box::new(LoadedWay {
        name,
        text: text.to_string(),
        file,
    }));
    held.push(way);
    Ok(name)
}

/// A held house way by name.
pub fn get(name: HouseWayName) -> Option<&'static LoadedWay> {
    let held = REGISTRY.read().unwrap_or_else(|e| e.into_inner());
    held.iter().find(|w| w.name == name).copied()
}

/// Every held house way, in the order loaded.
pub fn all() -> Vec<&'static LoadedWay> {
    REGISTRY.read().unwrap_or_else(|e| e.into_inner()).clone()
}

#[cfg(test)]
#[path = "loaded_tests.rs"]
mod tests;
