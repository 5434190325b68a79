//! The shifts page, `/shifts`: the open and recent shifts, opening one,
//! the room's "shifts required" setting and the TPPP registry; and what
//! every shift page shows of a shift (`ShiftRow`) and of a refusal. A
//! refused form is the page again with the message beside its field and
//! what was typed. A shift's own page is `shift_page.rs`, its report
//! `report_page.rs`.

use askama::Template;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect};

use crate::domain::common::field_error::FieldError;
use crate::domain::shifts::{Shift, ShiftRefusal};
use crate::domain::staff::{Action, allows};
use crate::store::shifts::{self, ShiftError};
use crate::web::staff::page as render;
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

pub(super) fn row(state: &AppState, s: &Shift) -> ShiftRow {
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
pub(super) fn refused(e: ShiftError) -> Result<(StatusCode, FieldError), ShiftError> {
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
