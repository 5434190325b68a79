//! What was changed in a hand after the fact, in words a supervisor reads
//! out: each correction of a seat and the void, with the seat's result and
//! the PD's net before and after. Derived from the events alone (each
//! change folded with and without it), so the hand page, the table page and
//! the record say the same thing and nothing is stored.

use super::hand_record::{HandEvent, HandState};
use super::outcome::Outcome;
use super::settle;

/// One change: which event, what it did, why, and the hand before and after.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Change {
    /// The event's place in the hand's stream (0 is `hand_opened`).
    pub event_index: usize,
    /// "Seat 5's result corrected" or "Voided".
    pub what: String,
    pub reason: String,
    /// "seat 5: PD wins; the PD's net +80.00".
    pub before: String,
    pub after: String,
}

/// Every correction and void in `events`, oldest first. A stream that does
/// not fold (it never reaches `audit verify` clean) gives no changes.
pub fn changes(events: &[HandEvent]) -> Vec<Change> {
    events
        .iter()
        .enumerate()
        .filter_map(|(i, event)| {
            let before = HandState::fold(&events[..i]).ok()?;
            let after = HandState::fold(&events[..=i]).ok()?;
            let (what, reason, seat) = match event {
                HandEvent::OutcomeCorrected { seat, reason, .. } => (
                    format!("Seat {seat}'s result corrected"),
                    reason,
                    Some(*seat),
                ),
                HandEvent::HandVoided { reason } => ("Voided".to_string(), reason, None),
                _ => return None,
            };
            Some(Change {
                event_index: i,
                what,
                reason: reason.clone(),
                before: state_words(&before, seat),
                after: match event {
                    HandEvent::HandVoided { .. } => "every bet returned".to_string(),
                    _ => state_words(&after, seat),
                },
            })
        })
        .collect()
}

/// The seat's result (when a seat is named) and the PD's net, as settled.
fn state_words(state: &HandState, seat: Option<i64>) -> String {
    let Some(settled) = state
        .scenario()
        .ok()
        .and_then(|sc| settle::settle(&sc).ok().map(|s| words(&s, seat)))
    else {
        return format!("{} (not settled)", state.phase().name());
    };
    settled
}

fn words(s: &settle::Settlement<'_>, seat: Option<i64>) -> String {
    let net = s.totals.pd.net;
    let sign = if net.is_negative() { "" } else { "+" };
    let pd = format!("the PD's net {sign}{}", net.to_display());
    let Some(seat) = seat else { return pd };
    let result = s
        .steps
        .iter()
        .find(|step| i64::from(step.seat) == seat)
        .map_or("no wager", |step| match step.outcome {
            Outcome::Player => "player wins",
            Outcome::Pd => "PD wins",
            Outcome::Push => "push",
        });
    format!("seat {seat}: {result}; {pd}")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    /// The seed's $200 example (PD Pat banks 200; Ann 60 at 4 loses, Bo 60
    /// at 5 and Cy 100 at 6 win), as recorded, then `more`.
    fn recorded(more: &[serde_json::Value]) -> Vec<HandEvent> {
        let dealer = [
            json!({"type": "hand_opened", "table": "T1", "dealer": "dana"}),
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "200"}),
            json!({"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": "60"}),
            json!({"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": "60"}),
            json!({"type": "wager_placed", "id": "w3", "seat": 6, "bettor": "Cy", "amount": "100"}),
            json!({"type": "action_set", "seat": 4}),
            json!({"type": "outcome_recorded", "seat": 4, "outcome": "pd"}),
            json!({"type": "outcome_recorded", "seat": 5, "outcome": "player"}),
            json!({"type": "outcome_recorded", "seat": 6, "outcome": "player"}),
            json!({"type": "steps_confirmed", "wagers": ["w1", "w2", "w3"]}),
            json!({"type": "hand_closed"}),
        ];
        let mut state = None;
        let mut out = Vec::new();
        for value in dealer.iter().chain(more) {
            let event: HandEvent = serde_json::from_value(value.clone()).unwrap();
            let (next, rec) = HandState::apply(state.take(), &event).unwrap();
            state = Some(next);
            out.push(rec.unwrap_or(event));
        }
        out
    }

    #[test]
    fn each_correction_and_the_void_say_what_changed() {
        let correct = |seat: i64, outcome: &str, reason: &str| json!({"type": "outcome_corrected", "seat": seat, "outcome": outcome, "reason": reason});
        let cases = [
            ("a closed hand: nothing changed", recorded(&[]), vec![]),
            (
                "Cy's win was a push",
                recorded(&[correct(6, "push", "the cards were misread")]),
                vec![(
                    11,
                    "Seat 6's result corrected",
                    "the cards were misread",
                    // Cy's 100 took the last 80 in action; a push takes none.
                    "seat 6: player wins; the PD's net \u{2212}80.00",
                    "seat 6: push; the PD's net +0.00",
                )],
            ),
            (
                "a correction, then the void",
                recorded(&[
                    correct(4, "player", "Ann's hand was better"),
                    json!({"type": "hand_voided", "reason": "misdeal found on review"}),
                ]),
                vec![
                    (
                        11,
                        "Seat 4's result corrected",
                        "Ann's hand was better",
                        "seat 4: PD wins; the PD's net \u{2212}80.00",
                        "seat 4: player wins; the PD's net \u{2212}200.00",
                    ),
                    (
                        12,
                        "Voided",
                        "misdeal found on review",
                        "the PD's net \u{2212}200.00",
                        "every bet returned",
                    ),
                ],
            ),
        ];
        for (name, events, want) in cases {
            let got: Vec<_> = changes(&events)
                .into_iter()
                .map(|c| (c.event_index, c.what, c.reason, c.before, c.after))
                .collect();
            let want: Vec<_> = want
                .into_iter()
                .map(|(i, w, r, b, a)| {
                    (
                        i,
                        w.to_string(),
                        r.to_string(),
                        b.to_string(),
                        a.to_string(),
                    )
                })
                .collect();
            assert_eq!(got, want, "{name}");
        }
    }
}
