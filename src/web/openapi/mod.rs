//! The API contract: an OpenAPI 3.1 document of every JSON route, built from
//! the handlers' `#[utoipa::path]` annotations and the request and response
//! types' `ToSchema` derives, served at `GET /api/v1/openapi.json` (no
//! sign-in: it is the contract clients read before they sign in) and kept
//! as docs/openapi.json (docs/api.md says how to regenerate it).

mod common;
pub mod examples;
mod limits;
pub mod shape;

use std::sync::OnceLock;

use axum::Router;
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use utoipa::OpenApi;

use self::common::Common;
use super::error::{ErrorBody, ErrorKind};
use super::{AppState, dice_games, double_hand_poker as dhp, health, history, shifts, staff};
use super::{training, tripoley};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "pitbook",
        description = "The JSON API of pitbook, the cardroom staff app. Money is a decimal string, \
never a JSON number; cards are text (`As`, `Td`, `JK`). Every refusal is an `Error` body: \
bad input is 422 naming the field. Sign in with the session cookie of the pages, or send an API \
token as `Authorization: Bearer pbk_…` (docs/staff.md). docs/api.md says how this document is \
made and checked.",
    ),
    paths(
        dhp::tools_api::eval_get, dhp::tools_api::eval_post,
        dhp::tools_api::house_way_get, dhp::tools_api::house_way_post,
        dhp::tools_api::settings_get, dhp::tools_api::settings_post,
        dhp::tools_api::dice_get, dhp::tools_api::dice_post,
        dhp::ev_api::ev_post,
        dhp::settle_api::settle_post,
        dice_games::api::rank, dice_games::api::compare, dice_games::api::round,
        dice_games::api::score, dice_games::api::game,
        tripoley::api::round, tripoley::api::final_hand,
        dhp::hands_api::open_hand, history::api::search,
        dhp::hands_api::show_hand, dhp::hands_api::command, dhp::hands_api::add_note,
        history::export::export, history::player::api,
        dhp::tables_api::create, dhp::tables_api::show, dhp::tables_api::dealers,
        dhp::house_ways::list_api, dhp::house_ways::load_api,
        shifts::api::open, shifts::api::list, shifts::api::get, shifts::api::change_dealer,
        shifts::api::close, shifts::api::report, shifts::api::range_report,
        shifts::floor_api::tppps, shifts::floor_api::register, shifts::floor_api::mark,
        shifts::floor_api::override_clock, shifts::floor_api::clock,
        training::api::start_run, training::api::new_drill, training::api::answer,
        training::api::progress,
        staff::me,
        health::healthz, health::readyz, served,
    ),
    components(schemas(ErrorBody, ErrorKind)),
    modifiers(&Common),
    security(("session" = []), ("api_token" = [])),
    tags(
        (name = "hand tools", description = "Double Hand Poker's hand tools, computed: nothing is stored (docs/hands.md)."),
        (name = "settle", description = "A Double Hand Poker hand settled, computed: nothing is stored (docs/settle.md)."),
        (name = "dice games", description = "Poker dice and 10,000, computed: nothing is stored (docs/dice-games.md)."),
        (name = "tripoley", description = "Tripoley rounds paid out, computed: nothing is stored (docs/tripoley.md)."),
        (name = "hands", description = "Hands kept in the audit log: open, commands, notes, the record (docs/audit.md)."),
        (name = "history", description = "Reviewing hand histories: the search, a player's history, the export (docs/history.md)."),
        (name = "tables", description = "Tables and their dealers (docs/tables-and-hands.md)."),
        (name = "shifts", description = "Shifts, dealer changes and signed reports (docs/shifts.md)."),
        (name = "floor", description = "TPPPs and the PD rotation clock (docs/shifts.md)."),
        (name = "training", description = "Drills for new dealers, graded and recorded (docs/training.md)."),
        (name = "staff", description = "Who is signed in (docs/staff.md)."),
        (name = "server", description = "Probes and this contract; no sign-in."),
    ),
)]
struct ApiDoc;

/// The contract: the document the types derive, with every request
/// field's limits written in from the core's constants (`limits`).
pub fn document() -> utoipa::openapi::OpenApi {
    let mut doc = ApiDoc::openapi();
    limits::apply(&mut doc);
    doc
}

/// The document as the types derive it, before the limits are written in,
/// as JSON: what `shape` checks bodies against.
fn derived() -> &'static serde_json::Value {
    static DERIVED: OnceLock<serde_json::Value> = OnceLock::new();
    DERIVED.get_or_init(|| serde_json::to_value(ApiDoc::openapi()).expect("the document is JSON"))
}

/// The contract as docs/openapi.json holds it: indented, one trailing newline.
pub fn document_json() -> String {
    let mut text = document()
        .to_pretty_json()
        .unwrap_or_else(|e| format!("{{\"error\": \"{e}\"}}"));
    text.push('\n');
    text
}

pub fn router() -> Router<AppState> {
    Router::new().route("/api/v1/openapi.json", get(served))
}

/// This contract, as OpenAPI 3.1 JSON (no sign-in).
#[utoipa::path(get, path = "/api/v1/openapi.json", operation_id = "openapi", tag = "server", security(()),
    responses((status = 200, description = "The document (docs/openapi.json).",
        content_type = "application/json", body = Object)))]
async fn served() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], served_text())
}

fn served_text() -> &'static str {
    static TEXT: OnceLock<String> = OnceLock::new();
    TEXT.get_or_init(document_json)
}

/// Builds both documents (~60 ms on a debug build) so no request waits
/// for them: `serve` runs it as it starts listening.
pub fn warm() {
    derived();
    served_text();
}
