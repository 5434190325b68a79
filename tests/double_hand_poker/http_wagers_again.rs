//! The wagers step offers the table's last closed hand's wagers again
//! (players sit for hours), on both databases: all at once or one by one,
//! never on the new PD's seat or by the new PD, never one already placed;
//! a tampered offer is refused with nothing recorded. And the seat tapped on
//! the drawing (`?seat=N`) is the wager form's seat.

use crate::common::browser::{Browser, input_value};
use crate::common::play::{
    dana_banks_200, form_html, ok, open_hand, table_with_dealer, wager_rows,
};
use crate::common::{Backend, records, spawn_app};

/// Last hand's wagers: seat 4 Ann 60, 5 Bo 60 with Gus's 10 on its backline,
/// 6 Cy 100; PD Dana at seat 1. Outcomes only: the hand is closed.
const LAST_HAND: &[(&str, &str, &str, bool)] = &[
    ("4", "Ann", "60", false),
    ("5", "Bo", "60", false),
    ("5", "Gus", "10", true),
    ("6", "Cy", "100", false),
];

pub(crate) async fn play_a_hand(dana: &mut Browser) {
    let hand = open_hand(dana).await;
    dana_banks_200(dana, &hand).await;
    for &(seat, bettor, amount, backline) in LAST_HAND {
        let mut fields = vec![("seat", seat), ("bettor", bettor), ("amount", amount)];
        if backline {
            fields.push(("backline", "1"));
        }
        ok(dana, &hand, "wager-form", &fields).await;
    }
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(dana, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    let outcomes = [
        ("outcome_4", "pd"),
        ("outcome_5", "player"),
        ("outcome_6", "push"),
    ];
    ok(dana, &hand, "results-form", &outcomes).await;
    ok(dana, &hand, "confirm-all", &[]).await;
    ok(dana, &hand, "close-form", &[]).await;
}

/// Posts the form holding `id` with its hidden fields, every `again` value
/// it carries included (or `again` replaced by `tampered`).
async fn post_again(b: &mut Browser, hand: &str, id: &str, tampered: Option<&str>) -> u16 {
    let page = b.get(hand).await;
    let form = form_html(&page.body, id);
    let mut fields: Vec<(String, String)> = ["csrf", "version", "idempotency_key", "step"]
        .iter()
        .map(|n| (n.to_string(), input_value(&form, n)))
        .collect();
    let offered = form
        .split("name=\"again\" value=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string());
    match tampered {
        Some(value) => fields.push(("again".into(), value.into())),
        None => fields.extend(offered.map(|v| ("again".to_string(), v))),
    }
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    b.post(hand, &pairs).await.status
}

async fn last_hands_wagers_are_offered_again(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    play_a_hand(&mut dana).await;

    // The next hand, Dana banking again: all four offered, seat by seat.
    let hand = open_hand(&mut dana).await;
    let page = dana.get(&hand).await;
    assert!(
        !page.body.contains("id=\"again\""),
        "no offer before the PD is set"
    );
    dana_banks_200(&mut dana, &hand).await;
    let page = dana.get(&hand).await;
    for offer in [
        "Seat 4: Ann, 60.00",
        "Seat 5: Bo, 60.00",
        "Seat 5: Gus, 10.00 (backline)",
        "Seat 6: Cy, 100.00",
    ] {
        assert!(page.body.contains(offer), "{offer} offered:\n{}", page.body);
    }
    assert!(page.body.contains("Place all 4 again"), "{}", page.body);

    // A tampered offer: refused, nothing recorded.
    let placed = records(&app, "wager_placed").await;
    for bad in [
        "4:60.00:own",
        "x:60.00:own:Ann",
        "4:lots:own:Ann",
        "4:60.00:side:Ann",
    ] {
        assert_eq!(
            post_again(&mut dana, &hand, "again-all", Some(bad)).await,
            422,
            "{bad}"
        );
    }
    assert_eq!(
        records(&app, "wager_placed").await,
        placed,
        "nothing recorded"
    );

    // All at once: one command, four wagers, the same as last hand's.
    assert_eq!(post_again(&mut dana, &hand, "again-all", None).await, 303);
    let page = dana.get(&hand).await;
    assert_eq!(
        wager_rows(&page.body),
        [
            "4 Ann 60.00 primary",
            "5 Bo 60.00 primary",
            "5 Gus 10.00 backline",
            "6 Cy 100.00 primary"
        ],
    );
    assert_eq!(records(&app, "wager_placed").await, placed + 4);
    assert!(!page.body.contains("id=\"again\""), "nothing left to offer");
}

async fn the_new_pds_seat_and_wagers_are_not_offered(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    play_a_hand(&mut dana).await;

    // Ann banks from seat 4: her seat and her wager are not offered.
    let hand = open_hand(&mut dana).await;
    let ann_banks = [
        ("seat", "4"),
        ("player", "Ann"),
        ("bank", "300"),
        ("option", "bank_two"),
    ];
    ok(&mut dana, &hand, "pd-form", &ann_banks).await;
    let page = dana.get(&hand).await;
    assert!(!page.body.contains("Seat 4: Ann, 60.00"), "{}", page.body);
    assert!(page.body.contains("Place all 3 again"), "{}", page.body);

    // One by one: the first offer's own form places just that wager, and
    // it is offered no more.
    let first = page.body.find("Seat 5: Bo, 60.00").unwrap();
    let single = &page.body[page.body[..first].rfind("<form").unwrap()..first];
    let fields: Vec<(String, String)> = ["csrf", "version", "idempotency_key", "step", "again"]
        .iter()
        .map(|n| (n.to_string(), input_value(single, n)))
        .collect();
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(dana.post(&hand, &pairs).await.status, 303);
    let page = dana.get(&hand).await;
    assert_eq!(wager_rows(&page.body), ["5 Bo 60.00 primary"]);
    assert!(
        !page.body.contains("Seat 5: Bo, 60.00"),
        "placed: no longer offered"
    );
    assert!(page.body.contains("Place all 2 again"), "{}", page.body);
}

async fn the_seat_tapped_on_the_drawing_is_the_forms_seat(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let page = dana.get(&format!("{hand}?seat=5")).await;
    let form = form_html(&page.body, "wager-form");
    assert!(tag(&form, "seat").contains("value=\"5\""), "{form}");
    assert!(
        tag(&form, "bettor").contains("autofocus"),
        "the bettor is next: {form}"
    );
    assert!(!tag(&form, "seat").contains("autofocus"), "{form}");
    // Nothing chosen: the seat is focused, and empty.
    let page = dana.get(&hand).await;
    let form = form_html(&page.body, "wager-form");
    assert!(tag(&form, "seat").contains("autofocus"), "{form}");
    assert!(tag(&form, "seat").contains("value=\"\""), "{form}");
}

/// The opening tag of the element of id `id` in `html`.
fn tag<'a>(html: &'a str, id: &str) -> &'a str {
    let at = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id}"));
    let start = html[..at].rfind('<').unwrap();
    &html[start..at + html[at..].find('>').unwrap()]
}

async fn the_last_steps_close_the_hand_and_the_next_starts_from_it(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let wager = [("seat", "4"), ("bettor", "Ann"), ("amount", "60")];
    ok(&mut dana, &hand, "wager-form", &wager).await;
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(&mut dana, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    ok(&mut dana, &hand, "results-form", &[("outcome_4", "pd")]).await;
    // One tap: the remaining steps confirmed and the hand closed, as one
    // command (both recorded).
    let (confirmed, closed) = (
        records(&app, "steps_confirmed").await,
        records(&app, "hand_closed").await,
    );
    ok(&mut dana, &hand, "confirm-close", &[]).await;
    assert_eq!(records(&app, "steps_confirmed").await, confirmed + 1);
    assert_eq!(records(&app, "hand_closed").await, closed + 1);
    let page = dana.get(&hand).await;
    assert!(page.body.contains("id=\"closed\""), "{}", page.body);

    // The closed hand starts the next one at its table.
    let page = crate::common::play::submit(&mut dana, &hand, "next-hand", &[]).await;
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(
        page.location.starts_with("/hands/") && page.location != hand,
        "{}",
        page.location
    );
    let next = dana.get(&page.location).await;
    assert!(next.body.contains("1. Who banks?"), "{}", next.body);

    // An auditor is offered neither.
    app.add_user("audrey", pitbook::domain::staff::Role::Auditor)
        .await;
    let mut audrey = Browser::new(&app);
    audrey.login("audrey", crate::common::TEST_PASSWORD).await;
    let page = audrey.get(&hand).await;
    assert!(!page.body.contains("id=\"next-hand\""), "{}", page.body);
}

on_both_databases!(
    the_last_steps_close_the_hand_and_the_next_starts_from_it,
    last_hands_wagers_are_offered_again,
    the_new_pds_seat_and_wagers_are_not_offered,
    the_seat_tapped_on_the_drawing_is_the_forms_seat,
);
