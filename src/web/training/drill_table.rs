//! A drill shown as the table shows it. A drill about a hand on the felt
//! is drawn as the live hand's table (the same [`TableDrawing`]): the
//! seats, the PD's bank, the wagers as chips, each seat's result coloured
//! as the results step colours it, the ACTION button — or the three dice
//! when the drill asks for the ACTION seat — with the question in one line
//! above it, its words folded beside it ("The table in words" and the
//! whole question). A drill about cards shows them as the set hands are
//! shown (deciding a position, the house way); a dice drill its dice as
//! the dice keys show them (10,000, poker dice).

use crate::domain::cards::parse_cards;
use crate::domain::double_hand_poker::action_dice;
use crate::domain::double_hand_poker::hand_words::CardFace;
use crate::domain::double_hand_poker::outcome::Outcome;
use crate::domain::double_hand_poker::settle::ScenarioInput;
use crate::domain::training::{Drill, Question};
use crate::web::double_hand_poker::drawing::{DrawnWager, TableDrawing};
use crate::web::svg::Svg;

/// A drill drawn as the table.
pub(super) struct DrillTable {
    pub svg: Svg,
    /// The question in one line.
    pub ask: &'static str,
    /// The dice to read the ACTION seat from, as thrown.
    pub dice: Option<[u8; 3]>,
    /// The seats an answer of one seat may name, in order (the ACTION
    /// seat drill: every seat); empty for the others.
    pub seat_keys: Vec<i64>,
}

/// The drill drawn as the table, for the kinds about a hand on the felt.
pub(super) fn drill_table(drill: &Drill) -> Option<DrillTable> {
    let (scenario, ask) = match &drill.question {
        Question::ActionSeat(q) => {
            let (seats, pd) = (i64::from(q.seats), i64::from(q.pd_seat));
            let svg = TableDrawing {
                seats,
                pd_seat: Some(pd),
                pd_player: Some("PD"),
                ..TableDrawing::default()
            }
            .svg();
            return Some(DrillTable {
                svg,
                ask: "The dice are thrown: which seat gets the ACTION button?",
                dice: Some(q.dice),
                // The PD's own seat takes the first pile on 1, 8 and 15.
                seat_keys: (1..=seats).collect(),
            });
        }
        Question::ActionOrder(q) => (&q.scenario, "In what order do these wagers settle?"),
        Question::SettleStep(q) => (
            &q.scenario,
            "Settle the next wager against the PD's money in action.",
        ),
        Question::SettleAll(q) => (
            &q.scenario,
            "Settle every wager: each player's net and what returns to the PD.",
        ),
        _ => return None,
    };
    Some(DrillTable {
        svg: scenario_drawing(scenario).svg(),
        ask,
        dice: None,
        seat_keys: Vec::new(),
    })
}

/// A settle-contract scenario as the live hand draws it after the results.
fn scenario_drawing(s: &ScenarioInput) -> TableDrawing<'_> {
    let seats = s.seats.unwrap_or(7);
    let action_seat = s.action.seat.or_else(|| {
        let dice: [i64; 3] = s.action.dice.as_deref()?.try_into().ok()?;
        action_dice::action_seat(dice, s.pd.seat, seats)
            .ok()
            .map(i64::from)
    });
    let results = s
        .outcomes
        .iter()
        .flat_map(|m| m.0.iter())
        .filter_map(|(seat, o)| {
            let word = match o {
                Outcome::Player => "player",
                Outcome::Pd => "pd",
                Outcome::Push => "push",
            };
            seat.parse().ok().map(|seat| (seat, word))
        })
        .collect();
    TableDrawing {
        seats,
        pd_seat: Some(s.pd.seat),
        pd_player: Some(s.pd.player.as_str()),
        bank: Some(s.pd.bank.to_display()),
        action_seat,
        wagers: s.wagers.iter().map(DrawnWager::from).collect(),
        results,
        ..TableDrawing::default()
    }
}

/// A row of a drill's cards or dice: what it is, and its faces.
pub(super) struct FacesRow<F> {
    pub label: String,
    pub faces: Vec<F>,
}

/// The cards a drill about cards shows, row by row.
pub(super) fn drill_cards(drill: &Drill) -> Vec<FacesRow<CardFace>> {
    let row = |label: &str, text: &str| FacesRow {
        label: label.to_string(),
        faces: parse_cards(text)
            .map(|cards| cards.into_iter().map(CardFace::of).collect())
            .unwrap_or_default(),
    };
    match &drill.question {
        Question::Decide(q) => vec![
            row("The player's high five", &q.player.high),
            row("The player's low two", &q.player.low),
            row("The PD's high five", &q.pd.high),
            row("The PD's low two", &q.pd.low),
        ],
        Question::HouseWay(q) => vec![row("The seven cards", &q.cards)],
        _ => Vec::new(),
    }
}

/// The dice a dice drill shows, row by row (each face as written).
pub(super) fn drill_dice(drill: &Drill) -> Vec<FacesRow<String>> {
    let faces = |dice: &[u8]| dice.iter().map(u8::to_string).collect();
    match &drill.question {
        Question::TenThousand(q) => {
            let mut rows = vec![FacesRow {
                label: "The throw".into(),
                faces: faces(&q.dice),
            }];
            rows.extend(q.keep.as_deref().map(|keep| FacesRow {
                label: "Kept".into(),
                faces: faces(keep),
            }));
            rows
        }
        Question::PokerDice(q) => q
            .hands
            .iter()
            .enumerate()
            .map(|(i, hand)| FacesRow {
                label: format!("Hand {}", i + 1),
                faces: hand.split_whitespace().map(str::to_string).collect(),
            })
            .collect(),
        _ => Vec::new(),
    }
}
