//! A step's chips as the dealer moves them: the verb and the amount first
//! (PAY 60.00 to Bo, COLLECT 80.00 from Cy, RETURN 40.00 — no action),
//! the result and the reason after. Every page that shows a settlement
//! (the live hand, its replay, the record) and the settle drills take the
//! words from here, so a dealer never reads a result where a payout is.

use super::output::Step;
use crate::common::money::Money;
use crate::double_hand_poker::outcome::Outcome;

/// What the dealer does with the chips.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verb {
    /// From the bank to the bettor: a win.
    Pay,
    /// From the bettor to the bank: a loss.
    Collect,
    /// The bettor's own stake given back: a push, or money with no action.
    Return,
}

impl Verb {
    /// The word a page shows, large, beside its colour.
    pub fn word(self) -> &'static str {
        match self {
            Verb::Pay => "PAY",
            Verb::Collect => "COLLECT",
            Verb::Return => "RETURN",
        }
    }

    /// Its past tense, on the button that confirms the step.
    fn done(self) -> &'static str {
        match self {
            Verb::Pay => "Paid",
            Verb::Collect => "Collected",
            Verb::Return => "Returned",
        }
    }
}

/// One movement of chips at a step.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Move {
    pub verb: Verb,
    pub amount: Money,
    /// To or from whom, and why: "to Bo (seat 5)", "(no action)",
    /// "to Di (seat 7) — no action".
    pub whom: String,
}

impl Step<'_> {
    /// The money to move at this step, in the order the dealer moves it: a
    /// win's pay or a loss's collect, then the part that had no action
    /// returned; a push or a bet with no action at all returned whole.
    /// Never empty.
    pub fn moves(&self) -> Vec<Move> {
        let who = format!("{} (seat {})", self.bettor, self.seat);
        let whole = |why: &str| Move {
            verb: Verb::Return,
            amount: self.amount,
            whom: format!("to {who} — {why}"),
        };
        if self.covered().is_zero() {
            return vec![whole("no action")];
        }
        let first = match self.outcome {
            Outcome::Player => Move {
                verb: Verb::Pay,
                amount: self.to_bettor() - self.amount,
                whom: format!("to {who}"),
            },
            Outcome::Pd => Move {
                verb: Verb::Collect,
                amount: self.covered(),
                whom: format!("from {who}"),
            },
            Outcome::Push => return vec![whole("push")],
        };
        let mut moves = vec![first];
        if !self.no_action().is_zero() {
            moves.push(Move {
                verb: Verb::Return,
                amount: self.no_action(),
                whom: "(no action)".into(),
            });
        }
        moves
    }

    /// What the button confirming this step says was done: "Paid Bo
    /// 60.00", "Collected 80.00 from Cy, returned 20.00", "Returned 40.00
    /// to Di".
    pub fn done_words(&self) -> String {
        let moves = self.moves();
        let mut words = String::new();
        for (i, m) in moves.iter().enumerate() {
            let amount = m.amount.to_display();
            let verb = if i == 0 {
                m.verb.done().to_string()
            } else {
                format!(", {}", m.verb.done().to_lowercase())
            };
            words.push_str(&match (i, m.verb) {
                (0, Verb::Pay) => format!("{verb} {} {amount}", self.bettor),
                (0, Verb::Collect) => format!("{verb} {amount} from {}", self.bettor),
                (0, Verb::Return) => format!("{verb} {amount} to {}", self.bettor),
                _ => format!("{verb} {amount}"),
            });
        }
        words
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::double_hand_poker::settle::{Scenario, ScenarioInput, settle};

    fn seed() -> ScenarioInput {
        serde_json::from_str(super::super::SEED_EXAMPLE).expect("the seed's scenario")
    }

    fn said(m: &Move) -> String {
        format!("{} {} {}", m.verb.word(), m.amount.to_display(), m.whom)
    }

    #[test]
    fn the_seed_example_reads_money_first() {
        let scenario = Scenario::from_input(&seed()).expect("valid");
        let s = settle(&scenario).expect("settles");
        let steps: Vec<(Vec<String>, String)> = s
            .steps
            .iter()
            .map(|st| (st.moves().iter().map(said).collect(), st.done_words()))
            .collect();
        let expected = [
            (
                vec!["COLLECT 60.00 from Ann (seat 4)"],
                "Collected 60.00 from Ann",
            ),
            (vec!["PAY 60.00 to Bo (seat 5)"], "Paid Bo 60.00"),
            (
                vec!["COLLECT 80.00 from Cy (seat 6)", "RETURN 20.00 (no action)"],
                "Collected 80.00 from Cy, returned 20.00",
            ),
            (
                vec!["RETURN 40.00 to Di (seat 7) — no action"],
                "Returned 40.00 to Di",
            ),
        ];
        for (got, (moves, done)) in steps.iter().zip(expected) {
            assert_eq!(got.0, moves);
            assert_eq!(got.1, done);
        }
        assert_eq!(steps.len(), 4);
    }
}
