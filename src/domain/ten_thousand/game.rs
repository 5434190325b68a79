//! A recorded game of 10,000 validated and scored to a score sheet.
//!
//! Players are listed in turn order (the first is whoever threw the highest
//! total). Each turn is a list of throws; each throw has its dice and the
//! keep chosen from them. A throw after a keep means the player threw the
//! other dice again (or all of them after hot dice); a turn whose last throw
//! has a keep stops there and records its total; a turn whose last throw
//! has no keep must end on a bust. Every rule is checked: the dice count,
//! the keep (in the throw, every die scoring), hot dice, the thresholds,
//! the turn order and the catch-up ending. The first error stops the game.

use crate::common::text::{FreeText, escaped};
use serde::{Deserialize, Serialize};

use super::api::{GameOptions, Rules, TenThousandError};

mod turn;

pub use turn::TurnState;
use turn::play_turn;

/// Players in a game (the rules: up to four).
pub const PLAYERS_MAX: usize = 4;
/// Turns in one recorded game.
pub const TURNS_MAX: usize = 2_000;
/// Throws in one turn.
pub const THROWS_PER_TURN_MAX: usize = 60;
/// Longest player name, in characters.
pub const NAME_MAX: usize = 40;

/// `POST /api/v1/ten-thousand/game`, `pitbook ten-thousand game FILE`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TenThousandGameRequest)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    #[serde(default)]
    pub options: GameOptions,
    /// In turn order.
    pub players: Vec<String>,
    pub turns: Vec<TurnRecord>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TenThousandTurnRecord)]
#[serde(deny_unknown_fields)]
pub struct TurnRecord {
    pub player: String,
    pub throws: Vec<ThrowRecord>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = TenThousandThrowRecord)]
#[serde(deny_unknown_fields)]
pub struct ThrowRecord {
    pub dice: Vec<i64>,
    /// The dice set aside; absent only on a bust.
    #[serde(default)]
    pub keep: Option<Vec<i64>>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandThrow)]
pub struct ThrowView {
    pub dice: Vec<u8>,
    pub keep: Option<Vec<u8>>,
    /// The keep's points (0 on a bust).
    pub points: u32,
    /// The keep completed a straight with single 1s/5s kept before.
    pub straight_across: bool,
    /// Every die has now scored: the next throw is of all the dice.
    pub hot_dice: bool,
    pub bust: bool,
    /// The turn's points so far, after this throw.
    pub turn_points: u32,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandTurnResult)]
#[serde(rename_all = "snake_case")]
pub enum TurnResult {
    Recorded,
    Bust,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandTurn)]
pub struct TurnView {
    /// 1-based.
    pub turn: usize,
    pub player: String,
    pub throws: Vec<ThrowView>,
    pub result: TurnResult,
    /// Points recorded (0 on a bust).
    pub points: u32,
    /// Points lost to a bust.
    pub lost: u32,
    /// Every player's score after this turn, in player order.
    pub scores: Vec<u32>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandTotal)]
pub struct PlayerTotal {
    pub player: String,
    pub score: u32,
}

/// The score sheet: every turn, the totals, and the winner once the game
/// is over.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = TenThousandScoreSheet)]
pub struct ScoreSheet {
    pub rules: Rules,
    pub players: Vec<String>,
    pub turns: Vec<TurnView>,
    pub totals: Vec<PlayerTotal>,
    pub finished: bool,
    pub winner: Option<String>,
    /// Whose turn is next, while the game is not over.
    pub next_player: Option<String>,
    pub reason: String,
}

fn show(dice: &[u8]) -> String {
    dice.iter().map(u8::to_string).collect::<Vec<_>>().join(",")
}

pub use crate::common::text::thousands;

fn check_players(players: &[String]) -> Result<Vec<String>, TenThousandError> {
    let n = players.len();
    if !(2..=PLAYERS_MAX).contains(&n) {
        return Err(TenThousandError::new(
            "players",
            format!("{n} players; the game has 2 to {PLAYERS_MAX}"),
        ));
    }
    let mut out: Vec<String> = Vec::with_capacity(n);
    for (i, typed) in players.iter().enumerate() {
        let field = format!("players[{i}]");
        // Free text: trimmed, NFC, nothing invisible; kept normalised, so
        // "Jose\u{301}" and "José" are one player.
        let name = FreeText::line(&field, typed, NAME_MAX)
            .map_err(|e| {
                let message = format!("\"{}\" {}", escaped(&e.value), e.message);
                TenThousandError::new(field.clone(), message)
            })?
            .into_string();
        if out.contains(&name) {
            return Err(TenThousandError::new(
                field,
                format!("\"{}\" is already a player", escaped(typed)),
            ));
        }
        out.push(name);
    }
    Ok(out)
}

/// Validates and scores a recorded game.
pub fn game(req: &GameRequest) -> Result<ScoreSheet, TenThousandError> {
    let rules = req.options.resolve()?;
    let players = check_players(&req.players)?;
    if req.turns.len() > TURNS_MAX {
        return Err(TenThousandError::new(
            "turns",
            format!("{} turns; a game has at most {TURNS_MAX}", req.turns.len()),
        ));
    }
    let mut board = Board::new(players.len());
    let mut turns = Vec::with_capacity(req.turns.len());
    for (t, turn) in req.turns.iter().enumerate() {
        turns.push(board.play(&rules, &players, t, turn)?);
    }
    let totals = players
        .iter()
        .zip(&board.scores)
        .map(|(player, &score)| PlayerTotal {
            player: player.clone(),
            score,
        })
        .collect();
    let (winner, next_player, reason) = board.ending(&rules, &players);
    Ok(ScoreSheet {
        rules,
        players,
        turns,
        totals,
        finished: board.finished,
        winner,
        next_player,
        reason,
    })
}

/// The game as its turns leave it: each player's score and whether they
/// are on the board, whose turn is next, who holds the high score at or
/// past the target, and whether the others have had their turn to catch
/// up.
struct Board {
    scores: Vec<u32>,
    on_board: Vec<bool>,
    next: usize,
    /// Whoever last reached the target or equalled/passed the high score.
    holder: Option<usize>,
    finished: bool,
}

impl Board {
    fn new(players: usize) -> Board {
        Board {
            scores: vec![0; players],
            on_board: vec![false; players],
            next: 0,
            holder: None,
            finished: false,
        }
    }

    /// Plays turn `t` (0-based): by the player in turn, while the game is
    /// not over; the scores, the holder and the next player follow it.
    fn play(
        &mut self,
        rules: &Rules,
        players: &[String],
        t: usize,
        turn: &TurnRecord,
    ) -> Result<TurnView, TenThousandError> {
        let field = format!("turns[{t}]");
        if self.finished {
            let h = self.holder.unwrap_or(0);
            return Err(TenThousandError::new(
                field,
                format!(
                    "a turn after the game ended: {} won with {}",
                    players[h],
                    thousands(self.scores[h])
                ),
            ));
        }
        let expected = &players[self.next];
        if turn.player.trim() != expected {
            return Err(TenThousandError::new(
                format!("{field}.player"),
                format!(
                    "{:?} is not the player in turn: {expected} throws now",
                    turn.player
                ),
            ));
        }
        let p = self.next;
        let (throws, result, lost) = play_turn(rules, turn, &field, self.on_board[p])?;
        let points = match result {
            TurnResult::Recorded => throws.last().map_or(0, |v| v.turn_points),
            TurnResult::Bust => 0,
        };
        self.score(rules, p, points);
        Ok(TurnView {
            turn: t + 1,
            player: players[p].clone(),
            throws,
            result,
            points,
            lost,
            scores: self.scores.clone(),
        })
    }

    /// Player `p` records `points`: the holder and the next player follow.
    fn score(&mut self, rules: &Rules, p: usize, points: u32) {
        let scores = &mut self.scores;
        if points > 0 {
            scores[p] = scores[p].saturating_add(points);
            self.on_board[p] = true;
        }
        self.holder = match self.holder {
            None if scores[p] >= rules.target => Some(p),
            Some(h) if h != p && scores[p] >= scores[h] => Some(p),
            other => other,
        };
        self.next = (p + 1) % scores.len();
        self.finished = self.holder == Some(self.next);
    }

    /// The winner, whose turn is next, and why: the game's end, or where
    /// it stands while it is not over.
    fn ending(
        &self,
        rules: &Rules,
        players: &[String],
    ) -> (Option<String>, Option<String>, String) {
        let scores = &self.scores;
        if self.finished {
            let h = self.holder.unwrap_or(0);
            let reason = format!(
                "{} wins with {}: every other player had a turn and no one equalled or passed it",
                players[h],
                thousands(scores[h])
            );
            return (Some(players[h].clone()), None, reason);
        }
        let reason = match self.holder {
            Some(h) => format!(
                "not over: {} holds {}; the others have a turn to catch up",
                players[h],
                thousands(scores[h])
            ),
            None => {
                let lead = scores.iter().copied().max().unwrap_or(0);
                let leaders: Vec<&str> = (0..scores.len())
                    .filter(|&i| scores[i] == lead)
                    .map(|i| players[i].as_str())
                    .collect();
                format!(
                    "not over: no one has reached {} yet ({} {} with {})",
                    thousands(rules.target),
                    leaders.join(" and "),
                    if leaders.len() > 1 { "lead" } else { "leads" },
                    thousands(lead)
                )
            }
        };
        (None, Some(players[self.next].clone()), reason)
    }
}
