//! The rule of every totals block (a player's history, the search, the
//! shift report): the money of the closed hands only, corrections applied;
//! the open hands (money not final) and the voided ones (every bet
//! returned) are counted apart, never summed, and said.

/// The one hand state whose money a total sums.
pub const SUMMED: &str = "closed";
/// The states of a hand still open.
pub const OPEN: [&str; 2] = ["betting", "dealt"];
/// The state of a voided hand.
pub const VOIDED: &str = "voided";

/// What a total leaves out, in words: "4 open, 1 voided — not in the
/// totals"; empty when nothing is.
pub fn left_out(open: i64, voided: i64) -> String {
    let parts: Vec<String> = [(open, "open"), (voided, "voided")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(n, what)| format!("{n} {what}"))
        .collect();
    match parts.is_empty() {
        true => String::new(),
        false => format!("{} — not in the totals", parts.join(", ")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_is_left_out_is_said_only_when_something_is() {
        let cases = [
            (0, 0, ""),
            (4, 1, "4 open, 1 voided — not in the totals"),
            (0, 2, "2 voided — not in the totals"),
            (1, 0, "1 open — not in the totals"),
        ];
        for (open, voided, words) in cases {
            assert_eq!(left_out(open, voided), words, "{open} {voided}");
        }
    }
}
