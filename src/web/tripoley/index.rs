//! The games list and starting a game (`GET`/`POST /tripoley`, the
//! handlers in `web/kept_games.rs`): the list page and the new game form.

use super::*;
use crate::web::kept_games::{players, whole_number};

#[derive(Template)]
#[template(path = "tripoley/games.html")]
pub(super) struct ListPage {
    /// Players, rounds, state.
    pub list: GamesList,
}

impl std::ops::Deref for ListPage {
    type Target = GamesList;
    fn deref(&self) -> &GamesList {
        &self.list
    }
}

fn number(fields: &Fields, name: &str, default: i64) -> Result<i64, (String, String)> {
    Ok(whole_number(fields, name, name)?.unwrap_or(default))
}

pub(super) fn new_game(fields: &Fields) -> Result<TripoleyGame, (String, String)> {
    let players = players(fields);
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
