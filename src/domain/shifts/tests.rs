//! The shift rules and the report's sums.

use super::report::{self, HandStatus, PlayerRow, ReportHand, ReportInput, Scope};
use super::*;

fn stamp(at: &str, by: &str, seq: i64) -> Stamp {
    Stamp {
        at: at.into(),
        by: by.into(),
        seq,
    }
}

/// A dealer taking DHP-1's box in `shift`.
fn dealer_at_dhp1(shift: &str, dealer: &str) -> ShiftEvent {
    ShiftEvent::DealerChanged {
        shift: shift.into(),
        table: "DHP-1".into(),
        dealer: Some(dealer.into()),
    }
}

/// `shift`'s report signed: two hands, a drop of 3.00.
fn signed(shift: &str) -> ShiftEvent {
    ShiftEvent::ShiftReportSigned {
        shift: shift.into(),
        digest: "ab".repeat(32),
        hands: 2,
        drop: Money::parse("3.00").unwrap(),
    }
}

fn room_shift() -> Shift {
    Shift::open(
        "s1".into(),
        None,
        &[],
        stamp("2026-12-03T08:00:00Z", "sam", 1),
    )
    .unwrap()
}

#[test]
fn one_open_shift_a_table() {
    let room = room_shift();
    let table = Shift::open(
        "t1".into(),
        Some("DHP-1".into()),
        &[],
        stamp("2026-12-03T08:00:00Z", "sam", 1),
    )
    .unwrap();
    let cases: [(Option<&str>, &Shift, &str); 4] = [
        (None, &room, "the room already has an open shift"),
        (
            Some("DHP-2"),
            &room,
            "the room's open shift already covers DHP-2",
        ),
        (Some("DHP-1"), &table, "DHP-1 already has an open shift"),
        (None, &table, "DHP-1 has a shift of its own open"),
    ];
    for (scope, open, want) in cases {
        let got = Shift::open(
            "x".into(),
            scope.map(String::from),
            std::slice::from_ref(open),
            stamp("2026-12-03T09:00:00Z", "sam", 2),
        )
        .unwrap_err();
        assert!(got.to_string().starts_with(want), "{scope:?}: {got}");
        assert!(matches!(got, ShiftRefusal::Conflict(_)));
    }
    // Another table beside a table's shift is fine, and a closed shift blocks nothing.
    assert!(
        Shift::open(
            "t2".into(),
            Some("DHP-2".into()),
            std::slice::from_ref(&table),
            stamp("2026-12-03T09:00:00Z", "sam", 2)
        )
        .is_ok()
    );
    let mut closed = room.clone();
    closed
        .close(&[], stamp("2026-12-03T16:00:00Z", "sam", 9))
        .unwrap();
    assert!(
        Shift::open(
            "s2".into(),
            None,
            &[closed],
            stamp("2026-12-03T16:00:01Z", "sam", 10)
        )
        .is_ok()
    );
}

#[test]
fn a_dealer_change_is_checked_against_the_table_and_its_dealers() {
    let mut shift = room_shift();
    let assigned = vec!["dana".to_string(), "eve".to_string()];
    let at = |s| stamp("2026-12-03T08:10:00Z", "sam", s);
    shift
        .change_dealer("DHP-1", Some("dana"), Some(&assigned), at(2))
        .unwrap();
    assert_eq!(shift.dealer_now("DHP-1"), Some("dana"));
    let again = shift
        .change_dealer("DHP-1", Some("dana"), Some(&assigned), at(3))
        .unwrap_err();
    assert_eq!(
        again.to_string(),
        "dealer: dana is already in the box at DHP-1"
    );
    let stranger = shift
        .change_dealer("DHP-1", Some("zed"), Some(&assigned), at(3))
        .unwrap_err();
    let ShiftRefusal::Invalid(e) = &stranger else {
        panic!("{stranger:?}")
    };
    assert_eq!(e.field(), "dealer");
    assert_eq!(
        e.message(),
        "zed is not assigned to DHP-1 (assigned: dana, eve)"
    );
    shift
        .change_dealer(
            "DHP-1",
            Some("eve"),
            Some(&assigned),
            stamp("2026-12-03T08:40:00Z", "sam", 4),
        )
        .unwrap();
    assert_eq!(
        shift.dealer_at("DHP-1", "2026-12-03T08:20:00Z"),
        Some("dana")
    );
    assert_eq!(
        shift.dealer_at("DHP-1", "2026-12-03T08:40:00Z"),
        Some("eve")
    );
    assert_eq!(shift.dealer_at("DHP-1", "2026-12-03T08:00:00Z"), None);
    // A table's shift takes no change at another table.
    let mut one = Shift::open("t".into(), Some("DHP-1".into()), &[], at(1)).unwrap();
    let other = one
        .change_dealer("DHP-2", Some("dana"), None, at(2))
        .unwrap_err();
    assert_eq!(other.to_string(), "table: shift t is DHP-1's, not DHP-2's");
}

#[test]
fn closing_waits_for_open_hands_and_happens_once() {
    let mut shift = room_shift();
    let open = vec!["DHP-1 #4".to_string()];
    let refused = shift
        .close(&open, stamp("2026-12-03T16:00:00Z", "sam", 5))
        .unwrap_err();
    assert_eq!(
        refused.to_string(),
        "finish or void the hands still open first: DHP-1 #4"
    );
    assert!(shift.is_open());
    shift
        .close(&[], stamp("2026-12-03T16:00:00Z", "sam", 5))
        .unwrap();
    assert!(
        shift
            .close(&[], stamp("2026-12-03T16:01:00Z", "sam", 6))
            .is_err()
    );
    let late = shift
        .change_dealer(
            "DHP-1",
            Some("dana"),
            None,
            stamp("2026-12-03T16:02:00Z", "sam", 7),
        )
        .unwrap_err();
    assert!(late.to_string().contains("was closed by sam"), "{late}");
}

#[test]
fn a_hand_needs_an_open_shift_only_when_required() {
    assert!(check_hand_shift("DHP-1", false, None, false).is_ok());
    let refused = check_hand_shift("DHP-1", false, None, true).unwrap_err();
    assert!(refused.to_string().starts_with("no shift is open at DHP-1"));
    assert!(check_hand_shift("Practice", true, None, true).is_ok());
    assert!(check_hand_shift("DHP-1", false, Some("s1"), true).is_ok());
}

#[test]
fn the_log_replays_through_the_same_checks() {
    let mut log = ShiftLog::default();
    let events = [
        ShiftEvent::ShiftsRequiredSet { required: true },
        ShiftEvent::ShiftOpened {
            shift: "s1".into(),
            table: None,
        },
        dealer_at_dhp1("s1", "dana"),
        ShiftEvent::ShiftClosed { shift: "s1".into() },
        signed("s1"),
    ];
    for (i, e) in events.into_iter().enumerate() {
        let parsed = ShiftEvent::parse(e.type_name(), &e.payload().to_string()).unwrap();
        assert_eq!(parsed, e);
        log.apply(e, stamp("2026-12-03T08:00:00Z", "sam", i as i64 + 1))
            .unwrap();
    }
    assert!(log.required);
    let s1 = &log.shifts["s1"];
    assert_eq!(s1.signature().map(|s| s.hands), Some(2));
    // The same digest signed again (nothing changed since): refused.
    let again = signed("s1");
    let refused = log
        .apply(again, stamp("2026-12-03T09:00:00Z", "sam", 9))
        .unwrap_err();
    assert!(
        refused.to_string().contains("still matches its hands"),
        "{refused}"
    );
    // A second open of the room while s1 was open would have been refused.
    let mut twice = ShiftLog::default();
    twice
        .apply(
            ShiftEvent::ShiftOpened {
                shift: "a".into(),
                table: None,
            },
            stamp("t", "sam", 1),
        )
        .unwrap();
    assert!(
        twice
            .apply(
                ShiftEvent::ShiftOpened {
                    shift: "b".into(),
                    table: Some("DHP-1".into())
                },
                stamp("t", "sam", 2)
            )
            .is_err()
    );
    // Once the room's shift closes, a table's may open; then only that
    // table is taken (the log keeps the open shifts apart from the rest).
    let at = |id: &str, table: Option<&str>| ShiftEvent::ShiftOpened {
        shift: id.into(),
        table: table.map(Into::into),
    };
    twice
        .apply(
            ShiftEvent::ShiftClosed { shift: "a".into() },
            stamp("t", "sam", 3),
        )
        .unwrap();
    twice
        .apply(at("b", Some("DHP-1")), stamp("t", "sam", 4))
        .unwrap();
    twice
        .apply(at("c", Some("DHP-2")), stamp("t", "sam", 5))
        .unwrap();
    let clash = twice
        .apply(at("d", Some("DHP-1")), stamp("t", "sam", 6))
        .unwrap_err();
    assert!(clash.to_string().contains("(b, opened by sam"), "{clash}");
    assert!(twice.apply(at("e", None), stamp("t", "sam", 7)).is_err());
    twice
        .apply(
            ShiftEvent::ShiftClosed { shift: "b".into() },
            stamp("t", "sam", 8),
        )
        .unwrap();
    twice
        .apply(at("d", Some("DHP-1")), stamp("t", "sam", 9))
        .unwrap();
    assert!(ShiftEvent::parse("shift_closed", "{\"shift\":\"s\",\"extra\":1}").is_err());
}

fn money(text: &str) -> Money {
    Money::parse(text).unwrap()
}

fn hand(
    table: &str,
    number: i64,
    hour: &str,
    status: HandStatus,
    pd: &str,
    net: &str,
    collection: &str,
) -> ReportHand {
    ReportHand {
        id: format!("{table}-{number}"),
        table: table.into(),
        number,
        training: table.starts_with("Practice"),
        opened_at: format!("2026-12-03T{hour}:05:00Z"),
        hour: format!("2026-12-03 {hour}:00"),
        status,
        corrected: false,
        dealer: "dana".into(),
        pd: Some(pd.into()),
        bank: Some(money("500")),
        wagered: money("100"),
        collection: Some(money(collection)),
        pd_net: Some(money(net)),
        settlement_seq: Some(number * 10),
    }
}

fn scope() -> Scope {
    Scope {
        shift: None,
        table: None,
        from: "2026-12-03T08:00:00Z".into(),
        to: "2026-12-03T16:00:00Z".into(),
        minutes: 480,
    }
}

#[test]
fn the_report_sums_the_closed_hands_and_keeps_training_apart() {
    let mut voided = hand("DHP-1", 3, "09", HandStatus::Voided, "Ann", "0", "0");
    voided.pd_net = Some(Money::ZERO);
    let hands = vec![
        hand("DHP-1", 1, "08", HandStatus::Closed, "Ann", "40", "1.50"),
        hand("DHP-1", 2, "08", HandStatus::Closed, "Ann", "-20", "1.50"),
        voided,
        hand("DHP-1", 4, "09", HandStatus::Closed, "Bo", "10.25", "2"),
        hand("DHP-2", 1, "09", HandStatus::Open, "Cy", "0", "0"),
        hand("Practice", 1, "09", HandStatus::Closed, "Di", "99", "9"),
    ];
    let players = vec![PlayerRow {
        table: "DHP-1".into(),
        name: "Eve".into(),
        hands: 3,
        staked: money("300"),
        net: money("-30.25"),
    }];
    let r = report::compute(
        scope(),
        None,
        ReportInput {
            hands,
            players,
            ..ReportInput::default()
        },
    );
    assert_eq!(
        (r.room.hands, r.room.closed, r.room.voided, r.room.open),
        (5, 3, 1, 1)
    );
    assert_eq!(r.room.drop, money("5.00"));
    assert_eq!(r.room.wagered, money("300"));
    assert_eq!(r.room.pd_net, money("30.25"));
    assert_eq!(
        r.room.drop_per_hour,
        money("0.63"),
        "5.00 over 8 hours, to the cent"
    );
    assert_eq!((r.training.hands, r.training.drop), (1, money("9")));
    let ann = r.pds.iter().find(|p| p.name == "Ann").unwrap();
    assert_eq!((ann.banks, ann.net), (3, money("20")));
    let dhp1 = &r.tables[0];
    assert_eq!(
        dhp1.rotation
            .iter()
            .map(|t| (t.pd.as_str(), t.hands))
            .collect::<Vec<_>>(),
        [("Ann", 3), ("Bo", 1)]
    );
    assert_eq!(
        r.hours
            .iter()
            .map(|h| (h.hands, h.drop))
            .collect::<Vec<_>>(),
        [(2, money("3.00")), (3, money("2"))]
    );
    assert_eq!(r.players.len(), 1);
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["room"]["drop"], "5.00");
    assert_eq!(json["tables"][0]["hands"], 4);
    assert_eq!(json["tables"][0]["drop"], "5.00");
}

#[test]
fn the_digest_changes_with_a_correction_but_not_with_the_order() {
    let a = hand("DHP-1", 1, "08", HandStatus::Closed, "Ann", "40", "1.50");
    let b = hand("DHP-1", 2, "08", HandStatus::Closed, "Ann", "-20", "1.50");
    let d1 = report::digest(&[a.clone(), b.clone()]);
    assert_eq!(d1, report::digest(&[b.clone(), a.clone()]));
    assert_eq!(d1.len(), 64);
    let mut corrected = b.clone();
    corrected.corrected = true;
    corrected.settlement_seq = Some(99);
    corrected.pd_net = Some(money("20"));
    assert_ne!(d1, report::digest(&[a, corrected]));
}

#[test]
fn a_report_range_is_a_date_or_a_forward_span() {
    assert!(matches!(
        parse_report_range(Some("2026-12-03"), None, None),
        Ok(ReportRange::Day(_))
    ));
    assert!(matches!(
        parse_report_range(None, Some("2026-12-03T08:00"), Some("2026-12-03T16:00")),
        Ok(ReportRange::Between { .. })
    ));
    let cases = [
        (
            None,
            Some("2026-12-03T16:00"),
            Some("2026-12-03T08:00"),
            "to",
        ),
        (
            None,
            Some("2026-12-03T08:00"),
            Some("2026-12-03T08:00"),
            "to",
        ),
        (None, Some("yesterday"), Some("2026-12-03T08:00"), "from"),
        (None, Some("2026-12-03T08:00"), None, "to"),
        (Some("2026-02-30"), None, None, "date"),
        (Some("2026-12-03"), Some("2026-12-03T08:00"), None, "date"),
    ];
    for (date, from, to, field) in cases {
        let e = parse_report_range(date, from, to).unwrap_err();
        assert_eq!(e.field(), field, "{date:?} {from:?} {to:?}: {e}");
    }
}

#[test]
fn a_shift_resumed_as_of_a_seq_replays_like_one_folded_from_its_start() {
    let events = [
        ShiftEvent::ShiftOpened {
            shift: "s1".into(),
            table: Some("DHP-1".into()),
        },
        dealer_at_dhp1("s1", "dana"),
        dealer_at_dhp1("s1", "eli"),
        ShiftEvent::ShiftClosed { shift: "s1".into() },
        signed("s1"),
        ShiftEvent::ShiftOpened {
            shift: "s2".into(),
            table: Some("DHP-1".into()),
        },
    ];
    let fold = |events: &[ShiftEvent], first_seq: i64, log: &mut ShiftLog| {
        for (i, e) in events.iter().enumerate() {
            let seq = first_seq + i as i64;
            log.apply(e.clone(), stamp("2026-12-03T08:00:00Z", "sam", seq))
                .unwrap();
        }
    };
    let mut whole = ShiftLog::default();
    fold(&events, 1, &mut whole);
    // From every seq: the shift as it stood before it, then the rest.
    for from in 1..=events.len() as i64 {
        let mut resumed = ShiftLog::default();
        for shift in whole.shifts.values() {
            if let Some(s) = shift.clone().as_of(from) {
                resumed.resume(s);
            }
        }
        fold(&events[from as usize - 1..], from, &mut resumed);
        assert_eq!(resumed.shifts, whole.shifts, "from {from}");
        // The resumed log knows which shift is open: a third at DHP-1 clashes.
        let clash = resumed.apply(
            ShiftEvent::ShiftOpened {
                shift: "s3".into(),
                table: Some("DHP-1".into()),
            },
            stamp("t", "sam", 99),
        );
        assert!(clash.is_err(), "from {from}");
    }
    let s1 = whole.shifts["s1"].clone();
    assert_eq!(s1.clone().as_of(1), None);
    let at_3 = s1.clone().as_of(3).unwrap();
    assert_eq!(at_3.dealers.len(), 1);
    assert!(at_3.is_open() && at_3.signatures.is_empty());
    assert_eq!(s1.clone().as_of(5).unwrap().closed.map(|c| c.seq), Some(4));
}
