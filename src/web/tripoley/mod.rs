//! Tripoley at the table. /tripoley lists games and starts one (players,
//! chips each, chip value, profile, ante, bet limit); /tripoley/{id} keeps
//! it: the balances in chips and money, the board drawn before and after
//! the last round, the last round's steps as sentences the dealer reads
//! aloud, the history of rounds, and the next round entered in guided steps
//! (1. the deal, with each player's money cards, 8-9-10 and best five shown
//! on "Check the deal"; 2. the spare hand, classic only; 3. the poker
//! result; 4. the Michigan result) then "Pay out", which records it. The
//! end of the game is the last five-card hands. A round may instead be kept
//! one screen per step (`steps.rs`: ante, deal, spare, money cards, the
//! betting action by action, showdown, the Michigan card by card or as a
//! result), each step one audit record. Every action is recorded with the
//! game's row; refused input is shown beside the form, nothing recorded.

use askama::Template;
use axum::Router;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::domain::cards::{Card, Rank, Suit, format_cards, parse_cards};
use crate::domain::common::money::Money;
use crate::domain::staff::allows;
use crate::domain::tripoley::game::{GameSetup, RoundEntry, TripoleyGame};
use crate::domain::tripoley::{Profile, best_five, eight_nine_ten_suits};
use crate::store::tripoley::{StoredGame, TripoleyAction};
use crate::web::double_hand_poker::play::forms::Fields;
use crate::web::error::internal;
use crate::web::kept_games::{self, GamesList, KEEP, KeptPages, refused};
use crate::web::staff::page;
use crate::web::{AppState, PageContext, Staff, Typed};

mod api;
mod board;
mod index;
mod steps;

use board::{board_of, board_svg};

/// The compute-only API (`api.rs`: a round and the end of the game): it
/// stores nothing; `web::router` puts it behind the signed-in reader check.
pub fn compute_router() -> Router<AppState> {
    api::router()
}

pub fn router() -> Router<AppState> {
    kept_games::router::<TripoleyGame>()
}

impl KeptPages for TripoleyGame {
    const PATH: &'static str = "/tripoley";
    const REFUSED: &'static str = ". Nothing was recorded.";

    fn new_game(fields: &Fields) -> Result<Self, (String, String)> {
        index::new_game(fields)
    }

    fn cells(stored: &StoredGame) -> Vec<String> {
        let game = &stored.game;
        let rounds = game.rounds.len().to_string();
        vec![game.players.join(", "), rounds, stored.status.clone()]
    }

    fn list_page(list: GamesList) -> Response {
        page(&index::ListPage { list })
    }

    fn game_page(
        staff: &Staff,
        stored: &StoredGame,
        typed: Vec<(String, String)>,
        error: Option<(StatusCode, String)>,
    ) -> Response {
        render(staff, stored, typed, Vec::new(), error)
    }

    /// The action of the game page's forms; "check" and the deal read back
    /// answer with the page, recording nothing.
    fn action_of(
        staff: &Staff,
        current: &StoredGame,
        fields: &Fields,
        typed: &[(String, String)],
    ) -> Result<TripoleyAction, Box<Response>> {
        let refuse = |message: String| Box::new(refused(staff, current, typed, message));
        let action = match fields.get("action") {
            "check" | "round" => {
                TripoleyAction::Round(round_entry(&current.game, fields).map_err(refuse)?)
            }
            "step" if fields.get("read") == "1" => {
                // The deal read back (money cards, 8-9-10, best five): nothing recorded.
                return Err(Box::new(render(
                    staff,
                    current,
                    typed.to_vec(),
                    Vec::new(),
                    None,
                )));
            }
            "step" => TripoleyAction::Step(steps::step_of(&current.game, fields).map_err(refuse)?),
            "final" => TripoleyAction::Final(final_hands(&current.game, fields)),
            other => {
                return Err(refuse(format!(
                    "action: \"{other}\" is not an action of this game"
                )));
            }
        };
        if fields.get("action") != "check" {
            return Ok(action);
        }
        // Step 1–4 checked by the engine, nothing recorded.
        let TripoleyAction::Round(entry) = &action else {
            return Err(Box::new(internal("check without a round")));
        };
        Err(Box::new(match current.game.apply_round(entry) {
            Ok((_, out)) => render(
                staff,
                current,
                typed.to_vec(),
                out.outcome
                    .steps
                    .iter()
                    .map(|s| s.explanation.clone())
                    .collect(),
                None,
            ),
            Err(e) if e.is_bad_input() => *refuse(e.to_string()),
            Err(e) => internal(e),
        }))
    }
}

/// A player's line in the balances and the round form.
struct SeatRow {
    seat: usize,
    name: String,
    chips: u64,
    money: String,
    net: i64,
    /// Can ante this round.
    in_round: bool,
    dealer: bool,
}

/// What the tool reads from a typed hand (step 1).
struct HandReading {
    name: String,
    cards: String,
    money_cards: String,
    eight_nine_ten: String,
    best_five: String,
}

/// A played round in the history.
struct HistoryRow {
    number: usize,
    dealer: String,
    /// "Ann +12, Bo −3 …".
    nets: String,
}

#[derive(Template)]
#[template(path = "tripoley/game.html")]
struct GamePage<'a> {
    ctx: PageContext,
    stored: &'a StoredGame,
    game: &'a TripoleyGame,
    classic: bool,
    profile: &'static str,
    rows: Vec<SeatRow>,
    board_before: crate::web::svg::Svg,
    board_after: crate::web::svg::Svg,
    last_number: usize,
    last_steps: Vec<String>,
    last_hand_steps: Vec<String>,
    history: Vec<HistoryRow>,
    /// Step 1 read back: each typed hand's money cards, 8-9-10, best five.
    readings: Vec<HandReading>,
    /// "Check the deal": what paying out would do (nothing recorded).
    preview: Vec<String>,
    /// The round kept step by step: the screen of its next step.
    steps: steps::StepView,
    can_keep: bool,
    typed: Vec<(String, String)>,
    idempotency_key: String,
    error: String,
}

fn money(value: Money, chips: u64) -> String {
    Money::from_decimal(value.as_decimal() * Decimal::from(chips)).to_dollars()
}

fn explanations(result: &Value) -> Vec<String> {
    result["steps"]
        .as_array()
        .map(|steps| {
            steps
                .iter()
                .filter_map(|s| s["explanation"].as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Money cards, 8-9-10 and best five read from each typed hand.
fn readings(game: &TripoleyGame, fields: &Fields) -> Vec<HandReading> {
    let hearts = [
        (Rank::Ace, "Ace"),
        (Rank::King, "King"),
        (Rank::Queen, "Queen"),
        (Rank::Jack, "Jack"),
        (Rank::Ten, "Ten"),
    ];
    let mut names: Vec<(String, String)> = game
        .players
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), format!("hand_{i}")))
        .collect();
    names.push(("spare (dead hand)".into(), "hand_spare".into()));
    names
        .into_iter()
        .filter_map(|(name, field)| {
            let text = fields.get(&field).trim();
            if text.is_empty() {
                return None;
            }
            let Ok(cards) = parse_cards(text) else {
                return Some(HandReading {
                    name,
                    cards: text.to_string(),
                    money_cards: "cards not read".into(),
                    eight_nine_ten: String::new(),
                    best_five: String::new(),
                });
            };
            let has = |r: Rank| cards.contains(&Card::new(r, Suit::Hearts));
            let mut money: Vec<&str> = hearts
                .iter()
                .filter(|(r, _)| has(*r))
                .map(|(_, l)| *l)
                .collect();
            if has(Rank::King) && has(Rank::Queen) {
                money.push("King-Queen");
            }
            let suits: Vec<String> = eight_nine_ten_suits(&cards)
                .into_iter()
                .map(|s| format!("{s:?}").to_lowercase())
                .collect();
            Some(HandReading {
                name,
                cards: format!("{} ({} cards)", format_cards(&cards), cards.len()),
                money_cards: if money.is_empty() {
                    "none".into()
                } else {
                    money.join(", ")
                },
                eight_nine_ten: if suits.is_empty() {
                    "none".into()
                } else {
                    suits.join(", ")
                },
                best_five: best_five(&cards)
                    .map_or("fewer than five cards".into(), |h| h.describe()),
            })
        })
        .collect()
}

fn render(
    staff: &Staff,
    stored: &StoredGame,
    typed: Vec<(String, String)>,
    preview: Vec<String>,
    error: Option<(StatusCode, String)>,
) -> Response {
    let game = &stored.game;
    let user = &staff.0.user;
    let rows = game
        .players
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let chips = game.chips[seat];
            let began = game
                .rounds
                .first()
                .and_then(|r| r.input["chips"][name].as_u64())
                .unwrap_or(chips);
            SeatRow {
                seat,
                name: name.clone(),
                chips,
                money: money(game.chip_value, chips),
                net: chips as i64 - began as i64,
                in_round: chips >= game.ante * 9,
                dealer: seat == game.dealer,
            }
        })
        .collect();
    let last = game.rounds.last();
    let board_before = match last {
        Some(r) => board_svg(
            "board-before",
            &format!("Before round {} (dealer {})", r.number, r.dealer),
            &board_of(&r.input["board"]),
        ),
        None => crate::web::svg::Svg::default(),
    };
    let board_after = board_svg(
        "board-after",
        &match last {
            Some(r) => format!("After round {}", r.number),
            None => "The board".to_string(),
        },
        &game.board,
    );
    let history = game
        .rounds
        .iter()
        .map(|r| HistoryRow {
            number: r.number,
            dealer: r.dealer.clone(),
            nets: game
                .players
                .iter()
                .map(|p| {
                    let n = r.result["net"][p].as_i64().unwrap_or(0);
                    format!("{p} {n:+}")
                })
                .collect::<Vec<_>>()
                .join(", "),
        })
        .collect();
    let fields = Fields(typed.clone());
    let status = error.as_ref().map(|(s, _)| *s);
    let steps = match game.progress() {
        Ok(progress) => steps::view(game, &progress),
        Err(e) => return internal(e),
    };
    let body = page(&GamePage {
        ctx: PageContext::of(staff),
        stored,
        game,
        classic: game.profile == Profile::Classic,
        profile: match game.profile {
            Profile::Classic => "classic",
            Profile::Cadaco => "cadaco",
        },
        rows,
        board_before,
        board_after,
        last_number: last.map_or(0, |r| r.number),
        last_steps: last.map(|r| explanations(&r.result)).unwrap_or_default(),
        last_hand_steps: game
            .last_hand
            .as_ref()
            .map(|r| explanations(&r.result))
            .unwrap_or_default(),
        history,
        readings: readings(game, &fields),
        preview,
        steps,
        can_keep: allows(user.role, KEEP),
        typed,
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        error: error.map(|(_, m)| m).unwrap_or_default(),
    });
    match status {
        Some(s) => (s, body).into_response(),
        None => body,
    }
}

/// A whole number typed into `name`, refused as "field: message".
fn whole(fields: &Fields, name: &str, field: &str) -> Result<Option<i64>, String> {
    kept_games::whole_number(fields, name, field)
        .map_err(|(field, message)| format!("{field}: {message}"))
}

/// The round as typed in steps 1–4.
fn round_entry(game: &TripoleyGame, fields: &Fields) -> Result<RoundEntry, String> {
    let mut entry = RoundEntry {
        hands: steps::by_seat(game, fields, "hand_"),
        shown: steps::by_seat(game, fields, "shown_"),
        ..RoundEntry::default()
    };
    for (i, name) in game.players.iter().enumerate() {
        if let Some(c) = whole(
            fields,
            &format!("contrib_{i}"),
            &format!("poker.contributions.{name}"),
        )? {
            entry.contributions.push((name.clone(), c));
        }
        if !fields.get(&format!("fold_{i}")).is_empty() {
            entry.folded.push(name.clone());
        }
        if let Some(left) = whole(
            fields,
            &format!("left_{i}"),
            &format!("michigan.cards_left.{name}"),
        )? {
            entry.cards_left.push((name.clone(), left));
        }
    }
    if let Some(spare) = fields.filled("hand_spare") {
        entry.hands.push(("spare".into(), spare.to_string()));
    }
    entry.dealer_swaps = !fields.get("swap").is_empty();
    if let Some(buyer) = fields.filled("buyer") {
        let price = whole(fields, "price", "spare.auction.price")?
            .ok_or("spare.auction.price: required with a buyer")?;
        entry.auction = Some((buyer.to_string(), price));
    }
    match fields.get("out").trim() {
        "" => {}
        "blocked" => entry.blocked = true,
        name => entry.out = Some(name.to_string()),
    }
    Ok(entry)
}

fn final_hands(game: &TripoleyGame, fields: &Fields) -> Vec<(String, String)> {
    steps::by_seat(game, fields, "final_")
}
