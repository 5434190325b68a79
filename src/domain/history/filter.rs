//! The hand search's filter, parsed from a query string's key/value pairs
//! (the `/history` form, `GET /api/v1/hands`, the CLI) into a checked
//! [`HandFilter`], or every refused field as a [`FieldError`]. Nothing here
//! knows the database: the store turns each [`Criterion`] into its SQL
//! (`store/history/query.rs`), the shell the time range into UTC instants.
//!
//! Adding a filter is one variant of [`Criterion`], one line of [`FILTERS`]
//! (its key and parser) and one arm of the store's `clause`.

use unicode_normalization::UnicodeNormalization;

use super::date::{LocalDate, LocalDateTime};
use crate::common::field_error::FieldError;
use crate::common::money::Money;
use crate::common::text::NAME_CHARS_MAX;

/// Hands on one page of results unless `limit` says otherwise.
pub const PAGE_SIZE_DEFAULT: usize = 50;
/// Most hands on one page.
pub const PAGE_SIZE_MAX: usize = 500;

/// A hand's state as the search names it (and the export writes it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    /// Still being played (waiting for the PD, taking wagers, dealt).
    Open,
    /// Closed, corrected or not.
    Closed,
    /// Closed and then corrected by a supervisor.
    Corrected,
    Voided,
}

impl Status {
    pub const ALL: [Status; 4] = [
        Status::Open,
        Status::Closed,
        Status::Corrected,
        Status::Voided,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Status::Open => "open",
            Status::Closed => "closed",
            Status::Corrected => "corrected",
            Status::Voided => "voided",
        }
    }
}

/// Practice hands at training tables, or the real ones.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Training,
    Real,
}

impl Kind {
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Training => "training",
            Kind::Real => "real",
        }
    }
}

/// A quick pick of the time range, on the cardroom's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    /// The last 8 hours (pitbook keeps no shifts).
    Shift,
    Today,
    Yesterday,
}

impl Period {
    pub fn as_str(self) -> &'static str {
        match self {
            Period::Shift => "shift",
            Period::Today => "today",
            Period::Yesterday => "yesterday",
        }
    }
}

/// When the hands opened, on the cardroom's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimeRange {
    Period(Period),
    /// One whole day.
    Day(LocalDate),
    /// From (inclusive) and to (exclusive); either may be open.
    Between {
        from: Option<LocalDateTime>,
        to: Option<LocalDateTime>,
    },
}

/// One condition a hand must meet.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Criterion {
    /// At this table (its exact name).
    Table(String),
    /// Dealt by this user (case-insensitive).
    Dealer(String),
    /// Banked by a PD whose name holds this (lower-cased, partial).
    Pd(String),
    /// With this name as PD or bettor (lower-cased, partial).
    Player(String),
    Status(Status),
    Kind(Kind),
    BankAtLeast(Money),
    /// With at least one wager of this amount or more.
    WagerAtLeast(Money),
    /// Its number at its table.
    Number(i64),
    /// With a note whose text holds this (lower-cased, partial).
    Note(String),
}

/// Where the previous page ended: the last hand's opening time and id
/// (results are newest first, by `(opened_at, id)`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cursor {
    pub opened_at: String,
    pub id: String,
}

impl Cursor {
    const SEPARATOR: char = '~';

    /// The text a page's "next" link carries.
    pub fn encode(&self) -> String {
        format!("{}{}{}", self.opened_at, Cursor::SEPARATOR, self.id)
    }

    /// What [`Cursor::decode`] takes, as a JSON Schema pattern without
    /// anchors.
    pub const PATTERN: &str = "[A-Za-z0-9:.-]{19,}Z~[A-Za-z0-9-]{1,64}";

    pub(super) fn decode(text: &str) -> Option<Cursor> {
        let (opened_at, id) = text.split_once(Cursor::SEPARATOR)?;
        let time_like = opened_at.len() >= 20
            && opened_at.ends_with('Z')
            && opened_at
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b"-:.".contains(&b));
        let id_like = !id.is_empty()
            && id.len() <= 64
            && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-');
        (time_like && id_like).then(|| Cursor {
            opened_at: opened_at.to_string(),
            id: id.to_string(),
        })
    }
}

/// A checked search: every criterion must hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandFilter {
    pub criteria: Vec<Criterion>,
    pub range: Option<TimeRange>,
    pub after: Option<Cursor>,
    pub limit: usize,
}

impl Default for HandFilter {
    fn default() -> Self {
        HandFilter {
            criteria: Vec::new(),
            range: None,
            after: None,
            limit: PAGE_SIZE_DEFAULT,
        }
    }
}

type Parser = fn(&str, &str) -> Result<Criterion, FieldError>;

/// Every filter by its query key, with its parser (key, value).
pub const FILTERS: &[(&str, Parser)] = &[
    ("table", |k, v| {
        Ok(Criterion::Table(text(k, v)?.to_string()))
    }),
    ("dealer", |k, v| {
        Ok(Criterion::Dealer(name_key(text(k, v)?)))
    }),
    ("pd", |k, v| Ok(Criterion::Pd(name_key(text(k, v)?)))),
    ("player", |k, v| {
        Ok(Criterion::Player(name_key(text(k, v)?)))
    }),
    ("status", |k, v| status(k, v).map(Criterion::Status)),
    ("kind", |k, v| kind(k, v).map(Criterion::Kind)),
    ("bank_min", |k, v| amount(k, v).map(Criterion::BankAtLeast)),
    ("wager_min", |k, v| {
        amount(k, v).map(Criterion::WagerAtLeast)
    }),
    ("number", |k, v| number(k, v).map(Criterion::Number)),
    ("note", |k, v| Ok(Criterion::Note(name_key(text(k, v)?)))),
];

/// The keys of the time range and of paging, beside [`FILTERS`].
const RANGE_KEYS: [&str; 4] = ["period", "date", "from", "to"];
const PAGING_KEYS: [&str; 2] = ["after", "limit"];

/// How a name is compared: trimmed, NFC, lower case (as `hand_people`
/// keeps it).
pub fn name_key(name: &str) -> String {
    name.trim().nfc().collect::<String>().to_lowercase()
}

fn text<'a>(key: &str, value: &'a str) -> Result<&'a str, FieldError> {
    let value = value.trim();
    // No name or note holds one, and the search keeps a hand's names apart
    // by one (`keys_before`, store/history/projection.rs).
    if value.chars().any(char::is_control) {
        return Err(FieldError::new(
            key,
            "holds a control character (a tab, a line break): type the name or words alone",
        )
        .with_value(value));
    }
    if value.chars().count() > NAME_CHARS_MAX {
        return Err(
            FieldError::new(key, format!("at most {NAME_CHARS_MAX} characters")).with_value(value),
        );
    }
    Ok(value)
}

fn status(key: &str, value: &str) -> Result<Status, FieldError> {
    Status::ALL
        .into_iter()
        .find(|s| s.as_str() == value.trim().to_lowercase())
        .ok_or_else(|| {
            FieldError::new(
                key,
                format!("\"{value}\" is not a status; choose open, closed, corrected or voided"),
            )
            .with_value(value)
        })
}

fn kind(key: &str, value: &str) -> Result<Kind, FieldError> {
    match value.trim().to_lowercase().as_str() {
        "training" => Ok(Kind::Training),
        "real" => Ok(Kind::Real),
        _ => Err(
            FieldError::new(key, format!("\"{value}\" is neither training nor real"))
                .with_value(value),
        ),
    }
}

fn amount(key: &str, value: &str) -> Result<Money, FieldError> {
    let value = value.trim();
    let money = Money::parse(value).map_err(|_| {
        FieldError::new(
            key,
            format!(
                "\"{value}\" is not an amount (digits with an optional '.', e.g. 100 or 12.50)"
            ),
        )
        .with_value(value)
    })?;
    if money.is_negative() {
        return Err(FieldError::new(
            key,
            format!("{value} is negative; give an amount of 0 or more"),
        )
        .with_value(value));
    }
    Ok(money)
}

fn number(key: &str, value: &str) -> Result<i64, FieldError> {
    let value = value.trim();
    let digits = value.strip_prefix('#').unwrap_or(value);
    match digits.parse::<i64>() {
        Ok(n) if n >= 1 && digits.bytes().all(|b| b.is_ascii_digit()) => Ok(n),
        _ => Err(FieldError::new(
            key,
            format!("\"{value}\" is not a hand number (a whole number from 1, e.g. 1042)"),
        )
        .with_value(value)),
    }
}

fn time(key: &str, value: &str) -> Result<LocalDateTime, FieldError> {
    LocalDateTime::parse(value).ok_or_else(|| {
        FieldError::new(
            key,
            format!("\"{value}\" is not a date and time (e.g. 2026-11-24 or 2026-11-24T18:30)"),
        )
        .with_value(value)
    })
}

fn range(given: &[(&str, &str)]) -> Result<Option<TimeRange>, FieldError> {
    let get = |key: &str| given.iter().find(|(k, _)| *k == key).map(|(_, v)| *v);
    let (when, date, from, to) = (get("period"), get("date"), get("from"), get("to"));
    if let Some(when) = when {
        let period = [Period::Shift, Period::Today, Period::Yesterday]
            .into_iter()
            .find(|p| p.as_str() == when.trim().to_lowercase());
        let Some(period) = period else {
            let message =
                format!("\"{when}\" is not a quick pick; choose shift, today or yesterday");
            return Err(FieldError::new("period", message).with_value(when));
        };
        if date.is_some() || from.is_some() || to.is_some() {
            let message = "choose a quick pick or dates, not both";
            return Err(FieldError::new("period", message).with_value(when));
        }
        return Ok(Some(TimeRange::Period(period)));
    }
    if let Some(date) = date {
        let day = LocalDate::parse(date.trim()).ok_or_else(|| {
            FieldError::new(
                "date",
                format!("\"{date}\" is not a date (e.g. 2026-11-24)"),
            )
            .with_value(date)
        })?;
        if from.is_some() || to.is_some() {
            let message = "choose a date or a from/to range, not both";
            return Err(FieldError::new("date", message).with_value(date));
        }
        return Ok(Some(TimeRange::Day(day)));
    }
    let from = from.map(|v| time("from", v)).transpose()?;
    let to = to.map(|v| time("to", v)).transpose()?;
    if let (Some(f), Some(t)) = (from, to)
        && t <= f
    {
        let message = format!("{t} is not after from {f}");
        return Err(FieldError::new("to", message).with_value(t.to_string()));
    }
    Ok((from.is_some() || to.is_some()).then_some(TimeRange::Between { from, to }))
}

impl HandFilter {
    /// Every query key the search reads: the filters, the time range, the
    /// paging (the API contract lists the same, checked by a test).
    pub fn keys() -> impl Iterator<Item = &'static str> {
        FILTERS
            .iter()
            .map(|(k, _)| *k)
            .chain(RANGE_KEYS)
            .chain(PAGING_KEYS)
    }

    /// Parses a query string's pairs. Empty values are no filter (a form
    /// sends every field); an unknown key, a key given twice or a value
    /// that is not one is refused, every such field reported.
    pub fn parse(pairs: &[(String, String)]) -> Result<HandFilter, Vec<FieldError>> {
        let mut errors = Vec::new();
        let mut filter = HandFilter::default();
        let mut given: Vec<(&str, &str)> = Vec::new();
        for (key, value) in pairs {
            if value.trim().is_empty() {
                continue;
            }
            if given.iter().any(|(k, _)| k == key) {
                errors.push(
                    FieldError::new(key.as_str(), "given twice; give it once")
                        .with_value(value.as_str()),
                );
                continue;
            }
            given.push((key, value));
            let key = key.as_str();
            if let Some((_, parse)) = FILTERS.iter().find(|(k, _)| *k == key) {
                match parse(key, value) {
                    Ok(c) => filter.criteria.push(c),
                    Err(e) => errors.push(e),
                }
            } else if RANGE_KEYS.contains(&key) {
            } else if key == "after" {
                match Cursor::decode(value.trim()) {
                    Some(c) => filter.after = Some(c),
                    None => errors.push(
                        FieldError::new(
                            key,
                            "is not a page of these results; start the search again",
                        )
                        .with_value(value.as_str()),
                    ),
                }
            } else if key == "limit" {
                match value.trim().parse::<usize>() {
                    Ok(n) if (1..=PAGE_SIZE_MAX).contains(&n) => filter.limit = n,
                    _ => errors.push(
                        FieldError::new(
                            key,
                            format!("\"{value}\" is not a page size from 1 to {PAGE_SIZE_MAX}"),
                        )
                        .with_value(value.as_str()),
                    ),
                }
            } else {
                let known: Vec<&str> = HandFilter::keys().collect();
                errors.push(
                    FieldError::new(
                        key,
                        format!("is not a filter; the filters are {}", known.join(", ")),
                    )
                    .with_value(value.as_str()),
                );
            }
        }
        match range(&given) {
            Ok(r) => filter.range = r,
            Err(e) => errors.push(e),
        }
        if errors.is_empty() {
            Ok(filter)
        } else {
            Err(errors)
        }
    }

    /// The table named by the filter, if any (the shell checks it exists).
    pub fn table(&self) -> Option<&str> {
        self.criteria.iter().find_map(|c| match c {
            Criterion::Table(t) => Some(t.as_str()),
            _ => None,
        })
    }
}
