//! What happened to a hand is visible, on both databases: the
//! table page names a hand's state in the floor's words (waiting for the PD,
//! taking wagers, closed and corrected, voided) and offers an auditor the
//! hand to view, not to continue; a correction and a void show on the hand
//! page and its record with who, when, the reason, and before and after;
//! times are on the cardroom's clock with UTC beside; a closed hand's
//! record opens with its money.

use crate::common::browser::{Browser, signed_in};
use crate::common::play::{dana_banks_200, ok, open_hand, table_with_dealer, void_hand};
use crate::common::{Backend, TEST_PASSWORD as PASSWORD, spawn_app_with};
use pitbook::domain::staff::Role;

/// The hand list's status cells (the column headed Status), newest first.
fn statuses(html: &str) -> Vec<String> {
    let start = html.find("<table id=\"hands\">").expect("the hands list");
    let table = &html[start..start + html[start..].find("</table>").unwrap()];
    let head = &table[..table.find("</thead>").expect("the list's head")];
    let status = head
        .split("<th>")
        .skip(1)
        .position(|h| h.starts_with("Status"))
        .expect("a Status column");
    table
        .split("<tr><td>")
        .skip(1)
        .map(|row| {
            let cell = row.split("</td><td>").nth(status).unwrap_or_default();
            cell.split("</td>").next().unwrap_or_default().to_string()
        })
        .collect()
}

/// Closes a hand with the seed's wagers and outcomes (the PD nets −80).
async fn closed_hand(dana: &mut Browser) -> String {
    let seed = [("4", "Ann", "60"), ("5", "Bo", "60"), ("6", "Cy", "100")];
    let hand = crate::common::play::hand_at_results(dana, &seed).await;
    let results = [
        ("outcome_4", "pd"),
        ("outcome_5", "player"),
        ("outcome_6", "player"),
    ];
    ok(dana, &hand, "results-form", &results).await;
    ok(dana, &hand, "confirm-all", &[]).await;
    ok(dana, &hand, "close-form", &[]).await;
    hand
}

async fn a_hands_state_reads_in_the_floors_words(backend: Backend) {
    let app = spawn_app_with(backend, |s| s).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    let table = dana.get("/tables/DHP-1").await;
    assert_eq!(statuses(&table.body), ["waiting for the PD"]);
    assert!(
        table
            .body
            .contains("Hand #1 in progress (waiting for the PD, dealer dana)"),
        "{}",
        table.body
    );
    assert!(
        table.body.contains(">continue the hand</a>"),
        "the dealer continues it"
    );

    // An auditor may look, not continue.
    app.add_user("audrey", Role::Auditor).await;
    let mut audrey = Browser::new(&app);
    assert_eq!(audrey.login("audrey", PASSWORD).await.status, 303);
    let page = audrey.get("/tables/DHP-1").await;
    assert!(page.body.contains(">view the hand</a>"), "{}", page.body);
    assert!(!page.body.contains("continue the hand"), "{}", page.body);

    dana_banks_200(&mut dana, &hand).await;
    let table = dana.get("/tables/DHP-1").await;
    assert_eq!(statuses(&table.body), ["taking wagers"]);
}

async fn corrections_and_voids_show_who_when_why_and_what_changed(backend: Backend) {
    let zone: chrono_tz::Tz = "America/Los_Angeles".parse().unwrap();
    let app = spawn_app_with(backend, |s| s.with_time_zone(zone)).await;
    let mut dana = table_with_dealer(&app).await;
    let first = closed_hand(&mut dana).await;
    let second = closed_hand(&mut dana).await;
    let page = dana.get(&first).await;
    assert!(!page.body.contains("id=\"changes\""), "nothing changed yet");

    let mut sue = signed_in(&app, "sam", Role::Supervisor).await;
    let correction = [
        ("seat", "6"),
        ("outcome", "push"),
        ("reason", "the cards were misread"),
    ];
    ok(&mut sue, &first, "correct-form", &correction).await;
    void_hand(&mut sue, &second, "misdeal found on review").await;

    for path in [first.clone(), format!("{first}/record")] {
        let page = dana.get(&path).await;
        let changes = section(&page.body, "changes");
        for needle in [
            "Seat 6&#39;s result corrected",
            "by sam",
            "the cards were misread",
            "Before: seat 6: player wins; the PD&#39;s net −80.00.",
            "After: seat 6: push; the PD&#39;s net +0.00.",
            " UTC\">",
        ] {
            assert!(changes.contains(needle), "{path}: {needle} in {changes}");
        }
        // The floor's clock: Los Angeles is PST or PDT, never UTC.
        assert!(
            changes.contains(" PST") || changes.contains(" PDT"),
            "{changes}"
        );
    }
    let page = dana.get(&first).await;
    assert!(
        page.body
            .contains("<span class=\"tag corrected\" id=\"hand-status\">Corrected</span>"),
        "{}",
        page.body
    );
    let page = dana.get(&second).await;
    assert!(
        page.body.contains(
            "<span class=\"tag voided\" id=\"hand-status\">Voided — misdeal found on review</span>"
        ),
        "{}",
        page.body
    );
    let changes = section(&page.body, "changes");
    assert!(
        changes.contains("Voided") && changes.contains("misdeal found on review"),
        "{changes}"
    );
    assert!(
        changes.contains("Before: the PD&#39;s net −80.00. After: every bet returned."),
        "{changes}"
    );

    let table = dana.get("/tables/DHP-1").await;
    assert_eq!(statuses(&table.body), ["voided", "closed, corrected"]);
    assert!(
        table.body.contains(" UTC\">"),
        "UTC in the local time's tooltip"
    );
}

/// The element of id `id` (to its closing `</section>`).
fn section<'a>(html: &'a str, id: &str) -> &'a str {
    let start = html
        .find(&format!("id=\"{id}\""))
        .unwrap_or_else(|| panic!("no {id} in {html}"));
    &html[start..start + html[start..].find("</section>").unwrap()]
}

/// The record of a closed hand opens with its money: each person's
/// staked, received and net, the collection, what went back to the PD,
/// then the steps money first, then every event; an open hand's record and
/// a voided hand's show no money table.
async fn a_closed_hands_record_opens_with_the_money(backend: Backend) {
    let app = spawn_app_with(backend, |s| s).await;
    let mut dana = table_with_dealer(&app).await;
    let closed = closed_hand(&mut dana).await;
    let page = dana.get(&format!("{closed}/record")).await;
    let body = &page.body;
    let at = |needle: &str| body.find(needle).unwrap_or_else(|| panic!("no {needle}"));
    assert!(
        at("id=\"summary\"") < at("id=\"record-steps\""),
        "the money first"
    );
    assert!(
        at("id=\"record-steps\"") < at("id=\"record\""),
        "then the steps, then the events"
    );
    // The PD nets −80.00 (Ann's 60 collected, Bo's 60 and Cy's 80 of 100 paid).
    assert!(body.contains("id=\"pd-net\">−80.00</td>"), "{body}");
    assert!(body.contains("id=\"pd-returned\""), "{body}");
    let steps = &body[at("id=\"record-steps\"")..at("id=\"record\"")];
    assert_eq!(steps.matches("<li>").count(), 3, "{steps}");
    assert!(
        steps.contains("COLLECT") && steps.contains("PAY"),
        "money first: {steps}"
    );

    let open = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &open).await;
    let page = dana.get(&format!("{open}/record")).await;
    assert!(
        !page.body.contains("id=\"summary\""),
        "not final while open"
    );
    let mut sue = signed_in(&app, "sam", Role::Supervisor).await;
    void_hand(&mut sue, &closed, "misdeal found on review").await;
    let page = dana.get(&format!("{closed}/record")).await;
    assert!(
        !page.body.contains("id=\"summary\""),
        "a voided hand's bets all went back"
    );
}

on_both_databases!(
    a_closed_hands_record_opens_with_the_money,
    a_hands_state_reads_in_the_floors_words,
    corrections_and_voids_show_who_when_why_and_what_changed,
);
