//! The dice scorekeepers. 10,000: start a game (players, rule options),
//! then each throw tapped on face keys (`keys.rs`), the legal keeps offered
//! as buttons with their points, stop to record, the running totals and the
//! winner. Poker dice: a round, each player's throws (the last throw's dice
//! ticked to hold, the others tapped as thrown) up to three, standing, the
//! winner or the tie with the reason. Every action is one audit record; a
//! finished game's page is its full record.

pub(super) mod api;
mod keys;

use askama::Template;
use axum::Router;
use axum::response::{IntoResponse, Response};

use crate::domain::common::field_error::FieldError;
use crate::domain::poker_dice::{DICE, RoundAction, RoundKeeper, RoundResponse};
use crate::domain::staff::allows;
use crate::domain::ten_thousand::{
    GameOptionsRecord, Keeper, KeeperAction, Progress, ScoreSheet, parse_dice_text, thousands,
};
use crate::store::dice_games::{DiceAction, DiceGame, DiceState};
use crate::web::double_hand_poker::play::forms::Fields;
use crate::web::error::internal;
use crate::web::kept_games::{
    self, GamesList, KEEP, KeptPages, Refusal, players, refused, whole_number,
};
use crate::web::staff::page;
use crate::web::{AppState, PageContext, Staff, Typed};
use keys::{DieRow, FaceKey, HoldKey};

/// The compute-only API (`api.rs`: poker dice and 10,000): it stores nothing;
/// `web::router` puts it behind the signed-in reader check.
pub fn compute_router() -> Router<AppState> {
    api::router()
}

pub fn router() -> Router<AppState> {
    kept_games::router::<DiceState>()
}

#[derive(Template)]
#[template(path = "dice_games/games.html")]
struct ListPage {
    /// Game, players, state.
    list: GamesList,
}

impl std::ops::Deref for ListPage {
    type Target = GamesList;
    fn deref(&self) -> &GamesList {
        &self.list
    }
}

impl KeptPages for DiceState {
    const PATH: &'static str = "/dice";

    fn new_game(fields: &Fields) -> Result<Self, (String, String)> {
        new_game(fields)
    }

    fn cells(stored: &DiceGame) -> Vec<String> {
        let kind = match stored.game {
            DiceState::TenThousand(_) => "10,000",
            DiceState::PokerDice(_) => "poker dice",
        };
        let players = stored.game.players().join(", ");
        vec![kind.to_string(), players, stored.status.clone()]
    }

    fn list_page(list: GamesList) -> Response {
        page(&ListPage { list })
    }

    fn game_page(
        staff: &Staff,
        stored: &DiceGame,
        typed: Vec<(String, String)>,
        error: Option<Refusal>,
    ) -> Response {
        render(staff, stored, typed, error)
    }

    fn action_of(
        staff: &Staff,
        stored: &DiceGame,
        fields: &Fields,
        typed: &[(String, String)],
    ) -> Result<DiceAction, Box<Response>> {
        action_of(&stored.game, fields).map_err(|e| Box::new(refused(staff, stored, typed, e)))
    }
}

fn number(fields: &Fields, name: &str) -> Result<Option<i64>, (String, String)> {
    whole_number(fields, name, name)
}

fn new_game(fields: &Fields) -> Result<DiceState, (String, String)> {
    let players = players(fields);
    // A name's place (`players[1]`) is kept: the list page counts it.
    let field_of = |f: &str| match f.strip_prefix("players[") {
        Some(_) => f.split('.').next().unwrap_or("players").to_string(),
        None => f.split(['[', '.']).next().unwrap_or("players").to_string(),
    };
    if fields.get("game") == "poker-dice" {
        let keeper = RoundKeeper::new(
            players,
            choice(fields, "profile", "caribena")?,
            choice(fields, "straights", "none")?,
            !fields.get("first_sets_throws").is_empty(),
        )
        .map_err(|e| (field_of(&e.field), e.message))?;
        return Ok(DiceState::PokerDice(keeper));
    }
    let options = GameOptionsRecord {
        dice: number(fields, "dice")?,
        // The control is `target_score`: one named `target` would shadow
        // the form's own property (tests/server/form_names.rs).
        target: whole_number(fields, "target_score", "target")?,
        min_record: number(fields, "min_record")?,
        opening: number(fields, "opening")?,
        hot_dice_must_roll: Some(!fields.get("hot_dice_must_roll").is_empty()),
    };
    Keeper::new(players, options)
        .map(DiceState::TenThousand)
        .map_err(|e| (field_of(&e.field), e.message))
}

/// A choice from a select (a serde enum name), or the default when empty.
fn choice<T: serde::de::DeserializeOwned>(
    fields: &Fields,
    name: &str,
    default: &str,
) -> Result<T, (String, String)> {
    let text = fields.get(name).trim();
    let text = if text.is_empty() { default } else { text };
    serde_json::from_value(serde_json::Value::String(text.to_string()))
        .map_err(|_| (name.to_string(), format!("\"{text}\" is not a choice here")))
}

/// One row of the sheet: turn, player, the throws, result, points, totals.
struct TurnRow {
    turn: usize,
    player: String,
    throws: String,
    result: String,
    scores: String,
}

#[derive(Template)]
#[template(path = "dice_games/game.html")]
struct GamePage<'a> {
    ctx: PageContext,
    game: &'a DiceGame,
    sheet: ScoreSheet,
    rows: Vec<TurnRow>,
    progress: Progress,
    pending: String,
    awaiting_keep: bool,
    can_stop: bool,
    can_keep: bool,
    idempotency_key: String,
    form: FormState,
    /// A row of keys per die left to throw.
    dice_rows: Vec<DieRow>,
    faces: Vec<FaceKey>,
}

/// What a refused form left on the page: what was typed or tapped, the
/// refusal beside its input (`dice`, `rolled`, `held`) or above the forms.
#[derive(Default)]
struct FormState {
    typed: Vec<(String, String)>,
    /// A refusal about no input on the page.
    error: String,
    /// The input a refusal is about, and its message.
    beside: (String, String),
}

impl FormState {
    fn of(typed: Vec<(String, String)>, error: Option<Refusal>) -> FormState {
        let (error, beside) = match error {
            Some(r) if BESIDE.contains(&r.field.as_str()) => (String::new(), (r.field, r.message)),
            Some(r) if r.field.is_empty() => (r.message, Default::default()),
            Some(r) => (format!("{}: {}", r.field, r.message), Default::default()),
            None => Default::default(),
        };
        FormState {
            typed,
            error,
            beside,
        }
    }

    /// The refusal's message when it is about the input `name`.
    fn error_on(&self, name: &str) -> &str {
        if self.beside.0 == name {
            &self.beside.1
        } else {
            ""
        }
    }

    /// The id of the input the refusal is beside (for the error summary).
    fn beside_id(&self) -> &str {
        match self.beside.0.as_str() {
            "dice" => "dice-thrown",
            other => other,
        }
    }
}

/// The inputs a refusal is shown beside: the throw's dice (10,000), the
/// dice thrown and held (poker dice).
const BESIDE: [&str; 3] = ["dice", "rolled", "held"];

fn turn_rows(sheet: &ScoreSheet) -> Vec<TurnRow> {
    sheet
        .turns
        .iter()
        .map(|t| TurnRow {
            turn: t.turn,
            player: t.player.clone(),
            throws: t
                .throws
                .iter()
                .map(|th| {
                    let dice: Vec<String> = th.dice.iter().map(u8::to_string).collect();
                    match &th.keep {
                        Some(k) => {
                            let keep: Vec<String> = k.iter().map(u8::to_string).collect();
                            format!(
                                "{} → keep {} ({})",
                                dice.join(" "),
                                keep.join(" "),
                                th.points
                            )
                        }
                        None => format!("{} → bust", dice.join(" ")),
                    }
                })
                .collect::<Vec<_>>()
                .join("; "),
            result: if t.points > 0 {
                format!("records {}", thousands(t.points))
            } else if t.lost > 0 {
                format!("bust, loses {}", thousands(t.lost))
            } else {
                "bust".into()
            },
            scores: t
                .scores
                .iter()
                .map(|s| thousands(*s))
                .collect::<Vec<_>>()
                .join(" / "),
        })
        .collect()
}

fn render(
    staff: &Staff,
    game: &DiceGame,
    typed: Vec<(String, String)>,
    error: Option<Refusal>,
) -> Response {
    let status = error.as_ref().map(|r| r.status);
    let form = FormState::of(typed, error);
    let body = match &game.game {
        DiceState::TenThousand(keeper) => ten_thousand_page(staff, game, keeper, form),
        DiceState::PokerDice(keeper) => poker_page(staff, game, keeper, form),
    };
    match status {
        Some(s) => (s, body).into_response(),
        None => body,
    }
}

fn ten_thousand_page(staff: &Staff, game: &DiceGame, keeper: &Keeper, form: FormState) -> Response {
    let (sheet, progress) = match (keeper.sheet(), keeper.progress()) {
        (Ok(s), Ok(p)) => (s, p),
        (Err(e), _) | (_, Err(e)) => return internal(e),
    };
    let show = |dice: &[i64]| {
        dice.iter()
            .map(i64::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    let pending = keeper
        .pending
        .iter()
        .map(|t| match &t.keep {
            Some(k) => format!("{} → keep {}", show(&t.dice), show(k)),
            None => show(&t.dice),
        })
        .collect::<Vec<_>>()
        .join("; ");
    let user = &staff.0.user;
    let dice_rows = keys::rows("die", progress.dice_left.into(), &form.typed);
    page(&GamePage {
        ctx: PageContext::of(staff),
        game,
        rows: turn_rows(&sheet),
        sheet,
        awaiting_keep: keeper.pending.last().is_some_and(|t| t.keep.is_none()),
        can_stop: keeper.pending.last().is_some_and(|t| t.keep.is_some()),
        progress,
        pending,
        can_keep: allows(user.role, KEEP),
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        form,
        dice_rows,
        faces: keys::pips(),
    })
}

#[derive(Template)]
#[template(path = "dice_games/round.html")]
struct RoundPage<'a> {
    ctx: PageContext,
    game: &'a DiceGame,
    keeper: &'a RoundKeeper,
    /// Checked and ranked: the players who have thrown so far.
    so_far: Option<RoundResponse>,
    result: Option<RoundResponse>,
    current: String,
    throws_taken: usize,
    can_keep: bool,
    idempotency_key: String,
    form: FormState,
    /// The last throw's dice, to hold (none before a throw).
    holds: Vec<HoldKey>,
    /// A row of keys per die that may be thrown.
    dice_rows: Vec<DieRow>,
    faces: Vec<FaceKey>,
    /// The faces in words, as the rules call them.
    faces_named: String,
}

fn poker_page(staff: &Staff, game: &DiceGame, keeper: &RoundKeeper, form: FormState) -> Response {
    let user = &staff.0.user;
    let current = keeper
        .players
        .get(keeper.current)
        .cloned()
        .unwrap_or_default();
    let throws_taken = keeper.throws.get(keeper.current).map_or(0, Vec::len);
    let so_far = keeper.so_far();
    let faces = keys::faces(keeper.profile);
    page(&RoundPage {
        ctx: PageContext::of(staff),
        game,
        keeper,
        holds: keys::holds(so_far.as_ref(), &current, keeper.profile, &form.typed),
        dice_rows: keys::rows("roll", DICE, &form.typed),
        faces_named: keys::faces_named(&faces),
        faces,
        so_far,
        result: keeper.result().and_then(Result::ok),
        current,
        throws_taken,
        can_keep: allows(user.role, KEEP),
        idempotency_key: uuid::Uuid::new_v4().to_string(),
        form,
    })
}

/// The form's action for the game's kind, or why it is refused. The dice
/// are the keys tapped (`die1`…, `roll1`…, `hold1`…) or the text typed.
fn action_of(game: &DiceState, fields: &Fields) -> Result<DiceAction, FieldError> {
    let dice = |name: &str, text: &str| parse_dice_text(text).map_err(|m| FieldError::new(name, m));
    Ok(match (game, fields.get("intent")) {
        (DiceState::TenThousand(_), "throw") => DiceAction::TenThousand(KeeperAction::Throw {
            dice: dice("dice", &keys::dice_text(fields, "die", "dice"))?,
        }),
        (DiceState::TenThousand(_), "keep") => DiceAction::TenThousand(KeeperAction::Keep {
            dice: dice("keep", fields.get("keep"))?,
        }),
        (DiceState::TenThousand(_), "stop") => DiceAction::TenThousand(KeeperAction::Stop),
        (DiceState::PokerDice(_), "throw") => DiceAction::PokerDice(RoundAction::Throw {
            held: Some(keys::dice_text(fields, "hold", "held")),
            rolled: keys::dice_text(fields, "roll", "rolled"),
        }),
        (DiceState::PokerDice(_), "stand") => DiceAction::PokerDice(RoundAction::Stand),
        (_, other) => {
            let message = format!("\"{other}\" is not an action of this game");
            return Err(FieldError::new("intent", message));
        }
    })
}
