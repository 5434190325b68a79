//! Tripoley games kept at the table, a [`KeptGame`]. The game's state is a projection row
//! (canonical JSON of [`TripoleyGame`]); every action is an audit record
//! (`tripoley_started`, `tripoley_round` with the round's input and steps,
//! `tripoley_finished` with the last hand; a round kept step by step adds
//! one record per step — `tripoley_ante`, `_deal`, `_spare`, `_money_cards`,
//! `_bet`, `_showdown`, `_michigan_card`, `_michigan_result` — the last one
//! followed by its `tripoley_round`) appended in the same transaction.
//! An action names the version it was built on (a stale page is refused)
//! and carries a key (a double tap records once).

use crate::domain::common::field_error::FieldError;
use serde_json::json;

use super::StoreError;
use super::audit::canonical_json;
use super::kept_games::{self, GameRecord, KeptGame, KeptGameError, KeptTable};
use crate::domain::tripoley::TripoleyError;
use crate::domain::tripoley::game::{RoundEntry, TripoleyGame};
use crate::domain::tripoley::round_steps::RoundStep;
use crate::domain::tripoley::{Outcome, RoundOutput};

pub(crate) mod replay;

/// An action on a game.
#[derive(Debug, Clone)]
pub enum TripoleyAction {
    /// A whole round entered as its results.
    Round(RoundEntry),
    /// One step of the round kept step by step; the last one pays it out.
    Step(RoundStep),
    /// Each player's last five cards.
    Final(Vec<(String, String)>),
}

/// A Tripoley game as stored.
pub type StoredGame = kept_games::StoredGame<TripoleyGame>;

impl From<TripoleyError> for KeptGameError {
    fn from(e: TripoleyError) -> Self {
        match e {
            TripoleyError::Input { field, message } => {
                KeptGameError::Rules(FieldError::new(field, message))
            }
            other => KeptGameError::Game(Box::new(other)),
        }
    }
}

/// The `tripoley_round` record of a paid-out round.
pub(crate) fn round_record(
    id: &str,
    version: i64,
    game: &TripoleyGame,
    out: &RoundOutput,
) -> (&'static str, serde_json::Value) {
    let played = game.rounds.last();
    let payload = json!({
        "game_id": id,
        "version": version,
        "round": played.map(|r| r.number),
        "input": played.map(|r| &r.input),
        "steps": out.outcome.steps,
        "chips": out.outcome.chips,
        "board": out.outcome.board,
        "next_dealer": out.next_dealer,
    });
    ("tripoley_round", payload)
}

/// The record of one step of a round kept step by step (`game` before it).
pub(crate) fn step_record(
    id: &str,
    version: i64,
    game: &TripoleyGame,
    step: &RoundStep,
) -> (&'static str, serde_json::Value) {
    let payload = json!({
        "game_id": id,
        "version": version,
        "round": game.rounds.len() + 1,
        "step": step,
    });
    (step.event(), payload)
}

/// The `tripoley_finished` record of the last hand.
pub(crate) fn finished_record(
    id: &str,
    version: i64,
    game: &TripoleyGame,
    out: &Outcome,
) -> (&'static str, serde_json::Value) {
    let payload = json!({
        "game_id": id,
        "version": version,
        "input": game.last_hand.as_ref().map(|r| &r.input),
        "steps": out.steps,
        "chips": out.chips,
        "money": out.money,
    });
    ("tripoley_finished", payload)
}

impl KeptGame for TripoleyGame {
    type Action = TripoleyAction;
    const TABLE: KeptTable = KeptTable::Tripoley;

    fn kind(&self) -> Option<&'static str> {
        None
    }

    fn to_stored(&self) -> Result<String, StoreError> {
        canonical_json(self)
    }

    fn from_stored(_kind: Option<&str>, state: &str) -> Result<Self, StoreError> {
        serde_json::from_str(state).map_err(|source| StoreError::StoredJson {
            what: "stored tripoley game",
            source,
        })
    }

    fn started_event(&self) -> String {
        "tripoley_started".into()
    }

    /// One record per action; a step that completes the round also records
    /// the round's payouts (`tripoley_round`), in the same transaction.
    fn fold(
        &self,
        id: &str,
        version: i64,
        action: &TripoleyAction,
    ) -> Result<(Self, Vec<GameRecord>), KeptGameError> {
        let mut records = Vec::new();
        let game = match action {
            TripoleyAction::Round(entry) => {
                let (game, out) = self.apply_round(entry)?;
                records.push(round_record(id, version, &game, &out));
                game
            }
            TripoleyAction::Step(step) => {
                let (game, out) = self.apply_step(step)?;
                records.push(step_record(id, version, self, step));
                if let Some(out) = out {
                    records.push(round_record(id, version, &game, &out));
                }
                game
            }
            TripoleyAction::Final(hands) => {
                let (game, out) = self.finish(hands)?;
                records.push(finished_record(id, version, &game, &out));
                game
            }
        };
        let records = records
            .into_iter()
            .map(|(event, payload)| (event.to_string(), payload))
            .collect();
        Ok((game, records))
    }

    fn finished(&self) -> bool {
        TripoleyGame::finished(self)
    }
}
