//! The checks several events share: the phase an event needs, staff-typed
//! names, reasons and notes, the TPPP and bank-offer rules, and the cards
//! recorded so far.

use super::apply::Origin;
use super::{HandState, NOTE_CHARS_MAX, Phase, REASON_CHARS_MAX, SeatResult};
use crate::cards;
use crate::common::text::{FreeText, NAME_CHARS_MAX};
use crate::double_hand_poker::hand_record::HandError;

impl HandState {
    /// A TPPP marked at the table takes wagers only as the PD
    /// (`tppp_wagers_only_as_pd`): never a bettor while another holds the bank.
    pub(super) fn check_tppp_bettor(&self, bettor: &str) -> Result<(), HandError> {
        use crate::double_hand_poker::rotation_clock::is_tppp;
        if !is_tppp(self.tppps(), bettor) || !self.rules().tppp_wagers_only_as_pd {
            return Ok(());
        }
        let pd = self.pd().map_or("", |pd| pd.player.as_str());
        if self.pd().is_some() && is_tppp(&[pd.to_string()], bettor) {
            return Ok(());
        }
        Err(HandError::Refused {
            field: "bettor".into(),
            value: bettor.to_string(),
            why: format!(
                "is a TPPP marked at this table: a TPPP takes wagers only while holding the bank, and {pd} holds it (tppp_wagers_only_as_pd)"
            ),
        })
    }

    /// Under `pd_offer_each_hand` the bank is offered before every hand:
    /// the PD's acceptance (the option they chose) is recorded with them.
    pub(super) fn check_offer_recorded(
        &self,
        option: Option<crate::double_hand_poker::hand_record::PdOption>,
    ) -> Result<(), HandError> {
        if option.is_some() || !self.rules().pd_offer_each_hand {
            return Ok(());
        }
        Err(HandError::Refused {
            field: "option".into(),
            value: String::new(),
            why: "is required at this table: the bank is offered before every hand, and the PD's acceptance is recorded as bank_one or bank_two (pd_offer_each_hand)".into(),
        })
    }

    /// The event (named by its type) needs the hand in `phase`.
    pub(super) fn require(
        &self,
        phase: Phase,
        event: &'static str,
        why: &str,
    ) -> Result<(), HandError> {
        if self.phase() == phase {
            Ok(())
        } else {
            Err(self.wrong_phase(event, why))
        }
    }

    pub(super) fn wrong_phase(&self, event: &'static str, why: &str) -> HandError {
        HandError::WrongPhase {
            event,
            phase: self.phase().name(),
            why: why.to_string(),
        }
    }

    /// A staff-typed name as free text (trimmed, NFC, nothing invisible).
    /// A new event's name is returned normalised when it differs, to be
    /// recorded so; a replayed hand recorded under its table's rules must
    /// hold it already normalised. Older hands replay as recorded.
    pub(super) fn name(
        &self,
        field: &str,
        value: &str,
        origin: Origin,
    ) -> Result<Option<String>, HandError> {
        if (origin == Origin::Recorded && self.setup.enforced.is_none())
            || FreeText::is_line(value, NAME_CHARS_MAX)
        {
            return Ok(None);
        }
        let text = FreeText::line(field, value, NAME_CHARS_MAX)?;
        if text.as_str() == value {
            return Ok(None);
        }
        if origin == Origin::Recorded {
            return Err(HandError::Refused {
                field: field.into(),
                value: value.into(),
                why: "is not recorded as checked text (trimmed, NFC)".into(),
            });
        }
        Ok(Some(text.into_string()))
    }

    /// A reason: free text of 1..REASON_CHARS_MAX characters, lines allowed.
    pub(super) fn reason(&self, reason: &str, origin: Origin) -> Result<(), HandError> {
        if origin == Origin::Recorded && self.setup.enforced.is_none() {
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

    /// A note: free text of 1..NOTE_CHARS_MAX characters, lines allowed.
    /// A new note is returned normalised when it differs (trimmed, NFC),
    /// to be recorded so; a replayed one must be recorded so already
    /// (notes are newer than the check, so none predates it).
    pub(super) fn note(&self, text: &str, origin: Origin) -> Result<Option<String>, HandError> {
        let checked = FreeText::paragraph("text", text, NOTE_CHARS_MAX)?;
        if checked.as_str() == text {
            return Ok(None);
        }
        if origin == Origin::Recorded {
            return Err(HandError::Refused {
                field: "text".into(),
                value: text.chars().take(40).collect(),
                why: "is not recorded as checked text (trimmed, NFC)".into(),
            });
        }
        Ok(Some(checked.into_string()))
    }

    pub(super) fn wager_index(&self, id: &str) -> Result<usize, HandError> {
        self.bets
            .wagers
            .iter()
            .position(|w| w.id == id)
            .ok_or_else(|| HandError::UnknownWager(id.to_string()))
    }

    /// Cards recorded so far: each hand readable, no card twice at the table.
    /// Each refusal names the seat at fault (the later of two holding the
    /// same card, in the order recorded) in its field and its words.
    pub(super) fn check_recorded_cards(&self) -> Result<(), HandError> {
        let options = self.rules();
        let mut all = Vec::new();
        // The seat that holds each card so far.
        let mut holder: Vec<(cards::Card, i64)> = Vec::new();
        let results = self
            .stage
            .play()
            .map_or(&[][..], |play| &play.results.0[..]);
        for (seat, hand) in results.iter().filter_map(|(seat, result)| match result {
            SeatResult::Hand(hand) => Some((*seat, hand)),
            SeatResult::Outcome(_) => None,
        }) {
            for (field, value) in [
                ("high", &hand.high),
                ("low", &hand.low),
                ("cards", &hand.cards),
            ] {
                let Some(text) = value else { continue };
                let at = format!("hands.{seat}.{field}");
                let parsed = cards::parse_cards(text).map_err(|e| HandError::Cards {
                    field: at.clone(),
                    message: e.to_string(),
                })?;
                let want = match field {
                    "high" => 5,
                    "low" => 2,
                    _ => 7,
                };
                if parsed.len() != want {
                    return Err(HandError::Cards {
                        field: at,
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
                for card in &parsed {
                    if let Some((_, first)) = holder.iter().find(|(c, _)| c == card) {
                        let message = if *first == seat {
                            format!("card \"{card}\" is typed twice in seat {seat}'s hand")
                        } else {
                            format!("card \"{card}\" is already in the hand of seat {first}")
                        };
                        return Err(HandError::Cards { field: at, message });
                    }
                    holder.push((*card, seat));
                }
                all.extend(parsed);
            }
        }
        cards::check_deal(&all, &options).map_err(|e| HandError::Cards {
            field: "hands".into(),
            message: e.to_string(),
        })
    }
}
