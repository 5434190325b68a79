//! The trainee's pages: `/training` (start a practice run, a test or a
//! speed drill; what to practise next; their runs) and a run
//! (`/training/runs/{id}`): the drill on screen with its answer form, the
//! last answer graded with the correct answer and the explanation
//! (practice), the score and time and every answer reviewed at the end
//! (test, speed). An answer in the wrong shape comes back 422 with the
//! message beside its field and what was typed kept; nothing recorded.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};

use super::run_drills::{FieldView, Pending, Reviewed, pending_form, reviewed};
use super::{api, issue, load_progress, now_ms, seconds};
use crate::domain::common::field_error::FieldError;
use crate::domain::staff::{Action, allows};
use crate::domain::training::answer_form;
use crate::domain::training::run::{Mode, Refusal, Run, RunRequest};
use crate::domain::training::verdict::{NextDrill, TestVerdict, next_drill, test_verdict};
use crate::domain::training::{AnswerInput, Kind, Level};
use crate::store::training::{self, RunSummary, TrainingError};
use crate::web::staff::page as render;
use crate::web::time::{When, when};
use crate::web::{AppState, AtPath, CsrfForm, PageContext, PagePost, PageResult, Staff, Typed};

/// What each kind asks, for the start form.
pub(super) fn kind_words(kind: Kind) -> &'static str {
    match kind {
        Kind::ActionSeat => "ACTION seat: three dice and the PD's seat",
        Kind::ActionOrder => "Action order: the order wagers settle in",
        Kind::SettleStep => "One settlement step: the bank in action and the next wager",
        Kind::SettleAll => "A whole settlement: each net and what returns to the PD",
        Kind::Decide => "Deciding a position: player, PD or push",
        Kind::HouseWay => "House way: set seven cards",
        Kind::Collection => "Collection: the fee from the posted schedule",
        Kind::Tripoley => "Tripoley payouts: each player's net chips",
        Kind::TenThousand => "10,000: the points of a keep",
        Kind::PokerDice => "Poker dice: which hand wins",
    }
}

#[derive(Template)]
#[template(path = "training/home.html")]
struct Home {
    ctx: PageContext,
    kinds: Vec<(&'static str, &'static str)>,
    typed: Vec<(String, String)>,
    errors: Vec<FieldError>,
    next: Option<(&'static str, u8)>,
    runs: Vec<(RunSummary, When)>,
    can_review: bool,
    kind_default: &'static str,
    level_default: String,
    levels: [(&'static str, &'static str); 3],
    modes: [(&'static str, &'static str); 3],
}

impl Home {
    fn error(&self, field: &str) -> String {
        self.errors
            .iter()
            .find(|e| e.field() == field)
            .map_or(String::new(), |e| e.message().to_string())
    }

    /// The error summary's lines: each refused field's id and message.
    fn summary(&self) -> Vec<(String, String)> {
        self.errors
            .iter()
            .map(|e| (e.field().to_string(), e.message().to_string()))
            .collect()
    }

    fn typed(&self, field: &str, default: &str) -> String {
        self.typed.value_or(field, default)
    }
}

async fn home_page(
    state: &AppState,
    staff: &Staff,
    typed: Vec<(String, String)>,
    errors: Vec<FieldError>,
) -> Result<Home, crate::store::StoreError> {
    let me = &staff.0.user.username;
    let (progress, _) = load_progress(state, me).await?;
    let runs = training::runs_of(&state.db, me, 20)
        .await?
        .into_iter()
        .map(|r| {
            let at = when(state.time_zone, &r.started_at);
            (r, at)
        })
        .collect();
    Ok(Home {
        ctx: PageContext::of(staff),
        kinds: Kind::ALL
            .iter()
            .map(|k| (k.name(), kind_words(*k)))
            .collect(),
        typed,
        errors,
        next: progress.next.map(|(k, l)| (k.title(), l.get())),
        runs,
        can_review: allows(staff.0.user.role, Action::ReviewTraining),
        kind_default: progress.next.map_or("action-seat", |(k, _)| k.name()),
        level_default: progress.next.map_or(1, |(_, l)| l.get()).to_string(),
        levels: [("1", "1 · easy"), ("2", "2 · medium"), ("3", "3 · hard")],
        modes: [
            ("practice", "Practice"),
            ("test", "Test"),
            ("speed", "Speed drill (2 minutes)"),
        ],
    })
}

/// `GET /training`.
pub(super) async fn home(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::Drill).await?;
    Ok(render(
        &home_page(&state, &staff, Vec::new(), Vec::new()).await?,
    ))
}

/// `POST /training/runs`: `kind`, `level`, `mode`, `questions` → the run's
/// first drill (303), or the form again (422) with each refusal beside
/// its field.
pub(super) async fn start(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<Vec<(String, String)>>,
) -> PageResult {
    staff.require_here(&state, Action::Drill).await?;
    let number = |name: &str| -> Result<Option<i64>, FieldError> {
        let typed = form.value_or(name, "");
        let typed = typed.trim();
        if typed.is_empty() {
            return Ok(None);
        }
        typed.parse().map(Some).map_err(|_| {
            FieldError::new(name, format!("\"{typed}\" is not a whole number")).with_value(typed)
        })
    };
    // A test's number of questions: the field means nothing to the others.
    let mode = form.value_or("mode", "practice");
    let questions = if mode == "test" {
        number("questions")
    } else {
        Ok(None)
    };
    let parsed = match (number("level"), questions) {
        (Ok(level), Ok(questions)) => RunRequest::parse(
            Some(&form.value_or("kind", "")),
            level,
            Some(&mode),
            questions,
        ),
        (l, q) => Err([l.err(), q.err()].into_iter().flatten().collect()),
    };
    let req = match parsed {
        Ok(req) => req,
        Err(errors) => {
            let page = home_page(&state, &staff, form, errors).await?;
            return Ok((StatusCode::UNPROCESSABLE_ENTITY, render(&page)).into_response());
        }
    };
    let me = staff.0.user.username.clone();
    let run = training::start_run(
        &state.db,
        &state.audit_key,
        &me,
        req.mode,
        req.kind,
        req.level,
    )
    .await
    .map_err(api)?;
    issue(&state, &me, &run, None).await.map_err(api)?;
    Ok(Redirect::to(&format!("/training/runs/{run}")).into_response())
}

#[derive(Template)]
#[template(path = "training/run.html")]
struct RunPage {
    ctx: PageContext,
    run_id: String,
    mode: &'static str,
    kind: &'static str,
    kind_words: &'static str,
    /// The skill in words ("ACTION seat").
    kind_title: &'static str,
    level: u8,
    /// "Question 3 of 10", "Drill 4".
    counter: String,
    score: (usize, usize),
    /// The time so far: from the start to now while a drill waits, to
    /// the last answer once over.
    elapsed: String,
    elapsed_ms: i64,
    /// A speed drill's time left (none for the others).
    left_ms: Option<i64>,
    /// A drill is on screen: the clock runs (static/clock.js).
    running: bool,
    pending: Option<Pending>,
    /// The last answer, graded (practice shows it in full).
    last: Option<Reviewed>,
    is_mine: bool,
    over: bool,
    review: Vec<Reviewed>,
    refusal: String,
    /// A finished test: PASS or FAIL, and the next drill's start.
    verdict: Option<VerdictView>,
}

/// A finished test's verdict as the page shows it.
struct VerdictView {
    verdict: TestVerdict,
    /// The median time per answer ("8.4 s"), or "—".
    median: String,
    next: NextDrill,
    /// The next drill's button ("Practise ACTION seat at level 2 again").
    next_words: String,
}

impl RunPage {
    /// The seats a one-seat answer is tapped from (the ACTION seat drill).
    fn seat_keys(&self) -> &[i64] {
        self.pending
            .as_ref()
            .and_then(|p| p.table.as_ref())
            .map_or(&[], |t| t.seat_keys.as_slice())
    }

    /// The answers that were wrong, for a finished test's list.
    fn wrong(&self) -> Vec<&Reviewed> {
        self.review.iter().filter(|r| !r.right).collect()
    }
}

impl VerdictView {
    fn of(verdict: TestVerdict, kind: Kind, level: Level) -> VerdictView {
        let next = next_drill(&verdict, kind, level);
        let next_words = match (next.mode, next.level == level) {
            ("practice", _) => format!("Practise {} at level {level} again", kind.title()),
            (_, true) => format!("Take the level {level} test again"),
            _ => format!("Take the level {} test", next.level),
        };
        VerdictView {
            median: verdict.median_ms.map_or("—".into(), seconds),
            verdict,
            next,
            next_words,
        }
    }
}

async fn run_page(
    state: &AppState,
    staff: &Staff,
    run: &Run,
    typed: &[(String, String)],
    refusal: Option<&FieldError>,
    message: String,
) -> Result<RunPage, crate::store::StoreError> {
    let now = now_ms();
    let review = reviewed(state, run).await?;
    let pending = pending_form(run, typed, refusal)?;
    let over = run.is_over(now);
    // A speed drill past its time takes no answer: no form.
    let pending = pending.filter(|_| !over);
    let running = pending.is_some();
    let elapsed_ms = if running {
        now - run.started_ms
    } else {
        run.elapsed_ms()
    };
    let verdict = if over && run.mode.questions().is_some() {
        let mark = training::pass_marks(&state.db).await?.of(run.kind);
        test_verdict(run, &mark, now).map(|v| VerdictView::of(v, run.kind, run.level))
    } else {
        None
    };
    let counter = match run.mode {
        Mode::Test { questions } => format!("Question {} of {questions}", run.drills.len()),
        _ => format!("Drill {}", run.drills.len()),
    };
    // A refusal that names no field of the form shows above it.
    let refusal_text = match refusal {
        Some(e)
            if !pending
                .as_ref()
                .is_some_and(|p| p.fields.iter().any(|f: &FieldView| f.path == e.field())) =>
        {
            e.to_string()
        }
        _ => message,
    };
    Ok(RunPage {
        ctx: PageContext::of(staff),
        run_id: run.id.clone(),
        mode: run.mode.name(),
        kind: run.kind.name(),
        kind_words: kind_words(run.kind),
        kind_title: run.kind.title(),
        level: run.level.get(),
        counter,
        score: run.score(),
        elapsed: seconds(elapsed_ms),
        elapsed_ms,
        left_ms: run.deadline_ms().map(|end| (end - now).max(0)),
        running,
        pending,
        last: if run.mode == Mode::Practice && run.pending().is_none() {
            review.last().cloned()
        } else {
            None
        },
        is_mine: run.trainee == staff.0.user.username,
        over,
        review,
        refusal: refusal_text,
        verdict,
    })
}

/// The run, if the viewer may see it: its trainee, or a reviewer.
async fn visible_run(state: &AppState, staff: &Staff, id: &str) -> Result<Run, Response> {
    let run = training::load_run(&state.db, id)
        .await
        .map_err(api)?
        .ok_or_else(|| {
            api(TrainingError::NotFound(format!(
                "there is no drill run {id}"
            )))
        })?;
    let action = if run.trainee == staff.0.user.username {
        Action::Drill
    } else {
        Action::ReviewTraining
    };
    staff.require_here(state, action).await?;
    Ok(run)
}

/// `GET /training/runs/{id}`.
pub(super) async fn page(AtPath { state, staff, id }: AtPath) -> PageResult {
    let run = visible_run(&state, &staff, &id).await?;
    Ok(render(
        &run_page(&state, &staff, &run, &[], None, String::new()).await?,
    ))
}

/// `POST /training/runs/{id}/answer`: `drill` and the answer's fields. A
/// test's or speed drill's next drill comes at once; practice shows the
/// answer graded first.
pub(super) async fn answer(post: PagePost<Vec<(String, String)>>) -> PageResult {
    let PagePost {
        state,
        id,
        staff,
        form,
    } = post;
    let run = visible_run(&state, &staff, &id).await?;
    let drill_id = form.value_or("drill", "");
    let Some(pending) = run.drills.iter().find(|d| d.id == drill_id) else {
        return refused(&state, &staff, &run, &form, Refusal::NoSuchDrill).await;
    };
    let drill = training::generate(run.kind, run.level, pending.seed)?;
    let fields = answer_form::fields(&drill.question, &drill.answer);
    let answer = AnswerInput::from_value(answer_form::read(&fields, &form));
    let me = staff.0.user.username.clone();
    match training::answer(&state.db, &state.audit_key, &me, &drill_id, &answer).await {
        Ok(recorded) => {
            if recorded.run.mode != Mode::Practice && !recorded.run.is_over(now_ms()) {
                match issue(&state, &me, &run.id, None).await {
                    Ok(_) | Err(TrainingError::Refused(Refusal::Over(_))) => {}
                    Err(e) => return Err(api(e).into()),
                }
            }
            Ok(Redirect::to(&format!("/training/runs/{id}")).into_response())
        }
        Err(TrainingError::Refused(r)) => refused(&state, &staff, &run, &form, r).await,
        Err(e) => Err(api(e).into()),
    }
}

/// The run page again with the refusal: 422 beside the field for a wrong
/// shape (what was typed kept), the refusal's own status otherwise.
async fn refused(
    state: &AppState,
    staff: &Staff,
    run: &Run,
    form: &[(String, String)],
    refusal: Refusal,
) -> PageResult {
    let status = api(TrainingError::Refused(refusal.clone())).status();
    let page = match &refusal {
        Refusal::Invalid(fe) => run_page(state, staff, run, form, Some(fe), String::new()).await?,
        other => run_page(state, staff, run, form, None, other.to_string()).await?,
    };
    Ok((status, render(&page)).into_response())
}

/// `POST /training/runs/{id}/next`: the next drill (practice).
pub(super) async fn next(post: PagePost<crate::web::NoFields>) -> PageResult {
    let PagePost {
        state, id, staff, ..
    } = post;
    let run = visible_run(&state, &staff, &id).await?;
    match issue(&state, &staff.0.user.username, &run.id, None).await {
        Ok(_) => Ok(Redirect::to(&format!("/training/runs/{id}")).into_response()),
        Err(TrainingError::Refused(r)) => refused(&state, &staff, &run, &[], r).await,
        Err(e) => Err(api(e).into()),
    }
}
