//! A shift's page, `/shifts/{id}`: who is in the box at each table, the
//! dealer changes, and the forms that change a dealer, close the shift or
//! sign its report again. A refused form is the page again with the
//! message beside its field and what was typed.

use askama::Template;
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Redirect};

use super::pages::{ShiftRow, refused, row};
use super::{change_dealer_as, close_as, load_shift, readable_shift};
use crate::domain::common::field_error::FieldError;
use crate::domain::shifts::Shift;
use crate::domain::staff::{Action, allows};
use crate::store::shifts::{self, ShiftError, Signing};
use crate::web::staff::page as render;
use crate::web::time::{When, when};
use crate::web::{AppState, CsrfForm, PageContext, PageResult, Staff};

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

/// What a refused form had: its name ("dealer" or "close"), the table and
/// dealer typed, and the refusal.
struct Typed {
    form: &'static str,
    table: String,
    dealer: String,
    error: Option<FieldError>,
}

impl Typed {
    /// Nothing refused: the page as it stands.
    fn nothing() -> Typed {
        Typed {
            form: "",
            table: String::new(),
            dealer: String::new(),
            error: None,
        }
    }
}

async fn shift_page(
    state: &AppState,
    staff: &Staff,
    shift: &Shift,
    typed: Typed,
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
    let error = typed.error;
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
        refused_form: typed.form.to_string(),
        typed_table: typed.table,
        typed_dealer: typed.dealer,
        error_field: error
            .as_ref()
            .map_or(String::new(), |e| e.field().to_string()),
        error: error.map_or(String::new(), |e| e.message().to_string()),
    })
}

/// The shift page again after a form's refusal `e`, with what was typed;
/// an error that is no refusal is answered as itself.
async fn shown_again(
    state: &AppState,
    staff: &Staff,
    id: &str,
    e: ShiftError,
    mut typed: Typed,
) -> PageResult {
    let (status, fe) = refused(e).map_err(super::api)?;
    let shift = load_shift(state, id).await?;
    typed.error = Some(fe);
    let page = shift_page(state, staff, &shift, typed).await?;
    Ok((status, render(&page)).into_response())
}

/// `GET /shifts/{id}`.
pub(super) async fn shift(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> PageResult {
    let shift = readable_shift(&state, &staff, &id).await?;
    Ok(render(
        &shift_page(&state, &staff, &shift, Typed::nothing()).await?,
    ))
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
    let result = change_dealer_as(&state, &staff, &id, form.table.trim(), dealer).await;
    match result {
        Ok(_) => Ok(Redirect::to(&format!("/shifts/{id}")).into_response()),
        Err(e) => {
            let typed = Typed {
                form: "dealer",
                table: form.table,
                dealer: form.dealer,
                error: None,
            };
            shown_again(&state, &staff, &id, e, typed).await
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
    match close_as(&state, &staff, &id).await {
        Ok(_) => Ok(Redirect::to(&format!("/shifts/{id}/report")).into_response()),
        Err(e) => {
            let typed = Typed {
                form: "close",
                ..Typed::nothing()
            };
            shown_again(&state, &staff, &id, e, typed).await
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
    let actor = &staff.0.user.username;
    let zone = state.time_zone;
    shifts::sign(
        &state.db,
        &state.audit_key,
        actor,
        &id,
        zone,
        Signing::Again,
    )
    .await
    .map_err(super::api)?;
    Ok(Redirect::to(&format!("/shifts/{id}/report")).into_response())
}
