//! A whole settlement: each bettor's and the PD's `net` and `pd_returned`,
//! as `pitbook settle` gives them for the question's scenario. Level 1:
//! even money, one wager a seat, a bank that covers them all; level 2:
//! backlines, the ACTION seat from dice, a bank that runs out; level 3:
//! 3:2 and 6:5 backlines with breakage, cents, the rule options and
//! collection (its fees are beside the net, not in it), and a bank that
//! runs out partway through a wager sharing its seat with another.

use serde::Serialize;
use serde::ser::SerializeMap;

use super::action_order::action_words;
use super::table::{self, Shape};
use crate::common::field_error::FieldError;
use crate::common::money::Money;
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::settle::{PD_KEY, Scenario, ScenarioInput, settle};
use crate::training::answer_input::{AnswerInput, keyed, money};
use crate::training::rng::Rng;
use crate::training::{Level, engine};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SettleAllQuestion)]
pub struct Question {
    /// The settle contract.
    pub scenario: ScenarioInput,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SettleAllAnswer)]
pub struct Answer {
    /// `totals.*.net` of the settlement: each bettor (in order of first
    /// wager), then `"pd"`.
    pub net: Nets,
    pub pd_returned: Money,
}

/// Nets by name, serialized as an object in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Nets(pub Vec<(String, Money)>);

/// Nets' schema in the API contract: money by bettor name, and "pd".
impl utoipa::PartialSchema for Nets {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
        crate::common::schema::map_of(
            "Each bettor's net by name, and the PD's under \"pd\" (as `totals.*.net`).",
            <Money as utoipa::PartialSchema>::schema(),
        )
        .into()
    }
}

impl utoipa::ToSchema for Nets {
    fn name() -> std::borrow::Cow<'static, str> {
        "SettleAllNets".into()
    }
}

impl Serialize for Nets {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut map = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl Question {
    pub fn words(&self) -> String {
        let s = &self.scenario;
        let mut out = format!(
            "The PD ({}) sits in seat {} with a bank of {}. {}.",
            s.pd.player,
            s.pd.seat,
            s.pd.bank.to_display(),
            action_words(s)
        );
        if let Some(o) = &s.options {
            if o.push_consumes_action == Some(true) {
                out.push_str(" A push takes the covering money out of action.");
            }
            if o.backline_order
                == Some(crate::double_hand_poker::options::BacklineOrder::LargestFirst)
            {
                out.push_str(" Backlines settle largest first.");
            }
        }
        out.push_str(" The wagers, in the order placed:\n");
        for w in &s.wagers {
            out.push_str(&format!(
                "  {}: seat {}, {}{}, {}{}\n",
                w.id,
                w.seat,
                w.bettor,
                if w.backline { " (backline)" } else { "" },
                w.amount.to_display(),
                w.payout
                    .as_deref()
                    .map_or(String::new(), |p| format!(" at {p}"))
            ));
        }
        if let Some(outcomes) = &s.outcomes {
            let results: Vec<String> = outcomes
                .0
                .iter()
                .map(|(seat, o)| {
                    let r = match o {
                        Outcome::Player => "player wins",
                        Outcome::Pd => "PD wins",
                        Outcome::Push => "push",
                    };
                    format!("seat {seat} {r}")
                })
                .collect();
            out.push_str(&format!("Results: {}.\n", results.join(", ")));
        }
        out.push_str("What is each bettor's and the PD's net, and what is returned to the PD?");
        out
    }
}

impl Answer {
    pub fn words(&self) -> String {
        let nets: Vec<String> = self
            .net
            .0
            .iter()
            .map(|(n, m)| {
                format!(
                    "{} {}",
                    if n == PD_KEY { "the PD" } else { n },
                    m.to_display()
                )
            })
            .collect();
        format!(
            "Net: {}; returned to the PD: {}.",
            nets.join(", "),
            self.pd_returned.to_display()
        )
    }
}

pub(super) fn generate(level: Level, rng: &mut Rng) -> (Question, Answer, String) {
    let shape = Shape {
        seats_with_wagers: (2, 4),
        backlines: true,
    };
    let input = table::draw(level, shape, rng);
    let scenario = engine(Scenario::from_input(&input), "the table");
    let settlement = engine(settle(&scenario), "the table");
    let mut net: Vec<(String, Money)> = settlement
        .totals
        .bettors
        .iter()
        .map(|(n, t)| (n.to_string(), t.net))
        .collect();
    net.push((PD_KEY.to_string(), settlement.totals.pd.net));
    let answer = Answer {
        net: Nets(net),
        pd_returned: settlement.pd_returned,
    };
    let mut explanation: Vec<String> = settlement
        .steps
        .iter()
        .map(|s| s.explanation_shown())
        .collect();
    explanation.push(format!(
        "Return {} to the PD.",
        settlement.pd_returned.to_display()
    ));
    let explanation = explanation.join(". ").replace("..", ".");
    drop(settlement);
    (Question { scenario: input }, answer, explanation)
}

pub(super) fn grade(_q: &Question, a: &Answer, input: &AnswerInput) -> Result<bool, FieldError> {
    let fields = input.object(&["net", "pd_returned"])?;
    let names: Vec<&str> = a.net.0.iter().map(|(n, _)| n.as_str()).collect();
    let nets = keyed(fields.get("net")?, "net", &names, money)?;
    let returned = money(fields.get("pd_returned")?, "pd_returned")?;
    Ok(returned == a.pd_returned && nets.iter().zip(&a.net.0).all(|(g, (_, m))| g == m))
}
