//! Dice games kept at the table (10,000 and poker dice), a [`KeptGame`]:
//! the game's state is a projection row; every action is an audit record
//! (`ten_thousand_started`, `ten_thousand_action`, `ten_thousand_finished`,
//! and the same for `poker_dice_…`) appended in the same transaction. An action names
//! the version it was built on (a stale page is refused) and carries a key
//! (a double tap records once).

use crate::domain::common::field_error::FieldError;
use serde_json::json;

use super::StoreError;
use super::audit::canonical_json;
use super::kept_games::{GameRecord, KeptGame, KeptGameError, KeptTable, StoredGame};
use crate::domain::poker_dice::{PokerDiceError, RoundAction, RoundKeeper};
use crate::domain::ten_thousand::{Keeper, KeeperAction, TenThousandError};

/// A game's state, by kind.
#[derive(Debug, Clone)]
pub enum DiceState {
    TenThousand(Keeper),
    PokerDice(RoundKeeper),
}

/// An action, by kind.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(untagged)]
pub enum DiceAction {
    TenThousand(KeeperAction),
    PokerDice(RoundAction),
}

impl DiceState {
    pub fn kind(&self) -> &'static str {
        match self {
            DiceState::TenThousand(_) => "ten-thousand",
            DiceState::PokerDice(_) => "poker-dice",
        }
    }

    /// The prefix of the game's audit event types.
    pub(crate) fn event_prefix(&self) -> &'static str {
        match self {
            DiceState::TenThousand(_) => "ten_thousand",
            DiceState::PokerDice(_) => "poker_dice",
        }
    }

    pub fn players(&self) -> &[String] {
        match self {
            DiceState::TenThousand(k) => &k.players,
            DiceState::PokerDice(k) => &k.players,
        }
    }

    pub(crate) fn finished(&self) -> bool {
        match self {
            DiceState::TenThousand(k) => k.sheet().is_ok_and(|s| s.finished),
            DiceState::PokerDice(k) => k.finished(),
        }
    }

    /// Who won, for the `…_finished` record.
    pub(crate) fn outcome(&self) -> serde_json::Value {
        match self {
            DiceState::TenThousand(k) => match k.sheet() {
                Ok(s) => json!({"winner": s.winner, "totals": s.totals, "reason": s.reason}),
                Err(e) => json!({"error": e.to_string()}),
            },
            DiceState::PokerDice(k) => match k.result() {
                Some(Ok(r)) => json!({"winners": r.winner_names, "reason": r.decision.reason}),
                Some(Err(e)) => json!({"error": e.to_string()}),
                None => serde_json::Value::Null,
            },
        }
    }

    pub(crate) fn to_json(&self) -> Result<String, StoreError> {
        match self {
            DiceState::TenThousand(k) => canonical_json(k),
            DiceState::PokerDice(k) => canonical_json(k),
        }
    }

    pub(crate) fn from_json(kind: &str, text: &str) -> Result<DiceState, StoreError> {
        let bad = |source| StoreError::StoredJson {
            what: "stored dice game",
            source,
        };
        match kind {
            "ten-thousand" => serde_json::from_str(text)
                .map(DiceState::TenThousand)
                .map_err(bad),
            "poker-dice" => serde_json::from_str(text)
                .map(DiceState::PokerDice)
                .map_err(bad),
            other => Err(StoreError::Internal(format!(
                "stored dice game of kind {other:?}"
            ))),
        }
    }

    pub(crate) fn apply(&self, action: &DiceAction) -> Result<DiceState, KeptGameError> {
        match (self, action) {
            (DiceState::TenThousand(k), DiceAction::TenThousand(a)) => {
                Ok(DiceState::TenThousand(k.apply(a)?))
            }
            (DiceState::PokerDice(k), DiceAction::PokerDice(a)) => {
                Ok(DiceState::PokerDice(k.apply(a)?))
            }
            _ => Err(KeptGameError::Rules(FieldError::new(
                "action",
                format!("not an action of a {} game", self.kind()),
            ))),
        }
    }
}

/// A dice game as stored.
pub type DiceGame = StoredGame<DiceState>;

impl From<TenThousandError> for KeptGameError {
    fn from(e: TenThousandError) -> Self {
        KeptGameError::Rules(FieldError::new(e.field, e.message))
    }
}

impl From<PokerDiceError> for KeptGameError {
    fn from(e: PokerDiceError) -> Self {
        KeptGameError::Rules(FieldError::new(e.field, e.message))
    }
}

impl KeptGame for DiceState {
    type Action = DiceAction;
    const TABLE: KeptTable = KeptTable::Dice;

    fn kind(&self) -> Option<&'static str> {
        Some(DiceState::kind(self))
    }

    fn to_stored(&self) -> Result<String, StoreError> {
        self.to_json()
    }

    fn from_stored(kind: Option<&str>, state: &str) -> Result<Self, StoreError> {
        DiceState::from_json(kind.unwrap_or_default(), state)
    }

    fn started_event(&self) -> String {
        format!("{}_started", self.event_prefix())
    }

    /// The `…_action` record, and `…_finished` with who won when it ends
    /// the game.
    fn fold(
        &self,
        id: &str,
        version: i64,
        action: &DiceAction,
    ) -> Result<(Self, Vec<GameRecord>), KeptGameError> {
        let state = self.apply(action)?;
        let prefix = state.event_prefix();
        let payload = json!({"game_id": id, "version": version, "action": action});
        let mut records = vec![(format!("{prefix}_action"), payload)];
        if state.finished() {
            let payload = json!({"game_id": id, "outcome": state.outcome()});
            records.push((format!("{prefix}_finished"), payload));
        }
        Ok((state, records))
    }

    fn finished(&self) -> bool {
        DiceState::finished(self)
    }
}
