//! The limits of the rest of the room's requests: the dice games,
//! Tripoley, shifts and the floor, training, and the history's queries.

use serde_json::{Value, json};

use super::hands::{NOT_NEGATIVE, table_name, username};
use super::{
    At, REQUIRED, any_case, both, items, length, line, list_of, matching, paragraph, range,
};
use crate::domain::common::text::{NAME_CHARS_MAX, REASON_CHARS_MAX};
use crate::domain::double_hand_poker::action_dice::DIE_MAX;
use crate::domain::history::date::{DATE_PATTERN, DATE_TIME_PATTERN};
use crate::domain::history::{Cursor, Kind, PAGE_SIZE_MAX, Period, Status};
use crate::domain::shifts::tppp::BADGE_CHARS_MAX;
use crate::domain::training::Level;
use crate::domain::training::run::{Mode, SEED_MAX, TEST_QUESTIONS_MAX};
use crate::domain::{poker_dice, ten_thousand, tripoley};

pub(super) fn rules() -> Vec<(At, Value)> {
    let mut rules = dice_games();
    rules.extend(tripoley());
    rules.extend(floor_and_training());
    rules.extend(history());
    rules
}

/// A die of the 10,000 game.
fn die() -> Value {
    range(1, DIE_MAX)
}

fn dice_games() -> Vec<(At, Value)> {
    let hands = poker_dice::HANDS_MAX;
    let fifties = |min: u32| {
        both(
            range(min, ten_thousand::TARGET_MAX),
            json!({"multipleOf": 50}),
        )
    };
    let thrown = list_of(1, ten_thousand::DICE_MAX, die());
    vec![
        (
            At::Field("PokerDiceCompareRequest", "hands"),
            items(2, hands),
        ),
        (
            At::Field("PokerDiceRoundRequest", "players"),
            items(2, hands),
        ),
        (
            At::Field("PokerDiceRoundPlayer", "name"),
            line(poker_dice::NAME_MAX),
        ),
        (
            At::Field("PokerDiceRoundPlayer", "throws"),
            items(1, poker_dice::THROWS_MAX),
        ),
        (At::Field("TenThousandScoreRequest", "dice"), thrown.clone()),
        (
            At::Field("TenThousandOptions", "dice"),
            json!({"enum": [5, 6]}),
        ),
        (At::Field("TenThousandOptions", "target"), fifties(1000)),
        (At::Field("TenThousandOptions", "min_record"), fifties(0)),
        (At::Field("TenThousandOptions", "opening"), fifties(0)),
        (
            At::Field("TenThousandGameRequest", "players"),
            both(
                list_of(2, ten_thousand::PLAYERS_MAX, line(ten_thousand::NAME_MAX)),
                json!({"uniqueItems": true}),
            ),
        ),
        (
            At::Field("TenThousandGameRequest", "turns"),
            items(0, ten_thousand::TURNS_MAX),
        ),
        (
            At::Field("TenThousandTurnRecord", "throws"),
            items(1, ten_thousand::THROWS_PER_TURN_MAX),
        ),
        (At::Field("TenThousandThrowRecord", "dice"), thrown.clone()),
        (At::Field("TenThousandThrowRecord", "keep"), thrown),
    ]
}

fn tripoley() -> Vec<(At, Value)> {
    let chips = range(0, tripoley::CHIPS_MAX);
    let players = both(
        list_of(
            tripoley::PLAYERS_MIN,
            tripoley::PLAYERS_MAX,
            line(tripoley::NAME_MAX),
        ),
        json!({"uniqueItems": true}),
    );
    let by_player = json!({
        "maxProperties": tripoley::PLAYERS_MAX,
        "additionalProperties": chips,
    });
    let mut rules = vec![
        (
            At::Field("TripoleyRound", "ante"),
            range(1, tripoley::ANTE_MAX),
        ),
        (At::Field("TripoleyAuction", "price"), chips.clone()),
        (
            At::Field("TripoleyPoker", "contributions"),
            by_player.clone(),
        ),
    ];
    for schema in ["TripoleyRound", "TripoleyFinal"] {
        rules.push((At::Field(schema, "players"), players.clone()));
        rules.push((At::Field(schema, "chips"), by_player.clone()));
    }
    for section in tripoley::Section::ALL {
        rules.push((
            At::Field("TripoleyBoardInput", section.key()),
            chips.clone(),
        ));
    }
    rules
}

fn floor_and_training() -> Vec<(At, Value)> {
    let room_or_table = matching(format!(r"^\s*(?:{})?\s*$", table_name_text()));
    let levels = range(Level::EASY.get(), Level::HARD.get());
    let mut rules = vec![
        (At::Field("ShiftOpen", "table"), room_or_table),
        (At::Field("ShiftDealerChange", "table"), table_name()),
        (At::Field("TpppRegistration", "name"), line(NAME_CHARS_MAX)),
        (
            At::Field("TpppRegistration", "company"),
            line(NAME_CHARS_MAX),
        ),
        (
            At::Field("TpppRegistration", "badge"),
            matching(format!(r"^\s*[A-Za-z0-9-]{{1,{BADGE_CHARS_MAX}}}\s*$")),
        ),
        (At::Field("TpppMarking", "name"), line(NAME_CHARS_MAX)),
        (
            At::Field("RotationOverrideRequest", "reason"),
            paragraph(REASON_CHARS_MAX),
        ),
        (At::Schema("DrillRunStart"), json!({"required": ["kind"]})),
        (At::Field("DrillRunStart", "kind"), json!({REQUIRED: true})),
        (At::Field("DrillRunStart", "level"), levels.clone()),
        (
            At::Field("DrillRunStart", "mode"),
            json!({"enum": Mode::NAMES}),
        ),
        (
            At::Field("DrillRunStart", "questions"),
            range(1, TEST_QUESTIONS_MAX),
        ),
        (At::Field("DrillRequest", "level"), levels),
        (At::Schema("DrillRequest"), run_or_kind()),
        (At::Field("DrillRequest", "seed"), range(0, SEED_MAX)),
        (At::Field("DrillRequest", "run"), json!({"format": "uuid"})),
        (
            At::Field("ShiftDealerChange", "dealer"),
            matching(format!(
                r"^\s*(?:{})?\s*$",
                super::nested::bare(&username())
            )),
        ),
        (
            At::Field("TenThousandTurnRecord", "player"),
            line(ten_thousand::NAME_MAX),
        ),
        (
            At::Param("post", "/api/v1/drills/{id}/answer", "id"),
            json!({"format": "uuid"}),
        ),
        (
            At::Param("get", "/api/v1/training/progress", "trainee"),
            username(),
        ),
    ];
    for (method, path) in [
        ("get", "/api/v1/shifts/{id}"),
        ("post", "/api/v1/shifts/{id}/dealers"),
        ("post", "/api/v1/shifts/{id}/close"),
        ("get", "/api/v1/shifts/{id}/report"),
    ] {
        rules.push((At::Param(method, path, "id"), json!({"format": "uuid"})));
    }
    for (method, path) in [
        ("post", "/api/v1/tables/{name}/tppps"),
        ("post", "/api/v1/tables/{name}/rotation-override"),
        ("get", "/api/v1/tables/{name}/rotation-clock"),
    ] {
        rules.push((At::Param(method, path, "name"), table_name()));
    }
    rules
}

/// The search's filters, the export's and the reports' queries: each
/// value trimmed, an empty one not given.
fn history() -> Vec<(At, Value)> {
    let optional = |pattern: &str| matching(format!(r"^\s*(?:{pattern})?\s*$"));
    let text = both(
        json!({"maxLength": NAME_CHARS_MAX}),
        matching(r"^[^\u0000-\u001F\u007F-\u009F]*$"),
    );
    let amount = optional(&format!(
        "(?=[0-9.]{{1,24}}\\s*$){}",
        &NOT_NEGATIVE[1..NOT_NEGATIVE.len() - 1]
    ));
    let status: Vec<&str> = Status::ALL.iter().map(|s| s.as_str()).collect();
    let filters = [
        ("table", text.clone()),
        ("dealer", text.clone()),
        ("pd", text.clone()),
        ("player", text.clone()),
        ("note", text),
        ("status", any_case(&status)),
        (
            "kind",
            any_case(&[Kind::Training.as_str(), Kind::Real.as_str()]),
        ),
        ("bank_min", amount.clone()),
        ("wager_min", amount),
        ("number", optional("#?0*[1-9][0-9]{0,17}")),
        (
            "period",
            any_case(&[Period::Shift, Period::Today, Period::Yesterday].map(Period::as_str)),
        ),
        ("date", optional(DATE_PATTERN)),
        ("from", optional(DATE_TIME_PATTERN)),
        ("to", optional(DATE_TIME_PATTERN)),
    ];
    let page = range(1, PAGE_SIZE_MAX);
    let mut rules = vec![
        (
            At::Param("get", "/api/v1/hands", "after"),
            optional(Cursor::PATTERN),
        ),
        (At::Param("get", "/api/v1/hands", "limit"), page.clone()),
        (
            At::Param("get", "/api/v1/players/history", "after"),
            optional(Cursor::PATTERN),
        ),
        (At::Param("get", "/api/v1/players/history", "limit"), page),
        (
            At::Param("get", "/api/v1/players/history", "player"),
            both(length(1, NAME_CHARS_MAX), matching(r"\S")),
        ),
        (
            At::Param("get", "/api/v1/hands/export", "format"),
            matching(r"^\s*(?:jsonl|csv)\s*$"),
        ),
    ];
    for (name, limit) in filters {
        rules.push((At::Param("get", "/api/v1/hands", name), limit.clone()));
        rules.push((At::Param("get", "/api/v1/hands/export", name), limit));
    }
    let shift = "/api/v1/shifts/{id}/report";
    rules.push((At::Param("get", shift, "format"), optional("json|csv")));
    let range = "/api/v1/reports/shift";
    rules.extend([
        (At::Param("get", range, "format"), optional("json|csv")),
        (
            At::Param("get", range, "table"),
            optional(&table_name_text()),
        ),
        (At::Param("get", range, "date"), optional(DATE_PATTERN)),
        (At::Param("get", range, "from"), optional(DATE_TIME_PATTERN)),
        (At::Param("get", range, "to"), optional(DATE_TIME_PATTERN)),
    ]);
    rules
}

/// A drill of a run, or of a kind (and level) without one: never both.
fn run_or_kind() -> Value {
    let absent = json!({"type": "null"});
    json!({"oneOf": [
        {"type": "object", "required": ["run"],
         "properties": {"run": {"type": "string", "format": "uuid"}, "kind": absent, "level": absent}},
        {"type": "object", "required": ["kind"],
         "properties": {"run": absent, "kind": {"type": "string", "pattern": "\\S"}}},
    ]})
}

/// A table's name inside another pattern.
fn table_name_text() -> String {
    let pattern = table_name()["pattern"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    pattern
        .trim_start_matches('^')
        .trim_end_matches('$')
        .to_string()
}
