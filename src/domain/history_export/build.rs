//! A hand's audit records → its exported hand. The records are replayed
//! with the hand's own fold (`HandState`, as `audit verify` does), so a
//! record that does not parse, an event its hand's rules refuse, or a
//! recorded settlement that differs from the one its events give is an
//! error here; what the line states is what the fold holds.

use super::format::{
    Action, Collection, Correction, ExportRecord, ExportedHand, FORMAT, Note, Pd, RemovedWager,
    SeatResult, SettlementText, Status, Total, Void, Wager, WagerResult,
};
use crate::double_hand_poker::action_dice;
use crate::double_hand_poker::hand_record::{
    GAME_DOUBLE_HAND_POKER, HandError, HandEvent, HandState, Phase,
};
use crate::double_hand_poker::settle::{self, DEFAULT_SEATS, ScenarioInput, Settlement};

/// The hand to export: its key, its table's hand number (when known) and
/// its audit records in seq order.
#[derive(Debug, Clone)]
pub struct HandSource {
    pub id: String,
    pub number: Option<i64>,
    pub records: Vec<ExportRecord>,
}

/// Why a hand's records do not make a hand.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BuildError {
    #[error("the hand has no records")]
    NoRecords,
    #[error("seq {seq}: the record belongs to hand {found:?}, not to this hand")]
    OtherHand { seq: i64, found: Option<String> },
    #[error("seq {seq}: records are not in seq order")]
    Order { seq: i64 },
    #[error("seq {seq}: the payload is not a hand event: {message}")]
    Unreadable { seq: i64, message: String },
    #[error("seq {seq}: the record says {recorded:?} but its payload is a {payload} event")]
    TypeMismatch {
        seq: i64,
        recorded: String,
        payload: &'static str,
    },
    /// The settlement a record carries differs from the one its events give.
    #[error(
        "seq {seq}: the recorded settlement differs from the settlement recomputed from the events"
    )]
    SettlementDiffers { seq: i64 },
    #[error("seq {seq}: the event does not replay: {message}")]
    Refused { seq: i64, message: String },
}

impl BuildError {
    /// True when a recorded settlement is wrong (the others: a record that is
    /// not this hand's, or not an event of it).
    pub fn is_settlement(&self) -> bool {
        matches!(self, BuildError::SettlementDiffers { .. })
    }
}

/// The event kinds the hand's fold replays. A hand record of another kind
/// (a note, or a kind a later version adds) is exported with the others
/// and its hash and links checked, but not replayed.
pub const FOLDED_KINDS: [&str; 12] = [
    "hand_opened",
    "pd_set",
    "wager_placed",
    "wager_removed",
    "collection_taken",
    "action_set",
    "outcome_recorded",
    "hand_recorded",
    "steps_confirmed",
    "hand_closed",
    "outcome_corrected",
    "hand_voided",
];

/// The record kind of a note on a hand; its payload holds `text`.
pub const NOTE_ADDED: &str = "hand_note_added";

/// What the replay collects beside the state, record by record.
#[derive(Default)]
struct Seen {
    closed_at: Option<String>,
    removed: Vec<RemovedWager>,
    corrections: Vec<Correction>,
    void: Option<Void>,
    notes: Vec<Note>,
}

/// A `hand_note_added` record as a note (None for any other record).
fn note_of(record: &ExportRecord) -> Result<Option<Note>, BuildError> {
    #[derive(serde::Deserialize)]
    struct NoteText {
        text: String,
    }
    if record.event_type != NOTE_ADDED {
        return Ok(None);
    }
    let note: NoteText =
        serde_json::from_str(&record.payload).map_err(|e| BuildError::Unreadable {
            seq: record.seq,
            message: e.to_string(),
        })?;
    Ok(Some(Note {
        seq: record.seq,
        at: record.recorded_at.clone(),
        by: record.actor.clone(),
        text: note.text,
    }))
}

/// The exported hand of `source` (see the module docs).
pub fn build(source: HandSource) -> Result<ExportedHand, BuildError> {
    let mut hand = build_summary(&source.id, source.number, &source.records)?;
    hand.records = source.records;
    Ok(hand)
}

/// The exported hand of these records, without the records themselves
/// (`records` empty): what `history check` compares a line with.
pub fn build_summary(
    id: &str,
    number: Option<i64>,
    records: &[ExportRecord],
) -> Result<ExportedHand, BuildError> {
    let first = records.first().ok_or(BuildError::NoRecords)?;
    let opened_at = first.recorded_at.clone();
    let mut state: Option<HandState> = None;
    let mut seen = Seen::default();
    let mut opening = None;
    let mut last_seq = 0;
    for record in records {
        let seq = record.seq;
        if record.hand_id.as_deref() != Some(id) {
            return Err(BuildError::OtherHand {
                seq,
                found: record.hand_id.clone(),
            });
        }
        if seq <= last_seq {
            return Err(BuildError::Order { seq });
        }
        last_seq = seq;
        if let Some(note) = note_of(record)? {
            seen.notes.push(note);
        }
        let event = match HandEvent::from_json(&record.payload) {
            Ok(event) => event,
            // Not a kind the fold replays: exported, not rendered.
            Err(_) if !FOLDED_KINDS.contains(&record.event_type.as_str()) => continue,
            Err(e) => {
                return Err(BuildError::Unreadable {
                    seq,
                    message: e.to_string(),
                });
            }
        };
        if event.type_name() != record.event_type {
            return Err(BuildError::TypeMismatch {
                seq,
                recorded: record.event_type.clone(),
                payload: event.type_name(),
            });
        }
        state = Some(HandState::replay(state.take(), &event).map_err(|e| replay_error(seq, e))?);
        seen.note(record, event, &mut opening);
    }
    let state = state.ok_or(BuildError::NoRecords)?;
    let rules = opening.ok_or(BuildError::NoRecords)?;
    let computed = match state.phase() {
        Phase::Closed => Some(state.scenario().map_err(|e| replay_error(last_seq, e))?),
        _ => None,
    };
    let settled = match &computed {
        Some(scenario) => Some(
            settle::settle(scenario).map_err(|e| replay_error(last_seq, HandError::Rules(e)))?,
        ),
        None => None,
    };
    let input = state.scenario_input();
    Ok(ExportedHand {
        format: FORMAT.to_string(),
        id: id.to_string(),
        number,
        previous: None,
        table: state.table.clone(),
        game: GAME_DOUBLE_HAND_POKER.to_string(),
        status: status(&state, &seen),
        opened_at,
        closed_at: seen.closed_at,
        voided_at: seen.void.as_ref().map(|v| v.at.clone()),
        dealer: state.dealer.clone(),
        rules,
        pd: pd(&state, settled.as_ref()),
        action: action(&state, &input, settled.as_ref()),
        wagers: wagers(&state, settled.as_ref()),
        removed_wagers: seen.removed,
        results: results(&input),
        collection: input.collection.map(|c| Collection {
            player: c.player,
            bank: c.bank,
        }),
        house_collection: state.settlement().and_then(|s| s.house_collection()),
        settlement: state.settlement().map(SettlementText::recorded),
        corrections: seen.corrections,
        void: seen.void,
        notes: seen.notes,
        records: Vec::new(),
    })
}

fn replay_error(seq: i64, e: HandError) -> BuildError {
    match e {
        HandError::SettlementMismatch => BuildError::SettlementDiffers { seq },
        other => BuildError::Refused {
            seq,
            message: other.to_string(),
        },
    }
}

impl Seen {
    fn note(
        &mut self,
        record: &ExportRecord,
        event: HandEvent,
        opening: &mut Option<super::Rules>,
    ) {
        let at = || record.recorded_at.clone();
        let by = || record.actor.clone();
        match event {
            HandEvent::HandOpened {
                profile,
                options,
                seats,
                posted,
                ..
            } => {
                *opening = Some(super::Rules {
                    profile,
                    options,
                    seats,
                    posted,
                });
            }
            HandEvent::WagerRemoved { id, reason } => self.removed.push(RemovedWager {
                id,
                reason,
                by: by(),
                at: at(),
            }),
            HandEvent::HandClosed { .. } => self.closed_at = Some(at()),
            HandEvent::OutcomeCorrected {
                seat,
                outcome,
                hand,
                reason,
                ..
            } => self.corrections.push(Correction {
                seq: record.seq,
                at: at(),
                by: by(),
                seat,
                outcome,
                hand,
                reason,
            }),
            HandEvent::HandVoided { reason } => {
                self.void = Some(Void {
                    seq: record.seq,
                    at: at(),
                    by: by(),
                    reason,
                })
            }
            _ => {}
        }
    }
}

fn status(state: &HandState, seen: &Seen) -> Status {
    match state.phase() {
        Phase::Betting | Phase::Dealt => Status::Open,
        Phase::Voided => Status::Voided,
        Phase::Closed if seen.corrections.is_empty() => Status::Closed,
        Phase::Closed => Status::Corrected,
    }
}

fn pd(state: &HandState, settled: Option<&Settlement<'_>>) -> Option<Pd> {
    let pd = state.pd()?;
    let choice = state.pd_choice();
    Some(Pd {
        seat: pd.seat,
        player: pd.player.clone(),
        bank: pd.bank,
        option: choice.option,
        declined: choice.declined.clone(),
        result: settled.map(|s| Total {
            received: s.totals.pd.received,
            net: s.totals.pd.net,
            fee: s.totals.pd.fee,
        }),
    })
}

fn action(
    state: &HandState,
    input: &ScenarioInput,
    settled: Option<&Settlement<'_>>,
) -> Option<Action> {
    let given = input.action.clone();
    let seat = match (settled, &given.dice, given.seat) {
        (Some(s), _, _) => i64::from(s.action_seat),
        (None, Some(dice), _) => {
            let pd = state.pd()?;
            let dice: [i64; 3] = dice.as_slice().try_into().ok()?;
            let seats = input.seats.unwrap_or(DEFAULT_SEATS);
            i64::from(action_dice::action_seat(dice, pd.seat, seats).ok()?)
        }
        (None, None, Some(seat)) => seat,
        (None, None, None) => return None,
    };
    Some(Action {
        dice: given.dice,
        seat,
    })
}

fn wagers(state: &HandState, settled: Option<&Settlement<'_>>) -> Vec<Wager> {
    state
        .wagers()
        .iter()
        .map(|w| Wager {
            id: w.id.clone(),
            seat: w.seat,
            bettor: w.bettor.clone(),
            amount: w.amount,
            backline: w.backline,
            payout: w.payout.clone().unwrap_or_else(|| "1:1".to_string()),
            result: settled
                .and_then(|s| s.steps.iter().find(|step| step.wager == w.id))
                .map(|step| WagerResult {
                    outcome: step.outcome,
                    covered: step.covered(),
                    no_action: step.no_action(),
                    paid: step.to_bettor(),
                    net: step.to_bettor() - step.amount,
                    collection: step.fee,
                    explanation: step.explanation(),
                }),
        })
        .collect()
}

/// Each seat's result as entered, by seat number.
fn results(input: &ScenarioInput) -> Vec<SeatResult> {
    let mut out: Vec<SeatResult> = Vec::new();
    let seat_of = |key: &str| key.parse::<i64>().unwrap_or_default();
    for (key, outcome) in input.outcomes.iter().flat_map(|m| m.0.iter()) {
        out.push(SeatResult {
            seat: seat_of(key),
            outcome: Some(*outcome),
            hand: None,
        });
    }
    for (key, hand) in input.hands.iter().flat_map(|m| m.0.iter()) {
        out.push(SeatResult {
            seat: seat_of(key),
            outcome: None,
            hand: Some(hand.clone()),
        });
    }
    out.sort_by_key(|r| r.seat);
    out
}
