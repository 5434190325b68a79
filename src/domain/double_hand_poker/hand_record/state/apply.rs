//! The dispatcher: each event goes to the one function that checks and
//! applies it. Adding an event is one variant in `events.rs` and one
//! function here.

use super::{Bets, EVENTS_PER_HAND_MAX, HandState, Setup, Stage};
use crate::double_hand_poker::hand_record::HandError;
use crate::double_hand_poker::hand_record::events::HandEvent;
use crate::double_hand_poker::hand_record::posted::Enforced;
use crate::double_hand_poker::settle::{
    self, ActionInput, PdInput, TableRules, WagerInput, limits::NAME_CHARS_MAX,
};

/// Where an event comes from, which decides how much of it is checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// Sent now: every rule, each refusal naming its field; names, reasons
    /// and notes are normalised, and the event is returned as it must be
    /// recorded when that differs from what was sent.
    New,
    /// Read from the log: the state machine and the posted rules. The
    /// settlement rules were checked when the event was written, and are
    /// again in full when the hand closes and at each correction, where
    /// the recomputed settlement must equal the recorded one.
    Recorded,
}

/// What applying one event gives: the event to record in place of the one
/// given (a name normalised, the settlement computed), or None to record it
/// as given.
pub(super) type Applied = Result<Option<HandEvent>, HandError>;

impl HandState {
    /// Applies one event to the state (None before `hand_opened`), taking
    /// the state by value so a fold never copies it.
    pub(super) fn apply_one(
        state: Option<HandState>,
        event: &HandEvent,
        origin: Origin,
    ) -> Result<(HandState, Option<HandEvent>), HandError> {
        let Some(mut next) = state else {
            return Ok((HandState::open(event, origin)?, None));
        };
        if next.version >= EVENTS_PER_HAND_MAX {
            return Err(HandError::TooManyEvents(EVENTS_PER_HAND_MAX));
        }
        next.version += 1;
        let recorded = match event {
            HandEvent::HandOpened { .. } => return Err(HandError::AlreadyOpened),
            HandEvent::HandNoteAdded { text } => next.add_note(text, origin)?,
            HandEvent::HandVoided { reason } => next.void(reason, origin)?,
            HandEvent::PdSet {
                seat,
                player,
                bank,
                option,
                declined,
            } => {
                let pd = PdInput {
                    seat: *seat,
                    player: player.clone(),
                    bank: *bank,
                };
                next.set_pd(pd, *option, declined, origin)?
            }
            HandEvent::WagerPlaced {
                id,
                seat,
                bettor,
                amount,
                backline,
                payout,
            } => next.place_wager(
                WagerInput {
                    id: id.clone(),
                    seat: *seat,
                    bettor: bettor.clone(),
                    amount: *amount,
                    backline: *backline,
                    payout: payout.clone(),
                },
                origin,
            )?,
            HandEvent::WagerRemoved { id, reason } => next.remove_wager(id, reason, origin)?,
            HandEvent::CollectionTaken { player, bank } => {
                next.take_collection(player, bank, origin)?
            }
            HandEvent::ActionSet { dice, seat } => next.set_action(
                ActionInput {
                    dice: dice.clone(),
                    seat: *seat,
                },
                origin,
            )?,
            HandEvent::OutcomeRecorded { seat, outcome } => {
                next.record_outcome(*seat, *outcome, origin)?
            }
            HandEvent::HandRecorded { seat, hand } => next.record_hand(*seat, hand, origin)?,
            HandEvent::StepsConfirmed { wagers } => next.confirm_steps(wagers, origin)?,
            HandEvent::HandClosed { settlement } => next.close(settlement.as_ref())?,
            HandEvent::OutcomeCorrected {
                seat,
                outcome,
                hand,
                reason,
                settlement,
            } => next.correct(
                *seat,
                (*outcome, hand.as_ref()),
                reason,
                settlement.as_ref(),
                origin,
            )?,
        };
        Ok((next, recorded))
    }

    /// `hand_opened`: a new hand at a table, under the table's rules
    /// (which must themselves be valid).
    fn open(event: &HandEvent, origin: Origin) -> Result<HandState, HandError> {
        let HandEvent::HandOpened {
            table,
            dealer,
            profile,
            options,
            seats,
            posted,
            tppps,
        } = event
        else {
            return Err(HandError::NotOpened);
        };
        let setup = Setup {
            profile: *profile,
            options: options.clone(),
            seats: *seats,
            enforced: None,
            tppps: tppps.clone(),
        };
        let mut state = HandState {
            table: text("table", table)?,
            dealer: text("dealer", dealer)?,
            version: 1,
            setup,
            bets: Bets::default(),
            stage: Stage::Betting,
        };
        if origin == Origin::New {
            state.table_rules()?;
        }
        state.setup.enforced = posted.as_ref().map(|posted| Enforced {
            posted: posted.clone(),
            unit: state.rules().min_unit,
            seats: seats.unwrap_or(settle::DEFAULT_SEATS),
        });
        Ok(state)
    }

    /// The table's rules, checked (a table's options and seat count).
    pub(super) fn table_rules(&self) -> Result<TableRules, HandError> {
        let setup = &self.setup;
        Ok(TableRules::check(
            setup.profile,
            setup.options.as_ref(),
            setup.seats,
        )?)
    }
}

/// The table's and the dealer's name on `hand_opened`.
fn text(field: &str, value: &str) -> Result<String, HandError> {
    let chars = value.chars().count();
    if value.trim().is_empty() || chars > NAME_CHARS_MAX {
        return Err(HandError::Refused {
            field: field.to_string(),
            value: value.to_string(),
            why: format!("must be 1..{NAME_CHARS_MAX} characters"),
        });
    }
    Ok(value.to_string())
}
