//! Every core error that is bad input gives its field structurally: for
//! each variant, the field is the one its text starts with, and the field
//! error displays exactly as the error does (the API's `message`).

use super::{AsFieldError, FieldError, assert_fields};
use crate::cards::{Card, CardError};
use crate::common::money::{Money, MoneyError};
use crate::common::text::TextError;
use crate::double_hand_poker::action_dice::DiceError;
use crate::double_hand_poker::hand_record::HandError;
use crate::double_hand_poker::settle::SettleError;
use crate::double_hand_poker::tools::{Field, ToolError};
use crate::poker_dice::PokerDiceError;
use crate::ten_thousand::TenThousandError;
use crate::tripoley::TripoleyError;

fn s(text: &str) -> String {
    text.to_string()
}

fn money(field: &str) -> MoneyError {
    MoneyError::NotPositive {
        field: s(field),
        value: s("-1"),
    }
}

#[test]
fn money_errors_name_their_field_and_value() {
    let (field, value) = (s("wagers[2].amount"), s("1.005"));
    assert_fields(&[
        (
            MoneyError::Syntax {
                field: field.clone(),
                value: value.clone(),
            },
            "wagers[2].amount",
        ),
        (money("collection.fee"), "collection.fee"),
        (
            MoneyError::Negative {
                field: field.clone(),
                value: value.clone(),
            },
            "wagers[2].amount",
        ),
        (
            MoneyError::FinerThanUnit {
                field: field.clone(),
                value: value.clone(),
                unit: s("0.01"),
            },
            "wagers[2].amount",
        ),
        (
            MoneyError::BadUnit {
                field: s("unit"),
                value: value.clone(),
            },
            "unit",
        ),
    ]);
    assert_eq!(money("x").field_error().unwrap().value(), Some("-1"));
}

#[test]
fn text_errors_name_their_field_and_value() {
    let e = TextError {
        field: s("players[1]"),
        value: s("A\u{200b}"),
        message: s("has a zero-width character"),
    };
    assert_fields(&[(e.clone(), "players[1]")]);
    assert_eq!(e.field_error().unwrap().value(), Some("A\u{200b}"));
}

#[test]
fn card_errors_name_no_field_of_their_own() {
    for e in [
        CardError::Unknown(s("Zz")),
        CardError::Duplicate(Card::JOKER),
        CardError::JokerNotInPlay,
    ] {
        assert_eq!(e.field_error(), None, "{e}");
    }
}

#[test]
fn action_dice_errors_name_their_field_and_value() {
    assert_fields(&[
        (DiceError::Die { index: 2, value: 7 }, "dice[2]"),
        (DiceError::Seats(11), "seats"),
        (DiceError::PdSeat { seat: 9, seats: 7 }, "pd.seat"),
    ]);
    assert_eq!(
        DiceError::Die { index: 0, value: 7 }
            .field_error()
            .unwrap()
            .value(),
        Some("7")
    );
}

#[test]
fn settle_errors_name_their_field() {
    assert_fields(&[
        (
            SettleError::Json {
                path: s("wagers[0].amount"),
                message: s("invalid type"),
            },
            "wagers[0].amount",
        ),
        (SettleError::InputTooLong { len: 9, max: 8 }, "input"),
        (SettleError::limit("wagers", 65, 64), "wagers"),
        (
            SettleError::Money(money("wagers[1].amount")),
            "wagers[1].amount",
        ),
        (SettleError::invalid("pd.seat", "is required"), "pd.seat"),
        (
            SettleError::DuplicateWagerId {
                index: 3,
                first: 0,
                id: s("w1"),
            },
            "wagers[3].id",
        ),
        (
            SettleError::WagerOnPdSeat { index: 1, seat: 1 },
            "wagers[1].seat",
        ),
        (
            SettleError::SeatOutsideTable {
                field: s("wagers[0].seat"),
                seat: 9,
                seats: 7,
            },
            "wagers[0].seat",
        ),
        (
            SettleError::BacklineWithoutPrimary {
                index: 2,
                id: s("b"),
                seat: 3,
            },
            "wagers[2]",
        ),
        (
            SettleError::SecondPrimary {
                index: 2,
                seat: 3,
                first_id: s("a"),
            },
            "wagers[2]",
        ),
        (SettleError::MissingOutcome { seat: 4 }, "outcomes"),
        (
            SettleError::MissingHand {
                seat: 4,
                why: "no cards",
            },
            "hands",
        ),
        (
            SettleError::Cards {
                field: s("hands.3.high"),
                message: s("expected 5 cards, got 4"),
            },
            "hands.3.high",
        ),
        (
            SettleError::Die {
                field: s("dice[1]"),
                value: 0,
            },
            "dice[1]",
        ),
        (
            SettleError::BadPayout {
                field: s("options.payout"),
                value: s("x"),
                reason: "no ':'",
            },
            "options.payout",
        ),
        (SettleError::BothOutcomesAndHands, "outcomes, hands"),
        (SettleError::NeitherOutcomesNorHands, "outcomes, hands"),
    ]);
    let internal = SettleError::Conservation {
        check: "in = out",
        left: Money::ZERO,
        right: Money::ZERO,
    };
    assert_eq!(internal.field_error(), None);
    assert_eq!(SettleError::Internal(s("x")).field_error(), None);
}

#[test]
fn hand_errors_name_their_field_and_at_an_event_its_index() {
    let refused = HandError::Refused {
        field: s("reason"),
        value: s(""),
        why: s("is empty"),
    };
    let wrong_phase = HandError::WrongPhase {
        event: "hand_closed",
        phase: "open",
        why: s("no wagers"),
    };
    let at = |index, error: HandError| HandError::At {
        index,
        error: Box::new(error),
    };
    assert_fields(&[
        (HandError::NotOpened, "event"),
        (HandError::AlreadyOpened, "event"),
        (wrong_phase.clone(), "event"),
        (HandError::UnknownWager(s("w9")), "event.id"),
        (HandError::NoWagersOnSeat(s("4")), "event.seat"),
        (HandError::MixedResults, "event"),
        (
            HandError::StepOrder {
                id: s("w2"),
                expected: s("w1"),
            },
            "event.wagers",
        ),
        (HandError::StepsNotConfirmed(vec![s("w1")]), "hand_closed"),
        (refused.clone(), "event.reason"),
        (
            HandError::Cards {
                field: s("event.hands.3"),
                message: s("unknown card \"Zz\""),
            },
            "event.hands.3",
        ),
        (HandError::TooManyEvents(500), "event"),
        (
            HandError::Rules(SettleError::Money(money("wagers[0].amount"))),
            "wagers[0].amount",
        ),
        (at(2, HandError::UnknownWager(s("w9"))), "events[2].id"),
        (at(0, wrong_phase), "events[0]"),
        (at(1, refused), "events[1].reason"),
        (
            at(3, HandError::StepsNotConfirmed(vec![s("w1")])),
            "hand_closed",
        ),
        (
            at(1, HandError::Rules(SettleError::MissingOutcome { seat: 2 })),
            "outcomes",
        ),
    ]);
    assert_eq!(
        at(2, HandError::UnknownWager(s("w9")))
            .field_error()
            .unwrap()
            .value(),
        Some("w9")
    );
    assert_eq!(HandError::SettlementMismatch.field_error(), None);
    assert_eq!(at(1, HandError::Internal(s("x"))).field_error(), None);
}

#[test]
fn tripoley_errors_name_their_field_when_input() {
    assert_fields(&[(
        TripoleyError::input("poker.shown.Ann", "\"Zz\" is not a card"),
        "poker.shown.Ann",
    )]);
    let bug = TripoleyError::Conservation {
        during: s("antes"),
        before: 10,
        after: 9,
    };
    assert_eq!(bug.field_error(), None);
    assert_eq!(TripoleyError::Internal(s("x")).field_error(), None);
}

#[test]
fn dice_game_and_tool_errors_name_their_field() {
    assert_fields(&[(
        PokerDiceError::new("hands[1]", "\"Q\" is not five dice"),
        "hands[1]",
    )]);
    assert_fields(&[(
        TenThousandError::new("turns[4].throws[1].keep", "keeps nothing"),
        "turns[4].throws[1].keep",
    )]);
    let tool = |field| ToolError {
        field,
        message: s("is wrong"),
    };
    assert_fields(&[
        (tool(Field::Cards), "cards"),
        (tool(Field::Dice(None)), "dice"),
        (tool(Field::Dice(Some(1))), "dice[1]"),
        (tool(Field::PdSeat), "pd_seat"),
        (tool(Field::Seats), "seats"),
    ]);
}

#[test]
fn a_field_error_is_its_own_field_error() {
    let e = FieldError::new("body", "expected value").with_value("{");
    assert_eq!(e.field_error(), Some(e.clone()));
}
