//! The hand's state machine: one event applied to the state, each event
//! checked against the phase and the posted rules.

use std::collections::BTreeSet;

use super::{Check, EVENTS_PER_HAND_MAX, HandState, PdChoice, Phase, Results, SeatResult};
use crate::double_hand_poker::hand_record::events::HandEvent;
use crate::double_hand_poker::hand_record::pd::{Declined, check_declined};
use crate::double_hand_poker::hand_record::posted::Enforced;
use crate::double_hand_poker::hand_record::{HandError, RecordedSettlement};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{
    self, ActionInput, CollectionInput, PdInput, Scenario, ScenarioInput, SeatMap, WagerInput,
};

impl HandState {
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
                    tppps,
                } => {
                    let rules = crate::double_hand_poker::options::RuleOptions::for_profile(
                        profile.unwrap_or_default(),
                    )
                    .with(&options.clone().unwrap_or_default());
                    let enforced = posted.as_ref().map(|posted| Enforced {
                        posted: posted.clone(),
                        unit: rules.min_unit,
                        seats: seats.unwrap_or(settle::DEFAULT_SEATS),
                    });
                    let input = ScenarioInput {
                        profile: *profile,
                        options: options.clone(),
                        seats: *seats,
                        pd: PdInput {
                            seat: 1,
                            player: String::new(),
                            bank: crate::common::money::Money::ZERO,
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
                        results: Results::default(),
                        confirmed: BTreeSet::new(),
                        settlement: None,
                        enforced,
                        corrections: 0,
                        tppps: tppps.clone(),
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
            // In any phase, closed and voided too; no money moves.
            HandEvent::HandNoteAdded { text } => {
                recorded = next
                    .note(text, check)?
                    .map(|text| HandEvent::HandNoteAdded { text });
            }
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
                next.check_offer_recorded(*option)?;
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
                next.check_tppp_bettor(normalised.as_deref().unwrap_or(bettor))?;
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
                let redo = next.phase == Phase::Dealt && next.results.0.is_empty();
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
                next.results.set(*seat, SeatResult::Outcome(*outcome));
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
                next.results.set(*seat, SeatResult::Hand(hand.clone()));
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
                // A seat entered either way is corrected either way.
                let result = match (outcome, hand) {
                    (Some(o), None) => SeatResult::Outcome(*o),
                    (None, Some(h)) => SeatResult::Hand(h.clone()),
                    _ => return Err(HandError::MixedResults),
                };
                let is_hand = matches!(result, SeatResult::Hand(_));
                next.results.set(*seat, result);
                if is_hand && (full || next.enforced.is_some()) {
                    next.check_recorded_cards()?;
                }
                let scenario = next.scenario()?;
                let (kept, fresh) = settled(&scenario, settlement.as_ref())?;
                next.settlement = Some(kept);
                next.corrections += 1;
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
}

pub(super) fn push_everywhere(wagers: &[WagerInput]) -> SeatMap<Outcome> {
    let mut seats: Vec<(String, Outcome)> = Vec::new();
    for w in wagers {
        let key = w.seat.to_string();
        if !seats.iter().any(|(k, _)| *k == key) {
            seats.push((key, Outcome::Push));
        }
    }
    SeatMap(seats)
}

pub(super) fn upsert<V: Clone>(list: &[(String, V)], key: String, value: V) -> Vec<(String, V)> {
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
