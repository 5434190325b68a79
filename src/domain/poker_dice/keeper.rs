//! Keeping a round of poker dice as it is played: players in order, each
//! throw entered (the dice held and the dice thrown), "stands" to end a
//! player's throws, then the winner or the tie. Every throw is checked by
//! the same engine that checks a recorded round (`round`), so the
//! scorekeeper never accepts what `pitbook poker-dice round` would refuse.

use super::round::NAME_MAX;
use crate::common::text::{FreeText, escaped};
use serde::{Deserialize, Serialize};

use super::api::{FacesText, PokerDiceError};
use super::round::{RoundPlayer, RoundRequest, RoundResponse, RoundThrow, THROWS_MAX, round};
use super::{Profile, Straights};

/// A round being kept.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RoundKeeper {
    pub profile: Profile,
    pub straights: Straights,
    pub first_sets_throws: bool,
    /// In throwing order.
    pub players: Vec<String>,
    /// Each player's throws so far: (held, rolled) as typed.
    pub throws: Vec<Vec<(Option<String>, String)>>,
    /// The player throwing now; `players.len()` once everyone has stood.
    pub current: usize,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum RoundAction {
    Throw {
        #[serde(default, skip_serializing_if = "Option::is_none")]
        held: Option<String>,
        rolled: String,
    },
    /// The current player keeps the last throw.
    Stand,
}

/// A name that no player can have (a keeper refuses it), to check a lone
/// first player through the whole-round engine.
const PLACEHOLDER: &str = "(no player)";

impl RoundKeeper {
    pub fn new(
        players: Vec<String>,
        profile: Profile,
        straights: Straights,
        first_sets_throws: bool,
    ) -> Result<RoundKeeper, PokerDiceError> {
        // Free text (trimmed, NFC, nothing invisible), kept normalised.
        let players = players
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let field = format!("players[{i}]");
                let name = FreeText::line(&field, p, NAME_MAX).map_err(|e| {
                    let message = format!("\"{}\" {}", escaped(&e.value), e.message);
                    PokerDiceError::new(field.clone(), message)
                })?;
                if name.as_str() == PLACEHOLDER {
                    return Err(PokerDiceError::new(
                        field,
                        format!("\"{PLACEHOLDER}\" is reserved; choose another name"),
                    ));
                }
                Ok(name.into_string())
            })
            .collect::<Result<Vec<String>, PokerDiceError>>()?;
        let keeper = RoundKeeper {
            profile,
            straights,
            first_sets_throws,
            throws: vec![Vec::new(); players.len()],
            players,
            current: 0,
        };
        // Names and count checked as a round of single throws would be.
        let mut probe = keeper.request(keeper.players.len());
        for p in &mut probe.players {
            p.throws = vec![RoundThrow {
                held: None,
                rolled: FacesText::new("A A A A A"),
            }];
        }
        if probe.players.len() < 2 {
            return Err(PokerDiceError::new(
                "players",
                format!("{} players; a round has 2 or more", probe.players.len()),
            ));
        }
        round(&probe)?;
        Ok(keeper)
    }

    fn request(&self, upto: usize) -> RoundRequest {
        RoundRequest {
            profile: self.profile,
            straights: self.straights,
            first_sets_throws: self.first_sets_throws,
            players: self
                .players
                .iter()
                .zip(&self.throws)
                .take(upto)
                .map(|(name, throws)| RoundPlayer {
                    name: Some(name.clone()),
                    throws: throws
                        .iter()
                        .map(|(held, rolled)| RoundThrow {
                            held: held.as_deref().map(FacesText::new),
                            rolled: FacesText::new(rolled),
                        })
                        .collect(),
                })
                .collect(),
        }
    }

    pub fn finished(&self) -> bool {
        self.current >= self.players.len()
    }

    /// The winner or the tie, once every player has stood.
    pub fn result(&self) -> Option<Result<RoundResponse, PokerDiceError>> {
        self.finished()
            .then(|| round(&self.request(self.players.len())))
    }

    /// The players who have thrown so far, checked and ranked.
    pub fn so_far(&self) -> Option<RoundResponse> {
        let upto = (self.current + 1).min(self.players.len());
        let mut req = self.request(upto);
        req.players.retain(|p| !p.throws.is_empty());
        if req.players.len() == 1 {
            req.players.push(placeholder());
        }
        let mut response = round(&req).ok()?;
        response.players.retain(|p| p.name != PLACEHOLDER);
        Some(response)
    }

    pub fn apply(&self, action: &RoundAction) -> Result<RoundKeeper, PokerDiceError> {
        if self.finished() {
            return Err(PokerDiceError::new(
                "action",
                "the round is over: every player has stood",
            ));
        }
        let mut next = self.clone();
        let i = self.current;
        match action {
            RoundAction::Stand => {
                if next.throws[i].is_empty() {
                    return Err(PokerDiceError::new(
                        "action",
                        format!("{} has not thrown yet", self.players[i]),
                    ));
                }
                next.current += 1;
            }
            RoundAction::Throw { held, rolled } => {
                let held = held
                    .as_ref()
                    .map(|h| h.trim().to_string())
                    .filter(|h| !h.is_empty());
                next.throws[i].push((held, rolled.trim().to_string()));
                let mut req = next.request(i + 1);
                if req.players.len() == 1 {
                    req.players.push(placeholder());
                }
                round(&req).map_err(|e| {
                    let field = if e.field.ends_with(".held") {
                        "held"
                    } else {
                        "rolled"
                    };
                    PokerDiceError::new(field, e.message)
                })?;
                // A player who used every throw allowed stands by rule.
                let limit = if self.first_sets_throws && i > 0 {
                    self.throws[0].len()
                } else {
                    THROWS_MAX
                };
                if next.throws[i].len() >= limit {
                    next.current += 1;
                }
            }
        }
        Ok(next)
    }
}

fn placeholder() -> RoundPlayer {
    RoundPlayer {
        name: Some(PLACEHOLDER.to_string()),
        throws: vec![RoundThrow {
            held: None,
            rolled: FacesText::new("A A A A A"),
        }],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A Caribeña round of Ana and Beto, no straights.
    fn ana_and_beto(first_sets_throws: bool) -> RoundKeeper {
        RoundKeeper::new(
            vec!["Ana".into(), "Beto".into()],
            Profile::Caribena,
            Straights::None,
            first_sets_throws,
        )
        .unwrap()
    }

    fn throw(held: Option<&str>, rolled: &str) -> RoundAction {
        RoundAction::Throw {
            held: held.map(str::to_string),
            rolled: rolled.into(),
        }
    }

    #[test]
    fn a_round_is_kept_to_its_winner() {
        let k = ana_and_beto(false);
        let k = k.apply(&throw(None, "A A K Q J")).unwrap();
        let k = k.apply(&throw(Some("A A"), "A K K")).unwrap();
        assert_eq!(
            k.so_far().unwrap().players[0].hand.name_es,
            "Full de ases y reyes"
        );
        let k = k.apply(&RoundAction::Stand).unwrap();
        let k = k.apply(&throw(None, "Q Q Q J N")).unwrap();
        let k = k.apply(&RoundAction::Stand).unwrap();
        let result = k.result().unwrap().unwrap();
        assert_eq!(result.winner_names, vec!["Ana".to_string()]);
    }

    #[test]
    fn bad_throws_are_refused_and_the_third_throw_ends_the_turn() {
        let k = ana_and_beto(true);
        assert_eq!(k.apply(&throw(None, "A A K")).unwrap_err().field, "rolled");
        assert_eq!(
            k.apply(&throw(None, "A A K Q X")).unwrap_err().field,
            "rolled"
        );
        assert_eq!(
            k.apply(&throw(Some("A"), "A A K Q")).unwrap_err().field,
            "held"
        );
        assert!(
            k.apply(&RoundAction::Stand).is_err(),
            "stand before a throw"
        );
        let k = k.apply(&throw(None, "A A K Q J")).unwrap();
        assert_eq!(
            k.apply(&throw(Some("N"), "A K Q J")).unwrap_err().field,
            "held"
        );
        let k = k.apply(&throw(Some("A A"), "K Q J")).unwrap();
        // first_sets_throws: Beto may throw only twice, then stands by rule.
        let k = k.apply(&RoundAction::Stand).unwrap();
        let k = k.apply(&throw(None, "K K Q J N")).unwrap();
        let k = k.apply(&throw(Some("K K"), "K Q J")).unwrap();
        assert!(k.finished(), "the second throw was Beto's last");
        assert!(
            k.apply(&throw(None, "A A A A A")).is_err(),
            "a fourth throw"
        );
        assert!(
            RoundKeeper::new(
                vec!["Ana".into()],
                Profile::Caribena,
                Straights::None,
                false
            )
            .is_err()
        );
    }
}
