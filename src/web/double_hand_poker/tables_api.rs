//! Tables over the JSON API, for a supervisor's scripts (and the load
//! test): create a table, read it, assign or unassign a dealer. The same
//! store calls and checks as the tables pages; each change is audited.

use axum::body::Bytes;
use axum::extract::State;
use axum::http::{StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::json;

use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::staff::Action;
use crate::store::double_hand_poker::tables::{self, TableStoreError};
use crate::web::{ApiError, AppState, AtPath, Staff, json};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/tables", post(create))
        .route("/api/v1/tables/{name}", axum::routing::get(show))
        .route("/api/v1/tables/{name}/dealers", post(dealers))
}

fn refused(e: TableStoreError) -> Response {
    ApiError::from(e).into_response()
}

/// The body is a [`TableConfig`] (docs/tables-and-hands.md); 201 with the
/// table as stored.
async fn create(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    body: Bytes,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ManageTables, uri.path())
        .await?;
    let config: TableConfig = json::parse(&body).map_err(IntoResponse::into_response)?;
    tables::create(&state.db, &state.audit_key, &staff.0.user.username, &config)
        .await
        .map_err(refused)?;
    Ok((StatusCode::CREATED, Json(config)).into_response())
}

async fn show(
    AtPath {
        state,
        staff,
        uri,
        id: name,
    }: AtPath,
) -> Result<Response, Response> {
    staff.require(&state, Action::Read, uri.path()).await?;
    match tables::get(&state.db, &name)
        .await
        .map_err(|e| ApiError::from(e).into_response())?
    {
        Some(t) => Ok(Json(json!({"table": t.config, "dealers": t.dealers})).into_response()),
        None => Err(ApiError::NotFound(format!("table: no table \"{name}\"")).into_response()),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Assignment {
    dealer: String,
    assigned: bool,
}

/// `{"dealer": "dana", "assigned": true}` assigns, `false` unassigns.
async fn dealers(
    AtPath {
        state,
        staff,
        uri,
        id: name,
    }: AtPath,
    body: Bytes,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::AssignDealers, uri.path())
        .await?;
    let a: Assignment = json::parse(&body).map_err(IntoResponse::into_response)?;
    tables::set_dealer(
        &state.db,
        &state.audit_key,
        &staff.0.user.username,
        &name,
        &a.dealer,
        a.assigned,
    )
    .await
    .map_err(|e| match e {
        // The store names the account `username`; this body calls it `dealer`.
        TableStoreError::Invalid(fe) if fe.field() == "username" => {
            refused(TableStoreError::Invalid(fe.with_field("dealer")))
        }
        e => refused(e),
    })?;
    Ok(Json(json!({"table": name, "dealer": a.dealer, "assigned": a.assigned})).into_response())
}
