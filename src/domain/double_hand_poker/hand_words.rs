//! The set hands in words, for the pages: each card as a face (rank, suit
//! glyph and letter, colour, a spoken label), each hand's name ("Two pair,
//! kings and fours", "Ace-queen"), which house-way rule set a hand and what
//! that rule says, a foul and what the foul rule did, and each seat's result
//! with its reason ("high: player, low: copy → push"). Built from a decided
//! [`Scenario`] by the same [`setting::decide`] the settlement uses; the
//! templates only print it.

use super::house_way::HouseWay;
use super::options::{FoulRule, JokerRule, RuleOptions, WheelRule};
use super::outcome::Outcome;
use super::setting::{self, SetHand};
use super::settle::Scenario;
use crate::cards::eval::{Category, HandRank};
use crate::cards::{Card, Rank, Suit};

mod ev_words;
mod house_way_words;

pub use ev_words::{EvRow, EvWords, ev_words};
pub use house_way_words::{
    HOUSE_WAY_RULES, HouseWayPreview, HouseWayWords, house_way_preview, house_way_rule_number,
};

/// One card as shown: `K` `♥` `h`, red, "king of hearts".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CardFace {
    /// Canonical text: `Kh`, `Th`, `JK`.
    pub text: String,
    /// `A` … `2`, `10` for a ten; `JK` for the joker.
    pub rank: &'static str,
    /// `♠ ♥ ♦ ♣`; empty for the joker.
    pub glyph: &'static str,
    /// `s h d c`, shown beside the glyph (colour is never the only cue).
    pub letter: &'static str,
    /// `red`, `black` or `joker`.
    pub colour: &'static str,
    /// "king of hearts", "joker".
    pub label: String,
}

impl CardFace {
    pub fn of(card: Card) -> CardFace {
        let (Some(rank), Some(suit)) = (card.rank(), card.suit()) else {
            return CardFace {
                text: card.to_string(),
                rank: "JK",
                glyph: "",
                letter: "",
                colour: "joker",
                label: "joker".into(),
            };
        };
        let (glyph, letter, name, colour) = match suit {
            Suit::Spades => ("♠", "s", "spades", "black"),
            Suit::Hearts => ("♥", "h", "hearts", "red"),
            Suit::Diamonds => ("♦", "d", "diamonds", "red"),
            Suit::Clubs => ("♣", "c", "clubs", "black"),
        };
        CardFace {
            text: card.to_string(),
            rank: RANK_TEXT[rank.index() as usize],
            glyph,
            letter,
            colour,
            label: format!("{} of {name}", rank.name()),
        }
    }
}

const RANK_TEXT: [&str; 13] = [
    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
];

/// A hand as cards and its name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandWords {
    pub cards: Vec<CardFace>,
    pub name: String,
}

impl HandWords {
    pub fn of(cards: &[Card], rank: HandRank) -> HandWords {
        HandWords {
            cards: cards.iter().copied().map(CardFace::of).collect(),
            name: hand_name(cards, rank),
        }
    }
}

/// A hand's name: the evaluator's for five cards ("Two pair, kings and
/// fours"); for two cards "Pair of aces" or the two ranks, "Ace-queen" (the
/// joker in front is an ace unless it pairs as a wild card).
pub fn hand_name(cards: &[Card], rank: HandRank) -> String {
    if cards.len() != 2 || rank.category() != Category::HighCard {
        return rank.name();
    }
    let name = |c: Card| c.rank().unwrap_or(Rank::Ace).name();
    let (a, b) = (cards[0], cards[1]);
    // The higher first; the joker (an ace here) sorts above every card.
    let (hi, lo) = if b > a { (b, a) } else { (a, b) };
    let hi = name(hi);
    let mut out: String = hi[..1].to_uppercase();
    out.push_str(&hi[1..]);
    out.push('-');
    out.push_str(name(lo));
    out
}

/// A seat's hand as entered and, after a foul re-set, as played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HandShown {
    pub high: HandWords,
    pub low: HandWords,
    /// "set by house way" or "set by the player" / "set by the PD".
    pub set_by: &'static str,
    /// The rule that set it, when house way set it.
    pub house_way: Option<HouseWayWords>,
    pub fouled: bool,
    /// What the foul rule did, in a sentence.
    pub foul: String,
    /// The hand re-set by house way after a foul, as played.
    pub played: Option<Box<Played>>,
}

/// A hand re-set by house way.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Played {
    pub high: HandWords,
    pub low: HandWords,
    pub house_way: HouseWayWords,
}

/// A seat's result and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ResultWords {
    /// "player wins", "PD wins", "push".
    pub outcome: &'static str,
    /// `high: player, low: copy → push`, `fouled → PD wins`, or how the
    /// result was entered.
    pub reason: String,
    /// High and low compared, in words; empty when not compared.
    pub high: String,
    pub low: String,
}

/// One seat of the deal as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatWords {
    pub seat: u8,
    pub pd: bool,
    /// The PD, or the seat's bettor.
    pub name: String,
    /// None when the seat's result was entered without cards.
    pub hand: Option<HandShown>,
    /// None for the PD's seat.
    pub result: Option<ResultWords>,
}

pub fn outcome_words(o: Outcome) -> &'static str {
    match o {
        Outcome::Player => "player wins",
        Outcome::Pd => "PD wins",
        Outcome::Push => "push",
    }
}

fn verdict(player: HandRank, pd: HandRank) -> &'static str {
    match player.cmp(&pd) {
        std::cmp::Ordering::Greater => "player",
        std::cmp::Ordering::Less => "PD",
        std::cmp::Ordering::Equal => "copy",
    }
}

fn words(hand: &SetHand, opts: &RuleOptions) -> (HandWords, HandWords) {
    (
        HandWords::of(&hand.high, hand.high_rank(opts)),
        HandWords::of(&hand.low, hand.low_rank(opts)),
    )
}

/// A hand as entered: its words, the rule that set it, the foul.
fn shown(
    hand: &SetHand,
    rule: Option<&str>,
    pd: bool,
    opts: &RuleOptions,
    house_way: &dyn HouseWay,
) -> HandShown {
    let (high, low) = words(hand, opts);
    let fouled = hand.is_fouled(opts);
    let reset = pd || opts.foul == FoulRule::ResetHouseWay;
    let foul = match (fouled, pd, reset) {
        (false, _, _) => String::new(),
        (true, true, _) => format!(
            "Fouled: {} behind does not beat {} in front. A fouled PD hand is always \
             re-set by house way.",
            high.name, low.name
        ),
        (true, false, false) => format!(
            "Fouled: {} behind does not beat {} in front. Foul rule \"loses\": it loses \
             both hands to the PD.",
            high.name, low.name
        ),
        (true, false, true) => format!(
            "Fouled: {} behind does not beat {} in front. Foul rule \"reset_house_way\": \
             the dealer re-sets it by house way.",
            high.name, low.name
        ),
    };
    let played = (fouled && reset).then(|| {
        let set = house_way.set(&hand.cards(), opts);
        let (high, low) = words(&set.hand, opts);
        Box::new(Played {
            high,
            low,
            house_way: HouseWayWords::of(&set.rule, house_way.name()),
        })
    });
    HandShown {
        high,
        low,
        set_by: match (rule.is_some(), pd) {
            (true, _) => "set by house way",
            (false, true) => "set by the PD",
            (false, false) => "set by the player",
        },
        house_way: rule.map(|r| HouseWayWords::of(r, house_way.name())),
        fouled,
        foul,
        played,
    }
}

/// A player seat's hand decided against the PD's.
fn decided(player: &SetHand, pd: &SetHand, opts: &RuleOptions, hw: &dyn HouseWay) -> ResultWords {
    let d = setting::decide(player, pd, opts, hw);
    let outcome = outcome_words(d.outcome);
    if d.player_fouled && opts.foul == FoulRule::Loses {
        return ResultWords {
            outcome,
            reason: format!("fouled → {outcome}"),
            high: String::new(),
            low: String::new(),
        };
    }
    let (ph, pl) = words(&d.player, opts);
    let (dh, dl) = words(&d.pd, opts);
    let high = verdict(d.player.high_rank(opts), d.pd.high_rank(opts));
    let low = verdict(d.player.low_rank(opts), d.pd.low_rank(opts));
    let short = match d.outcome {
        Outcome::Player => "player",
        Outcome::Pd => "PD",
        Outcome::Push => "push",
    };
    ResultWords {
        outcome,
        reason: format!("high: {high}, low: {low} → {short}"),
        high: format!("High: {} against {}: {high}.", ph.name, dh.name),
        low: format!("Low: {} against {}: {low}.", pl.name, dl.name),
    }
}

/// Every seat of a decided hand, the PD's first, then the players' in seat
/// order: cards and words for a seat entered as cards, the result as
/// entered for one entered as a result.
pub fn hands_shown(scenario: &Scenario, house_way: &dyn HouseWay) -> Vec<SeatWords> {
    let opts = scenario.options();
    let pd = scenario.pd();
    let parsed = |seat: u8| {
        let h = scenario.hands()?.seat(seat)?;
        let hand = SetHand::parse(&h.high, &h.low, opts).ok()?;
        Some((hand, h.house_way_rule.clone()))
    };
    let pd_hand = parsed(pd.seat);
    let mut out = vec![SeatWords {
        seat: pd.seat,
        pd: true,
        name: pd.player.clone(),
        hand: pd_hand
            .as_ref()
            .map(|(h, rule)| shown(h, rule.as_deref(), true, opts, house_way)),
        result: None,
    }];
    let mut seats: Vec<u8> = scenario.wagers().iter().map(|w| w.seat).collect();
    seats.sort_unstable();
    seats.dedup();
    for seat in seats {
        let name = scenario
            .wagers()
            .iter()
            .filter(|w| w.seat == seat)
            .min_by_key(|w| w.backline)
            .map(|w| w.bettor.clone())
            .unwrap_or_default();
        let recorded = scenario.outcome(seat);
        let (hand, result) = match (parsed(seat), &pd_hand) {
            (Some((h, rule)), Some((pd_h, _))) => {
                let mut result = decided(&h, pd_h, opts, house_way);
                if let Some(r) = recorded.filter(|&r| outcome_words(r) != result.outcome) {
                    result.reason = format!(
                        "{}; the result recorded is {}",
                        result.reason,
                        outcome_words(r)
                    );
                    result.outcome = outcome_words(r);
                }
                (
                    Some(shown(&h, rule.as_deref(), false, opts, house_way)),
                    Some(result),
                )
            }
            _ => (
                None,
                recorded.map(|r| ResultWords {
                    outcome: outcome_words(r),
                    reason: "entered as a result, without cards".into(),
                    high: String::new(),
                    low: String::new(),
                }),
            ),
        };
        out.push(SeatWords {
            seat,
            pd: false,
            name,
            hand,
            result,
        });
    }
    out
}

/// The option's name as the API and the CLI spell it.
pub fn joker_name(j: JokerRule) -> &'static str {
    match j {
        JokerRule::Bug => "bug",
        JokerRule::Wild => "wild",
        JokerRule::None => "none",
    }
}

pub fn wheel_name(w: WheelRule) -> &'static str {
    match w {
        WheelRule::Lowest => "lowest",
        WheelRule::SecondHighest => "second_highest",
    }
}

#[cfg(test)]
#[path = "hand_words_tests.rs"]
mod tests;
