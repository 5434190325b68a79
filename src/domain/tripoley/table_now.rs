//! The table as the recorded steps of the round in progress leave it: each
//! player's chips and each section's, moved by the steps the engine made
//! of what is recorded (the antes once collected, the spare's price once
//! sold, the money cards once paid, each bet as it is made, the Pot once
//! shown down); what the round still pays moves at its end. The balances
//! and the board a page shows are the two halves of this one fold, so they
//! add up to the game's total after every step. Pure.

use super::betting::Betting;
use super::board::Section;
use super::game::TripoleyGame;
use super::round_steps::{Phase, Progress};
use super::step::{Step, StepKind};

/// Each player's chips (seating order) and each section's (board order,
/// [`Section::ALL`]), as the steps recorded so far leave them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableNow {
    pub chips: Vec<u64>,
    pub board: Vec<u64>,
}

/// Where `section` is in the board order.
fn index(section: Section) -> usize {
    Section::ALL
        .iter()
        .position(|&s| s == section)
        .unwrap_or_default()
}

impl Progress {
    /// The table after the last recorded step of the round in progress
    /// (the game's own before the first and after the payouts).
    pub fn now(&self, game: &TripoleyGame) -> TableNow {
        let mut now = TableNow {
            chips: game.chips.clone(),
            board: game.board.clone(),
        };
        match (self.phase, &self.before, &self.betting) {
            // The antes are collected; no card is known yet.
            (Phase::Deal, _, _) => now.antes(game),
            (Phase::Spare | Phase::MoneyCards, Some(before), _) => {
                let done = |s: &&Step| matches!(s.kind, StepKind::Ante | StepKind::SpareAuction);
                now.moves(&game.players, before.steps.iter().filter(done));
            }
            (Phase::Betting | Phase::Showdown, Some(before), Some(betting)) => {
                now.moves(&game.players, before.steps.iter());
                now.bets(game, betting);
            }
            (Phase::Michigan, _, _) => now.moves(&game.players, self.poker.iter()),
            _ => {}
        }
        now
    }
}

impl TableNow {
    /// Every player who can pays the ante onto each section.
    fn antes(&mut self, game: &TripoleyGame) {
        let full = game.ante * Section::ALL.len() as u64;
        for chips in self.chips.iter_mut().filter(|c| **c >= full) {
            *chips -= full;
            for section in self.board.iter_mut() {
                *section += game.ante;
            }
        }
    }

    /// Each step's chips moved from one end to the other: a player by name,
    /// `"board"` the step's section (an ante reaches all nine; a section
    /// moved to the Pot names its source).
    pub(super) fn moves<'a>(&mut self, players: &[String], steps: impl Iterator<Item = &'a Step>) {
        let seat = |end: &Option<String>| players.iter().position(|p| Some(p) == end.as_ref());
        let board = |end: &Option<String>| end.as_deref() == Some("board");
        for step in steps {
            let n = step.chips;
            match (seat(&step.from), step.section) {
                (Some(i), _) => self.chips[i] = self.chips[i].saturating_sub(n),
                (None, Some(s)) if board(&step.from) => {
                    self.board[index(s)] = self.board[index(s)].saturating_sub(n);
                }
                _ => {}
            }
            // A move between two sections names its source: it reaches the Pot.
            let reached = if board(&step.from) {
                Some(Section::Pot)
            } else {
                step.section
            };
            match (seat(&step.to), reached) {
                (Some(i), _) => self.chips[i] += n,
                (None, Some(s)) if board(&step.to) => self.board[index(s)] += n,
                (None, None) if board(&step.to) => {
                    let each = n / Section::ALL.len() as u64;
                    self.board.iter_mut().for_each(|c| *c += each);
                }
                _ => {}
            }
        }
    }

    /// What each player has put in so far, on the Pot.
    fn bets(&mut self, game: &TripoleyGame, betting: &Betting) {
        for (name, put_in, ..) in betting.seats() {
            if let Some(i) = game.players.iter().position(|p| *p == name) {
                self.chips[i] = self.chips[i].saturating_sub(put_in);
                self.board[index(Section::Pot)] += put_in;
            }
        }
    }
}
