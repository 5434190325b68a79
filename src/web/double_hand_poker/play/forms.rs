//! The guided hand's forms turned into hand events: each form names its
//! step; the fields are checked here (the field and value named on
//! refusal) and the hand's rules are checked by the hand writer.

use super::view::{self as v, Loaded};
use crate::domain::common::text::FreeText;
use crate::domain::double_hand_poker::hand_record::{HandEvent, REASON_CHARS_MAX};
use crate::domain::double_hand_poker::outcome::Outcome;
use crate::domain::double_hand_poker::settle::{HandInput, SetBy};
use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::double_hand_poker::wager_lines::parse_wager_lines;

/// A form's fields by name.
pub(in crate::web) struct Fields(pub Vec<(String, String)>);

impl Fields {
    pub fn get(&self, name: &str) -> &str {
        self.0
            .iter()
            .find(|(k, _)| k == name)
            .map_or("", |(_, v)| v.as_str())
    }

    /// What was typed into `name`, trimmed; None when that leaves nothing.
    pub fn filled(&self, name: &str) -> Option<&str> {
        Some(self.get(name).trim()).filter(|text| !text.is_empty())
    }
}

pub(super) type Refused = (String, String);

fn refuse(field: &str, message: impl Into<String>) -> Refused {
    (field.to_string(), message.into())
}

fn int_field(fields: &Fields, name: &str) -> Result<i64, Refused> {
    let text = fields.get(name).trim();
    text.parse()
        .map_err(|_| refuse(name, format!("\"{text}\" is not a whole number")))
}

fn text_field(fields: &Fields, name: &str) -> Result<String, Refused> {
    let text = fields.get(name).trim();
    if text.is_empty() {
        return Err(refuse(name, "required"));
    }
    Ok(text.to_string())
}

/// The wager form's bettor: a new name typed, else the name tapped among
/// those seen at the table (`bettor_seen`); refused as the bettor's field.
fn bettor(fields: &Fields) -> Result<String, Refused> {
    match (fields.filled("bettor"), fields.filled("bettor_seen")) {
        (None, Some(seen)) => Ok(seen.to_string()),
        _ => text_field(fields, "bettor"),
    }
}

/// The events a form asks for.
pub(super) fn events_of(
    step: &str,
    fields: &Fields,
    loaded: &Loaded,
    table: Option<&TableConfig>,
) -> Result<Vec<HandEvent>, Refused> {
    Ok(match step {
        "pd" => vec![super::pd::pd_event(fields)?],
        "wager" => wager_placed(fields)?,
        "again" => super::again::events(fields, &wager_key(fields)?)?,
        "lines" => wager_lines(fields)?,
        "remove" => vec![HandEvent::WagerRemoved {
            id: text_field(fields, "wager")?,
            reason: "entered by mistake; removed by the dealer".into(),
        }],
        "dice" => dice_thrown(fields, loaded, table)?,
        "results" => results(fields, loaded)?,
        // The page names the steps it showed, so a form sent twice asks
        // for the same thing.
        "confirm" => vec![steps_confirmed(fields)],
        // The walkthrough's last steps confirmed and the hand closed at
        // once: one command, so both are recorded or neither.
        "confirm_close" => vec![
            steps_confirmed(fields),
            HandEvent::HandClosed { settlement: None },
        ],
        "close" => vec![HandEvent::HandClosed { settlement: None }],
        // The note as typed: the core checks it (free text, 1..2000).
        "note" => vec![HandEvent::HandNoteAdded {
            text: fields.get("text").to_string(),
        }],
        "void" => vec![HandEvent::HandVoided {
            reason: reason_field(fields)?,
        }],
        "correct" => outcome_corrected(fields)?,
        other => {
            return Err(refuse(
                "step",
                format!("\"{other}\" is not a step of this page"),
            ));
        }
    })
}

/// A wager placed from the wager form.
fn wager_placed(fields: &Fields) -> Result<Vec<HandEvent>, Refused> {
    // The table's limits, unit and seats are the hand's rules,
    // checked by the core on every path.
    let amount = v::money_field("amount", fields.get("amount"))?;
    let key = wager_key(fields)?;
    Ok(vec![HandEvent::WagerPlaced {
        id: format!("w-{key}"),
        seat: int_field(fields, "seat")?,
        bettor: bettor(fields)?,
        amount,
        backline: !fields.get("backline").is_empty(),
        payout: None,
    }])
}

/// The wagers typed one a line, each placed.
fn wager_lines(fields: &Fields) -> Result<Vec<HandEvent>, Refused> {
    let key = wager_key(fields)?;
    let placed = parse_wager_lines("wager_lines", fields.get("wager_lines"))
        .map_err(|e| refuse(e.field(), e.message()))?
        .into_iter()
        .map(|w| HandEvent::WagerPlaced {
            id: format!("w-{key}-{}", w.line),
            seat: w.seat,
            bettor: w.bettor,
            amount: w.amount,
            backline: w.backline,
            payout: None,
        })
        .collect();
    Ok(placed)
}

/// The dice thrown for the ACTION, after the collection when the hand's
/// schedules (else, for a hand opened before they were recorded, the
/// table's) take one.
fn dice_thrown(
    fields: &Fields,
    loaded: &Loaded,
    table: Option<&TableConfig>,
) -> Result<Vec<HandEvent>, Refused> {
    let dice = ["d1", "d2", "d3"]
        .iter()
        .map(|d| int_field(fields, d))
        .collect::<Result<Vec<_>, _>>()?;
    let mut events = Vec::new();
    match loaded.state.posted() {
        // Taken by the schedules the hand recorded at its opening.
        Some(posted) if posted.takes_collection() => {
            events.push(HandEvent::CollectionTaken {
                player: None,
                bank: None,
            });
        }
        Some(_) => {}
        // A hand opened before its rules were recorded: the table's.
        None => {
            if let Some(c) = table.and_then(TableConfig::collection) {
                events.push(HandEvent::CollectionTaken {
                    player: c.player,
                    bank: c.bank,
                });
            }
        }
    }
    events.push(HandEvent::ActionSet {
        dice: Some(dice),
        seat: None,
    });
    Ok(events)
}

/// A seat's outcome corrected: its result, or its cards.
fn outcome_corrected(fields: &Fields) -> Result<Vec<HandEvent>, Refused> {
    let seat = int_field(fields, "seat")?;
    // The seat's result, or its cards (seven for the house way, or
    // the high and low hands as set): whichever way it was entered.
    let hand = hand_of(fields, "cards", "high", "low", &format!("Seat {seat}"))?;
    let outcome = match (&hand, fields.get("outcome")) {
        (None, _) => Some(outcome_field(fields, "outcome").map_err(|_| {
            refuse(
                "outcome",
                "choose the result (player, PD or push), or type the seat's cards",
            )
        })?),
        (Some(_), "") => None,
        (Some(_), _) => {
            return Err(refuse(
                "outcome",
                "give the result or the cards, not both: leave one of them blank",
            ));
        }
    };
    Ok(vec![HandEvent::OutcomeCorrected {
        seat,
        outcome,
        hand,
        reason: reason_field(fields)?,
        settlement: None,
    }])
}

/// The settlement steps the page showed (so a form sent twice asks for the
/// same thing).
fn steps_confirmed(fields: &Fields) -> HandEvent {
    HandEvent::StepsConfirmed {
        wagers: fields
            .get("wagers")
            .split(',')
            .map(str::trim)
            .filter(|w| !w.is_empty())
            .map(str::to_string)
            .collect(),
    }
}

/// A wager's id is made from the form's idempotency key, so a form sent
/// twice is the same command (and is recorded once).
fn wager_key(fields: &Fields) -> Result<String, Refused> {
    let key: String = fields
        .get("idempotency_key")
        .chars()
        .filter(char::is_ascii_alphanumeric)
        .take(12)
        .collect();
    if key.is_empty() {
        return Err(refuse("idempotency_key", "missing: reload the page"));
    }
    Ok(key)
}

fn outcome_field(fields: &Fields, name: &str) -> Result<Outcome, Refused> {
    outcome_of(fields.get(name), name)
}

/// A seat's result as the form sent it (`name`, for the refusal).
fn outcome_of(chosen: &str, name: &str) -> Result<Outcome, Refused> {
    match chosen {
        "player" => Ok(Outcome::Player),
        "pd" => Ok(Outcome::Pd),
        "push" => Ok(Outcome::Push),
        "" => Err(refuse(name, "choose player, PD or push")),
        other => Err(refuse(
            name,
            format!("\"{other}\" is not player, pd or push"),
        )),
    }
}

/// A reason typed on the page: required, checked as the hand checks it.
fn reason_field(fields: &Fields) -> Result<String, Refused> {
    let text = fields.get("reason").trim();
    if text.is_empty() {
        return Err(refuse("reason", "a reason is required"));
    }
    FreeText::paragraph("reason", text, REASON_CHARS_MAX)
        .map_err(|e| refuse("reason", e.message))?;
    Ok(text.to_string())
}

/// The hand typed into `cards` (seven, set by the house way) or `high` and
/// `low` (as the player set them); None when all three are blank. `who`
/// names the seat in the refusal.
fn hand_of(
    fields: &Fields,
    cards: &str,
    high: &str,
    low: &str,
    who: &str,
) -> Result<Option<HandInput>, Refused> {
    let (c, h, l) = (
        fields.filled(cards),
        fields.filled(high),
        fields.filled(low),
    );
    Ok(match (c, h, l) {
        (None, None, None) => None,
        (Some(c), None, None) => Some(HandInput {
            cards: Some(c.to_string()),
            set: Some(SetBy::House),
            ..HandInput::default()
        }),
        (None, Some(h), Some(l)) => Some(HandInput {
            high: Some(h.to_string()),
            low: Some(l.to_string()),
            ..HandInput::default()
        }),
        (None, Some(_), None) => {
            return Err(refuse(
                low,
                format!("{who}: type the low hand (2 cards) too"),
            ));
        }
        (None, None, Some(_)) => {
            return Err(refuse(
                high,
                format!("{who}: type the high hand (5 cards) too"),
            ));
        }
        (Some(_), _, _) => {
            return Err(refuse(
                cards,
                format!(
                    "{who}: give seven cards for the house way, or the high and low hands as set, not both"
                ),
            ));
        }
    })
}

/// Per seat with wagers: its cards when typed, else the result chosen, else
/// the one the button pressed gives all the rest (`rest`: "All the rest:
/// PD wins" or "… push"); the PD's hand first, needed once any seat is
/// entered as cards.
fn results(fields: &Fields, loaded: &Loaded) -> Result<Vec<HandEvent>, Refused> {
    let pd_seat = loaded.state.pd().map_or(1, |p| p.seat);
    let mut events = Vec::new();
    let mut any_cards = false;
    for seat in loaded.wagered_seats() {
        let who = format!("Seat {seat}");
        let hand = hand_of(
            fields,
            &format!("cards_{seat}"),
            &format!("high_{seat}"),
            &format!("low_{seat}"),
            &who,
        )?;
        events.push(match hand {
            Some(hand) => {
                any_cards = true;
                HandEvent::HandRecorded { seat, hand }
            }
            None => {
                let name = format!("outcome_{seat}");
                let chosen = match fields.get(&name) {
                    "" => fields.get("rest"),
                    chosen => chosen,
                };
                let outcome = outcome_of(chosen, &name).map_err(|_| {
                    refuse(
                        &name,
                        format!("{who}: choose player, PD or push, or type the seat's cards"),
                    )
                })?;
                HandEvent::OutcomeRecorded { seat, outcome }
            }
        });
    }
    let who = format!("Seat {pd_seat} (the PD)");
    let pd_hand = hand_of(
        fields,
        &format!("cards_{pd_seat}"),
        &format!("high_{pd_seat}"),
        &format!("low_{pd_seat}"),
        &who,
    )?;
    match pd_hand {
        Some(hand) => events.insert(
            0,
            HandEvent::HandRecorded {
                seat: pd_seat,
                hand,
            },
        ),
        None if any_cards => {
            return Err(refuse(
                &format!("cards_{pd_seat}"),
                format!(
                    "{who}: type the PD's cards — the seats entered as cards are decided against the PD's hand"
                ),
            ));
        }
        None => {}
    }
    Ok(events)
}
