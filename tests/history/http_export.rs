//! The export over HTTP on both databases: `GET /api/v1/hands/export` and
//! the search page's download links (`/history/export`) with the search's
//! filters, the file's name, a bad filter or format refused (422 naming the
//! field, no body), and who may export.

use crate::cli_export::three_hands;
use crate::common::{Backend, TEST_ADMIN, TEST_PASSWORD};
use pitbook::domain::history_export::ExportedHand;
use pitbook::domain::staff::Role;

async fn exported(app: &crate::common::TestApp, query: &str) -> (String, String, String) {
    let response = app
        .client
        .get(app.url(&format!("/api/v1/hands/export?{query}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 200, "{query}");
    let header = |name: &str| response.headers()[name].to_str().unwrap().to_string();
    let (kind, disposition) = (header("content-type"), header("content-disposition"));
    (kind, disposition, response.text().await.unwrap())
}

async fn the_api_streams_the_filters_hands_in_both_formats(backend: Backend) {
    let app = three_hands(backend).await;
    let (kind, disposition, body) = exported(&app, "table=T1&format=jsonl").await;
    assert!(kind.starts_with("application/x-ndjson"), "{kind}");
    let today = chrono::Utc::now().date_naive();
    assert_eq!(
        disposition,
        format!("attachment; filename=\"hands-T1-{today}.jsonl\"")
    );
    let hands: Vec<ExportedHand> = body
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let numbers: Vec<_> = hands.iter().map(|h| (h.table.as_str(), h.number)).collect();
    assert_eq!(numbers, [("T1", Some(2)), ("T1", Some(1))]);
    // Paging is not a filter of an export: the whole set, whatever the page.
    let (_, _, paged) = exported(&app, "table=T1&limit=1").await;
    assert_eq!(paged, body, "jsonl is the default, and limit is ignored");

    let (kind, disposition, csv_text) = exported(&app, "format=csv&date=2001-01-01").await;
    assert!(kind.starts_with("text/csv"), "{kind}");
    assert!(
        disposition.contains("hands-all-tables-2001-01-01.csv"),
        "{disposition}"
    );
    assert_eq!(csv_text.lines().count(), 1, "the header only: {csv_text}");
    let (_, _, csv_text) = exported(&app, "format=csv&player=bo").await;
    assert_eq!(csv_text.lines().count(), 7, "a row per wager: {csv_text}");
    assert!(
        csv_text.starts_with("hand_number,hand_id,table,"),
        "{csv_text}"
    );
}

async fn bad_filters_are_422_naming_the_field_before_any_byte(backend: Backend) {
    let app = three_hands(backend).await;
    for (query, field) in [
        ("format=xml", "format"),
        ("bank_min=-5", "bank_min"),
        ("table=T9", "table"),
        ("colour=red&format=csv", "colour"),
    ] {
        let (status, body) = app.get_json(&format!("/api/v1/hands/export?{query}")).await;
        assert_eq!(status, 422, "{query}: {body}");
        assert_eq!(crate::common::bad_input_body(&body).0, field, "{query}");
    }
}

async fn the_search_page_links_its_export_and_a_dealer_may_not_export(backend: Backend) {
    let app = three_hands(backend).await;
    let page = app.login(TEST_ADMIN, TEST_PASSWORD).await;
    let html = page
        .get(app.url("/history?player=ann&table=T1&limit=1"))
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let link = "/history/export?player=ann&#38;table=T1&#38;format=csv";
    assert!(
        html.contains(&format!(r#"id="export-csv" class="button" href="{link}""#)),
        "{html}"
    );
    let download = page
        .get(app.url(&link.replace("&#38;", "&")))
        .send()
        .await
        .unwrap();
    assert_eq!(download.status().as_u16(), 200);
    assert_eq!(
        download.text().await.unwrap().lines().count(),
        5,
        "T1's two hands, 2 wagers each"
    );

    app.add_user("dee", Role::Dealer).await;
    app.add_user("aud", Role::Auditor).await;
    for (user, status) in [("dee", 403), ("aud", 200)] {
        let client = app.client_with_token(&app.token_for(user).await);
        let response = client
            .get(app.url("/api/v1/hands/export?format=csv"))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status().as_u16(), status, "{user}");
    }
}

/// An export's COPY on PostgreSQL runs in a read-only transaction on a
/// connection of the server's pool, which goes back to the pool when the
/// COPY was read to its end: every idle connection after exports must be
/// outside any transaction, as it was (a write on one left read-only would
/// fail), and the server goes on writing.
async fn exports_leave_the_pools_connections_as_they_found_them(backend: Backend) {
    let app = three_hands(backend).await;
    for query in ["format=jsonl", "format=csv", "table=T1", "player=bo"] {
        exported(&app, query).await;
    }
    if let pitbook::store::Db::Postgres(pool) = &app.database.db {
        let mut idle = Vec::new();
        while let Some(mut conn) = pool.try_acquire() {
            let (read_only, sort): (String, String) = sqlx::query_as(
                "SELECT current_setting('transaction_read_only'), current_setting('enable_sort')",
            )
            .fetch_one(&mut *conn)
            .await
            .unwrap();
            assert_eq!((read_only.as_str(), sort.as_str()), ("off", "on"));
            idle.push(conn);
        }
        assert!(!idle.is_empty(), "an idle connection to look at");
    }
    let more = one_more_hand(&app).await;
    assert_eq!(more, 201, "a hand written after the exports");
}

/// Opens one more hand at T1 through the API; the status.
async fn one_more_hand(app: &crate::common::TestApp) -> u16 {
    let key = uuid::Uuid::new_v4().to_string();
    let body = serde_json::json!({
        "idempotency_key": key,
        "events": [{"type": "hand_opened", "table": "T1"}]
    });
    app.post_json("/api/v1/hands", &body).await.0
}

on_both_databases!(
    exports_leave_the_pools_connections_as_they_found_them,
    the_api_streams_the_filters_hands_in_both_formats,
    bad_filters_are_422_naming_the_field_before_any_byte,
    the_search_page_links_its_export_and_a_dealer_may_not_export,
);
