//! The Michigan play guided card by card, from the hands as the round is
//! played with them (after the spare). The leader plays the lowest card
//! they hold of a suit of their choice; the holder of the next card up in
//! that suit plays it, and so on, until the ace is played or the next card
//! is missing (in the dead hand or already played): the last card played is
//! a stop card. Its player leads again with the lowest card of a different
//! suit; if they hold only that suit, the lead passes left. The first
//! player to play every card goes out. The fold of the cards played ends as
//! exactly the round contract's `michigan` (`out` and `cards_left`, or
//! `blocked`). Pure.
//!
//! Decisions where the rules are silent: the lead passes left to the next
//! player (clockwise) who holds a card of a suit other than the stop card's
//! and who leads the lowest card of such a suit. When nobody holds one,
//! `classic` play is blocked; under `cadaco` (which never blocks) the next
//! player to the left with cards leads the lowest card of the stop card's
//! suit. The `classic` leader is the winner of the main pot (or the last
//! player in); of tied winners, the one nearest the dealer's left.

use crate::cards::{Card, Rank, Suit};

use super::error::TripoleyError;
use super::input::Profile;
use super::step::{Step, StepKind};

/// The round contract's `michigan`: who went out (`None`: blocked) and
/// each other player's cards left.
pub type MichiganResult = (Option<String>, Vec<(String, u64)>);

/// Whose turn it is, and what they may play.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Turn {
    /// `player` leads: one of `cards` (the lowest of each suit they may lead).
    Lead { player: String, cards: Vec<Card> },
    /// `player` holds the next card up and plays it.
    Follow { player: String, card: Card },
    /// `player` played every card first.
    Out { player: String },
    /// Nobody can lead (`classic` only).
    Blocked,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum State {
    Lead { seat: usize, avoid: Option<Suit> },
    Follow { seat: usize, card: Card },
    Out(usize),
    Blocked,
}

/// The Michigan play so far: the fold of the cards played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MichiganPlay {
    profile: Profile,
    /// The players in the round, seating order.
    names: Vec<String>,
    /// Each player's cards still in hand.
    hands: Vec<Vec<Card>>,
    /// The dead hand.
    spare: Vec<Card>,
    state: State,
    said: Vec<String>,
}

/// Who leads the Michigan: `cadaco` the dealer (or, sitting out, the next
/// player in the round to the left); `classic` the poker winner — of tied
/// winners, the one nearest the dealer's left. `seating` is every player at
/// the table, `in_round` those in the round.
pub fn leader(
    profile: Profile,
    seating: &[String],
    dealer: &str,
    in_round: &[String],
    poker_winners: &[String],
) -> Option<String> {
    let d = seating.iter().position(|p| p == dealer)?;
    let n = seating.len();
    let from = match profile {
        Profile::Cadaco => 0,
        Profile::Classic => 1,
    };
    let wanted: &[String] = match profile {
        Profile::Cadaco => in_round,
        Profile::Classic => poker_winners,
    };
    (from..from + n)
        .map(|k| &seating[(d + k) % n])
        .find(|p| wanted.contains(p))
        .cloned()
}

/// The winners of the poker round's main pot (or the last player in),
/// from the round's steps.
pub fn poker_winners(steps: &[Step]) -> Vec<String> {
    steps
        .iter()
        .filter(|s| s.kind == StepKind::Pot && s.pot.unwrap_or(0) == 0)
        .filter_map(|s| s.to.clone())
        .collect()
}

fn next_up(card: Card) -> Option<Card> {
    let (rank, suit) = (card.rank()?, card.suit()?);
    Some(Card::new(Rank::from_index(rank.index() + 1)?, suit))
}

impl MichiganPlay {
    /// The play from the hands (name, cards; seating order) and the dead
    /// hand, `leader` leading.
    pub fn start(
        profile: Profile,
        hands: &[(String, Vec<Card>)],
        spare: &[Card],
        leader: &str,
    ) -> Result<MichiganPlay, TripoleyError> {
        let names: Vec<String> = hands.iter().map(|(n, _)| n.clone()).collect();
        let seat = names.iter().position(|n| n == leader).ok_or_else(|| {
            TripoleyError::input("leader", format!("\"{leader}\" is not in the round"))
        })?;
        let mut hands: Vec<Vec<Card>> = hands.iter().map(|(_, h)| h.clone()).collect();
        for h in &mut hands {
            h.sort_unstable();
        }
        Ok(MichiganPlay {
            profile,
            names,
            hands,
            spare: spare.to_vec(),
            state: State::Lead { seat, avoid: None },
            said: Vec::new(),
        })
    }

    /// The fold of `cards` (player, card) from the start.
    pub fn replay(
        profile: Profile,
        hands: &[(String, Vec<Card>)],
        spare: &[Card],
        leader: &str,
        cards: &[(String, Card)],
    ) -> Result<MichiganPlay, TripoleyError> {
        cards.iter().try_fold(
            MichiganPlay::start(profile, hands, spare, leader)?,
            |m, (p, c)| m.play(p, *c),
        )
    }

    /// The lowest card of each suit `seat` holds, but `avoid`.
    fn leads(&self, seat: usize, avoid: Option<Suit>) -> Vec<Card> {
        let mut cards: Vec<Card> = Suit::ALL
            .iter()
            .filter(|&&s| Some(s) != avoid)
            .filter_map(|&s| {
                self.hands[seat]
                    .iter()
                    .filter(|c| c.suit() == Some(s))
                    .min()
                    .copied()
            })
            .collect();
        cards.sort_unstable();
        cards
    }

    fn holder(&self, card: Card) -> Option<usize> {
        self.hands.iter().position(|h| h.contains(&card))
    }

    pub fn turn(&self) -> Turn {
        match &self.state {
            State::Lead { seat, avoid } => Turn::Lead {
                player: self.names[*seat].clone(),
                cards: self.leads(*seat, *avoid),
            },
            State::Follow { seat, card } => Turn::Follow {
                player: self.names[*seat].clone(),
                card: *card,
            },
            State::Out(seat) => Turn::Out {
                player: self.names[*seat].clone(),
            },
            State::Blocked => Turn::Blocked,
        }
    }

    pub fn is_over(&self) -> bool {
        matches!(self.state, State::Out(_) | State::Blocked)
    }

    /// Each card played, and each stop, as a sentence.
    pub fn said(&self) -> &[String] {
        &self.said
    }

    /// (name, cards still held) per player, seating order.
    pub fn hands(&self) -> Vec<(String, Vec<Card>)> {
        self.names.iter().cloned().zip(self.hands.clone()).collect()
    }

    /// `player` plays `card`; refused out of turn, for a card that is not
    /// the one to play, and once the play is over.
    pub fn play(&self, player: &str, card: Card) -> Result<MichiganPlay, TripoleyError> {
        let seat = self.names.iter().position(|n| n == player).ok_or_else(|| {
            TripoleyError::input("player", format!("\"{player}\" is not in the round"))
        })?;
        let (to_play, led) = match &self.state {
            State::Out(_) | State::Blocked => {
                return Err(TripoleyError::input(
                    "card",
                    format!("{card}: the Michigan play is over"),
                ));
            }
            State::Follow { seat: s, card: c } => {
                if *s != seat {
                    return Err(TripoleyError::input(
                        "player",
                        format!(
                            "\"{player}\" plays out of turn: \"{}\" holds the {c} and plays next",
                            self.names[*s]
                        ),
                    ));
                }
                if *c != card {
                    return Err(TripoleyError::input(
                        "card",
                        format!("{card} is not the next card: \"{player}\" plays the {c}"),
                    ));
                }
                (seat, false)
            }
            State::Lead { seat: s, avoid } => {
                if *s != seat {
                    return Err(TripoleyError::input(
                        "player",
                        format!(
                            "\"{player}\" plays out of turn: \"{}\" leads",
                            self.names[*s]
                        ),
                    ));
                }
                let leads = self.leads(seat, *avoid);
                if !leads.contains(&card) {
                    let list: Vec<String> = leads.iter().map(Card::to_string).collect();
                    return Err(TripoleyError::input(
                        "card",
                        format!(
                            "{card} is not a lead: \"{player}\" leads the lowest card of a suit{} ({})",
                            avoid.map_or(String::new(), |s| format!(
                                " other than the stop card's ({})",
                                s.char()
                            )),
                            list.join(", ")
                        ),
                    ));
                }
                (seat, true)
            }
        };
        let mut m = self.clone();
        m.hands[to_play].retain(|&c| c != card);
        let verb = if led { "leads" } else { "plays" };
        m.said.push(format!("{player} {verb} the {card}."));
        if m.hands[to_play].is_empty() {
            m.said
                .push(format!("{player} has played every card and goes out."));
            m.state = State::Out(to_play);
            return Ok(m);
        }
        let next = next_up(card);
        match next.and_then(|c| m.holder(c).map(|h| (c, h))) {
            Some((c, h)) => m.state = State::Follow { seat: h, card: c },
            None => {
                let why = match next {
                    None => "an ace".to_string(),
                    Some(c) if m.spare.contains(&c) => format!("the {c} is in the dead hand"),
                    Some(c) => format!("the {c} has been played"),
                };
                m.said.push(format!("The {card} is a stop card ({why})."));
                m.stop(to_play, card.suit());
            }
        }
        Ok(m)
    }

    /// After a stop card of `suit` played by `seat`: who leads next.
    fn stop(&mut self, seat: usize, suit: Option<Suit>) {
        let n = self.names.len();
        let can = (0..n)
            .map(|k| (seat + k) % n)
            .find(|&s| !self.leads(s, suit).is_empty());
        let state = match can {
            Some(s) => State::Lead {
                seat: s,
                avoid: suit,
            },
            None if self.profile == Profile::Classic => State::Blocked,
            None => (1..=n)
                .map(|k| (seat + k) % n)
                .find(|&s| !self.hands[s].is_empty())
                .map_or(State::Blocked, |s| State::Lead {
                    seat: s,
                    avoid: None,
                }),
        };
        match &state {
            State::Lead { seat: s, .. } if *s != seat => {
                let (from, to) = (&self.names[seat], &self.names[*s]);
                self.said.push(format!(
                    "{from} holds no other suit: the lead passes left to {to}."
                ));
            }
            State::Blocked => self
                .said
                .push("Nobody can lead another suit: play is blocked.".into()),
            _ => {}
        }
        self.state = state;
    }

    /// The round contract's `michigan`: who went out (`None`: blocked)
    /// and each other player's cards left, once the play is over.
    pub fn result(&self) -> Result<MichiganResult, TripoleyError> {
        let out = match &self.state {
            State::Out(seat) => Some(*seat),
            State::Blocked => None,
            _ => {
                return Err(TripoleyError::input(
                    "michigan",
                    "the Michigan play is not over",
                ));
            }
        };
        let left = (0..self.names.len())
            .filter(|&s| Some(s) != out)
            .map(|s| (self.names[s].clone(), self.hands[s].len() as u64))
            .collect();
        Ok((out.map(|s| self.names[s].clone()), left))
    }
}
