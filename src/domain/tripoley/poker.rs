//! The poker round as its result: what each player put in, who folded, the
//! five cards each player still in showed. Checked against the stacks when
//! the betting began (after the antes, the spare auction and the money-card
//! payouts): a player still in put in as much as the most any player still
//! in put in, or everything they had (all-in). The bets go onto the Pot
//! section; then the last player in takes it all, or the showdown pays the
//! main pot and the side pots (`showdown.rs`).

use crate::cards::Card;

use super::board::{Ledger, Note, Place, Section};
use super::deal::{Deal, parse_hand};
use super::error::{TripoleyError, chips};
use super::input::{PokerInput, Profile};
use super::showdown::{self, PokerHand};
use super::step::StepKind;
use super::table::{CHIPS_MAX, Table, chip_count, round_seat};

/// The checked poker round.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Poker {
    /// Chips each seat put in (0 for players sitting out).
    pub contributions: Vec<u64>,
    /// In the round and not folded.
    pub still_in: Vec<bool>,
    /// The five cards shown, by seat, when given.
    pub shown: Vec<Option<[Card; 5]>>,
    /// Whether each seat put in everything it had.
    pub all_in: Vec<bool>,
}

/// A pot of the showdown: chips from the bets between two levels and the
/// players still in who put in at least the upper level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PotLayer {
    pub amount: u64,
    pub eligible: Vec<usize>,
}

impl Poker {
    pub fn check(
        input: &PokerInput,
        table: &Table,
        in_round: &[bool],
        deal: &Deal,
        stacks: &[u64],
    ) -> Result<Poker, TripoleyError> {
        let n = table.names.len();
        let mut contributions = vec![0u64; n];
        for (name, &value) in input.contributions.iter() {
            let field = format!("poker.contributions.{name}");
            let seat = round_seat(table, in_round, &field, name)?;
            let c = chip_count(&field, value, CHIPS_MAX)?;
            if c > stacks[seat] {
                return Err(TripoleyError::input(
                    field,
                    format!(
                        "{c} is more than the {} \"{name}\" had when the betting began",
                        chips(stacks[seat])
                    ),
                ));
            }
            contributions[seat] = c;
        }
        let mut still_in = in_round.to_vec();
        for (i, name) in input.folded.iter().enumerate() {
            let field = format!("poker.folded[{i}]");
            let seat = round_seat(table, in_round, &field, name)?;
            if input.folded[..i].contains(name) {
                return Err(TripoleyError::input(
                    field,
                    format!("\"{name}\" is listed twice"),
                ));
            }
            still_in[seat] = false;
        }
        if !still_in.contains(&true) {
            return Err(TripoleyError::input(
                "poker.folded",
                "every player in the round folded; the last player in wins the pot and does not fold",
            ));
        }
        let max_in = (0..n)
            .filter(|&s| still_in[s])
            .map(|s| contributions[s])
            .max()
            .unwrap_or(0);
        for seat in 0..n {
            let (c, name) = (contributions[seat], &table.names[seat]);
            let field = || format!("poker.contributions.{name}");
            if still_in[seat] && c != max_in && c != stacks[seat] {
                return Err(TripoleyError::input(
                    field(),
                    format!(
                        "{c} is neither the {max_in} the most any player still in put in nor all-in (\"{name}\" had {})",
                        chips(stacks[seat])
                    ),
                ));
            }
            if in_round[seat] && !still_in[seat] && c > max_in {
                return Err(TripoleyError::input(
                    field(),
                    format!(
                        "{c} from a player who folded is more than any player still in put in ({max_in})"
                    ),
                ));
            }
        }
        let shown = check_shown(input, table, in_round, &still_in, deal)?;
        let all_in = (0..n)
            .map(|s| in_round[s] && contributions[s] == stacks[s])
            .collect();
        Ok(Poker {
            contributions,
            still_in,
            shown,
            all_in,
        })
    }

    /// The seat of the only player still in, when all the others folded.
    pub fn last_one_in(&self) -> Option<usize> {
        let mut seats = (0..self.still_in.len()).filter(|&s| self.still_in[s]);
        match (seats.next(), seats.next()) {
            (Some(s), None) => Some(s),
            _ => None,
        }
    }
}

fn check_shown(
    input: &PokerInput,
    table: &Table,
    in_round: &[bool],
    still_in: &[bool],
    deal: &Deal,
) -> Result<Vec<Option<[Card; 5]>>, TripoleyError> {
    let mut shown = vec![None; table.names.len()];
    let showdown = still_in.iter().filter(|&&s| s).count() > 1;
    for (name, text) in input.shown.iter() {
        let field = format!("poker.shown.{name}");
        let seat = round_seat(table, in_round, &field, name)?;
        if !still_in[seat] {
            return Err(TripoleyError::input(
                field,
                format!("\"{name}\" folded and shows nothing"),
            ));
        }
        if !showdown {
            return Err(TripoleyError::input(
                field,
                "there is no showdown: every other player folded",
            ));
        }
        let cards = parse_hand(&field, text)?;
        let five: [Card; 5] = cards.as_slice().try_into().map_err(|_| {
            TripoleyError::input(
                &field,
                format!("{} cards shown; a poker hand is exactly 5", cards.len()),
            )
        })?;
        if let Some(card) = five.iter().find(|c| !deal.hand(seat).contains(c)) {
            return Err(TripoleyError::input(
                field,
                format!("{card} is not in \"{name}\"'s hand"),
            ));
        }
        shown[seat] = Some(five);
    }
    Ok(shown)
}

/// The pots of a showdown, main pot first: one per distinct amount put in
/// by the players still in. Folded players' chips fill the layers up to what
/// they put in; the board's Pot section is added to the main pot by the caller.
pub fn pot_layers(contributions: &[u64], still_in: &[bool]) -> Vec<PotLayer> {
    let mut levels: Vec<u64> = (0..contributions.len())
        .filter(|&s| still_in[s])
        .map(|s| contributions[s])
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut prev = 0;
    let mut layers = Vec::with_capacity(levels.len());
    for level in levels {
        let amount = contributions
            .iter()
            .map(|&c| c.min(level) - c.min(prev))
            .sum();
        let eligible = (0..contributions.len())
            .filter(|&s| still_in[s] && contributions[s] >= level)
            .collect();
        layers.push(PotLayer { amount, eligible });
        prev = level;
    }
    layers
}

/// Seats in betting order: `cadaco` the dealer opens, `classic` the dealer's left.
pub fn betting_order(profile: Profile, table: &Table) -> Vec<usize> {
    let first = match profile {
        Profile::Cadaco => table.dealer,
        Profile::Classic => table.left_of(table.dealer, 1),
    };
    (0..table.names.len())
        .map(|i| table.left_of(first, i))
        .collect()
}

pub fn play_poker(
    poker: &Poker,
    profile: Profile,
    table: &Table,
    deal: &Deal,
    ledger: &mut Ledger,
) -> Result<(), TripoleyError> {
    let section_before = ledger.board.get(Section::Pot);
    let order = betting_order(profile, table);
    for &seat in &order {
        let c = poker.contributions[seat];
        if c == 0 {
            continue;
        }
        let name = &table.names[seat];
        let how = match (poker.all_in[seat], poker.still_in[seat]) {
            (true, _) => " (all-in)",
            (false, false) => " (then folds)",
            _ => "",
        };
        ledger.transfer(
            Place::Player(seat),
            Place::Section(Section::Pot),
            c,
            Note::new(
                StepKind::Bet,
                format!("{name} puts {} on the Pot in bets{how}.", chips(c)),
            ),
        )?;
    }
    if let Some(winner) = poker.last_one_in() {
        let name = &table.names[winner];
        return ledger.take_whole(Section::Pot, winner, StepKind::Pot, |on| {
            format!(
                "Everyone else folded: {name} takes the Pot, {} ({} on the section and {} in bets), without showing.",
                chips(on),
                section_before,
                on - section_before
            )
        });
    }
    let hands: Vec<Option<PokerHand>> = (0..table.names.len())
        .map(|s| {
            poker.still_in[s]
                .then(|| PokerHand::of(poker.shown[s], deal.hand(s)))
                .flatten()
        })
        .collect();
    let layers = pot_layers(&poker.contributions, &poker.still_in);
    showdown::pay_pots(&layers, section_before, &hands, &order, ledger)
}
