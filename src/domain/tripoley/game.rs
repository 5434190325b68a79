//! A Tripoley game kept at the table: the fold of its recorded rounds (and
//! of the steps of the round in progress, `round_steps.rs`). The
//! game holds what does not change (players in seating order, profile, chip
//! value, ante, bet limit) and what the rounds change (each player's chips,
//! the board, the dealer, who moves one to the left each round). A round is
//! entered as its results (the deal, the spare hand, the poker, the
//! Michigan); the game supplies the rest of the round contract and plays it
//! with [`play_round`]; the end of the game is [`play_final`]. Each round is
//! kept as the contract input it was played from (replayable with
//! `pitbook tripoley round`) and its result. Players + board is constant
//! across the game: a change stops the action as an error. Pure.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::board::Section;
use super::error::TripoleyError;
use super::final_hand::play_final;
use super::input::{BoardInput, NameMap};
use super::input::{FinalInput, Profile, RoundInput};
use super::output::{Outcome, RoundOutput};
use super::round::play_round;
use super::round_steps::RoundStep;
use super::table::{ANTE_MAX, CHIPS_MAX, Table, check_chip_value};
use super::{parse, to_json};
use crate::common::money::Money;

/// The options a game starts with.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameSetup {
    pub profile: Profile,
    /// Seating order, clockwise; the first named deals the first round.
    pub players: Vec<String>,
    pub chips_each: i64,
    pub chip_value: Money,
    pub ante: i64,
    /// The most a bet or raise may be in the poker round, enforced when the
    /// betting is kept action by action (`betting.rs`); a whole round
    /// entered as its results gives only the totals put in.
    pub bet_limit: i64,
}

/// A round as entered at the table: the part of the round contract the game
/// does not know. Names key every map; `hands` includes `"spare"`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundEntry {
    pub hands: Vec<(String, String)>,
    pub dealer_swaps: bool,
    /// The spare hand's buyer and price.
    pub auction: Option<(String, i64)>,
    pub contributions: Vec<(String, i64)>,
    pub folded: Vec<String>,
    pub shown: Vec<(String, String)>,
    /// Who went out first; `None` with `blocked`.
    pub out: Option<String>,
    pub blocked: bool,
    pub cards_left: Vec<(String, i64)>,
}

/// A played round: its dealer, the round contract input as played and its
/// result (steps, chips, board, net, next dealer) as JSON.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayedRound {
    pub number: usize,
    pub dealer: String,
    pub input: Value,
    pub result: Value,
}

/// The game. Canonical JSON of this is the stored projection.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TripoleyGame {
    pub profile: Profile,
    pub players: Vec<String>,
    pub chip_value: Money,
    pub ante: u64,
    pub bet_limit: u64,
    /// Each player's chips now, in seating order.
    pub chips: Vec<u64>,
    /// Chips on each section now, in board order ([`Section::ALL`]).
    pub board: Vec<u64>,
    /// The seat of who deals the next round.
    pub dealer: usize,
    /// Players' chips plus the board's: constant across the game.
    pub total: u64,
    pub rounds: Vec<PlayedRound>,
    /// The end of the game: the final contract input and its result.
    pub last_hand: Option<PlayedRound>,
    /// The round being kept step by step: its recorded steps so far (its
    /// state is their fold, `round_steps.rs`); empty between rounds.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub current: Vec<RoundStep>,
}

fn int_field(field: &str, value: i64, min: i64, max: u64) -> Result<u64, TripoleyError> {
    u64::try_from(value)
        .ok()
        .filter(|&v| v >= min as u64 && v <= max)
        .ok_or_else(|| TripoleyError::input(field, format!("{value} is not from {min} to {max}")))
}

fn name_map<T: Serialize>(pairs: &[(String, T)]) -> Value {
    Value::Object(
        pairs
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect::<Map<_, _>>(),
    )
}

impl RoundEntry {
    /// The entry a recorded round contract input was built from (the
    /// inverse of [`TripoleyGame::round_input`]); `None` when `input` is
    /// not shaped like one.
    pub fn from_input(input: &Value) -> Option<RoundEntry> {
        let strings = |v: &Value| -> Option<Vec<(String, String)>> {
            v.as_object()?
                .iter()
                .map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect()
        };
        let ints = |v: &Value| -> Option<Vec<(String, i64)>> {
            v.as_object()?
                .iter()
                .map(|(k, v)| Some((k.clone(), v.as_i64()?)))
                .collect()
        };
        let spare = &input["spare"];
        let auction = &spare["auction"];
        let poker = &input["poker"];
        let michigan = &input["michigan"];
        Some(RoundEntry {
            hands: strings(&input["hands"])?,
            dealer_swaps: spare["dealer_swaps"].as_bool().unwrap_or(false),
            auction: match auction {
                Value::Null => None,
                a => Some((a["buyer"].as_str()?.to_string(), a["price"].as_i64()?)),
            },
            contributions: ints(&poker["contributions"])?,
            folded: poker["folded"]
                .as_array()?
                .iter()
                .map(|v| v.as_str().map(str::to_string))
                .collect::<Option<_>>()?,
            shown: strings(&poker["shown"])?,
            out: michigan["out"].as_str().map(str::to_string),
            blocked: michigan["blocked"].as_bool().unwrap_or(false),
            cards_left: ints(&michigan["cards_left"])?,
        })
    }
}

impl TripoleyGame {
    /// A new game: every player with `chips_each`, an empty board, the
    /// first player dealing.
    pub fn start(setup: &GameSetup) -> Result<TripoleyGame, TripoleyError> {
        let chips = int_field("chips", setup.chips_each, 1, CHIPS_MAX)?;
        let first = setup.players.first().cloned().unwrap_or_default();
        let stacks = NameMap(
            setup
                .players
                .iter()
                .map(|p| (p.clone(), chips as i64))
                .collect(),
        );
        let players = Table::check(&setup.players, &first, &stacks, &BoardInput::default())?.names;
        let chip_value = check_chip_value(Some(setup.chip_value))?.unwrap_or_default();
        let ante = int_field("ante", setup.ante, 1, ANTE_MAX)?;
        let bet_limit = int_field("bet_limit", setup.bet_limit, 1, CHIPS_MAX)?;
        let n = players.len() as u64;
        Ok(TripoleyGame {
            profile: setup.profile,
            chips: vec![chips; players.len()],
            players,
            chip_value,
            ante,
            bet_limit,
            board: vec![0; Section::ALL.len()],
            dealer: 0,
            total: chips * n,
            rounds: Vec::new(),
            last_hand: None,
            current: Vec::new(),
        })
    }

    pub fn finished(&self) -> bool {
        self.last_hand.is_some()
    }

    pub fn dealer_name(&self) -> &str {
        self.players.get(self.dealer).map_or("", String::as_str)
    }

    pub fn section(&self, s: Section) -> u64 {
        self.board
            .get(Section::ALL.iter().position(|&t| t == s).unwrap_or(0))
            .copied()
            .unwrap_or(0)
    }

    /// Each player's chips now, by name.
    pub fn chips_of(&self, name: &str) -> Option<u64> {
        let seat = self.players.iter().position(|p| p == name)?;
        self.chips.get(seat).copied()
    }

    fn table_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        m.insert("players".into(), json!(self.players));
        m.insert("dealer".into(), json!(self.dealer_name()));
        m.insert(
            "chips".into(),
            Value::Object(
                self.players
                    .iter()
                    .cloned()
                    .zip(self.chips.iter().map(|&c| json!(c)))
                    .collect(),
            ),
        );
        m.insert(
            "board".into(),
            Value::Object(
                Section::ALL
                    .iter()
                    .map(|s| s.key().to_string())
                    .zip(self.board.iter().map(|&c| json!(c)))
                    .collect(),
            ),
        );
        m.insert("chip_value".into(), json!(self.chip_value));
        m
    }

    /// The round contract input (docs/tripoley.md) for `entry` at this
    /// table: the game's players, dealer, chips, board, profile and ante.
    pub fn round_input(&self, entry: &RoundEntry) -> Value {
        let mut m = self.table_json();
        m.insert("profile".into(), json!(self.profile));
        m.insert("ante".into(), json!(self.ante));
        m.insert("hands".into(), name_map(&entry.hands));
        if entry.dealer_swaps || entry.auction.is_some() {
            let mut spare = Map::new();
            spare.insert("dealer_swaps".into(), json!(entry.dealer_swaps));
            if let Some((buyer, price)) = &entry.auction {
                spare.insert("auction".into(), json!({"buyer": buyer, "price": price}));
            }
            m.insert("spare".into(), Value::Object(spare));
        }
        m.insert(
            "poker".into(),
            json!({
                "contributions": name_map(&entry.contributions),
                "folded": entry.folded,
                "shown": name_map(&entry.shown),
            }),
        );
        let mut michigan = Map::new();
        if let Some(out) = &entry.out {
            michigan.insert("out".into(), json!(out));
        }
        if entry.blocked {
            michigan.insert("blocked".into(), json!(true));
        }
        michigan.insert("cards_left".into(), name_map(&entry.cards_left));
        m.insert("michigan".into(), Value::Object(michigan));
        Value::Object(m)
    }

    pub(super) fn ready(&self) -> Result<(), TripoleyError> {
        if self.finished() {
            return Err(TripoleyError::input("game", "the game has ended"));
        }
        Ok(())
    }

    /// A whole round or the last hand may not start while a round is being
    /// kept step by step.
    fn between_rounds(&self) -> Result<(), TripoleyError> {
        self.ready()?;
        if !self.current.is_empty() {
            return Err(TripoleyError::input(
                "round",
                format!(
                    "round {} is being kept step by step ({} steps recorded): finish it first",
                    self.rounds.len() + 1,
                    self.current.len()
                ),
            ));
        }
        Ok(())
    }

    /// Plays one round entered at the table; the new game and the round.
    pub fn apply_round(
        &self,
        entry: &RoundEntry,
    ) -> Result<(TripoleyGame, RoundOutput), TripoleyError> {
        self.between_rounds()?;
        let input = self.round_input(entry);
        let parsed: RoundInput = parse(input.to_string().as_bytes())?;
        let out = play_round(&parsed)?;
        let mut next = self.with_outcome(&out.outcome, "in the round")?;
        next.dealer = self
            .players
            .iter()
            .position(|p| *p == out.next_dealer)
            .ok_or_else(|| TripoleyError::Internal("the next dealer is not at the table".into()))?;
        next.rounds.push(self.played(input, &out)?);
        Ok((next, out))
    }

    /// The next round as played: its number, dealer, input and result.
    fn played(&self, input: Value, out: &impl Serialize) -> Result<PlayedRound, TripoleyError> {
        Ok(PlayedRound {
            number: self.rounds.len() + 1,
            dealer: self.dealer_name().to_string(),
            input,
            result: serde_json::from_str(&to_json(out, false)?)
                .map_err(|e| TripoleyError::Internal(e.to_string()))?,
        })
    }

    /// The end of the game: each player's last five cards (name, cards).
    pub fn finish(
        &self,
        hands: &[(String, String)],
    ) -> Result<(TripoleyGame, Outcome), TripoleyError> {
        self.between_rounds()?;
        let mut m = self.table_json();
        m.insert("hands".into(), name_map(hands));
        let input = Value::Object(m);
        let parsed: FinalInput = parse(input.to_string().as_bytes())?;
        let out = play_final(&parsed)?;
        let mut next = self.with_outcome(&out, "at the end of the game")?;
        next.last_hand = Some(self.played(input, &out)?);
        Ok((next, out))
    }

    /// The game with the outcome's chips and board, conservation checked
    /// against the game's total.
    fn with_outcome(&self, out: &Outcome, during: &str) -> Result<TripoleyGame, TripoleyError> {
        let chips: Vec<u64> = self
            .players
            .iter()
            .map(|p| {
                out.chips
                    .get(p)
                    .copied()
                    .ok_or_else(|| TripoleyError::Internal(format!("no chips for {p}")))
            })
            .collect::<Result<_, _>>()?;
        let board: Vec<u64> = Section::ALL.iter().map(|&s| out.board.get(s)).collect();
        let after = chips.iter().sum::<u64>() + board.iter().sum::<u64>();
        if after != self.total {
            return Err(TripoleyError::Conservation {
                during: during.to_string(),
                before: self.total,
                after,
            });
        }
        Ok(TripoleyGame {
            chips,
            board,
            ..self.clone()
        })
    }

    /// The same game rebuilt from its start by replaying every recorded
    /// round: the stored projection must equal it.
    pub fn replayed(&self, setup_chips: i64) -> Result<TripoleyGame, TripoleyError> {
        let mut game = TripoleyGame::start(&GameSetup {
            profile: self.profile,
            players: self.players.clone(),
            chips_each: setup_chips,
            chip_value: self.chip_value,
            ante: self.ante as i64,
            bet_limit: self.bet_limit as i64,
        })?;
        for round in &self.rounds {
            let parsed: RoundInput = parse(round.input.to_string().as_bytes())?;
            let out = play_round(&parsed)?;
            let mut next = game.with_outcome(&out.outcome, "in the round")?;
            next.dealer = (game.dealer + 1) % game.players.len();
            next.rounds.push(round.clone());
            game = next;
        }
        if let Some(last) = &self.last_hand {
            let parsed: FinalInput = parse(last.input.to_string().as_bytes())?;
            let out = play_final(&parsed)?;
            game = game.with_outcome(&out, "at the end of the game")?;
            game.last_hand = Some(last.clone());
        }
        for step in &self.current {
            game = game.apply_step(step)?.0;
        }
        Ok(game)
    }
}

#[cfg(test)]
#[path = "game_tests.rs"]
mod tests;
