//! `audit verify` re-derives the hand search's projection (the totals on
//! each `hands` row, `hand_people` with its `keys_before` and its copy of
//! the hand's money and criteria, `person_names`) from the log, on both databases: an untouched database
//! verifies, from the start or from `--from`; each edit by SQL is a
//! `projection` problem naming what differs, at the hand's last record (a
//! stray name at the head).

use crate::audit_tamper::whole_hand;
use crate::common::{Backend, TestApp, spawn_app, tamper, test_key};
use pitbook::store::verify::VerifyReport;
use serde_json::json;

/// Hand #1's last record: the harness's account, token and table are seq
/// 1–3, the hand's nine records 4–12.
const FIRST_HAND_LAST: i64 = 12;
/// Hand #1's id, for the edits.
const FIRST: &str = "(SELECT id FROM hands WHERE number = 1)";

/// Sends `events` to `hand` at `version` (200 expected); the new version.
pub(crate) async fn command(
    app: &TestApp,
    hand: &str,
    version: u64,
    events: serde_json::Value,
) -> u64 {
    let body = json!({"idempotency_key": uuid::Uuid::new_v4().to_string(),
        "expected_version": version, "events": events});
    let (status, body, _) = app
        .post_json(&format!("/api/v1/hands/{hand}/commands"), &body)
        .await;
    assert_eq!(status, 200, "{body}");
    body["version"].as_u64().expect("version")
}

/// T1: #1 closed, #2 closed then corrected, #3 closed then voided, #4 open
/// with its PD and one wager.
pub(crate) async fn four_hands(backend: Backend) -> TestApp {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let mut closed = Vec::new();
    for _ in 0..3 {
        let (status, body, _) = app.post_json("/api/v1/hands", &whole_hand()).await;
        assert_eq!(status, 201, "{body}");
        let id = body["hand_id"].as_str().expect("hand_id").to_string();
        closed.push((id, body["version"].as_u64().expect("version")));
    }
    let correction =
        json!([{"type": "outcome_corrected", "seat": 5, "outcome": "pd", "reason": "misread"}]);
    command(&app, &closed[1].0, closed[1].1, correction).await;
    let void = json!([{"type": "hand_voided", "reason": "misdeal"}]);
    command(&app, &closed[2].0, closed[2].1, void).await;
    let open = json!({"idempotency_key": "open-4", "events": [
        {"type": "hand_opened", "table": "T1"},
        {"type": "pd_set", "seat": 2, "player": "Cy", "bank": "1000"},
        {"type": "wager_placed", "id": "w1", "seat": 3, "bettor": "Di", "amount": "25"}
    ]});
    let (status, body, _) = app.post_json("/api/v1/hands", &open).await;
    assert_eq!(status, 201, "{body}");
    app
}

async fn verify_from(app: &TestApp, from: i64) -> VerifyReport {
    crate::common::verify_split_every_way(&app.database.db, &test_key(), from, Vec::new()).await
}

async fn an_untouched_search_projection_verifies(backend: Backend) {
    let app = four_hands(backend).await;
    // From the start; from hand #2's first record; from inside #2 (its
    // earlier records folded from the log); from #2's correction; from the
    // open hand.
    for from in [1, 13, 17, 31, 33] {
        let report = verify_from(&app, from).await;
        assert!(report.ok(), "from {from}: {report:?}");
    }
}

/// Each edit, and what the problem must name.
const EDITS: &[(&[&str], &str)] = &[
    (
        &["UPDATE hands SET wagered_e4 = wagered_e4 + 10000 WHERE number = 1"],
        "wagered_e4",
    ),
    (
        &["UPDATE hands SET pd_net_e4 = 1230000 WHERE number = 1"],
        "pd_net_e4",
    ),
    (
        &["UPDATE hands SET collection_e4 = 5 WHERE number = 1"],
        "collection_e4",
    ),
    (
        &["UPDATE hands SET pd_name = 'Mallory' WHERE number = 1"],
        "pd_name",
    ),
    (
        &["UPDATE hands SET corrected = 1 WHERE number = 1"],
        "corrected",
    ),
    (
        &["UPDATE hands SET summarized = 0 WHERE number = 1"],
        "summarized",
    ),
    (
        &[
            "UPDATE hand_people SET net_e4 = net_e4 + 200000 WHERE name = 'Ann' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "hand_people holds bettor \"Ann\"",
    ),
    (
        &[
            "UPDATE hand_people SET staked_e4 = 10000 WHERE role = 'pd' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "hand_people holds pd \"Pat\"",
    ),
    (
        &[
            "INSERT INTO hand_people (hand_id, role, name, name_key, staked_e4, received_e4, net_e4, opened_at, last_seq) \
             SELECT id, 'bettor', 'Eve', 'eve', 10000, 10000, 0, opened_at, last_seq FROM hands WHERE number = 1",
            "INSERT INTO person_names (name_key) VALUES ('eve')",
        ],
        "a row its events do not give: bettor \"Eve\"",
    ),
    (
        &[
            "DELETE FROM hand_people WHERE name = 'Bo' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "lacks the row its events give: bettor \"Bo\"",
    ),
    (
        &[
            "UPDATE hand_people SET opened_at = '2026-01-01T00:00:00.000000Z' WHERE name = 'Bo' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "opened_at",
    ),
    (
        &[
            "UPDATE hand_people SET last_seq = last_seq - 1 WHERE name = 'Bo' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "last_seq",
    ),
    (
        &[
            "UPDATE hand_people SET hand_wagered_e4 = hand_wagered_e4 + 10000 WHERE name = 'Bo' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "the hand's money",
    ),
    (
        &[
            "UPDATE hand_people SET hand_pd_net_e4 = NULL WHERE role = 'pd' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "the hand's money",
    ),
    (
        &[
            "UPDATE hand_people SET keys_before = '' WHERE name = 'Bo' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "after the keys []; its events give bettor \"Bo\"",
    ),
    (
        &[
            "UPDATE hand_people SET table_id = 'DHP-9' WHERE name = 'Ann' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "the hand's money and criteria",
    ),
    (
        &[
            "UPDATE hand_people SET status = 'voided' WHERE role = 'pd' AND hand_id = (SELECT id FROM hands WHERE number = 1)",
        ],
        "the hand's money and criteria",
    ),
    (
        &["DELETE FROM person_names WHERE name_key = 'pat'"],
        "person_names lacks \"pat\"",
    ),
];

async fn an_edited_search_projection_is_detected(backend: Backend) {
    for (edit, names) in EDITS {
        let app = four_hands(backend).await;
        tamper(&app.database.db, edit).await;
        let report = verify_from(&app, 1).await;
        let problem = report
            .problem
            .unwrap_or_else(|| panic!("{edit:?} undetected"));
        assert_eq!(
            (problem.seq, problem.kind),
            (FIRST_HAND_LAST, "projection"),
            "{edit:?}: {problem:?}"
        );
        assert!(problem.message.contains(names), "{edit:?}: {problem:?}");
    }
}

/// Rows no hand's events give: a name no row holds (at the head), people
/// of a hand with no row.
async fn stray_search_rows_are_detected(backend: Backend) {
    let app = four_hands(backend).await;
    tamper(
        &app.database.db,
        &["INSERT INTO person_names (name_key) VALUES ('mallory')"],
    )
    .await;
    let report = verify_from(&app, 1).await;
    let problem = report.problem.expect("an extra name");
    assert_eq!(problem.kind, "projection");
    assert!(
        problem.message.contains("person_names holds \"mallory\""),
        "{problem:?}"
    );

    let app = four_hands(backend).await;
    let stray = format!(
        "INSERT INTO hand_people (hand_id, role, name, name_key, staked_e4, opened_at, last_seq) \
         SELECT 'no-such-hand', role, name, name_key, staked_e4, opened_at, last_seq \
         FROM hand_people WHERE hand_id = {FIRST} AND role = 'pd'"
    );
    tamper(&app.database.db, &[&stray]).await;
    let report = verify_from(&app, 1).await;
    let problem = report.problem.expect("a row without its hand");
    assert_eq!(
        (problem.seq, problem.kind),
        (FIRST_HAND_LAST, "projection"),
        "{problem:?}"
    );
    assert!(problem.message.contains("no-such-hand"), "{problem:?}");
}

/// From `--from` past a hand, its rows are not compared (as `hands` rows
/// are not); from before it, they are.
async fn a_hand_before_from_is_not_compared(backend: Backend) {
    let app = four_hands(backend).await;
    tamper(
        &app.database.db,
        &["UPDATE hands SET wagered_e4 = 1 WHERE number = 1"],
    )
    .await;
    assert!(verify_from(&app, FIRST_HAND_LAST + 1).await.ok());
    let problem = verify_from(&app, FIRST_HAND_LAST)
        .await
        .problem
        .expect("seen from its last record");
    assert!(problem.message.contains("wagered_e4"), "{problem:?}");
}

/// From an anchor only the hands touched since it are read (their rows,
/// people and days: migration 0025), but a day they touched is summed whole:
/// a changed day total — by table, or by dealer (migration 0028) — is found
/// from an anchor after the hand whose day it is, and nothing is found when
/// the rows before the anchor are untouched.
async fn a_day_the_hands_since_the_anchor_touched_is_checked_whole(backend: Backend) {
    let rollups = [
        ("hand_days", "table_id = 'T1'", "at T1, closed"),
        (
            "hand_dealer_days",
            "dealer = 'test-admin'",
            "for test-admin on ",
        ),
    ];
    for (rollup, group, found) in rollups {
        let app = four_hands(backend).await;
        assert!(verify_from(&app, FIRST_HAND_LAST + 1).await.ok());
        tamper(
            &app.database.db,
            &[&format!(
                "UPDATE {rollup} SET wagered_e4 = wagered_e4 + 10000 \
                 WHERE {group} AND status = 'closed' AND corrected = 0"
            )],
        )
        .await;
        let problem = verify_from(&app, FIRST_HAND_LAST + 1)
            .await
            .problem
            .expect("the day's total, from the anchor");
        assert_eq!(problem.kind, "projection", "{problem:?}");
        assert!(
            problem.message.contains(&format!("{rollup} for"))
                && problem.message.contains(found)
                && problem.message.contains(", closed holds"),
            "{problem:?}"
        );
    }
}

on_both_databases!(
    a_day_the_hands_since_the_anchor_touched_is_checked_whole,
    an_untouched_search_projection_verifies,
    an_edited_search_projection_is_detected,
    stray_search_rows_are_detected,
    a_hand_before_from_is_not_compared,
);
