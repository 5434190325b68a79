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
//! changes nothing but the version. Each event has one function that
//! checks and applies it: `betting.rs`, `play.rs` and `supervise.rs`; the
//! dispatcher is `apply.rs`. The settlement's input is computed on demand
//! from what the phases hold ([`HandState::scenario_input`]).

mod apply;
mod betting;
mod checks;
mod play;
mod supervise;

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

pub use apply::Origin;

use super::events::HandEvent;
use super::pd::{Declined, PdOption};
use super::posted::{Enforced, PostedRules};
use super::{HandError, RecordedSettlement};
use crate::double_hand_poker::options::{OptionOverrides, Profile, RuleOptions};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{
    ActionInput, CollectionInput, HandInput, PdInput, Scenario, ScenarioInput, SeatMap, WagerInput,
};

/// Most events in one hand: far above a real hand (~25 for 7 seats).
pub const EVENTS_PER_HAND_MAX: u64 = 1_000;
/// Longest free text (a reason) in characters.
pub const REASON_CHARS_MAX: usize = crate::common::text::REASON_CHARS_MAX;
/// Longest note on a hand, in characters.
pub const NOTE_CHARS_MAX: usize = 2_000;

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

/// No `pd_set` yet: no option chosen, nobody refused.
static NO_CHOICE: PdChoice = PdChoice {
    option: None,
    declined: Vec::new(),
};
static NONE_CONFIRMED: BTreeSet<String> = BTreeSet::new();

/// The result recorded for one seat: the outcome the dealer read, or the
/// seat's hand (the PD's seat has a hand only), which the rules decide.
#[derive(Debug, Clone, PartialEq, Eq)]
enum SeatResult {
    Outcome(Outcome),
    Hand(HandInput),
}

/// Each seat's result, in the order last recorded (a seat recorded again
/// moves to the end).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
struct Results(Vec<(i64, SeatResult)>);

impl Results {
    /// Records (or replaces) a seat's result.
    fn set(&mut self, seat: i64, result: SeatResult) {
        self.0.retain(|(s, _)| *s != seat);
        self.0.push((seat, result));
    }

    fn of(&self, seat: i64) -> Option<&SeatResult> {
        self.0.iter().find(|(s, _)| *s == seat).map(|(_, r)| r)
    }

    /// The settlement contract's maps, keyed by seat number text.
    fn outcomes(&self) -> Vec<(String, Outcome)> {
        let outcome = |r: &SeatResult| match r {
            SeatResult::Outcome(o) => Some(*o),
            SeatResult::Hand(_) => None,
        };
        self.0
            .iter()
            .filter_map(|(s, r)| Some((s.to_string(), outcome(r)?)))
            .collect()
    }

    fn hands(&self) -> Vec<(String, HandInput)> {
        let hand = |r: &SeatResult| match r {
            SeatResult::Hand(h) => Some(h.clone()),
            SeatResult::Outcome(_) => None,
        };
        self.0
            .iter()
            .filter_map(|(s, r)| Some((s.to_string(), hand(r)?)))
            .collect()
    }
}

/// The table the hand was opened at, as `hand_opened` recorded it.
#[derive(Debug, Clone, PartialEq)]
struct Setup {
    profile: Option<Profile>,
    options: Option<OptionOverrides>,
    seats: Option<i64>,
    /// The table's posted rules; None for a hand recorded before
    /// `hand_opened` carried them.
    enforced: Option<Enforced>,
    /// The TPPPs marked at the table when the hand opened.
    tppps: Vec<String>,
}

/// The PD as the last `pd_set` recorded them.
#[derive(Debug, Clone, PartialEq)]
struct Bank {
    pd: PdInput,
    choice: PdChoice,
}

/// What the betting took: kept through every later phase.
#[derive(Debug, Clone, PartialEq, Default)]
struct Bets {
    bank: Option<Bank>,
    /// In placement order.
    wagers: Vec<WagerInput>,
    collection: Option<CollectionInput>,
}

/// What the dealing added: the ACTION seat, the results, the steps done.
#[derive(Debug, Clone, PartialEq)]
struct Play {
    action: ActionInput,
    results: Results,
    /// Wager ids whose settlement step the dealer confirmed.
    confirmed: BTreeSet<String>,
}

/// What each phase holds beyond the bets.
#[derive(Debug, Clone, PartialEq)]
enum Stage {
    Betting,
    Dealt(Play),
    /// The settlement as of close (or the last correction), and how many
    /// corrections were recorded.
    Closed(Play, RecordedSettlement, u32),
    /// The hand as it stood when voided.
    Voided(Box<Stage>),
}

impl Stage {
    fn phase(&self) -> Phase {
        match self {
            Stage::Betting => Phase::Betting,
            Stage::Dealt(_) => Phase::Dealt,
            Stage::Closed(..) => Phase::Closed,
            Stage::Voided(_) => Phase::Voided,
        }
    }

    /// The settlement and the corrections of a hand closed, or closed
    /// and then voided.
    fn settled(&self) -> Option<(&RecordedSettlement, u32)> {
        match self {
            Stage::Closed(_, settlement, corrections) => Some((settlement, *corrections)),
            Stage::Voided(was) => was.settled(),
            Stage::Betting | Stage::Dealt(_) => None,
        }
    }

    fn play(&self) -> Option<&Play> {
        match self {
            Stage::Betting => None,
            Stage::Dealt(play) | Stage::Closed(play, ..) => Some(play),
            Stage::Voided(was) => was.play(),
        }
    }
}

#[derive(Debug, Clone, PartialEq)]
pub struct HandState {
    pub table: String,
    pub dealer: String,
    /// Events applied so far.
    pub version: u64,
    setup: Setup,
    bets: Bets,
    stage: Stage,
}

impl HandState {
    /// Folds a recorded stream ([`Origin::Recorded`]); the first event
    /// must open the hand.
    pub fn fold<'a>(
        events: impl IntoIterator<Item = &'a HandEvent>,
    ) -> Result<HandState, HandError> {
        let mut state: Option<HandState> = None;
        for event in events {
            state = Some(HandState::replay(state, event)?);
        }
        state.ok_or(HandError::NotOpened)
    }

    /// Applies one recorded event ([`Origin::Recorded`]).
    pub fn replay(state: Option<HandState>, event: &HandEvent) -> Result<HandState, HandError> {
        Ok(HandState::apply_one(state, event, Origin::Recorded)?.0)
    }

    /// Applies the events of one command, each checked in full, and then
    /// what a command must leave true (every backline has its primary).
    /// Returns the new state and the events as they must be recorded.
    pub fn apply_command(
        state: Option<HandState>,
        events: &[HandEvent],
    ) -> Result<(HandState, Vec<HandEvent>), HandError> {
        let at = |index: usize| {
            move |error| HandError::At {
                index,
                error: Box::new(error),
            }
        };
        let mut state = state;
        let mut recorded = Vec::with_capacity(events.len());
        for (i, event) in events.iter().enumerate() {
            let (next, as_recorded) =
                HandState::apply_one(state.take(), event, Origin::New).map_err(at(i))?;
            state = Some(next);
            recorded.push(as_recorded.unwrap_or_else(|| event.clone()));
        }
        let state = state.ok_or(HandError::NotOpened)?;
        state
            .check_backlines()
            .map_err(at(events.len().saturating_sub(1)))?;
        Ok((state, recorded))
    }

    /// Applies a new event as a command of its own. Returns the new state
    /// and, when it differs from the event given, the event to record.
    pub fn apply(
        state: Option<HandState>,
        event: &HandEvent,
    ) -> Result<(HandState, Option<HandEvent>), HandError> {
        let (next, recorded) = HandState::apply_one(state, event, Origin::New)?;
        next.check_backlines()?;
        Ok((next, recorded))
    }

    /// A test's way to apply one event as new ([`HandState::apply`]) or
    /// as recorded ([`HandState::replay`]).
    #[cfg(test)]
    pub(crate) fn apply_as(
        state: Option<HandState>,
        event: &HandEvent,
        origin: Origin,
    ) -> Result<(HandState, Option<HandEvent>), HandError> {
        match origin {
            Origin::New => HandState::apply(state, event),
            Origin::Recorded => Ok((HandState::replay(state, event)?, None)),
        }
    }

    pub fn phase(&self) -> Phase {
        self.stage.phase()
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
        let play = self.stage.play();
        let (outcomes, hands) = match play {
            Some(play) => (play.results.outcomes(), play.results.hands()),
            None => (Vec::new(), Vec::new()),
        };
        let only_hands = !hands.is_empty() && outcomes.is_empty();
        ScenarioInput {
            profile: self.setup.profile,
            options: self.setup.options.clone(),
            seats: self.setup.seats,
            pd: self.pd().cloned().unwrap_or_else(unset_pd),
            action: play.map(|p| p.action.clone()).unwrap_or_default(),
            wagers: self.bets.wagers.clone(),
            outcomes: (!only_hands).then_some(SeatMap(outcomes)),
            hands: (!hands.is_empty()).then_some(SeatMap(hands)),
            collection: self.bets.collection.clone(),
        }
    }

    /// How a seat's result was entered: `Some(true)` as cards,
    /// `Some(false)` as an outcome, None not yet.
    pub fn entered_as_cards(&self, seat: i64) -> Option<bool> {
        let result = self.stage.play()?.results.of(seat)?;
        Some(matches!(result, SeatResult::Hand(_)))
    }

    /// Some seat's result was entered as its cards: the next hand at the
    /// table opens its results step with every seat's cards.
    pub fn any_entered_as_cards(&self) -> bool {
        self.stage.play().is_some_and(|play| {
            play.results
                .0
                .iter()
                .any(|(_, r)| matches!(r, SeatResult::Hand(_)))
        })
    }

    /// The recorded settlement of a closed hand (kept when it is voided).
    pub fn settlement(&self) -> Option<&RecordedSettlement> {
        self.stage.settled().map(|(settlement, _)| settlement)
    }

    /// How many times a supervisor corrected the closed hand.
    pub fn corrections(&self) -> u32 {
        self.stage
            .settled()
            .map_or(0, |(_, corrections)| corrections)
    }

    pub fn confirmed(&self) -> &BTreeSet<String> {
        self.stage
            .play()
            .map_or(&NONE_CONFIRMED, |play| &play.confirmed)
    }

    pub fn wagers(&self) -> &[WagerInput] {
        &self.bets.wagers
    }

    pub fn pd(&self) -> Option<&PdInput> {
        self.bets.bank.as_ref().map(|bank| &bank.pd)
    }

    /// The PD's option and the refusals before it, as the last `pd_set`
    /// recorded them (None and empty for hands recorded without them).
    pub fn pd_choice(&self) -> &PdChoice {
        self.bets
            .bank
            .as_ref()
            .map_or(&NO_CHOICE, |bank| &bank.choice)
    }

    /// The rule options the hand was opened under.
    pub fn rules(&self) -> RuleOptions {
        RuleOptions::for_profile(self.setup.profile.unwrap_or_default())
            .with(&self.setup.options.clone().unwrap_or_default())
    }

    /// The TPPPs marked at the table when the hand opened.
    pub fn tppps(&self) -> &[String] {
        &self.setup.tppps
    }

    /// The table's posted rules this hand is held to (None: recorded
    /// before they were).
    pub fn posted(&self) -> Option<&PostedRules> {
        self.setup.enforced.as_ref().map(|e| &e.posted)
    }
}

/// The settlement input's PD before `pd_set`: no one, no bank.
fn unset_pd() -> PdInput {
    PdInput {
        seat: 1,
        player: String::new(),
        bank: crate::common::money::Money::ZERO,
    }
}
