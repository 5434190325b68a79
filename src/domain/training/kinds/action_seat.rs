//! ACTION seat: three dice and the PD's seat → the seat that gets the first
//! pile (`action_dice::action_seat`). Level 1: seven seats, the PD on seat
//! 1; level 2: the PD on any seat (the count wraps past the last seat);
//! level 3: tables of 2 to 10 seats as well.

use serde::Serialize;

use crate::common::field_error::FieldError;
use crate::double_hand_poker::action_dice::action_seat;
use crate::training::answer_input::{AnswerInput, integer};
use crate::training::rng::Rng;
use crate::training::{Level, engine};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ActionSeatQuestion)]
pub struct Question {
    pub dice: [u8; 3],
    pub pd_seat: u8,
    pub seats: u8,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = ActionSeatAnswer)]
pub struct Answer {
    pub seat: u8,
}

impl Question {
    pub fn words(&self) -> String {
        let [a, b, c] = self.dice;
        format!(
            "The PD sits in seat {} at a {}-seat table and throws {a}, {b} and {c}. \
             Which seat gets the first pile (the ACTION seat)?",
            self.pd_seat, self.seats
        )
    }
}

impl Answer {
    pub fn words(&self) -> String {
        format!("Seat {}.", self.seat)
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let seats = if level >= Level::HARD {
        rng.range(2, 10) as u8
    } else {
        7
    };
    let pd_seat = if level >= Level::MEDIUM {
        rng.range(1, i64::from(seats)) as u8
    } else {
        1
    };
    let dice = [0; 3].map(|_| rng.range(1, 6) as u8);
    let seat = engine(
        action_seat(dice.map(i64::from), i64::from(pd_seat), i64::from(seats)),
        "the dice",
    );
    let total: u8 = dice.iter().sum();
    let position = (total - 1) % 7 + 1;
    let explanation = format!(
        "{} + {} + {} = {total}: position {position} counting clockwise from the PD's seat {pd_seat} \
         (the PD counts as 1, 8 and 15), so seat {seat} gets the first pile.",
        dice[0], dice[1], dice[2]
    );
    (
        Question {
            dice,
            pd_seat,
            seats,
        },
        Answer { seat },
        explanation,
    )
}

pub(super) fn grade(q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["seat"])?;
    let seat = integer(
        fields.get("seat")?,
        "seat",
        1,
        i64::from(q.seats),
        "a seat at this table",
    )?;
    Ok(seat == i64::from(a.seat))
}
