//! The poker betting round kept action by action: check, bet, call, raise,
//! fold, all-in, in turn (betting order: `cadaco` from the dealer,
//! `classic` from the dealer's left), each bet or raise at most the game's
//! bet limit. The fold of the actions ends as exactly the round contract's
//! `poker.contributions` and `poker.folded`, which the round engine checks
//! and pays: the engine stays the one source of payouts. Pure.
//!
//! Decisions where the rules are silent: one betting round with no blinds;
//! a bet or raise is 1 up to the limit, and a raise is counted above the
//! bet it faces; a call for more than the caller has left puts in what they
//! have (all-in); an all-in may bet or raise at most the limit too (a stack
//! beyond it bets the limit instead); every bet, raise or raising all-in
//! gives the others a turn again; a player may fold in turn even when they
//! could check. The round is over when one player is left in, or every
//! player still in with chips behind has acted since the last raise and put
//! in as much as the highest bet (a lone player with chips behind and
//! nothing to call does not act).

use serde::{Deserialize, Serialize};

use super::error::{TripoleyError, chips};

/// One action of the betting round. `chips` of a bet is the bet; of a
/// raise, what it adds above the bet it faces.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case", deny_unknown_fields)]
pub enum BetAction {
    Check,
    Bet { chips: u64 },
    Call,
    Raise { chips: u64 },
    Fold,
    AllIn,
}

/// The round contract's `poker.contributions` (name, chips) and `poker.folded`.
pub type Contract = (Vec<(String, u64)>, Vec<String>);

/// What the player to act may do now, for the page's buttons.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Offer {
    Check,
    /// A bet from 1 to `max`.
    Bet {
        max: u64,
    },
    /// A call of `chips`: all-in when that is everything the player has.
    Call {
        chips: u64,
        all_in: bool,
    },
    /// A raise of 1 to `max` above the bet faced (putting in `to_call` more first).
    Raise {
        to_call: u64,
        max: u64,
    },
    Fold,
    /// Everything the player has left.
    AllIn {
        chips: u64,
    },
}

/// The betting round so far: the fold of its actions.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Betting {
    /// Players in the round, in betting order.
    names: Vec<String>,
    /// What each held when the betting began.
    stacks: Vec<u64>,
    limit: u64,
    put_in: Vec<u64>,
    folded: Vec<bool>,
    /// Acted since the last bet or raise.
    acted: Vec<bool>,
    /// The most any player has put in.
    high: u64,
    /// Who acts next (index in `names`); `None` when the round is over.
    next: Option<usize>,
    /// Each action as a sentence.
    said: Vec<String>,
}

impl Betting {
    /// A betting round among `players` (name, chips when the betting
    /// begins) in betting order, with a limit per bet or raise.
    pub fn start(players: &[(String, u64)], limit: u64) -> Betting {
        let n = players.len();
        let mut b = Betting {
            names: players.iter().map(|(p, _)| p.clone()).collect(),
            stacks: players.iter().map(|&(_, c)| c).collect(),
            limit,
            put_in: vec![0; n],
            folded: vec![false; n],
            acted: vec![false; n],
            high: 0,
            next: None,
            said: Vec::new(),
        };
        b.next = b.after(n.saturating_sub(1));
        b
    }

    /// The fold of `actions` (player, action) from the start.
    pub fn replay(
        players: &[(String, u64)],
        limit: u64,
        actions: &[(String, BetAction)],
    ) -> Result<Betting, TripoleyError> {
        actions
            .iter()
            .try_fold(Betting::start(players, limit), |b, (p, a)| b.apply(p, *a))
    }

    fn left(&self, i: usize) -> u64 {
        self.stacks[i] - self.put_in[i]
    }

    fn all_in(&self, i: usize) -> bool {
        !self.folded[i] && self.left(i) == 0
    }

    /// Still in with chips behind: can still act.
    fn active(&self, i: usize) -> bool {
        !self.folded[i] && self.left(i) > 0
    }

    fn must_act(&self, i: usize) -> bool {
        let others_active = (0..self.names.len()).any(|j| j != i && self.active(j));
        self.active(i) && (self.put_in[i] < self.high || (!self.acted[i] && others_active))
    }

    /// Who acts after index `i`, or `None`: the round is over.
    fn after(&self, i: usize) -> Option<usize> {
        let n = self.names.len();
        if self.folded.iter().filter(|&&f| !f).count() <= 1 {
            return None;
        }
        (1..=n).map(|k| (i + k) % n).find(|&j| self.must_act(j))
    }

    pub fn is_over(&self) -> bool {
        self.next.is_none()
    }

    /// The player to act, while the round is not over.
    pub fn to_act(&self) -> Option<&str> {
        self.next.map(|i| self.names[i].as_str())
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The most any player has put in.
    pub fn high(&self) -> u64 {
        self.high
    }

    /// Each action so far as a sentence.
    pub fn said(&self) -> &[String] {
        &self.said
    }

    /// (name, put in, chips left, folded, all-in) per player, betting order.
    pub fn seats(&self) -> Vec<(String, u64, u64, bool, bool)> {
        (0..self.names.len())
            .map(|i| {
                (
                    self.names[i].clone(),
                    self.put_in[i],
                    self.left(i),
                    self.folded[i],
                    self.all_in(i),
                )
            })
            .collect()
    }

    /// What the player to act may do (nothing once the round is over).
    pub fn offers(&self) -> Vec<Offer> {
        let Some(i) = self.next else {
            return Vec::new();
        };
        let (left, to_call) = (self.left(i), self.high - self.put_in[i]);
        let mut offers = Vec::new();
        if to_call == 0 {
            offers.push(Offer::Check);
        }
        if self.high == 0 {
            offers.push(Offer::Bet {
                max: self.limit.min(left),
            });
        } else if to_call > 0 {
            offers.push(Offer::Call {
                chips: to_call.min(left),
                all_in: to_call >= left,
            });
        }
        if self.high > 0 && left > to_call {
            offers.push(Offer::Raise {
                to_call,
                max: self.limit.min(left - to_call),
            });
        }
        offers.push(Offer::Fold);
        if left > to_call && left - to_call <= self.limit {
            offers.push(Offer::AllIn { chips: left });
        }
        offers
    }

    /// The round after `player`'s `action`; refused out of turn, after the
    /// round is over, above the limit or beyond the player's chips.
    pub fn apply(&self, player: &str, action: BetAction) -> Result<Betting, TripoleyError> {
        let i = self.in_turn(player)?;
        let mut b = self.clone();
        let said = match action {
            BetAction::Check => b.check(i)?,
            BetAction::Bet { chips: c } => b.bet(i, c)?,
            BetAction::Call => b.call(i)?,
            BetAction::Raise { chips: c } => b.raise(i, c)?,
            BetAction::Fold => {
                b.folded[i] = true;
                format!("{} folds.", b.names[i])
            }
            BetAction::AllIn => b.go_all_in(i)?,
        };
        b.acted[i] = true;
        b.said.push(said);
        b.next = b.after(i);
        Ok(b)
    }

    /// The index of `player`, whose turn it must be.
    fn in_turn(&self, player: &str) -> Result<usize, TripoleyError> {
        let Some(i) = self.next else {
            return Err(bad(format!(
                "the betting round is over; \"{player}\" cannot act"
            )));
        };
        let name = &self.names[i];
        if !self.names.iter().any(|n| n == player) {
            return Err(TripoleyError::input(
                "player",
                format!("\"{player}\" is not in this betting round"),
            ));
        }
        if player != name {
            return Err(TripoleyError::input(
                "player",
                format!("\"{player}\" acts out of turn: it is \"{name}\"'s turn"),
            ));
        }
        Ok(i)
    }

    /// What player `i` has left, and what they must put in to call.
    fn facing(&self, i: usize) -> (u64, u64) {
        (self.left(i), self.high - self.put_in[i])
    }

    fn check(&self, i: usize) -> Result<String, TripoleyError> {
        let (name, (_, to_call)) = (&self.names[i], self.facing(i));
        if to_call > 0 {
            return Err(bad(format!(
                "check, but \"{name}\" faces a bet of {}: call, raise, fold or go all-in",
                chips(to_call)
            )));
        }
        Ok(format!("{name} checks."))
    }

    fn bet(&mut self, i: usize, c: u64) -> Result<String, TripoleyError> {
        let (name, (left, _)) = (&self.names[i], self.facing(i));
        if self.high > 0 {
            return Err(bad(format!(
                "bet, but there is already a bet of {}: call or raise",
                chips(self.high)
            )));
        }
        if c == 0 {
            return Err(TripoleyError::input(
                "chips",
                "0 is not a bet (check instead)",
            ));
        }
        if c > self.limit {
            return Err(over_limit(self.limit, "bet", c));
        }
        if c > left {
            return Err(TripoleyError::input(
                "chips",
                format!("{c} is more than the {} \"{name}\" has", chips(left)),
            ));
        }
        self.put(i, c);
        let name = &self.names[i];
        Ok(format!(
            "{name} bets {}{}.",
            chips(c),
            all_in_text(c == left)
        ))
    }

    fn call(&mut self, i: usize) -> Result<String, TripoleyError> {
        let (name, (left, to_call)) = (&self.names[i], self.facing(i));
        if to_call == 0 {
            return Err(bad(format!(
                "call, but \"{name}\" faces no bet: check or bet"
            )));
        }
        let c = to_call.min(left);
        self.put(i, c);
        let name = &self.names[i];
        Ok(if c < to_call {
            format!(
                "{name} calls {} with only {}: all-in.",
                chips(to_call),
                chips(c)
            )
        } else {
            format!("{name} calls {}{}.", chips(c), all_in_text(c == left))
        })
    }

    /// A raise of `c` above the bet player `i` faces.
    fn raise(&mut self, i: usize, c: u64) -> Result<String, TripoleyError> {
        let (name, (left, to_call)) = (&self.names[i], self.facing(i));
        if self.high == 0 {
            return Err(bad("raise, but nobody has bet: bet instead".into()));
        }
        if c == 0 {
            return Err(TripoleyError::input(
                "chips",
                "0 is not a raise (call instead)",
            ));
        }
        if c > self.limit {
            return Err(over_limit(self.limit, "raise", c));
        }
        if to_call + c > left {
            return Err(TripoleyError::input(
                "chips",
                format!(
                    "{c}: calling {to_call} and raising {c} needs {}, but \"{name}\" has {} (go all-in instead)",
                    chips(to_call + c),
                    chips(left)
                ),
            ));
        }
        self.put(i, to_call + c);
        Ok(format!(
            "{} raises {} to {}{}.",
            self.names[i],
            chips(c),
            self.put_in[i],
            all_in_text(to_call + c == left)
        ))
    }

    fn go_all_in(&mut self, i: usize) -> Result<String, TripoleyError> {
        let (name, (left, to_call)) = (&self.names[i], self.facing(i));
        let limit = self.limit;
        if left > to_call && left - to_call > limit {
            return Err(bad(format!(
                "all-in, but \"{name}\"'s {} would raise by {}, more than the bet limit of {limit}",
                chips(left),
                left - to_call
            )));
        }
        self.put(i, left);
        Ok(format!(
            "{} goes all-in for {}.",
            self.names[i],
            chips(left)
        ))
    }

    /// `n` more chips from player `i`; a new high bet gives everyone else
    /// a turn again.
    fn put(&mut self, i: usize, n: u64) {
        self.put_in[i] += n;
        if self.put_in[i] > self.high {
            self.high = self.put_in[i];
            for (j, acted) in self.acted.iter_mut().enumerate() {
                *acted = j == i;
            }
        }
    }

    /// The round contract's `poker.contributions` (every player in the
    /// round, betting order) and `poker.folded`, once the round is over.
    pub fn result(&self) -> Result<Contract, TripoleyError> {
        if let Some(i) = self.next {
            return Err(TripoleyError::input(
                "betting",
                format!(
                    "the betting round is not over: it is \"{}\"'s turn",
                    self.names[i]
                ),
            ));
        }
        let contributions = self
            .names
            .iter()
            .cloned()
            .zip(self.put_in.clone())
            .collect();
        let folded = (0..self.names.len())
            .filter(|&i| self.folded[i])
            .map(|i| self.names[i].clone())
            .collect();
        Ok((contributions, folded))
    }
}

fn all_in_text(all_in: bool) -> &'static str {
    if all_in { " (all-in)" } else { "" }
}

/// An action that does not fit the round.
fn bad(message: String) -> TripoleyError {
    TripoleyError::input("action", message)
}

/// A bet or a raise (`what`) of `c`, above the bet `limit`.
fn over_limit(limit: u64, what: &str, c: u64) -> TripoleyError {
    TripoleyError::input(
        "chips",
        format!("{c} is more than the bet limit of {limit} a {what}"),
    )
}
