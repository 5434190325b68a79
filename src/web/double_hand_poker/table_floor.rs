//! The table page's PD rotation part (docs/shifts.md): the
//! rotation clock of a `california-2026` table, the TPPPs marked there,
//! and a supervisor's forms to mark or unmark a TPPP and to override the
//! clock with a reason. The rules are the core's; the store applies them.

use axum::response::{IntoResponse, Redirect};
use serde::Deserialize;

use super::tables::{TableRefusal, table_page};
use crate::domain::double_hand_poker::rotation_clock::Clock;
use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::shifts::ShiftRefusal;
use crate::domain::staff::{Action, allows};
use crate::store::StoreError;
use crate::store::shifts::{ShiftError, floor};
use crate::web::{AppState, PageError, PagePost, PageResult, Staff};

/// The clock as a page shows it.
pub struct ClockView {
    pub words: String,
    /// `idle`, `running`, `warning` or `expired` (the notice's style).
    pub state: &'static str,
    pub rule: String,
}

impl ClockView {
    pub fn of(clock: &Clock, zone: chrono_tz::Tz) -> ClockView {
        ClockView {
            words: clock.words(|t| t.with_timezone(&zone).format("%H:%M").to_string()),
            state: clock.state().name(),
            rule: format!(
                "the bank goes to at least {} players other than a TPPP within every {} minutes, or the game stops",
                clock.rule.min_other, clock.rule.minutes
            ),
        }
    }

    /// The notice's kind: a warning looks like one, an expired clock
    /// (the law's limit passed) like a danger.
    pub fn class(&self) -> &'static str {
        match self.state {
            "warning" => "notice warning",
            "expired" => "notice danger",
            _ => "notice info",
        }
    }

    /// Read out by screen readers when it changes to a warning.
    pub fn urgent(&self) -> bool {
        matches!(self.state, "warning" | "expired")
    }
}

/// The clock of the table `config` now, for a page.
pub async fn clock_view(
    state: &AppState,
    config: &TableConfig,
) -> Result<Option<ClockView>, StoreError> {
    let clock = floor::clock(&state.db, config, chrono::Utc::now()).await?;
    Ok(clock.map(|c| ClockView::of(&c, state.time_zone)))
}

/// The table page's rotation part.
pub struct FloorView {
    pub clock: Option<ClockView>,
    /// The TPPPs marked here now.
    pub here: Vec<String>,
    /// Every registered TPPP (the mark form's choices).
    pub registered: Vec<String>,
    pub max: u32,
    pub can_manage: bool,
}

pub async fn floor_view(
    state: &AppState,
    staff: &Staff,
    config: &TableConfig,
) -> Result<FloorView, StoreError> {
    let here = floor::marks_at(&state.db, &config.name).await?;
    Ok(FloorView {
        clock: clock_view(state, config).await?,
        here,
        registered: floor::tppps(&state.db)
            .await?
            .into_iter()
            .map(|t| t.name)
            .collect(),
        max: config.rules().tppp_max_per_table,
        can_manage: allows(staff.0.user.role, Action::ManageShifts),
    })
}

/// A refused floor form: its message, shown beside the form (a store
/// failure is the internal error it is).
fn refusal_of(e: ShiftError) -> Result<String, StoreError> {
    match e {
        ShiftError::Refused(ShiftRefusal::Invalid(fe)) => Ok(fe.message().to_string()),
        ShiftError::Refused(ShiftRefusal::Conflict(m)) | ShiftError::NotFound(m) => Ok(m),
        ShiftError::Store(e) => Err(e),
    }
}

#[derive(Deserialize)]
pub(super) struct TpppForm {
    /// The TPPP's name; the control is `tppp` (a control named `name`
    /// would shadow the form's own property).
    #[serde(default, rename = "tppp")]
    name: String,
    /// `mark` or `unmark`.
    #[serde(default)]
    op: String,
}

/// `POST /tables/{name}/tppps`: marks a registered TPPP here, or unmarks.
pub(super) async fn mark(
    PagePost {
        state,
        id: table,
        staff,
        form,
    }: PagePost<TpppForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    let refused = |message: String| TableRefusal {
        tppp: message,
        tppp_name: form.name.clone(),
        ..TableRefusal::default()
    };
    let marked = match form.op.as_str() {
        "mark" => true,
        "unmark" => false,
        other => {
            let message = format!("\"{other}\" is neither Mark nor Unmark: press one of them");
            return table_page(&state, &staff, &table, refused(message)).await;
        }
    };
    let actor = &staff.0.user.username;
    match floor::mark(
        &state.db,
        &state.audit_key,
        actor,
        &table,
        &form.name,
        marked,
    )
    .await
    {
        Ok(_) => Ok(Redirect::to(&format!("/tables/{table}")).into_response()),
        Err(e) => {
            table_page(
                &state,
                &staff,
                &table,
                refused(refusal_of(e).map_err(PageError::internal)?),
            )
            .await
        }
    }
}

#[derive(Deserialize)]
pub(super) struct OverrideForm {
    #[serde(default)]
    reason: String,
}

/// `POST /tables/{name}/rotation-override`: a supervisor lets the game go
/// on past the rotation clock, with a reason.
pub(super) async fn override_clock(
    PagePost {
        state,
        id: table,
        staff,
        form,
    }: PagePost<OverrideForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageShifts).await?;
    let actor = &staff.0.user.username;
    match floor::override_rotation(&state.db, &state.audit_key, actor, &table, &form.reason).await {
        Ok(_) => Ok(Redirect::to(&format!("/tables/{table}")).into_response()),
        Err(e) => {
            let refusal = TableRefusal {
                rotation: refusal_of(e).map_err(PageError::internal)?,
                reason: form.reason.clone(),
                ..TableRefusal::default()
            };
            table_page(&state, &staff, &table, refusal).await
        }
    }
}
