//! The limits deeper in the request types: a hand command's events, the
//! cards and faces written as text or a list, the Tripoley maps keyed by
//! player, and the drills' answers.

use serde_json::{Value, json};

use super::hands::{PAYOUT, POSITIVE, action_dice, seat, settle_name, username};
use super::{At, both, items, line, line_but, list_of, matching, paragraph, range};
use crate::domain::cards::{CARD_PATTERN, cards_pattern};
use crate::domain::common::text::{NAME_CHARS_MAX, REASON_CHARS_MAX};
use crate::domain::double_hand_poker::action_dice::SEATS_MAX;
use crate::domain::double_hand_poker::hand_record::{EVENTS_PER_HAND_MAX, NOTE_CHARS_MAX};
use crate::domain::double_hand_poker::settle::PD_KEY;
use crate::domain::double_hand_poker::settle::limits as settle;
use crate::domain::poker_dice::{FACES_TEXT_MAX, HANDS_MAX};
use crate::domain::training::kinds::{ten_thousand, tripoley as tripoley_drill};
use crate::domain::tripoley;

pub(super) fn rules() -> Vec<(At, Value)> {
    let mut rules = events();
    rules.extend(cards_and_faces());
    rules.extend(tripoley_maps());
    rules.extend(answers());
    rules
}

/// Each event of a hand command, by its `type`.
fn events() -> Vec<(At, Value)> {
    let reason = paragraph(REASON_CHARS_MAX);
    let event = |kind: &'static str, field: &'static str, limit: Value| {
        (At::Nested("HandEvent", vec![kind, field]), limit)
    };
    let version = range(0, EVENTS_PER_HAND_MAX);
    vec![
        (
            At::Field("HandCommand", "expected_version"),
            version.clone(),
        ),
        (At::Field("HandNote", "expected_version"), version),
        event("type=hand_opened", "table", line(NAME_CHARS_MAX)),
        event(
            "type=hand_opened",
            "dealer",
            matching(format!("^(?:{})?$", bare(&username()))),
        ),
        event("type=pd_set", "seat", seat()),
        event("type=pd_set", "player", line(NAME_CHARS_MAX)),
        event("type=pd_set", "bank", matching(POSITIVE)),
        event(
            "type=pd_set",
            "declined",
            items(0, usize::from(SEATS_MAX) - 1),
        ),
        (At::Field("Declined", "seat"), seat()),
        (At::Field("Declined", "player"), line(NAME_CHARS_MAX)),
        event("type=wager_placed", "id", settle_name()),
        event("type=wager_placed", "seat", seat()),
        event(
            "type=wager_placed",
            "bettor",
            line_but(NAME_CHARS_MAX, PD_KEY),
        ),
        event("type=wager_placed", "amount", matching(POSITIVE)),
        event("type=wager_placed", "payout", matching(PAYOUT)),
        event("type=wager_removed", "id", settle_name()),
        event("type=wager_removed", "reason", reason.clone()),
        event(
            "type=collection_taken",
            "player",
            items(0, settle::BRACKETS_MAX),
        ),
        event(
            "type=collection_taken",
            "bank",
            items(0, settle::BRACKETS_MAX),
        ),
        event("type=action_set", "dice", action_dice()),
        event("type=action_set", "seat", seat()),
        event("type=outcome_recorded", "seat", seat()),
        event("type=hand_recorded", "seat", seat()),
        event(
            "type=steps_confirmed",
            "wagers",
            list_of(1, settle::WAGERS_MAX, settle_name()),
        ),
        event("type=outcome_corrected", "seat", seat()),
        event("type=outcome_corrected", "reason", reason.clone()),
        event("type=hand_voided", "reason", reason),
        event("type=hand_note_added", "text", paragraph(NOTE_CHARS_MAX)),
    ]
}

/// A pattern without its anchors, to go inside another.
pub(super) fn bare(limit: &Value) -> String {
    let pattern = limit["pattern"].as_str().unwrap_or_default();
    pattern
        .trim_start_matches('^')
        .trim_end_matches('$')
        .to_string()
}

/// Cards written as text or a list wherever no route gives a count, and a
/// poker dice hand's faces (its profile says which: fields that agree).
fn cards_and_faces() -> Vec<(At, Value)> {
    let card = json!({"pattern": format!(r"^[\s,]*{CARD_PATTERN}[\s,]*$")});
    let text = matching(format!(r"^[\s,]*(?:{CARD_PATTERN}[\s,]*)*$"));
    let hands_of_seats = |field: &'static str, n: usize| {
        let limit = both(
            json!({"maxLength": settle::CARD_TEXT_CHARS_MAX}),
            matching(cards_pattern(&[n])),
        );
        (
            At::Nested("ScenarioInput", vec!["hands", "*", field]),
            limit,
        )
    };
    vec![
        (At::Nested("CardsText", vec!["string"]), text),
        (At::Nested("CardsText", vec!["array"]), list_of(0, 53, card)),
        (
            At::Nested("PokerDiceFaces", vec!["string"]),
            json!({"maxLength": FACES_TEXT_MAX}),
        ),
        (
            At::Nested("PokerDiceFaces", vec!["array"]),
            // Items are joined by spaces: more than this is more text.
            list_of(0, FACES_TEXT_MAX + 1, json!({"maxLength": FACES_TEXT_MAX})),
        ),
        hands_of_seats("high", 5),
        hands_of_seats("low", 2),
        hands_of_seats("cards", 7),
    ]
}

/// Tripoley's maps keyed by player, and its cards: a card a token, never
/// run together, no joker; a last hand is five.
fn tripoley_maps() -> Vec<(At, Value)> {
    let card = tripoley::CARD_PATTERN;
    let cards = |count: Option<usize>| {
        let (text, list) = match count {
            Some(n) => (
                format!(r"^[\s,]*{card}(?:[\s,]+{card}){{{}}}[\s,]*$", n - 1),
                items(n, n),
            ),
            None => (
                format!(r"^[\s,]*(?:{card}(?:[\s,]+{card})*)?[\s,]*$"),
                items(0, 52),
            ),
        };
        let each = json!({"pattern": format!(r"^\s*{card}\s*$")});
        (matching(text), both(list, json!({"items": each})))
    };
    let name = line(tripoley::NAME_MAX);
    let mut rules = vec![
        (At::Field("TripoleyRound", "dealer"), name.clone()),
        (At::Field("TripoleyFinal", "dealer"), name.clone()),
        (At::Field("TripoleyAuction", "buyer"), name.clone()),
        (At::Field("TripoleyMichigan", "out"), name.clone()),
        (
            At::Nested("TripoleyMichigan", vec!["cards_left", "*"]),
            range(0, 52),
        ),
        (
            At::Field("TripoleyPoker", "folded"),
            both(
                list_of(0, tripoley::PLAYERS_MAX, name),
                json!({"uniqueItems": true}),
            ),
        ),
    ];
    for (schema, steps, count) in [
        ("TripoleyRound", ["hands", "*"], None),
        ("TripoleyFinal", ["hands", "*"], Some(5)),
        ("TripoleyPoker", ["shown", "*"], Some(5)),
    ] {
        let (text, list) = cards(count);
        let at = |form: &'static str| At::Nested(schema, vec![steps[0], steps[1], form]);
        rules.push((at("string"), text));
        rules.push((at("array"), list));
    }
    rules
}

/// The drills' answers, each of its kind's shape.
fn answers() -> Vec<(At, Value)> {
    vec![
        (At::Field("ActionSeatAnswer", "seat"), seat()),
        (
            At::Field("ActionOrderAnswer", "order"),
            both(
                list_of(1, settle::WAGERS_MAX, settle_name()),
                json!({"uniqueItems": true}),
            ),
        ),
        (
            At::Field("HouseWayAnswer", "high"),
            matching(cards_pattern(&[5])),
        ),
        (
            At::Field("HouseWayAnswer", "low"),
            matching(cards_pattern(&[2])),
        ),
        (
            At::Field("TenThousandAnswer", "points"),
            range(0, ten_thousand::POINTS_MAX),
        ),
        (
            At::Nested("TripoleyAnswer", vec!["net", "*"]),
            range(-tripoley_drill::NET_MAX, tripoley_drill::NET_MAX),
        ),
        (
            At::Nested("PokerDiceWinner", vec!["integer"]),
            range(1, HANDS_MAX),
        ),
    ]
}
