//! The round kept one screen per step (the ante, the deal, the spare hand,
//! the money cards, the betting action by action, the showdown, the
//! Michigan card by card or as a result): what each screen shows, built
//! from the round in progress (the fold of its recorded steps), and the
//! step each screen's form records.

use crate::domain::tripoley::betting::{BetAction, Offer};
use crate::domain::tripoley::game::TripoleyGame;
use crate::domain::tripoley::michigan_play::Turn;
use crate::domain::tripoley::round_steps::{Phase, Progress, RoundStep};
use crate::domain::tripoley::{Profile, StepKind, best_five};

use super::whole;
use crate::domain::common::field_error::{AsFieldError, FieldError};
use crate::domain::tripoley::auction_of;
use crate::web::double_hand_poker::play::forms::Fields;

/// A player's line on the betting screen.
pub struct BetRow {
    pub name: String,
    pub put_in: u64,
    pub left: u64,
    /// "", "folded", "all-in".
    pub status: &'static str,
}

/// What the current step's screen shows.
#[derive(Default)]
pub struct StepView {
    /// `ante`, `deal`, `spare`, `money_cards`, `betting`, `showdown`,
    /// `michigan`; empty when no round can be kept (the game has ended).
    pub phase: &'static str,
    pub label: &'static str,
    /// Some steps of this round are recorded.
    pub in_progress: bool,
    /// The round so far, as sentences to read aloud.
    pub so_far: Vec<String>,
    /// The ante screen: who antes what, who sits out.
    pub antes: Vec<String>,
    /// (seat, name) of the players dealt in (deal, showdown, Michigan result).
    pub seats: Vec<(usize, String)>,
    /// The hands as the round is played with them: (name, cards, best five).
    pub hands: Vec<(String, String, String)>,
    pub dealer: String,
    /// Who may buy the spare (the players in the round but the dealer).
    pub buyers: Vec<String>,
    /// The money cards screen: what paying them does.
    pub money: Vec<String>,
    /// Chips when the betting begins (money cards screen), by name.
    pub stacks: Vec<(String, u64)>,
    pub bet_rows: Vec<BetRow>,
    pub limit: u64,
    pub to_act: String,
    pub can_check: bool,
    /// (chips, all-in) of a call.
    pub call: Option<(u64, bool)>,
    /// The largest bet (0: no bet possible).
    pub bet_max: u64,
    /// (to call, largest raise) of a raise.
    pub raise: Option<(u64, u64)>,
    /// The chips of an all-in (0: not offered).
    pub all_in: u64,
    /// Still in at the showdown: (seat, name).
    pub showdown: Vec<(usize, String)>,
    /// Who plays the next Michigan card, and which card(s).
    pub turn_player: String,
    pub turn_cards: Vec<String>,
    /// The next card is forced (the next card up), not a lead.
    pub turn_follows: bool,
    /// The Michigan may still be entered as a result (no card played yet).
    pub result_allowed: bool,
}

impl StepView {
    /// The label of the betting screen's chips: a bet's range, or a raise's.
    pub fn chips_label(&self) -> String {
        match (self.bet_max, self.raise) {
            (0, Some((call, max))) => format!("Raise by (1 to {max}, after calling {call})"),
            (0, None) => "Raise by".into(),
            (max, _) => format!("Bet (1 to {max})"),
        }
    }
}

fn cards_text(cards: &[crate::domain::cards::Card]) -> String {
    cards
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

fn phase_key(phase: Phase) -> &'static str {
    match phase {
        Phase::Ante => "ante",
        Phase::Deal => "deal",
        Phase::Spare => "spare",
        Phase::MoneyCards => "money_cards",
        Phase::Betting => "betting",
        Phase::Showdown => "showdown",
        Phase::Michigan => "michigan",
        Phase::Done => "",
    }
}

/// The screen of the round's next step.
pub fn view(game: &TripoleyGame, progress: &Progress) -> StepView {
    let mut v = StepView {
        phase: phase_key(progress.phase),
        label: progress.phase.label(),
        in_progress: !game.current.is_empty(),
        dealer: game.dealer_name().to_string(),
        limit: game.bet_limit,
        ..StepView::default()
    };
    if game.finished() {
        v.phase = "";
        return v;
    }
    v.note_antes(game);
    if progress.phase != Phase::Ante {
        v.so_far.extend(v.antes.iter().cloned());
    }
    v.note_deal(progress);
    v.note_betting(progress);
    v.so_far.extend(
        progress
            .poker
            .iter()
            .filter(|s| s.kind == StepKind::Pot)
            .map(|s| s.explanation.clone()),
    );
    v.note_michigan(progress);
    v
}

impl StepView {
    /// Each player's ante, or why they sit the round out; the seats dealt
    /// in and those who may buy the spare.
    fn note_antes(&mut self, game: &TripoleyGame) {
        let full = game.ante * 9;
        for (seat, name) in game.players.iter().enumerate() {
            let chips = game.chips[seat];
            if chips >= full {
                self.antes
                    .push(format!("{name} antes {full} chips ({chips} now)."));
                self.seats.push((seat, name.clone()));
                if seat != game.dealer {
                    self.buyers.push(name.clone());
                }
            } else {
                self.antes.push(format!(
                    "{name} has {chips} chips, less than the ante of {full}: sits this round out."
                ));
            }
        }
    }

    /// The hands as dealt, the spare's and the money cards' steps, the
    /// stacks after them.
    fn note_deal(&mut self, progress: &Progress) {
        if let Some(before) = &progress.before {
            self.hands = before
                .hands
                .iter()
                .map(|(name, cards)| {
                    let best = best_five(cards).map_or(String::new(), |h| h.describe());
                    (name.clone(), cards_text(cards), best)
                })
                .collect();
            let spare_done = !matches!(progress.phase, Phase::Deal | Phase::Spare);
            let money_done = !matches!(progress.phase, Phase::MoneyCards) && spare_done;
            for step in &before.steps {
                match step.kind {
                    StepKind::SpareSwap | StepKind::SpareAuction if spare_done => {
                        self.so_far.push(step.explanation.clone());
                    }
                    StepKind::MoneyCard | StepKind::EightNineTen | StepKind::CarryOver => {
                        if money_done {
                            self.so_far.push(step.explanation.clone());
                        } else {
                            self.money.push(step.explanation.clone());
                        }
                    }
                    _ => {}
                }
            }
            self.stacks = before.chips.clone();
        }
    }

    /// The betting so far, each seat's line, what the player to act may do
    /// and who is still in for the showdown.
    fn note_betting(&mut self, progress: &Progress) {
        if let Some(b) = &progress.betting {
            self.so_far.extend(b.said().iter().cloned());
            self.bet_rows = b
                .seats()
                .into_iter()
                .map(|(name, put_in, left, folded, all_in)| BetRow {
                    name,
                    put_in,
                    left,
                    status: if folded {
                        "folded"
                    } else if all_in {
                        "all-in"
                    } else {
                        ""
                    },
                })
                .collect();
            self.to_act = b.to_act().unwrap_or_default().to_string();
            for offer in b.offers() {
                match offer {
                    Offer::Check => self.can_check = true,
                    Offer::Bet { max } => self.bet_max = max,
                    Offer::Call { chips, all_in } => self.call = Some((chips, all_in)),
                    Offer::Raise { to_call, max } => self.raise = Some((to_call, max)),
                    Offer::Fold => {}
                    Offer::AllIn { chips } => self.all_in = chips,
                }
            }
            let still_in: Vec<&str> = self
                .bet_rows
                .iter()
                .filter(|r| r.status != "folded")
                .map(|r| r.name.as_str())
                .collect();
            self.showdown = self
                .seats
                .iter()
                .filter(|(_, n)| still_in.contains(&n.as_str()))
                .cloned()
                .collect();
        }
    }

    /// The Michigan play so far, the hands left and whose turn it is.
    fn note_michigan(&mut self, progress: &Progress) {
        if let Some(m) = &progress.michigan {
            self.so_far.extend(m.said().iter().cloned());
            self.hands = m
                .hands()
                .into_iter()
                .map(|(name, cards)| {
                    let n = cards.len();
                    (name, cards_text(&cards), format!("{n} left"))
                })
                .collect();
            match m.turn() {
                Turn::Lead { player, cards } => {
                    self.turn_player = player;
                    self.turn_cards = cards.iter().map(ToString::to_string).collect();
                }
                Turn::Follow { player, card } => {
                    self.turn_player = player;
                    self.turn_cards = vec![card.to_string()];
                    self.turn_follows = true;
                }
                Turn::Out { .. } | Turn::Blocked => {}
            }
            self.result_allowed = progress.cards_played == 0;
        }
    }
}

/// The seat-numbered inputs `prefix{seat}` that were filled in, by name.
pub(super) fn by_seat(game: &TripoleyGame, fields: &Fields, prefix: &str) -> Vec<(String, String)> {
    game.players
        .iter()
        .enumerate()
        .filter_map(|(i, name)| {
            let text = fields.filled(&format!("{prefix}{i}"))?;
            Some((name.clone(), text.to_string()))
        })
        .collect()
}

/// The input a refused field was typed in, on the form that sent it (the
/// step form at `phase`, else the whole-round form), when that form has
/// one: `hand_2` for `hands.Bo`, `price` for `spare.auction.price`,
/// `chips` for a bet's chips… The page shows the refusal beside it.
pub(super) fn control_of(
    game: &TripoleyGame,
    in_step: bool,
    phase: &str,
    field: &str,
) -> Option<String> {
    let on = |step_phase: &str, on_round_form: bool| {
        if in_step {
            phase == step_phase
        } else {
            on_round_form
        }
    };
    let seat = |prefix: &str, player: &str| {
        let i = game.players.iter().position(|p| p == player)?;
        Some(format!("{prefix}{i}"))
    };
    let classic = game.profile == Profile::Classic;
    if let Some(player) = field.strip_prefix("hands.") {
        return match player {
            "spare" => on("deal", true).then(|| "hand_spare".to_string()),
            _ => seat("hand_", player).filter(|_| on("deal", true)),
        };
    }
    // (field, input, the step's phase, on the whole-round form: its poker
    // table's cells show no message, so their refusals go above it).
    let per_seat = [
        ("poker.shown.", "shown_", "showdown", false),
        ("michigan.cards_left.", "left_", "michigan", true),
    ];
    for (head, prefix, step_phase, round) in per_seat {
        if let Some(player) = field.strip_prefix(head) {
            return seat(prefix, player).filter(|_| on(step_phase, round));
        }
    }
    let control = match field {
        "spare.auction.buyer" if classic && on("spare", true) => "buyer",
        "spare.auction.price" if classic && on("spare", true) => "price",
        "chips" if on("betting", false) => "chips",
        _ => return None,
    };
    Some(control.to_string())
}

/// The spare's auction as the form gives it: the core refuses a price with
/// no buyer (or a buyer with no price), naming the field.
pub(super) fn auction(fields: &Fields) -> Result<Option<(String, i64)>, FieldError> {
    let price = whole(fields, "price", "spare.auction.price")?;
    auction_of(fields.filled("buyer"), price).map_err(|e| {
        e.field_error()
            .unwrap_or_else(|| FieldError::new("spare.auction", e.to_string()))
    })
}

/// The step a screen's form records.
pub fn step_of(game: &TripoleyGame, fields: &Fields) -> Result<RoundStep, FieldError> {
    Ok(match fields.get("step") {
        "ante" => RoundStep::Ante,
        "deal" => {
            let mut hands = by_seat(game, fields, "hand_");
            if let Some(spare) = fields.filled("hand_spare") {
                hands.push(("spare".into(), spare.to_string()));
            }
            RoundStep::Deal { hands }
        }
        "spare" => RoundStep::Spare {
            dealer_swaps: !fields.get("swap").is_empty(),
            auction: auction(fields)?,
        },
        "money_cards" => RoundStep::MoneyCards,
        "bet" => {
            let chips = || -> Result<u64, FieldError> {
                let text = fields.get("chips").trim();
                text.parse().map_err(|_| {
                    FieldError::new(
                        "chips",
                        format!("\"{text}\" is not a whole number of chips"),
                    )
                })
            };
            let action = match fields.get("bet") {
                "check" => BetAction::Check,
                "call" => BetAction::Call,
                "fold" => BetAction::Fold,
                "all_in" => BetAction::AllIn,
                "bet" => BetAction::Bet { chips: chips()? },
                "raise" => BetAction::Raise { chips: chips()? },
                other => {
                    let message = format!("\"{other}\" is not a betting action");
                    return Err(FieldError::new("bet", message));
                }
            };
            RoundStep::Bet {
                player: fields.get("player").to_string(),
                action,
            }
        }
        "showdown" => RoundStep::Showdown {
            shown: by_seat(game, fields, "shown_"),
        },
        "michigan_card" => RoundStep::MichiganCard {
            player: fields.get("player").to_string(),
            card: fields.get("card").trim().to_string(),
        },
        "michigan_result" => {
            let mut cards_left = Vec::new();
            for (i, name) in game.players.iter().enumerate() {
                let field = format!("michigan.cards_left.{name}");
                if let Some(n) = whole(fields, &format!("left_{i}"), &field)? {
                    cards_left.push((name.clone(), n));
                }
            }
            let (out, blocked) = match fields.get("out").trim() {
                "" => (None, false),
                "blocked" => (None, true),
                name => (Some(name.to_string()), false),
            };
            RoundStep::MichiganResult {
                out,
                blocked,
                cards_left,
            }
        }
        other => {
            let message = format!("\"{other}\" is not a step of a round");
            return Err(FieldError::new("step", message));
        }
    })
}
