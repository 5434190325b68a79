//! The 10,000 contract shared by the CLI (`pitbook ten-thousand …`,
//! `--json`) and the HTTP API (`/api/v1/ten-thousand/…`): options, requests,
//! responses. See docs/dice-games.md.

use crate::common::field_error::{AsFieldError, FieldError};
use serde::{Deserialize, Serialize};

use super::{Keep, counts, keeps};

/// Bad input: the field path (`dice[2]`, `turns[4].throws[1].keep`) and
/// what is wrong, naming the value.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct TenThousandError {
    pub field: String,
    pub message: String,
}

impl AsFieldError for TenThousandError {
    fn field_error(&self) -> Option<FieldError> {
        Some(FieldError::new(self.field.as_str(), self.message.as_str()))
    }
}

impl TenThousandError {
    pub fn new(field: impl Into<String>, message: impl Into<String>) -> TenThousandError {
        TenThousandError {
            field: field.into(),
            message: message.into(),
        }
    }
}

/// The rule options as sent; each one defaults on its own.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TenThousandOptions)]
#[serde(deny_unknown_fields)]
pub struct GameOptions {
    /// 6 (default) or 5 dice.
    #[serde(default)]
    pub dice: Option<i64>,
    /// Points that end the game; default 10,000.
    #[serde(default)]
    pub target: Option<i64>,
    /// The least a turn records; default 400.
    #[serde(default)]
    pub min_record: Option<i64>,
    /// The least a first recorded turn needs; default 1,000.
    #[serde(default)]
    pub opening: Option<i64>,
    /// Whether hot dice must be thrown again; default false.
    #[serde(default)]
    pub hot_dice_must_roll: Option<bool>,
}

/// The rules in force, every option resolved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandRules)]
pub struct Rules {
    pub dice: u8,
    pub target: u32,
    pub min_record: u32,
    pub opening: u32,
    pub hot_dice_must_roll: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            dice: 6,
            target: 10_000,
            min_record: 400,
            opening: 1_000,
            hot_dice_must_roll: false,
        }
    }
}

/// Highest `target` accepted.
pub const TARGET_MAX: u32 = 100_000;
/// Lowest `target` accepted.
pub const TARGET_MIN: u32 = 1_000;
/// Every points option is a multiple of this (a 5 scores 50).
pub const POINTS_STEP: u32 = 50;
/// The numbers of dice the game is played with.
pub const DICE_CHOICES: [i64; 2] = [5, 6];

fn points_option(
    value: Option<i64>,
    default: u32,
    field: &str,
    max: u32,
) -> Result<u32, TenThousandError> {
    match value {
        None => Ok(default),
        Some(v) => u32::try_from(v)
            .ok()
            .filter(|&p| p <= max && p.is_multiple_of(POINTS_STEP))
            .ok_or_else(|| {
                TenThousandError::new(
                    format!("options.{field}"),
                    format!("{v} is not a multiple of {POINTS_STEP} from 0 to {max}"),
                )
            }),
    }
}

impl GameOptions {
    pub fn resolve(&self) -> Result<Rules, TenThousandError> {
        let d = Rules::default();
        let dice = match self.dice {
            None => d.dice,
            Some(v) if DICE_CHOICES.contains(&v) => v as u8,
            Some(v) => {
                return Err(TenThousandError::new(
                    "options.dice",
                    format!("{v} dice; the game is played with 5 or 6"),
                ));
            }
        };
        let target = points_option(self.target, d.target, "target", TARGET_MAX)?;
        if target < TARGET_MIN {
            return Err(TenThousandError::new(
                "options.target",
                format!("{target} is below {TARGET_MIN}"),
            ));
        }
        Ok(Rules {
            dice,
            target,
            min_record: points_option(self.min_record, d.min_record, "min_record", target)?,
            opening: points_option(self.opening, d.opening, "opening", target)?,
            hot_dice_must_roll: self.hot_dice_must_roll.unwrap_or(d.hot_dice_must_roll),
        })
    }
}

/// Checks a throw's dice: 1 to `rules.dice` values, each 1..6.
pub fn check_dice(values: &[i64], field: &str, max: u8) -> Result<Vec<u8>, TenThousandError> {
    if values.is_empty() || values.len() > usize::from(max) {
        return Err(TenThousandError::new(
            field,
            format!("{} dice; a throw is 1 to {max} dice", values.len()),
        ));
    }
    values
        .iter()
        .enumerate()
        .map(|(i, &v)| {
            u8::try_from(v)
                .ok()
                .filter(|d| (1..=6).contains(d))
                .ok_or_else(|| {
                    TenThousandError::new(
                        format!("{field}[{i}]"),
                        format!("{v} is not a die (1 to 6)"),
                    )
                })
        })
        .collect()
}

/// Dice typed at the CLI: `1 1 2 3 5 6`, `1,1,2,3,5,6` or `112356`.
pub fn parse_dice_text(text: &str) -> Result<Vec<i64>, String> {
    let mut out = Vec::new();
    for token in text
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
    {
        if out.len() > 64 {
            break;
        }
        if token.len() > 1 && token.chars().all(|c| ('1'..='6').contains(&c)) {
            out.extend(token.chars().filter_map(|c| c.to_digit(10)).map(i64::from));
        } else if let Ok(v) = token.parse::<i64>() {
            out.push(v);
        } else {
            let shown: String = token.chars().take(20).collect();
            return Err(format!("{shown:?} is not a die (1 to 6)"));
        }
    }
    Ok(out)
}

/// `POST /api/v1/ten-thousand/score`, `pitbook ten-thousand score`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TenThousandScoreRequest)]
#[serde(deny_unknown_fields)]
pub struct ScoreRequest {
    pub dice: Vec<i64>,
    /// Only `dice` (5 or 6) matters here: a throw has at most that many.
    #[serde(default)]
    pub options: GameOptions,
}

/// Every legal keep with its points, the best of them, and whether the
/// throw is a bust (then `keeps` is empty and `max` 0).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandScoreResponse)]
pub struct ScoreResponse {
    pub keeps: Vec<Keep>,
    pub max: u32,
    pub bust: bool,
}

/// Scores one throw.
pub fn score(req: &ScoreRequest) -> Result<ScoreResponse, TenThousandError> {
    let rules = req.options.resolve()?;
    let dice = check_dice(&req.dice, "dice", rules.dice)?;
    let all = keeps(&counts(&dice), None);
    let max = all.iter().map(|k| k.points).max().unwrap_or(0);
    Ok(ScoreResponse {
        bust: all.is_empty(),
        keeps: all,
        max,
    })
}
