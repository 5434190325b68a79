//! A filter's time range (on the cardroom's clock) as UTC bounds of
//! `hands.opened_at`, which keeps the record's UTC text: the shell's part,
//! as it needs the clock and the zone.

use chrono::{DateTime, Duration, LocalResult, NaiveDate, TimeZone, Utc};
use chrono_tz::Tz;

use crate::domain::history::{LocalDate, LocalDateTime, Period, TimeRange};

/// "This shift" when pitbook keeps no shifts: the last 8 hours.
pub const SHIFT_HOURS: i64 = 8;

fn text(t: DateTime<Utc>) -> String {
    t.format("%Y-%m-%dT%H:%M:%S%.6fZ").to_string()
}

fn naive(d: LocalDate) -> Option<NaiveDate> {
    NaiveDate::from_ymd_opt(d.year, d.month, d.day)
}

/// The first instant of a wall-clock time in `zone` (the later of two in a
/// repeated hour; the end of a skipped one).
fn instant(zone: Tz, t: LocalDateTime) -> Option<DateTime<Utc>> {
    let local = naive(t.date)?.and_hms_opt(t.hour, t.minute, 0)?;
    match zone.from_local_datetime(&local) {
        LocalResult::Single(t) | LocalResult::Ambiguous(t, _) => Some(t.with_timezone(&Utc)),
        // A time the clocks skipped: the hour after it.
        LocalResult::None => zone
            .from_local_datetime(&(local + Duration::hours(1)))
            .earliest()
            .map(|t| t.with_timezone(&Utc)),
    }
}

fn midnight(date: NaiveDate) -> LocalDateTime {
    use chrono::Datelike;
    LocalDateTime {
        date: LocalDate {
            year: date.year(),
            month: date.month(),
            day: date.day(),
        },
        hour: 0,
        minute: 0,
    }
}

/// The day `date` in `zone`, `[its midnight, the next)`.
fn day(zone: Tz, date: NaiveDate) -> (Option<String>, Option<String>) {
    let start = instant(zone, midnight(date)).map(text);
    let end = date
        .succ_opt()
        .and_then(|next| instant(zone, midnight(next)))
        .map(text);
    (start, end)
}

/// `[from, to)` in UTC text for `range`, now being `now`.
pub fn bounds(
    range: Option<&TimeRange>,
    now: DateTime<Utc>,
    zone: Tz,
) -> (Option<String>, Option<String>) {
    let today = now.with_timezone(&zone).date_naive();
    match range {
        None => (None, None),
        Some(TimeRange::Period(Period::Shift)) => {
            (Some(text(now - Duration::hours(SHIFT_HOURS))), None)
        }
        Some(TimeRange::Period(Period::Today)) => day(zone, today),
        Some(TimeRange::Period(Period::Yesterday)) => day(zone, today.pred_opt().unwrap_or(today)),
        Some(TimeRange::Day(d)) => naive(*d).map_or((None, None), |d| day(zone, d)),
        Some(TimeRange::Between { from, to }) => (
            from.and_then(|t| instant(zone, t)).map(text),
            to.and_then(|t| instant(zone, t)).map(text),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quick_picks_and_dates_are_days_on_the_cardrooms_clock() {
        let la: Tz = "America/Los_Angeles".parse().unwrap();
        // 2026-11-25 03:00 UTC is the 24th, 19:00 in Los Angeles.
        let now = DateTime::parse_from_rfc3339("2026-11-25T03:00:00Z")
            .unwrap()
            .with_timezone(&Utc);
        let s = |t: &str| Some(t.to_string());
        let cases = [
            (
                TimeRange::Period(Period::Today),
                (
                    s("2026-11-24T08:00:00.000000Z"),
                    s("2026-11-25T08:00:00.000000Z"),
                ),
            ),
            (
                TimeRange::Period(Period::Yesterday),
                (
                    s("2026-11-23T08:00:00.000000Z"),
                    s("2026-11-24T08:00:00.000000Z"),
                ),
            ),
            (
                TimeRange::Period(Period::Shift),
                (s("2026-11-24T19:00:00.000000Z"), None),
            ),
            // The day summer time ends is 25 hours long.
            (
                TimeRange::Day(LocalDate {
                    year: 2026,
                    month: 11,
                    day: 1,
                }),
                (
                    s("2026-11-01T07:00:00.000000Z"),
                    s("2026-11-02T08:00:00.000000Z"),
                ),
            ),
            (
                TimeRange::Between {
                    from: Some(LocalDateTime {
                        date: LocalDate {
                            year: 2026,
                            month: 11,
                            day: 24,
                        },
                        hour: 18,
                        minute: 30,
                    }),
                    to: None,
                },
                (s("2026-11-25T02:30:00.000000Z"), None),
            ),
        ];
        for (range, want) in cases {
            assert_eq!(bounds(Some(&range), now, la), want, "{range:?}");
        }
    }
}
