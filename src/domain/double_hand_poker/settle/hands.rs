//! Hands → outcomes through the hand-rules engine: each seat with wagers is
//! decided against the PD's hand by [`setting::decide`] with the reference
//! house way. Cards are checked across the whole deal: a card in two seats'
//! hands is an error.

use serde::Serialize;

use super::error::SettleError;
use super::input::{HandInput, SeatMap, SetBy};
use super::limits::CARD_TEXT_CHARS_MAX;
use super::scenario::{Wager, seat_key};
use crate::cards::{self, Card, CardError};
use crate::double_hand_poker::action_dice::SEATS_MAX;
use crate::double_hand_poker::house_way::HouseWay;
use crate::double_hand_poker::options::RuleOptions;
use crate::double_hand_poker::outcome::Outcome;
use crate::double_hand_poker::setting::{self, SetHand};

/// Every hand of the deal in seat order, the PD's included.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct SeatHands {
    pub seats: Vec<SeatHand>,
}

/// One seat's hand and, for a player seat, its decision against the PD.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[schema(as = SettlementHand)]
pub struct SeatHand {
    pub seat: u8,
    /// `"pd"` for the PD's seat, else `"player"`.
    pub role: &'static str,
    /// The PD's name, or the seat's primary bettor.
    pub name: String,
    /// `"player"` when given as high/low, `"house"` when set by house way.
    pub set_by: &'static str,
    /// The house-way rule that set it, when set by house way.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub house_way_rule: Option<String>,
    /// The hand as set (canonical card text).
    pub high: String,
    pub low: String,
    /// The hand as set is fouled (high does not beat low).
    pub fouled: bool,
    /// The seat's outcome (`None` for the PD's seat).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<Outcome>,
    /// How the outcome was decided (fouls, resets, high and low compared).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
}

impl SeatHands {
    pub fn outcomes(&self) -> [Option<Outcome>; SEATS_MAX as usize + 1] {
        let mut out = [None; SEATS_MAX as usize + 1];
        for h in &self.seats {
            if let Some(slot) = out.get_mut(h.seat as usize) {
                *slot = h.outcome;
            }
        }
        out
    }

    /// The hand of one seat.
    pub fn seat(&self, seat: u8) -> Option<&SeatHand> {
        self.seats.iter().find(|h| h.seat == seat)
    }
}

/// A hand parsed from the input.
struct Parsed {
    seat: u8,
    hand: SetHand,
    house_way_rule: Option<String>,
}

/// The seats a deal is decided for.
#[derive(Debug, Clone, Copy)]
pub struct Seats {
    /// The PD's seat.
    pub pd: u8,
    /// The table's seat count.
    pub count: u8,
    /// Bit `s` set when seat `s` has wagers.
    pub with_wagers: u32,
    /// Bit `s` set for each seat that must be given as a hand (every seat
    /// with wagers, unless a hand's record gives some as outcomes).
    pub need: u32,
}

pub fn decide_seats(
    input: &SeatMap<HandInput>,
    at: Seats,
    wagers: &[Wager],
    pd_player: &str,
    options: &RuleOptions,
) -> Result<SeatHands, SettleError> {
    let Seats {
        pd: pd_seat,
        count: seats,
        with_wagers,
        need,
    } = at;
    let house_way = options
        .house_way()
        .map_err(|e| SettleError::invalid("options.house_way", e.to_string()))?;
    let mut parsed: Vec<Parsed> = Vec::with_capacity(input.0.len());
    for (key, h) in &input.0 {
        let seat = seat_key("hands", key, seats)?;
        let field = format!("hands.{key}");
        if seat != pd_seat && with_wagers & (1 << seat) == 0 {
            return Err(SettleError::invalid(
                field,
                format!(
                    "seat {seat} has no wagers, so its pile is out of play (is the seat number right?)"
                ),
            ));
        }
        parsed.push(parse_hand(&field, seat, h, options, house_way)?);
    }
    check_across_seats(&parsed)?;

    parsed.sort_by_key(|p| p.seat);
    let Some(pd) = parsed.iter().find(|p| p.seat == pd_seat) else {
        return Err(SettleError::MissingHand {
            seat: pd_seat,
            why: if need == with_wagers {
                "it is the PD's seat; every seat is decided against it"
            } else {
                "it is the PD's seat; a seat entered as cards is decided against it"
            },
        });
    };
    if let Some(s) =
        (1..=seats).find(|&s| need & (1 << s) != 0 && parsed.iter().all(|p| p.seat != s))
    {
        return Err(SettleError::MissingHand {
            seat: s,
            why: "the seat has wagers",
        });
    }

    let mut out = Vec::with_capacity(parsed.len());
    for p in &parsed {
        let is_pd = p.seat == pd_seat;
        let (outcome, explanation) = if is_pd {
            (None, None)
        } else {
            let d = setting::decide(&p.hand, &pd.hand, options, house_way);
            (Some(d.outcome), Some(d.explanation))
        };
        let name = if is_pd {
            pd_player.to_owned()
        } else {
            wagers
                .iter()
                .find(|w| w.seat == p.seat && !w.backline)
                .map(|w| w.bettor.clone())
                .unwrap_or_default()
        };
        out.push(SeatHand {
            seat: p.seat,
            role: if is_pd { "pd" } else { "player" },
            name,
            set_by: if p.house_way_rule.is_some() {
                "house"
            } else {
                "player"
            },
            house_way_rule: p.house_way_rule.clone(),
            high: cards::format_cards(&p.hand.high),
            low: cards::format_cards(&p.hand.low),
            fouled: p.hand.is_fouled(options),
            outcome,
            explanation,
        });
    }
    Ok(SeatHands { seats: out })
}

fn parse_hand(
    field: &str,
    seat: u8,
    h: &HandInput,
    options: &RuleOptions,
    house_way: &dyn HouseWay,
) -> Result<Parsed, SettleError> {
    let card_error = |e: CardError| SettleError::Cards {
        field: field.to_owned(),
        message: e.to_string(),
    };
    for (name, text) in [("high", &h.high), ("low", &h.low), ("cards", &h.cards)] {
        if let Some(t) = text {
            let chars = t.chars().count();
            if chars > CARD_TEXT_CHARS_MAX {
                return Err(SettleError::limit(
                    format!("{field}.{name}"),
                    format!("{chars} characters"),
                    format!("{CARD_TEXT_CHARS_MAX} characters"),
                ));
            }
        }
    }
    match (&h.high, &h.low, &h.cards, h.set) {
        (Some(high), Some(low), None, None) => {
            let hand = SetHand::parse(high, low, options).map_err(card_error)?;
            Ok(Parsed {
                seat,
                hand,
                house_way_rule: None,
            })
        }
        (None, None, Some(text), Some(SetBy::House)) => {
            let seven: [Card; 7] = cards::parse_exact::<7>(text, options).map_err(card_error)?;
            let setting = house_way.set(&seven, options);
            Ok(Parsed {
                seat,
                hand: setting.hand,
                house_way_rule: Some(setting.rule),
            })
        }
        (None, None, Some(_), None) => Err(SettleError::invalid(
            field,
            "seven \"cards\" need \"set\": \"house\" (or give the hand as \"high\" and \"low\")",
        )),
        _ => Err(SettleError::invalid(
            field,
            "give \"high\" (5 cards) and \"low\" (2 cards), or \"cards\" (7 cards) with \"set\": \"house\"",
        )),
    }
}

/// No card may be in two seats' hands.
fn check_across_seats(parsed: &[Parsed]) -> Result<(), SettleError> {
    let mut owner: [Option<u8>; 64] = [None; 64];
    for p in parsed {
        for c in p.hand.cards() {
            let slot = &mut owner[c.index() as usize % 64];
            if let Some(first) = *slot {
                return Err(SettleError::Cards {
                    field: "hands".into(),
                    message: format!(
                        "card \"{c}\" is in the hands of both seat {first} and seat {}",
                        p.seat
                    ),
                });
            }
            *slot = Some(p.seat);
        }
    }
    Ok(())
}
