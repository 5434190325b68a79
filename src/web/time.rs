//! Times as the pages show them: in the cardroom's time zone
//! (`AppState::time_zone`), with the UTC the record keeps beside, so a
//! supervisor reads the floor's clock and an auditor can still match the
//! log. The record's timestamps stay UTC text (`store::audit::now_text`).

use chrono::{DateTime, Utc};
use chrono_tz::Tz;

/// A recorded time, shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct When {
    /// `2026-12-01 11:42:07 PST`: the cardroom's clock.
    pub local: String,
    /// `2026-12-01 19:42:07 UTC`, as recorded (to the second).
    pub utc: String,
    /// `11:42:07`: the time of day on the cardroom's clock, for a line
    /// that reads like the floor's log.
    pub clock: String,
}

/// `recorded` (RFC 3339 UTC, as stored) in `zone`; text that is not a
/// time is shown as it is, in both.
pub fn when(zone: Tz, recorded: &str) -> When {
    match DateTime::parse_from_rfc3339(recorded) {
        Ok(t) => {
            let utc = t.with_timezone(&Utc);
            let local = utc.with_timezone(&zone);
            When {
                local: local.format("%Y-%m-%d %H:%M:%S %Z").to_string(),
                utc: utc.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                clock: local.format("%H:%M:%S").to_string(),
            }
        }
        Err(_) => When {
            local: recorded.to_string(),
            utc: recorded.to_string(),
            clock: recorded.to_string(),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recorded_time_is_shown_on_the_cardrooms_clock_with_utc_beside() {
        let cases = [
            (
                "2026-12-01T19:42:07.123456Z",
                "UTC",
                "2026-12-01 19:42:07 UTC",
                "2026-12-01 19:42:07 UTC",
            ),
            (
                "2026-12-01T19:42:07.123456Z",
                "America/Los_Angeles",
                "2026-12-01 11:42:07 PST",
                "2026-12-01 19:42:07 UTC",
            ),
            // Summer time, and a day boundary crossed.
            (
                "2026-07-01T02:30:00Z",
                "America/Los_Angeles",
                "2026-06-30 19:30:00 PDT",
                "2026-07-01 02:30:00 UTC",
            ),
            (
                "2026-12-01T23:30:00Z",
                "Europe/Madrid",
                "2026-12-02 00:30:00 CET",
                "2026-12-01 23:30:00 UTC",
            ),
            ("not a time", "UTC", "not a time", "not a time"),
        ];
        for (recorded, zone, local, utc) in cases {
            let w = when(zone.parse().unwrap(), recorded);
            assert_eq!(
                (w.local.as_str(), w.utc.as_str()),
                (local, utc),
                "{recorded} in {zone}"
            );
            // The time of day is the local time's.
            assert!(w.local.contains(&w.clock), "{recorded} in {zone}");
        }
    }
}
