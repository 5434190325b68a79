//! The PD rotation records over JSON (docs/shifts.md): `GET/POST
//! /api/v1/tppps` (the registry and who is marked where), `POST
//! /api/v1/tables/{name}/tppps` (`{name, marked}`), `POST
//! /api/v1/tables/{name}/rotation-override` (`{reason}`) and `GET
//! /api/v1/tables/{name}/rotation-clock`. The actor is who is signed in;
//! every rule is the core's.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use super::api;
use crate::domain::staff::Action;
use crate::store::shifts::{ShiftError, floor};
use crate::web::{AppState, Staff, json};

/// `GET /api/v1/tppps`: the registry and the marks.
pub(super) async fn list(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ReadShiftReports, uri.path())
        .await?;
    let tppps = floor::tppps(&state.db).await.map_err(api)?;
    let marks: Vec<_> = floor::marks(&state.db)
        .await
        .map_err(api)?
        .into_iter()
        .map(|(table, name)| json!({ "table": table, "name": name }))
        .collect();
    Ok(Json(json!({ "tppps": tppps, "marks": marks })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RegisterBody {
    name: String,
    company: String,
    badge: String,
}

/// `POST /api/v1/tppps`: `{name, company, badge}` → 201 and the TPPP.
pub(super) async fn register(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    body: json::Body,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageShifts, uri.path())
        .await?;
    let b: RegisterBody = json::parse(&body).map_err(api)?;
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
    Ok((StatusCode::CREATED, Json(json!({ "tppp": tppp }))).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MarkBody {
    name: String,
    /// true: marked at the table; false: taken off it.
    marked: bool,
}

/// `POST /api/v1/tables/{name}/tppps`: `{name, marked}` → the table's TPPPs.
pub(super) async fn mark(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Path(table): Path<String>,
    body: json::Body,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageShifts, uri.path())
        .await?;
    let b: MarkBody = json::parse(&body).map_err(api)?;
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
    Ok(Json(json!({ "table": table, "tppps": here })).into_response())
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OverrideBody {
    reason: String,
}

/// `POST /api/v1/tables/{name}/rotation-override`: `{reason}` → 201.
pub(super) async fn override_clock(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Path(table): Path<String>,
    body: json::Body,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageShifts, uri.path())
        .await?;
    let b: OverrideBody = json::parse(&body).map_err(api)?;
    let actor = &staff.0.user.username;
    let o = floor::override_rotation(&state.db, &state.audit_key, actor, &table, &b.reason)
        .await
        .map_err(api)?;
    Ok((StatusCode::CREATED, Json(json!({ "override": o }))).into_response())
}

/// `GET /api/v1/tables/{name}/rotation-clock`: the clock now (`clock`
/// null when the table's rules have none).
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
    let body = clock.map(|c| {
        json!({
            "minutes": c.rule.minutes,
            "min_other_players": c.rule.min_other,
            "state": c.state().name(),
            "started": c.started.map(|t| t.to_rfc3339()),
            "deadline": c.deadline.map(|t| t.to_rfc3339()),
            "minutes_left": c.left().map(|d| d.num_minutes()),
            "others": c.others.iter().map(|o| json!({"player": o.player, "at": o.at.to_rfc3339()})).collect::<Vec<_>>(),
            "keeping": c.keeping(),
            "still_needed": c.still_needed(),
            "words": c.words(|t| t.with_timezone(&zone).format("%H:%M").to_string()),
        })
    });
    Ok(Json(json!({ "table": table, "clock": body })).into_response())
}
