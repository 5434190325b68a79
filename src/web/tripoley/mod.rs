//! Tripoley at the table. /tripoley lists games and starts one (players,
//! chips each, chip value, profile, ante, bet limit); /tripoley/{id} keeps
//! it: the balances in chips and money and the board, both as the steps
//! recorded so far leave them, the board before the round beside it; the
//! last round's steps as sentences the dealer reads aloud, the history of
//! rounds, and the next round entered in guided steps (1. the deal, with
//! each player's money cards, 8-9-10 and best five shown on "Check the
//! deal"; 2. the spare hand, classic only; 3. the poker result; 4. the
//! Michigan result) then "Pay out", which records it. The end of the game
//! is the last five-card hands. A round may instead be kept one screen per
//! step (`steps.rs`: ante, deal, spare, money cards, the betting action by
//! action, showdown, the Michigan card by card or as a result), each step
//! one audit record. Every action is recorded with the game's row; refused
//! input is shown beside the form, nothing recorded.

use askama::Template;
use axum::Router;
use axum::response::{IntoResponse, Response};
use rust_decimal::Decimal;
use serde_json::Value;

use crate::domain::common::field_error::{AsFieldError, FieldError};
use crate::domain::common::money::Money;
use crate::domain::staff::allows;
use crate::domain::tripoley::game::{GameSetup, RoundEntry, TripoleyGame};
use crate::domain::tripoley::{Profile, TripoleyError};
use crate::store::tripoley::{StoredGame, TripoleyAction};
use crate::web::double_hand_poker::play::forms::Fields;
use crate::web::error::internal;
use crate::web::kept_games::{self, GamesList, KEEP, KeptPages, Refusal};
use crate::web::staff::page;
use crate::web::svg::Svg;
use crate::web::time::{When, when};
use crate::web::{AppState, PageContext, Staff, Typed};

pub(super) mod api;
pub(crate) mod board;
mod index;
mod readings;
mod steps;

use board::{board_of, board_svg};
use readings::{HandReading, readings};

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
        error: Option<Refusal>,
    ) -> Response {
        render(staff, stored, typed, Vec::new(), error)
    }

    /// The action of the game page's forms; "check" and the deal read back
    /// answer with the page, recording nothing. A step or a round is first
    /// checked by the core against the game the page shows, so a refusal
    /// names its field and is shown beside it (a stale page is left to the
    /// store's version check: 409).
    fn action_of(
        staff: &Staff,
        current: &StoredGame,
        fields: &Fields,
        typed: &[(String, String)],
    ) -> Result<TripoleyAction, Box<Response>> {
        let refuse = |e: FieldError| {
            let refusal = Refusal::of(e);
            Box::new(render(
                staff,
                current,
                typed.to_vec(),
                Vec::new(),
                Some(refusal),
            ))
        };
        let game = &current.game;
        let fresh = fields.get("version").trim().parse() == Ok(current.version);
        let checked = |e: TripoleyError| match e.field_error() {
            Some(fe) => refuse(fe),
            None => Box::new(internal(e)),
        };
        let action = match fields.get("intent") {
            "check" | "round" => {
                let entry = round_entry(game, fields).map_err(refuse)?;
                let out = if fresh || fields.get("intent") == "check" {
                    Some(game.apply_round(&entry).map_err(checked)?.1)
                } else {
                    None
                };
                if let (Some(out), "check") = (out, fields.get("intent")) {
                    // Step 1–4 checked by the engine, nothing recorded.
                    let said = out.outcome.steps.iter().map(|s| s.explanation.clone());
                    return Err(Box::new(render(
                        staff,
                        current,
                        typed.to_vec(),
                        said.collect(),
                        None,
                    )));
                }
                TripoleyAction::Round(entry)
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
            "step" => {
                let step = steps::step_of(game, fields).map_err(refuse)?;
                if fresh {
                    game.apply_step(&step).map_err(checked)?;
                }
                TripoleyAction::Step(step)
            }
            "final" => TripoleyAction::Final(final_hands(game, fields)),
            other => {
                return Err(refuse(FieldError::new(
                    "intent",
                    format!("\"{other}\" is not an action of this game"),
                )));
            }
        };
        Ok(action)
    }
}

/// What every refusal on the game page ends with.
const NOTHING_RECORDED: &str = ". Nothing was recorded.";

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
    /// When the game was started, on the cardroom's clock.
    started: When,
    board_before: Svg,
    board_after: Svg,
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
    /// A refusal above the form that was sent ("field: message. Nothing
    /// was recorded."), when its field is not shown beside an input.
    error: String,
    /// The refusal sent by the step form (else by another form).
    error_in_step: bool,
    /// A refusal beside its input: the input's name and the message.
    beside: (String, String),
}

impl GamePage<'_> {
    /// The refusal's message when the step form sent it about the input
    /// named `control`, else nothing.
    fn step_error_on(&self, control: &str) -> &str {
        if self.error_in_step && self.beside.0 == control {
            &self.beside.1
        } else {
            ""
        }
    }

    /// The id of the input the refusal is beside (for the error summary):
    /// the step form's are `step_…` (a Michigan result's `result_…`).
    fn beside_id(&self) -> String {
        let control = &self.beside.0;
        match (self.error_in_step, control.starts_with("left_")) {
            (true, true) => format!("result_{control}"),
            (true, false) => format!("step_{control}"),
            (false, _) => control.clone(),
        }
    }

    /// The same for the whole-round form.
    fn round_error_on(&self, control: &str) -> &str {
        if !self.error_in_step && self.beside.0 == control {
            &self.beside.1
        } else {
            ""
        }
    }
}

fn money(value: Money, chips: u64) -> String {
    Money::from_decimal(value.as_decimal() * Decimal::from(chips)).to_display()
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

/// Each seat's line: its chips as the round in progress leaves them and
/// their money, its net since the first round, whether it plays the round.
fn seat_rows(game: &TripoleyGame, chips_now: &[u64]) -> Vec<SeatRow> {
    game.players
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let chips = chips_now[seat];
            let began = game
                .rounds
                .first()
                .and_then(|r| r.input["chips"][name].as_u64())
                .unwrap_or(game.chips[seat]);
            SeatRow {
                seat,
                name: name.clone(),
                chips,
                money: money(game.chip_value, chips),
                net: chips as i64 - began as i64,
                in_round: game.chips[seat] >= game.ante * 9,
                dealer: seat == game.dealer,
            }
        })
        .collect()
}

/// The board before and after, side by side: during a round, the board it
/// began with and the board after its last recorded step (`now`, the
/// fold the balances come from); between rounds, before and after the last
/// round (none before the first); at the end, before and after the last
/// hand.
fn boards(game: &TripoleyGame, now: &[u64]) -> (Svg, Svg) {
    let next = game.rounds.len() + 1;
    let played = |caption: String, input: &Value| Some((caption, board_of(&input["board"])));
    let (before, after) = match (&game.last_hand, game.current.is_empty(), game.rounds.last()) {
        (Some(h), _, _) => (
            played("Before the last hand".into(), &h.input),
            "After the last hand".to_string(),
        ),
        (None, false, _) => (
            Some((
                format!("Before round {next} (dealer {})", game.dealer_name()),
                game.board.clone(),
            )),
            format!("Round {next} so far"),
        ),
        (None, true, Some(r)) => (
            played(
                format!("Before round {} (dealer {})", r.number, r.dealer),
                &r.input,
            ),
            format!("After round {}", r.number),
        ),
        (None, true, None) => (None, "The board".to_string()),
    };
    let before = before.map_or_else(Svg::default, |(caption, board)| {
        board_svg("board-before", &caption, &board)
    });
    (before, board_svg("board-after", &after, now))
}

/// Each round played: its number, dealer and every player's net.
fn history_rows(game: &TripoleyGame) -> Vec<HistoryRow> {
    game.rounds
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
        .collect()
}

fn render(
    staff: &Staff,
    stored: &StoredGame,
    typed: Vec<(String, String)>,
    preview: Vec<String>,
    error: Option<Refusal>,
) -> Response {
    let game = &stored.game;
    let progress = match game.progress() {
        Ok(progress) => progress,
        Err(e) => return internal(e),
    };
    // The balances and the board as the steps of the round in progress
    // leave them: one fold, so they add up to the game's total.
    let now = progress.now(game);
    let user = &staff.0.user;
    let rows = seat_rows(game, &now.chips);
    let last = game.rounds.last();
    let (board_before, board_after) = boards(game, &now.board);
    let history = history_rows(game);
    let fields = Fields(typed.clone());
    let status = error.as_ref().map(|r| r.status);
    let steps = steps::view(game, &progress);
    let error_in_step = fields.get("intent") == "step";
    let (error, beside) = match error {
        Some(r) => match steps::control_of(game, error_in_step, steps.phase, &r.field) {
            Some(control) => {
                let message = format!("{}{NOTHING_RECORDED}", r.message);
                (String::new(), (control, message))
            }
            None if r.field.is_empty() => (r.message, Default::default()),
            None => {
                let message = format!("{}: {}{NOTHING_RECORDED}", r.field, r.message);
                (message, Default::default())
            }
        },
        None => Default::default(),
    };
    let body = page(&GamePage {
        ctx: PageContext::of(staff),
        stored,
        game,
        started: when(staff.1.zone, &stored.created_at),
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
        error,
        error_in_step,
        beside,
    });
    match status {
        Some(s) => (s, body).into_response(),
        None => body,
    }
}

/// A whole number typed into `name`, refused naming `field`.
fn whole(fields: &Fields, name: &str, field: &str) -> Result<Option<i64>, FieldError> {
    kept_games::whole_number(fields, name, field)
        .map_err(|(field, message)| FieldError::new(field, message))
}

/// The round as typed in steps 1–4.
fn round_entry(game: &TripoleyGame, fields: &Fields) -> Result<RoundEntry, FieldError> {
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
    entry.auction = steps::auction(fields)?;
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
