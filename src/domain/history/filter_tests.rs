//! The search filter from query pairs: every filter read, every bad input
//! refused naming its field and value.

use super::*;
use crate::common::money::Money;

/// Query pairs as a test writes them.
type Given<'a> = &'a [(&'a str, &'a str)];

fn pairs(list: Given<'_>) -> Vec<(String, String)> {
    list.iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect()
}

fn money(text: &str) -> Money {
    Money::parse(text).unwrap()
}

#[test]
fn every_filter_is_read_and_empty_values_are_no_filter() {
    let cases: Vec<(Given<'_>, Vec<Criterion>)> = vec![
        (
            &[("table", " DHP-1 ")],
            vec![Criterion::Table("DHP-1".into())],
        ),
        (
            &[("dealer", "Dana")],
            vec![Criterion::Dealer("dana".into())],
        ),
        (&[("pd", " PAT ")], vec![Criterion::Pd("pat".into())]),
        (&[("player", "Ann")], vec![Criterion::Player("ann".into())]),
        (
            &[("status", "Corrected")],
            vec![Criterion::Status(Status::Corrected)],
        ),
        (&[("status", "open")], vec![Criterion::Status(Status::Open)]),
        (
            &[("kind", "training")],
            vec![Criterion::Kind(Kind::Training)],
        ),
        (&[("kind", "real")], vec![Criterion::Kind(Kind::Real)]),
        (
            &[("bank_min", "200")],
            vec![Criterion::BankAtLeast(money("200"))],
        ),
        (
            &[("wager_min", "0")],
            vec![Criterion::WagerAtLeast(money("0"))],
        ),
        (&[("number", "#1042")], vec![Criterion::Number(1042)]),
        (&[("number", "7")], vec![Criterion::Number(7)]),
        (
            &[("note", " Surveillance ")],
            vec![Criterion::Note("surveillance".into())],
        ),
        (&[("table", ""), ("player", "  ")], vec![]),
    ];
    for (given, want) in cases {
        let filter =
            HandFilter::parse(&pairs(given)).unwrap_or_else(|e| panic!("{given:?}: {e:?}"));
        assert_eq!(filter.criteria, want, "{given:?}");
    }
}

#[test]
fn the_time_range_is_a_quick_pick_a_date_or_from_to() {
    let d = |y, m, day| LocalDate {
        year: y,
        month: m,
        day,
    };
    let at = |date, hour, minute| LocalDateTime { date, hour, minute };
    let cases: Vec<(Given<'_>, Option<TimeRange>)> = vec![
        (
            &[("period", "shift")],
            Some(TimeRange::Period(Period::Shift)),
        ),
        (
            &[("period", "Today")],
            Some(TimeRange::Period(Period::Today)),
        ),
        (
            &[("period", "yesterday")],
            Some(TimeRange::Period(Period::Yesterday)),
        ),
        (
            &[("date", "2028-02-29")],
            Some(TimeRange::Day(d(2028, 2, 29))),
        ),
        (
            &[("from", "2026-11-24T18:30"), ("to", "2026-11-25")],
            Some(TimeRange::Between {
                from: Some(at(d(2026, 11, 24), 18, 30)),
                to: Some(at(d(2026, 11, 25), 0, 0)),
            }),
        ),
        (
            &[("to", "2026-11-25 06:00")],
            Some(TimeRange::Between {
                from: None,
                to: Some(at(d(2026, 11, 25), 6, 0)),
            }),
        ),
        (&[], None),
    ];
    for (given, want) in cases {
        let filter =
            HandFilter::parse(&pairs(given)).unwrap_or_else(|e| panic!("{given:?}: {e:?}"));
        assert_eq!(filter.range, want, "{given:?}");
    }
}

#[test]
fn every_bad_input_is_refused_naming_its_field_and_value() {
    let cases: &[(Given<'_>, &str, &str, &str)] = &[
        // (pairs, field, value, words in the message)
        (
            &[("date", "2026-02-30")],
            "date",
            "2026-02-30",
            "is not a date",
        ),
        (
            &[("player", "ann\u{1f}bo")],
            "player",
            "ann\u{1f}bo",
            "control character",
        ),
        (
            &[("note", "line\nbreak")],
            "note",
            "line\nbreak",
            "control character",
        ),
        (
            &[("date", "24/11/2026")],
            "date",
            "24/11/2026",
            "is not a date",
        ),
        (
            &[("from", "yesterday")],
            "from",
            "yesterday",
            "is not a date and time",
        ),
        (
            &[("to", "2026-11-24T25:00")],
            "to",
            "2026-11-24T25:00",
            "is not a date and time",
        ),
        (
            &[("from", "2026-11-25"), ("to", "2026-11-24")],
            "to",
            "2026-11-24T00:00",
            "is not after",
        ),
        (
            &[("period", "last week")],
            "period",
            "last week",
            "is not a quick pick",
        ),
        (
            &[("period", "today"), ("date", "2026-11-24")],
            "period",
            "today",
            "not both",
        ),
        (
            &[("date", "2026-11-24"), ("from", "2026-11-24")],
            "date",
            "2026-11-24",
            "not both",
        ),
        (&[("bank_min", "-5")], "bank_min", "-5", "is negative"),
        (
            &[("wager_min", "-0.01")],
            "wager_min",
            "-0.01",
            "is negative",
        ),
        (
            &[("wager_min", "ten")],
            "wager_min",
            "ten",
            "is not an amount",
        ),
        (
            &[("bank_min", "1e3")],
            "bank_min",
            "1e3",
            "is not an amount",
        ),
        (
            &[("status", "settled")],
            "status",
            "settled",
            "is not a status",
        ),
        (
            &[("kind", "practice")],
            "kind",
            "practice",
            "neither training nor real",
        ),
        (&[("number", "0")], "number", "0", "is not a hand number"),
        (&[("number", "-3")], "number", "-3", "is not a hand number"),
        (
            &[("number", "12a")],
            "number",
            "12a",
            "is not a hand number",
        ),
        (&[("number", "+5")], "number", "+5", "is not a hand number"),
        (
            &[("after", "garbage")],
            "after",
            "garbage",
            "start the search again",
        ),
        (&[("limit", "0")], "limit", "0", "page size"),
        (&[("limit", "100000")], "limit", "100000", "page size"),
        (&[("colour", "red")], "colour", "red", "is not a filter"),
        (
            &[("player", "Ann"), ("player", "Bo")],
            "player",
            "Bo",
            "given twice",
        ),
    ];
    for (given, field, value, words) in cases {
        let errors = HandFilter::parse(&pairs(given)).expect_err(&format!("{given:?}"));
        let e = errors
            .iter()
            .find(|e| e.field() == *field)
            .unwrap_or_else(|| panic!("{given:?}: no error on {field}: {errors:?}"));
        assert_eq!(e.value(), Some(*value), "{given:?}");
        assert!(
            e.message().contains(words),
            "{given:?}: {:?} lacks {words:?}",
            e.message()
        );
    }
}

#[test]
fn several_bad_fields_are_all_reported() {
    let given = pairs(&[("bank_min", "-1"), ("status", "x"), ("date", "nope")]);
    let errors = HandFilter::parse(&given).unwrap_err();
    let fields: Vec<&str> = errors.iter().map(|e| e.field()).collect();
    assert_eq!(fields, ["bank_min", "status", "date"]);
}

#[test]
fn a_cursor_reads_back_what_it_wrote() {
    let cursor = Cursor {
        opened_at: "2026-11-24T18:30:00.123456Z".into(),
        id: "0193-ab".into(),
    };
    let filter =
        HandFilter::parse(&pairs(&[("after", &cursor.encode()), ("limit", "20")])).unwrap();
    assert_eq!((filter.after, filter.limit), (Some(cursor), 20));
}

#[test]
fn names_compare_trimmed_and_in_lower_case() {
    assert_eq!(name_key("  \u{c1}NN "), "\u{e1}nn");
    // A decomposed Á is the same name.
    assert_eq!(name_key("A\u{301}nn"), "\u{e1}nn");
}

#[test]
fn money_in_ten_thousandths_is_exact_both_ways() {
    for (text, e4) in [
        ("0", 0),
        ("12.50", 125_000),
        ("0.0001", 1),
        ("-60.00", -600_000),
        ("5000", 50_000_000),
    ] {
        assert_eq!(units::to_e4(money(text)), Some(e4), "{text}");
        assert_eq!(units::from_e4(e4), money(text), "{e4}");
    }
    assert_eq!(units::to_e4(money("0.00001")), None);
}
