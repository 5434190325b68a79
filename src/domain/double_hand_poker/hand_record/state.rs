//! A hand's state is a pure fold of its events. `apply` is the only way to
//! change it, and it refuses any event that breaks the hand's state machine:
//!
//! ```text
//! hand_opened → betting (pd_set, wager_placed/removed, collection_taken)
//!   → action_set → dealt (outcome_recorded | hand_recorded, steps_confirmed)
//!   → hand_closed → closed (outcome_corrected)          any → hand_voided
//! ```

use std::collections::BTreeSet;

use serde::{Deserialize, Serialize};

use super::events::HandEvent;
use super::pd::{Declined, PdOption, check_declined};
use super::posted::{Enforced, PostedRules};
use super::{HandError, RecordedSettlement};
use crate::domain::cards;
use crate::domain::common::text::{FreeText, NAME_CHARS_MAX};
use crate::domain::double_hand_poker::outcome::Outcome;
use crate::domain::double_hand_poker::settle::{
    self, ActionInput, CollectionInput, HandInput, PdInput, Scenario, ScenarioInput, SeatMap,
    WagerInput,
};

/// Most events in one hand: far above a real hand (~25 for 7 seats).
pub const EVENTS_PER_HAND_MAX: u64 = 1_000;
/// Longest free text (a reason) in characters.
pub const REASON_CHARS_MAX: usize = crate::domain::common::text::REASON_CHARS_MAX;

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

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
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

/// Results of the seats: either outcomes or hands, never both.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
enum Results {
    #[default]
    None,
    Outcomes(Vec<(String, Outcome)>),
    Hands(Vec<(String, HandInput)>),
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

    /// Applies one event to the state (None before `hand_opened`), taking
    /// the state by value so a fold never copies it. Returns the new state
    /// and, for close and correction, the event as it must be recorded
    /// (with the computed settlement filled in); None: record it as given.
    pub fn apply_with(
        state: Option<HandState>,
        event: &HandEvent,
        check: Check,
    ) -> Result<(HandState, Option<HandEvent>), HandError> {
        let full = check == Check::Full;
        let Some(state) = state else {
            return match event {
                HandEvent::HandOpened {
                    table,
                    dealer,
                    profile,
                    options,
                    seats,
                    posted,
                } => {
                    let enforced = posted.as_ref().map(|posted| Enforced {
                        posted: posted.clone(),
                        unit: crate::domain::double_hand_poker::options::RuleOptions::for_profile(
                            profile.unwrap_or_default(),
                        )
                        .with(&options.clone().unwrap_or_default())
                        .min_unit,
                        seats: seats.unwrap_or(settle::DEFAULT_SEATS),
                    });
                    let input = ScenarioInput {
                        profile: *profile,
                        options: options.clone(),
                        seats: *seats,
                        pd: PdInput {
                            seat: 1,
                            player: String::new(),
                            bank: crate::domain::common::money::Money::ZERO,
                        },
                        action: ActionInput::default(),
                        wagers: Vec::new(),
                        outcomes: None,
                        hands: None,
                        collection: None,
                    };
                    let state = HandState {
                        table: text("table", table)?,
                        dealer: text("dealer", dealer)?,
                        phase: Phase::Betting,
                        version: 1,
                        input,
                        pd_set: false,
                        pd_choice: PdChoice::default(),
                        results: Results::None,
                        confirmed: BTreeSet::new(),
                        settlement: None,
                        enforced,
                    };
                    // The table's rules themselves must be valid.
                    if full {
                        state.probe_rules()?;
                    }
                    Ok((state, None))
                }
                _ => Err(HandError::NotOpened),
            };
        };
        if state.version >= EVENTS_PER_HAND_MAX {
            return Err(HandError::TooManyEvents(EVENTS_PER_HAND_MAX));
        }
        let mut next = state;
        next.version += 1;
        let mut recorded = None;
        match event {
            HandEvent::HandOpened { .. } => return Err(HandError::AlreadyOpened),
            HandEvent::HandVoided { reason } => {
                if next.phase == Phase::Voided {
                    return Err(next.wrong_phase(event, "the hand is already voided"));
                }
                next.reason(reason, check)?;
                next.phase = Phase::Voided;
            }
            HandEvent::PdSet {
                seat,
                player,
                bank,
                option,
                declined,
            } => {
                next.require(Phase::Betting, event, "the PD is set before the dice")?;
                if let Some(rules) = &next.enforced {
                    rules.check_seat("seat", *seat)?;
                }
                if check != Check::Replay {
                    let seats = next.input.seats.unwrap_or(settle::DEFAULT_SEATS);
                    check_declined(*seat, declined, seats)?;
                }
                let player = next.name("player", player, check)?;
                // The refusing players' names, normalised like the PD's.
                let mut renamed = false;
                let declined = declined
                    .iter()
                    .enumerate()
                    .map(|(i, d)| {
                        let field = format!("declined[{i}].player");
                        let name = next.name(&field, &d.player, check)?;
                        renamed |= name.is_some();
                        Ok(Declined {
                            seat: d.seat,
                            player: name.unwrap_or_else(|| d.player.clone()),
                        })
                    })
                    .collect::<Result<Vec<_>, HandError>>()?;
                next.pd_choice = PdChoice {
                    option: *option,
                    declined: declined.clone(),
                };
                if player.is_some() || renamed {
                    recorded = Some(HandEvent::PdSet {
                        seat: *seat,
                        player: player.clone().unwrap_or_else(|| event_player(event)),
                        bank: *bank,
                        option: *option,
                        declined,
                    });
                }
                next.input.pd = PdInput {
                    seat: *seat,
                    player: player.unwrap_or_else(|| event_player(event)),
                    bank: *bank,
                };
                next.pd_set = true;
                if full {
                    next.probe_betting()?;
                }
            }
            HandEvent::WagerPlaced {
                id,
                seat,
                bettor,
                amount,
                backline,
                payout,
            } => {
                next.require(
                    Phase::Betting,
                    event,
                    "wagers close when the dice are rolled",
                )?;
                if !next.pd_set {
                    return Err(next.wrong_phase(event, "set the PD and the bank first"));
                }
                if let Some(rules) = &next.enforced {
                    rules.check_wager(*seat, *amount)?;
                }
                let normalised = next.name("bettor", bettor, check)?;
                if let Some(bettor) = &normalised {
                    recorded = Some(HandEvent::WagerPlaced {
                        id: id.clone(),
                        seat: *seat,
                        bettor: bettor.clone(),
                        amount: *amount,
                        backline: *backline,
                        payout: payout.clone(),
                    });
                }
                next.input.wagers.push(WagerInput {
                    id: id.clone(),
                    seat: *seat,
                    bettor: normalised.unwrap_or_else(|| bettor.clone()),
                    amount: *amount,
                    backline: *backline,
                    payout: payout.clone(),
                });
                if full {
                    next.probe_betting()?;
                }
            }
            HandEvent::WagerRemoved { id, reason } => {
                next.require(
                    Phase::Betting,
                    event,
                    "wagers can be removed only before the dice",
                )?;
                next.reason(reason, check)?;
                let index = next.wager_index(id)?;
                next.input.wagers.remove(index);
                if full {
                    next.probe_betting()?;
                }
            }
            HandEvent::CollectionTaken { player, bank } => {
                next.require(Phase::Betting, event, "collection is taken before play")?;
                if next.input.collection.is_some() {
                    return Err(next.wrong_phase(event, "the collection was already taken"));
                }
                let collection = match &next.enforced {
                    Some(rules) => {
                        let posted = rules.collection(player, bank)?;
                        if posted.player != *player || posted.bank != *bank {
                            recorded = Some(HandEvent::CollectionTaken {
                                player: posted.player.clone(),
                                bank: posted.bank.clone(),
                            });
                        }
                        posted
                    }
                    None => CollectionInput {
                        player: player.clone(),
                        bank: bank.clone(),
                    },
                };
                next.input.collection = Some(collection);
                if full {
                    next.probe_betting()?;
                }
            }
            HandEvent::ActionSet { dice, seat } => {
                let redo = next.phase == Phase::Dealt && next.results == Results::None;
                if next.phase != Phase::Betting && !redo {
                    return Err(
                        next.wrong_phase(event, "the ACTION seat is set once, before any result")
                    );
                }
                if next.input.wagers.is_empty() {
                    return Err(next.wrong_phase(event, "no wagers are placed"));
                }
                if let Some(rules) = &next.enforced
                    && rules.posted.takes_collection()
                    && next.input.collection.is_none()
                {
                    return Err(HandError::Refused {
                        field: "collection".into(),
                        value: String::new(),
                        why: "is not taken: the table posts a collection schedule; take the collection before the dice".into(),
                    });
                }
                next.input.action = ActionInput {
                    dice: dice.clone(),
                    seat: *seat,
                };
                next.phase = Phase::Dealt;
                if full {
                    next.probe_with_results()?;
                }
            }
            HandEvent::OutcomeRecorded { seat, outcome } => {
                next.require(
                    Phase::Dealt,
                    event,
                    "results are recorded after the dice, before close",
                )?;
                let key = seat.to_string();
                next.results = match &next.results {
                    Results::Hands(_) => return Err(HandError::MixedResults),
                    Results::None => Results::Outcomes(vec![(key, *outcome)]),
                    Results::Outcomes(list) => Results::Outcomes(upsert(list, key, *outcome)),
                };
                next.confirmed.clear();
                if full {
                    next.probe_with_results()?;
                }
            }
            HandEvent::HandRecorded { seat, hand } => {
                next.require(
                    Phase::Dealt,
                    event,
                    "hands are recorded after the dice, before close",
                )?;
                let key = seat.to_string();
                next.results = match &next.results {
                    Results::Outcomes(_) => return Err(HandError::MixedResults),
                    Results::None => Results::Hands(vec![(key, hand.clone())]),
                    Results::Hands(list) => Results::Hands(upsert(list, key, hand.clone())),
                };
                next.confirmed.clear();
                if full || next.enforced.is_some() {
                    next.check_recorded_cards()?;
                }
            }
            HandEvent::StepsConfirmed { wagers } => {
                next.require(
                    Phase::Dealt,
                    event,
                    "steps are confirmed after every result is in",
                )?;
                if check == Check::Replay {
                    // Recorded confirmations were checked when written; the
                    // settlement is recomputed in full at close.
                    next.confirmed.extend(wagers.iter().cloned());
                    return Ok((next, None));
                }
                let scenario = next.scenario()?;
                let settlement = settle::settle(&scenario)?;
                let order: Vec<&str> = settlement.steps.iter().map(|s| s.wager).collect();
                for id in wagers {
                    next.wager_index(id)?;
                    // Confirmations are always a prefix of the action order.
                    let expected = order.get(next.confirmed.len()).copied();
                    if expected != Some(id.as_str()) {
                        let expected = expected
                            .unwrap_or("none: every step is confirmed")
                            .to_string();
                        return Err(HandError::StepOrder {
                            id: id.clone(),
                            expected,
                        });
                    }
                    next.confirmed.insert(id.clone());
                }
            }
            HandEvent::HandClosed { settlement } => {
                next.require(
                    Phase::Dealt,
                    event,
                    "a hand is closed once, after its steps",
                )?;
                let scenario = next.scenario()?;
                let missing: Vec<String> = scenario
                    .wagers()
                    .iter()
                    .filter(|w| !next.confirmed.contains(&w.id))
                    .map(|w| w.id.clone())
                    .collect();
                if !missing.is_empty() {
                    return Err(HandError::StepsNotConfirmed(missing));
                }
                let (kept, fresh) = settled(&scenario, settlement.as_ref())?;
                next.settlement = Some(kept);
                next.phase = Phase::Closed;
                recorded = fresh.map(|s| HandEvent::HandClosed {
                    settlement: Some(s),
                });
            }
            HandEvent::OutcomeCorrected {
                seat,
                outcome,
                hand,
                reason,
                settlement,
            } => {
                next.require(
                    Phase::Closed,
                    event,
                    "a correction changes a closed hand; before close, record the result again",
                )?;
                next.reason(reason, check)?;
                let key = seat.to_string();
                next.results = match (&next.results, outcome, hand) {
                    (Results::Outcomes(list), Some(o), None) => {
                        Results::Outcomes(upsert(list, key, *o))
                    }
                    (Results::Hands(list), None, Some(h)) => {
                        Results::Hands(upsert(list, key, h.clone()))
                    }
                    _ => return Err(HandError::MixedResults),
                };
                let scenario = next.scenario()?;
                let (kept, fresh) = settled(&scenario, settlement.as_ref())?;
                next.settlement = Some(kept);
                recorded = fresh.map(|s| HandEvent::OutcomeCorrected {
                    seat: *seat,
                    outcome: *outcome,
                    hand: hand.clone(),
                    reason: reason.clone(),
                    settlement: Some(s),
                });
            }
        }
        Ok((next, recorded))
    }

    /// The scenario of the hand as it stands: every seat's result must be in.
    pub fn scenario(&self) -> Result<Scenario, HandError> {
        Ok(Scenario::from_input(&self.scenario_input())?)
    }

    /// The settlement contract's input for this hand.
    pub fn scenario_input(&self) -> ScenarioInput {
        let mut input = self.input.clone();
        match &self.results {
            Results::None => input.outcomes = Some(SeatMap::default()),
            Results::Outcomes(list) => input.outcomes = Some(SeatMap(list.clone())),
            Results::Hands(list) => input.hands = Some(SeatMap(list.clone())),
        }
        input
    }

    /// The recorded settlement (closed hands).
    pub fn settlement(&self) -> Option<&RecordedSettlement> {
        self.settlement.as_ref()
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

    fn require(&self, phase: Phase, event: &HandEvent, why: &str) -> Result<(), HandError> {
        if self.phase == phase {
            Ok(())
        } else {
            Err(self.wrong_phase(event, why))
        }
    }

    fn wrong_phase(&self, event: &HandEvent, why: &str) -> HandError {
        HandError::WrongPhase {
            event: event.type_name(),
            phase: self.phase.name(),
            why: why.to_string(),
        }
    }

    /// A staff-typed name as free text (trimmed, NFC, nothing invisible).
    /// A new event's name is returned normalised when it differs, to be
    /// recorded so; a replayed hand recorded under its table's rules must
    /// hold it already normalised. Older hands replay as recorded.
    fn name(&self, field: &str, value: &str, check: Check) -> Result<Option<String>, HandError> {
        if (check == Check::Replay && self.enforced.is_none())
            || FreeText::is_line(value, NAME_CHARS_MAX)
        {
            return Ok(None);
        }
        let text = FreeText::line(field, value, NAME_CHARS_MAX)?;
        if text.as_str() == value {
            return Ok(None);
        }
        if check == Check::Replay {
            return Err(HandError::Refused {
                field: field.into(),
                value: value.into(),
                why: "is not recorded as checked text (trimmed, NFC)".into(),
            });
        }
        Ok(Some(text.into_string()))
    }

    /// A reason: free text of 1..REASON_CHARS_MAX characters, lines allowed.
    fn reason(&self, reason: &str, check: Check) -> Result<(), HandError> {
        if check == Check::Replay && self.enforced.is_none() {
            if reason.trim().is_empty() || reason.chars().count() > REASON_CHARS_MAX {
                return Err(HandError::Refused {
                    field: "reason".into(),
                    value: reason.chars().take(40).collect(),
                    why: format!("a reason of 1..{REASON_CHARS_MAX} characters is required"),
                });
            }
            return Ok(());
        }
        FreeText::paragraph("reason", reason, REASON_CHARS_MAX)?;
        Ok(())
    }

    /// The table's posted rules this hand is held to (None: recorded
    /// before they were).
    pub fn posted(&self) -> Option<&PostedRules> {
        self.enforced.as_ref().map(|e| &e.posted)
    }

    fn wager_index(&self, id: &str) -> Result<usize, HandError> {
        self.input
            .wagers
            .iter()
            .position(|w| w.id == id)
            .ok_or_else(|| HandError::UnknownWager(id.to_string()))
    }

    /// The table's options and seat count, checked by the settlement rules.
    fn probe_rules(&self) -> Result<(), HandError> {
        let mut input = self.input.clone();
        input.pd = PdInput {
            seat: 1,
            player: "probe".into(),
            bank: crate::domain::common::money::Money::from_units(1),
        };
        input.action = ActionInput {
            dice: None,
            seat: Some(1),
        };
        input.outcomes = Some(SeatMap::default());
        Scenario::from_input(&input)?;
        Ok(())
    }

    /// Checks the PD, wagers and collection with the settlement's own rules,
    /// by settling a probe in which every seat pushes.
    fn probe_betting(&self) -> Result<(), HandError> {
        let mut input = self.input.clone();
        input.action = ActionInput {
            dice: None,
            seat: Some(input.pd.seat),
        };
        input.outcomes = Some(push_everywhere(&input.wagers));
        Scenario::from_input(&input)?;
        Ok(())
    }

    /// Checks the ACTION seat and the results recorded so far; seats still
    /// without a result are filled with pushes for the probe.
    fn probe_with_results(&self) -> Result<(), HandError> {
        let mut input = self.input.clone();
        let mut outcomes = push_everywhere(&input.wagers);
        if let Results::Outcomes(list) = &self.results {
            for (seat, outcome) in list {
                if !outcomes.0.iter().any(|(k, _)| k == seat) {
                    return Err(HandError::NoWagersOnSeat(seat.clone()));
                }
                outcomes = SeatMap(upsert(&outcomes.0, seat.clone(), *outcome));
            }
        }
        input.outcomes = Some(outcomes);
        Scenario::from_input(&input)?;
        Ok(())
    }

    /// Cards recorded so far: each hand readable, no card twice at the table.
    fn check_recorded_cards(&self) -> Result<(), HandError> {
        let Results::Hands(list) = &self.results else {
            return Ok(());
        };
        let options = self.scenario_probe_options()?;
        let mut all = Vec::new();
        for (seat, hand) in list {
            for (field, value) in [
                ("high", &hand.high),
                ("low", &hand.low),
                ("cards", &hand.cards),
            ] {
                if let Some(text) = value {
                    let parsed = cards::parse_cards(text).map_err(|e| HandError::Cards {
                        field: format!("hands.{seat}.{field}"),
                        message: e.to_string(),
                    })?;
                    let want = match field {
                        "high" => 5,
                        "low" => 2,
                        _ => 7,
                    };
                    if parsed.len() != want {
                        return Err(HandError::Cards {
                            field: format!("hands.{seat}.{field}"),
                            message: format!(
                                "\"{text}\" is {} cards; {} is exactly {want} cards",
                                parsed.len(),
                                match field {
                                    "high" => "a high hand",
                                    "low" => "a low hand",
                                    _ => "a seat's hand to set",
                                }
                            ),
                        });
                    }
                    all.extend(parsed);
                }
            }
        }
        cards::check_deal(&all, &options).map_err(|e| HandError::Cards {
            field: "hands".into(),
            message: e.to_string(),
        })
    }

    fn scenario_probe_options(
        &self,
    ) -> Result<crate::domain::double_hand_poker::options::RuleOptions, HandError> {
        let input = &self.input;
        Ok(
            crate::domain::double_hand_poker::options::RuleOptions::for_profile(
                input.profile.unwrap_or_default(),
            )
            .with(&input.options.clone().unwrap_or_default()),
        )
    }
}

fn push_everywhere(wagers: &[WagerInput]) -> SeatMap<Outcome> {
    let mut seats: Vec<(String, Outcome)> = Vec::new();
    for w in wagers {
        let key = w.seat.to_string();
        if !seats.iter().any(|(k, _)| *k == key) {
            seats.push((key, Outcome::Push));
        }
    }
    SeatMap(seats)
}

fn upsert<V: Clone>(list: &[(String, V)], key: String, value: V) -> Vec<(String, V)> {
    let mut out: Vec<(String, V)> = list.iter().filter(|(k, _)| *k != key).cloned().collect();
    out.push((key, value));
    out
}

/// Settles the scenario. A settlement the event already carries (a recorded
/// event being replayed) must state the same money movements and is kept as
/// recorded; otherwise the computed one is returned to be recorded.
fn settled(
    scenario: &Scenario,
    carried: Option<&RecordedSettlement>,
) -> Result<(RecordedSettlement, Option<RecordedSettlement>), HandError> {
    let computed = settle::settle(scenario)?;
    match carried {
        Some(recorded) if recorded.matches(&computed) => Ok((recorded.matched(&computed), None)),
        Some(_) => Err(HandError::SettlementMismatch),
        None => {
            let fresh = RecordedSettlement::of(&computed)?;
            Ok((fresh.clone(), Some(fresh)))
        }
    }
}

fn text(field: &str, value: &str) -> Result<String, HandError> {
    let chars = value.chars().count();
    if value.trim().is_empty() || chars > settle::limits::NAME_CHARS_MAX {
        return Err(HandError::Refused {
            field: field.to_string(),
            value: value.to_string(),
            why: format!("must be 1..{} characters", settle::limits::NAME_CHARS_MAX),
        });
    }
    Ok(value.to_string())
}

/// The player's name of a `pd_set` (the event itself when unchanged).
fn event_player(event: &HandEvent) -> String {
    match event {
        HandEvent::PdSet { player, .. } => player.clone(),
        _ => String::new(),
    }
}
