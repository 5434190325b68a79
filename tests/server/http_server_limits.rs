//! The server sheds slow and idle clients (header, body and request
//! timeouts, a connection cap) and every JSON route reads its body under one
//! limit, answering a body it cannot take in the API's JSON format
//! (deploy/README.md, "Slow and idle clients").

use std::time::Duration;

use crate::common::{Backend, TEST_ADMIN, TEST_PASSWORD, TestDb, spawn_app, test_key};
use pitbook::domain::staff::Role;
use pitbook::web::json::BODY_BYTES_MAX;
use pitbook::web::server::ServerLimits;
use pitbook::web::{self, AppState};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;

/// Every `/api/v1` route that takes a JSON body (`json::Body`, or settle's
/// own reading of it). `{id}` is any hand id: the body is refused first.
const JSON_ROUTES: [&str; 14] = [
    "/api/v1/hands",
    "/api/v1/hands/0190d5a0-0000-7000-8000-000000000000/commands",
    "/api/v1/hands/eval",
    "/api/v1/hands/house-way",
    "/api/v1/hands/settings",
    "/api/v1/dice",
    "/api/v1/settle",
    "/api/v1/tripoley/round",
    "/api/v1/tripoley/final",
    "/api/v1/poker-dice/rank",
    "/api/v1/poker-dice/compare",
    "/api/v1/poker-dice/round",
    "/api/v1/ten-thousand/score",
    "/api/v1/ten-thousand/game",
];

/// POSTs `body` with `content_type`; returns the status and the JSON body
/// (panics if the answer is not JSON).
async fn post(
    client: &reqwest::Client,
    url: &str,
    content_type: &str,
    body: Vec<u8>,
) -> (u16, serde_json::Value) {
    let response = client
        .post(url)
        .header("content-type", content_type)
        .body(body)
        .send()
        .await
        .unwrap_or_else(|e| panic!("POST {url}: {e}"));
    let status = response.status().as_u16();
    let kind = response
        .headers()
        .get("content-type")
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let text = response.text().await.expect("body");
    assert!(
        kind.starts_with("application/json"),
        "{url}: {status} {kind:?} {text:?}"
    );
    let json = serde_json::from_str(&text).unwrap_or_else(|_| panic!("{url}: {text:?}"));
    (status, json)
}

fn assert_bad_body(url: &str, what: &str, (status, body): (u16, serde_json::Value)) {
    assert_eq!(status, 422, "{url} {what}: {body}");
    assert_eq!(body["error"], "bad_input", "{url} {what}: {body}");
    let message = body["message"].as_str().expect("message");
    // settle's contract names its input `input`.
    assert!(
        message.starts_with("body") || message.starts_with("input"),
        "{url} {what}: {message}"
    );
}

async fn every_json_route_answers_a_bad_body_in_json(backend: Backend) {
    let app = spawn_app(backend).await;
    let over = vec![b' '; BODY_BYTES_MAX + 1];
    let far_over = vec![b' '; 3 * 1024 * 1024];
    for path in JSON_ROUTES {
        let url = app.url(path);
        let json = "application/json";
        for (what, body) in [
            ("one byte over the limit", over.clone()),
            ("far over the limit", far_over.clone()),
            ("malformed", b"{\"".to_vec()),
            ("empty", Vec::new()),
            ("not JSON", b"cards=As".to_vec()),
        ] {
            assert_bad_body(&url, what, post(&app.client, &url, json, body).await);
        }
        let (_, body) = post(&app.client, &url, json, over.clone()).await;
        let message = body["message"].as_str().unwrap();
        assert!(
            message.contains(&format!("more than the limit of {BODY_BYTES_MAX} bytes")),
            "{path}: {message}"
        );
        // With a token the Content-Type is not needed; a wrong one with a
        // bad body is still answered in JSON.
        let wrong = post(&app.client, &url, "text/plain", b"{".to_vec()).await;
        assert_bad_body(&url, "text/plain", wrong);
    }
    // With a session cookie a body must say it is JSON: 415, in JSON.
    let session = app.login(TEST_ADMIN, TEST_PASSWORD).await;
    for path in JSON_ROUTES {
        let url = app.url(path);
        let (status, body) = post(&session, &url, "text/plain", b"{}".to_vec()).await;
        assert_eq!(status, 415, "{path}: {body}");
        assert_eq!(body["error"], "unsupported_media_type", "{body}");
    }
    assert_eq!(crate::common::records(&app, "hand_opened").await, 0);
}

/// A server with `limits` on a fresh database; returns its address, an API
/// token of an admin and the database (kept alive) and the shutdown sender.
async fn spawn_with(
    backend: Backend,
    limits: ServerLimits,
) -> (String, String, TestDb, tokio::sync::oneshot::Sender<()>) {
    let database = TestDb::new(backend).await;
    let key = test_key();
    pitbook::store::staff::add_user(
        &database.db,
        &key,
        "test",
        TEST_ADMIN,
        Role::Admin,
        TEST_PASSWORD,
        false,
    )
    .await
    .expect("admin");
    let (token, _) =
        pitbook::store::staff::issue_token(&database.db, &key, "test", TEST_ADMIN, "test")
            .await
            .expect("token");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap().to_string();
    let state = AppState::new(database.db.clone(), key).expect("state");
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    tokio::spawn(web::serve_with_limits(listener, state, limits, async {
        let _ = rx.await;
    }));
    (address, token, database, tx)
}

/// Everything the server sends until it closes the connection (or the
/// generous bound passes, which fails the test).
async fn read_to_close(stream: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(60), async {
        let mut buf = [0u8; 4096];
        loop {
            match stream.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => out.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(read.is_ok(), "the server never closed the connection");
    String::from_utf8_lossy(&out).into_owned()
}

/// The first response on the stream (headers and a Content-Length body).
async fn read_response(stream: &mut TcpStream) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    let read = tokio::time::timeout(Duration::from_secs(60), async {
        loop {
            let n = stream.read(&mut buf).await.expect("read");
            assert!(n > 0, "closed before a response: {out:?}");
            out.extend_from_slice(&buf[..n]);
            let text = String::from_utf8_lossy(&out).to_string();
            if let Some((head, body)) = text.split_once("\r\n\r\n") {
                let length = head
                    .lines()
                    .find_map(|l| {
                        l.to_ascii_lowercase()
                            .strip_prefix("content-length: ")
                            .map(|v| v.trim().parse::<usize>().unwrap())
                    })
                    .unwrap_or(0);
                if body.len() >= length {
                    return text;
                }
            }
        }
    })
    .await;
    read.expect("no response")
}

const SHORT: Duration = Duration::from_secs(1);

async fn slow_clients_are_cut_off(backend: Backend) {
    let limits = ServerLimits {
        header_timeout: SHORT,
        body_timeout: SHORT,
        ..ServerLimits::DEFAULT
    };
    let (address, token, _db, _stop) = spawn_with(backend, limits).await;

    // Half a header, then nothing: the connection is closed.
    let mut half = TcpStream::connect(&address).await.unwrap();
    half.write_all(b"GET /healthz HTTP/1.1\r\nHost: pitbook\r\nX-Slow: ")
        .await
        .unwrap();
    let answer = read_to_close(&mut half).await;
    assert!(!answer.contains("200 OK"), "{answer}");

    // An idle connection that never sends a request is closed too.
    let mut idle = TcpStream::connect(&address).await.unwrap();
    read_to_close(&mut idle).await;

    // Headers in, the body never finished: 408 in JSON, then closed.
    let mut slow_body = TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/v1/dice HTTP/1.1\r\nHost: pitbook\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{\"dice\":"
    );
    slow_body.write_all(head.as_bytes()).await.unwrap();
    let answer = read_response(&mut slow_body).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(answer.contains("\"error\":\"timeout\""), "{answer}");
    assert!(answer.contains("body: not received in time"), "{answer}");

    // A quick client is served as usual.
    let ok = reqwest::get(format!("http://{address}/healthz"))
        .await
        .unwrap();
    assert_eq!(ok.status().as_u16(), 200);
}

async fn a_request_not_answered_in_time_is_408(backend: Backend) {
    let limits = ServerLimits {
        request_timeout: SHORT,
        ..ServerLimits::DEFAULT
    };
    let (address, token, _db, _stop) = spawn_with(backend, limits).await;
    // The body (30 s to come) outlasts the request's second.
    let mut stream = TcpStream::connect(&address).await.unwrap();
    let head = format!(
        "POST /api/v1/dice HTTP/1.1\r\nHost: pitbook\r\nAuthorization: Bearer {token}\r\n\
         Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
    );
    stream.write_all(head.as_bytes()).await.unwrap();
    let answer = read_response(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
    assert!(
        answer.contains("request: not answered within 1 s"),
        "{answer}"
    );
    // The server's own answers are hardened like the app's.
    for header in [
        "content-security-policy: default-src 'self'",
        "cache-control: no-store",
        "x-content-type-options: nosniff",
    ] {
        assert!(answer.contains(header), "{header}: {answer}");
    }
}

async fn connections_beyond_the_cap_are_refused(backend: Backend) {
    let limits = ServerLimits {
        max_connections: 2,
        ..ServerLimits::DEFAULT
    };
    let (address, _token, _db, _stop) = spawn_with(backend, limits).await;
    let request = b"GET /healthz HTTP/1.1\r\nHost: pitbook\r\n\r\n";
    // Two kept-alive connections, each served once, hold both places.
    let mut held = Vec::new();
    for _ in 0..2 {
        let mut s = TcpStream::connect(&address).await.unwrap();
        s.write_all(request).await.unwrap();
        let answer = read_response(&mut s).await;
        assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
        held.push(s);
    }
    let mut third = TcpStream::connect(&address).await.unwrap();
    let _ = third.write_all(request).await;
    let answer = read_to_close(&mut third).await;
    assert!(answer.starts_with("HTTP/1.1 503"), "{answer}");
    assert!(answer.contains("\"error\":\"unavailable\""), "{answer}");
    assert!(answer.contains("limit of 2 open"), "{answer}");
    assert!(answer.contains("cache-control: no-store"), "{answer}");

    // A place freed is a place for the next client.
    drop(held.pop());
    let mut served = false;
    for _ in 0..100 {
        let mut s = TcpStream::connect(&address).await.unwrap();
        let _ = s.write_all(request).await;
        if read_to_close_or_response(&mut s)
            .await
            .starts_with("HTTP/1.1 200")
        {
            served = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(served, "a freed place was never given to a new client");
}

/// The first response, whether the server keeps the connection or closes it.
async fn read_to_close_or_response(stream: &mut TcpStream) -> String {
    let mut buf = [0u8; 4096];
    let n = tokio::time::timeout(Duration::from_secs(60), stream.read(&mut buf))
        .await
        .expect("an answer")
        .unwrap_or(0);
    String::from_utf8_lossy(&buf[..n]).into_owned()
}

/// Handlers get the client's address (`ConnectInfo<SocketAddr>`), as
/// `into_make_service_with_connect_info` would give them.
#[tokio::test]
async fn handlers_see_the_client_address() {
    use axum::extract::ConnectInfo;
    use std::net::SocketAddr;
    let app = axum::Router::new().route(
        "/whoami",
        axum::routing::get(
            |ConnectInfo(peer): ConnectInfo<SocketAddr>| async move { peer.to_string() },
        ),
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    let (tx, rx) = tokio::sync::oneshot::channel::<()>();
    let server = tokio::spawn(pitbook::web::server::serve(
        listener,
        app,
        ServerLimits::DEFAULT,
        async {
            let _ = rx.await;
        },
    ));
    let mut stream = TcpStream::connect(address).await.unwrap();
    let local = stream.local_addr().unwrap();
    stream
        .write_all(b"GET /whoami HTTP/1.1\r\nHost: pitbook\r\nConnection: close\r\n\r\n")
        .await
        .unwrap();
    let answer = read_to_close(&mut stream).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(answer.ends_with(&local.to_string()), "{answer} vs {local}");
    // Graceful shutdown: the server future ends once asked.
    let _ = tx.send(());
    server.await.unwrap().unwrap();
}

on_both_databases!(
    every_json_route_answers_a_bad_body_in_json,
    slow_clients_are_cut_off,
    a_request_not_answered_in_time_is_408,
    connections_beyond_the_cap_are_refused,
);
