//! `GET /api/v1/hands`: the search's filters as query parameters, one page
//! of hands newest first, the filtered set's totals and the next page's
//! cursor (`after`). A refused filter is a 422 naming it.

use axum::Json;
use axum::extract::{Query, State};
use axum::http::Uri;
use axum::response::{IntoResponse, Response};

use super::{Pairs, checked, refused};
use crate::domain::staff::Action;
use crate::store::history;
use crate::web::{ApiError, AppState, Staff};

pub async fn search(
    State(state): State<AppState>,
    staff: Staff,
    uri: Uri,
    Query(pairs): Pairs,
) -> Result<Response, Response> {
    staff
        .require(&state, Action::ReviewHistory, uri.path())
        .await?;
    let internal = |e: crate::store::StoreError| ApiError::from(e).into_response();
    let (filter, bounds) = match checked(&state, &pairs).await.map_err(internal)? {
        Ok(checked) => checked,
        Err(errors) => return Err(refused(errors)),
    };
    let page = history::search(&state.db, &filter, bounds)
        .await
        .map_err(internal)?;
    Ok(Json(page).into_response())
}
