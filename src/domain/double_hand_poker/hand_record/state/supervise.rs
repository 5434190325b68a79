//! The supervisor's events and the note: a correction of a closed hand's
//! result (the settlement recomputed), a void, a note in any phase.

use super::apply::{Applied, Origin};
use super::play::settled;
use super::{HandState, Phase, SeatResult, Stage};
use crate::double_hand_poker::hand_record::events::HandEvent;
use crate::double_hand_poker::hand_record::{HandError, RecordedSettlement};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::HandInput;

impl HandState {
    /// `outcome_corrected`: a seat's result changed after close, with a
    /// reason; the hand is settled again and the new settlement recorded.
    pub(super) fn correct(
        &mut self,
        seat: i64,
        result: (Option<Outcome>, Option<&HandInput>),
        reason: &str,
        carried: Option<&RecordedSettlement>,
        origin: Origin,
    ) -> Applied {
        self.require(
            Phase::Closed,
            "outcome_corrected",
            "a correction changes a closed hand; before close, record the result again",
        )?;
        self.reason(reason, origin)?;
        // A seat entered either way is corrected either way.
        let (outcome, hand) = result;
        let corrected = match (outcome, hand) {
            (Some(o), None) => SeatResult::Outcome(o),
            (None, Some(h)) => SeatResult::Hand(h.clone()),
            _ => return Err(HandError::MixedResults),
        };
        let is_hand = hand.is_some();
        if let Stage::Closed(play, ..) = &mut self.stage {
            play.results.set(seat, corrected);
        }
        if is_hand && (origin == Origin::New || self.setup.enforced.is_some()) {
            self.check_recorded_cards()?;
        }
        let scenario = self.scenario()?;
        let (kept, fresh) = settled(&scenario, carried)?;
        if let Stage::Closed(_, settlement, corrections) = &mut self.stage {
            *settlement = kept;
            *corrections += 1;
        }
        Ok(fresh.map(|s| HandEvent::OutcomeCorrected {
            seat,
            outcome,
            hand: hand.cloned(),
            reason: reason.to_string(),
            settlement: Some(s),
        }))
    }

    /// `hand_voided`: every bet returned; the hand keeps what it held.
    pub(super) fn void(&mut self, reason: &str, origin: Origin) -> Applied {
        if self.phase() == Phase::Voided {
            return Err(self.wrong_phase("hand_voided", "the hand is already voided"));
        }
        self.reason(reason, origin)?;
        let was = std::mem::replace(&mut self.stage, Stage::Betting);
        self.stage = Stage::Voided(Box::new(was));
        Ok(None)
    }

    /// `hand_note_added`: in any phase, voided too; no money moves.
    pub(super) fn add_note(&mut self, text: &str, origin: Origin) -> Applied {
        Ok(self
            .note(text, origin)?
            .map(|text| HandEvent::HandNoteAdded { text }))
    }
}
