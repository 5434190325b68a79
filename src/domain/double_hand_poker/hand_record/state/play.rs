//! The dealt phase's events: the ACTION seat, each seat's result, the
//! steps the dealer carried out, and the close, which settles the hand.

use std::collections::BTreeSet;

use super::apply::{Applied, Origin};
use super::{HandState, Phase, Play, Results, SeatResult, Stage, unset_pd};
use crate::double_hand_poker::hand_record::events::HandEvent;
use crate::double_hand_poker::hand_record::{HandError, RecordedSettlement};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{self, ActionInput, HandInput, Scenario};

impl HandState {
    /// `action_set`: the PD's dice (or the seat) once the bets are in;
    /// set again only while no result is recorded.
    pub(super) fn set_action(&mut self, action: ActionInput, origin: Origin) -> Applied {
        const EVENT: &str = "action_set";
        let redo = matches!(&self.stage, Stage::Dealt(play) if play.results.0.is_empty());
        if self.phase() != Phase::Betting && !redo {
            return Err(self.wrong_phase(EVENT, "the ACTION seat is set once, before any result"));
        }
        if self.bets.wagers.is_empty() {
            return Err(self.wrong_phase(EVENT, "no wagers are placed"));
        }
        if let Some(rules) = &self.setup.enforced
            && rules.posted.takes_collection()
            && self.bets.collection.is_none()
        {
            return Err(HandError::Refused {
                field: "collection".into(),
                value: String::new(),
                why: "is not taken: the table posts a collection schedule; take the collection before the dice".into(),
            });
        }
        if origin == Origin::New {
            let rules = self.table_rules()?;
            let pd_seat = rules.pd(self.pd().unwrap_or(&unset_pd()))?;
            rules.action(&action, pd_seat)?;
        }
        self.stage = Stage::Dealt(Play {
            action,
            results: Results::default(),
            confirmed: BTreeSet::new(),
        });
        Ok(None)
    }

    /// `outcome_recorded`: a seat's result as the dealer read it (again:
    /// the later one stands). Every confirmed step is undone.
    pub(super) fn record_outcome(
        &mut self,
        seat: i64,
        outcome: Outcome,
        origin: Origin,
    ) -> Applied {
        self.require(
            Phase::Dealt,
            "outcome_recorded",
            "results are recorded after the dice, before close",
        )?;
        if origin == Origin::New && !self.bets.wagers.iter().any(|w| w.seat == seat) {
            return Err(HandError::NoWagersOnSeat(seat.to_string()));
        }
        self.record_result(seat, SeatResult::Outcome(outcome));
        Ok(None)
    }

    /// `hand_recorded`: a seat's cards (or the PD's), which the hand rules
    /// decide; every card readable and none twice at the table.
    pub(super) fn record_hand(&mut self, seat: i64, hand: &HandInput, origin: Origin) -> Applied {
        self.require(
            Phase::Dealt,
            "hand_recorded",
            "hands are recorded after the dice, before close",
        )?;
        self.record_result(seat, SeatResult::Hand(hand.clone()));
        if origin == Origin::New || self.setup.enforced.is_some() {
            self.check_recorded_cards()?;
        }
        Ok(None)
    }

    fn record_result(&mut self, seat: i64, result: SeatResult) {
        if let Stage::Dealt(play) = &mut self.stage {
            play.results.set(seat, result);
            play.confirmed.clear();
        }
    }

    /// `steps_confirmed`: the dealer carried out these steps, which must be
    /// the next ones in the settlement's action order.
    pub(super) fn confirm_steps(&mut self, wagers: &[String], origin: Origin) -> Applied {
        self.require(
            Phase::Dealt,
            "steps_confirmed",
            "steps are confirmed after every result is in",
        )?;
        // Recorded confirmations were checked when written; the settlement
        // is recomputed in full at close.
        let scenario = match origin {
            Origin::New => Some(self.scenario()?),
            Origin::Recorded => None,
        };
        let order = scenario.as_ref().map(settle::settle).transpose()?;
        let Stage::Dealt(play) = &mut self.stage else {
            return Ok(None);
        };
        for id in wagers {
            if let Some(settlement) = &order {
                if !self.bets.wagers.iter().any(|w| w.id == *id) {
                    return Err(HandError::UnknownWager(id.clone()));
                }
                // Confirmations are always a prefix of the action order.
                let next = settlement.steps.get(play.confirmed.len()).map(|s| s.wager);
                if next != Some(id.as_str()) {
                    return Err(HandError::StepOrder {
                        id: id.clone(),
                        expected: next.unwrap_or("none: every step is confirmed").to_string(),
                    });
                }
            }
            play.confirmed.insert(id.clone());
        }
        Ok(None)
    }

    /// `hand_closed`: every step confirmed, the hand settled. A recorded
    /// close carries its settlement, which must equal the recomputed one.
    pub(super) fn close(&mut self, carried: Option<&RecordedSettlement>) -> Applied {
        self.require(
            Phase::Dealt,
            "hand_closed",
            "a hand is closed once, after its steps",
        )?;
        let scenario = self.scenario()?;
        let confirmed = self.confirmed();
        let missing: Vec<String> = scenario
            .wagers()
            .iter()
            .filter(|w| !confirmed.contains(&w.id))
            .map(|w| w.id.clone())
            .collect();
        if !missing.is_empty() {
            return Err(HandError::StepsNotConfirmed(missing));
        }
        let (kept, fresh) = settled(&scenario, carried)?;
        let Stage::Dealt(play) = std::mem::replace(&mut self.stage, Stage::Betting) else {
            return Err(HandError::Internal("a dealt hand without its play".into()));
        };
        self.stage = Stage::Closed(play, kept, 0);
        Ok(fresh.map(|s| HandEvent::HandClosed {
            settlement: Some(s),
        }))
    }
}

/// Settles the scenario. A settlement the event already carries (a recorded
/// event being replayed) must state the same money movements and is kept as
/// recorded; otherwise the computed one is returned to be recorded.
pub(super) fn settled(
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
