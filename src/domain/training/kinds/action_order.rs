//! Action order: a table of wagers (with backline) → the order they settle
//! in, read from the settlement engine's steps. Level 1: one wager per
//! seat, the ACTION seat given; level 2: backlines (placed in any order)
//! and the ACTION seat from dice (it may be the PD's seat); level 3:
//! `backline_order` is `placement` or `largest_first`.

use serde::Serialize;
use serde_json::Value;

use super::table::{self, Shape};
use crate::common::field_error::FieldError;
use crate::double_hand_poker::options::BacklineOrder;
use crate::double_hand_poker::settle::{Scenario, ScenarioInput, settle};
use crate::training::answer_input::{AnswerInput, text};
use crate::training::rng::Rng;
use crate::training::{Level, engine};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ActionOrderQuestion)]
pub struct Question {
    /// The settle contract: `pitbook settle` gives its steps in this order.
    pub scenario: ScenarioInput,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ActionOrderAnswer)]
pub struct Answer {
    /// Wager ids in the order they settle.
    pub order: Vec<String>,
}

impl Question {
    pub fn words(&self) -> String {
        let s = &self.scenario;
        let mut out = format!(
            "The PD sits in seat {} with a bank of {}. {}. The wagers, in the order placed:\n",
            s.pd.seat,
            s.pd.bank.to_display(),
            action_words(s)
        );
        for w in &s.wagers {
            out.push_str(&format!(
                "  {}: seat {}, {}{}, {}\n",
                w.id,
                w.seat,
                w.bettor,
                if w.backline { " (backline)" } else { "" },
                w.amount.to_display()
            ));
        }
        if let Some(order) = s.options.as_ref().and_then(|o| o.backline_order) {
            out.push_str(match order {
                BacklineOrder::Placement => "Backlines settle in the order placed.\n",
                BacklineOrder::LargestFirst => "Backlines settle largest first.\n",
            });
        }
        out.push_str("In what order do the wagers settle? (their ids)");
        out
    }
}

/// "The ACTION seat is seat 4" or "The PD throws 4, 5 and 3 for the ACTION seat".
pub(super) fn action_words(s: &ScenarioInput) -> String {
    match (&s.action.seat, &s.action.dice) {
        (Some(seat), _) => format!("The ACTION seat is seat {seat}"),
        (None, Some(d)) if d.len() == 3 => format!(
            "The PD throws {}, {} and {} for the ACTION seat",
            d[0], d[1], d[2]
        ),
        _ => "The ACTION seat is not given".to_string(),
    }
}

impl Answer {
    pub fn words(&self) -> String {
        format!("{}.", self.order.join(", "))
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let shape = Shape {
        seats_with_wagers: (2, 5),
        backlines: true,
    };
    let input = table::draw(level, shape, rng);
    let scenario = engine(Scenario::from_input(&input), "the table");
    let settlement = engine(settle(&scenario), "the table");
    let order: Vec<String> = settlement
        .steps
        .iter()
        .map(|s| s.wager.to_string())
        .collect();
    let listed: Vec<String> = settlement
        .steps
        .iter()
        .map(|s| {
            format!(
                "{} (seat {}, {}{})",
                s.wager,
                s.seat,
                s.bettor,
                if s.backline { ", backline" } else { "" }
            )
        })
        .collect();
    let explanation = format!(
        "Start at the ACTION seat {} and go clockwise, skipping the PD's seat {}; \
         on each seat the primary first, then the backlines: {}.",
        settlement.action_seat,
        input.pd.seat,
        listed.join(", ")
    );
    drop(settlement);
    (Question { scenario: input }, Answer { order }, explanation)
}

pub(super) fn grade(q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["order"])?;
    let v = fields.get("order")?;
    let Value::Array(items) = v else {
        return Err(
            FieldError::new("order", format!("{v} is not a list of wager ids"))
                .with_value(v.to_string()),
        );
    };
    let ids: Vec<&str> = q.scenario.wagers.iter().map(|w| w.id.as_str()).collect();
    let mut given = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = format!("order[{i}]");
        let id = text(item, &field)?;
        if !ids.contains(&id) {
            return Err(FieldError::new(
                field,
                format!(
                    "\"{id}\" is not a wager of this drill (wagers: {})",
                    ids.join(", ")
                ),
            )
            .with_value(id));
        }
        if given.contains(&id) {
            return Err(FieldError::new(field, format!("\"{id}\" is listed twice")).with_value(id));
        }
        given.push(id);
    }
    if given.len() != ids.len() {
        return Err(FieldError::new(
            "order",
            format!(
                "lists {} of the {} wagers: list every one",
                given.len(),
                ids.len()
            ),
        ));
    }
    Ok(given.iter().zip(&a.order).all(|(g, o)| *g == o))
}
