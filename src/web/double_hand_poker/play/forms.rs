//! The guided hand's forms turned into hand events: each form names its
//! step; the fields are checked here (the field and value named on
//! refusal) and the hand's rules are checked by the hand writer.

use super::view::{self as v, Loaded};
use crate::domain::double_hand_poker::hand_record::HandEvent;
use crate::domain::double_hand_poker::outcome::Outcome;
use crate::domain::double_hand_poker::settle::{HandInput, SetBy};
use crate::domain::double_hand_poker::table::TableConfig;

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

/// The events a form asks for.
pub(super) fn events_of(
    step: &str,
    fields: &Fields,
    loaded: &Loaded,
    table: Option<&TableConfig>,
) -> Result<Vec<HandEvent>, Refused> {
    Ok(match step {
        "pd" => vec![super::pd::pd_event(fields)?],
        "wager" => {
            // The table's limits, unit and seats are the hand's rules,
            // checked by the core on every path.
            let amount = v::money_field("amount", fields.get("amount"))?;
            let key = wager_key(fields)?;
            vec![HandEvent::WagerPlaced {
                id: format!("w-{key}"),
                seat: int_field(fields, "seat")?,
                bettor: text_field(fields, "bettor")?,
                amount,
                backline: !fields.get("backline").is_empty(),
                payout: None,
            }]
        }
        "again" => super::again::events(fields, &wager_key(fields)?)?,
        "remove" => vec![HandEvent::WagerRemoved {
            id: text_field(fields, "wager")?,
            reason: "entered by mistake; removed by the dealer".into(),
        }],
        "dice" => {
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
            events
        }
        "results" => results(fields, loaded)?,
        // The page names the steps it showed, so a form sent twice asks
        // for the same thing.
        "confirm" => vec![HandEvent::StepsConfirmed {
            wagers: fields
                .get("wagers")
                .split(',')
                .map(str::trim)
                .filter(|w| !w.is_empty())
                .map(str::to_string)
                .collect(),
        }],
        "close" => vec![HandEvent::HandClosed { settlement: None }],
        "void" => vec![HandEvent::HandVoided {
            reason: text_field(fields, "reason")?,
        }],
        "correct" => vec![HandEvent::OutcomeCorrected {
            seat: int_field(fields, "seat")?,
            outcome: Some(outcome_field(fields, "outcome")?),
            hand: None,
            reason: text_field(fields, "reason")?,
            settlement: None,
        }],
        other => {
            return Err(refuse(
                "step",
                format!("\"{other}\" is not a step of this page"),
            ));
        }
    })
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
    match fields.get(name) {
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

/// Per seat: the outcome, or (cards mode) the set hand or 7 cards for the
/// house way — the PD's hand too.
fn results(fields: &Fields, loaded: &Loaded) -> Result<Vec<HandEvent>, Refused> {
    let seats = loaded.wagered_seats();
    if fields.get("mode") != "cards" {
        return seats
            .iter()
            .map(|&seat| {
                Ok(HandEvent::OutcomeRecorded {
                    seat,
                    outcome: outcome_field(fields, &format!("outcome_{seat}"))?,
                })
            })
            .collect();
    }
    let pd_seat = loaded.state.pd().map_or(1, |p| p.seat);
    seats
        .iter()
        .chain(std::iter::once(&pd_seat))
        .map(|&seat| {
            let cards = fields.get(&format!("cards_{seat}")).trim().to_string();
            let high = fields.get(&format!("high_{seat}")).trim().to_string();
            let low = fields.get(&format!("low_{seat}")).trim().to_string();
            let hand = match (cards.is_empty(), high.is_empty() && low.is_empty()) {
                (false, true) => HandInput {
                    cards: Some(cards),
                    set: Some(SetBy::House),
                    ..HandInput::default()
                },
                (true, false) => HandInput {
                    high: Some(high),
                    low: Some(low),
                    ..HandInput::default()
                },
                _ => {
                    return Err(refuse(
                        &format!("cards_{seat}"),
                        "give seven cards for the house way, or the high and low hands as set",
                    ));
                }
            };
            Ok(HandEvent::HandRecorded { seat, hand })
        })
        .collect()
}
