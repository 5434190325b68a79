//! Login throttling over HTTP on both databases: failures count per (user
//! name, client address) and per address, so an attacker at another address
//! cannot lock the real user out; a success resets its count; a throttled
//! attempt checks no password and writes nothing; a flood writes a bounded
//! number of `login_failures` records; behind a trusted proxy the client is
//! the `X-Forwarded-For` address. Clients connect from several loopback
//! addresses (127.0.0.2, …) to the server on 127.0.0.1.

use std::collections::HashMap;
use std::net::IpAddr;

use crate::common::browser::Browser;
use crate::common::{Backend, TEST_PASSWORD, TestDb, test_key};
use pitbook::domain::staff::Role;
use pitbook::store::Db;
use pitbook::web::{self, AppState};
use tokio::sync::oneshot;

struct Server {
    address: String,
    state: AppState,
    database: TestDb,
    _stop: oneshot::Sender<()>,
}

/// The real server on 127.0.0.1:0 with `dana` (a dealer); the state is kept
/// so a test can close the throttle's windows early (`flush`).
async fn server(backend: Backend, proxies: Vec<IpAddr>) -> Server {
    let database = TestDb::new(backend).await;
    pitbook::store::staff::add_user(
        &database.db,
        &test_key(),
        "test",
        "dana",
        Role::Dealer,
        TEST_PASSWORD,
        false,
    )
    .await
    .expect("add dana");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = format!("http://{}", listener.local_addr().expect("addr"));
    let state = AppState::new(database.db.clone(), test_key())
        .expect("state")
        .with_trusted_proxies(proxies);
    let (stop, stopped) = oneshot::channel::<()>();
    let serving = state.clone();
    tokio::spawn(async move {
        let _ = web::serve(listener, serving, async {
            let _ = stopped.await;
        })
        .await;
    });
    Server {
        address,
        state,
        database,
        _stop: stop,
    }
}

/// A browser whose connections come from `local` (a loopback address).
fn browser_from(server: &Server, local: &str) -> Browser {
    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .local_address(local.parse::<IpAddr>().expect("ip"))
        .build()
        .expect("client");
    Browser {
        address: server.address.clone(),
        client,
        cookies: HashMap::new(),
    }
}

async fn records(db: &Db, event_type: &str) -> Vec<serde_json::Value> {
    let mut all = Vec::new();
    pitbook::store::audit::for_each_record(db, None, None, |r| {
        if r.event_type == event_type {
            all.push(serde_json::from_str(&r.payload).expect("payload"));
        }
    })
    .await
    .expect("records");
    all
}

async fn record_count(db: &Db) -> usize {
    let mut n = 0;
    pitbook::store::audit::for_each_record(db, None, None, |_| n += 1)
        .await
        .expect("records");
    n
}

const THROTTLED: &str = "too many failed logins from your address";

/// `n` failed logins as `username(i)`; returns how many were throttled (429).
async fn fail(b: &mut Browser, username: &dyn Fn(usize) -> String, n: usize) -> usize {
    let mut throttled = 0;
    for i in 0..n {
        let page = b.login(&username(i), "wrong-password-x").await;
        if page.status == 429 {
            assert!(page.body.contains(THROTTLED), "{}", page.body);
            throttled += 1;
        } else {
            assert_eq!(page.status, 200);
            assert!(
                page.body.contains("wrong user name or password"),
                "{}",
                page.body
            );
        }
    }
    throttled
}

async fn another_address_is_not_locked_out(backend: Backend) {
    let s = server(backend, Vec::new()).await;
    let mut attacker = browser_from(&s, "127.0.0.2");
    // Five are free; checking all 30 would take the back-off many minutes.
    let throttled = fail(&mut attacker, &|_| "dana".into(), 30).await;
    assert!(throttled > 0, "the attacker is slowed down");
    let mut dana = browser_from(&s, "127.0.0.3");
    let page = dana.login("dana", TEST_PASSWORD).await;
    assert_eq!(
        (page.status, page.location.as_str()),
        (303, "/"),
        "{}",
        page.body
    );
}

async fn a_throttled_attempt_checks_nothing_and_writes_nothing(backend: Backend) {
    let s = server(backend, Vec::new()).await;
    let db = &s.database.db;
    let before = record_count(db).await;
    let mut flood = browser_from(&s, "127.0.0.4");
    let names = |i: usize| {
        if i.is_multiple_of(2) {
            "dana".into()
        } else {
            format!("guess{i}")
        }
    };
    let throttled = fail(&mut flood, &names, 200).await;
    assert!(throttled >= 150, "{throttled} of 200 throttled");
    // Even the right password is refused unchecked while the back-off runs.
    let page = flood.login("dana", TEST_PASSWORD).await;
    assert_eq!(page.status, 429, "{}", page.body);
    assert!(page.body.contains(THROTTLED));
    assert_eq!(record_count(db).await, before, "nothing written yet");
    // The windows closed: one record per (user name, address) that was checked.
    let written = s
        .state
        .login_guard
        .flush(db, &test_key())
        .await
        .expect("flush");
    let summaries = records(db, "login_failures").await;
    assert_eq!(summaries.len(), written);
    assert!(
        written <= 200 - throttled,
        "{written} records for {throttled} throttled"
    );
    let dana = summaries
        .iter()
        .find(|p| p["username"] == "dana")
        .expect("dana's summary");
    assert_eq!(dana["address"], "127.0.0.4");
    let total: u64 = summaries
        .iter()
        .map(|p| p["count"].as_u64().expect("n"))
        .sum();
    assert!(total >= (200 - throttled) as u64, "{total}");
    let report = pitbook::store::verify::verify(db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn a_success_resets_the_count_for_that_address(backend: Backend) {
    let s = server(backend, Vec::new()).await;
    let mut b = browser_from(&s, "127.0.0.5");
    assert_eq!(fail(&mut b, &|_| "dana".into(), 4).await, 0);
    assert_eq!(b.login("dana", TEST_PASSWORD).await.location, "/");
    // Counting starts again: five more are checked, none throttled.
    assert_eq!(fail(&mut b, &|_| "dana".into(), 5).await, 0);
    let summaries = records(&s.database.db, "login_failures").await;
    assert_eq!(summaries.len(), 1, "{summaries:?}");
    assert_eq!(summaries[0]["count"], 4);
    assert_eq!(summaries[0]["address"], "127.0.0.5");
}

async fn behind_a_trusted_proxy_the_forwarded_address_counts(backend: Backend) {
    let s = server(backend, vec!["127.0.0.1".parse().expect("ip")]).await;
    let through_proxy = |client: &'static str| {
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert("x-forwarded-for", client.parse().expect("header"));
        Browser {
            address: s.address.clone(),
            client: reqwest::Client::builder()
                .redirect(reqwest::redirect::Policy::none())
                .default_headers(headers)
                .local_address("127.0.0.1".parse::<IpAddr>().expect("ip"))
                .build()
                .expect("client"),
            cookies: HashMap::new(),
        }
    };
    let mut attacker = through_proxy("203.0.113.9");
    assert!(fail(&mut attacker, &|_| "dana".into(), 30).await > 0);
    let mut dana = through_proxy("198.51.100.1");
    assert_eq!(dana.login("dana", TEST_PASSWORD).await.location, "/");
    // From an untrusted peer the header is ignored: its own address counts.
    let mut direct = browser_from(&s, "127.0.0.6");
    assert_eq!(fail(&mut direct, &|_| "dana".into(), 1).await, 0);
    s.state
        .login_guard
        .flush(&s.database.db, &test_key())
        .await
        .expect("flush");
    let mut addresses: Vec<String> = records(&s.database.db, "login_failures")
        .await
        .iter()
        .map(|p| p["address"].as_str().expect("address").to_string())
        .collect();
    addresses.sort();
    assert_eq!(addresses, ["127.0.0.6", "203.0.113.9"]);
}

on_both_databases!(
    another_address_is_not_locked_out,
    a_throttled_attempt_checks_nothing_and_writes_nothing,
    a_success_resets_the_count_for_that_address,
    behind_a_trusted_proxy_the_forwarded_address_counts,
);
