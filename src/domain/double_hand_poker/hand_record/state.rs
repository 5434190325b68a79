//! A hand's state is a pure fold of its events. `apply` is the only way to
//! change it, and it refuses any event that breaks the hand's state machine:
//!
//! ```text
//! hand_opened → betting (pd_set, wager_placed/removed, collection_taken)
//!   → action_set → dealt (outcome_recorded | hand_recorded, steps_confirmed)
//!   → hand_closed → closed (outcome_corrected)          any → hand_voided
//! ```
//!
//! `hand_note_added` is accepted in every phase (voided included) and
//! changes nothing but the version.

mod apply;
mod checks;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::events::HandEvent;
use super::pd::{Declined, PdOption};
use super::posted::{Enforced, PostedRules};
use super::{HandError, RecordedSettlement};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{
    HandInput, PdInput, Scenario, ScenarioInput, SeatMap, WagerInput,
};

/// Most events in one hand: far above a real hand (~25 for 7 seats).
pub const EVENTS_PER_HAND_MAX: u64 = 1_000;
/// Longest free text (a reason) in characters.
pub const REASON_CHARS_MAX: usize = crate::common::text::REASON_CHARS_MAX;
/// Longest note on a hand, in characters.
pub const NOTE_CHARS_MAX: usize = 2_000;

/// How much an event is checked when applied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Check {
    /// A new event: every rule, including probing the settlement rules
    /// after each change, so errors name the event that broke them.
    Full,
    /// A new event inside a command whose last event is checked in full:
    /// the state machine and step order now, the settlement rules once at
    /// the end of the command (a command is atomic, so its end state is what
    /// must be valid; each error still names the field and value).
    Deferred,
    /// A recorded event: the state machine only; settlements are still
    /// recomputed in full at close and at each correction, and compared.
    Replay,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[schema(as = HandPhase)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Opened: the PD, wagers and collection are being taken.
    Betting,
    /// The ACTION seat is set: results are recorded and steps confirmed.
    Dealt,
    Closed,
    Voided,
}

impl Phase {
    pub fn name(self) -> &'static str {
        match self {
            Phase::Betting => "betting",
            Phase::Dealt => "dealt",
            Phase::Closed => "closed",
            Phase::Voided => "voided",
        }
    }
}

/// What a `pd_set` recorded beyond who banks and how much.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct PdChoice {
    pub option: Option<PdOption>,
    pub declined: Vec<Declined>,
}

/// The result recorded for one seat: the outcome the dealer read, or the
/// seat's hand (the PD's seat has a hand only), which the rules decide.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SeatResult {
    Outcome(Outcome),
    Hand(HandInput),
}

/// Each seat's result, keyed by seat number text, in the order last
/// recorded (a seat recorded again moves to the end).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Results(Vec<(String, SeatResult)>);

impl Results {
    fn outcomes(&self) -> impl Iterator<Item = (&String, Outcome)> {
        self.0.iter().filter_map(|(k, r)| match r {
            SeatResult::Outcome(o) => Some((k, *o)),
            SeatResult::Hand(_) => None,
        })
    }

    fn hands(&self) -> impl Iterator<Item = (&String, &HandInput)> {
        self.0.iter().filter_map(|(k, r)| match r {
            SeatResult::Hand(h) => Some((k, h)),
            SeatResult::Outcome(_) => None,
        })
    }

    /// Records (or replaces) a seat's result.
    fn set(&mut self, seat: i64, result: SeatResult) {
        let key = seat.to_string();
        self.0.retain(|(k, _)| *k != key);
        self.0.push((key, result));
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct HandState {
    pub table: String,
    pub dealer: String,
    pub phase: Phase,
    /// Events applied so far.
    pub version: u64,
    input: ScenarioInput,
    pd_set: bool,
    /// The option the PD chose and who refused it first (last `pd_set`).
    pd_choice: PdChoice,
    results: Results,
    /// Wager ids whose settlement step the dealer confirmed.
    confirmed: BTreeSet<String>,
    /// The settlement as of close (or the last correction).
    settlement: Option<RecordedSettlement>,
    /// The table's posted rules, held on every event (new or replayed);
    /// None for a hand recorded before `hand_opened` carried them.
    enforced: Option<Enforced>,
    /// Corrections recorded after close (`outcome_corrected`).
    corrections: u32,
    /// The TPPPs marked at the table when the hand opened.
    tppps: Vec<String>,
}

impl HandState {
    /// Folds a recorded stream (see [`Check::Replay`]); the first event must
    /// open the hand.
    pub fn fold<'a>(
        events: impl IntoIterator<Item = &'a HandEvent>,
    ) -> Result<HandState, HandError> {
        let mut state: Option<HandState> = None;
        for event in events {
            state = Some(HandState::apply_with(state, event, Check::Replay)?.0);
        }
        state.ok_or(HandError::NotOpened)
    }

    /// Applies the events of one command: every event checked, the settlement
    /// rules probed once after the last. Returns the new state and the events
    /// as they must be recorded.
    pub fn apply_command(
        state: Option<HandState>,
        events: &[HandEvent],
    ) -> Result<(HandState, Vec<HandEvent>), HandError> {
        let mut state = state;
        let mut recorded = Vec::with_capacity(events.len());
        for (i, event) in events.iter().enumerate() {
            let check = if i + 1 == events.len() {
                Check::Full
            } else {
                Check::Deferred
            };
            let (next, as_recorded) =
                HandState::apply_with(state.take(), event, check).map_err(|error| {
                    HandError::At {
                        index: i,
                        error: Box::new(error),
                    }
                })?;
            state = Some(next);
            recorded.push(as_recorded.unwrap_or_else(|| event.clone()));
        }
        Ok((state.ok_or(HandError::NotOpened)?, recorded))
    }

    /// Applies a new event with every check ([`Check::Full`]).
    pub fn apply(
        state: Option<HandState>,
        event: &HandEvent,
    ) -> Result<(HandState, Option<HandEvent>), HandError> {
        HandState::apply_with(state, event, Check::Full)
    }

    /// The scenario of the hand as it stands: every seat's result must be
    /// in, and the PD's hand when any seat is entered as cards.
    pub fn scenario(&self) -> Result<Scenario, HandError> {
        Ok(Scenario::from_seat_results(&self.scenario_input())?)
    }

    /// The settlement contract's input for this hand: the seats entered as
    /// results in `outcomes`, those entered as cards (and the PD's hand) in
    /// `hands`. A hand with both kinds (recorded per seat) is read by
    /// [`Scenario::from_seat_results`]; one with a single kind, or none
    /// yet (empty `outcomes`), is exactly the settle contract's input.
    pub fn scenario_input(&self) -> ScenarioInput {
        let mut input = self.input.clone();
        let outcomes: Vec<(String, Outcome)> = self
            .results
            .outcomes()
            .map(|(k, o)| (k.clone(), o))
            .collect();
        let hands: Vec<(String, HandInput)> = self
            .results
            .hands()
            .map(|(k, h)| (k.clone(), h.clone()))
            .collect();
        if hands.is_empty() || !outcomes.is_empty() {
            input.outcomes = Some(SeatMap(outcomes));
        }
        if !hands.is_empty() {
            input.hands = Some(SeatMap(hands));
        }
        input
    }

    /// How each seat's result was entered: `Some(true)` as cards,
    /// `Some(false)` as an outcome, None not yet.
    pub fn entered_as_cards(&self, seat: i64) -> Option<bool> {
        let key = seat.to_string();
        self.results
            .0
            .iter()
            .find(|(k, _)| *k == key)
            .map(|(_, r)| matches!(r, SeatResult::Hand(_)))
    }

    /// Some seat's result was entered as its cards: the next hand at the
    /// table opens its results step with every seat's cards.
    pub fn any_entered_as_cards(&self) -> bool {
        self.results
            .0
            .iter()
            .any(|(_, r)| matches!(r, SeatResult::Hand(_)))
    }

    /// The recorded settlement (closed hands).
    pub fn settlement(&self) -> Option<&RecordedSettlement> {
        self.settlement.as_ref()
    }

    /// How many times a supervisor corrected the closed hand.
    pub fn corrections(&self) -> u32 {
        self.corrections
    }

    pub fn confirmed(&self) -> &BTreeSet<String> {
        &self.confirmed
    }

    pub fn wagers(&self) -> &[WagerInput] {
        &self.input.wagers
    }

    pub fn pd(&self) -> Option<&PdInput> {
        self.pd_set.then_some(&self.input.pd)
    }

    /// The PD's option and the refusals before it, as the last `pd_set`
    /// recorded them (None and empty for hands recorded without them).
    pub fn pd_choice(&self) -> &PdChoice {
        &self.pd_choice
    }

    /// The rule options the hand was opened under.
    pub fn rules(&self) -> crate::double_hand_poker::options::RuleOptions {
        crate::double_hand_poker::options::RuleOptions::for_profile(
            self.input.profile.unwrap_or_default(),
        )
        .with(&self.input.options.clone().unwrap_or_default())
    }

    /// The TPPPs marked at the table when the hand opened.
    pub fn tppps(&self) -> &[String] {
        &self.tppps
    }

    /// The table's posted rules this hand is held to (None: recorded
    /// before they were).
    pub fn posted(&self) -> Option<&PostedRules> {
        self.enforced.as_ref().map(|e| &e.posted)
    }
}
