//! Shifts (docs/shifts.md): the shifts page (open one, the room's
//! setting), a shift's page (dealer changes, close and sign), its report
//! with charts and a print stylesheet (`pages.rs`, charts in `chart.rs`),
//! and the same over JSON and CSV (`api.rs`). Who acts is who is signed
//! in; every rule is the core's (`domain::shifts`), applied by the store
//! under the chain lock.

pub(super) mod api;
mod chart;
pub(super) mod floor_api;
mod pages;
mod report_lines;

use axum::Router;
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};

use crate::domain::common::field_error::FieldError;
use crate::domain::history::TimeRange;
use crate::domain::shifts::report::{CSV_HEADER, Report, csv_rows};
use crate::domain::shifts::{ReportRange, parse_report_range};
use crate::store::StoreError;
use crate::web::{ApiError, AppState};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/shifts", get(pages::home).post(pages::open))
        .route("/shifts/required", post(pages::set_required))
        .route("/shifts/{id}", get(pages::shift))
        .route("/shifts/{id}/dealers", post(pages::change_dealer))
        .route("/shifts/{id}/close", post(pages::close))
        .route("/shifts/{id}/sign", post(pages::sign_again))
        .route("/shifts/{id}/report", get(pages::report))
        .route("/api/v1/shifts", post(api::open).get(api::list))
        .route("/api/v1/shifts/{id}", get(api::get))
        .route("/api/v1/shifts/{id}/dealers", post(api::change_dealer))
        .route("/api/v1/shifts/{id}/close", post(api::close))
        .route("/api/v1/shifts/{id}/report", get(api::report))
        .route("/api/v1/reports/shift", get(api::range_report))
        .route("/shifts/tppps", post(pages::register_tppp))
        .route(
            "/api/v1/tppps",
            get(floor_api::list).post(floor_api::register),
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
