//! A round, in the rules' order: antes (a player who cannot ante sits out),
//! the deal, the spare hand, the money cards, the poker, the Michigan play.
//! Every chip moves through the ledger; conservation is asserted at the end.

use super::board::{Board, Ledger, Note, Place, Section};
use super::deal::{Deal, check_deal};
use super::error::{TripoleyError, chips};
use super::input::{MichiganInput, PokerInput, Profile, RoundInput};
use super::michigan::{Michigan, play_michigan};
use super::money_cards::pay_money_cards;
use super::output::{Outcome, RoundOutput};
use super::poker::{Poker, betting_order, play_poker};
use super::spare::play_spare;
use super::step::{Step, StepKind};
use super::table::{ANTE_MAX, Table, check_chip_value};
use crate::cards::Card;
use crate::common::money::Money;

/// Plays one round and returns every payout: [`begin_round`] then
/// [`RoundBegun::finish`] with the input's `poker` and `michigan`.
pub fn play_round(input: &RoundInput) -> Result<RoundOutput, TripoleyError> {
    begin_round(input)?.finish(&input.poker, &input.michigan)
}

/// A round played up to the betting: the antes, the deal, the spare hand
/// and the money cards. [`RoundBegun::finish`] plays the rest (the poker and
/// the Michigan play); [`play_round`] is the two in one. Kept apart so a
/// caller can read the stacks the betting starts from (a short stack's
/// all-in) and then finish the same round without playing it twice.
#[derive(Debug, Clone)]
pub struct RoundBegun {
    profile: Profile,
    table: Table,
    chip_value: Option<Money>,
    in_round: Vec<bool>,
    deal: Deal,
    ledger: Ledger,
}

/// The round up to the first bet (the input's `poker` and `michigan` are
/// not read).
pub fn begin_round(input: &RoundInput) -> Result<RoundBegun, TripoleyError> {
    let table = Table::check(&input.players, &input.dealer, &input.chips, &input.board)?;
    let chip_value = check_chip_value(input.chip_value)?;
    let ante = match input.ante {
        None => 1,
        Some(a) => u64::try_from(a)
            .ok()
            .filter(|a| (1..=ANTE_MAX).contains(a))
            .ok_or_else(|| {
                TripoleyError::input(
                    "ante",
                    format!("{a} is not an ante from 1 to {ANTE_MAX} chips"),
                )
            })?,
    };
    let mut ledger = Ledger::new(table.names.clone(), table.chips.clone(), table.board);
    let in_round = ante_up(&table, ante, &mut ledger)?;
    let mut deal = check_deal(&table, &in_round, &input.hands)?;
    play_spare(
        input.profile,
        input.spare.as_ref(),
        &table,
        &in_round,
        &mut deal,
        &mut ledger,
    )?;
    pay_money_cards(&deal, &mut ledger)?;
    Ok(RoundBegun {
        profile: input.profile,
        table,
        chip_value,
        in_round,
        deal,
        ledger,
    })
}

impl RoundBegun {
    /// Every player at the table, seating order: their chips when the
    /// betting begins (after the antes, the spare hand and the money cards).
    pub fn stacks(&self) -> &[u64] {
        &self.ledger.chips
    }

    /// The rest of the round: the poker (checked against [`Self::stacks`])
    /// and the Michigan play; every payout of the whole round.
    pub fn finish(
        self,
        poker: &PokerInput,
        michigan: &MichiganInput,
    ) -> Result<RoundOutput, TripoleyError> {
        let RoundBegun {
            profile,
            table,
            chip_value,
            in_round,
            deal,
            mut ledger,
        } = self;
        let poker = Poker::check(poker, &table, &in_round, &deal, &ledger.chips)?;
        play_poker(&poker, profile, &table, &deal, &mut ledger)?;
        let michigan = Michigan::check(michigan, profile, &table, &in_round, &deal)?;
        play_michigan(&michigan, &table, &in_round, &mut ledger)?;
        ledger.check_conservation("in the round")?;
        let next_dealer = table.names[table.left_of(table.dealer, 1)].clone();
        Ok(RoundOutput {
            outcome: Outcome::from_ledger(ledger, &table.chips, chip_value),
            next_dealer,
        })
    }
}

/// The round's steps through the poker (the input's `michigan` is not
/// read): the showdown's pots, for who won the poker.
pub fn through_poker(input: &RoundInput) -> Result<Vec<Step>, TripoleyError> {
    let mut b = begin_round(input)?;
    let poker = Poker::check(
        &input.poker,
        &b.table,
        &b.in_round,
        &b.deal,
        &b.ledger.chips,
    )?;
    play_poker(&poker, input.profile, &b.table, &b.deal, &mut b.ledger)?;
    Ok(b.ledger.steps)
}

/// What the table looks like when the betting begins: the steps so far
/// (antes, spare hand, money cards), each player's chips (their stack for
/// the betting), the board, and the hands as the round is played with them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BeforeBetting {
    pub steps: Vec<Step>,
    /// Every player at the table, seating order: chips now.
    pub chips: Vec<(String, u64)>,
    pub board: Board,
    /// The players in the round in betting order (`cadaco` from the
    /// dealer, `classic` from the dealer's left).
    pub betting_order: Vec<String>,
    /// The hands of the players in the round, seating order, after the
    /// spare swap/auction.
    pub hands: Vec<(String, Vec<Card>)>,
    /// The dead hand after the spare swap/auction.
    pub spare: Vec<Card>,
}

/// The round up to the first bet (the input's `poker` and `michigan` are
/// not read): what the betting round starts from.
pub fn before_betting(input: &RoundInput) -> Result<BeforeBetting, TripoleyError> {
    let begun = begin_round(input)?;
    let names = &begun.table.names;
    Ok(BeforeBetting {
        chips: names
            .iter()
            .cloned()
            .zip(begun.ledger.chips.clone())
            .collect(),
        board: begun.ledger.board,
        betting_order: betting_order(input.profile, &begun.table)
            .into_iter()
            .filter(|&s| begun.in_round[s])
            .map(|s| names[s].clone())
            .collect(),
        hands: (0..names.len())
            .filter(|&s| begun.in_round[s])
            .map(|s| (names[s].clone(), begun.deal.hand(s).to_vec()))
            .collect(),
        spare: begun.deal.spare.clone(),
        steps: begun.ledger.steps,
    })
}

/// Each player who can puts `ante` on every section, in seating order from
/// the dealer's left; the others sit the round out. Returns who is in.
fn ante_up(table: &Table, ante: u64, ledger: &mut Ledger) -> Result<Vec<bool>, TripoleyError> {
    let n = table.names.len();
    let full = ante * Section::ALL.len() as u64;
    let mut in_round = vec![false; n];
    for seat in (1..=n).map(|i| table.left_of(table.dealer, i)) {
        let name = &table.names[seat];
        let has = ledger.held(Place::Player(seat));
        if has < full {
            ledger.note(
                None,
                Some(name.clone()),
                None,
                Note::new(
                    StepKind::SitsOut,
                    format!(
                        "{name} has {}, less than the ante of {}: {name} sits this round out.",
                        chips(has),
                        chips(full)
                    ),
                ),
            );
            continue;
        }
        in_round[seat] = true;
        ledger.ante(
            seat,
            ante,
            format!(
                "{name} antes {} on each of the 9 sections: {}.",
                chips(ante),
                chips(full)
            ),
        )?;
    }
    let playing = in_round.iter().filter(|&&p| p).count();
    if playing < 2 {
        return Err(TripoleyError::input(
            "chips",
            format!(
                "only {playing} player(s) can ante {} (the ante on each of the 9 sections); a round needs two",
                chips(full)
            ),
        ));
    }
    Ok(in_round)
}
