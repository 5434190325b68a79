//! `GET /hands/{id}/replay?step=N`: the hand as it was after its event N —
//! the same fold over its first N events, drawn as the hand page draws it
//! (PD and bank, the wagers, the ACTION seat, the results, the bank still
//! in action during the settlement) — with that event's sentence, who and
//! when, and every event listed with corrections, voids and notes marked.
//! First / Previous / Next / Last are plain links; `static/replay.js` adds
//! the arrow keys, Home and End.

use askama::Template;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::IntoResponse;
use serde::Deserialize;

use super::lines::{EventLine, lines};
use super::view::{self as v, Step, StepRow, Summary};
use crate::domain::double_hand_poker::hand_words::SeatWords;
use crate::domain::staff::Action;
use crate::web::staff::page;
use crate::web::svg::Svg;
use crate::web::{AppState, PageContext, PageError, PageResult, Staff};

#[derive(Deserialize)]
pub(super) struct ReplayQuery {
    step: Option<String>,
}

#[derive(Template)]
#[template(path = "double_hand_poker/replay.html")]
struct ReplayPage<'a> {
    ctx: PageContext,
    id: &'a str,
    table: &'a str,
    number: i64,
    /// The hand's state now, beside its title.
    status_tag: super::status::StatusTag,
    step: usize,
    total: usize,
    prev: Option<usize>,
    next: Option<usize>,
    /// Every event, the one shown at `step`.
    lines: Vec<EventLine<'a>>,
    svg: Svg,
    /// The hand is voided at this step: its drawing greyed.
    voided: bool,
    /// The hand's state after the step, in the floor's words.
    phase: &'static str,
    /// The settlement's steps once every result is in, and which is next.
    steps: Vec<StepRow>,
    next_step: Option<usize>,
    summary: Option<Summary>,
    hands_shown: Vec<SeatWords>,
}

impl ReplayPage<'_> {
    fn line(&self) -> Option<&EventLine<'_>> {
        self.lines.get(self.step - 1)
    }
}

#[derive(Template)]
#[template(path = "double_hand_poker/replay_missing.html")]
struct MissingPage<'a> {
    ctx: PageContext,
    id: &'a str,
    table: &'a str,
    number: i64,
    message: String,
    total: usize,
}

/// The state's step in the floor's words.
fn phase_words(step: Step, corrected: bool) -> &'static str {
    match step {
        Step::Pd => "Waiting for the PD.",
        Step::Wagers | Step::Dice => "Taking wagers.",
        Step::Results => "Dealt: the results are being entered.",
        Step::Settle => "Dealt: the settlement is being paid.",
        Step::Close => "Settled: waiting to be closed.",
        Step::Closed if corrected => "Closed, corrected.",
        Step::Closed => "Closed.",
        Step::Voided => "Voided: every bet is returned.",
    }
}

pub(super) async fn replay(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
    Query(query): Query<ReplayQuery>,
) -> PageResult {
    staff
        .require(&state, Action::Read, &format!("/hands/{id}/replay"))
        .await?;
    let loaded = super::load(&state, &id).await?;
    let total = loaded.events.len();
    let asked = query.step.as_deref().map(str::trim).unwrap_or("1");
    let missing = |status: StatusCode, message: String| {
        let body = page(&MissingPage {
            ctx: PageContext::of(&staff),
            id: &loaded.view.id,
            table: &loaded.view.table,
            number: loaded.view.number,
            message,
            total,
        });
        (status, body).into_response()
    };
    let step = match asked.parse::<usize>() {
        Ok(n) if (1..=total).contains(&n) => n,
        Ok(n) => {
            let message = format!(
                "This hand has {total} events: there is no step {n}. The steps are 1 to {total}."
            );
            return Ok(missing(StatusCode::NOT_FOUND, message));
        }
        Err(_) => {
            let message = format!("\"{asked}\" is not a step: give a number from 1 to {total}.");
            return Ok(missing(StatusCode::UNPROCESSABLE_ENTITY, message));
        }
    };
    let after = loaded.after(step).map_err(PageError::internal)?;
    let shown = after.step(None);
    let steps = after
        .with_settlement(|s| v::step_rows(s, &after))
        .unwrap_or_default();
    let (next_step, current_seat, in_action) = after.in_action(&steps);
    let settling = matches!(shown, Step::Settle | Step::Close | Step::Closed);
    let svg = after.drawing(
        current_seat.filter(|_| shown == Step::Settle),
        in_action.as_deref().filter(|_| settling),
        None,
    );
    let summary = match shown {
        Step::Close | Step::Closed => after.with_settlement(v::summary),
        _ => None,
    };
    let corrected = after.state.corrections() > 0;
    Ok(page(&ReplayPage {
        ctx: PageContext::of(&staff),
        id: &loaded.view.id,
        table: &loaded.view.table,
        number: loaded.view.number,
        status_tag: super::status::status_tag(&loaded),
        step,
        total,
        prev: (step > 1).then(|| step - 1),
        next: (step < total).then(|| step + 1),
        lines: lines(&loaded, state.time_zone),
        svg,
        voided: shown == Step::Voided,
        phase: phase_words(shown, corrected),
        steps,
        next_step: next_step.filter(|_| shown == Step::Settle),
        summary,
        hands_shown: after.hands_shown(),
    }))
}
