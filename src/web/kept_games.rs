//! The pages every kept game (10,000 and poker dice at /dice, Tripoley at
//! /tripoley) shares, written once over [`KeptPages`]: the games list and
//! starting a game (`GET`/`POST /<game>`), a game's page and an action on
//! it (`GET`/`POST /<game>/{id}`: the action recorded and the page
//! reloaded, or the game's page again with the refusal). Each game's
//! module keeps only its pages' content: its forms read into its start and
//! its actions, its templates.

use crate::web::{PageError, PageResult};
use axum::Router;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::get;

use crate::domain::common::field_error::FieldError;
use crate::domain::staff::{Action, allows};
use crate::store::kept_games::{self, KeptGame, KeptGameError, StoredGame};
use crate::web::double_hand_poker::play::forms::Fields;
use crate::web::error::internal;
use crate::web::{ApiError, AppState, CsrfForm, PageContext, PagePost, Staff};

/// Keeping a game is for dealers, supervisors and admins; everyone reads.
pub(super) const KEEP: Action = Action::ActOnTable { assigned: true };

/// Games listed on a kept game's list page.
const LISTED_GAMES: i64 = 30;

/// A kept game's pages: what is the game's own beside the shared handlers.
pub(super) trait KeptPages: KeptGame {
    /// Where its pages are (`/dice`): the list, and `{PATH}/{id}` a game.
    const PATH: &'static str;
    /// A new game from the start form, or the field refused and why.
    fn new_game(fields: &Fields) -> Result<Self, (String, String)>;
    /// A game's columns in the list, between when it started and its link.
    fn cells(stored: &StoredGame<Self>) -> Vec<String>;
    /// The list page (the game's template over [`GamesList`]).
    fn list_page(list: GamesList) -> Response;
    /// A game's page: `typed` what a refused form had typed, `error` the
    /// refusal, shown beside its field's input when the page has one.
    fn game_page(
        staff: &Staff,
        stored: &StoredGame<Self>,
        typed: Vec<(String, String)>,
        error: Option<Refusal>,
    ) -> Response;
    /// The action a form asks for, or the page that answers the form
    /// without recording anything (a refusal, a preview; boxed, as a
    /// response is large).
    fn action_of(
        staff: &Staff,
        stored: &StoredGame<Self>,
        fields: &Fields,
        typed: &[(String, String)],
    ) -> Result<Self::Action, Box<Response>>;
}

/// The routes of a kept game's pages.
pub(super) fn router<G: KeptPages>() -> Router<AppState> {
    Router::new()
        .route(G::PATH, get(list::<G>).post(start::<G>))
        .route(
            &format!("{}/{{id}}", G::PATH),
            get(show::<G>).post(act::<G>),
        )
}

/// What a kept game's list page shows; each game's template lays it out.
pub(super) struct GamesList {
    pub ctx: PageContext,
    pub games: Vec<ListedGame>,
    pub can_keep: bool,
    /// What a refused start had typed.
    pub typed: Vec<(String, String)>,
    /// A refused start's field (`players`, `chips` …: the form's input).
    pub error_field: String,
    /// Its message in the form's words, shown beside that field.
    pub error: String,
}

impl GamesList {
    fn refused(self, error: Option<&(String, String)>) -> GamesList {
        match error {
            Some((field, message)) => {
                let (error_field, error) = in_form_words(field, message);
                GamesList {
                    error_field,
                    error,
                    ..self
                }
            }
            None => self,
        }
    }

    /// Whether the refused start named one of `fields`, each shown beside
    /// its input (else the message is shown above the form).
    pub fn beside(&self, fields: &[&str]) -> bool {
        fields.contains(&self.error_field.as_str())
    }

    /// The refused start's message when it named `field`, else nothing.
    pub fn error_on(&self, field: &str) -> &str {
        if self.error_field == field {
            &self.error
        } else {
            ""
        }
    }
}

/// A refused start in the form's words: a name's place (`players[1]`) is
/// the players field, the name counted from 1 as the form lists them, and
/// an invisible character the message names by its code point is not also
/// printed as a `\u{…}` escape.
fn in_form_words(field: &str, message: &str) -> (String, String) {
    let mut plain = String::with_capacity(message.len());
    let mut rest = message;
    while let Some(at) = rest.find("\\u{") {
        plain.push_str(&rest[..at]);
        let tail = &rest[at + 3..];
        match tail.find('}') {
            Some(end) if end <= 6 && tail[..end].chars().all(|c| c.is_ascii_hexdigit()) => {
                rest = &tail[end + 1..];
            }
            _ => {
                plain.push_str("\\u{");
                rest = tail;
            }
        }
    }
    plain.push_str(rest);
    let place = field
        .strip_prefix("players[")
        .and_then(|r| r.split_once(']'))
        .and_then(|(i, _)| i.parse::<usize>().ok());
    match place {
        Some(i) => ("players".into(), format!("Player {}: {plain}", i + 1)),
        None => (field.to_string(), plain),
    }
}

/// One game in the list: its id, when it started, the columns between.
pub(super) struct ListedGame {
    pub id: String,
    pub started: String,
    pub cells: Vec<String>,
}

/// The players typed into the start form's `players`, by commas or lines.
pub(super) fn players(fields: &Fields) -> Vec<String> {
    fields
        .get("players")
        .split([',', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// A whole number typed into `name` (`None` when left empty), or the
/// refusal naming `field`.
pub(super) fn whole_number(
    fields: &Fields,
    name: &str,
    field: &str,
) -> Result<Option<i64>, (String, String)> {
    let text = fields.get(name).trim();
    if text.is_empty() {
        return Ok(None);
    }
    text.parse().map(Some).map_err(|_| {
        (
            field.to_string(),
            format!("\"{text}\" is not a whole number"),
        )
    })
}

/// The list page, 422 when it shows a refused start.
async fn list_page<G: KeptPages>(
    state: &AppState,
    staff: &Staff,
    typed: Vec<(String, String)>,
    error: Option<(String, String)>,
) -> Response {
    let games = match kept_games::list::<G>(&state.db, LISTED_GAMES).await {
        Ok(g) => g,
        Err(e) => return internal(e),
    };
    let body = G::list_page(
        GamesList {
            ctx: PageContext::of(staff),
            games: games
                .iter()
                .map(|g| ListedGame {
                    cells: G::cells(g),
                    id: g.id.clone(),
                    started: crate::web::time::when(state.time_zone, &g.created_at).local,
                })
                .collect(),
            can_keep: allows(staff.0.user.role, KEEP),
            typed,
            error_field: String::new(),
            error: String::new(),
        }
        .refused(error.as_ref()),
    );
    if error.is_some() {
        (StatusCode::UNPROCESSABLE_ENTITY, body).into_response()
    } else {
        body
    }
}

async fn list<G: KeptPages>(State(state): State<AppState>, staff: Staff) -> Response {
    list_page::<G>(&state, &staff, Vec::new(), None).await
}

/// The field and message of a refusal by the game's rules.
fn rules_refusal(e: KeptGameError) -> Result<(String, String), KeptGameError> {
    match e {
        KeptGameError::Rules(e) => Ok((e.field().to_string(), e.message().to_string())),
        other => Err(other),
    }
}

async fn start<G: KeptPages>(
    State(state): State<AppState>,
    CsrfForm(staff, form): CsrfForm<Vec<(String, String)>>,
) -> PageResult {
    let fields = Fields(form);
    staff.require_here(&state, KEEP).await?;
    let game = match G::new_game(&fields) {
        Ok(g) => g,
        Err(e) => return Ok(list_page::<G>(&state, &staff, fields.0, Some(e)).await),
    };
    let actor = &staff.0.user.username;
    match kept_games::start(&state.db, &state.audit_key, actor, &game).await {
        Ok(id) => Ok(Redirect::to(&format!("{}/{id}", G::PATH)).into_response()),
        Err(e) => match rules_refusal(e) {
            Ok(refused) => Ok(list_page::<G>(&state, &staff, fields.0, Some(refused)).await),
            Err(e) => Err(PageError::internal(e)),
        },
    }
}

fn not_found(id: &str) -> Response {
    ApiError::NotFound(format!("game: no game \"{id}\"")).into_response()
}

async fn load<G: KeptGame>(state: &AppState, id: &str) -> Result<StoredGame<G>, PageError> {
    match kept_games::get(&state.db, id).await {
        Ok(Some(g)) => Ok(g),
        Ok(None) => Err(not_found(id).into()),
        Err(e) => Err(e.into()),
    }
}

async fn show<G: KeptPages>(
    State(state): State<AppState>,
    staff: Staff,
    Path(id): Path<String>,
) -> PageResult {
    let stored = load::<G>(&state, &id).await?;
    Ok(G::game_page(&staff, &stored, Vec::new(), None))
}

/// A refused form on a game's page: its status, the field the refusal
/// names (empty when none; the page shows the message beside that field's
/// input when it has one, else above the forms) and the message.
pub(super) struct Refusal {
    pub status: StatusCode,
    pub field: String,
    pub message: String,
}

impl Refusal {
    /// Bad input: 422, the core's field and message.
    pub fn of(e: FieldError) -> Refusal {
        Refusal {
            status: StatusCode::UNPROCESSABLE_ENTITY,
            field: e.field().to_string(),
            message: e.message().to_string(),
        }
    }
}

/// The game's page with a refused form: 422, what was typed, and why.
pub(super) fn refused<G: KeptPages>(
    staff: &Staff,
    stored: &StoredGame<G>,
    typed: &[(String, String)],
    e: FieldError,
) -> Response {
    G::game_page(staff, stored, typed.to_vec(), Some(Refusal::of(e)))
}

async fn act<G: KeptPages>(
    PagePost {
        state,
        id,
        staff,
        form,
    }: PagePost<Vec<(String, String)>>,
) -> PageResult {
    let fields = Fields(form);
    staff.require_here(&state, KEEP).await?;
    let current = load::<G>(&state, &id).await?;
    // Shown again on a refusal; a new page gets a new key.
    let typed: Vec<(String, String)> = fields
        .0
        .iter()
        .filter(|(k, _)| !matches!(k.as_str(), "csrf" | "idempotency_key"))
        .cloned()
        .collect();
    let action = G::action_of(&staff, &current, &fields, &typed).map_err(|page| *page)?;
    let Ok(version) = fields.get("version").trim().parse::<i64>() else {
        let e = FieldError::new("version", "missing; reload the page");
        return Ok(refused(&staff, &current, &typed, e));
    };
    let actor = &staff.0.user.username;
    let key = fields.get("idempotency_key");
    let done = kept_games::act::<G>(
        &state.db,
        &state.audit_key,
        actor,
        &id,
        version,
        key,
        &action,
    );
    match done.await {
        Ok(_) => Ok(Redirect::to(&format!("{}/{id}", G::PATH)).into_response()),
        Err(KeptGameError::Rules(e)) => {
            let stored = load::<G>(&state, &id).await?;
            Ok(refused(&staff, &stored, &typed, e))
        }
        Err(e @ KeptGameError::Stale { .. }) => {
            let stored = load::<G>(&state, &id).await?;
            let error = Refusal {
                status: StatusCode::CONFLICT,
                field: String::new(),
                message: format!("{e}. Nothing was recorded."),
            };
            Ok(G::game_page(&staff, &stored, typed, Some(error)))
        }
        Err(KeptGameError::Unknown(id)) => Err(not_found(&id).into()),
        Err(e @ (KeptGameError::Store(_) | KeptGameError::Game(_))) => Err(PageError::internal(e)),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_refused_start_is_put_in_the_forms_words() {
        let cases = [
            (
                "players[1]",
                r#""Bo\u{200B}" contains U+200B (an invisible character); type it without that character"#,
                "players",
                r#"Player 2: "Bo" contains U+200B (an invisible character); type it without that character"#,
            ),
            (
                "players",
                "1 players; the game has 2 to 4",
                "players",
                "1 players; the game has 2 to 4",
            ),
            (
                "chips",
                r#""x\u{zz}" is not a whole number"#,
                "chips",
                r#""x\u{zz}" is not a whole number"#,
            ),
        ];
        for (field, message, want_field, want) in cases {
            let got = super::in_form_words(field, message);
            assert_eq!(got, (want_field.to_string(), want.to_string()));
        }
    }
}
