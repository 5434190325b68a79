//! The floor (`/floor`), on both databases: every table at a glance — the
//! hand in progress with its step, PD, bank and how long it has been
//! open, the box under the open shift, the shift's hands and drop so far,
//! the hands disputed (noted) this shift, a rotation override — the alerts
//! first, a refresh of its own; a dealer may not see it (403, in words).

use crate::common::browser::{plain_text, signed_in, text_of};
use crate::common::play::{dana_banks_200, open_hand, table_with_dealer};
use crate::common::{Backend, spawn_app};
use crate::http_notes::note;
use crate::http_numbers::play;
use crate::http_shifts::collecting_hand;
use pitbook::domain::common::money::Money;
use pitbook::domain::staff::Role;
use serde_json::json;

async fn the_floor_shows_every_table_and_what_needs_a_supervisor(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;

    // No shift yet: nothing to call out.
    let page = sam.get("/floor").await;
    assert_eq!(page.status, 200, "{}", page.body);
    // Refreshed by its script while the box is ticked (hidden without
    // it), and by a link.
    assert!(page.body.contains(
        "<p id=\"auto\" hidden><label><input type=\"checkbox\" id=\"auto-refresh\" checked>"
    ));
    assert!(
        page.body.contains("href=\"/floor\" id=\"refresh\""),
        "{}",
        page.body
    );
    let row = text_of(&page.body, "floor-DHP-1");
    assert!(
        row.contains("#1 taking wagers · PD Dana · bank 200.00 · open 0 min"),
        "the hand in progress: {row}"
    );
    assert!(
        page.body.contains(&format!("href=\"{hand}\"")),
        "a link to the hand"
    );
    assert!(page.body.contains("id=\"no-alerts\""), "{}", page.body);

    // A shift opened at the table, nobody in the box yet: called out.
    let (status, body, _) = app
        .post_json("/api/v1/shifts", &json!({"table": "DHP-1"}))
        .await;
    assert_eq!(status, 201, "{body}");
    let page = sam.get("/floor").await;
    let alerts = plain_text(&page.body[page.body.find("id=\"alerts\"").unwrap()..]);
    assert!(
        alerts.contains("DHP-1: in a shift with nobody in the box"),
        "{alerts}"
    );
    assert!(text_of(&page.body, "floor-DHP-1").contains("nobody since"));

    // A dealer may not see the floor: refused in words.
    let page = dana.get("/floor").await;
    assert_eq!(page.status, 403);
    assert!(
        plain_text(&page.body).contains("Not allowed"),
        "{}",
        page.body
    );
}

/// The shift's hands and drop so far count the closed hands opened since
/// the shift began (a voided one said apart, one before the shift not at
/// all); a note puts its hand among the disputed; an override at a
/// California table is called out and marked at its clock.
async fn the_floor_tallies_the_shift_and_shows_disputes_and_overrides(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    let body = json!({"name": "CA-1", "profile": "california-2026", "seats": 7});
    let (status, body, _) = app.post_json("/api/v1/tables", &body).await;
    assert_eq!(status, 201, "{body}");
    play(&app, collecting_hand("T1", 500, &[100, 100])).await; // before the shift
    let (status, body, _) = app.post_json("/api/v1/shifts", &json!({})).await;
    assert_eq!(status, 201, "{body}");
    let first = play(&app, collecting_hand("T1", 500, &[100, 100])).await;
    let second = play(&app, collecting_hand("T1", 500, &[40, 60, 80])).await;
    let voided = play(&app, collecting_hand("T1", 500, &[60, 60])).await;
    let (_, hand) = app.get_json(&format!("/api/v1/hands/{voided}")).await;
    let void = json!({"idempotency_key": "void", "expected_version": hand["version"], "events": [
        {"type": "hand_voided", "reason": "dealt from a short deck"}
    ]});
    let path = format!("/api/v1/hands/{voided}/commands");
    let (status, body, _) = app.post_json(&path, &void).await;
    assert_eq!(status, 200, "{body}");
    note(&app, &first, "Ann says seat 4 was paid short").await;
    let reason = "players asked to restart after the break";
    let path = "/api/v1/tables/CA-1/rotation-override";
    let (status, body, _) = app.post_json(path, &json!({"reason": reason})).await;
    assert_eq!(status, 201, "{body}");

    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let page = sam.get("/floor").await;
    assert_eq!(page.status, 200, "{}", page.body);
    let cells = |row: &str| -> Vec<String> {
        let html = &page.body[page.body.find(&format!("id=\"floor-{row}\"")).unwrap()..];
        let html = &html[..html.find("</tr>").unwrap()];
        html.split("<td")
            .skip(1)
            .map(|c| plain_text(&format!("<td{c}")))
            .collect()
    };
    // The drop: the two closed hands' collections, each read on its own.
    let mut drop = Money::ZERO;
    for hand in [&first, &second] {
        let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
        drop += Money::parse(view["house_collection"].as_str().unwrap()).unwrap();
    }
    assert!(drop > Money::ZERO, "the table collects");
    let t1 = cells("T1");
    assert_eq!(
        t1[4..6],
        ["2 (1 voided)".to_string(), drop.to_display()],
        "hands and drop: {t1:?}"
    );
    let ca = cells("CA-1");
    assert_eq!(ca[4..6], ["0", "0.00"], "{ca:?}");
    assert!(
        ca[6].contains(&format!("by test-admin: {reason}")),
        "the override at its clock: {ca:?}"
    );
    let alerts = plain_text(&page.body[page.body.find("id=\"alerts\"").unwrap()..]);
    assert!(
        alerts.contains("CA-1: the PD rotation was overridden at "),
        "{alerts}"
    );
    let disputed = text_of(&page.body, "disputed");
    assert!(
        disputed.contains("Disputed hands this shift")
            && disputed.contains("T1 #2: “Ann says seat 4 was paid short” test-admin at"),
        "{disputed}"
    );
    assert!(page.body.contains(&format!("href=\"/hands/{first}\"")));
}

on_both_databases!(
    the_floor_shows_every_table_and_what_needs_a_supervisor,
    the_floor_tallies_the_shift_and_shows_disputes_and_overrides,
);
