//! Shifts over JSON (docs/shifts.md): `POST /api/v1/shifts` opens one,
//! `POST /api/v1/shifts/{id}/dealers` records a dealer change,
//! `POST /api/v1/shifts/{id}/close` closes it and signs its report,
//! `GET /api/v1/shifts/{id}/report` (JSON, or `?format=csv`) and
//! `GET /api/v1/reports/shift` (any range, a table or the room) read
//! reports. The actor is who is signed in; every rule is the core's.

use axum::Json;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};

use super::{
    api, change_dealer_as, check_table, close_as, csv_response, load_shift, manager_body,
    range_bounds, readable_shift, report_now,
};
use crate::domain::shifts::Shift;
use crate::domain::shifts::report::{Report, ReportJson, standing};
use crate::domain::staff::Action;
use crate::store::shifts::{self, report as reports};
use crate::web::json::query;
use crate::web::{ApiError, AppState, ErrorBody, Staff, json};

#[derive(Deserialize, ToSchema)]
#[schema(as = ShiftOpen)]
#[serde(deny_unknown_fields)]
struct OpenBody {
    /// A table's shift; absent (or empty): the room's.
    #[serde(default)]
    table: Option<String>,
}

/// One shift, as the shift routes answer.
#[derive(Serialize, ToSchema)]
#[schema(as = ShiftAnswer)]
struct ShiftJson<'a> {
    shift: &'a Shift,
}

fn shift_json(shift: &Shift) -> ShiftJson<'_> {
    ShiftJson { shift }
}

/// The newest shifts and the room's setting.
// Fields in alphabetical order: the bytes sent before this type existed.
#[derive(Serialize, ToSchema)]
struct ShiftList {
    /// Whether the room requires an open shift to deal a hand.
    required: bool,
    /// The newest 50, newest first.
    shifts: Vec<Shift>,
}

fn shift_example() -> Value {
    json!({"shift": {"id": "01a22754-0000-7000-8000-000000000001", "table": "T1",
        "opened": {"at": "2026-11-24T18:00:00.000000Z", "by": "sam", "seq": 41},
        "closed": null, "dealers": [{"table": "T1", "dealer": "dana",
            "at": "2026-11-24T18:01:00.000000Z", "by": "sam", "seq": 42}],
        "signatures": []}})
}

/// Open a shift, for a table or the room.
#[utoipa::path(post, path = "/api/v1/shifts", operation_id = "open_shift", tag = "shifts",
    request_body(content = OpenBody, example = json!({"table": "T1"})),
    responses(
        (status = 201, description = "The shift opened.", body = ShiftJson, example = json!(shift_example())),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 409, description = "A shift is already open there (`conflict`).", body = ErrorBody),
        (status = 422, description = "No such table (`table`).", body = ErrorBody),
    ))]
pub(super) async fn open(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    let b: OpenBody = manager_body(&state, &staff, &body).await?;
    let table = b.table.as_deref().map(str::trim).filter(|t| !t.is_empty());
    let shift = shifts::open(&state.db, &state.audit_key, &staff.0.user.username, table)
        .await
        .map_err(api)?;
    Ok((StatusCode::CREATED, Json(shift_json(&shift))).into_response())
}

/// The newest shifts and whether the room requires one.
#[utoipa::path(get, path = "/api/v1/shifts", operation_id = "list_shifts", tag = "shifts",
    responses(
        (status = 200, description = "The newest 50 shifts and the room's setting.", body = ShiftList),
        (status = 403, description = "A role that may not read shift reports (`forbidden`).", body = ErrorBody),
    ))]
pub(super) async fn list(
    State(state): State<AppState>,
    staff: Staff,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let list = shifts::recent(&state.db, 50).await.map_err(api)?;
    let required = shifts::required(&state.db).await.map_err(api)?;
    Ok(Json(ShiftList {
        required,
        shifts: list,
    })
    .into_response())
}

/// A shift: its dealer changes and signatures.
#[utoipa::path(get, path = "/api/v1/shifts/{id}", operation_id = "get_shift", tag = "shifts",
    params(("id" = String, Path, description = "The shift's id.")),
    responses(
        (status = 200, description = "The shift.", body = ShiftJson, example = json!(shift_example())),
        (status = 403, description = "A role that may not read shift reports (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such shift (`not_found`).", body = ErrorBody),
    ))]
pub(super) async fn get(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> Result<Response, Response> {
    let shift = readable_shift(&state, &staff, &id).await?;
    Ok(Json(shift_json(&shift)).into_response())
}

#[derive(Deserialize, ToSchema)]
#[schema(as = ShiftDealerChange)]
#[serde(deny_unknown_fields)]
struct DealerBody {
    /// The table whose box changes hands.
    table: String,
    /// null or absent: the box is left empty.
    #[serde(default)]
    dealer: Option<String>,
}

/// Record a dealer change at a table during the shift.
#[utoipa::path(post, path = "/api/v1/shifts/{id}/dealers", operation_id = "change_shift_dealer", tag = "shifts",
    params(("id" = String, Path, description = "The shift's id.")),
    request_body(content = DealerBody, example = json!({"table": "T1", "dealer": "dana"})),
    responses(
        (status = 200, description = "The shift with the change.", body = ShiftJson, example = json!(shift_example())),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such shift (`not_found`).", body = ErrorBody),
        (status = 409, description = "The shift is closed (`conflict`).", body = ErrorBody),
        (status = 422, description = "A table outside the shift, or not a dealer (`table`, `dealer`).", body = ErrorBody),
    ))]
pub(super) async fn change_dealer(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
    body: json::Body,
) -> Result<Response, Response> {
    let b: DealerBody = manager_body(&state, &staff, &body).await?;
    let dealer = b.dealer.as_deref().map(str::trim).filter(|d| !d.is_empty());
    let shift = change_dealer_as(&state, &staff, &id, b.table.trim(), dealer)
        .await
        .map_err(api)?;
    Ok(Json(shift_json(&shift)).into_response())
}

/// Close a shift and sign its report.
#[utoipa::path(post, path = "/api/v1/shifts/{id}/close", operation_id = "close_shift", tag = "shifts",
    params(("id" = String, Path, description = "The shift's id.")),
    responses(
        (status = 200, description = "The signed report (for a table's shift, `room` holds that \
table's totals).", body = ReportJson),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such shift (`not_found`).", body = ErrorBody),
        (status = 409, description = "Already closed, or a hand is still open (`conflict`).", body = ErrorBody),
    ))]
pub(super) async fn close(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ManageShifts).await?;
    let report = close_as(&state, &staff, &id).await.map_err(api)?;
    let shift = load_shift(&state, &id).await?;
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

/// A shift's report: its format only (the shift is its range).
#[derive(Deserialize, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ShiftReportQuery {
    /// json (default) or csv.
    format: Option<String>,
}

#[derive(Deserialize, Default, IntoParams)]
#[into_params(parameter_in = Query)]
pub(super) struct ReportQuery {
    /// json (default) or csv.
    format: Option<String>,
    /// A table's report; absent: the room's.
    table: Option<String>,
    /// One day on the cardroom's clock (`2026-11-24`).
    date: Option<String>,
    /// The range's start (`2026-11-24T18:00`).
    from: Option<String>,
    /// The range's end.
    to: Option<String>,
}

enum Format {
    Json,
    Csv,
}

fn format_of(format: Option<&str>) -> Result<Format, ApiError> {
    match format.map(str::trim) {
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

/// A shift's report as its hands stand now.
///
/// With its signature's standing: signed, or superseded by the corrections
/// after it.
#[utoipa::path(get, path = "/api/v1/shifts/{id}/report", operation_id = "shift_report", tag = "shifts",
    params(("id" = String, Path, description = "The shift's id."), ShiftReportQuery),
    responses(
        (status = 200, description = "The report (JSON), or its rows (`format=csv`).",
            content((ReportJson = "application/json"), (String = "text/csv"))),
        (status = 403, description = "A role that may not read shift reports (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such shift (`not_found`).", body = ErrorBody),
        (status = 422, description = "Not a format (`format`).", body = ErrorBody),
    ))]
pub(super) async fn report(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
    q: Result<Query<ShiftReportQuery>, QueryRejection>,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let q = query(q).map_err(api)?;
    let format = format_of(q.format.as_deref()).map_err(api)?;
    let shift = load_shift(&state, &id).await?;
    let report = report_now(&state, &shift).await.map_err(api)?;
    match format {
        Format::Json => Ok(report_json(&shift, &report)),
        Format::Csv => csv_response(&report, &format!("shift-{id}")).map_err(api),
    }
}

/// The report of any range, for one table or the room.
///
/// A day, or from and to; unsigned.
#[utoipa::path(get, path = "/api/v1/reports/shift", operation_id = "range_report", tag = "shifts",
    params(ReportQuery),
    responses(
        (status = 200, description = "The report (JSON), or its rows (`format=csv`).",
            content((ReportJson = "application/json"), (String = "text/csv"))),
        (status = 403, description = "A role that may not read shift reports (`forbidden`).", body = ErrorBody),
        (status = 422, description = "A bad range, table or format, naming it.", body = ErrorBody),
    ))]
pub(super) async fn range_report(
    State(state): State<AppState>,
    staff: Staff,
    q: Result<Query<ReportQuery>, QueryRejection>,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let q = query(q).map_err(api)?;
    let format = format_of(q.format.as_deref()).map_err(api)?;
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
