//! Hand numbers: sequential per table from 1, independent per table, also
//! when the writer commits several openings together; a hand by its number
//! in the URL; a tampered number reported by `audit verify`.

use crate::common::{Backend, TestApp, spawn_app, tamper, test_key};
use serde_json::json;

/// A whole hand at `table` as one command: Pat banks `bank`, Ann and Bo bet.
pub fn whole_hand(table: &str, bank: &str, ann: &str, bo: &str) -> serde_json::Value {
    json!({"idempotency_key": uuid::Uuid::new_v4().to_string(), "events": [
        {"type": "hand_opened", "table": table},
        {"type": "pd_set", "seat": 1, "player": "Pat", "bank": bank},
        {"type": "wager_placed", "id": "w1", "seat": 4, "bettor": "Ann", "amount": ann},
        {"type": "wager_placed", "id": "w2", "seat": 5, "bettor": "Bo", "amount": bo},
        {"type": "action_set", "seat": 4},
        {"type": "outcome_recorded", "seat": 4, "outcome": "pd"},
        {"type": "outcome_recorded", "seat": 5, "outcome": "player"},
        {"type": "steps_confirmed", "wagers": ["w1", "w2"]},
        {"type": "hand_closed"}
    ]})
}

/// Opens a whole hand; returns its id.
pub async fn play(app: &TestApp, hand: serde_json::Value) -> String {
    let (status, body, _) = app.post_json("/api/v1/hands", &hand).await;
    assert_eq!(status, 201, "{body}");
    body["hand_id"].as_str().expect("hand_id").to_string()
}

async fn number_of(app: &TestApp, id: &str) -> i64 {
    let (status, body) = app.get_json(&format!("/api/v1/hands/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["number"].as_i64().expect("number")
}

async fn numbers_are_sequential_per_table_and_independent(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    app.configured_table("T2", false).await;
    let mut t1 = Vec::new();
    for i in 0..3 {
        t1.push(play(&app, whole_hand("T1", "200", "60", "60")).await);
        if i == 1 {
            let t2 = play(&app, whole_hand("T2", "200", "60", "60")).await;
            assert_eq!(number_of(&app, &t2).await, 1);
        }
    }
    for (i, id) in t1.iter().enumerate() {
        assert_eq!(number_of(&app, id).await, i as i64 + 1);
    }
    // Hands opened together (the writer commits them in one batch) still
    // get consecutive numbers, none twice.
    let hands: Vec<_> = (0..6)
        .map(|_| whole_hand("T2", "200", "60", "60"))
        .collect();
    let sends = hands.iter().map(|h| app.post_json("/api/v1/hands", h));
    let opened = futures_util::future::join_all(sends).await;
    let mut numbers = Vec::new();
    for (status, body, _) in opened {
        assert_eq!(status, 201, "{body}");
        numbers.push(number_of(&app, body["hand_id"].as_str().unwrap()).await);
    }
    numbers.sort_unstable();
    assert_eq!(numbers, [2, 3, 4, 5, 6, 7]);
    let report =
        crate::common::verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await;
    assert!(report.ok(), "{report:?}");
}

async fn a_hand_is_found_by_its_number_and_an_unknown_one_is_a_404_page(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    let id = play(&app, whole_hand("T1", "200", "60", "60")).await;
    let client = app
        .login(crate::common::TEST_ADMIN, crate::common::TEST_PASSWORD)
        .await;
    let found = client
        .get(app.url("/tables/T1/hands/1"))
        .send()
        .await
        .unwrap();
    assert_eq!(found.status().as_u16(), 303);
    assert_eq!(found.headers()["location"], format!("/hands/{id}").as_str());
    let page = client
        .get(app.url(&format!("/hands/{id}")))
        .send()
        .await
        .unwrap();
    let html = page.text().await.unwrap();
    assert!(
        html.contains("Hand T1 #1"),
        "the hand page names its number"
    );
    for (path, words) in [
        ("/tables/T1/hands/2", "Table T1 has no hand #2."),
        ("/tables/T1/hands/abc", "Table T1 has no hand #abc."),
        ("/tables/T9/hands/1", "There is no table T9."),
    ] {
        let response = client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status().as_u16(), 404, "{path}");
        let html = response.text().await.unwrap();
        assert!(html.contains(words), "{path}: {html}");
    }
    let table = client
        .get(app.url("/tables/T1"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        table.contains(">#1</a>"),
        "the table page lists the hand by number"
    );
}

async fn a_tampered_number_is_reported(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    play(&app, whole_hand("T1", "200", "60", "60")).await;
    play(&app, whole_hand("T1", "200", "60", "60")).await;
    tamper(
        &app.database.db,
        &["UPDATE hands SET number = number + 10 WHERE number = 2"],
    )
    .await;
    let report =
        crate::common::verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await;
    let problem = report.problem.expect("a tampered number is reported");
    assert_eq!(problem.kind, "projection");
    assert!(
        problem
            .message
            .contains("the stored number is 12; its events give 2"),
        "{problem:?}"
    );
    // From the second hand's first record on, the first hand is counted.
    let from =
        crate::common::verify_split_every_way(&app.database.db, &test_key(), 13, Vec::new()).await;
    assert!(
        from.problem
            .expect("from seq 13")
            .message
            .contains("number")
    );
}

/// From every record on, the numbers of the hands opened since follow the
/// last one each table opened before (read from its row, so the check
/// reads what was written since, not the log); a number one off is found
/// from every record up to that hand's first.
async fn numbers_verify_from_every_record(backend: Backend) {
    let app = spawn_app(backend).await;
    app.configured_table("T1", false).await;
    app.configured_table("T2", false).await;
    let mut last = String::new();
    for table in ["T1", "T2", "T1", "T1", "T2"] {
        last = play(&app, whole_hand(table, "200", "60", "60")).await;
    }
    let head = pitbook::store::verify::anchor(&app.database.db)
        .await
        .expect("head")
        .expect("records")
        .seq;
    for from in 1..=head {
        let report = pitbook::store::verify::verify(&app.database.db, &test_key(), from, None)
            .await
            .expect("verify");
        assert!(report.ok(), "from {from}: {report:?}");
    }
    let first_of_last: i64 = {
        let sql = format!("SELECT MIN(seq) FROM audit_log WHERE hand_id = '{last}'");
        match &app.database.db {
            pitbook::store::Db::Sqlite(pool) => sqlx::query_scalar(&sql).fetch_one(pool).await,
            pitbook::store::Db::Postgres(pool) => sqlx::query_scalar(&sql).fetch_one(pool).await,
        }
        .expect("first record")
    };
    tamper(
        &app.database.db,
        &[&format!("UPDATE hands SET number = 3 WHERE id = '{last}'")],
    )
    .await;
    for from in 1..=first_of_last {
        let report = pitbook::store::verify::verify(&app.database.db, &test_key(), from, None)
            .await
            .expect("verify");
        let problem = report.problem.unwrap_or_else(|| panic!("from {from}"));
        assert!(
            problem
                .message
                .contains("the stored number is 3; its events give 2"),
            "from {from}: {problem:?}"
        );
    }
}

on_both_databases!(
    numbers_verify_from_every_record,
    numbers_are_sequential_per_table_and_independent,
    a_hand_is_found_by_its_number_and_an_unknown_one_is_a_404_page,
    a_tampered_number_is_reported,
);
