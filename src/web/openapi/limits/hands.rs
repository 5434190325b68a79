//! The limits of Double Hand Poker's requests: the hand tools, the
//! settlement, hands kept in the log, tables and house ways.

use serde_json::{Value, json};

use super::{At, both, items, length, list_of, matching, paragraph, range};
use crate::domain::cards::{CARD_PATTERN, cards_pattern};
use crate::domain::common::money::MONEY_TEXT_LEN_MAX;
use crate::domain::double_hand_poker::action_dice::{DICE, DIE_MAX, SEATS_MAX, SEATS_MIN};
use crate::domain::double_hand_poker::hand_record::NOTE_CHARS_MAX;
use crate::domain::double_hand_poker::house_way::file::FILE_BYTES_MAX;
use crate::domain::double_hand_poker::options::{
    PD_MIN_WAGERS_MAX, ROTATION_MINUTES_MAX, ROTATION_PLAYERS_MAX,
};
use crate::domain::double_hand_poker::settle::limits as settle;
use crate::domain::double_hand_poker::settle::{PD_KEY, Ratio};
use crate::domain::double_hand_poker::table::TABLE_NAME_CHARS_MAX;
use crate::domain::staff::USERNAME_MAX;
use crate::store::double_hand_poker::hands::{COMMAND_EVENTS_MAX, IDEMPOTENCY_KEY_CHARS_MAX};

/// Money written as the core reads it, at most 24 characters.
pub(super) const MONEY: &str = "Money";
/// An amount above zero (a bank, a wager, a unit, a table limit).
pub(super) const POSITIVE: &str = r"^(?![0.]*$)[0-9]+(\.[0-9]+)?$";
/// An amount of zero or more (a fee, a bracket's bound).
pub(super) const NOT_NEGATIVE: &str = r"^[0-9]+(\.[0-9]+)?$";

pub(super) fn rules() -> Vec<(At, Value)> {
    let mut rules = tools();
    rules.extend(settlement());
    rules.extend(kept());
    rules
}

/// A seat at the largest table.
pub(super) fn seat() -> Value {
    range(1, SEATS_MAX)
}

/// A table's size.
fn seats() -> Value {
    range(SEATS_MIN, SEATS_MAX)
}

/// The ACTION dice: three dice of 1 to 6.
pub(super) fn action_dice() -> Value {
    list_of(DICE, DICE, range(1, DIE_MAX))
}

/// Cards as text or a list (`CardsText`): `counts` cards in a text, or a
/// list of that many, a card an item.
fn cards(counts: &[usize]) -> Value {
    let item = json!({"type": "string", "pattern": format!(r"^[\s,]*{CARD_PATTERN}[\s,]*$")});
    let text = both(json!({"type": "string"}), matching(cards_pattern(counts)));
    let mut forms = vec![text];
    for &n in counts {
        forms.push(both(json!({"type": "array"}), list_of(n, n, item.clone())));
    }
    json!({"oneOf": forms})
}

/// A table's name as a table is made with it (looked up elsewhere).
pub(super) fn table_name() -> Value {
    matching(format!("^[A-Za-z0-9_-]{{1,{TABLE_NAME_CHARS_MAX}}}$"))
}

/// A username as an account is made with it (looked up elsewhere).
pub(super) fn username() -> Value {
    matching(format!("^[a-z0-9._-]{{1,{USERNAME_MAX}}}$"))
}

/// The settlement's names and wager ids: 1 to 64 characters, no control
/// character, no space at an end (`settle::scenario::validate::name`).
pub(super) fn settle_name() -> Value {
    settle_name_but("")
}

/// [`settle_name`], but not `reserved` (a lookahead, `(?!pd$)`).
fn settle_name_but(reserved: &str) -> Value {
    let ok = r"[^\u0000-\u001F\u007F-\u009F]";
    let edge = r"[^\s\u0000-\u001F\u007F-\u009F]";
    let not = if reserved.is_empty() {
        String::new()
    } else {
        format!("(?!{reserved}$)")
    };
    both(
        length(1, settle::NAME_CHARS_MAX),
        matching(format!("^{not}{edge}(?:{ok}*{edge})?$")),
    )
}

/// A payout `p:q`, each side 1 to 100 in at most three digits.
pub(super) const PAYOUT: &str = Ratio::PATTERN;

fn tools() -> Vec<(At, Value)> {
    let dice_text = r"^[\s,]*\+?0*[1-6](?:[\s,]+\+?0*[1-6]){2}[\s,]*$";
    let mut rules = vec![
        (At::Schema(MONEY), json!({"maxLength": MONEY_TEXT_LEN_MAX})),
        (
            At::Schema("MoneyUnit"),
            both(matching(POSITIVE), json!({"maxLength": MONEY_TEXT_LEN_MAX})),
        ),
        (
            At::Field("OptionOverrides", "pd_min_wagers"),
            range(0, PD_MIN_WAGERS_MAX),
        ),
        (
            At::Field("OptionOverrides", "pd_rotation_minutes"),
            range(0, ROTATION_MINUTES_MAX),
        ),
        (
            At::Field("OptionOverrides", "pd_rotation_min_other_players"),
            range(0, ROTATION_PLAYERS_MAX),
        ),
        (
            At::Field("OptionOverrides", "tppp_max_per_table"),
            range(0, ROTATION_PLAYERS_MAX),
        ),
        (At::Field("DiceRequest", "dice"), action_dice()),
        (At::Field("DiceRequest", "pd_seat"), seat()),
        (At::Field("DiceRequest", "seats"), seats()),
        (
            At::Param("get", "/api/v1/dice", "dice"),
            matching(dice_text),
        ),
        (At::Param("get", "/api/v1/dice", "pd_seat"), seat()),
        (At::Param("get", "/api/v1/dice", "seats"), seats()),
        (At::Field("EvRequest", "cards"), cards(&[7])),
    ];
    for (path, counts) in [
        ("/api/v1/hands/eval", &[5, 2][..]),
        ("/api/v1/hands/house-way", &[7]),
        ("/api/v1/hands/settings", &[7]),
    ] {
        let text = json!({"pattern": cards_pattern(counts)});
        rules.push((At::Param("get", path, "cards"), text));
        let body = json!({"type": "object", "properties": {"cards": cards(counts)}});
        rules.push((At::Body("post", path), body));
    }
    rules
}

fn settlement() -> Vec<(At, Value)> {
    let seat_map = json!({
        "maxProperties": SEATS_MAX,
        "propertyNames": {"type": "string", "pattern": "^(?:[1-9]|10)$"},
    });
    let hand_text = |n: usize| {
        both(
            json!({"maxLength": settle::CARD_TEXT_CHARS_MAX}),
            matching(cards_pattern(&[n])),
        )
    };
    vec![
        (At::Field("ScenarioInput", "seats"), seats()),
        (
            At::Field("ScenarioInput", "wagers"),
            items(0, settle::WAGERS_MAX),
        ),
        (At::Field("ScenarioInput", "outcomes"), seat_map.clone()),
        (At::Field("ScenarioInput", "hands"), seat_map),
        (At::Field("PdInput", "seat"), seat()),
        (At::Field("PdInput", "player"), settle_name()),
        (At::Field("PdInput", "bank"), matching(POSITIVE)),
        (At::Field("ActionInput", "dice"), action_dice()),
        (At::Field("ActionInput", "seat"), seat()),
        (At::Field("WagerInput", "id"), settle_name()),
        (At::Field("WagerInput", "bettor"), settle_name_but(PD_KEY)),
        (At::Field("WagerInput", "seat"), seat()),
        (At::Field("WagerInput", "amount"), matching(POSITIVE)),
        (At::Field("WagerInput", "payout"), matching(PAYOUT)),
        (At::Field("HandInput", "high"), hand_text(5)),
        (At::Field("HandInput", "low"), hand_text(2)),
        (At::Field("HandInput", "cards"), hand_text(7)),
        (
            At::Field("CollectionInput", "player"),
            items(0, settle::BRACKETS_MAX),
        ),
        (
            At::Field("CollectionInput", "bank"),
            items(0, settle::BRACKETS_MAX),
        ),
        (At::Field("BracketInput", "from"), matching(NOT_NEGATIVE)),
        (At::Field("BracketInput", "to"), matching(NOT_NEGATIVE)),
        (At::Field("BracketInput", "fee"), matching(NOT_NEGATIVE)),
    ]
}

/// Hands kept in the log, tables and house ways.
fn kept() -> Vec<(At, Value)> {
    let key = length(1, IDEMPOTENCY_KEY_CHARS_MAX);
    let uuid = json!({"format": "uuid"});
    let mut rules = vec![
        (At::Field("HandCommand", "idempotency_key"), key.clone()),
        (
            At::Field("HandCommand", "events"),
            items(1, COMMAND_EVENTS_MAX),
        ),
        (At::Field("HandCommand", "actor"), username()),
        (At::Field("HandNote", "idempotency_key"), key),
        (At::Field("HandNote", "text"), paragraph(NOTE_CHARS_MAX)),
        (
            At::Field("TableConfig", "name"),
            both(table_name(), json!({"minLength": 1})),
        ),
        (
            At::Field("TableConfig", "seats"),
            range(SEATS_MIN, SEATS_MAX),
        ),
        (
            At::Field("TableConfig", "player_schedule"),
            items(0, settle::BRACKETS_MAX),
        ),
        (
            At::Field("TableConfig", "bank_schedule"),
            items(0, settle::BRACKETS_MAX),
        ),
        (At::Field("TableConfig", "wager_min"), matching(POSITIVE)),
        (At::Field("TableConfig", "wager_max"), matching(POSITIVE)),
        (At::Field("DealerAssignment", "dealer"), username()),
        (At::Field("LoadRequest", "text"), length(1, FILE_BYTES_MAX)),
    ];
    for path in [
        "/api/v1/hands/{id}",
        "/api/v1/hands/{id}/commands",
        "/api/v1/hands/{id}/notes",
    ] {
        let method = if path == "/api/v1/hands/{id}" {
            "get"
        } else {
            "post"
        };
        rules.push((At::Param(method, path, "id"), uuid.clone()));
    }
    for (method, path) in [
        ("get", "/api/v1/tables/{name}"),
        ("post", "/api/v1/tables/{name}/dealers"),
    ] {
        rules.push((At::Param(method, path, "name"), table_name()));
    }
    rules
}
