//! A drill shown as the table shows it. A drill about a hand on the felt
//! is drawn as the live hand's table (the same [`TableDrawing`]): the
//! seats, the PD's bank, the wagers as chips, each seat's result coloured
//! as the results step colours it, the ACTION button — or the three dice
//! when the drill asks for the ACTION seat — with the question in one line
//! above it, its words folded beside it ("The table in words" and the
//! whole question). A drill about cards shows them as the set hands are
//! shown (deciding a position, the house way); a dice drill its dice as
//! the dice keys show them (10,000, poker dice). A collection drill is
//! the wager or the bank on the felt beside the posted schedule; a
//! Tripoley drill the board as the game draws it, each player's chips and
//! bets beside it and their cards below.

use crate::domain::cards::parse_cards;
use crate::domain::double_hand_poker::action_dice;
use crate::domain::double_hand_poker::hand_words::CardFace;
use crate::domain::double_hand_poker::outcome::Outcome;
use crate::domain::double_hand_poker::settle::ScenarioInput;
use crate::domain::training::kinds::{collection, tripoley};
use crate::domain::training::{Drill, Question};
use crate::domain::tripoley::Section;
use crate::web::double_hand_poker::drawing::{DrawnWager, TableDrawing};
use crate::web::svg::Svg;
use crate::web::tripoley::board::board_svg;

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
    /// The figures beside the drawing (a schedule, the players' chips).
    pub figures: Option<Figures>,
}

/// A small table beside a drawing: each row a name, then its figures
/// (right-aligned).
pub(super) struct Figures {
    pub caption: &'static str,
    pub head: Vec<&'static str>,
    pub rows: Vec<(String, Vec<String>)>,
}

impl DrillTable {
    fn drawn(svg: Svg, ask: &'static str) -> DrillTable {
        DrillTable {
            svg,
            ask,
            dice: None,
            seat_keys: Vec::new(),
            figures: None,
        }
    }
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
                figures: None,
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
        Question::Collection(q) => return Some(collection_table(q)),
        Question::Tripoley(q) => return Some(tripoley_table(&q.round)),
        _ => return None,
    };
    Some(DrillTable::drawn(scenario_drawing(scenario).svg(), ask))
}

/// A collection drill: the wager on seat 4 or the PD's bank on the felt,
/// the posted schedule beside it.
fn collection_table(q: &collection::Question) -> DrillTable {
    let wager = q.of == "wager";
    let drawing = TableDrawing {
        seats: 7,
        pd_seat: Some(1),
        pd_player: Some("PD"),
        bank: (!wager).then(|| q.amount.to_display()),
        wagers: if wager {
            vec![DrawnWager {
                seat: 4,
                bettor: "Player".into(),
                amount: q.amount,
                backline: false,
            }]
        } else {
            Vec::new()
        },
        ..TableDrawing::default()
    };
    let ask = if wager {
        "What is the collection on this wager?"
    } else {
        "What is the collection on the PD's bank?"
    };
    let rows = q
        .schedule
        .iter()
        .map(|b| {
            let bracket = format!("{} to {}", b.from.to_display(), b.to.to_display());
            (bracket, vec![b.fee.to_display()])
        })
        .collect();
    DrillTable {
        figures: Some(Figures {
            caption: if wager {
                "The posted player schedule"
            } else {
                "The posted bank schedule"
            },
            head: vec!["Amount", "Collection"],
            rows,
        }),
        ..DrillTable::drawn(drawing.svg(), ask)
    }
}

/// A Tripoley drill: the board carried over, each player's chips, bets
/// in the Pot and cards left when Michigan ends beside it.
fn tripoley_table(r: &tripoley::Round) -> DrillTable {
    let board: Vec<u64> = Section::ALL
        .iter()
        .map(|s| r.board.get(s.key()).copied().unwrap_or(0))
        .collect();
    let svg = board_svg("drill-board", "On the board before the antes", &board);
    let rows = r
        .chips
        .0
        .iter()
        .map(|(name, chips)| {
            let mut who = name.clone();
            if *name == r.dealer {
                who.push_str(" (deals)");
            }
            if r.poker.folded.contains(name) {
                who.push_str(" (folds)");
            }
            if *name == r.michigan.out {
                who.push_str(" (out first)");
            }
            let figure = |n: Option<&u64>| n.map_or("—".into(), u64::to_string);
            let figures = vec![
                chips.to_string(),
                figure(r.poker.contributions.get(name)),
                figure(r.michigan.cards_left.get(name)),
            ];
            (who, figures)
        })
        .collect();
    DrillTable {
        figures: Some(Figures {
            caption: "The players: chips before the round, bet in the Pot, cards left when Michigan ends",
            head: vec!["Player", "Chips", "Bet", "Cards left"],
            rows,
        }),
        ..DrillTable::drawn(svg, "What is each player's net in chips for the round?")
    }
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
        Question::Tripoley(q) => {
            let r = &q.round;
            let hand = |name: &str| r.hands.get(name).map_or("", String::as_str);
            let mut rows: Vec<_> = r
                .players
                .iter()
                .map(|name| row(&format!("{name}'s hand"), hand(name)))
                .collect();
            rows.push(row("The spare hand", hand("spare")));
            rows.extend(
                r.poker
                    .shown
                    .0
                    .iter()
                    .map(|(name, cards)| row(&format!("{name} shows"), cards)),
            );
            rows
        }
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
