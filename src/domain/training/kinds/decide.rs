//! Deciding a position: a player's set hand against the PD's → player, PD
//! or push (`setting::decide`: high against high, low against low, copies
//! to the PD, fouls). Level 1: no joker, both hands set by house way (never
//! fouled); level 2: the joker in the deck and the player's hand set any
//! way (it may foul); level 3: both hands set any way, the `foul` option
//! (`loses` or `reset_house_way`) and the `joker` option (`bug` or `wild`).

use serde::Serialize;

use crate::cards::{Card, format_cards};
use crate::common::field_error::FieldError;
use crate::double_hand_poker::options::{FoulRule, JokerRule, OptionOverrides, RuleOptions};
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::setting::{LOW_POSITIONS, SetHand, decide};
use crate::training::Level;
use crate::training::answer_input::{AnswerInput, text};
use crate::training::rng::Rng;

/// A hand as set: the five cards behind, the two in front.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = DecideHand)]
pub struct Hand {
    pub high: String,
    pub low: String,
}

impl Hand {
    pub(super) fn of(hand: &SetHand) -> Hand {
        Hand {
            high: format_cards(&hand.high),
            low: format_cards(&hand.low),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = DecideQuestion)]
pub struct Question {
    pub player: Hand,
    pub pd: Hand,
    /// The rule options over `lucky-chances` (absent: its defaults).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub options: Option<OptionOverrides>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = DecideAnswer)]
pub struct Answer {
    pub outcome: Outcome,
}

impl Question {
    pub fn words(&self) -> String {
        let mut rules = String::new();
        if let Some(o) = &self.options {
            if o.joker == Some(JokerRule::Wild) {
                rules.push_str(" The joker is wild.");
            }
            if o.foul == Some(FoulRule::ResetHouseWay) {
                rules.push_str(" A fouled hand is re-set by house way.");
            }
        }
        format!(
            "Player: {} behind, {} in front. PD: {} behind, {} in front.{rules} \
             Who wins: the player, the PD, or a push?",
            self.player.high, self.player.low, self.pd.high, self.pd.low
        )
    }
}

impl Answer {
    pub fn words(&self) -> String {
        match self.outcome {
            Outcome::Player => "The player wins.",
            Outcome::Pd => "The PD wins.",
            Outcome::Push => "Push.",
        }
        .to_string()
    }
}

/// A shuffled deck: the 52 cards, and the joker when `joker`.
pub(super) fn shuffled(rng: &mut Rng, joker: bool) -> Vec<Card> {
    let mut deck: Vec<Card> = Card::deck().take(if joker { 53 } else { 52 }).collect();
    rng.shuffle(&mut deck);
    deck
}

/// Seven cards set one of the 21 ways, chosen at random.
fn any_setting(cards: &[Card; 7], rng: &mut Rng) -> SetHand {
    let (i, j) = *rng.pick(&LOW_POSITIONS);
    SetHand::split(cards, i, j)
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let deck = shuffled(rng, level >= Level::MEDIUM);
    let mut player = [Card::JOKER; 7];
    let mut pd = [Card::JOKER; 7];
    player.copy_from_slice(&deck[..7]);
    pd.copy_from_slice(&deck[7..14]);
    let overrides = (level >= Level::HARD).then(|| OptionOverrides {
        joker: Some(if rng.chance(1, 3) {
            JokerRule::Wild
        } else {
            JokerRule::Bug
        }),
        foul: Some(if rng.chance(1, 2) {
            FoulRule::ResetHouseWay
        } else {
            FoulRule::Loses
        }),
        ..OptionOverrides::default()
    });
    let opts = match &overrides {
        Some(o) => RuleOptions::default().with(o),
        None => RuleOptions::default(),
    };
    let house = opts
        .house_way()
        .expect("a drill plays the reference house way, which is compiled in");
    let player_hand = if level >= Level::MEDIUM {
        any_setting(&player, rng)
    } else {
        house.set(&player, &opts).hand
    };
    let pd_hand = if level >= Level::HARD {
        any_setting(&pd, rng)
    } else {
        house.set(&pd, &opts).hand
    };
    let decision = decide(&player_hand, &pd_hand, &opts, house);
    (
        Question {
            player: Hand::of(&player_hand),
            pd: Hand::of(&pd_hand),
            options: overrides,
        },
        Answer {
            outcome: decision.outcome,
        },
        decision.explanation,
    )
}

pub(super) fn grade(_q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["outcome"])?;
    let given = text(fields.get("outcome")?, "outcome")?;
    let outcome = match given {
        "player" => Outcome::Player,
        "pd" => Outcome::Pd,
        "push" => Outcome::Push,
        other => {
            return Err(FieldError::new(
                "outcome",
                format!("\"{other}\" is not a result: give \"player\", \"pd\" or \"push\""),
            )
            .with_value(other));
        }
    };
    Ok(outcome == a.outcome)
}
