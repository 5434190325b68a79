//! A refused command in the dealer's words, beside the field at fault: the
//! core's `FieldError` names the field by its path (`wagers[0].seat`,
//! `hands.7.cards`, `events[0].reason`) and words the message for the API;
//! the page shows the message without paths or ids, beside the input the
//! path means on the form that was sent, and focuses that input. The JSON
//! API's body is untouched.

use axum::http::StatusCode;

use super::view::Loaded;
use crate::domain::common::field_error::AsFieldError;
use crate::domain::double_hand_poker::hand_record::HandError;
use crate::domain::double_hand_poker::settle::{SettleError, WagerInput};
use crate::domain::double_hand_poker::wager_lines::numbered_lines;
use crate::store::double_hand_poker::hands::CommandError;

/// A page sent from a hand that has moved on since (409).
pub(super) const STALE: &str = "This hand changed since the page was loaded — here is the current state. Nothing was recorded.";

/// The field the page shows a message beside (`form`: the page's one
/// message at the top) and the message, for a command the hand refused.
pub(super) fn refused(
    e: &CommandError,
    status: StatusCode,
    loaded: &Loaded,
    step: &str,
) -> (String, String) {
    if status == StatusCode::CONFLICT {
        return ("form".into(), STALE.into());
    }
    let wagers = loaded.state.wagers();
    if let Some((field, message)) = hand_error(e).and_then(|h| special(h, wagers, step)) {
        return (page_field(step, &field), message);
    }
    match e.field_error() {
        Some(fe) => {
            // A seat's cards (`hands.7.cards`): the seat named first.
            let seat = fe
                .field()
                .strip_prefix("hands.")
                .and_then(|rest| rest.split('.').next())
                .filter(|seat| seat.parse::<u8>().is_ok());
            let message = match seat {
                Some(seat) => format!("Seat {seat}: {}", fe.message()),
                None => plain(fe.message(), wagers),
            };
            (page_field(step, fe.field()), message)
        }
        None => ("form".into(), plain(&e.to_string(), wagers)),
    }
}

/// A refusal of several wagers typed at once, with the line at fault
/// named first: the command's events are the lines' wagers in order.
pub(super) fn on_line(e: &CommandError, lines_text: &str, message: String) -> String {
    let CommandError::Hand(HandError::At { index, .. }) = e else {
        return message;
    };
    match numbered_lines(lines_text).nth(*index) {
        // As the reader words a line it cannot read: number, then text.
        Some((line, text)) => format!("Line {line}, \"{text}\": {message}"),
        None => message,
    }
}

/// The hand's own error inside a command's (`events[i]`).
fn hand_error(e: &CommandError) -> Option<&HandError> {
    let CommandError::Hand(h) = e else {
        return None;
    };
    let mut h: &HandError = h;
    while let HandError::At { error, .. } = h {
        h = error;
    }
    Some(h)
}

/// The errors whose API wording names an id or a JSON field, reworded.
fn special(h: &HandError, wagers: &[WagerInput], step: &str) -> Option<(String, String)> {
    // How the form that was sent marks a backline wager.
    let backline_hint = match step {
        "lines" => "end its line with b",
        _ => "tick Backline",
    };
    let rules = match h {
        HandError::Rules(r) => r,
        HandError::UnknownWager(_) => {
            return Some((
                "form".into(),
                "That wager is no longer in this hand — here is the current state. Nothing was recorded.".into(),
            ));
        }
        HandError::StepOrder { .. } => {
            return Some((
                "form".into(),
                "That step is not the next one to confirm — here is the current state. Nothing was recorded.".into(),
            ));
        }
        HandError::NoWagersOnSeat(seat) => {
            return Some(("seat".into(), format!("Seat {seat} has no wagers.")));
        }
        HandError::MixedResults => {
            return Some((
                "outcome".into(),
                "Give the seat's result or its cards, one of them.".into(),
            ));
        }
        _ => return None,
    };
    Some(match rules {
        SettleError::SecondPrimary { seat, first_id, .. } => (
            "seat".into(),
            format!(
                "Seat {seat} already has {}. A seat has one primary wager: {backline_hint} for another bet on it.",
                described(first_id, wagers)
            ),
        ),
        SettleError::BacklineWithoutPrimary { seat, .. } => (
            "backline".into(),
            format!(
                "Seat {seat} has no primary wager yet, so no hand to back: enter the seat's own wager first."
            ),
        ),
        SettleError::MissingOutcome { seat } => (
            format!("outcomes.{seat}"),
            format!("Seat {seat}: choose player, PD or push, or type the seat's cards."),
        ),
        SettleError::MissingHand { seat, why } => (
            format!("hands.{seat}"),
            format!("Seat {seat} has no cards typed ({why})."),
        ),
        _ => return None,
    })
}

/// "Ann's wager of 50.00" for a wager id, as the dealer knows it.
fn described(id: &str, wagers: &[WagerInput]) -> String {
    match wagers.iter().find(|w| w.id == id) {
        Some(w) => format!(
            "{}'s {}wager of {}",
            w.bettor,
            if w.backline { "backline " } else { "" },
            w.amount
        ),
        None => "a wager".into(),
    }
}

/// A message with its first letter a capital.
pub(super) fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// A message without the ids the dealer never sees; first letter capital.
fn plain(message: &str, wagers: &[WagerInput]) -> String {
    let mut text = message.to_string();
    for w in wagers {
        let quoted = format!("\"{}\"", w.id);
        if text.contains(&quoted) {
            text = text.replace(&quoted, &described(&w.id, wagers));
        }
    }
    capitalized(&text)
}

/// The input of the form `step` sent that a field path means; `form` when
/// it means none of them (the message then shows once, at the top).
pub(super) fn page_field(step: &str, path: &str) -> String {
    let last = path.rsplit('.').next().unwrap_or(path);
    match step {
        "void" => "v-reason".into(),
        "note" => "note-text".into(),
        "correct" => match last {
            "reason" => "c-reason",
            "outcome" => "c-outcome",
            "cards" | "high" | "low" => "c-cards",
            _ if path.starts_with("hands") => "c-cards",
            _ => "c-seat",
        }
        .into(),
        "results" => {
            let mut parts = path.split('.');
            match (parts.next(), parts.next(), parts.next()) {
                (Some("hands"), Some(seat), part) if seat.parse::<u8>().is_ok() => {
                    let part = part
                        .filter(|p| matches!(*p, "high" | "low"))
                        .unwrap_or("cards");
                    format!("{part}_{seat}")
                }
                (Some("outcomes"), Some(seat), _) if seat.parse::<u8>().is_ok() => {
                    format!("outcome_{seat}")
                }
                _ if ["cards_", "high_", "low_", "outcome_"]
                    .iter()
                    .any(|p| path.starts_with(p)) =>
                {
                    path.to_string()
                }
                _ => "form".into(),
            }
        }
        "pd" if path.contains("declined") => "declined".into(),
        "pd" => match last {
            "seat" | "player" | "bank" | "option" | "declined" => last.into(),
            _ => "form".into(),
        },
        "lines" => "wager_lines".into(),
        "wager" => match last {
            "seat" | "bettor" | "amount" | "backline" => last.into(),
            _ if path.starts_with("wagers[") => "seat".into(),
            _ => "form".into(),
        },
        "dice" if last.starts_with("dice") || matches!(last, "d1" | "d2" | "d3") => {
            if matches!(last, "d1" | "d2" | "d3") {
                last.into()
            } else {
                "d1".into()
            }
        }
        _ => "form".into(),
    }
}

/// The notice of a wager that repeats one on its seat.
pub(super) fn duplicate_notice(w: &WagerInput) -> String {
    format!(
        "Seat {}, {} already has a {}{} wager. Add a second one?",
        w.seat,
        w.bettor,
        w.amount,
        if w.backline { " backline" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_path_means_the_input_of_the_form_that_was_sent() {
        for (step, path, want) in [
            ("wager", "wagers[0].amount", "amount"),
            ("wager", "wagers[1]", "seat"),
            ("wager", "events[0].bettor", "bettor"),
            ("wager", "idempotency_key", "form"),
            ("pd", "pd.bank", "bank"),
            ("pd", "events[0].declined[1].seat", "declined"),
            ("dice", "action.dice[1]", "d1"),
            ("dice", "d2", "d2"),
            ("results", "hands.7.cards", "cards_7"),
            ("results", "hands.7.low", "low_7"),
            ("results", "hands.1", "cards_1"),
            ("results", "outcomes.4", "outcome_4"),
            ("results", "outcome_5", "outcome_5"),
            ("results", "hands", "form"),
            ("correct", "events[0].reason", "c-reason"),
            ("correct", "hands.6.cards", "c-cards"),
            ("correct", "outcomes.3", "c-seat"),
            ("void", "events[0].reason", "v-reason"),
            ("confirm", "event.wagers", "form"),
        ] {
            assert_eq!(page_field(step, path), want, "{step} {path}");
        }
    }

    #[test]
    fn ids_become_the_wager_the_dealer_knows() {
        let wagers = [WagerInput {
            id: "w-e35712208084".into(),
            seat: 3,
            bettor: "Ann".into(),
            amount: crate::domain::common::money::Money::from_units(50),
            backline: false,
            payout: None,
        }];
        assert_eq!(
            plain("wager \"w-e35712208084\" is not here", &wagers),
            "Wager Ann's wager of 50.00 is not here"
        );
        assert_eq!(
            duplicate_notice(&wagers[0]),
            "Seat 3, Ann already has a 50.00 wager. Add a second one?"
        );
    }
}
