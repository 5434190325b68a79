//! A calendar date and a wall-clock time on the cardroom's clock, as typed
//! in a filter (`2026-11-24`, `2026-11-24T18:30` from a datetime-local
//! input). Checked here without a clock or a time zone; the shell turns
//! them into UTC instants in the cardroom's zone.

use std::fmt;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LocalDate {
    pub year: i32,
    pub month: u32,
    pub day: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct LocalDateTime {
    pub date: LocalDate,
    pub hour: u32,
    pub minute: u32,
}

fn days_in_month(year: i32, month: u32) -> u32 {
    let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
    match month {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        _ => 28,
    }
}

fn digits(text: &str, len: usize) -> Option<u32> {
    (text.len() == len && text.bytes().all(|b| b.is_ascii_digit()))
        .then(|| text.parse().ok())
        .flatten()
}

/// A [`LocalDate`] as a JSON Schema (ECMA-262) pattern without anchors: a
/// year 2000–2999, a month, a day 01–31 (a day past its month's end is
/// the parser's to refuse).
pub const DATE_PATTERN: &str = "2[0-9]{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])";
/// A [`LocalDateTime`] likewise: the date, then `T` or a space and `HH:MM`.
pub const DATE_TIME_PATTERN: &str = "2[0-9]{3}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])(?:[T ](?:[01][0-9]|2[0-3]):[0-5][0-9])?";

impl LocalDate {
    /// `YYYY-MM-DD`, a real day of a year 2000–2999.
    pub fn parse(text: &str) -> Option<LocalDate> {
        let mut parts = text.split('-');
        let (y, m, d) = (parts.next()?, parts.next()?, parts.next()?);
        if parts.next().is_some() {
            return None;
        }
        let (year, month, day) = (digits(y, 4)? as i32, digits(m, 2)?, digits(d, 2)?);
        let known = (2000..=2999).contains(&year)
            && (1..=12).contains(&month)
            && (1..=days_in_month(year, month)).contains(&day);
        known.then_some(LocalDate { year, month, day })
    }
}

impl LocalDateTime {
    /// `YYYY-MM-DD` (its midnight) or `YYYY-MM-DDTHH:MM` (a space for the
    /// `T` too).
    pub fn parse(text: &str) -> Option<LocalDateTime> {
        let text = text.trim();
        let (date, time) = match text.split_once(['T', ' ']) {
            Some((date, time)) => (date, Some(time)),
            None => (text, None),
        };
        let date = LocalDate::parse(date)?;
        let (hour, minute) = match time {
            None => (0, 0),
            Some(time) => {
                let (h, m) = time.split_once(':')?;
                (digits(h, 2)?, digits(m, 2)?)
            }
        };
        (hour < 24 && minute < 60).then_some(LocalDateTime { date, hour, minute })
    }
}

impl fmt::Display for LocalDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:04}-{:02}-{:02}", self.year, self.month, self.day)
    }
}

impl fmt::Display for LocalDateTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}T{:02}:{:02}", self.date, self.hour, self.minute)
    }
}
