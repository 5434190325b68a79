//! The shift pages: `/shifts` (the open and recent shifts, opening one,
//! the room's "shifts required" setting), `/shifts/{id}` (who is in the box
//! at each table, dealer changes, closing), `/shifts/{id}/report` (the
//! report with its charts, printable one table a page). A refused form is
//! the page again with the message beside its field and what was typed.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};

use super::chart::{Bar, bars_svg};
use super::report_lines::{PdLine, PlayerLine, TableSection, TotalsRow, totals_row};
use crate::domain::common::field_error::FieldError;
use crate::domain::shifts::report::{Report, Standing, standing};
use crate::domain::shifts::{Shift, ShiftRefusal};
use crate::domain::staff::{Action, allows};
use crate::store::audit::now_text;
use crate::store::shifts::{self, ShiftError, report as reports};
use crate::web::staff::page as render;
use crate::web::svg::Svg;
use crate::web::time::{When, when};
use crate::web::{AppState, CsrfForm, PageContext, PageResult, Staff};

/// A shift in a list: its id, what it covers, its ends in words.
pub struct ShiftRow {
    pub id: String,
    pub scope: String,
    pub opened: When,
    pub opened_by: String,
    pub closed: Option<When>,
    pub signed: bool,
}

fn row(state: &AppState, s: &Shift) -> ShiftRow {
    ShiftRow {
        id: s.id.clone(),
        scope: scope_words(s),
        opened: when(state.time_zone, &s.opened.at),
        opened_by: s.opened.by.clone(),
        closed: s.closed.as_ref().map(|c| when(state.time_zone, &c.at)),
        signed: s.signature().is_some(),
    }
}

fn scope_words(s: &Shift) -> String {
    match &s.table {
        Some(t) => format!("table {t}"),
        None => "the room".to_string(),
    }
}

#[derive(Template)]
#[template(path = "shifts/home.html")]
struct HomePage {
    ctx: PageContext,
    can_manage: bool,
    open: Vec<ShiftRow>,
    closed: Vec<ShiftRow>,
    tables: Vec<String>,
    required: bool,
    typed_table: String,
    error: String,
    /// The TPPP registry, each with the table they are marked at.
    tppps: Vec<(crate::domain::shifts::tppp::Tppp, String)>,
    /// The registration form as typed, and its refusal's field and message.
    tppp_form: TpppForm,
    tppp_error: (String, String),
}

impl HomePage {
    /// The registration form's message for `field`, if it is at fault.
    fn tppp_error_on(&self, field: &str) -> &str {
        if self.tppp_error.0 == field {
            &self.tppp_error.1
        } else {
            ""
        }
    }
}

async fn home_page(
    state: &AppState,
    staff: &Staff,
    typed_table: String,
    error: String,
) -> Result<HomePage, crate::store::StoreError> {
    let recent = shifts::recent(&state.db, 50).await?;
    let tables = crate::store::double_hand_poker::tables::list(&state.db).await?;
    let (open, closed): (Vec<&Shift>, Vec<&Shift>) = recent.iter().partition(|s| s.is_open());
    Ok(HomePage {
        ctx: PageContext::of(staff),
        can_manage: allows(staff.0.user.role, Action::ManageShifts),
        open: open.into_iter().map(|s| row(state, s)).collect(),
        closed: closed.into_iter().map(|s| row(state, s)).collect(),
        tables: tables.into_iter().map(|t| t.config.name).collect(),
        required: shifts::required(&state.db).await?,
        typed_table,
        error,
        tppps: registry(state).await?,
        tppp_form: TpppForm::default(),
        tppp_error: (String::new(), String::new()),
    })
}

async fn registry(
    state: &AppState,
) -> Result<Vec<(crate::domain::shifts::tppp::Tppp, String)>, crate::store::StoreError> {
    let marks = shifts::floor::marks(&state.db).await?;
    Ok(shifts::floor::tppps(&state.db)
        .await?
        .into_iter()
        .map(|t| {
            let at = marks
                .iter()
                .find(|(_, n)| *n == t.name)
                .map(|(table, _)| table.clone())
                .unwrap_or_default();
            (t, at)
        })
        .collect())
}

#[derive(serde::Deserialize, Default)]
pub(super) struct TpppForm {
    /// The control is `tppp` (one named `name` would shadow the form's own
    /// property); its errors are the core's, on `name`.
    #[serde(default, rename = "tppp")]
    name: String,
    #[serde(default)]
    company: String,
    #[serde(default)]
    badge: String,
}

/// `POST /shifts/tppps`: registers a TPPP.
pub(super) async fn register_tppp(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<TpppForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    let actor = &staff.0.user.username;
    match shifts::floor::register(
        &state.db,
        &state.audit_key,
        actor,
        &form.name,
        &form.company,
        &form.badge,
    )
    .await
    {
        Ok(_) => Ok(Redirect::to("/shifts#tppp-registry").into_response()),
        Err(e) => {
            let (status, fe) = refused(e).map_err(super::api)?;
            let mut page = home_page(&state, &staff, String::new(), String::new()).await?;
            // A conflict (a name or badge already registered) shows at the name.
            let field = match fe.field() {
                "company" | "badge" => fe.field().to_string(),
                _ => "name".to_string(),
            };
            page.tppp_error = (field, fe.message().to_string());
            page.tppp_form = form;
            Ok((status, render(&page)).into_response())
        }
    }
}

/// `GET /shifts`.
pub(super) async fn home(State(state): State<AppState>, staff: Staff) -> PageResult {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    Ok(render(
        &home_page(&state, &staff, String::new(), String::new()).await?,
    ))
}

#[derive(serde::Deserialize)]
pub(super) struct OpenForm {
    #[serde(default)]
    table: String,
}

/// The status and message of a refusal a page shows again.
fn refused(e: ShiftError) -> Result<(StatusCode, FieldError), ShiftError> {
    match e {
        ShiftError::Refused(ShiftRefusal::Invalid(fe)) => {
            Ok((StatusCode::UNPROCESSABLE_ENTITY, fe))
        }
        ShiftError::Refused(ShiftRefusal::Conflict(m)) => {
            Ok((StatusCode::CONFLICT, FieldError::new("shift", m)))
        }
        other => Err(other),
    }
}

/// `POST /shifts`: `table` (empty: the room).
pub(super) async fn open(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<OpenForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    let table = Some(form.table.trim()).filter(|t| !t.is_empty());
    match shifts::open(&state.db, &state.audit_key, &staff.0.user.username, table).await {
        Ok(shift) => Ok(Redirect::to(&format!("/shifts/{}", shift.id)).into_response()),
        Err(e) => {
            let (status, fe) = refused(e).map_err(super::api)?;
            let page = home_page(&state, &staff, form.table, fe.message().to_string()).await?;
            Ok((status, render(&page)).into_response())
        }
    }
}

#[derive(serde::Deserialize)]
pub(super) struct RequiredForm {
    #[serde(default)]
    required: Option<String>,
}

/// `POST /shifts/required`: `required` (a checkbox).
pub(super) async fn set_required(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<RequiredForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    shifts::set_required(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        form.required.is_some(),
    )
    .await
    .map_err(super::api)?;
    Ok(Redirect::to("/shifts").into_response())
}

/// A table's line on the shift page.
struct BoxRow {
    table: String,
    dealer: String,
    assigned: Vec<String>,
}

/// A dealer change in words.
struct ChangeRow {
    at: When,
    table: String,
    dealer: String,
    by: String,
}

#[derive(Template)]
#[template(path = "shifts/shift.html")]
struct ShiftPage {
    ctx: PageContext,
    can_manage: bool,
    shift: ShiftRow,
    open: bool,
    boxes: Vec<BoxRow>,
    changes: Vec<ChangeRow>,
    /// The refused form ("dealer" or "close"), what was typed, the message.
    refused_form: String,
    typed_table: String,
    typed_dealer: String,
    error_field: String,
    error: String,
}

impl ShiftPage {
    /// The id of the dealer change form's field a refusal is beside.
    fn dealer_field(&self) -> &'static str {
        if self.error_field == "table" {
            "change-table"
        } else {
            "change-dealer"
        }
    }

    /// The message beside the dealer field, when the dealer form was
    /// refused for anything but its table.
    fn dealer_error(&self) -> &str {
        if self.refused_form == "dealer" && self.error_field != "table" {
            &self.error
        } else {
            ""
        }
    }
}

async fn load(state: &AppState, id: &str) -> Result<Shift, Response> {
    shifts::load(&state.db, id)
        .await
        .map_err(super::api)?
        .ok_or_else(|| super::api(ShiftError::NotFound(format!("there is no shift {id}"))))
}

async fn shift_page(
    state: &AppState,
    staff: &Staff,
    shift: &Shift,
    refused: (String, String, String, Option<FieldError>),
) -> Result<ShiftPage, crate::store::StoreError> {
    let tables = crate::store::double_hand_poker::tables::list(&state.db).await?;
    let boxes = tables
        .into_iter()
        .filter(|t| shift.covers(&t.config.name) && !t.config.training)
        .map(|t| BoxRow {
            dealer: shift.dealer_now(&t.config.name).unwrap_or("").to_string(),
            table: t.config.name,
            assigned: t.dealers,
        })
        .collect();
    let (refused_form, typed_table, typed_dealer, error) = refused;
    Ok(ShiftPage {
        ctx: PageContext::of(staff),
        can_manage: allows(staff.0.user.role, Action::ManageShifts),
        shift: row(state, shift),
        open: shift.is_open(),
        boxes,
        changes: shift
            .dealers
            .iter()
            .rev()
            .map(|c| ChangeRow {
                at: when(state.time_zone, &c.stamp.at),
                table: c.table.clone(),
                dealer: c.dealer.clone().unwrap_or_else(|| "box left empty".into()),
                by: c.stamp.by.clone(),
            })
            .collect(),
        refused_form,
        typed_table,
        typed_dealer,
        error_field: error
            .as_ref()
            .map_or(String::new(), |e| e.field().to_string()),
        error: error.map_or(String::new(), |e| e.message().to_string()),
    })
}

/// `GET /shifts/{id}`.
pub(super) async fn shift(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> PageResult {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let shift = load(&state, &id).await?;
    let none = (String::new(), String::new(), String::new(), None);
    Ok(render(&shift_page(&state, &staff, &shift, none).await?))
}

#[derive(serde::Deserialize)]
pub(super) struct DealerForm {
    #[serde(default)]
    table: String,
    #[serde(default)]
    dealer: String,
}

/// `POST /shifts/{id}/dealers`: `table`, `dealer` (empty: leave the box).
pub(super) async fn change_dealer(
    State(state): State<AppState>,
    Path(id): Path<String>,
    CsrfForm(staff, form): CsrfForm<DealerForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    let dealer = Some(form.dealer.trim()).filter(|d| !d.is_empty());
    let result = shifts::change_dealer(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &id,
        form.table.trim(),
        dealer,
    )
    .await;
    match result {
        Ok(_) => Ok(Redirect::to(&format!("/shifts/{id}")).into_response()),
        Err(e) => {
            let (status, fe) = refused(e).map_err(super::api)?;
            let shift = load(&state, &id).await?;
            let typed = ("dealer".to_string(), form.table, form.dealer, Some(fe));
            Ok((
                status,
                render(&shift_page(&state, &staff, &shift, typed).await?),
            )
                .into_response())
        }
    }
}

/// `POST /shifts/{id}/close`: closes and signs; the signed report next.
pub(super) async fn close(
    State(state): State<AppState>,
    Path(id): Path<String>,
    CsrfForm(staff, _form): CsrfForm<std::collections::HashMap<String, String>>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    let result = shifts::close(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &id,
        state.time_zone,
    )
    .await;
    match result {
        Ok(_) => Ok(Redirect::to(&format!("/shifts/{id}/report")).into_response()),
        Err(e) => {
            let (status, fe) = refused(e).map_err(super::api)?;
            let shift = load(&state, &id).await?;
            let typed = ("close".to_string(), String::new(), String::new(), Some(fe));
            Ok((
                status,
                render(&shift_page(&state, &staff, &shift, typed).await?),
            )
                .into_response())
        }
    }
}

/// `POST /shifts/{id}/sign`: signs the report again after a correction.
pub(super) async fn sign_again(
    State(state): State<AppState>,
    Path(id): Path<String>,
    CsrfForm(staff, _form): CsrfForm<std::collections::HashMap<String, String>>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    shifts::sign_again(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &id,
        state.time_zone,
    )
    .await
    .map_err(super::api)?;
    Ok(Redirect::to(&format!("/shifts/{id}/report")).into_response())
}

#[derive(Template)]
#[template(path = "shifts/report.html")]
struct ReportPage {
    ctx: PageContext,
    can_manage: bool,
    shift: ShiftRow,
    report: Report,
    standing: Standing,
    from: When,
    to: When,
    /// The room's totals, then each real table's.
    room: TotalsRow,
    rows: Vec<TotalsRow>,
    training: TotalsRow,
    pds: Vec<PdLine>,
    players: Vec<PlayerLine>,
    tables: Vec<TableSection>,
    charts: Vec<Svg>,
    zone: String,
}

impl ReportPage {
    fn at(&self, utc: &str) -> String {
        when(chrono_tz::Tz::UTC, utc).utc
    }

    fn local(&self, utc: &str) -> String {
        when(self.zone.parse().unwrap_or(chrono_tz::Tz::UTC), utc).local
    }
}

/// `GET /shifts/{id}/report`.
pub(super) async fn report(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> PageResult {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let shift = load(&state, &id).await?;
    let report = reports::of_shift(
        &mut reports::On::Db(&state.db),
        &shift,
        state.time_zone,
        &now_text(),
    )
    .await?;
    let tables: Vec<TableSection> = report.tables.iter().map(TableSection::from).collect();
    let rows: Vec<TotalsRow> = report
        .tables
        .iter()
        .filter(|t| !t.training)
        .map(|t| totals_row(&t.table, &format!("table-{}", t.table), &t.totals))
        .collect();
    let hours_drop: Vec<Bar> = report
        .hours
        .iter()
        .map(|h| Bar::money(&h.hour[11..], h.drop))
        .collect();
    let hours_hands: Vec<Bar> = report
        .hours
        .iter()
        .map(|h| Bar::count(&h.hour[11..], h.hands))
        .collect();
    let tables_drop: Vec<Bar> = report
        .tables
        .iter()
        .filter(|t| !t.training)
        .map(|t| Bar::money(&t.table, t.totals.drop))
        .collect();
    let pds: Vec<Bar> = report
        .pds
        .iter()
        .map(|p| Bar::money(&p.name, p.net))
        .collect();
    let charts = vec![
        bars_svg("chart-drop-hour", "Drop per hour", &hours_drop),
        bars_svg("chart-drop-table", "Drop per table", &tables_drop),
        bars_svg("chart-hands-hour", "Hands per hour", &hours_hands),
        bars_svg("chart-pd-results", "PD results", &pds),
    ];
    Ok(render(&ReportPage {
        ctx: PageContext::of(&staff),
        can_manage: allows(staff.0.user.role, Action::ManageShifts),
        shift: row(&state, &shift),
        standing: standing(&shift, &report),
        from: when(state.time_zone, &report.scope.from),
        to: when(state.time_zone, &report.scope.to),
        room: totals_row("Room", "room", &report.room),
        training: totals_row("Training tables", "training", &report.training),
        rows,
        pds: report.pds.iter().map(PdLine::from).collect(),
        players: report.players.iter().map(PlayerLine::from).collect(),
        tables,
        charts,
        zone: state.time_zone.name().to_string(),
        report,
    }))
}
