//! A round kept at the table one step at a time: the ante, the deal, the
//! spare hand (`classic`), the money cards, the betting action by action,
//! the showdown, the Michigan card by card (or entered as its result). The
//! round in progress is the fold of its recorded steps (events, not edits);
//! each step is checked when it is recorded, by the same engine functions
//! (`before_betting`, [`Betting`], `through_poker`, [`MichiganPlay`]), and
//! the last step completes the round contract the game pays out with
//! [`TripoleyGame::apply_round`] — the engine stays the one source of
//! payouts. The table the steps leave (balances and board) is
//! `table_now.rs`. Pure.

use serde::{Deserialize, Serialize};

use super::betting::{BetAction, Betting};
use super::deal::parse_hand;
use super::error::TripoleyError;
use super::game::{RoundEntry, TripoleyGame};
use super::input::CardsText;
use super::input::{Profile, RoundInput};
use super::michigan_play::{MichiganPlay, leader, poker_winners};
use super::output::RoundOutput;
use super::parse;
use super::round::{BeforeBetting, before_betting, through_poker};
use super::step::Step;
use crate::cards::Card;

/// One recorded step of a round.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "step", rename_all = "snake_case", deny_unknown_fields)]
pub enum RoundStep {
    /// The players who can ante do; the others sit the round out.
    Ante,
    /// Each hand as dealt (name, cards), and `"spare"`.
    Deal { hands: Vec<(String, String)> },
    /// `classic`: the dealer's swap, then the auction (buyer, price).
    Spare {
        dealer_swaps: bool,
        auction: Option<(String, i64)>,
    },
    /// The money cards, King-Queen and 8-9-10 are paid.
    MoneyCards,
    /// One action of the betting round.
    Bet { player: String, action: BetAction },
    /// The five cards each player still in shows (absent: the best five).
    Showdown { shown: Vec<(String, String)> },
    /// One card of the Michigan play.
    MichiganCard { player: String, card: String },
    /// The Michigan entered as its result instead of card by card.
    MichiganResult {
        out: Option<String>,
        blocked: bool,
        cards_left: Vec<(String, i64)>,
    },
}

impl RoundStep {
    /// The audit record's event type.
    pub fn event(&self) -> &'static str {
        match self {
            RoundStep::Ante => "tripoley_ante",
            RoundStep::Deal { .. } => "tripoley_deal",
            RoundStep::Spare { .. } => "tripoley_spare",
            RoundStep::MoneyCards => "tripoley_money_cards",
            RoundStep::Bet { .. } => "tripoley_bet",
            RoundStep::Showdown { .. } => "tripoley_showdown",
            RoundStep::MichiganCard { .. } => "tripoley_michigan_card",
            RoundStep::MichiganResult { .. } => "tripoley_michigan_result",
        }
    }

    /// The phase of the round this step belongs to.
    fn phase(&self) -> Phase {
        match self {
            RoundStep::Ante => Phase::Ante,
            RoundStep::Deal { .. } => Phase::Deal,
            RoundStep::Spare { .. } => Phase::Spare,
            RoundStep::MoneyCards => Phase::MoneyCards,
            RoundStep::Bet { .. } => Phase::Betting,
            RoundStep::Showdown { .. } => Phase::Showdown,
            RoundStep::MichiganCard { .. } | RoundStep::MichiganResult { .. } => Phase::Michigan,
        }
    }
}

/// What the round waits for next.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    Ante,
    Deal,
    Spare,
    MoneyCards,
    Betting,
    Showdown,
    Michigan,
    /// Every step is in: the round is paid out.
    Done,
}

impl Phase {
    pub fn label(self) -> &'static str {
        match self {
            Phase::Ante => "the ante",
            Phase::Deal => "the deal",
            Phase::Spare => "the spare hand",
            Phase::MoneyCards => "the money cards",
            Phase::Betting => "the betting",
            Phase::Showdown => "the showdown",
            Phase::Michigan => "the Michigan",
            Phase::Done => "the payouts",
        }
    }
}

/// The round so far: the fold of its steps.
#[derive(Debug, Clone)]
pub struct Progress {
    pub phase: Phase,
    /// The round contract's part the steps have filled in.
    pub entry: RoundEntry,
    /// After the deal (and the spare hand): the table when the betting begins.
    pub before: Option<BeforeBetting>,
    pub betting: Option<Betting>,
    /// After the betting (and the showdown): the steps through the poker.
    pub poker: Vec<Step>,
    pub michigan: Option<MichiganPlay>,
    /// Michigan cards played so far.
    pub cards_played: usize,
}

/// One card, as typed.
fn one_card(field: &str, text: &str) -> Result<Card, TripoleyError> {
    match parse_hand(field, &CardsText::new(text))?.as_slice() {
        [card] => Ok(*card),
        _ => Err(TripoleyError::input(
            field,
            format!("\"{text}\" is not one card"),
        )),
    }
}

fn internal(what: &str) -> TripoleyError {
    TripoleyError::Internal(format!("round in progress: {what} missing"))
}

impl Progress {
    fn new() -> Progress {
        Progress {
            phase: Phase::Ante,
            entry: RoundEntry::default(),
            before: None,
            betting: None,
            poker: Vec::new(),
            michigan: None,
            cards_played: 0,
        }
    }

    /// The fold of `steps` from the start of the round.
    pub fn fold(game: &TripoleyGame, steps: &[RoundStep]) -> Result<Progress, TripoleyError> {
        steps
            .iter()
            .try_fold(Progress::new(), |p, s| p.apply(game, s))
    }

    fn input(game: &TripoleyGame, entry: &RoundEntry) -> Result<RoundInput, TripoleyError> {
        parse(game.round_input(entry).to_string().as_bytes())
    }

    /// The round after one more step; refused when it is not the step the
    /// round waits for, or when the engine refuses what it says.
    pub fn apply(&self, game: &TripoleyGame, step: &RoundStep) -> Result<Progress, TripoleyError> {
        if step.phase() != self.phase {
            return Err(TripoleyError::input(
                "step",
                format!(
                    "\"{}\" is not the next step: the round is at {}",
                    step.event().trim_start_matches("tripoley_"),
                    self.phase.label()
                ),
            ));
        }
        let mut p = self.clone();
        match step {
            RoundStep::Ante => p.ante(game)?,
            RoundStep::Deal { hands } => {
                p.entry.hands = hands.clone();
                p.before = Some(before_betting(&Progress::input(game, &p.entry)?)?);
                p.phase = match game.profile {
                    Profile::Classic => Phase::Spare,
                    Profile::Cadaco => Phase::MoneyCards,
                };
            }
            RoundStep::Spare {
                dealer_swaps,
                auction,
            } => {
                p.entry.dealer_swaps = *dealer_swaps;
                p.entry.auction = auction.clone();
                p.before = Some(before_betting(&Progress::input(game, &p.entry)?)?);
                p.phase = Phase::MoneyCards;
            }
            RoundStep::MoneyCards => p.money_cards(game)?,
            RoundStep::Bet { player, action } => {
                let betting = p.betting.as_ref().ok_or_else(|| internal("the betting"))?;
                p.betting = Some(betting.apply(player, *action)?);
                p.after_bet(game)?;
            }
            RoundStep::Showdown { shown } => {
                p.entry.shown = shown.clone();
                p.start_michigan(game)?;
            }
            RoundStep::MichiganCard { player, card } => p.michigan_card(player, card)?,
            RoundStep::MichiganResult {
                out,
                blocked,
                cards_left,
            } => p.michigan_result(game, out, *blocked, cards_left)?,
        }
        Ok(p)
    }

    /// The ante: at least two players can pay it in full.
    fn ante(&mut self, game: &TripoleyGame) -> Result<(), TripoleyError> {
        let full = game.ante * 9;
        let can = game.chips.iter().filter(|&&c| c >= full).count();
        if can < 2 {
            return Err(TripoleyError::input(
                "chips",
                format!("only {can} player(s) can ante {full} chips; a round needs two"),
            ));
        }
        self.phase = Phase::Deal;
        Ok(())
    }

    /// The money cards paid: the betting starts, in betting order, with
    /// each player's chips after them.
    fn money_cards(&mut self, game: &TripoleyGame) -> Result<(), TripoleyError> {
        let before = self.before.as_ref().ok_or_else(|| internal("the deal"))?;
        let stacks: Vec<(String, u64)> = before
            .betting_order
            .iter()
            .map(|name| {
                let chips = before.chips.iter().find(|c| &c.0 == name);
                (name.clone(), chips.map_or(0, |c| c.1))
            })
            .collect();
        self.betting = Some(Betting::start(&stacks, game.bet_limit));
        self.phase = Phase::Betting;
        self.after_bet(game)
    }

    /// One Michigan card played by `player`; the last one ends the round.
    fn michigan_card(&mut self, player: &str, card: &str) -> Result<(), TripoleyError> {
        let michigan = self
            .michigan
            .as_ref()
            .ok_or_else(|| internal("the Michigan"))?;
        let next = michigan.play(player, one_card("card", card)?)?;
        self.cards_played += 1;
        if next.is_over() {
            let (out, left) = next.result()?;
            self.entry.blocked = out.is_none();
            self.entry.out = out;
            self.entry.cards_left = left.into_iter().map(|(n, c)| (n, c as i64)).collect();
            self.phase = Phase::Done;
        }
        self.michigan = Some(next);
        Ok(())
    }

    /// The Michigan entered as its result, when no card was played one by
    /// one; the engine checks it as it would pay the round out.
    fn michigan_result(
        &mut self,
        game: &TripoleyGame,
        out: &Option<String>,
        blocked: bool,
        cards_left: &[(String, i64)],
    ) -> Result<(), TripoleyError> {
        if self.cards_played > 0 {
            return Err(TripoleyError::input(
                "michigan",
                format!(
                    "{} cards have been played card by card: go on playing them",
                    self.cards_played
                ),
            ));
        }
        self.entry.out = out.clone();
        self.entry.blocked = blocked;
        self.entry.cards_left = cards_left.to_vec();
        // The engine checks the result when the round is paid out.
        game.clone_between_rounds().apply_round(&self.entry)?;
        self.phase = Phase::Done;
        Ok(())
    }

    /// After a betting action (or none): the showdown when two or more are
    /// still in, else straight on to the Michigan.
    fn after_bet(&mut self, game: &TripoleyGame) -> Result<(), TripoleyError> {
        let betting = self
            .betting
            .as_ref()
            .ok_or_else(|| internal("the betting"))?;
        if !betting.is_over() {
            return Ok(());
        }
        let (contributions, folded) = betting.result()?;
        self.entry.contributions = contributions
            .into_iter()
            .map(|(n, c)| (n, c as i64))
            .collect();
        let still_in = self.entry.contributions.len() - folded.len();
        self.entry.folded = folded;
        if still_in >= 2 {
            self.phase = Phase::Showdown;
            return Ok(());
        }
        self.start_michigan(game)
    }

    fn start_michigan(&mut self, game: &TripoleyGame) -> Result<(), TripoleyError> {
        self.poker = through_poker(&Progress::input(game, &self.entry)?)?;
        let before = self.before.as_ref().ok_or_else(|| internal("the deal"))?;
        let in_round: Vec<String> = before.hands.iter().map(|h| h.0.clone()).collect();
        let lead = leader(
            game.profile,
            &game.players,
            game.dealer_name(),
            &in_round,
            &poker_winners(&self.poker),
        )
        .ok_or_else(|| internal("the Michigan leader"))?;
        self.michigan = Some(MichiganPlay::start(
            game.profile,
            &before.hands,
            &before.spare,
            &lead,
        )?);
        self.phase = Phase::Michigan;
        Ok(())
    }
}

impl TripoleyGame {
    /// The round being kept step by step, as the fold of its steps.
    pub fn progress(&self) -> Result<Progress, TripoleyError> {
        Progress::fold(self, &self.current)
    }

    /// This game without the round in progress (the table it started from).
    fn clone_between_rounds(&self) -> TripoleyGame {
        TripoleyGame {
            current: Vec::new(),
            ..self.clone()
        }
    }

    /// Records one step of the round in progress. The step that completes
    /// the round pays it out: the new game and the round's result.
    pub fn apply_step(
        &self,
        step: &RoundStep,
    ) -> Result<(TripoleyGame, Option<RoundOutput>), TripoleyError> {
        self.ready()?;
        let progress = self.progress()?.apply(self, step)?;
        if progress.phase == Phase::Done {
            let (next, out) = self.clone_between_rounds().apply_round(&progress.entry)?;
            return Ok((next, Some(out)));
        }
        let mut next = self.clone();
        next.current.push(step.clone());
        Ok((next, None))
    }
}
