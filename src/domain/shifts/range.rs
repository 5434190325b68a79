//! A report's range on the cardroom's clock, as a form or the CLI gives
//! it: a whole day, or from a time to a later one.

use crate::common::field_error::FieldError;
use crate::history::{LocalDate, LocalDateTime};

/// A report's range on the cardroom's clock: a whole day, or from a time
/// (inclusive) to a later one (exclusive).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReportRange {
    Day(LocalDate),
    Between {
        from: LocalDateTime,
        to: LocalDateTime,
    },
}

/// Reads a report's range: `date` (`YYYY-MM-DD`), or both `from` and `to`
/// (`YYYY-MM-DDTHH:MM`), `to` after `from`.
pub fn parse_report_range(
    date: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
) -> Result<ReportRange, FieldError> {
    fn given(v: Option<&str>) -> Option<&str> {
        v.map(str::trim).filter(|v| !v.is_empty())
    }
    let (date, from, to) = (given(date), given(from), given(to));
    if let Some(d) = date {
        if from.is_some() || to.is_some() {
            return Err(FieldError::new(
                "date",
                "give a date, or from and to, not both",
            ));
        }
        return LocalDate::parse(d).map(ReportRange::Day).ok_or_else(|| {
            FieldError::new("date", format!("\"{d}\" is not a date (YYYY-MM-DD)")).with_value(d)
        });
    }
    let time = |field: &str, v: Option<&str>| -> Result<LocalDateTime, FieldError> {
        let v = v.ok_or_else(|| {
            FieldError::new(
                field,
                "required: a date and time (YYYY-MM-DDTHH:MM), or a date",
            )
        })?;
        LocalDateTime::parse(v).ok_or_else(|| {
            FieldError::new(
                field,
                format!("\"{v}\" is not a date and time (YYYY-MM-DDTHH:MM)"),
            )
            .with_value(v)
        })
    };
    let (from_at, to_at) = (time("from", from)?, time("to", to)?);
    if to_at <= from_at {
        return Err(FieldError::new(
            "to",
            format!("{to_at} is not after {from_at}: the range is backwards or empty"),
        )
        .with_value(to.unwrap_or_default()));
    }
    Ok(ReportRange::Between {
        from: from_at,
        to: to_at,
    })
}
