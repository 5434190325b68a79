//! The shift report's PD rotation part (docs/shifts.md): per table whose
//! rules have a rotation clock, the clock replayed over the range's hands
//! — each hand opened while it ran, or after it ran out (a break) — with
//! every supervisor's override, and each TPPP's banks. Pure: the report's
//! hands, the overrides and the registry in; the verdict out.

use serde::Serialize;

use super::report::{HandStatus, ReportHand};
use super::tppp::{RotationOverride, Tppp, name_key};
use crate::common::money::Money;
use crate::double_hand_poker::rotation_clock::{
    Clock, ClockFacts, ClockState, RecentHand, RotationRule,
};

/// A hand opened after the clock had run out, with no override since.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct ClockBreak {
    pub number: i64,
    pub opened_at: String,
    /// When the clock ran out before it (RFC 3339).
    pub ran_out_at: String,
}

/// A table's rotation verdict.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct Compliance {
    pub minutes: u32,
    pub min_other_players: u32,
    /// `compliant`, or `broken` when any hand opened after the clock ran out.
    pub verdict: &'static str,
    pub breaks: Vec<ClockBreak>,
    pub overrides: Vec<RotationOverride>,
}

/// A TPPP's banks at a table (or in the room).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct TpppActivity {
    pub name: String,
    pub company: String,
    pub badge: String,
    pub banks: u64,
    pub banked: Money,
    pub net: Money,
}

fn parse(at: &str) -> Option<chrono::DateTime<chrono::Utc>> {
    chrono::DateTime::parse_from_rfc3339(at)
        .ok()
        .map(|t| t.with_timezone(&chrono::Utc))
}

/// The clock replayed over one table's `hands` (any order) with its
/// `overrides`: each hand is checked against the hands before it, as the
/// store checked it when it opened. The range's first hands see no hand
/// from before the range.
pub fn compliance(
    rule: RotationRule,
    hands: &[&ReportHand],
    overrides: &[RotationOverride],
    tppps: &[Tppp],
) -> Compliance {
    let mut timed: Vec<(chrono::DateTime<chrono::Utc>, &ReportHand)> = hands
        .iter()
        .filter(|h| h.status != HandStatus::Voided)
        .filter_map(|h| parse(&h.opened_at).map(|t| (t, *h)))
        .collect();
    timed.sort_by(|a, b| a.0.cmp(&b.0).then_with(|| a.1.number.cmp(&b.1.number)));
    let mut times: Vec<_> = overrides
        .iter()
        .filter_map(|o| parse(&o.stamp.at))
        .collect();
    times.sort();
    let names: Vec<String> = tppps.iter().map(|t| t.name.clone()).collect();
    let lookback = rule.lookback();
    let mut breaks = Vec::new();
    for (i, (at, hand)) in timed.iter().enumerate() {
        let first = timed[..i].partition_point(|(t, _)| *t < *at - lookback);
        let facts = ClockFacts {
            hands: timed[first..i]
                .iter()
                .map(|(t, h)| RecentHand {
                    opened_at: *t,
                    pd: h.pd.clone(),
                })
                .collect(),
            override_at: times.iter().rev().find(|t| **t <= *at).copied(),
            tppps: names.clone(),
        };
        let clock = Clock::at(rule, &facts, *at);
        if clock.state() == ClockState::Expired {
            breaks.push(ClockBreak {
                number: hand.number,
                opened_at: hand.opened_at.clone(),
                ran_out_at: clock.deadline.map(|d| d.to_rfc3339()).unwrap_or_default(),
            });
        }
    }
    Compliance {
        minutes: rule.minutes,
        min_other_players: rule.min_other,
        verdict: if breaks.is_empty() {
            "compliant"
        } else {
            "broken"
        },
        breaks,
        overrides: overrides.to_vec(),
    }
}

/// Each registered TPPP who banked any of `hands`, with their banks.
pub fn tppp_activity(hands: &[&ReportHand], tppps: &[Tppp]) -> Vec<TpppActivity> {
    let mut out: Vec<TpppActivity> = Vec::new();
    for h in hands {
        let Some(pd) = &h.pd else { continue };
        let Some(t) = tppps.iter().find(|t| name_key(&t.name) == name_key(pd)) else {
            continue;
        };
        let i = match out.iter().position(|a| a.name == t.name) {
            Some(i) => i,
            None => {
                out.push(TpppActivity {
                    name: t.name.clone(),
                    company: t.company.clone(),
                    badge: t.badge.clone(),
                    banks: 0,
                    banked: Money::ZERO,
                    net: Money::ZERO,
                });
                out.len() - 1
            }
        };
        let a = &mut out[i];
        a.banks += 1;
        if h.status == HandStatus::Closed {
            a.banked += h.bank.unwrap_or(Money::ZERO);
            a.net += h.pd_net.unwrap_or(Money::ZERO);
        }
    }
    out.sort_by(|a, b| a.name.cmp(&b.name));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::shifts::Stamp;

    fn hand(number: i64, minute: u32, pd: &str) -> ReportHand {
        ReportHand {
            id: format!("h{number}"),
            table: "CA-1".into(),
            number,
            training: false,
            opened_at: format!("2026-12-03T{:02}:{:02}:00Z", 10 + minute / 60, minute % 60),
            hour: String::new(),
            status: HandStatus::Closed,
            corrected: false,
            dealer: "dana".into(),
            pd: Some(pd.into()),
            bank: Some(Money::parse("500").unwrap()),
            wagered: Money::ZERO,
            collection: None,
            pd_net: Some(Money::parse("-20").unwrap()),
            settlement_seq: None,
        }
    }

    fn ted() -> Vec<Tppp> {
        vec![Tppp {
            name: "Ted".into(),
            company: "Acme".into(),
            badge: "TP-1".into(),
            registered: Stamp {
                at: String::new(),
                by: "sam".into(),
                seq: 1,
            },
        }]
    }

    const RULE: RotationRule = RotationRule {
        minutes: 40,
        min_other: 2,
    };

    #[test]
    fn a_hand_after_the_clock_ran_out_breaks_it_unless_overridden() {
        let hands = [
            hand(1, 0, "Ann"),
            hand(2, 10, "Ted"),
            hand(3, 30, "Ted"),
            hand(4, 45, "Ted"),
        ];
        let refs: Vec<&ReportHand> = hands.iter().collect();
        let c = compliance(RULE, &refs, &[], &ted());
        assert_eq!(c.verdict, "broken");
        assert_eq!(c.breaks.len(), 1);
        assert_eq!(c.breaks[0].number, 4);
        assert_eq!(c.breaks[0].ran_out_at, "2026-12-03T10:40:00+00:00");
        let o = RotationOverride {
            table: "CA-1".into(),
            reason: "restart".into(),
            stamp: Stamp {
                at: "2026-12-03T10:44:00Z".into(),
                by: "sam".into(),
                seq: 9,
            },
        };
        let c = compliance(RULE, &refs, std::slice::from_ref(&o), &ted());
        assert_eq!((c.verdict, c.overrides.len()), ("compliant", 1));
        let activity = tppp_activity(&refs, &ted());
        assert_eq!(activity.len(), 1);
        assert_eq!(
            (activity[0].banks, activity[0].banked.to_canonical()),
            (3, "1500.00".to_string())
        );
    }
}
