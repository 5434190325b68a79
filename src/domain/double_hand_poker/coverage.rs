//! After the dice and before the results: which wagers the bank covers, in
//! ACTION order. The bank is used up wager by wager whoever wins, so until
//! a push keeps the PD's money in action (`push_consumes_action` off), the
//! seats the bank reaches are known as soon as the ACTION seat is: the
//! settlement of the hand with every seat decided says which.

use crate::common::money::Money;
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{Scenario, ScenarioInput, SeatMap, SettleError, settle};

/// How much of one wager the bank covers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Cover {
    pub seat: i64,
    pub bettor: String,
    pub amount: Money,
    /// Of `amount`; zero when the wager gets no action.
    pub covered: Money,
}

impl Cover {
    /// `covered`, `partly` or `none`: for a page's styles.
    pub fn kind(&self) -> &'static str {
        if self.covered == self.amount {
            "covered"
        } else if self.covered.is_zero() {
            "none"
        } else {
            "partly"
        }
    }

    /// "seat 4 Ann 60.00: covered", "… 40.00 of it", "… no action".
    pub fn words(&self) -> String {
        let how = match self.kind() {
            "covered" => "covered".to_string(),
            "none" => "no action".to_string(),
            _ => format!("{} of it covered", self.covered.to_display()),
        };
        format!(
            "seat {} {} {}: {how}",
            self.seat,
            self.bettor,
            self.amount.to_display()
        )
    }
}

/// Each wager in ACTION order with what the bank covers of it, as if every
/// seat were decided (a win or a loss uses the bank alike). A push that
/// keeps the bank in action can only cover more of the wagers after it.
pub fn before_results(input: &ScenarioInput) -> Result<Vec<Cover>, SettleError> {
    let mut decided = input.clone();
    let mut seats: Vec<i64> = input.wagers.iter().map(|w| w.seat).collect();
    seats.sort_unstable();
    seats.dedup();
    decided.hands = None;
    decided.outcomes = Some(SeatMap(
        seats
            .iter()
            .map(|seat| (seat.to_string(), Outcome::Pd))
            .collect(),
    ));
    let scenario = Scenario::from_input(&decided)?;
    let settlement = settle(&scenario)?;
    Ok(settlement
        .steps
        .iter()
        .map(|step| Cover {
            seat: i64::from(step.seat),
            bettor: step.bettor.to_string(),
            amount: step.amount,
            covered: step.covered(),
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::double_hand_poker::settle::{ActionInput, PdInput, WagerInput};

    #[test]
    fn the_bank_covers_wagers_in_action_order_until_it_is_used_up() {
        // The seed's $200 bank; ACTION seat 4: seats 4, 5, 6, then 2.
        let input = ScenarioInput {
            pd: PdInput {
                seat: 1,
                player: "Dana".into(),
                bank: Money::from_units(200),
            },
            action: ActionInput {
                seat: Some(4),
                ..ActionInput::default()
            },
            wagers: vec![
                WagerInput::example(2, "Ann", "50", false),
                WagerInput::example(4, "Bo", "60", false),
                WagerInput::example(5, "Cy", "100", false),
                WagerInput::example(6, "Di", "60", false),
            ],
            profile: None,
            options: None,
            seats: None,
            outcomes: None,
            hands: None,
            collection: None,
        };
        let words: Vec<String> = before_results(&input)
            .expect("a valid hand")
            .iter()
            .map(Cover::words)
            .collect();
        assert_eq!(
            words,
            [
                "seat 4 Bo 60.00: covered",
                "seat 5 Cy 100.00: covered",
                "seat 6 Di 60.00: 40.00 of it covered",
                "seat 2 Ann 50.00: no action",
            ]
        );
    }
}
