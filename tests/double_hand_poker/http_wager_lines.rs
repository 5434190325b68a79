//! Several wagers typed at once on the wagers step (a first hand
//! at a table has nothing to offer again), on both databases: the lines
//! placed as one command and the dice next, every refusal beside the box
//! with what was typed kept and nothing recorded, a repeat asked about; the
//! dice beside the wagers; the results step opening with the cards when the
//! table's last hand was entered as cards.

use crate::common::browser::Browser;
use crate::common::play::{
    dana_banks_200, form_html, ok, open_hand, send_form, submit, table_with_dealer, wager_rows,
};
use crate::common::{Backend, records, spawn_app};

const LINES: &str = "4 Ann 60\n5 Bo 60\n5 Gus 10 b\n\n6 Mary Ann 100";

async fn the_lines_are_placed_as_one_command_and_the_dice_come_next(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("id=\"lines-form\""), "{}", page.body);
    assert!(
        !page.body.contains("id=\"dice-form\""),
        "no dice before a wager is in"
    );

    let sent = submit(&mut dana, &hand, "lines-form", &[("wager_lines", LINES)]).await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    assert_eq!(sent.location, format!("{hand}?focus=dice"));
    let page = dana.get(&sent.location).await;
    assert_eq!(
        wager_rows(&page.body),
        [
            "4 Ann 60.00 primary",
            "5 Bo 60.00 primary",
            "5 Gus 10.00 backline",
            "6 Mary Ann 100.00 primary"
        ]
    );
    assert_eq!(records(&app, "wager_placed").await, 4);
    // The dice beside the wagers, the first die focused, not the next seat.
    let dice = form_html(&page.body, "dice-form");
    assert!(
        dice.contains("name=\"d1\"") && dice.contains("autofocus"),
        "{dice}"
    );
    let wager = form_html(&page.body, "wager-form");
    assert!(!wager.contains("autofocus"), "{wager}");

    // The dice sent from the wagers step: the hands are next.
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(&mut dana, &hand, "dice-form", &dice).await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("4. Hands"), "{}", page.body);
}

async fn a_refused_line_is_named_beside_the_box_and_nothing_is_recorded(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let cases = [
        // Read by the page: the line and what is wrong with it.
        (
            "4 Ann 60\nfive Bo 60",
            "Line 2, &#34;five Bo 60&#34;: &#34;five&#34; is not a seat number",
        ),
        ("4 Ann sixty", "&#34;sixty&#34; is not an amount"),
        ("", "Type the wagers, one per line"),
        // Checked by the hand's rules: the line at fault named.
        ("4 Ann 60\n9 Zed 10", "Line 2, &#34;9 Zed 10&#34;:"),
        (
            "4 Ann 60\n4 Bo 20",
            "end its line with b for another bet on it",
        ),
        ("4 Ann -5", "Line 1, &#34;4 Ann -5&#34;:"),
        ("3 Gus 10 b", "Seat 3 has no primary wager yet"),
    ];
    for (typed, said) in cases {
        let page = submit(&mut dana, &hand, "lines-form", &[("wager_lines", typed)]).await;
        assert_eq!(page.status, 422, "{typed:?}: {}", page.body);
        let error = page
            .body
            .find("id=\"wager_lines-error\"")
            .unwrap_or_else(|| panic!("{typed:?}: the message beside the box:\n{}", page.body));
        let message = &page.body[error..error + page.body[error..].find("</p>").unwrap()];
        assert!(message.contains(said), "{typed:?}: {message}");
        // Beside the box, and in the error summary at the top, linking to it.
        assert_eq!(
            page.body.matches(said).count(),
            2,
            "{typed:?}: said beside the box and in the summary: {}",
            page.body
        );
        assert!(
            page.body.contains("<li><a href=\"#wager_lines\">"),
            "{typed:?}"
        );
        let form = form_html(&page.body, "lines-form");
        let kept = typed.replace('"', "&#34;");
        assert!(
            form.contains(&format!("{kept}</textarea>")),
            "{typed:?} kept: {form}"
        );
        assert!(form.contains("aria-invalid=\"true\""), "{form}");
        assert_eq!(records(&app, "wager_placed").await, 0, "{typed:?}");
    }
}

async fn a_line_repeating_a_recorded_wager_is_asked_about_first(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let sent = submit(&mut dana, &hand, "lines-form", &[("wager_lines", LINES)]).await;
    assert_eq!(sent.status, 303, "{}", sent.body);

    // The same primary wager again: refused, nothing new.
    let page = submit(
        &mut dana,
        &hand,
        "lines-form",
        &[("wager_lines", "4 Ann 60")],
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body.contains("Seat 4, Ann already has a 60.00 wager"),
        "{}",
        page.body
    );

    // The same backline: asked, and added only when confirmed.
    let page = submit(
        &mut dana,
        &hand,
        "lines-form",
        &[("wager_lines", "5 Gus 10 b")],
    )
    .await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body
            .contains("Seat 5, Gus already has a 10.00 backline wager. Add a second one?"),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "wager_placed").await, 4);
    let names = ["step", "confirm", "wager_lines"];
    let added = send_form(&mut dana, &hand, &page.body, "add-second", &names).await;
    assert_eq!(added.status, 303, "{}", added.body);
    assert_eq!(records(&app, "wager_placed").await, 5);
}

/// A new hand at its results: Dana banks 200, Ann bets 60 on seat 4 (a
/// line), the dice 1, 1, 2.
async fn ann_bets_at_results(dana: &mut Browser) -> String {
    let hand = open_hand(dana).await;
    dana_banks_200(dana, &hand).await;
    ok(dana, &hand, "lines-form", &[("wager_lines", "4 Ann 60")]).await;
    let dice = [("d1", "1"), ("d2", "1"), ("d3", "2")];
    ok(dana, &hand, "dice-form", &dice).await;
    hand
}

async fn the_results_open_with_the_cards_when_the_last_hand_had_them(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let cards_mode = |body: &str| body.contains("Results only, no cards");

    // A hand entered as outcomes: the next opens with outcomes.
    let hand = ann_bets_at_results(&mut dana).await;
    assert!(!cards_mode(&dana.get(&hand).await.body));
    ok(&mut dana, &hand, "results-form", &[("outcome_4", "player")]).await;
    ok(&mut dana, &hand, "confirm-close", &[]).await;

    // This one is entered as cards …
    let hand = ann_bets_at_results(&mut dana).await;
    assert!(!cards_mode(&dana.get(&hand).await.body));
    let cards = [("cards_1", "AsKsQsJs9d8c2h"), ("cards_4", "AhAdKhKd7c6c3s")];
    let mode = format!("{hand}?mode=cards");
    ok(&mut dana, &mode, "results-form", &cards).await;
    ok(&mut dana, &hand, "confirm-close", &[]).await;

    // … so the next opens with every seat's cards, and can go back.
    let hand = ann_bets_at_results(&mut dana).await;
    let page = dana.get(&hand).await;
    assert!(cards_mode(&page.body), "{}", page.body);
    assert!(form_html(&page.body, "results-form").contains("name=\"mode\" value=\"cards\""));
    let page = dana.get(&format!("{hand}?mode=results")).await;
    assert!(!cards_mode(&page.body), "{}", page.body);
}

on_both_databases!(
    the_lines_are_placed_as_one_command_and_the_dice_come_next,
    a_refused_line_is_named_beside_the_box_and_nothing_is_recorded,
    a_line_repeating_a_recorded_wager_is_asked_about_first,
    the_results_open_with_the_cards_when_the_last_hand_had_them,
);
