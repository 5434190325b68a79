//! Progress: a trainee's own page (`/training/progress`), the same page of
//! any trainee for supervisors and auditors (`/training/trainees/{name}`,
//! with the sign-off), every trainee side by side (`/training/trainees`),
//! and the pass marks (`/training/pass-marks`, set by the training
//! manager: admins and supervisors).

use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};

use super::chart::trend_svg;
use super::{api, load_progress, seconds};
use crate::domain::common::field_error::FieldError;
use crate::domain::staff::{Action, allows};
use crate::domain::training::Kind;
use crate::domain::training::progress::{KindProgress, PassMark, Progress};
use crate::store::StoreError;
use crate::store::training::{self, SignOff, TrainingError};
use crate::web::staff::page as render;
use crate::web::svg::Svg;
use crate::web::time::{When, when};
use crate::web::{AppState, CsrfForm, PageContext, PageResult, Staff, Typed};

/// A pass mark in words.
fn mark_words(m: &PassMark) -> String {
    format!(
        "{}% of the last {} at level {}+, median under {} s{}",
        m.accuracy_pct,
        m.window,
        m.level,
        m.median_seconds,
        if m.required { "" } else { " (not required)" }
    )
}

/// A kind's line on the progress page.
struct KindRow {
    kind: &'static str,
    /// The skill in words ("ACTION seat").
    title: &'static str,
    attempts: usize,
    accuracy: String,
    median: String,
    top_level: String,
    mark: String,
    met: bool,
    required: bool,
    short_of: String,
    chart: Option<Svg>,
}

fn kind_row(k: &KindProgress) -> KindRow {
    let r = &k.readiness;
    KindRow {
        kind: k.kind.name(),
        title: k.kind.title(),
        attempts: k.attempts,
        accuracy: k.accuracy_pct.map_or("—".into(), |p| format!("{p}%")),
        median: k.median_ms.map_or("—".into(), seconds),
        top_level: k.top_level.map_or("—".into(), |l| l.to_string()),
        mark: mark_words(&k.mark),
        met: r.met,
        required: k.mark.required,
        short_of: r.short_of.join("; "),
        chart: (!k.trend.is_empty()).then(|| {
            trend_svg(
                &format!("trend-{}", k.kind.name()),
                &format!("{}: the share right of every ten attempts", k.kind.title()),
                &k.trend,
                k.mark.accuracy_pct,
            )
        }),
    }
}

#[derive(Template)]
#[template(path = "training/progress.html")]
struct ProgressPage {
    ctx: PageContext,
    trainee: String,
    own: bool,
    rows: Vec<KindRow>,
    weakest: Option<&'static str>,
    /// The kind to practise next: its name, its title and the level.
    next: Option<(&'static str, &'static str, u8)>,
    ready: bool,
    signed_off: Option<(SignOff, When)>,
    can_sign_off: bool,
    promote_default: bool,
    refusal: String,
    /// The trainee's newest runs: tests and speed drills reviewed from here.
    runs: Vec<(training::RunSummary, When)>,
}

async fn progress_page(
    state: &AppState,
    staff: &Staff,
    trainee: &str,
    refusal: String,
) -> Result<ProgressPage, StoreError> {
    let (progress, signed_off): (Progress, _) = load_progress(state, trainee).await?;
    let me = &staff.0.user.username;
    let role = training::role_of(&state.db, trainee).await?;
    Ok(ProgressPage {
        ctx: PageContext::of(staff),
        trainee: trainee.to_string(),
        own: trainee == me,
        rows: progress.kinds.iter().map(kind_row).collect(),
        weakest: progress.weakest.map(Kind::title),
        next: progress.next.map(|(k, l)| (k.name(), k.title(), l.get())),
        ready: progress.ready,
        can_sign_off: allows(staff.0.user.role, Action::SignOffTrainees)
            && trainee != me
            && signed_off.is_none(),
        promote_default: role.as_deref() == Some("trainee"),
        signed_off: signed_off.map(|s| {
            let at = when(state.time_zone, &s.signed_at);
            (s, at)
        }),
        refusal,
        runs: training::runs_of(&state.db, trainee, 20)
            .await?
            .into_iter()
            .map(|r| {
                let at = when(state.time_zone, &r.started_at);
                (r, at)
            })
            .collect(),
    })
}

/// `GET /training/progress`: one's own.
pub(super) async fn own(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::Drill).await?;
    let me = staff.0.user.username.clone();
    Ok(render(
        &progress_page(&state, &staff, &me, String::new()).await?,
    ))
}

/// `GET /training/trainees/{name}`: a trainee's, for those who review training.
pub(super) async fn trainee(
    State(state): State<AppState>,
    staff: Staff,
    Path(name): Path<String>,
) -> PageResult {
    staff.require_here(&state, Action::ReviewTraining).await?;
    if training::role_of(&state.db, &name).await?.is_none() {
        return Err(api(TrainingError::NotFound(format!(
            "there is no user \"{name}\""
        )))
        .into());
    }
    Ok(render(
        &progress_page(&state, &staff, &name, String::new()).await?,
    ))
}

#[derive(serde::Deserialize)]
pub(super) struct SignOffForm {
    #[serde(default)]
    promote: Option<String>,
}

/// `POST /training/trainees/{name}/sign-off`: `promote` (a checkbox).
/// Refused (the page again, its status): one's own (403), not ready or
/// already signed off (409).
pub(super) async fn sign_off(
    State(state): State<AppState>,
    Path(name): Path<String>,
    CsrfForm(staff, form): CsrfForm<SignOffForm>,
) -> PageResult {
    staff.require_here(&state, Action::SignOffTrainees).await?;
    let promote = form.promote.is_some();
    match training::sign_off(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &name,
        promote,
    )
    .await
    {
        Ok(_) => Ok(Redirect::to(&format!("/training/trainees/{name}")).into_response()),
        Err(e @ TrainingError::SignOff(_)) => {
            let message = e.to_string();
            let status = api(e).status();
            let page = progress_page(&state, &staff, &name, message).await?;
            Ok((status, render(&page)).into_response())
        }
        Err(e) => Err(api(e).into()),
    }
}

/// A trainee's line on the side-by-side page.
struct TraineeRow {
    name: String,
    role: String,
    cells: Vec<(String, bool, bool)>,
    ready: bool,
    signed_off: bool,
}

#[derive(Template)]
#[template(path = "training/trainees.html")]
struct TraineesPage {
    ctx: PageContext,
    kinds: Vec<&'static str>,
    rows: Vec<TraineeRow>,
}

/// Most trainees the side-by-side page shows.
const TRAINEES_MAX: usize = 200;

/// `GET /training/trainees`: every trainee, each kind's window accuracy
/// (met or not), ready, signed off.
pub(super) async fn trainees(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::ReviewTraining).await?;
    let mut rows = Vec::new();
    for (name, role) in training::trainees(&state.db)
        .await?
        .into_iter()
        .take(TRAINEES_MAX)
    {
        let (p, signed) = load_progress(&state, &name).await?;
        rows.push(TraineeRow {
            cells: p
                .kinds
                .iter()
                .map(|k| {
                    let text = match k.accuracy_pct {
                        None => "—".to_string(),
                        Some(pct) => format!("{pct}% of {}", k.attempts),
                    };
                    (text, k.readiness.met, k.mark.required)
                })
                .collect(),
            ready: p.ready,
            signed_off: signed.is_some(),
            name,
            role,
        });
    }
    Ok(render(&TraineesPage {
        ctx: PageContext::of(&staff),
        kinds: Kind::ALL.iter().map(|k| k.title()).collect(),
        rows,
    }))
}

#[derive(Template)]
#[template(path = "training/pass_marks.html")]
struct PassMarksPage {
    ctx: PageContext,
    can_set: bool,
    /// Each kind: its name, its skill in words, its mark, the mark in words.
    rows: Vec<(&'static str, &'static str, PassMark, String)>,
    /// What was typed when the form was refused (empty: the stored marks
    /// are shown), and each refusal, named `{kind}.{field}`.
    typed: Vec<(String, String)>,
    errors: Vec<FieldError>,
}

impl PassMarksPage {
    /// The form field `{kind}.{field}`'s value: as typed when refused,
    /// else the stored one.
    fn value(&self, kind: &str, field: &str, stored: String) -> String {
        match self.errors.is_empty() {
            true => stored,
            false => self.typed.value_or(&format!("{kind}.{field}"), ""),
        }
    }

    /// Whether the kind's "required" box is ticked.
    fn required(&self, kind: &str, stored: bool) -> bool {
        match self.errors.is_empty() {
            true => stored,
            false => self.typed.checked(&format!("{kind}.required")),
        }
    }

    /// A mark's number fields: each field's name, label, stored value and
    /// size.
    fn fields(&self, mark: &PassMark) -> [(&'static str, &'static str, String, u8); 4] {
        [
            ("window", "Last attempts", mark.window.to_string(), 4),
            ("accuracy_pct", "% right", mark.accuracy_pct.to_string(), 4),
            (
                "median_seconds",
                "Median under (s)",
                mark.median_seconds.to_string(),
                4,
            ),
            ("level", "Level at least", mark.level.to_string(), 2),
        ]
    }

    /// The error summary: each refusal's field id and its message, the
    /// skill named.
    fn summary(&self) -> Vec<(String, String)> {
        self.errors
            .iter()
            .map(|e| {
                let (kind, _) = e.field().split_once('.').unwrap_or_default();
                let words = Kind::parse(kind).map_or(kind, |k| k.title());
                (
                    e.field().replace('.', "-"),
                    format!("{words}: {}", e.message()),
                )
            })
            .collect()
    }

    fn error(&self, kind: &str, field: &str) -> String {
        let name = format!("{kind}.{field}");
        self.errors
            .iter()
            .find(|e| e.field() == name)
            .map_or(String::new(), |e| e.message().to_string())
    }
}

async fn pass_marks_page(
    state: &AppState,
    staff: &Staff,
    typed: Vec<(String, String)>,
    errors: Vec<FieldError>,
) -> Result<PassMarksPage, StoreError> {
    let marks = training::pass_marks(&state.db).await?;
    Ok(PassMarksPage {
        ctx: PageContext::of(staff),
        can_set: allows(staff.0.user.role, Action::SetPassMarks),
        rows: Kind::ALL
            .iter()
            .map(|k| (k.name(), k.title(), marks.of(*k), mark_words(&marks.of(*k))))
            .collect(),
        typed,
        errors,
    })
}

/// `GET /training/pass-marks`.
pub(super) async fn pass_marks(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::ReviewTraining).await?;
    Ok(render(
        &pass_marks_page(&state, &staff, Vec::new(), Vec::new()).await?,
    ))
}

/// `POST /training/pass-marks`: every kind's mark in one form, each field
/// named `{kind}.{field}` (`window`, `accuracy_pct`, `median_seconds`,
/// `level`, `required`: a checkbox). Any refusal refuses the whole form
/// (422, each beside its field, what was typed kept, nothing recorded);
/// otherwise each kind whose mark changed is set (one record each).
pub(super) async fn set_pass_mark(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<Vec<(String, String)>>,
) -> PageResult {
    staff.require_here(&state, Action::SetPassMarks).await?;
    let stored = training::pass_marks(&state.db).await?;
    let mut errors = Vec::new();
    let mut changed = Vec::new();
    for kind in Kind::ALL {
        let prefix = format!("{}.", kind.name());
        let fields: Vec<(String, String)> = form
            .iter()
            .filter_map(|(k, v)| Some((k.strip_prefix(&prefix)?.to_string(), v.clone())))
            .collect();
        match parse_mark(&fields) {
            Ok(mark) if mark != stored.of(kind) => changed.push((kind, mark)),
            Ok(_) => {}
            Err(refused) => errors.extend(refused.into_iter().map(|e| {
                let field = format!("{prefix}{}", e.field());
                FieldError::new(field, e.message()).with_value(e.value().unwrap_or(""))
            })),
        }
    }
    if !errors.is_empty() {
        let page = pass_marks_page(&state, &staff, form, errors).await?;
        return Ok((StatusCode::UNPROCESSABLE_ENTITY, render(&page)).into_response());
    }
    let actor = &staff.0.user.username;
    for (kind, mark) in changed {
        training::set_pass_mark(&state.db, &state.audit_key, actor, kind, mark)
            .await
            .map_err(api)?;
    }
    Ok(Redirect::to("/training/pass-marks").into_response())
}

/// The form's numbers, each not a whole number named by its field, then
/// the core's ranges.
fn parse_mark(form: &[(String, String)]) -> Result<PassMark, Vec<FieldError>> {
    let mut errors = Vec::new();
    let mut number = |field: &str| -> i64 {
        let typed = form.value_or(field, "");
        typed.trim().parse().unwrap_or_else(|_| {
            errors.push(
                FieldError::new(field, format!("\"{typed}\" is not a whole number"))
                    .with_value(typed.as_str()),
            );
            0
        })
    };
    let (w, a, m, l) = (
        number("window"),
        number("accuracy_pct"),
        number("median_seconds"),
        number("level"),
    );
    if !errors.is_empty() {
        return Err(errors);
    }
    PassMark::parse(w, a, m, l, form.checked("required"))
}
