//! The guided Lucky Chances hand: one screen per step (PD, wagers, dice,
//! results, settlement walkthrough, close), each form one command through
//! the hand writer — so one audit record per event, a stale page refused
//! (409) and a double-submitted form settled once (its idempotency key is
//! rendered into the form). After close only a supervisor voids or corrects.

mod again;
mod ask;
mod changes;
mod dice_pad;
pub(in crate::web) mod forms;
mod keypad;
mod lines;
mod notes;
mod pd;
mod replay;
mod status;
mod view;
mod words;

use crate::web::{PageError, PageResult};
use askama::Template;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};
use axum::routing::get;
use serde::Deserialize;

use super::drawing::SeatLink;
use super::tables::{may_play, require_play};
use crate::domain::double_hand_poker::table::{PdProposal, TableConfig};
use crate::domain::staff::{Action, allows};
use crate::store::double_hand_poker::hands::{self, HandCommand};
use crate::store::double_hand_poker::tables;
use crate::web::error::command_status;
use crate::web::staff::page;
use crate::web::{ApiError, AppState, PageContext, PagePost, Staff, Typed};
use ask::{Refusal, ask_first};
use forms::{Fields, events_of};
use view::{self as v, Loaded, Step, StepRow, Summary, WagerRow};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/hands/{id}", get(show).post(act))
        .route("/hands/{id}/record", get(lines::record))
        .route("/hands/{id}/replay", get(replay::replay))
}

async fn load(state: &AppState, id: &str) -> Result<Loaded, PageError> {
    let view = match hands::get(&state.db, id).await {
        Ok(Some(view)) => view,
        Ok(None) => {
            return Err(ApiError::NotFound(format!("hand: no hand \"{id}\"")).into());
        }
        Err(e) => return Err(e.into()),
    };
    Loaded::from_view(view).map_err(PageError::internal)
}

#[derive(Deserialize, Default)]
struct ShowQuery {
    step: Option<String>,
    mode: Option<String>,
    /// PD screen: the refusals so far (`SEAT:NAME, …`), before the PD is set.
    declined: Option<String>,
    /// Wagers screen: the seat tapped on the drawing.
    seat: Option<i64>,
    /// Wagers screen: `dice` after several wagers were entered at once
    /// (the dice are what comes next), else the next wager's seat.
    focus: Option<String>,
}

#[derive(Template)]
#[template(path = "double_hand_poker/hand.html")]
struct HandPage<'a> {
    ctx: PageContext,
    /// The table's PD rotation clock, while the PD is chosen (docs/shifts.md).
    rotation: Option<super::table_floor::ClockView>,
    id: &'a str,
    table: &'a str,
    /// The hand's number at its table.
    number: i64,
    dealer: &'a str,
    /// A practice hand at a training table.
    training: bool,
    version: i64,
    step: &'static str,
    step_number: u8,
    /// The hand's state beside its title.
    status_tag: status::StatusTag,
    idempotency_key: String,
    svg: crate::web::svg::Svg,
    pd: Option<(i64, String, String)>,
    proposal: String,
    proposed: Option<PdProposal>,
    /// PD screen: the refusals so far, and with the proposed player's added.
    declined: String,
    declined_next: String,
    /// The set PD's option and refusals, in words.
    pd_choice: String,
    wagers: Vec<WagerRow>,
    seats: Vec<i64>,
    cards_mode: bool,
    steps: Vec<StepRow>,
    next_step: Option<usize>,
    pending: String,
    summary: Option<Summary>,
    can_play: bool,
    can_correct: bool,
    error_field: String,
    error: String,
    typed: Vec<(String, String)>,
    /// Wagers step: the last closed hand's wagers, offered again.
    again: Vec<again::AgainRow>,
    /// Wagers step: the bettors seen at the chosen seat, then the table.
    bettors: Vec<String>,
    /// Wagers step: the seat tapped on the drawing, else empty.
    seat_chosen: String,
    /// Wagers step: the dice have the focus, not the next wager.
    focus_dice: bool,
    /// The dice form: the ACTION seat of each sum (`dice_pad.rs`).
    seats_by_sum: String,
    /// Under the drawing while bets are taken: the wagers against the bank.
    running: String,
    /// Results step: the bank's cover of each wager, in ACTION order.
    covers: Vec<crate::domain::double_hand_poker::coverage::Cover>,
    /// A push may cover more of the wagers after it (the bank stays in action).
    covers_push_note: bool,
    /// The wager amount's keypad: its quick amounts (`keypad.rs`).
    quick_amounts: String,
    /// The PD's bank's keypad: its quick amounts.
    bank_amounts: String,
    /// Corrections and the void, with who and when.
    changes: Vec<changes::ChangeRow>,
    /// The notes on the hand, and whether this user may add one.
    notes: Vec<notes::NoteRow>,
    can_note: bool,
    /// A closed hand's "Start the next hand" form: its own key (it opens a
    /// hand, not an event of this one).
    next_hand_key: String,
    /// Every seat's hands in words (`hand/hands_shown.html`).
    hands_shown: Vec<crate::domain::double_hand_poker::hand_words::SeatWords>,
    /// The house-way preview's link, under the hand's card rules.
    house_way_href: String,
    /// A wager that repeats one on its seat, asked about before recording
    /// ("Seat 3, Ann already has a 50.00 wager. Add a second one?").
    duplicate: String,
    /// A void posted, shown again to be confirmed.
    void_confirm: bool,
}

impl HandPage<'_> {
    /// What was typed into `name` of the form `step` (the supervisor's
    /// forms share names), else empty.
    fn typed_in(&self, step: &str, name: &str) -> String {
        if self.typed.value_or("step", "") == step {
            self.typed.value_or(name, "")
        } else {
            String::new()
        }
    }

    /// The refusal is about seat `seat` of the results form.
    fn seat_error(&self, seat: impl std::fmt::Display) -> bool {
        ["outcome", "cards", "high", "low"]
            .iter()
            .any(|p| self.error_field == format!("{p}_{seat}"))
    }

    /// Seat `seat`'s card inputs are shown open: cards asked for, typed,
    /// or refused.
    fn cards_open(&self, seat: impl std::fmt::Display) -> bool {
        self.cards_mode
            || ["cards", "high", "low"].iter().any(|p| {
                let name = format!("{p}_{seat}");
                !self.typed.value_or(&name, "").trim().is_empty() || self.error_field == name
            })
    }

    /// The PD form's seat: as typed, else the seat tapped on the drawing,
    /// else the one the rotation proposes.
    fn pd_seat_shown(&self) -> String {
        let proposed = self.proposed.as_ref().map(|p| p.seat.to_string());
        let fallback = match (self.seat_chosen.as_str(), proposed) {
            ("", Some(seat)) => seat,
            (chosen, _) => chosen.to_string(),
        };
        self.typed.value_or("seat", &fallback)
    }

    /// The PD form's player: as typed, else the proposed player when the
    /// seat is the proposal's (a seat tapped elsewhere starts blank).
    fn pd_player_shown(&self) -> String {
        let proposed = self
            .proposed
            .as_ref()
            .filter(|p| self.seat_chosen.is_empty() || self.seat_chosen == p.seat.to_string());
        let fallback = proposed.map_or("", |p| p.player.as_str());
        self.typed.value_or("player", fallback)
    }

    /// The PD's option as typed, else `bank_two` when the proposed PD banks
    /// the second of two hands; otherwise the dealer chooses.
    fn option_chosen(&self) -> String {
        let second = self.proposed.as_ref().is_some_and(|p| p.second_hand);
        self.typed
            .value_or("option", if second { "bank_two" } else { "" })
    }

    fn is_error(&self, name: &str) -> bool {
        self.error_field == name
    }

    /// Results step, nothing refused: the first thing to enter has the
    /// focus — the PD's seven cards when every seat's cards are asked for,
    /// else the first seat's result.
    fn focus_first(&self, seat: impl std::fmt::Display, cards: bool) -> bool {
        if !self.error.is_empty() || cards != self.cards_mode {
            return false;
        }
        let tapped = self.seat_chosen.parse::<i64>().ok();
        let first = match cards {
            true => self.pd.as_ref().map(|p| p.0),
            false => tapped
                .filter(|s| self.seats.contains(s))
                .or(self.seats.first().copied()),
        };
        first.is_some_and(|first| first.to_string() == seat.to_string())
    }

    /// Results step: why a seat tapped on the drawing has no result to
    /// choose (the same words `static/dice.js` says on a tap), else empty.
    fn seat_said(&self) -> String {
        let Ok(seat) = self.seat_chosen.parse::<i64>() else {
            return String::new();
        };
        if self.pd.as_ref().is_some_and(|p| p.0 == seat) {
            format!("Seat {seat} {PD_SEAT_SAID}")
        } else if !self.seats.contains(&seat) {
            format!("Seat {seat} {NO_WAGER_SAID}")
        } else {
            String::new()
        }
    }
}

/// A seat tapped on the results step that has no result to choose.
const NO_WAGER_SAID: &str = "has no wager: nothing to decide there.";
const PD_SEAT_SAID: &str = "is the PD: every other seat is decided against it.";

/// The PD and wagers steps choose a seat by a tap on the drawing; the
/// results step cycles a seat's result by a tap (`static/dice.js`).
fn seat_link(step: Step, page: &str) -> Option<SeatLink<'_>> {
    let form = match step {
        Step::Pd => "pd-form",
        Step::Wagers => "wager-form",
        Step::Results => "results-form",
        _ => return None,
    };
    Some(SeatLink { page, form })
}

async fn table_of(state: &AppState, name: &str) -> Result<Option<TableConfig>, PageError> {
    Ok(tables::get(&state.db, name).await?.map(|t| t.config))
}

async fn render(
    state: &AppState,
    staff: &Staff,
    loaded: &Loaded,
    query: &ShowQuery,
    refusal: Refusal,
) -> PageResult {
    let table = table_of(state, &loaded.state.table).await?;
    let step = loaded.step(query.step.as_deref());
    let (declined, proposed, declined_next) =
        pd::offer(state, loaded, table.as_ref(), query, &refusal, step).await;
    let steps = loaded
        .with_settlement(|s| v::step_rows(s, loaded))
        .unwrap_or_default();
    let (next_step, current_seat, in_action) = loaded.in_action(&steps);
    let pending = v::pending(&steps);
    let show_settlement = matches!(step, Step::Settle | Step::Close | Step::Closed);
    let can_play = may_play(state, staff, &loaded.state.table).await?;
    let hand_path = format!("/hands/{}", loaded.view.id);
    let svg = loaded.drawing(
        current_seat.filter(|_| step == Step::Settle),
        in_action.as_deref().filter(|_| show_settlement),
        seat_link(step, &hand_path).filter(|_| can_play),
    );
    let summary = if matches!(step, Step::Close | Step::Closed) {
        loaded.with_settlement(v::summary)
    } else {
        None
    };
    let user = &staff.0.user;
    let offered = again::offered(state, loaded, query, step, can_play).await;
    let status = refusal.status;
    let rotation = match (&table, step == Step::Pd) {
        (Some(t), true) => super::table_floor::clock_view(state, t).await?,
        _ => None,
    };
    let body = page(&HandPage {
        ctx: PageContext::of(staff),
        rotation,
        id: &loaded.view.id,
        table: &loaded.state.table,
        number: loaded.view.number,
        dealer: &loaded.state.dealer,
        training: table.as_ref().is_some_and(|t| t.training),
        version: loaded.view.version,
        step: step.name(),
        step_number: step.number(),
        status_tag: status::status_tag(loaded),
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        svg,
        pd: loaded
            .state
            .pd()
            .map(|p| (p.seat, p.player.clone(), p.bank.to_display())),
        proposal: v::proposal_text(&proposed),
        proposed,
        declined,
        declined_next,
        pd_choice: pd::choice_text(loaded.state.pd_choice()),
        wagers: loaded.wager_rows(table.as_ref()),
        seats: loaded.seats_in_action_order(),
        cards_mode: offered.cards_mode,
        focus_dice: query.focus.as_deref() == Some("dice"),
        quick_amounts: keypad::quick_amounts(table.as_ref()),
        bank_amounts: keypad::bank_amounts(table.as_ref(), offered.last_bank),
        running: loaded.running_line(step),
        covers_push_note: !loaded.state.rules().push_consumes_action,
        covers: loaded.covers(step),
        seats_by_sum: dice_pad::of_hand(loaded),
        steps,
        next_step,
        pending,
        summary,
        can_play,
        can_correct: allows(user.role, Action::CorrectHands),
        error_field: refusal.field,
        error: refusal.message,
        typed: refusal.typed,
        again: offered.again,
        bettors: offered.bettors,
        seat_chosen: query.seat.map(|s| s.to_string()).unwrap_or_default(),
        changes: changes::rows(loaded, state.time_zone),
        notes: notes::rows(loaded, state.time_zone),
        can_note: allows(user.role, Action::AddNotes),
        next_hand_key: uuid::Uuid::new_v4().to_string(),
        hands_shown: loaded.hands_shown(),
        house_way_href: loaded.house_way_href(),
        duplicate: refusal.duplicate,
        void_confirm: refusal.void_confirm,
    });
    Ok(match status {
        Some(s) => (s, body).into_response(),
        None => body,
    })
}

async fn show(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(query): Query<ShowQuery>,
) -> PageResult {
    let loaded = load(&state, &id).await?;
    render(&state, &staff, &loaded, &query, Refusal::default()).await
}

async fn act(
    PagePost {
        state,
        id,
        staff,
        form,
    }: PagePost<Vec<(String, String)>>,
) -> PageResult {
    let fields = Fields(form);
    let loaded = load(&state, &id).await?;
    let step = fields.get("step").to_string();
    if matches!(step.as_str(), "void" | "correct") {
        staff.require_here(&state, Action::CorrectHands).await?;
    } else if step == "note" {
        staff.require_here(&state, Action::AddNotes).await?;
    } else {
        require_play(&state, &staff, &loaded.state.table).await?;
    }
    let table = table_of(&state, &loaded.state.table).await?;
    let query = ShowQuery {
        step: (step == "dice").then(|| "dice".to_string()),
        // A refused results form comes back in the mode it was sent in.
        mode: match (step.as_str(), fields.get("mode")) {
            (_, "cards") => Some("cards".to_string()),
            ("results", _) => Some("results".to_string()),
            _ => None,
        },
        declined: None,
        seat: None,
        focus: None,
    };
    let again = |field: String, message: String, status: StatusCode| Refusal {
        field,
        message,
        typed: fields.0.clone(),
        status: Some(status),
        ..Refusal::default()
    };
    let events = match events_of(&step, &fields, &loaded, table.as_ref()) {
        Ok(events) => events,
        Err((field, message)) => {
            let field = words::page_field(&step, &field);
            let message = words::capitalized(&message);
            let refusal = again(field, message, StatusCode::UNPROCESSABLE_ENTITY);
            return render(&state, &staff, &loaded, &query, refusal).await;
        }
    };
    if let Some(asked) = ask_first(&step, &fields, &loaded, &events) {
        let refusal = Refusal {
            typed: fields.0.clone(),
            ..asked
        };
        return render(&state, &staff, &loaded, &query, refusal).await;
    }
    let expected_version = fields.get("version").trim().parse::<u64>().ok();
    let command = HandCommand {
        idempotency_key: fields.get("idempotency_key").to_string(),
        expected_version,
        actor: staff.0.user.username.clone(),
        events,
    };
    match state.hand_writer.submit(Some(id.clone()), command).await {
        Ok(_) => {
            // Several wagers at once (typed as lines, or all of last
            // hand's again): the wagers are in, the dice are next.
            let several = fields.0.iter().filter(|(k, _)| k == "again").count() > 1;
            let next = if step == "lines" || (step == "again" && several) {
                format!("/hands/{id}?focus=dice")
            } else if matches!(step.as_str(), "wager" | "again" | "remove") {
                format!("/hands/{id}")
            } else if step == "note" {
                format!("/hands/{id}#notes")
            } else {
                format!("/hands/{id}#step")
            };
            Ok(Redirect::to(&next).into_response())
        }
        Err(e) => {
            let status = match command_status(&e) {
                s @ (StatusCode::CONFLICT | StatusCode::UNPROCESSABLE_ENTITY) => s,
                _ => return Err(PageError::internal(e)),
            };
            let loaded = load(&state, &id).await?;
            let (field, mut message) = words::refused(&e, status, &loaded, &step);
            if step == "lines" {
                message = words::on_line(&e, fields.get("wager_lines"), message);
            }
            render(
                &state,
                &staff,
                &loaded,
                &query,
                again(field, message, status),
            )
            .await
        }
    }
}
