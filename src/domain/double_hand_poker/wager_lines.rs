//! Several wagers typed at once, one per line: `SEAT BETTOR AMOUNT`, with
//! `b` (or `backline`) at the end for a backline wager — `4 Ann 60`,
//! `3 Gus 10 b`. A first hand at a table has nothing to offer again, and a
//! dealer who knows the table types its wagers faster as lines than as
//! three fields and a tap each. Lines may also be separated by `;`, so one
//! line of text holds several. This reads the lines only; each wager is
//! then a `WagerPlaced` like any other, and the hand's rules (seats,
//! limits, the bank, one primary wager per seat) check it on every path.

use crate::common::field_error::FieldError;
use crate::common::money::Money;

/// At most this many wagers in one entry (more than a full table's
/// primary and backline wagers; a limit on what one form may ask).
pub const WAGER_LINES_MAX: usize = 40;

/// One wager as a line gave it; `line` counts from 1.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WagerLine {
    pub line: usize,
    pub seat: i64,
    pub bettor: String,
    pub amount: Money,
    pub backline: bool,
}

/// The wagers `text` holds, in order; blank lines are passed over. A
/// refusal names `field`, the line and what it held.
pub fn parse_wager_lines(field: &str, text: &str) -> Result<Vec<WagerLine>, FieldError> {
    let lines: Vec<(usize, &str)> = numbered_lines(text).collect();
    if lines.is_empty() {
        return Err(FieldError::new(
            field,
            "type the wagers, one per line: seat, bettor, amount (4 Ann 60)",
        ));
    }
    if lines.len() > WAGER_LINES_MAX {
        return Err(FieldError::new(
            field,
            format!(
                "at most {WAGER_LINES_MAX} wagers at once; {} were typed",
                lines.len()
            ),
        ));
    }
    lines
        .into_iter()
        .map(|(line, text)| {
            parse_line(line, text)
                .map_err(|why| FieldError::new(field, format!("line {line}, \"{text}\": {why}")))
        })
        .collect()
}

/// The lines of `text` that hold something, each with its number (from 1,
/// blank lines counted): the i-th is the i-th wager parsed.
pub fn numbered_lines(text: &str) -> impl Iterator<Item = (usize, &str)> {
    text.split(['\n', ';'])
        .map(str::trim)
        .enumerate()
        .filter(|(_, l)| !l.is_empty())
        .map(|(i, l)| (i + 1, l))
}

fn parse_line(line: usize, text: &str) -> Result<WagerLine, String> {
    let mut words: Vec<&str> = text.split_whitespace().collect();
    let backline = matches!(
        words.last().map(|w| w.to_ascii_lowercase()).as_deref(),
        Some("b" | "backline")
    );
    if backline {
        words.pop();
    }
    let [seat, name @ .., amount] = words.as_slice() else {
        return Err("give the seat, the bettor and the amount, as in 4 Ann 60".into());
    };
    if name.is_empty() {
        return Err("give the seat, the bettor and the amount, as in 4 Ann 60".into());
    }
    let seat: i64 = seat
        .parse()
        .map_err(|_| format!("\"{seat}\" is not a seat number (the line begins with the seat)"))?;
    let amount = Money::parse(amount).map_err(|_| {
        format!(
            "\"{amount}\" is not an amount (the line ends with the amount, then b for a backline)"
        )
    })?;
    Ok(WagerLine {
        line,
        seat,
        bettor: name.join(" "),
        amount,
        backline,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Vec<(usize, i64, String, String, bool)> {
        parse_wager_lines("wager_lines", text)
            .unwrap()
            .into_iter()
            .map(|w| (w.line, w.seat, w.bettor, w.amount.to_string(), w.backline))
            .collect()
    }

    #[test]
    fn each_line_is_a_seat_a_bettor_and_an_amount() {
        let got = read("2 Ann 50\n3 Bo 40.50\n\n3 Gus 10 b\n 5 Mary Ann 15 backline \n");
        assert_eq!(
            got,
            vec![
                (1, 2, "Ann".into(), "50.00".into(), false),
                (2, 3, "Bo".into(), "40.50".into(), false),
                (4, 3, "Gus".into(), "10.00".into(), true),
                (5, 5, "Mary Ann".into(), "15.00".into(), true),
            ]
        );
    }

    #[test]
    fn semicolons_separate_wagers_on_one_line_too() {
        let got = read("2 Ann 50; 3 Bo 40 B");
        assert_eq!(
            got,
            vec![
                (1, 2, "Ann".into(), "50.00".into(), false),
                (2, 3, "Bo".into(), "40.00".into(), true),
            ]
        );
    }

    #[test]
    fn a_bettor_named_b_is_still_a_bettor_when_the_amount_ends_the_line() {
        // "4 B 60": the last word is the amount, so B is the name.
        assert_eq!(
            read("4 B 60"),
            vec![(1, 4, "B".into(), "60.00".into(), false)]
        );
    }

    #[test]
    fn every_bad_line_is_refused_naming_its_number_and_what_it_held() {
        let cases = [
            ("", "type the wagers"),
            ("  \n ; ", "type the wagers"),
            (
                "2 Ann",
                "line 1, \"2 Ann\": give the seat, the bettor and the amount",
            ),
            (
                "2 50",
                "line 1, \"2 50\": give the seat, the bettor and the amount",
            ),
            (
                "2 Ann 50\nx Bo 40",
                "line 2, \"x Bo 40\": \"x\" is not a seat number",
            ),
            (
                "2 Ann fifty",
                "line 1, \"2 Ann fifty\": \"fifty\" is not an amount",
            ),
            ("2 Ann 50 b b", "\"b\" is not an amount"),
        ];
        for (text, want) in cases {
            let e = parse_wager_lines("wager_lines", text).unwrap_err();
            assert_eq!(e.field(), "wager_lines", "{text:?}");
            assert!(e.message().contains(want), "{text:?}: {}", e.message());
        }
    }

    #[test]
    fn more_wagers_than_the_limit_are_refused() {
        let text = vec!["2 Ann 5"; WAGER_LINES_MAX + 1].join("\n");
        let e = parse_wager_lines("wager_lines", &text).unwrap_err();
        assert!(e.message().contains("at most 40"), "{}", e.message());
        assert_eq!(read(&vec!["2 Ann 5"; WAGER_LINES_MAX].join("\n")).len(), 40);
    }
}
