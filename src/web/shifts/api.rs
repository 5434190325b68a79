//! Shifts over JSON (docs/shifts.md): `POST /api/v1/shifts` opens one,
//! `POST /api/v1/shifts/{id}/dealers` records a dealer change,
//! `POST /api/v1/shifts/{id}/close` closes it and signs its report,
//! `GET /api/v1/shifts/{id}/report` (JSON, or `?format=csv`) and
//! `GET /api/v1/reports/shift` (any range, a table or the room) read
//! reports. The actor is who is signed in; every rule is the core's.

use axum::Json;
use axum::extract::{Path, Query, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::{Value, json};

use super::{api, check_table, csv_response, range_bounds};
use crate::domain::shifts::Shift;
use crate::domain::shifts::report::{Report, ReportJson, standing};
use crate::domain::staff::Action;
use crate::store::audit::now_text;
use crate::store::shifts::{self, ShiftError, report as reports};
use crate::web::{ApiError, AppState, Staff, json};

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    #[serde(default)]
    table: Option<String>,
}

fn shift_json(shift: &Shift) -> Value {
    json!({ "shift": shift })
}

/// `POST /api/v1/shifts`: `{table?}` → 201 and the shift.
pub(super) async fn open(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    body: json::Body,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageShifts, uri.path())
        .await?;
    let b: OpenBody = json::parse(&body).map_err(api)?;
    let table = b.table.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let shift = shifts::open(&state.db, &state.audit_key, &staff.0.user.username, table)
        .await
        .map_err(api)?;
    Ok((StatusCode::CREATED, Json(shift_json(&shift))).into_response())
}

/// `GET /api/v1/shifts`: the newest shifts and the room's setting.
pub(super) async fn list(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ReadShiftReports, uri.path())
        .await?;
    let list = shifts::recent(&state.db, 50).await.map_err(api)?;
    let required = shifts::required(&state.db).await.map_err(api)?;
    Ok(Json(json!({ "shifts": list, "required": required })).into_response())
}

async fn found(state: &AppState, id: &str) -> Result<Shift, Response> {
    shifts::load(&state.db, id)
        .await
        .map_err(api)?
        .ok_or_else(|| api(ShiftError::NotFound(format!("there is no shift {id}"))))
}

/// `GET /api/v1/shifts/{id}`.
pub(super) async fn get(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Path(id): Path<String>,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ReadShiftReports, uri.path())
        .await?;
    Ok(Json(shift_json(&found(&state, &id).await?)).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct DealerBody {
    table: String,
    /// null or absent: the box is left empty.
    #[serde(default)]
    dealer: Option<String>,
}

/// `POST /api/v1/shifts/{id}/dealers`: `{table, dealer}` → the shift.
pub(super) async fn change_dealer(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Path(id): Path<String>,
    body: json::Body,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageShifts, uri.path())
        .await?;
    let b: DealerBody = json::parse(&body).map_err(api)?;
    let dealer = b.dealer.as_deref().map(str::trim).filter(|d| !d.is_empty());
    let shift = shifts::change_dealer(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &id,
        b.table.trim(),
        dealer,
    )
    .await
    .map_err(api)?;
    Ok(Json(shift_json(&shift)).into_response())
}

/// `POST /api/v1/shifts/{id}/close` → the signed report.
pub(super) async fn close(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Path(id): Path<String>,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageShifts, uri.path())
        .await?;
    let report = shifts::close(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &id,
        state.time_zone,
    )
    .await
    .map_err(api)?;
    let shift = found(&state, &id).await?;
    Ok(report_json(&shift, &report))
}

/// The report with its standing, serialized straight into the body.
fn report_json(shift: &Shift, report: &Report) -> Response {
    Json(ReportJson {
        report,
        signature: Some(standing(shift, report)),
    })
    .into_response()
}

#[derive(Deserialize, Default)]
pub(super) struct ReportQuery {
    format: Option<String>,
    table: Option<String>,
    date: Option<String>,
    from: Option<String>,
    to: Option<String>,
}

enum Format {
    Json,
    Csv,
}

fn format_of(q: &ReportQuery) -> Result<Format, ApiError> {
    match q.format.as_deref().map(str::trim) {
        None | Some("" | "json") => Ok(Format::Json),
        Some("csv") => Ok(Format::Csv),
        Some(other) => Err(ApiError::BadInput(
            crate::domain::common::field_error::FieldError::new(
                "format",
                format!("\"{other}\" is not a format; choose json or csv"),
            )
            .with_value(other),
        )),
    }
}

/// `GET /api/v1/shifts/{id}/report[?format=csv]`: the report as its hands
/// stand now, with its signature's standing (signed, or superseded by the
/// corrections after it).
pub(super) async fn report(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Path(id): Path<String>,
    Query(q): Query<ReportQuery>,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ReadShiftReports, uri.path())
        .await?;
    let format = format_of(&q).map_err(api)?;
    let shift = found(&state, &id).await?;
    let report = reports::of_shift(
        &mut reports::On::Db(&state.db),
        &shift,
        state.time_zone,
        &now_text(),
    )
    .await
    .map_err(api)?;
    match format {
        Format::Json => Ok(report_json(&shift, &report)),
        Format::Csv => csv_response(&report, &format!("shift-{id}")).map_err(api),
    }
}

/// `GET /api/v1/reports/shift?table=&date=|from=&to=&format=`: the report of
/// any range, for one table or the room.
pub(super) async fn range_report(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Query(q): Query<ReportQuery>,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ReadShiftReports, uri.path())
        .await?;
    let format = format_of(&q).map_err(api)?;
    let table = q.table.as_deref().map(str::trim).filter(|t| !t.is_empty());
    check_table(&state, table).await.map_err(api)?;
    let (from, to) = range_bounds(
        q.date.as_deref(),
        q.from.as_deref(),
        q.to.as_deref(),
        state.time_zone,
    )
    .map_err(|e| api(ApiError::BadInput(e)))?;
    let report = reports::of_range(&state.db, table, &from, &to, state.time_zone)
        .await
        .map_err(api)?;
    match format {
        Format::Json => Ok(Json(ReportJson {
            report: &report,
            signature: None,
        })
        .into_response()),
        Format::Csv => csv_response(&report, "report").map_err(api),
    }
}
