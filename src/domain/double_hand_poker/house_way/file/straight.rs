//! A `straight or flush` play read: `straight or flush [with pair in
//! front] [without R [R]] [if front at least singles A B]`. `without`
//! (format `house-way 2`) keeps one or two named ranks out of the back
//! hand, so their cards go in front; it is refused, with its line and why,
//! in a `house-way 1` file and where the rule's hand cannot keep them out.

use super::{
    AtLeast, FileError, HandClass, Play, PlayContext, error, rank_of, rank_text, two_places,
};

/// The rest of a `play straight or flush …` line (after those words).
pub(super) fn straight_or_flush_of(
    at: PlayContext,
    rest: &str,
    bad: &dyn Fn() -> FileError,
) -> Result<Play, FileError> {
    let mut rest = rest.trim();
    let pair_front = take(&mut rest, "with pair in front");
    let (without_text, after) = match rest.strip_prefix("without") {
        Some(after) if after.is_empty() || after.starts_with(' ') => {
            let end = after.find("if ").unwrap_or(after.len());
            (Some(after[..end].trim()), after[end..].trim())
        }
        _ => (None, rest),
    };
    rest = after;
    let without = match without_text {
        Some(ranks) => without_of(at, ranks, pair_front)?,
        None => 0,
    };
    let at_least = match rest.strip_prefix("if front at least singles ") {
        Some(places) => {
            let (a, b) = two_places(places).ok_or_else(bad)?;
            rest = "";
            Some(AtLeast::Singles(a, b))
        }
        None => None,
    };
    if !rest.is_empty() {
        return Err(bad());
    }
    Ok(Play::StraightOrFlush {
        pair_front,
        without,
        at_least,
    })
}

/// Strips `words` from the front of `rest`; whether they were there.
fn take(rest: &mut &str, words: &str) -> bool {
    match rest.strip_prefix(words) {
        Some(after) => {
            *rest = after.trim();
            true
        }
        None => false,
    }
}

/// `A` or `A K` after `without`: the ranks as bits, refused with the
/// line, the words and why.
fn without_of(at: PlayContext, ranks: &str, pair_front: bool) -> Result<u16, FileError> {
    let found = format!("without {ranks}").trim_end().to_string();
    if at.version < 2 {
        return Err(error(
            at.line,
            "\"without\" is a house-way 2 word: this file starts \"house-way 1\", whose \
             straight or flush always takes the best front (start it \"house-way 2\")",
            &found,
        ));
    }
    let parsed: Option<Vec<u8>> = ranks.split_whitespace().map(rank_of).collect();
    let list = match parsed {
        Some(list) if (1..=2).contains(&list.len()) && list.first() != list.get(1) => list,
        _ => {
            return Err(error(
                at.line,
                "\"without\" takes one or two different ranks (2-9, T, J, Q, K, A)",
                &found,
            ));
        }
    };
    if pair_front && list.len() == 2 {
        return Err(error(
            at.line,
            "\"without\" two ranks cannot go with \"with pair in front\": the two cards kept \
             out of the back are the front, and two ranks are not a pair",
            &found,
        ));
    }
    if let Some(&r) = list.iter().find(|&&r| holds_three_or_more(at.hand, r)) {
        return Err(error(
            at.line,
            format!(
                "\"without {}\" cannot apply to this rule's hand: it holds three or more of \
                 that rank, and only two cards go in front",
                rank_text(r)
            ),
            &found,
        ));
    }
    Ok(list.iter().fold(0, |bits, &r| bits | 1 << r))
}

/// Whether every hand of `class` holds three or more cards of `rank`.
fn holds_three_or_more(class: HandClass, rank: u8) -> bool {
    const ACE: u8 = 12;
    let only = |r: super::Ranks| r.low == rank && r.high == rank;
    match class {
        HandClass::FiveAces => rank == ACE,
        HandClass::FourOfAKind(r) | HandClass::ThreeOfAKind(r) => only(r),
        _ => false,
    }
}
