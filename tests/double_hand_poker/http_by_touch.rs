//! The hand by touch, on both databases: a seat's sheet offers the bettors
//! seen at that seat and table (a tap places the wager, a name typed wins),
//! the PD's bank offers the last hand's bank first, the last wager is
//! undone in one tap (a new event), after the dice the page says what the
//! bank covers in ACTION order, a seat tapped on the results step
//! without a result to choose says why, and a keypad amount the table
//! refuses is refused beside the amount with the limit in words.

use crate::common::browser::{Browser, input_value};
use crate::common::play::{
    dana_banks_200, form_html, ok, open_hand, submit, table_with_dealer, wager_rows,
};
use crate::common::{Backend, TestApp, records, spawn_app};
use crate::http_wagers_again::play_a_hand;

/// The radio values of `name` in `html`, in page order.
fn radios(html: &str, name: &str) -> Vec<String> {
    let needle = format!("type=\"radio\" name=\"{name}\" value=\"");
    html.split(&needle)
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].to_string())
        .collect()
}

async fn a_seats_sheet_offers_the_bettors_seen_there_first(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    // Last hand: 4 Ann, 5 Bo with Gus's backline, 6 Cy; Dana the PD.
    play_a_hand(&mut dana).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;

    let page = dana.get(&format!("{hand}?seat=5")).await;
    let form = form_html(&page.body, "wager-form");
    assert!(form.contains("Seen at seat 5, then this table"), "{form}");
    assert_eq!(radios(&form, "bettor_seen"), ["Bo", "Gus", "Ann", "Cy"]);
    assert!(
        form.contains("value=\"Bo\" autofocus"),
        "the first name is focused, not the keyboard's field: {form}"
    );

    // A name tapped places the wager; a name typed wins over a tap.
    let bo = [
        ("seat", "5"),
        ("bettor", ""),
        ("bettor_seen", "Bo"),
        ("amount", "60"),
    ];
    ok(&mut dana, &hand, "wager-form", &bo).await;
    let typed = [
        ("seat", "6"),
        ("bettor", "Hal"),
        ("bettor_seen", "Cy"),
        ("amount", "20"),
    ];
    ok(&mut dana, &hand, "wager-form", &typed).await;
    let page = dana.get(&hand).await;
    assert_eq!(
        wager_rows(&page.body),
        ["5 Bo 60.00 primary", "6 Hal 20.00 primary"]
    );

    // Neither: refused beside the bettor's field, nothing recorded.
    let placed = records(&app, "wager_placed").await;
    let none = [("seat", "4"), ("bettor", " "), ("amount", "20")];
    let page = submit(&mut dana, &hand, "wager-form", &none).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("id=\"bettor-error\""), "{}", page.body);
    assert_eq!(records(&app, "wager_placed").await, placed);

    // This hand's bettors are offered too.
    let page = dana.get(&format!("{hand}?seat=4")).await;
    let form = form_html(&page.body, "wager-form");
    assert!(
        radios(&form, "bettor_seen").contains(&"Hal".to_string()),
        "{form}"
    );
}

async fn the_bank_keypad_offers_the_last_bank_first(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    play_a_hand(&mut dana).await;
    let hand = open_hand(&mut dana).await;
    let page = dana.get(&hand).await;
    assert!(
        page.body
            .contains("data-quick=\"200 100 300 500 1000 2000\""),
        "the last hand's 200 first: {}",
        page.body
    );
}

async fn the_last_wager_is_undone_by_one_tap_as_a_new_event(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    for (seat, bettor) in [("4", "Ann"), ("5", "Bo")] {
        let wager = [("seat", seat), ("bettor", bettor), ("amount", "60")];
        ok(&mut dana, &hand, "wager-form", &wager).await;
    }
    let page = dana.get(&hand).await;
    let undo = form_html(&page.body, "undo");
    assert!(
        undo.contains("Undo the last wager: seat 5, Bo 60.00"),
        "{undo}"
    );
    let removed = records(&app, "wager_removed").await;
    let wager = input_value(&undo, "wager");
    ok(&mut dana, &hand, "undo", &[("wager", &wager)]).await;
    assert_eq!(records(&app, "wager_removed").await, removed + 1);
    let page = dana.get(&hand).await;
    assert_eq!(wager_rows(&page.body), ["4 Ann 60.00 primary"]);
    assert!(page.body.contains("Undo the last wager: seat 4, Ann 60.00"));
}

/// Dana banks 200; Ann 60 on 4, Bo 60 on 5 with Gus's 10 backline, Cy 100
/// on 6; dice 1 1 2: ACTION seat 4.
async fn a_hand_at_its_results(backend: Backend) -> (TestApp, Browser, String) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    for (seat, bettor, amount, backline) in [
        ("4", "Ann", "60", ""),
        ("5", "Bo", "60", ""),
        ("5", "Gus", "10", "1"),
        ("6", "Cy", "100", ""),
    ] {
        let wager = [
            ("seat", seat),
            ("bettor", bettor),
            ("amount", amount),
            ("backline", backline),
        ];
        ok(&mut dana, &hand, "wager-form", &wager).await;
    }
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(&mut dana, &format!("{hand}?step=dice"), "dice-form", &dice).await;
    (app, dana, hand)
}

async fn after_the_dice_the_page_says_what_the_bank_covers(backend: Backend) {
    let (_app, mut dana, hand) = a_hand_at_its_results(backend).await;
    let page = dana.get(&hand).await;
    let at = page.body.find("id=\"covers\"").expect("the cover list");
    let covers = &page.body[at..at + page.body[at..].find("</div>").unwrap()];
    let lines: Vec<&str> = covers
        .split("<li class=\"")
        .skip(1)
        .map(|li| &li[..li.find("</li>").unwrap()])
        .collect();
    assert_eq!(
        lines,
        [
            "cover-covered\">seat 4 Ann 60.00: covered",
            "cover-covered\">seat 5 Bo 60.00: covered",
            "cover-covered\">seat 5 Gus 10.00: covered",
            "cover-partly\">seat 6 Cy 100.00: 70.00 of it covered",
        ]
    );
    assert!(covers.contains("A push keeps the bank's money in action"));
}

async fn a_seat_tapped_on_the_results_step(backend: Backend) {
    let (_app, mut dana, hand) = a_hand_at_its_results(backend).await;
    let page = dana.get(&hand).await;
    assert!(
        page.body.contains("?seat=2#results-form\""),
        "the seats are links on the results step"
    );
    let said = |body: &str| {
        let at = body.find("id=\"seat-said\"").expect("the seat's words");
        let text = &body[at + body[at..].find('>').unwrap() + 1..];
        text[..text.find("</p>").unwrap()].to_string()
    };
    assert_eq!(said(&page.body), "", "nothing tapped, nothing said");
    let page = dana.get(&format!("{hand}?seat=2")).await;
    assert_eq!(
        said(&page.body),
        "Seat 2 has no wager: nothing to decide there."
    );
    let page = dana.get(&format!("{hand}?seat=1")).await;
    assert_eq!(
        said(&page.body),
        "Seat 1 is the PD: every other seat is decided against it."
    );
    // A seat with a wager: nothing said, its result focused.
    let page = dana.get(&format!("{hand}?seat=6")).await;
    assert_eq!(said(&page.body), "");
    assert!(
        page.body
            .contains("name=\"outcome_6\" value=\"player\" autofocus"),
        "{}",
        page.body
    );
}

/// What the keypad sends past the table's rules is refused in the sheet:
/// beside the amount, in words with the limit, what was typed kept,
/// nothing recorded.
async fn a_keypad_amount_the_table_refuses_is_refused_in_the_sheet(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let placed = records(&app, "wager_placed").await;
    for (amount, words) in [
        ("600", "is above the table maximum 500.00"),
        ("12.345", "a multiple of the table&#39;s unit 0.01"),
    ] {
        let wager = [("seat", "4"), ("bettor", "Ann"), ("amount", amount)];
        let page = submit(&mut dana, &hand, "wager-form", &wager).await;
        assert_eq!(page.status, 422, "{amount}");
        let at = page
            .body
            .find("id=\"amount-error\"")
            .expect("beside the amount");
        let error = &page.body[at..at + page.body[at..].find("</p>").unwrap()];
        assert!(error.contains(words), "{amount}: {error}");
        assert!(page.body.contains(&format!("value=\"{amount}\"")), "kept");
    }
    assert_eq!(
        records(&app, "wager_placed").await,
        placed,
        "nothing recorded"
    );
}

crate::on_both_databases!(
    a_keypad_amount_the_table_refuses_is_refused_in_the_sheet,
    a_seats_sheet_offers_the_bettors_seen_there_first,
    the_bank_keypad_offers_the_last_bank_first,
    the_last_wager_is_undone_by_one_tap_as_a_new_event,
    after_the_dice_the_page_says_what_the_bank_covers,
    a_seat_tapped_on_the_results_step,
);
