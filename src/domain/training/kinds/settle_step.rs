//! One settlement step: the PD's money in action and the next wager with
//! its result → covered, no action, to the bettor, to the PD, left in
//! action. The question is a one-wager hand in the settle contract whose
//! bank is the money in action, so `pitbook settle` gives the step. Level
//! 1: even money, the bank covers the wager; level 2: the bank may fall
//! short (part of the wager gets no action); level 3: 3:2 and 6:5 payouts
//! with breakage, cents, and `push_consumes_action`.

use serde::Serialize;

use super::table::{self, PD_NAME, cents};
use crate::common::field_error::FieldError;
use crate::common::money::Money;
use crate::double_hand_poker::options::OptionOverrides;
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{
    ActionInput, PdInput, Scenario, ScenarioInput, SeatMap, WagerInput, settle,
};
use crate::training::answer_input::{AnswerInput, money};
use crate::training::rng::Rng;
use crate::training::{Level, engine};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SettleStepQuestion)]
pub struct Question {
    /// The settle contract: one wager against the money in action.
    pub scenario: ScenarioInput,
}

/// The step's figures, as `steps[0]` of the settlement output names them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SettleStepAnswer)]
pub struct Answer {
    pub covered: Money,
    pub no_action: Money,
    pub to_bettor: Money,
    pub to_pd: Money,
    pub in_action_after: Money,
}

const FIELDS: [&str; 5] = [
    "covered",
    "no_action",
    "to_bettor",
    "to_pd",
    "in_action_after",
];

impl Question {
    pub fn words(&self) -> String {
        let s = &self.scenario;
        let w = &s.wagers[0];
        let outcome = s
            .outcomes
            .as_ref()
            .and_then(|o| o.0.first())
            .map_or(Outcome::Push, |(_, o)| *o);
        let result = match outcome {
            Outcome::Player => "the player's hand wins",
            Outcome::Pd => "the PD's hand wins",
            Outcome::Push => "the hand pushes",
        };
        let ratio = w
            .payout
            .as_deref()
            .map_or(String::new(), |p| format!(" at {p}"));
        let push = match s.options.as_ref().and_then(|o| o.push_consumes_action) {
            Some(true) => " A push takes the covering money out of action.",
            Some(false) => " A push leaves the bank in action.",
            None => "",
        };
        format!(
            "The PD has {} in action. Next: seat {}, {}, {}{ratio}; {result}.{push} \
             How much is covered, returned with no action, paid to the bettor in all, \
             paid to the PD in all, and left in action?",
            s.pd.bank.to_display(),
            w.seat,
            w.bettor,
            w.amount.to_display()
        )
    }
}

impl Answer {
    pub fn words(&self) -> String {
        format!(
            "Covered {}, no action {}, to the bettor {}, to the PD {}, left in action {}.",
            self.covered.to_display(),
            self.no_action.to_display(),
            self.to_bettor.to_display(),
            self.to_pd.to_display(),
            self.in_action_after.to_display()
        )
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let seat = rng.range(2, 7);
    let amount = table::amount(level, rng);
    let amount_cents = (amount.as_decimal() * rust_decimal::Decimal::from(100))
        .trunc()
        .try_into()
        .unwrap_or(100i64);
    let in_action = match level.get() {
        1 => amount + Money::from_units(5 * rng.range(0, 40)),
        2 => Money::from_units(5 * rng.range(1, amount_cents / 500 + 20)),
        _ => cents(rng.range(1, amount_cents * 2)),
    };
    let hard = level >= Level::HARD;
    let payout = (hard && rng.chance(2, 3)).then(|| rng.pick(&["3:2", "6:5"]).to_string());
    let outcome = *rng.pick(&[Outcome::Player, Outcome::Pd, Outcome::Push]);
    let input = ScenarioInput {
        profile: None,
        options: hard.then(|| OptionOverrides {
            push_consumes_action: Some(rng.chance(1, 2)),
            ..OptionOverrides::default()
        }),
        seats: None,
        pd: PdInput {
            seat: 1,
            player: PD_NAME.to_string(),
            bank: in_action,
        },
        action: ActionInput {
            dice: None,
            seat: Some(seat),
        },
        wagers: vec![WagerInput {
            id: "w1".to_string(),
            seat,
            bettor: "Ann".to_string(),
            amount,
            backline: false,
            payout,
        }],
        outcomes: Some(SeatMap(vec![(seat.to_string(), outcome)])),
        hands: None,
        collection: None,
    };
    let scenario = engine(Scenario::from_input(&input), "the step");
    let settlement = engine(settle(&scenario), "the step");
    let step = settlement.steps[0];
    let answer = Answer {
        covered: step.covered(),
        no_action: step.no_action(),
        to_bettor: step.to_bettor(),
        to_pd: step.to_pd(),
        in_action_after: step.in_action_after(),
    };
    let explanation = step.explanation_shown();
    drop(settlement);
    (Question { scenario: input }, answer, explanation)
}

pub(super) fn grade(_q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&FIELDS)?;
    let mut given = [Money::ZERO; 5];
    for (slot, name) in given.iter_mut().zip(FIELDS) {
        *slot = money(fields.get(name)?, name)?;
    }
    Ok(given
        == [
            a.covered,
            a.no_action,
            a.to_bettor,
            a.to_pd,
            a.in_action_after,
        ])
}
