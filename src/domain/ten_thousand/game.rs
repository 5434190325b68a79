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

use super::api::{GameOptions, Rules, TenThousandError, check_dice};
use super::{Across, Counts, counts, dead_faces, dice_of, keep_points, keeps};

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

/// A turn in progress: accumulated points, dice left to throw, what was
/// kept (for the straight across throws).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TurnState {
    pub points: u32,
    pub dice_left: u8,
    /// Every die kept this turn.
    pub kept: Counts,
    /// Whether every keep so far was single 1s and/or 5s.
    pub singles_only: bool,
    /// The last keep used every die: the next throw is of all of them.
    pub hot_dice: bool,
}

impl TurnState {
    pub fn new(rules: &Rules) -> TurnState {
        TurnState {
            points: 0,
            dice_left: rules.dice,
            kept: [0; 7],
            singles_only: true,
            hot_dice: false,
        }
    }

    /// The straight across throws, when it applies.
    pub fn across(&self) -> Option<Across> {
        (self.singles_only && self.kept.iter().any(|&n| n > 0))
            .then_some(Across { kept: self.kept })
    }

    /// Applies a keep already checked legal, worth `points`.
    pub fn keep(&mut self, rules: &Rules, keep: &Counts, points: u32, across_used: bool) {
        let n: u8 = keep.iter().sum();
        let singles =
            !across_used && (1..=6).all(|f| keep[f] == 0 || ((f == 1 || f == 5) && keep[f] < 3));
        self.singles_only &= singles;
        for (kept, &k) in self.kept.iter_mut().zip(keep) {
            *kept = kept.saturating_add(k);
        }
        self.points = self.points.saturating_add(points);
        self.dice_left = self.dice_left.saturating_sub(n);
        self.hot_dice = self.dice_left == 0;
        if self.hot_dice {
            self.dice_left = rules.dice;
        }
    }
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

/// Plays one turn's throws; returns the throws and the turn's points
/// (`Ok(None)` points: a bust, with the points lost).
fn play_turn(
    rules: &Rules,
    turn: &TurnRecord,
    field: &str,
    on_board: bool,
) -> Result<(Vec<ThrowView>, TurnResult, u32), TenThousandError> {
    let n = turn.throws.len();
    if n == 0 || n > THROWS_PER_TURN_MAX {
        return Err(TenThousandError::new(
            format!("{field}.throws"),
            format!("{n} throws; a turn has 1 to {THROWS_PER_TURN_MAX}"),
        ));
    }
    let mut state = TurnState::new(rules);
    let mut views = Vec::with_capacity(n);
    for (k, throw) in turn.throws.iter().enumerate() {
        let tf = format!("{field}.throws[{k}]");
        let last = k + 1 == n;
        let dice = check_dice(&throw.dice, &format!("{tf}.dice"), rules.dice)?;
        if dice.len() != usize::from(state.dice_left) {
            return Err(TenThousandError::new(
                format!("{tf}.dice"),
                format!(
                    "{} dice ({}); {} dice are left to throw",
                    dice.len(),
                    show(&dice),
                    state.dice_left
                ),
            ));
        }
        let throw_counts = counts(&dice);
        let across = state.across();
        let offered = keeps(&throw_counts, across.as_ref());
        let Some(keep) = &throw.keep else {
            if let Some(best) = offered.last() {
                return Err(TenThousandError::new(
                    format!("{tf}.keep"),
                    format!(
                        "the throw {} scores (up to {}): a keep of at least one scoring die is needed",
                        show(&dice),
                        best.points
                    ),
                ));
            }
            if !last {
                return Err(TenThousandError::new(
                    format!("{field}.throws[{}]", k + 1),
                    format!("a throw after the bust {}: the turn ended", show(&dice)),
                ));
            }
            let lost = state.points;
            views.push(ThrowView {
                dice,
                keep: None,
                points: 0,
                straight_across: false,
                hot_dice: false,
                bust: true,
                turn_points: 0,
            });
            return Ok((views, TurnResult::Bust, lost));
        };
        let kf = format!("{tf}.keep");
        if offered.is_empty() {
            return Err(TenThousandError::new(
                kf,
                format!("the throw {} is a bust: nothing can be kept", show(&dice)),
            ));
        }
        if keep.is_empty() {
            return Err(TenThousandError::new(
                kf,
                "an empty keep; keep at least one scoring die",
            ));
        }
        let keep = check_dice(keep, &kf, rules.dice)?;
        let keep_counts = counts(&keep);
        if (1..=6).any(|f| keep_counts[f] > throw_counts[f]) {
            return Err(TenThousandError::new(
                kf,
                format!("{} is not in the throw {}", show(&keep), show(&dice)),
            ));
        }
        let Some((points, across_used)) = keep_points(&keep_counts, across.as_ref()) else {
            let dead = dead_faces(&keep_counts, across.as_ref());
            let why = if dead.is_empty() {
                "not every die scores".to_string()
            } else {
                format!("{} does not score", show(&dead))
            };
            return Err(TenThousandError::new(
                kf,
                format!("the keep {}: {why}", show(&keep)),
            ));
        };
        state.keep(rules, &keep_counts, points, across_used);
        views.push(ThrowView {
            dice,
            keep: Some(dice_of(&keep_counts)),
            points,
            straight_across: across_used,
            hot_dice: state.hot_dice,
            bust: false,
            turn_points: state.points,
        });
        if last {
            if state.hot_dice && rules.hot_dice_must_roll {
                return Err(TenThousandError::new(
                    tf,
                    format!(
                        "stops on hot dice with {}; hot_dice_must_roll is on: all the dice must be thrown again",
                        thousands(state.points)
                    ),
                ));
            }
            if !on_board && state.points < rules.opening {
                return Err(TenThousandError::new(
                    tf,
                    format!(
                        "stops to record {}, below the opening {} needed to get on the board",
                        thousands(state.points),
                        thousands(rules.opening)
                    ),
                ));
            }
            if state.points < rules.min_record {
                return Err(TenThousandError::new(
                    tf,
                    format!(
                        "stops to record {}, below min_record {}",
                        thousands(state.points),
                        thousands(rules.min_record)
                    ),
                ));
            }
        }
    }
    Ok((views, TurnResult::Recorded, 0))
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
    let np = players.len();
    let mut scores = vec![0u32; np];
    let mut on_board = vec![false; np];
    let mut next = 0usize;
    // Whoever last reached the target or equalled/passed the high score.
    let mut holder: Option<usize> = None;
    let mut finished = false;
    let mut turns = Vec::with_capacity(req.turns.len());
    for (t, turn) in req.turns.iter().enumerate() {
        let field = format!("turns[{t}]");
        if finished {
            let h = holder.unwrap_or(0);
            return Err(TenThousandError::new(
                field,
                format!(
                    "a turn after the game ended: {} won with {}",
                    players[h],
                    thousands(scores[h])
                ),
            ));
        }
        let expected = &players[next];
        if turn.player.trim() != expected {
            return Err(TenThousandError::new(
                format!("{field}.player"),
                format!(
                    "{:?} is not the player in turn: {expected} throws now",
                    turn.player
                ),
            ));
        }
        let p = next;
        let (throws, result, lost) = play_turn(&rules, turn, &field, on_board[p])?;
        let points = match result {
            TurnResult::Recorded => throws.last().map_or(0, |v| v.turn_points),
            TurnResult::Bust => 0,
        };
        if points > 0 {
            scores[p] = scores[p].saturating_add(points);
            on_board[p] = true;
        }
        holder = match holder {
            None if scores[p] >= rules.target => Some(p),
            Some(h) if h != p && scores[p] >= scores[h] => Some(p),
            other => other,
        };
        next = (p + 1) % np;
        finished = holder == Some(next);
        turns.push(TurnView {
            turn: t + 1,
            player: players[p].clone(),
            throws,
            result,
            points,
            lost,
            scores: scores.clone(),
        });
    }
    let totals = players
        .iter()
        .zip(&scores)
        .map(|(player, &score)| PlayerTotal {
            player: player.clone(),
            score,
        })
        .collect();
    let (winner, next_player, reason) = if finished {
        let h = holder.unwrap_or(0);
        (
            Some(players[h].clone()),
            None,
            format!(
                "{} wins with {}: every other player had a turn and no one equalled or passed it",
                players[h],
                thousands(scores[h])
            ),
        )
    } else {
        let reason = match holder {
            Some(h) => format!(
                "not over: {} holds {}; the others have a turn to catch up",
                players[h],
                thousands(scores[h])
            ),
            None => {
                let lead = scores.iter().copied().max().unwrap_or(0);
                let leaders: Vec<&str> = (0..np)
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
        (None, Some(players[next].clone()), reason)
    };
    Ok(ScoreSheet {
        rules,
        players,
        turns,
        totals,
        finished,
        winner,
        next_player,
        reason,
    })
}
