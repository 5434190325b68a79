//! A group commit holds its commands' writes and sends them at its end, a
//! statement per table (`store/double_hand_poker/hands/pending.rs`), on
//! both databases: hands opened together at one table are numbered in
//! turn, a hand moved by several commands of one batch is written as the
//! last left it, and a name that left its hand leaves the list. `audit
//! verify` re-derives every hand row, person row and name from the log.

use futures_util::future::join_all;
use pitbook::store::double_hand_poker::hands::{CommandError, CommandResult, HandCommand};
use pitbook::store::double_hand_poker::writer::HandWriter;
use serde_json::{Value, json};

use crate::common::{Backend, spawn_app, test_key};

fn command(key: &str, version: Option<u64>, events: Value) -> HandCommand {
    let mut body = json!({"idempotency_key": key, "actor": "dana", "events": events});
    if let Some(v) = version {
        body["expected_version"] = json!(v);
    }
    serde_json::from_value(body).expect("command")
}

fn opening(table: &str, pd: &str) -> Value {
    json!([{"type": "hand_opened", "table": table},
           {"type": "pd_set", "seat": 1, "player": pd, "bank": "500"},
           {"type": "collection_taken"}])
}

async fn a_batch_writes_each_hand_once_as_its_last_command_left_it(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", true).await;
    app.configured_table("T2", true).await;
    let writer = HandWriter::spawn(app.database.db.clone(), test_key()).expect("a second writer");
    let ok = |r: Result<(CommandResult, bool), CommandError>| r.expect("accepted").0;
    let mut first = opening("T1", "Pat");
    first.as_array_mut().expect("events").push(
        json!({"type": "wager_placed", "id": "w0", "seat": 2, "bettor": "Gone 0", "amount": "10"}),
    );
    let moved = ok(writer.submit(None, command("moved", None, first)).await);
    let (hand, first_version) = (moved.hand_id.clone(), moved.version);
    let mut version = first_version;
    let mut opened: Vec<(String, String)> = Vec::new();
    for round in 1..=4u64 {
        // At once: six hands opened at two tables, and on `hand` the last
        // round's bettor's wager removed and a new bettor's placed, the
        // second command built on the version the first makes.
        let remove = command(
            &format!("remove-{round}"),
            Some(version),
            json!([{"type": "wager_removed", "id": format!("w{}", round - 1), "reason": "left the table"}]),
        );
        let place = command(
            &format!("place-{round}"),
            Some(version + 1),
            json!([{"type": "wager_placed", "id": format!("w{round}"), "seat": 2,
                    "bettor": format!("Gone {round}"), "amount": "10"}]),
        );
        let opens = (0..6).map(|i| {
            let table = if i % 2 == 0 { "T1" } else { "T2" };
            let c = command(
                &format!("open-{round}-{i}"),
                None,
                opening(table, &format!("PD {round}{i}")),
            );
            let writer = writer.clone();
            async move { (table, writer.submit(None, c).await) }
        });
        let (removed, placed, opens) = tokio::join!(
            writer.submit(Some(hand.clone()), remove),
            writer.submit(Some(hand.clone()), place.clone()),
            join_all(opens),
        );
        ok(removed);
        // The placing may have reached the writer first: stale, then again.
        let placed = match placed {
            Err(CommandError::Stale { .. }) => writer.submit(Some(hand.clone()), place).await,
            other => other,
        };
        version = ok(placed).version;
        for (table, r) in opens {
            opened.push((table.to_string(), ok(r).hand_id));
        }
    }
    assert_eq!(
        version,
        first_version + 2 * 4,
        "every command on the moved hand counted"
    );
    for table in ["T1", "T2"] {
        let mut numbers = Vec::new();
        for (_, id) in opened.iter().filter(|(t, _)| t == table) {
            let (status, view) = app.get_json(&format!("/api/v1/hands/{id}")).await;
            assert_eq!(status, 200, "{view}");
            numbers.push(view["number"].as_i64().expect("number"));
        }
        numbers.sort_unstable();
        let first = if table == "T1" { 2 } else { 1 };
        let expected: Vec<i64> = (first..first + 12).collect();
        assert_eq!(numbers, expected, "{table}'s hands numbered in turn");
    }
    let (_, view) = app.get_json(&format!("/api/v1/hands/{hand}")).await;
    assert_eq!(view["version"], version, "{view}");
    // The last round's bettor is in the hand; the earlier ones left it.
    for (name, hands) in [("gone%204", 1), ("gone%203", 0), ("gone%200", 0)] {
        let (status, found) = app.get_json(&format!("/api/v1/hands?player={name}")).await;
        assert_eq!(status, 200, "{found}");
        let listed = found["hands"].as_array().expect("hands").len();
        assert_eq!(listed, hands, "{name}: {found}");
    }
    let report =
        crate::common::verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await;
    assert!(
        report.ok(),
        "hands, people and names as the log has them: {report:?}"
    );
}

on_both_databases!(a_batch_writes_each_hand_once_as_its_last_command_left_it);
