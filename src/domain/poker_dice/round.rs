//! A round of poker dice: players in order, each up to three throws; after
//! a throw the player holds any dice (they must be in that throw) and throws
//! the rest. With `first_sets_throws`, no later player may use more throws
//! than the first. The best final hand wins, or the best hands tie.

use crate::common::text::{FreeText, escaped};
use serde::{Deserialize, Serialize};

use super::api::{Decision, FacesText, HANDS_MAX, HandView, Outcome, PokerDiceError, decide};
use super::{DICE, Face, Profile, Straights, evaluate, parse_faces};

/// Throws a player may take.
pub const THROWS_MAX: usize = 3;
/// Longest player name, in characters.
pub const NAME_MAX: usize = 40;

/// `POST /api/v1/poker-dice/round`, `pitbook poker-dice round FILE`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = PokerDiceRoundRequest)]
#[serde(deny_unknown_fields)]
pub struct RoundRequest {
    #[serde(default)]
    pub profile: Profile,
    #[serde(default)]
    pub straights: Straights,
    #[serde(default)]
    pub first_sets_throws: bool,
    /// In throwing order (the first decided by lot at the table).
    pub players: Vec<RoundPlayer>,
}

#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = PokerDiceRoundPlayer)]
#[serde(deny_unknown_fields)]
pub struct RoundPlayer {
    /// Default `Player N`.
    #[serde(default)]
    pub name: Option<String>,
    pub throws: Vec<RoundThrow>,
}

/// One throw: the dice held from the previous throw (none on the first) and
/// the dice that came up; together they are the five dice.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize, utoipa::ToSchema)]
#[schema(as = PokerDiceRoundThrow)]
#[serde(deny_unknown_fields)]
pub struct RoundThrow {
    #[serde(default)]
    pub held: Option<FacesText>,
    pub rolled: FacesText,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceThrow)]
pub struct ThrowView {
    pub held: Vec<&'static str>,
    pub rolled: Vec<&'static str>,
    pub dice: Vec<&'static str>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDicePlayer)]
pub struct PlayerView {
    pub name: String,
    pub throws: Vec<ThrowView>,
    pub hand: HandView,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = PokerDiceRoundResponse)]
pub struct RoundResponse {
    pub players: Vec<PlayerView>,
    #[serde(flatten)]
    pub decision: Decision,
    /// The winner's name, or the tied players' names.
    pub winner_names: Vec<String>,
    pub profile: Profile,
    pub straights: Straights,
    pub first_sets_throws: bool,
}

fn symbols(faces: &[Face], p: Profile) -> Vec<&'static str> {
    faces.iter().map(|f| f.symbol(p)).collect()
}

fn show(faces: &[Face], p: Profile) -> String {
    symbols(faces, p).join(" ")
}

/// Removes `held` from `from` (a multiset); the first held face not there.
fn take_held(from: &[Face], held: &[Face]) -> Result<(), Face> {
    let mut left = from.to_vec();
    for h in held {
        match left.iter().position(|f| f == h) {
            Some(i) => {
                left.swap_remove(i);
            }
            None => return Err(*h),
        }
    }
    Ok(())
}

fn player_name(p: &RoundPlayer, i: usize) -> Result<String, PokerDiceError> {
    let field = format!("players[{i}].name");
    match &p.name {
        None => Ok(format!("Player {}", i + 1)),
        // Free text: trimmed, NFC, nothing invisible; kept normalised.
        Some(n) => FreeText::line(&field, n, NAME_MAX)
            .map(FreeText::into_string)
            .map_err(|e| {
                let message = format!("\"{}\" {}", escaped(&e.value), e.message);
                PokerDiceError::new(field.clone(), message)
            }),
    }
}

/// Plays a recorded round: validates every throw, names the winner or tie.
pub fn round(req: &RoundRequest) -> Result<RoundResponse, PokerDiceError> {
    let p = req.profile;
    let n = req.players.len();
    if !(2..=HANDS_MAX).contains(&n) {
        return Err(PokerDiceError::new(
            "players",
            format!("{n} players; a round has 2 to {HANDS_MAX}"),
        ));
    }
    let mut views = Vec::with_capacity(n);
    let mut ranks = Vec::with_capacity(n);
    let mut names: Vec<String> = Vec::with_capacity(n);
    let mut first_throws = THROWS_MAX;
    for (i, player) in req.players.iter().enumerate() {
        let name = player_name(player, i)?;
        if names.contains(&name) {
            return Err(PokerDiceError::new(
                format!("players[{i}].name"),
                format!("{name:?} is already a player"),
            ));
        }
        let limit = if req.first_sets_throws && i > 0 {
            first_throws
        } else {
            THROWS_MAX
        };
        check_throw_count(i, &name, player.throws.len(), limit)?;
        if i == 0 {
            first_throws = player.throws.len();
        }
        let (five, throws) = play_throws(player, i, p)?;
        let r = evaluate(&five, req.straights);
        views.push(PlayerView {
            name: name.clone(),
            throws,
            hand: HandView::new(&five, &r, p),
        });
        names.push(name);
        ranks.push(r);
    }
    let (decision, winner_names) = named_decision(decide(&ranks, p), &names);
    Ok(RoundResponse {
        players: views,
        decision,
        winner_names,
        profile: p,
        straights: req.straights,
        first_sets_throws: req.first_sets_throws,
    })
}

/// Player `i` (`name`) throws at least once and at most `limit` times.
fn check_throw_count(
    i: usize,
    name: &str,
    count: usize,
    limit: usize,
) -> Result<(), PokerDiceError> {
    if count == 0 {
        return Err(PokerDiceError::new(
            format!("players[{i}].throws"),
            format!("{name} has no throw; each player throws at least once"),
        ));
    }
    if count > limit {
        let why = if limit < THROWS_MAX {
            format!("the first player used {limit} and first_sets_throws is on")
        } else {
            format!("each player has at most {THROWS_MAX}")
        };
        return Err(PokerDiceError::new(
            format!("players[{i}].throws[{limit}]"),
            format!("{name}'s throw {} is one too many: {why}", limit + 1),
        ));
    }
    Ok(())
}

/// Player `i`'s throws, each checked against the one before: the five
/// dice they end on, and each throw as shown.
fn play_throws(
    player: &RoundPlayer,
    i: usize,
    p: Profile,
) -> Result<([Face; DICE], Vec<ThrowView>), PokerDiceError> {
    let mut dice: Vec<Face> = Vec::new();
    let mut throws = Vec::with_capacity(player.throws.len());
    for (t, throw) in player.throws.iter().enumerate() {
        let field = format!("players[{i}].throws[{t}]");
        let (next, view) = next_throw(&dice, throw, t, &field, p)?;
        dice = next;
        throws.push(view);
    }
    let five = <[Face; DICE]>::try_from(dice.as_slice())
        .map_err(|_| PokerDiceError::new(format!("players[{i}].throws"), "not five dice"))?;
    Ok((five, throws))
}

/// Throw `t` after the `previous` dice: what it holds (from those dice,
/// nothing on the first throw) and what came up make five dice. The dice
/// it leaves, and the throw as shown.
fn next_throw(
    previous: &[Face],
    throw: &RoundThrow,
    t: usize,
    field: &str,
    p: Profile,
) -> Result<(Vec<Face>, ThrowView), PokerDiceError> {
    let held = match &throw.held {
        None => Vec::new(),
        Some(h) => {
            parse_faces(&h.0, p).map_err(|m| PokerDiceError::new(format!("{field}.held"), m))?
        }
    };
    let rolled = parse_faces(&throw.rolled.0, p)
        .map_err(|m| PokerDiceError::new(format!("{field}.rolled"), m))?;
    if t == 0 && !held.is_empty() {
        return Err(PokerDiceError::new(
            format!("{field}.held"),
            format!(
                "{} held on the first throw; nothing can be held before it",
                show(&held, p)
            ),
        ));
    }
    if let Err(missing) = take_held(previous, &held) {
        return Err(PokerDiceError::new(
            format!("{field}.held"),
            format!(
                "held {:?} is not in the previous throw ({})",
                missing.symbol(p),
                show(previous, p)
            ),
        ));
    }
    check_five(&held, &rolled, field, p)?;
    let dice: Vec<Face> = held.iter().chain(&rolled).copied().collect();
    let view = ThrowView {
        held: symbols(&held, p),
        rolled: symbols(&rolled, p),
        dice: symbols(&dice, p),
    };
    Ok((dice, view))
}

/// Some dice thrown, and with those held, five.
fn check_five(
    held: &[Face],
    rolled: &[Face],
    field: &str,
    p: Profile,
) -> Result<(), PokerDiceError> {
    if rolled.is_empty() {
        return Err(PokerDiceError::new(
            format!("{field}.rolled"),
            "no dice thrown; holding all five is stopping: leave this throw out",
        ));
    }
    if held.len() + rolled.len() != DICE {
        return Err(PokerDiceError::new(
            format!("{field}.rolled"),
            format!(
                "{} held and {} thrown ({}) make {} dice, not {DICE}",
                held.len(),
                rolled.len(),
                show(rolled, p),
                held.len() + rolled.len()
            ),
        ));
    }
    Ok(())
}

/// The decision's reasons in the players' names ("Ann and Bo tie: …"),
/// and the names of its winners.
fn named_decision(mut decision: Decision, names: &[String]) -> (Decision, Vec<String>) {
    let winner_names: Vec<String> = decision
        .winners
        .iter()
        .filter_map(|&w| names.get(w).cloned())
        .collect();
    let who = winner_names.join(" and ");
    let verb = match decision.outcome {
        Outcome::Winner => "wins",
        Outcome::Tie => "tie",
    };
    for reason in [&mut decision.reason, &mut decision.reason_en] {
        let rest = reason.strip_prefix("Tie: ").unwrap_or(reason).to_string();
        *reason = format!("{who} {verb}: {rest}");
    }
    (decision, winner_names)
}
