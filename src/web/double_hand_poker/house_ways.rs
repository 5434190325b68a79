//! House ways as a room keeps them (docs/house-ways.md): every house way's
//! chart to print and post (`GET /tools/house-ways`, `…/{name}`), and a
//! supervisor loading the room's own file — on the list page's form or
//! `POST /api/v1/house-ways` — checked by the core, recorded in the audit
//! log, then offered when a table is created. A refused file: 422, the
//! line and what was wrong beside the text, the text kept.

use askama::Template;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::json;
use utoipa::ToSchema;

use crate::domain::double_hand_poker::house_way::{self, HouseWayFile, chart::ChartLine};
use crate::domain::double_hand_poker::options::HouseWayName;
use crate::domain::staff::{Action, allows};
use crate::store::double_hand_poker::house_ways::{self, StoredWay};
use crate::store::write_error::WriteError;
use crate::web::staff::page;
use crate::web::{
    ApiError, AppState, CsrfForm, ErrorBody, PageContext, PageError, PageResult, Staff, json,
};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/tools/house-ways", get(list).post(load_page))
        .route("/tools/house-ways/{name}", get(chart))
        .route("/api/v1/house-ways", get(list_api).post(load_api))
}

/// A house way's rules as they are posted.
struct WayChart {
    name: String,
    title: String,
    sources: Vec<String>,
    lines: Vec<ChartLine>,
    /// Who loaded it and when (a loaded way), else empty.
    loaded: String,
}

#[derive(Template)]
#[template(path = "double_hand_poker/house_way_chart.html")]
struct ChartPage {
    ctx: PageContext,
    ways: Vec<WayChart>,
    /// One way's chart (its page), or the list of every way.
    one: bool,
    /// The load form (a supervisor's list page): the text as typed and the
    /// refusal beside it.
    can_load: bool,
    text: String,
    error: String,
}

fn way_chart(name: HouseWayName, way: &HouseWayFile, loaded: String) -> WayChart {
    WayChart {
        name: name.name().to_string(),
        title: way.title.clone(),
        sources: way.sources.clone(),
        lines: house_way::chart::chart(way),
        loaded,
    }
}

fn loaded_words(state: &AppState, w: &StoredWay) -> String {
    let at = crate::web::time::when(state.time_zone, &w.loaded_at);
    format!("loaded by {} on {}", w.loaded_by, at.local)
}

/// The list page: the shipped ways, the loaded ones, the load form.
async fn list_page(
    state: &AppState,
    staff: &Staff,
    text: String,
    error: String,
) -> Result<Response, PageError> {
    let stored = house_ways::list(&state.db)
        .await
        .map_err(PageError::internal)?;
    let shipped = HouseWayName::ALL
        .iter()
        .filter_map(|&name| house_way::file_of(name).map(|f| way_chart(name, &f, String::new())));
    let loaded = stored.iter().filter_map(|w| {
        house_way::file_of(w.house_way).map(|f| way_chart(w.house_way, &f, loaded_words(state, w)))
    });
    let failed = !error.is_empty();
    let body = page(&ChartPage {
        ctx: PageContext::of(staff),
        ways: shipped.chain(loaded).collect(),
        one: false,
        can_load: allows(staff.0.user.role, Action::ManageTables),
        text,
        error,
    });
    Ok(if failed {
        (StatusCode::UNPROCESSABLE_ENTITY, body).into_response()
    } else {
        body
    })
}

/// `GET /tools/house-ways`: every house way pitbook has, each by name.
async fn list(State(state): State<AppState>, staff: Staff) -> PageResult {
    list_page(&state, &staff, String::new(), String::new()).await
}

#[derive(Deserialize)]
struct LoadForm {
    #[serde(default)]
    text: String,
}

/// `POST /tools/house-ways`: a supervisor loads a file; its chart next.
async fn load_page(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<LoadForm>,
) -> PageResult {
    staff.require_here(&state, Action::ManageTables).await?;
    // Browsers send a textarea's lines ending CR LF: the file is its lines.
    let text = form.text.replace("\r\n", "\n");
    match house_ways::load(&state.db, &state.audit_key, &staff.0.user.username, &text).await {
        Ok(way) => {
            Ok(Redirect::to(&format!("/tools/house-ways/{}", way.house_way)).into_response())
        }
        Err(WriteError::Invalid(e)) => {
            list_page(&state, &staff, form.text, e.message().to_string()).await
        }
        Err(WriteError::Store(e)) => Err(PageError::internal(e)),
    }
}

/// `GET /tools/house-ways/{name}`: the chart to print and post at a table.
async fn chart(
    State(state): State<AppState>,
    staff: Staff,
    Path(name): Path<String>,
) -> PageResult {
    let not_found = || {
        let shown: String = name.chars().take(60).collect();
        ApiError::NotFound(format!("house way: no house way \"{shown}\"")).into_response()
    };
    let Some(way_name) = HouseWayName::parse(&name) else {
        return Ok(not_found());
    };
    if house_ways::hold(&state.db, way_name).await.is_err() {
        return Ok(not_found());
    }
    let Some(way) = house_way::file_of(way_name) else {
        return Ok(not_found());
    };
    let loaded = match way_name {
        HouseWayName::Loaded(_) => house_ways::list(&state.db)
            .await
            .map_err(PageError::internal)?
            .iter()
            .find(|w| w.house_way == way_name)
            .map(|w| loaded_words(&state, w))
            .unwrap_or_default(),
        _ => String::new(),
    };
    Ok(page(&ChartPage {
        ctx: PageContext::of(&staff),
        ways: vec![way_chart(way_name, &way, loaded)],
        one: true,
        can_load: false,
        text: String::new(),
        error: String::new(),
    }))
}

/// Every house way a table can name.
#[derive(Serialize, ToSchema)]
struct HouseWayList {
    /// The shipped house ways' names.
    shipped: Vec<String>,
    /// The loaded ones, oldest first.
    loaded: Vec<StoredWay>,
}

/// A house-way file to load.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
struct LoadRequest {
    /// The whole file (format `house-way 1` or `house-way 2`, docs/house-ways.md).
    text: String,
}

fn loaded_example() -> serde_json::Value {
    json!({"house_way": "my-room@3fa2c1d09b7e", "title": "My room's house way",
        "loaded_by": "sam", "loaded_at": "2026-12-04T19:02:11.123456Z", "seq": 42})
}

/// Every house way a table can name.
#[utoipa::path(get, path = "/api/v1/house-ways", operation_id = "list_house_ways", tag = "tables",
    responses(
        (status = 200, description = "The shipped house ways and the loaded ones.", body = HouseWayList,
            example = json!({"shipped": ["reference", "foxwoods", "atlantic-city", "gold-star", "mgm"],
                "loaded": [loaded_example()]})),
    ))]
async fn list_api(State(state): State<AppState>, _staff: Staff) -> Result<Response, ApiError> {
    let loaded = house_ways::list(&state.db).await?;
    let shipped = HouseWayName::ALL
        .iter()
        .map(|w| w.name().to_string())
        .collect();
    Ok(Json(HouseWayList { shipped, loaded }).into_response())
}

/// Load a house way.
///
/// The file is checked — it parses, names no shipped way, and under every
/// joker and wheel rule sets every hand by a rule without fouling — then
/// recorded in the audit log. Its name (`name@digest`) is what a table's
/// `options.house_way` names. Loading a file loaded before records nothing.
#[utoipa::path(post, path = "/api/v1/house-ways", operation_id = "load_house_way", tag = "tables",
    request_body(content = LoadRequest,
        example = json!({"text": "house-way 2\nname my-room\ntitle My room's house way\nsource The floor\n…"})),
    responses(
        (status = 201, description = "The house way as loaded.", body = StoredWay,
            example = json!(loaded_example())),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 422, description = "Refused, field `text`: the line and what was expected, \
a shipped way's name, or a hand no rule sets.", body = ErrorBody),
    ))]
async fn load_api(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ManageTables).await?;
    let request: LoadRequest = json::parse(&body).map_err(IntoResponse::into_response)?;
    json::conforms::<LoadRequest>(&body).map_err(IntoResponse::into_response)?;
    let way = house_ways::load(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &request.text,
    )
    .await
    .map_err(|e| ApiError::from(e).into_response())?;
    Ok((StatusCode::CREATED, Json(way)).into_response())
}
