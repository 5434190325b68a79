//! Tables over the JSON API, for a supervisor's scripts (and the load
//! test): create a table, read it, assign or unassign a dealer. The same
//! store calls and checks as the tables pages; each change is audited.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use axum::{Json, Router};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::ToSchema;

use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::staff::Action;
use crate::store::double_hand_poker::tables::{self, TableStoreError};
use crate::web::{ApiError, AppState, AtPath, ErrorBody, Staff, json};

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/api/v1/tables", post(create))
        .route("/api/v1/tables/{name}", axum::routing::get(show))
        .route("/api/v1/tables/{name}/dealers", post(dealers))
}

fn refused(e: TableStoreError) -> Response {
    ApiError::from(e).into_response()
}

/// A table and its dealers, as `GET /api/v1/tables/{name}` answers.
// Fields in alphabetical order: the bytes sent before this type existed.
#[derive(Serialize, ToSchema)]
struct TableView {
    /// The dealers assigned to it.
    dealers: Vec<String>,
    table: TableConfig,
}

/// An assignment as recorded.
#[derive(Serialize, ToSchema)]
#[schema(as = DealerAssigned)]
struct Assigned {
    assigned: bool,
    dealer: String,
    table: String,
}

fn table_example() -> Value {
    json!({"name": "T1", "profile": "lucky-chances", "seats": 7, "options": {"min_unit": "1"},
        "wager_min": "5", "wager_max": "100",
        "player_schedule": [{"from": "1", "to": "100", "fee": "1"}],
        "bank_schedule": [{"from": "1", "to": "500", "fee": "1"}]})
}

/// Configure a table.
///
/// Its profile, seats, rule options, limits and the collection it posts
/// (docs/tables-and-hands.md).
#[utoipa::path(post, path = "/api/v1/tables", operation_id = "create_table", tag = "tables",
    request_body(content = TableConfig, example = json!(table_example())),
    responses(
        (status = 201, description = "The table as stored.", body = TableConfig, example = json!(table_example())),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 422, description = "A bad setting, naming it (`seats: 11 is not a seat count of 2..10`), or a name already taken.", body = ErrorBody),
    ))]
async fn create(
    State(state): State<AppState>,
    staff: Staff,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::ManageTables).await?;
    let config: TableConfig = json::parse(&body).map_err(IntoResponse::into_response)?;
    json::conforms::<TableConfig>(&body).map_err(IntoResponse::into_response)?;
    tables::create(&state.db, &state.audit_key, &staff.0.user.username, &config)
        .await
        .map_err(refused)?;
    Ok((StatusCode::CREATED, Json(config)).into_response())
}

/// A table's configuration and its dealers.
#[utoipa::path(get, path = "/api/v1/tables/{name}", operation_id = "get_table", tag = "tables",
    params(("name" = String, Path, description = "The table's name.")),
    responses(
        (status = 200, description = "The table.", body = TableView,
            example = json!({"table": table_example(), "dealers": ["dana"]})),
        (status = 404, description = "No such table (`not_found`).", body = ErrorBody),
    ))]
async fn show(
    AtPath {
        state,
        staff,
        id: name,
    }: AtPath,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::Read).await?;
    match tables::get(&state.db, &name)
        .await
        .map_err(|e| ApiError::from(e).into_response())?
    {
        Some(t) => Ok(Json(TableView {
            dealers: t.dealers,
            table: t.config,
        })
        .into_response()),
        None => Err(ApiError::NotFound(format!("table: no table \"{name}\"")).into_response()),
    }
}

#[derive(Deserialize, ToSchema)]
#[schema(as = DealerAssignment)]
#[serde(deny_unknown_fields)]
struct Assignment {
    /// The dealer's username.
    dealer: String,
    /// true assigns, false unassigns.
    assigned: bool,
}

/// Assign a dealer to a table, or unassign one.
#[utoipa::path(post, path = "/api/v1/tables/{name}/dealers", operation_id = "assign_dealer", tag = "tables",
    params(("name" = String, Path, description = "The table's name.")),
    request_body(content = Assignment, example = json!({"dealer": "dana", "assigned": true})),
    responses(
        (status = 200, description = "The assignment as recorded.", body = Assigned,
            example = json!({"table": "T1", "dealer": "dana", "assigned": true})),
        (status = 403, description = "Not a supervisor or admin (`forbidden`).", body = ErrorBody),
        (status = 422, description = "No such table or account, or not a dealer (`dealer`).", body = ErrorBody),
    ))]
async fn dealers(
    AtPath {
        state,
        staff,
        id: name,
    }: AtPath,
    body: json::Body,
) -> Result<Response, Response> {
    staff.require_here(&state, Action::AssignDealers).await?;
    let a: Assignment = json::parse(&body).map_err(IntoResponse::into_response)?;
    json::conforms::<Assignment>(&body).map_err(IntoResponse::into_response)?;
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
    Ok(Json(Assigned {
        assigned: a.assigned,
        dealer: a.dealer,
        table: name,
    })
    .into_response())
}
