//! The replay (`/hands/{id}/replay?step=N`) on both databases: every step
//! of a hand that was closed, corrected, noted and voided, the drawing's
//! state at given steps (PD and bank, wagers, ACTION, the bank in action
//! during the settlement, the results), the marks where a correction, a
//! note and the void happened, the links, and a step out of range.

use crate::common::browser::{Browser, signed_in, text_of};
use crate::common::{Backend, TestApp, post_ok, spawn_app};
use crate::http_notes::note;
use crate::http_numbers::{play, whole_hand};
use pitbook::domain::staff::Role;
use serde_json::json;

/// T1 #1: the 9 events of a whole hand (Ann's seat 4 to the PD, Bo's 5 to
/// the player), then a correction of seat 5 (10), a note (11), the void (12).
async fn a_hand_with_every_change(app: &TestApp) -> String {
    app.configured_table("T1", false).await;
    let id = play(app, whole_hand("T1", "200", "60", "60")).await;
    let correct = json!({"idempotency_key": "fix", "expected_version": 9, "events": [
        {"type": "outcome_corrected", "seat": 5, "outcome": "pd", "reason": "misread seat 5"}
    ]});
    post_ok(app, &format!("/api/v1/hands/{id}/commands"), correct).await;
    note(
        app,
        &id,
        "Bo disputed; surveillance confirms the correction",
    )
    .await;
    let void = json!({"idempotency_key": "void", "expected_version": 11, "events": [
        {"type": "hand_voided", "reason": "wrong table"}
    ]});
    post_ok(app, &format!("/api/v1/hands/{id}/commands"), void).await;
    id
}

async fn every_step_of_a_changed_hand_replays_its_state(backend: Backend) {
    let app = spawn_app(backend).await;
    let id = a_hand_with_every_change(&app).await;
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let mut pages = Vec::new();
    for step in 1..=12 {
        let page = sue.get(&format!("/hands/{id}/replay?step={step}")).await;
        assert_eq!(page.status, 200, "step {step}: {}", page.body);
        assert!(
            text_of(&page.body, "replay-position").starts_with(&format!("Step {step} of 12")),
            "step {step}"
        );
        pages.push(page.body);
    }
    let at = |step: usize| pages[step - 1].as_str();
    let desc = |step: usize| text_of(at(step), "svg-desc");
    let said = |step: usize| text_of(at(step), "replay-sentence");
    let phase = |step: usize| text_of(at(step), "replay-phase");

    assert!(said(1).ends_with("test-admin: Hand opened at table T1, dealer test-admin"));
    assert_eq!(phase(1), "Waiting for the PD.");
    assert_eq!(desc(1), "7 seats; no PD yet, no wagers.");
    assert!(said(2).ends_with("Pat is the PD on seat 1, banking 200.00"));
    assert_eq!(desc(2), "Pat banks 200.00, at seat 1.");
    assert_eq!(
        desc(4),
        "Pat banks 200.00, at seat 1. Seat 4: Ann 60.00. Seat 5: Bo 60.00."
    );
    assert!(said(5).ends_with("ACTION on seat 4"));
    assert!(desc(5).contains("ACTION: seat 4."), "{}", desc(5));
    // Every result in, nothing confirmed: the bank is in action, seat 4
    // first to be settled.
    assert_eq!(phase(7), "Dealt: the settlement is being paid.");
    assert!(desc(7).contains("In action: 200.00."), "{}", desc(7));
    assert!(desc(7).contains("Being settled: seat 4."), "{}", desc(7));
    assert!(at(7).contains("Next to confirm."));
    // Ann's 60 to the PD, Bo's 60 from it: the bank is 200 again.
    assert_eq!(phase(8), "Settled: waiting to be closed.");
    assert_eq!(phase(9), "Closed.");
    assert_eq!(text_of(at(9), "pd-net"), "0.00");
    assert!(!at(9).contains("id=\"replay-mark\""));
    // The correction, where it happened: seat 5 now the PD's too.
    assert_eq!(text_of(at(10), "replay-mark"), "correction");
    assert_eq!(phase(10), "Closed, corrected.");
    assert_eq!(text_of(at(10), "pd-net"), "120.00");
    assert!(said(10).contains("Correction of seat 5: the PD wins (reason: misread seat 5)"));
    assert_eq!(text_of(at(11), "replay-mark"), "note");
    assert!(
        said(11).ends_with("test-admin: Note: Bo disputed; surveillance confirms the correction")
    );
    assert_eq!(text_of(at(12), "replay-mark"), "void");
    assert_eq!(phase(12), "Voided: every bet is returned.");
    // Times on the cardroom's clock, UTC in the tooltip.
    assert!(text_of(at(12), "replay-when").contains(", by test-admin, record "));
    assert!(at(12).contains(" UTC\">"));

    // The links: plain, to the neighbours; none past either end.
    let link = |step: usize, id: &str| {
        let html = at(step);
        html.find(&format!("id=\"{id}\""))
            .map(|i| crate::common::play::attr(&html[i..], "href"))
    };
    let base = format!("/hands/{id}/replay?step=");
    assert_eq!(link(1, "replay-prev"), None);
    assert_eq!(link(1, "replay-first"), None);
    assert_eq!(link(1, "replay-next"), Some(format!("{base}2")));
    assert_eq!(link(1, "replay-last"), Some(format!("{base}12")));
    assert_eq!(link(6, "replay-prev"), Some(format!("{base}5")));
    assert_eq!(link(12, "replay-next"), None);
    assert!(at(12).contains("id=\"replay-end\""));
    assert!(at(1).contains("src=\"/static/replay.js\""));
    // The hand page and the record link to it.
    let hand = sue.get(&format!("/hands/{id}")).await;
    assert!(hand.body.contains(&format!("/hands/{id}/replay?step=1")));
    let record = sue.get(&format!("/hands/{id}/record")).await;
    assert!(record.body.contains(&format!("{base}12")));
}

async fn a_step_out_of_range_is_a_clear_404_or_422(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let id = play(&app, whole_hand("T1", "200", "60", "60")).await;
    let mut auditor = signed_in(&app, "audrey", Role::Auditor).await;
    for (step, status, says) in [
        ("0", 404, "there is no step 0. The steps are 1 to 9."),
        ("10", 404, "there is no step 10"),
        (
            "abc",
            422,
            "\"abc\" is not a step: give a number from 1 to 9.",
        ),
        ("-1", 422, "is not a step"),
    ] {
        let page = auditor
            .get(&format!("/hands/{id}/replay?step={step}"))
            .await;
        assert_eq!(page.status, status, "{step}: {}", page.body);
        assert!(
            text_of(&page.body, "replay-error").contains(says),
            "{}",
            page.body
        );
    }
    // No step: the first.
    let page = auditor.get(&format!("/hands/{id}/replay")).await;
    assert_eq!(page.status, 200);
    assert!(text_of(&page.body, "replay-position").starts_with("Step 1 of 9"));
    // An unknown hand is a 404 too; signed out, the sign-in.
    assert_eq!(auditor.get("/hands/nope/replay?step=1").await.status, 404);
    let mut nobody = Browser::new(&app);
    assert_eq!(
        nobody
            .get(&format!("/hands/{id}/replay?step=1"))
            .await
            .status,
        303
    );
    // The script the keys need is served by the app.
    let script = auditor.get("/static/replay.js").await;
    assert_eq!(script.status, 200);
    assert!(script.body.contains("ArrowRight"));
}

on_both_databases!(
    every_step_of_a_changed_hand_replays_its_state,
    a_step_out_of_range_is_a_clear_404_or_422,
);
