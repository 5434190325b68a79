//! The PD rotation records over JSON (docs/shifts.md): `GET/POST
//! /api/v1/tppps` (the registry and who is marked where), `POST
//! /api/v1/tables/{name}/tppps` (`{name, marked}`), `POST
//! /api/v1/tables/{name}/rotation-override` (`{reason}`) and `GET
//! /api/v1/tables/{name}/rotation-clock`. The actor is who is signed in;
//! every rule is the core's.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{api, manager_body};
use crate::domain::shifts::tppp::{RotationOverride, Tppp};
use crate::domain::staff::Action;
use crate::store::shifts::{ShiftError, floor};
use crate::web::{AppState, ErrorBody, Staff, json};

/// A TPPP marked at a table.
#[derive(Serialize, ToSchema)]
struct TpppMark {
    name: String,
    table: String,
}

/// The registry and who is marked where.
#[derive(Serialize, ToSchema)]
struct TpppList {
    marks: Vec<TpppMark>,
    tppps: Vec<Tppp>,
}

/// A TPPP registered.
#[derive(Serialize, ToSchema)]
struct TpppRegistered {
    tppp: Tppp,
}

/// The TPPPs marked at a table.
#[derive(Serialize, ToSchema)]
struct TableTppps {
    table: String,
    /// Their names.
    tppps: Vec<String>,
}

/// An override recorded.
#[derive(Serialize, ToSchema)]
struct OverrideRecorded {
    #[serde(rename = "override")]
    overridden: RotationOverride,
}

/// A table's rotation clock now.
// Fields in alphabetical order: the bytes sent before this type existed.
#[derive(Serialize, ToSchema)]
struct ClockView {
    /// When the clock runs out (RFC 3339), when it runs.
    deadline: Option<String>,
    /// The players whose banks keep the clock going.
    keeping: Vec<String>,
    min_other_players: u32,
    minutes: u32,
    minutes_left: Option<i64>,
    others: Vec<OtherBank>,
    /// When it started (RFC 3339), when it runs.
    started: Option<String>,
    /// idle, running, warning or expired.
    state: &'static str,
    still_needed: u32,
    /// The clock in a sentence, times on the cardroom's clock.
    words: String,
}

/// Another player's bank that counts on the clock.
#[derive(Serialize, ToSchema)]
struct OtherBank {
    /// RFC 3339.
    at: String,
    player: String,
}

/// A table's clock, or null when its rules have none.
#[derive(Serialize, ToSchema)]
struct TableClock {
    clock: Option<ClockView>,
    table: String,
}

/// The TPPP registry and who is marked at which table.
#[utoipa::path(get, path = "/api/v1/tppps", operation_id = "list_tppps", tag = "floor",
    responses(
        (status = 200, description = "The registry and the marks.", body = TpppList),
        (status = 403, description = "A role that may not read shift reports (`forbidden`).", body = ErrorBody),
    ))]
pub(super) async fn tppps(
    State(state): State<AppState>,
    staff: Staff,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ReadShiftReports).await?;
    let tppps = floor::tppps(&state.db).await.map_err(api)?;
    let marks: Vec<_> = floor::marks(&state.db)
        .await
        .map_err(api)?
        .into_iter()
        .map(|(table, name)| TpppMark { name, table })
        .collect();
    Ok(Json(TpppList { marks, tppps }).into_response())
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TpppRegistration)]
#[serde(deny_unknown_fields)]
struct RegisterBody {
    name: String,
    company: String,
    badge: String,
}

/// Register a third-party proposition player (docs/shifts.md).
#[utoipa::path(post, path = "/api/v1/tppps", operation_id = "register_tppp", tag = "floor",
    request_body(content = RegisterBody, example = json!({"name": "Pat Lee", "company": "Banker Co", "badge": "B-1042"})),
    responses(
        (status = 201, description = "The TPPP registered.", body = TpppRegistered,
            example = json!({"tppp": {"name": "Pat Lee", "company": "Banker Co", "badge": "B-1042",
                "at": "2026-11-24T18:00:00.000000Z", "by": "sam", "seq": 40}})),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 409, description = "Already registered (`conflict`).", body = ErrorBody),
        (status = 422, description = "An empty or bad field, naming it.", body = ErrorBody),
    ))]
pub(super) async fn register(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    let b: RegisterBody = manager_body(&state, &staff, &body).await?;
    let actor = &staff.0.user.username;
    let tppp = floor::register(
        &state.db,
        &state.audit_key,
        actor,
        &b.name,
        &b.company,
        &b.badge,
    )
    .await
    .map_err(api)?;
    Ok((StatusCode::CREATED, Json(TpppRegistered { tppp })).into_response())
}

#[derive(Deserialize, ToSchema)]
#[schema(as = TpppMarking)]
#[serde(deny_unknown_fields)]
struct MarkBody {
    /// A registered TPPP's name.
    name: String,
    /// true: marked at the table; false: taken off it.
    marked: bool,
}

/// Mark a TPPP at a table, or take one off it.
#[utoipa::path(post, path = "/api/v1/tables/{name}/tppps", operation_id = "mark_tppp", tag = "floor",
    params(("name" = String, Path, description = "The table's name.")),
    request_body(content = MarkBody, example = json!({"name": "Pat Lee", "marked": true})),
    responses(
        (status = 200, description = "The TPPPs marked at the table.", body = TableTppps,
            example = json!({"table": "T1", "tppps": ["Pat Lee"]})),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such table (`not_found`).", body = ErrorBody),
        (status = 409, description = "The table has its most TPPPs, or the mark is already so (`conflict`).", body = ErrorBody),
        (status = 422, description = "Not a registered TPPP (`name`).", body = ErrorBody),
    ))]
pub(super) async fn mark(
    State(state): State<AppState>,
    staff: Staff,
    Path(table): Path<String>,
    body: json::Body,
) -> Result<Response, Response> {
    let b: MarkBody = manager_body(&state, &staff, &body).await?;
    let actor = &staff.0.user.username;
    floor::mark(
        &state.db,
        &state.audit_key,
        actor,
        &table,
        &b.name,
        b.marked,
    )
    .await
    .map_err(api)?;
    let here = floor::marks_at(&state.db, &table).await.map_err(api)?;
    Ok(Json(TableTppps { table, tppps: here }).into_response())
}

#[derive(Deserialize, ToSchema)]
#[schema(as = RotationOverrideRequest)]
#[serde(deny_unknown_fields)]
struct OverrideBody {
    /// Why the game goes on past the clock.
    reason: String,
}

/// Let the game go on past the PD rotation clock, with a reason.
#[utoipa::path(post, path = "/api/v1/tables/{name}/rotation-override", operation_id = "override_rotation", tag = "floor",
    params(("name" = String, Path, description = "The table's name.")),
    request_body(content = OverrideBody, example = json!({"reason": "No other player will bank tonight."})),
    responses(
        (status = 201, description = "The override recorded.", body = OverrideRecorded,
            example = json!({"override": {"table": "T1", "reason": "No other player will bank tonight.",
                "at": "2026-11-24T21:00:00.000000Z", "by": "sam", "seq": 77}})),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 404, description = "No such table (`not_found`).", body = ErrorBody),
        (status = 409, description = "The table has no rotation clock (`conflict`).", body = ErrorBody),
        (status = 422, description = "No reason (`reason`).", body = ErrorBody),
    ))]
pub(super) async fn override_clock(
    State(state): State<AppState>,
    staff: Staff,
    Path(table): Path<String>,
    body: json::Body,
) -> Result<Response, Response> {
    let b: OverrideBody = manager_body(&state, &staff, &body).await?;
    let actor = &staff.0.user.username;
    let o = floor::override_rotation(&state.db, &state.audit_key, actor, &table, &b.reason)
        .await
        .map_err(api)?;
    Ok((
        StatusCode::CREATED,
        Json(OverrideRecorded { overridden: o }),
    )
        .into_response())
}

/// A table's PD rotation clock now (`clock` null when its rules have none).
#[utoipa::path(get, path = "/api/v1/tables/{name}/rotation-clock", operation_id = "rotation_clock", tag = "floor",
    params(("name" = String, Path, description = "The table's name.")),
    responses(
        (status = 200, description = "The clock.", body = TableClock),
        (status = 404, description = "No such table (`not_found`).", body = ErrorBody),
    ))]
pub(super) async fn clock(
    State(state): State<AppState>,
    _signed_in: Staff,
    Path(table): Path<String>,
) -> Result<Response, Response> {
    let config = crate::store::double_hand_poker::tables::get(&state.db, &table)
        .await
        .map_err(api)?
        .ok_or_else(|| {
            api(ShiftError::NotFound(format!(
                "there is no table \"{table}\""
            )))
        })?
        .config;
    let clock = floor::clock(&state.db, &config, chrono::Utc::now())
        .await
        .map_err(api)?;
    let zone = state.time_zone;
    let clock = clock.map(|c| ClockView {
        deadline: c.deadline.map(|t| t.to_rfc3339()),
        keeping: c.keeping(),
        min_other_players: c.rule.min_other,
        minutes: c.rule.minutes,
        minutes_left: c.left().map(|d| d.num_minutes()),
        others: c
            .others
            .iter()
            .map(|o| OtherBank {
                at: o.at.to_rfc3339(),
                player: o.player.clone(),
            })
            .collect(),
        started: c.started.map(|t| t.to_rfc3339()),
        state: c.state().name(),
        still_needed: c.still_needed(),
        words: c.words(|t| t.with_timezone(&zone).format("%H:%M").to_string()),
    });
    Ok(Json(TableClock { clock, table }).into_response())
}
