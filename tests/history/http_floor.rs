//! The floor (`/floor`), on both databases: every table at a glance — the
//! hand in progress with its step, PD, bank and how long it has been
//! open, the box under the open shift — the alerts first, a refresh of its
//! own; a dealer may not see it (403, in words).

use crate::common::browser::{plain_text, signed_in, text_of};
use crate::common::play::{dana_banks_200, open_hand, table_with_dealer};
use crate::common::{Backend, spawn_app};
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

on_both_databases!(the_floor_shows_every_table_and_what_needs_a_supervisor,);
