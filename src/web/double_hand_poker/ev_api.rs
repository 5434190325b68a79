//! `POST /api/v1/hands/ev`: the exact value of every setting of seven cards
//! (`domain::double_hand_poker::ev`; docs/hands.md). Counting takes
//! seconds of every CPU, so one count runs at a time on a blocking thread;
//! a request that comes while one runs is refused with 409 rather than
//! queued behind it. The value page (`ev_page.rs`) counts with [`count`],
//! `pitbook hand ev` with [`counted`].

use axum::routing::post;
use axum::{Json, Router};

use crate::domain::double_hand_poker::ev::{EvJob, EvRequest, EvResponse};
use crate::web::json::{Body, conforms, parse};
use crate::web::{ApiError, AppState, ErrorBody};

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/hands/ev", post(ev_post))
}

/// One count at a time across the server.
static COUNTING: tokio::sync::Semaphore = tokio::sync::Semaphore::const_new(1);

/// The exact value of every setting of seven cards.
///
/// Against every hand the other side can hold: seconds of every CPU, so one
/// count runs at a time.
#[utoipa::path(post, path = "/api/v1/hands/ev", operation_id = "hand_value", tag = "hand tools",
    request_body(content = EvRequest, example = json!({"cards": "As Ks Qd Jc 9h 8s 8d", "side": "player"})),
    responses(
        (status = 200, description = "Every setting's win, push and loss counts and value, the \
house way's choice and the best.", body = EvResponse),
        (status = 409, description = "Another hand's value is being counted; ask again when it \
is done (`conflict`).", body = ErrorBody),
        (status = 422, description = "Not seven cards, or a card twice (`cards`).", body = ErrorBody),
    ))]
async fn ev_post(body: Body) -> Result<Json<EvResponse>, ApiError> {
    let req: EvRequest = parse(&body)?;
    let job = req.job().map_err(|e| ApiError::refused(&e))?;
    conforms::<EvRequest>(&body)?;
    let (_, response) = count(job).await?;
    Ok(Json(response))
}

/// `job` counted on a blocking thread, if no other count is running
/// (409 if one is): the job back with its response.
pub async fn count(job: EvJob) -> Result<(EvJob, EvResponse), ApiError> {
    let Ok(_turn) = COUNTING.try_acquire() else {
        return Err(ApiError::Conflict(
            "another hand's value is being counted; ask again when it is done (a few seconds)"
                .into(),
        ));
    };
    tokio::task::spawn_blocking(move || {
        let response = job.response(&job.count(job.parts()));
        (job, response)
    })
    .await
    .map_err(ApiError::internal)
}
