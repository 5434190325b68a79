//! What the search keeps of each hand beyond its `hands` row: who was in it
//! — the PD and every bettor, by the name typed — with what each staked,
//! received and their net, and the hand's totals (wagered, largest wager,
//! the PD's net, corrected). A pure function of the folded hand, so the
//! writer stores it and `audit verify` derives it again and compares.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::filter::name_key;
use crate::common::money::Money;
use crate::double_hand_poker::hand_record::{HandState, Phase};
use crate::double_hand_poker::settle::PD_KEY;

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Role {
    Pd,
    Bettor,
}

impl Role {
    pub fn as_str(self) -> &'static str {
        match self {
            Role::Pd => "pd",
            Role::Bettor => "bettor",
        }
    }

    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "pd" => Some(Role::Pd),
            "bettor" => Some(Role::Bettor),
            _ => None,
        }
    }
}

/// One person's part in one hand.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Person {
    pub role: Role,
    /// As typed at the table.
    pub name: String,
    /// The bank (the PD), or the sum of the bettor's wagers.
    pub staked: Money,
    /// Paid back or won; None while the hand is open.
    pub received: Option<Money>,
    /// `received − staked` (the collection is apart); None while open.
    pub net: Option<Money>,
}

impl Person {
    /// The name as the search compares it.
    pub fn key(&self) -> String {
        name_key(&self.name)
    }
}

/// A hand as the search sees it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HandPeople {
    pub pd: Option<String>,
    pub pd_net: Option<Money>,
    pub wagered: Money,
    pub max_wager: Option<Money>,
    pub corrected: bool,
    /// The PD first, then the bettors in the order of their first wager.
    pub people: Vec<Person>,
}

#[derive(Deserialize)]
struct Totals {
    totals: BTreeMap<String, Total>,
}

#[derive(Deserialize)]
struct Total {
    received: Money,
    net: Money,
}

impl HandPeople {
    /// From the folded hand: a closed hand's money from its settlement's
    /// totals; a voided one returned every stake (net 0); an open one has
    /// stakes only. Err: a settlement whose totals do not read (a bug).
    pub fn of(state: &HandState) -> Result<HandPeople, String> {
        let totals = match (state.phase(), state.settlement()) {
            (Phase::Closed, Some(s)) => Some(
                serde_json::from_str::<Totals>(s.text())
                    .map_err(|e| format!("the settlement's totals: {e}"))?
                    .totals,
            ),
            _ => None,
        };
        let voided = state.phase() == Phase::Voided;
        let settled =
            |name: &str, staked: Money| -> Result<(Option<Money>, Option<Money>), String> {
                if voided {
                    return Ok((Some(staked), Some(Money::ZERO)));
                }
                match &totals {
                    None => Ok((None, None)),
                    Some(t) => {
                        let total = t
                            .get(name)
                            .ok_or_else(|| format!("the settlement has no total for {name:?}"))?;
                        Ok((Some(total.received), Some(total.net)))
                    }
                }
            };
        let mut people = Vec::new();
        let mut pd_net = None;
        if let Some(pd) = state.pd() {
            let (received, net) = settled(PD_KEY, pd.bank)?;
            pd_net = net;
            people.push(Person {
                role: Role::Pd,
                name: pd.player.clone(),
                staked: pd.bank,
                received,
                net,
            });
        }
        let mut bettors: Vec<(&str, Money)> = Vec::new();
        for w in state.wagers() {
            match bettors.iter_mut().find(|(n, _)| *n == w.bettor) {
                Some((_, staked)) => *staked += w.amount,
                None => bettors.push((&w.bettor, w.amount)),
            }
        }
        for (name, staked) in bettors {
            let (received, net) = settled(name, staked)?;
            people.push(Person {
                role: Role::Bettor,
                name: name.to_string(),
                staked,
                received,
                net,
            });
        }
        Ok(HandPeople {
            pd: state.pd().map(|pd| pd.player.clone()),
            pd_net,
            wagered: state.wagers().iter().map(|w| w.amount).sum(),
            max_wager: state.wagers().iter().map(|w| w.amount).max(),
            corrected: state.corrections() > 0,
            people,
        })
    }
}
