//! Collection: the fee on a wager or a bank from the posted schedule
//! (`Schedule::fee_for`, the settlement's own schedule). Level 1: two
//! brackets, whole-dollar fees and amounts; level 2: three or four
//! brackets, half-dollar fees, amounts in $5s; level 3: up to five
//! brackets (the first may pay nothing), the wager or the bank, amounts on
//! and a cent either side of a bracket's edge.

use serde::Serialize;

use super::table::cents;
use crate::common::field_error::FieldError;
use crate::common::money::{Money, Unit};
use crate::double_hand_poker::settle::{BracketInput, Schedule};
use crate::training::answer_input::{AnswerInput, money};
use crate::training::rng::Rng;
use crate::training::{Level, engine};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = CollectionQuestion)]
pub struct Question {
    /// `"wager"` (the player schedule) or `"bank"` (the bank schedule).
    pub of: &'static str,
    pub amount: Money,
    /// The posted schedule, as `collection.player` / `collection.bank` of
    /// the settle contract.
    pub schedule: Vec<BracketInput>,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = CollectionAnswer)]
pub struct Answer {
    pub fee: Money,
}

impl Question {
    pub fn words(&self) -> String {
        let mut out = format!(
            "The posted {} schedule:\n",
            if self.of == "bank" { "bank" } else { "player" }
        );
        for b in &self.schedule {
            out.push_str(&format!(
                "  {} to {}: {}\n",
                b.from.to_display(),
                b.to.to_display(),
                b.fee.to_display()
            ));
        }
        out.push_str(&format!(
            "What is the collection on a {} of {}?",
            self.of,
            self.amount.to_display()
        ));
        out
    }
}

impl Answer {
    pub fn words(&self) -> String {
        format!("{}.", self.fee.to_display())
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let n = match level.get() {
        1 => 2,
        2 => rng.range(3, 4),
        _ => rng.range(3, 5),
    };
    // Bracket edges in whole dollars, increasing.
    let mut edges = Vec::new();
    let mut edge = 0i64;
    for _ in 1..n {
        edge += 10 * rng.range(2, 15);
        edges.push(edge);
    }
    let fee_step = if level >= Level::MEDIUM { 50 } else { 100 };
    let mut fee = if level >= Level::HARD && rng.chance(1, 2) {
        0
    } else {
        fee_step
    };
    let mut schedule = Vec::new();
    let mut from = 0i64;
    for i in 0..n as usize {
        let to = edges.get(i).map_or(100_000_000_000, |e| e * 100 - 1);
        schedule.push(BracketInput {
            from: cents(from),
            to: cents(to),
            fee: cents(fee),
        });
        from = to + 1;
        fee += fee_step * rng.range(1, 2);
    }
    let top = edges.last().copied().unwrap_or(100) + 100;
    let amount = match level.get() {
        1 => Money::from_units(rng.range(1, top)),
        2 => Money::from_units(5 * rng.range(1, top / 5)),
        _ => {
            let e = *rng.pick(&edges) * 100;
            cents(e + rng.range(-1, 1))
        }
    };
    let of = if level >= Level::HARD && rng.chance(1, 2) {
        "bank"
    } else {
        "wager"
    };
    let field = if of == "bank" {
        "collection.bank"
    } else {
        "collection.player"
    };
    let parsed = engine(
        Schedule::parse(field, &schedule, Unit::CENT),
        "the schedule",
    );
    let bracket = parsed
        .brackets()
        .iter()
        .find(|b| b.from <= amount && amount <= b.to)
        .copied();
    let fee = engine(
        parsed.fee_for(amount).ok_or("no bracket covers the amount"),
        "the schedule",
    );
    let explanation = match bracket {
        Some(b) => format!(
            "{} is in the bracket {} to {}: collect {}.",
            amount.to_display(),
            b.from.to_display(),
            b.to.to_display(),
            fee.to_display()
        ),
        None => format!("Collect {}.", fee.to_display()),
    };
    (
        Question {
            of,
            amount,
            schedule,
        },
        Answer { fee },
        explanation,
    )
}

pub(super) fn grade(_q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["fee"])?;
    let fee = money(fields.get("fee")?, "fee")?;
    if fee.is_negative() {
        return Err(
            FieldError::new("fee", format!("{fee} must not be negative"))
                .with_value(fee.to_string()),
        );
    }
    Ok(fee == a.fee)
}
