//! Keeping score of a game of 10,000 as it is played, one action at a time
//! (a throw, a keep, stopping to record). The game so far is the recorded
//! game contract (`GameRequest`: every finished turn) plus the throws of the
//! turn in progress; every action is checked by the same engine that scores
//! a whole recorded game (`game`), so the scorekeeper can never accept what
//! `pitbook ten-thousand game` would refuse.

use crate::common::text::FreeText;
use serde::{Deserialize, Serialize};

use super::api::{GameOptions, TenThousandError, check_dice};
use super::game::{GameRequest, ScoreSheet, ThrowRecord, TurnRecord, TurnState, game};
use super::{Keep, counts, keep_points, keeps};

/// A game being kept.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Keeper {
    pub options: GameOptionsRecord,
    pub players: Vec<String>,
    /// Finished turns, as the recorded game contract has them.
    pub turns: Vec<TurnRecordData>,
    /// The turn in progress: its throws so far (the last may await a keep).
    pub pending: Vec<ThrowData>,
}

/// The rule options, as recorded (serializable form of [`GameOptions`]).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameOptionsRecord {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dice: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub min_record: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub opening: Option<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hot_dice_must_roll: Option<bool>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnRecordData {
    pub player: String,
    pub throws: Vec<ThrowData>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ThrowData {
    pub dice: Vec<i64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub keep: Option<Vec<i64>>,
}

/// One scorekeeper action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum KeeperAction {
    /// The dice that came up.
    Throw { dice: Vec<i64> },
    /// The dice set aside from the last throw.
    Keep { dice: Vec<i64> },
    /// Stop and record the turn's points.
    Stop,
}

/// The turn in progress, for the page.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Progress {
    pub player: String,
    pub points: u32,
    pub dice_left: u8,
    /// The last throw awaits a keep: these are the legal ones.
    pub offered: Vec<Keep>,
    pub hot_dice: bool,
}

fn throw_record(t: &ThrowData) -> ThrowRecord {
    ThrowRecord {
        dice: t.dice.clone(),
        keep: t.keep.clone(),
    }
}

impl Keeper {
    pub fn new(
        players: Vec<String>,
        options: GameOptionsRecord,
    ) -> Result<Keeper, TenThousandError> {
        // The names as the score sheet keeps them (free text, normalised);
        // a refused name is the sheet's error below.
        let players = players
            .into_iter()
            .map(|p| match FreeText::line("name", &p, usize::MAX) {
                Ok(t) => t.into_string(),
                Err(_) => p,
            })
            .collect();
        let keeper = Keeper {
            options,
            players,
            turns: Vec::new(),
            pending: Vec::new(),
        };
        keeper.sheet()?;
        Ok(keeper)
    }

    /// The recorded game contract of the finished turns, plus `extra`.
    fn request(&self, extra: Option<&[ThrowData]>) -> GameRequest {
        let o = &self.options;
        let mut turns: Vec<TurnRecord> = self
            .turns
            .iter()
            .map(|t| TurnRecord {
                player: t.player.clone(),
                throws: t.throws.iter().map(throw_record).collect(),
            })
            .collect();
        if let Some(throws) = extra {
            turns.push(TurnRecord {
                player: self.next_player(),
                throws: throws.iter().map(throw_record).collect(),
            });
        }
        GameRequest {
            options: GameOptions {
                dice: o.dice,
                target: o.target,
                min_record: o.min_record,
                opening: o.opening,
                hot_dice_must_roll: o.hot_dice_must_roll,
            },
            players: self.players.clone(),
            turns,
        }
    }

    /// The score sheet of the finished turns.
    pub fn sheet(&self) -> Result<ScoreSheet, TenThousandError> {
        game(&self.request(None))
    }

    fn next_player(&self) -> String {
        let n = self.players.len().max(1);
        self.players
            .get(self.turns.len() % n)
            .cloned()
            .unwrap_or_default()
    }

    /// The turn in progress: points so far, dice left, the keeps offered.
    pub fn progress(&self) -> Result<Progress, TenThousandError> {
        let rules = self.request(None).options.resolve()?;
        let mut state = TurnState::new(&rules);
        let mut offered = Vec::new();
        for t in &self.pending {
            let dice = check_dice(&t.dice, "dice", rules.dice)?;
            let across = state.across();
            match &t.keep {
                Some(keep) => {
                    let keep = counts(&check_dice(keep, "keep", rules.dice)?);
                    let (points, used) = keep_points(&keep, across.as_ref())
                        .ok_or_else(|| TenThousandError::new("keep", "not every die scores"))?;
                    state.keep(&rules, &keep, points, used);
                }
                None => offered = keeps(&counts(&dice), across.as_ref()),
            }
        }
        Ok(Progress {
            player: self.next_player(),
            points: state.points,
            dice_left: state.dice_left,
            offered,
            hot_dice: state.hot_dice,
        })
    }

    /// The game after `action`, or why the action is refused. The turn in
    /// progress is checked by the engine as the turn it would be.
    pub fn apply(&self, action: &KeeperAction) -> Result<Keeper, TenThousandError> {
        let sheet = self.sheet()?;
        if sheet.finished {
            return Err(TenThousandError::new(
                "action",
                format!("the game has ended: {}", sheet.reason),
            ));
        }
        let index = self.turns.len();
        let k = self.pending.len();
        let mut next = self.clone();
        match action {
            KeeperAction::Throw { dice } => {
                if self.pending.last().is_some_and(|t| t.keep.is_none()) {
                    return Err(TenThousandError::new(
                        "dice",
                        "choose a keep from the last throw first",
                    ));
                }
                next.pending.push(ThrowData {
                    dice: dice.clone(),
                    keep: None,
                });
                // As a turn ending here: accepted only if the throw is a bust;
                // a throw that scores is refused for want of a keep, which is
                // what comes next.
                let needs_keep = format!("turns[{index}].throws[{k}].keep");
                match game(&next.request(Some(&next.pending))) {
                    Ok(_) => {
                        let throws = std::mem::take(&mut next.pending);
                        next.turns.push(TurnRecordData {
                            player: self.next_player(),
                            throws,
                        });
                    }
                    Err(e) if e.field == needs_keep => {}
                    Err(e) => return Err(relabel(e, "dice")),
                }
            }
            KeeperAction::Keep { dice } => {
                let Some(last) = next.pending.last_mut().filter(|t| t.keep.is_none()) else {
                    return Err(TenThousandError::new("keep", "throw the dice first"));
                };
                last.keep = Some(dice.clone());
                // As a turn stopping here: only a problem with the keep
                // itself refuses it (the player may still throw on).
                let keep_field = format!("turns[{index}].throws[{}].keep", k.saturating_sub(1));
                if let Err(e) = game(&next.request(Some(&next.pending)))
                    && e.field == keep_field
                {
                    return Err(relabel(e, "keep"));
                }
            }
            KeeperAction::Stop => {
                if next.pending.last().is_none_or(|t| t.keep.is_none()) {
                    return Err(TenThousandError::new(
                        "action",
                        "nothing kept to record yet",
                    ));
                }
                let throws = std::mem::take(&mut next.pending);
                next.turns.push(TurnRecordData {
                    player: self.next_player(),
                    throws,
                });
                next.sheet().map_err(|e| relabel(e, "action"))?;
            }
        }
        Ok(next)
    }
}

/// The engine names a path in the whole game; the page names its field.
fn relabel(e: TenThousandError, field: &str) -> TenThousandError {
    TenThousandError::new(field, e.message)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keeper() -> Keeper {
        Keeper::new(
            vec!["Ann".into(), "Bo".into()],
            GameOptionsRecord::default(),
        )
        .unwrap()
    }

    fn throw(dice: &[i64]) -> KeeperAction {
        KeeperAction::Throw {
            dice: dice.to_vec(),
        }
    }

    fn keep(dice: &[i64]) -> KeeperAction {
        KeeperAction::Keep {
            dice: dice.to_vec(),
        }
    }

    fn act(k: &Keeper, a: KeeperAction) -> Result<Keeper, TenThousandError> {
        k.apply(&a)
    }

    #[test]
    fn a_turn_is_thrown_kept_and_recorded() {
        let k = keeper();
        let k = act(&k, throw(&[1, 1, 1, 5, 2, 3])).unwrap();
        let p = k.progress().unwrap();
        assert_eq!(p.player, "Ann");
        assert!(
            p.offered.iter().any(|o| o.points == 1050),
            "{:?}",
            p.offered
        );
        let k = act(&k, keep(&[1, 1, 1, 5])).unwrap();
        assert_eq!(k.progress().unwrap().points, 1050);
        assert_eq!(k.progress().unwrap().dice_left, 2);
        let k = act(&k, KeeperAction::Stop).unwrap();
        let sheet = k.sheet().unwrap();
        assert_eq!(sheet.totals[0].score, 1050);
        assert_eq!(sheet.next_player.as_deref(), Some("Bo"));
    }

    #[test]
    fn a_bust_ends_the_turn_and_bad_actions_are_refused() {
        let k = keeper();
        let k = act(&k, throw(&[2, 3, 4, 6, 6, 2])).unwrap();
        assert!(k.pending.is_empty(), "a bust ends the turn");
        assert_eq!(k.sheet().unwrap().next_player.as_deref(), Some("Bo"));
        // Bo: five dice thrown when six are left.
        let e = act(&k, throw(&[1, 2, 3, 4, 5])).unwrap_err();
        assert_eq!(e.field, "dice");
        assert!(e.message.contains("6 dice are left"), "{e:?}");
        let k = act(&k, throw(&[1, 5, 2, 3, 4, 4])).unwrap();
        // A keep with a non-scoring die, or a die not thrown.
        let e = act(&k, keep(&[1, 2])).unwrap_err();
        assert_eq!(e.field, "keep");
        assert!(act(&k, keep(&[6])).is_err());
        // Throwing again before keeping.
        assert!(act(&k, throw(&[1, 1, 1, 1])).is_err());
        // Recording 150 is below the opening of 1,000.
        let k = act(&k, keep(&[1, 5])).unwrap();
        let e = act(&k, KeeperAction::Stop).unwrap_err();
        assert!(e.message.contains("below the opening"), "{e:?}");
        // But throwing on is fine: four dice left.
        assert!(act(&k, throw(&[2, 2, 2, 3])).is_ok());
    }
}
