//! A player's history asked for by name: every hand where the name
//! appears as PD or bettor, matched exactly but for case.

use super::filter::{Cursor, PAGE_SIZE_DEFAULT, PAGE_SIZE_MAX, name_key};
use crate::common::field_error::FieldError;
use crate::common::text::NAME_CHARS_MAX;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerQuery {
    /// The name as typed, trimmed.
    pub name: String,
    /// As compared (`name_key`).
    pub key: String,
    pub after: Option<Cursor>,
    pub limit: usize,
}

impl PlayerQuery {
    /// From the query string: `player` (the name, required), `after`, `limit`.
    pub fn parse(pairs: &[(String, String)]) -> Result<PlayerQuery, Vec<FieldError>> {
        let get = |key: &str| {
            pairs
                .iter()
                .find(|(k, v)| k == key && !v.trim().is_empty())
                .map(|(_, v)| v.trim())
        };
        let mut errors = Vec::new();
        let name = get("player").unwrap_or("");
        if name.is_empty() {
            errors.push(FieldError::new("player", "a player's name is required"));
        } else if name.chars().count() > NAME_CHARS_MAX {
            errors.push(
                FieldError::new("player", format!("at most {NAME_CHARS_MAX} characters"))
                    .with_value(name),
            );
        }
        let after = match get("after") {
            None => None,
            Some(text) => match Cursor::decode(text) {
                Some(c) => Some(c),
                None => {
                    errors.push(
                        FieldError::new("after", "is not a page of these results; start again")
                            .with_value(text),
                    );
                    None
                }
            },
        };
        let limit = match get("limit") {
            None => PAGE_SIZE_DEFAULT,
            Some(text) => match text.parse::<usize>() {
                Ok(n) if (1..=PAGE_SIZE_MAX).contains(&n) => n,
                _ => {
                    let message =
                        format!("\"{text}\" is not a page size from 1 to {PAGE_SIZE_MAX}");
                    errors.push(FieldError::new("limit", message).with_value(text));
                    PAGE_SIZE_DEFAULT
                }
            },
        };
        if !errors.is_empty() {
            return Err(errors);
        }
        Ok(PlayerQuery {
            name: name.to_string(),
            key: name_key(name),
            after,
            limit,
        })
    }
}
