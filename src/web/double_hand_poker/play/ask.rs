//! What the guided hand asks before it records: a wager that repeats one on
//! its seat, a void; and what a refused form shows again.

use axum::http::StatusCode;

use super::forms::Fields;
use super::view::Loaded;
use super::words;

/// What was typed and what was wrong, to show the form again; or a
/// question asked before recording (a repeated wager, a void).
#[derive(Default)]
pub(super) struct Refusal {
    pub field: String,
    pub message: String,
    pub typed: Vec<(String, String)>,
    pub status: Option<StatusCode>,
    /// A wager repeating one on its seat: the question asked.
    pub duplicate: String,
    /// A void asked for: shown for confirmation.
    pub void_confirm: bool,
}

/// A question the page asks before a command is sent: a wager that repeats
/// one on its seat (the browser's Back then resubmit), a void. None: send
/// it. A form confirming the question carries `confirm`. The JSON API asks
/// nothing: its idempotency key already makes a retry safe, and a script
/// placing a second equal wager means it.
pub(super) fn ask_first(
    step: &str,
    fields: &Fields,
    loaded: &Loaded,
    events: &[crate::domain::double_hand_poker::hand_record::HandEvent],
) -> Option<Refusal> {
    use crate::domain::double_hand_poker::hand_record::HandEvent;
    // A form from an older page is refused as stale (409) without asking.
    if fields.get("version").trim() != loaded.view.version.to_string() {
        return None;
    }
    match (step, events) {
        ("void", _) if fields.get("confirm") != "void" => Some(Refusal {
            status: Some(StatusCode::OK),
            void_confirm: true,
            ..Refusal::default()
        }),
        (
            "wager",
            [
                HandEvent::WagerPlaced {
                    seat,
                    bettor,
                    amount,
                    backline,
                    ..
                },
            ],
        ) if fields.get("confirm") != "duplicate" => {
            let same = loaded
                .state
                .duplicate_wager(*seat, bettor, *amount, *backline)?;
            let notice = words::duplicate_notice(same);
            Some(if same.backline {
                Refusal {
                    status: Some(StatusCode::OK),
                    duplicate: notice,
                    ..Refusal::default()
                }
            } else {
                // A second primary wager on a seat is never recorded.
                Refusal {
                    field: "seat".into(),
                    message: format!(
                        "Seat {seat}, {} already has a {} wager: it is recorded, nothing new was. A seat has one primary wager: tick Backline for another bet on it.",
                        same.bettor, same.amount
                    ),
                    status: Some(StatusCode::UNPROCESSABLE_ENTITY),
                    ..Refusal::default()
                }
            })
        }
        ("lines", events) if fields.get("confirm") != "duplicate" => {
            let repeated: Vec<_> = events
                .iter()
                .filter_map(|e| match e {
                    HandEvent::WagerPlaced {
                        seat,
                        bettor,
                        amount,
                        backline,
                        ..
                    } => loaded
                        .state
                        .duplicate_wager(*seat, bettor, *amount, *backline),
                    _ => None,
                })
                .collect();
            if let Some(primary) = repeated.iter().find(|w| !w.backline) {
                return Some(Refusal {
                    field: "wager_lines".into(),
                    message: format!(
                        "Seat {}, {} already has a {} wager: it is recorded, so nothing was. Take its line out (a seat has one primary wager; end a line with b for a backline).",
                        primary.seat, primary.bettor, primary.amount
                    ),
                    status: Some(StatusCode::UNPROCESSABLE_ENTITY),
                    ..Refusal::default()
                });
            }
            let notices: Vec<String> = repeated
                .iter()
                .map(|w| words::duplicate_notice(w))
                .collect();
            (!notices.is_empty()).then(|| Refusal {
                status: Some(StatusCode::OK),
                duplicate: notices.join(" "),
                ..Refusal::default()
            })
        }
        _ => None,
    }
}
