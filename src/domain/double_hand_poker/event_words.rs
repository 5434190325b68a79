//! Each recorded event of a hand as a sentence, for the hand's record and
//! its replay ("Ann bets 60.00 on seat 4"). The shell puts the time and who
//! in front ("14:02:11 dana: …"); the words name the people and the money
//! as the hand held them when the event was recorded, so each event is
//! read against the fold of the ones before it (a removed wager, a
//! confirmed step and the ACTION seat are named by what they refer to).

use super::action_dice::action_seat;
use super::hand_record::{HandEvent, HandState, PdChoice};
use super::outcome::Outcome;
use super::settle::{self, HandInput, PdInput, SetBy, WagerInput};

/// The sentence of every event, in order. An event the fold refuses (a
/// record that does not replay) is still worded, from the state before it.
pub fn sentences(events: &[HandEvent]) -> Vec<String> {
    let mut state: Option<HandState> = None;
    let mut out = Vec::with_capacity(events.len());
    for event in events {
        out.push(sentence(state.as_ref(), event));
        if let Ok(next) = HandState::replay(state.clone(), event) {
            state = Some(next);
        }
    }
    out
}

/// A `pd_set` in words: who banks how much, the option, who refused first.
fn pd_sentence((pd, choice): (PdInput, PdChoice)) -> String {
    let bank = pd.bank.to_display();
    let mut text = format!(
        "{} is the PD on seat {}, banking {bank}",
        pd.player, pd.seat
    );
    if let Some(option) = choice.option {
        text.push_str(&format!(" ({})", option.describe()));
    }
    if !choice.declined.is_empty() {
        let names: Vec<String> = choice
            .declined
            .iter()
            .map(|d| format!("{} (seat {})", d.player, d.seat))
            .collect();
        text.push_str(&format!("; refused first: {}", names.join(", ")));
    }
    text
}

/// One event in words, read against the hand as it was before it.
pub fn sentence(before: Option<&HandState>, event: &HandEvent) -> String {
    match event {
        HandEvent::HandOpened { table, dealer, .. } => match dealer.as_str() {
            "" => format!("Hand opened at table {table}"),
            dealer => format!("Hand opened at table {table}, dealer {dealer}"),
        },
        HandEvent::PdSet { .. } => event.pd_set().map(pd_sentence).unwrap_or_default(),
        HandEvent::WagerPlaced {
            seat,
            bettor,
            amount,
            backline,
            ..
        } => {
            let kind = if *backline { " backline" } else { "" };
            format!("{bettor} bets {}{kind} on seat {seat}", amount.to_display())
        }
        HandEvent::WagerRemoved { id, reason } => {
            format!("{} removed: {reason}", wager_named(before, id))
        }
        HandEvent::CollectionTaken { .. } => {
            "The collection is taken by the table's schedules".to_string()
        }
        HandEvent::ActionSet { dice, seat } => action(before, dice.as_deref(), *seat),
        HandEvent::OutcomeRecorded { seat, outcome } => {
            format!("Seat {seat}: {}", outcome_words(*outcome))
        }
        HandEvent::HandRecorded { seat, hand } => {
            format!("{}: {}", seat_named(before, *seat), hand_words(hand))
        }
        HandEvent::StepsConfirmed { wagers } => {
            let named: Vec<String> = wagers.iter().map(|id| wager_named(before, id)).collect();
            let steps = if wagers.len() == 1 { "step" } else { "steps" };
            format!("Settlement {steps} confirmed: {}", named.join("; "))
        }
        HandEvent::HandClosed { settlement } => {
            match settlement.as_ref().and_then(|s| s.house_collection()) {
                Some(fee) => format!(
                    "The hand is closed and settled; the house collects {}",
                    fee.to_display()
                ),
                None => "The hand is closed and settled".to_string(),
            }
        }
        HandEvent::OutcomeCorrected {
            seat,
            outcome,
            hand,
            reason,
            ..
        } => {
            let to = match (outcome, hand) {
                (Some(o), _) => outcome_words(*o).to_string(),
                (None, Some(h)) => hand_words(h),
                (None, None) => "nothing".to_string(),
            };
            format!("Correction of seat {seat}: {to} (reason: {reason}); the hand is settled again")
        }
        HandEvent::HandVoided { reason } => {
            format!("The hand is voided (reason: {reason}); every bet is returned")
        }
        HandEvent::HandNoteAdded { text } => format!("Note: {text}"),
    }
}

fn outcome_words(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Player => "the player wins",
        Outcome::Pd => "the PD wins",
        Outcome::Push => "push",
    }
}

/// A seat's cards as recorded: seven to set by the house way, or the high
/// five and low two as set.
fn hand_words(hand: &HandInput) -> String {
    match (&hand.cards, &hand.high, &hand.low) {
        (Some(cards), _, _) => match hand.set {
            Some(SetBy::House) | None => format!("cards {cards}, set by the house way"),
        },
        (None, Some(high), Some(low)) => format!("high {high}, low {low}"),
        (None, Some(high), None) => format!("high {high}"),
        (None, None, Some(low)) => format!("low {low}"),
        (None, None, None) => "no cards".to_string(),
    }
}

/// "The PD's hand" for the PD's seat, else "Seat N's hand".
fn seat_named(before: Option<&HandState>, seat: i64) -> String {
    match before.and_then(HandState::pd) {
        Some(pd) if pd.seat == seat => format!("The PD's hand ({}, seat {seat})", pd.player),
        _ => format!("Seat {seat}'s hand"),
    }
}

/// A wager by its bettor, amount and seat, else by its id.
fn wager_named(before: Option<&HandState>, id: &str) -> String {
    let found = before.and_then(|s| s.wagers().iter().find(|w| w.id == id));
    match found {
        Some(WagerInput {
            seat,
            bettor,
            amount,
            backline,
            ..
        }) => {
            let kind = if *backline { " backline" } else { "" };
            format!("{bettor}'s {}{kind} on seat {seat}", amount.to_display())
        }
        None => format!("wager {id}"),
    }
}

/// The PD's dice and the ACTION seat they give (or the seat given).
fn action(before: Option<&HandState>, dice: Option<&[i64]>, seat: Option<i64>) -> String {
    let pd_seat = before.and_then(HandState::pd).map(|pd| pd.seat);
    let seats = before
        .map(|s| s.scenario_input().seats.unwrap_or(settle::DEFAULT_SEATS))
        .unwrap_or(settle::DEFAULT_SEATS);
    let from_dice = match (dice, pd_seat) {
        (Some(&[a, b, c]), Some(pd)) => action_seat([a, b, c], pd, seats).ok().map(i64::from),
        _ => None,
    };
    let shown = |d: &[i64]| {
        d.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    match (dice, seat.or(from_dice)) {
        (Some(d), Some(s)) => format!("The PD rolls {}: ACTION on seat {s}", shown(d)),
        (Some(d), None) => format!("The PD rolls {}", shown(d)),
        (None, Some(s)) => format!("ACTION on seat {s}"),
        (None, None) => "The ACTION seat is set".to_string(),
    }
}

#[cfg(test)]
#[path = "event_words_tests.rs"]
mod tests;
