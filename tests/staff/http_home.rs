//! The home page is each role's start, on both databases: a dealer sees
//! the tables they are assigned to and the hand in progress with its
//! "continue" button (the page's one primary action); a supervisor every
//! table and its state; an auditor no tables; every role its sections.

use crate::common::browser::{Browser, plain_text, signed_in, text_of};
use crate::common::play::{open_hand, table_with_dealer};
use crate::common::{Backend, spawn_app};
use pitbook::domain::staff::Role;

/// The ids of the start table's rows: `start-DHP-1`…
fn rows(html: &str) -> Vec<String> {
    html.split("<tr id=\"start-")
        .skip(1)
        .map(|rest| rest[..rest.find('"').expect("id")].to_string())
        .collect()
}

async fn a_dealer_continues_the_hand_in_progress(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    // Another table, with nobody assigned: not dana's.
    app.configured_table("OTHER-2", false).await;

    let home = dana.get("/").await;
    assert_eq!(home.status, 200);
    assert_eq!(rows(&home.body), ["DHP-1"], "{}", home.body);
    assert!(text_of(&home.body, "start-DHP-1").contains("idle"));
    assert!(
        !home.body.contains("id=\"continue-"),
        "no hand to continue yet"
    );

    let hand = open_hand(&mut dana).await;
    let home = dana.get("/").await;
    let row = text_of(&home.body, "start-DHP-1");
    assert!(row.contains("open") && row.contains("hand #1"), "{row}");
    assert!(row.contains("waiting for the PD"), "{row}");
    // The one primary action: continue that hand.
    let link = format!("class=\"button nowrap primary\" id=\"continue-DHP-1\" href=\"{hand}\"");
    assert!(home.body.contains(&link), "{}", home.body);
    assert_eq!(home.body.matches(" primary\"").count(), 1);
}

async fn a_supervisor_sees_every_table_and_an_auditor_none(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    open_hand(&mut dana).await;
    app.configured_table("OTHER-2", false).await;

    let mut sue = signed_in(&app, "sue2", Role::Supervisor).await;
    let home = sue.get("/").await;
    assert_eq!(rows(&home.body), ["DHP-1", "OTHER-2"]);
    assert!(plain_text(&home.body).contains("The floor"));
    let other = text_of(&home.body, "start-OTHER-2");
    assert!(other.contains("no hands yet"), "{other}");

    let mut audrey: Browser = signed_in(&app, "audrey", Role::Auditor).await;
    let home = audrey.get("/").await;
    assert!(rows(&home.body).is_empty(), "{}", home.body);
    assert!(home.body.contains("id=\"history-link\""));

    // A dealer assigned nowhere is told so, in words.
    let mut dan = signed_in(&app, "dan", Role::Dealer).await;
    let home = dan.get("/").await;
    assert!(rows(&home.body).is_empty());
    assert!(text_of(&home.body, "no-tables").contains("not assigned to a table"));
}

on_both_databases!(
    a_dealer_continues_the_hand_in_progress,
    a_supervisor_sees_every_table_and_an_auditor_none,
);
