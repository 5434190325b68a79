//! Shifts (docs/shifts.md): the shifts page (open one, the room's
//! setting; `pages.rs`), a shift's page (dealer changes, close and sign;
//! `shift_page.rs`), its report with charts and a print stylesheet
//! (`report_page.rs`, charts in `chart.rs`), and the same over JSON and
//! CSV (`api.rs`). Who acts is who is signed
//! in; every rule is the core's (`domain::shifts`), applied by the store
//! under the chain lock.

pub(super) mod api;
mod chart;
pub(super) mod floor_api;
mod pages;
mod report_lines;
mod report_page;
mod shift_page;

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::domain::common::field_error::FieldError;
use crate::domain::history::TimeRange;
use crate::domain::shifts::report::{CSV_HEADER, Report, csv_rows};
use crate::domain::shifts::{ReportRange, Shift, parse_report_range};
use crate::store::StoreError;
use crate::store::shifts::{self, ShiftError, Signing};
use crate::web::{ApiError, AppState, Staff};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/shifts", get(pages::home).post(pages::open))
        .route("/shifts/required", post(pages::set_required))
        .route("/shifts/{id}", get(shift_page::shift))
        .route("/shifts/{id}/dealers", post(shift_page::change_dealer))
        .route("/shifts/{id}/close", post(shift_page::close))
        .route("/shifts/{id}/sign", post(shift_page::sign_again))
        .route("/shifts/{id}/report", get(report_page::report))
        .route("/api/v1/shifts", post(api::open).get(api::list))
        .route("/api/v1/shifts/{id}", get(api::get))
        .route("/api/v1/shifts/{id}/dealers", post(api::change_dealer))
        .route("/api/v1/shifts/{id}/close", post(api::close))
        .route("/api/v1/shifts/{id}/report", get(api::report))
        .route("/api/v1/reports/shift", get(api::range_report))
        .route("/shifts/tppps", post(pages::register_tppp))
        .route(
            "/api/v1/tppps",
            get(floor_api::tppps).post(floor_api::register),
        )
        .route("/api/v1/tables/{name}/tppps", post(floor_api::mark))
        .route(
            "/api/v1/tables/{name}/rotation-override",
            post(floor_api::override_clock),
        )
        .route(
            "/api/v1/tables/{name}/rotation-clock",
            get(floor_api::clock),
        )
}

/// Any error that has an HTTP answer, as that answer.
fn api<E: Into<ApiError>>(e: E) -> Response {
    e.into().into_response()
}

/// The JSON body of a change to shifts or the floor, once the role is
/// checked: a supervisor's or an admin's (403, recorded, for anyone else).
async fn manager_body<B: serde::de::DeserializeOwned + utoipa::ToSchema>(
    state: &AppState,
    staff: &Staff,
    body: &crate::web::json::Body,
) -> Result<B, Response> {
    staff
        .require_here(state, crate::domain::staff::Action::ManageShifts)
        .await?;
    let parsed = crate::web::json::parse(body).map_err(api)?;
    crate::web::json::conforms::<B>(body).map_err(api)?;
    Ok(parsed)
}

/// `shift`'s report as its hands stand now.
async fn report_now(state: &AppState, shift: &Shift) -> Result<Report, StoreError> {
    let on = &mut shifts::report::On::Db(&state.db);
    shifts::report::of_shift(on, shift, state.time_zone, &crate::store::audit::now_text()).await
}

/// Shift `id`, or its 404.
async fn load_shift(state: &AppState, id: &str) -> Result<Shift, Response> {
    shifts::load(&state.db, id)
        .await
        .map_err(api)?
        .ok_or_else(|| api(ShiftError::NotFound(format!("there is no shift {id}"))))
}

/// Shift `id` for a reader of shift reports (403, recorded, for anyone
/// else), or its 404.
async fn readable_shift(state: &AppState, staff: &Staff, id: &str) -> Result<Shift, Response> {
    staff
        .require_here(state, crate::domain::staff::Action::ReadShiftReports)
        .await?;
    load_shift(state, id).await
}

/// Closes shift `id` as the signed-in member and signs its report.
async fn close_as(state: &AppState, staff: &Staff, id: &str) -> Result<Report, ShiftError> {
    let actor = &staff.0.user.username;
    let zone = state.time_zone;
    shifts::sign(&state.db, &state.audit_key, actor, id, zone, Signing::Close).await
}

/// Records, as the signed-in member, who takes the box at `table` during
/// shift `id` (None: the box is left empty).
async fn change_dealer_as(
    state: &AppState,
    staff: &Staff,
    id: &str,
    table: &str,
    dealer: Option<&str>,
) -> Result<Shift, ShiftError> {
    let actor = &staff.0.user.username;
    shifts::change_dealer(&state.db, &state.audit_key, actor, id, table, dealer).await
}

/// The report as CSV text (`csv_rows` under `CSV_HEADER`).
pub fn report_csv(report: &Report) -> Result<Vec<u8>, StoreError> {
    let mut w = csv::Writer::from_writer(Vec::new());
    let failed = |e: csv::Error| StoreError::Internal(format!("writing the CSV: {e}"));
    w.write_record(CSV_HEADER).map_err(failed)?;
    for row in csv_rows(report) {
        w.write_record(&row).map_err(failed)?;
    }
    w.into_inner()
        .map_err(|e| StoreError::Internal(format!("writing the CSV: {e}")))
}

/// A CSV download named `name`.
fn csv_response(report: &Report, name: &str) -> Result<Response, ApiError> {
    let body = report_csv(report).map_err(ApiError::from)?;
    let mut response = body.into_response();
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("text/csv; charset=utf-8"),
    );
    if let Ok(v) = HeaderValue::from_str(&format!("attachment; filename=\"{name}.csv\"")) {
        headers.insert(header::CONTENT_DISPOSITION, v);
    }
    Ok(response)
}

/// A report range (`date`, or `from` and `to`, on the cardroom's clock) as
/// UTC bounds: the core reads it, the shell's clock places it.
pub fn range_bounds(
    date: Option<&str>,
    from: Option<&str>,
    to: Option<&str>,
    zone: chrono_tz::Tz,
) -> Result<(String, String), FieldError> {
    let range = match parse_report_range(date, from, to)? {
        ReportRange::Day(d) => TimeRange::Day(d),
        ReportRange::Between { from, to } => TimeRange::Between {
            from: Some(from),
            to: Some(to),
        },
    };
    match crate::store::history::time::bounds(Some(&range), chrono::Utc::now(), zone) {
        (Some(from), Some(to)) => Ok((from, to)),
        _ => Err(FieldError::new(
            "from",
            "not a time on this cardroom's clock",
        )),
    }
}

/// Whether `table` is a configured table (a report of an unknown table is
/// refused, not empty).
async fn check_table(state: &AppState, table: Option<&str>) -> Result<(), ApiError> {
    if let Some(t) = table
        && crate::store::double_hand_poker::tables::get(&state.db, t)
            .await?
            .is_none()
    {
        return Err(ApiError::BadInput(
            FieldError::new("table", format!("there is no table \"{t}\"")).with_value(t),
        ));
    }
    Ok(())
}
