//! The games list and starting a game (`GET`/`POST /tripoley`).

use super::*;

#[derive(Template)]
#[template(path = "tripoley/games.html")]
struct ListPage {
    ctx: PageContext,
    /// Players, rounds, state.
    games: Vec<ListedGame>,
    can_keep: bool,
    typed: Vec<(String, String)>,
    error: String,
}

async fn list_page(
    state: &AppState,
    staff: &Staff,
    typed: Vec<(String, String)>,
    error: Option<(String, String)>,
) -> Response {
    let games = match store::list(&state.db, LISTED_GAMES).await {
        Ok(g) => g,
        Err(e) => return internal(e),
    };
    let body = page(&ListPage {
        ctx: PageContext::of(staff),
        games: games
            .into_iter()
            .map(|g| ListedGame {
                cells: vec![
                    g.game.players.join(", "),
                    g.game.rounds.len().to_string(),
                    g.status,
                ],
                id: g.id,
                started: g.created_at,
            })
            .collect(),
        can_keep: allows(staff.0.user.role, KEEP),
        typed,
        error: form_error(&error),
    });
    list_answer(body, error.is_some())
}

pub(super) async fn list(State(state): State<AppState>, staff: Staff) -> Response {
    list_page(&state, &staff, Vec::new(), None).await
}

fn number(fields: &Fields, name: &str, default: i64) -> Result<i64, (String, String)> {
    let text = fields.get(name).trim();
    if text.is_empty() {
        return Ok(default);
    }
    text.parse().map_err(|_| {
        (
            name.to_string(),
            format!("\"{text}\" is not a whole number"),
        )
    })
}

fn new_game(fields: &Fields) -> Result<TripoleyGame, (String, String)> {
    let players: Vec<String> = fields
        .get("players")
        .split([',', '\n'])
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect();
    let profile = match fields.get("profile") {
        "" | "classic" => Profile::Classic,
        "cadaco" => Profile::Cadaco,
        other => {
            return Err((
                "profile".into(),
                format!("\"{other}\" is not a profile (cadaco or classic)"),
            ));
        }
    };
    let value = fields.get("chip_value").trim();
    let chip_value = Money::parse(if value.is_empty() { "1" } else { value }).map_err(|_| {
        (
            "chip_value".to_string(),
            format!("\"{value}\" is not a decimal amount (e.g. 0.25)"),
        )
    })?;
    let setup = GameSetup {
        profile,
        players,
        chips_each: number(fields, "chips", 50)?,
        chip_value,
        ante: number(fields, "ante", 1)?,
        bet_limit: number(fields, "bet_limit", 10)?,
    };
    TripoleyGame::start(&setup).map_err(|e| match e {
        crate::domain::tripoley::TripoleyError::Input { field, message } => (field, message),
        other => ("game".into(), other.to_string()),
    })
}

pub(super) async fn start(
    State(state): State<AppState>,
    uri: Uri,
    CsrfForm(staff, form): CsrfForm<Vec<(String, String)>>,
) -> Result<Response, Response> {
    let fields = Fields(form);
    staff.require(&state, KEEP, uri.path()).await?;
    let game = match new_game(&fields) {
        Ok(g) => g,
        Err(e) => return Ok(list_page(&state, &staff, fields.0, Some(e)).await),
    };
    match store::start(&state.db, &state.audit_key, &staff.0.user.username, &game).await {
        Ok(id) => Ok(Redirect::to(&format!("/tripoley/{id}")).into_response()),
        Err(TripoleyGameError::Rules(e)) => {
            let refused = (e.field().to_string(), e.message().to_string());
            Ok(list_page(&state, &staff, fields.0, Some(refused)).await)
        }
        Err(e) => Err(internal(e)),
    }
}
