//! What the pages of the kept games (10,000 and poker dice at /dice,
//! Tripoley at /tripoley) share: who may keep one, how many are listed,
//! the rows of the games list (`layout/macros.html`'s `games_table`) and
//! the list page's answer to a refused start.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};

use crate::domain::staff::Action;

/// Keeping a game is for dealers, supervisors and admins; everyone reads.
pub(super) const KEEP: Action = Action::ActOnTable { assigned: true };

/// Games listed on a kept game's list page.
pub(super) const LISTED_GAMES: i64 = 30;

/// One game in the list: its id, when it started, the columns between.
pub(super) struct ListedGame {
    pub id: String,
    pub started: String,
    pub cells: Vec<String>,
}

/// A refused start's message above the form ("field: message"), if any.
pub(super) fn form_error(error: &Option<(String, String)>) -> String {
    error
        .as_ref()
        .map(|(field, message)| format!("{field}: {message}"))
        .unwrap_or_default()
}

/// The list page as answered: 422 when it shows a refused start.
pub(super) fn list_answer(body: Response, refused: bool) -> Response {
    if refused {
        (StatusCode::UNPROCESSABLE_ENTITY, body).into_response()
    } else {
        body
    }
}
