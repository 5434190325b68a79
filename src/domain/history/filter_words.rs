//! A search's filter in words, each with the query keys it came from, so a
//! page can say what it searched ("table DHP-1, 5 Dec 2026, a player
//! containing 'ann'") and offer to drop one filter when nothing matched.

use super::date::{LocalDate, LocalDateTime};
use super::filter::{Criterion, HandFilter, Kind, Period, Status, TimeRange};

/// One filter in words and the query keys that set it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilterWords {
    pub words: String,
    pub keys: &'static [&'static str],
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// "5 Dec 2026".
fn date(d: LocalDate) -> String {
    let month = MONTHS.get(d.month as usize - 1).copied().unwrap_or("?");
    format!("{} {month} {}", d.day, d.year)
}

/// "5 Dec 2026, 18:30".
fn date_time(t: LocalDateTime) -> String {
    format!("{}, {:02}:{:02}", date(t.date), t.hour, t.minute)
}

fn criterion(c: &Criterion) -> FilterWords {
    let (words, keys): (String, &'static [&'static str]) = match c {
        Criterion::Table(t) => (format!("table {t}"), &["table"]),
        Criterion::Dealer(d) => (format!("dealt by {d}"), &["dealer"]),
        Criterion::Pd(p) => (format!("a PD containing '{p}'"), &["pd"]),
        Criterion::Player(p) => (format!("a player containing '{p}'"), &["player"]),
        Criterion::Status(s) => {
            let words = match s {
                Status::Open => "open",
                Status::Closed => "closed",
                Status::Corrected => "corrected",
                Status::Voided => "voided",
            };
            (words.to_string(), &["status"])
        }
        Criterion::Kind(Kind::Training) => ("training tables".into(), &["kind"]),
        Criterion::Kind(Kind::Real) => ("real tables".into(), &["kind"]),
        Criterion::BankAtLeast(m) => (
            format!("a bank of {} or more", m.to_display()),
            &["bank_min"],
        ),
        Criterion::WagerAtLeast(m) => (
            format!("a wager of {} or more", m.to_display()),
            &["wager_min"],
        ),
        Criterion::Number(n) => (format!("hand #{n}"), &["number"]),
        Criterion::Note(n) => (format!("a note containing '{n}'"), &["note"]),
    };
    FilterWords { words, keys }
}

fn range(r: &TimeRange) -> FilterWords {
    let words = match r {
        TimeRange::Period(Period::Shift) => "the last 8 hours".to_string(),
        TimeRange::Period(Period::Today) => "today".to_string(),
        TimeRange::Period(Period::Yesterday) => "yesterday".to_string(),
        TimeRange::Day(d) => date(*d),
        TimeRange::Between { from, to } => match (from, to) {
            (Some(f), Some(t)) => format!("from {} to {}", date_time(*f), date_time(*t)),
            (Some(f), None) => format!("from {}", date_time(*f)),
            (None, Some(t)) => format!("before {}", date_time(*t)),
            (None, None) => "any time".to_string(),
        },
    };
    FilterWords {
        words,
        keys: &["period", "date", "from", "to"],
    }
}

/// Every filter of `filter` in words: the table first, then the time, then
/// the rest in the order given.
pub fn in_words(filter: &HandFilter) -> Vec<FilterWords> {
    let (tables, rest): (Vec<&Criterion>, Vec<&Criterion>) = filter
        .criteria
        .iter()
        .partition(|c| matches!(c, Criterion::Table(_)));
    let mut words: Vec<FilterWords> = tables.into_iter().map(criterion).collect();
    words.extend(filter.range.as_ref().map(range));
    words.extend(rest.into_iter().map(criterion));
    words
}

/// The filter as one phrase: "table DHP-1, 5 Dec 2026, a player containing
/// 'ann'"; "every hand" without one.
pub fn sentence(filter: &HandFilter) -> String {
    let words: Vec<String> = in_words(filter).into_iter().map(|w| w.words).collect();
    match words.is_empty() {
        true => "every hand".to_string(),
        false => words.join(", "),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn filter(query: &[(&str, &str)]) -> HandFilter {
        let pairs: Vec<(String, String)> = query
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        HandFilter::parse(&pairs).expect("a filter")
    }

    #[test]
    fn a_filter_reads_as_a_phrase() {
        let cases = [
            (vec![], "every hand"),
            (
                vec![
                    ("player", "Ann"),
                    ("date", "2026-12-05"),
                    ("table", "DHP-1"),
                ],
                "table DHP-1, 5 Dec 2026, a player containing 'ann'",
            ),
            (
                vec![
                    ("status", "voided"),
                    ("bank_min", "500"),
                    ("period", "today"),
                ],
                "today, voided, a bank of 500.00 or more",
            ),
            (
                vec![("from", "2026-12-05T18:30"), ("number", "12")],
                "from 5 Dec 2026, 18:30, hand #12",
            ),
        ];
        for (query, want) in cases {
            assert_eq!(sentence(&filter(&query)), want, "{query:?}");
        }
        let keys: Vec<_> = in_words(&filter(&[("dealer", "dana"), ("date", "2026-12-05")]))
            .iter()
            .map(|w| w.keys)
            .collect();
        assert_eq!(
            keys,
            [&["period", "date", "from", "to"][..], &["dealer"][..]]
        );
    }
}
