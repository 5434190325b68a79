//! Test harness: the real server on port 0 with a fresh database per test —
//! a new SQLite file in a temp dir, or a new PostgreSQL database with a random
//! name that is dropped afterwards. PostgreSQL tests never skip: if the server
//! cannot be reached they fail.
#![allow(dead_code)]

/// Pages driven as a browser would, with cookies.
pub mod browser;
/// The real `pitbook` binary run from tests.
pub mod cli;
/// The examples in docs/*.md, read and checked.
pub mod docs;
/// The guided hand's pages: forms, a table with its dealer, a hand.
pub mod play;
/// Tripoley's fixtures: docs/tripoley.md's classic deal.
pub mod tripoley;

use pitbook::domain::staff::Role;
use pitbook::store::Db;
use pitbook::web::{self, AppState};
use tokio::sync::oneshot;

/// The PostgreSQL server for tests: PITBOOK_TEST_POSTGRES_URL names its
/// admin database (default: the local trust-auth server).
pub fn postgres_admin_url() -> String {
    std::env::var("PITBOOK_TEST_POSTGRES_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/postgres".to_string())
}

/// One integer from `sql` (a count, a seq) on either database.
pub async fn scalar_i64(db: &Db, sql: &str) -> i64 {
    match db {
        Db::Sqlite(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
        Db::Postgres(pool) => sqlx::query_scalar(sql).fetch_one(pool).await,
    }
    .expect(sql)
}

/// The database a test runs on.
#[derive(Debug, Clone, Copy)]
pub enum Backend {
    /// A new SQLite file in a temp dir.
    Sqlite,
    /// A new database on the PostgreSQL server of [`postgres_admin_url`].
    Postgres,
}

/// A fresh, migrated database that cleans itself up on drop.
pub struct TestDb {
    /// The database's URL, as `DATABASE_URL` would give it.
    pub url: String,
    /// An open pool on it.
    pub db: Db,
    _dir: Option<tempfile::TempDir>,
    pg_name: Option<String>,
}

impl TestDb {
    /// A fresh database on `backend`, migrated.
    pub async fn new(backend: Backend) -> TestDb {
        let test_db = TestDb::unmigrated(backend).await;
        test_db.db.migrate().await.expect("migrate");
        test_db
    }

    /// A fresh database with no tables yet (for migration tests).
    pub async fn unmigrated(backend: Backend) -> TestDb {
        match backend {
            Backend::Sqlite => {
                let dir = tempfile::tempdir().expect("temp dir");
                let url = format!("sqlite:{}", dir.path().join("pitbook.db").display());
                let db = Db::connect(&url).await.expect("open sqlite");
                TestDb {
                    url,
                    db,
                    _dir: Some(dir),
                    pg_name: None,
                }
            }
            Backend::Postgres => {
                let name = format!("pitbook_test_{}", uuid::Uuid::new_v4().simple());
                let admin = admin_pool().await;
                sqlx::query(&format!("CREATE DATABASE {name}"))
                    .execute(&admin)
                    .await
                    .expect("create test database");
                admin.close().await;
                let url = database_url_for(&name);
                let db = Db::connect(&url).await.expect("open postgres");
                TestDb {
                    url,
                    db,
                    _dir: None,
                    pg_name: Some(name),
                }
            }
        }
    }
}

/// A one-connection pool on the PostgreSQL admin database; panics when
/// the server cannot be reached.
async fn admin_pool() -> sqlx::PgPool {
    let url = postgres_admin_url();
    sqlx::postgres::PgPoolOptions::new()
        .max_connections(1)
        .connect(&url)
        .await
        .unwrap_or_else(|e| panic!("PostgreSQL at {url} is required for these tests: {e}"))
}

/// The URL of database `name` on the admin database's server.
fn database_url_for(name: &str) -> String {
    let admin = postgres_admin_url();
    let base = admin.rsplit_once('/').map(|(b, _)| b).unwrap_or(&admin);
    format!("{base}/{name}")
}

impl Drop for TestDb {
    fn drop(&mut self) {
        let Some(name) = self.pg_name.take() else {
            return;
        };
        // Drop runs inside the test's runtime: do the async cleanup on its own thread.
        let _ = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            rt.block_on(async {
                let admin = admin_pool().await;
                let _ = sqlx::query(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .execute(&admin)
                    .await;
                admin.close().await;
            });
        })
        .join();
    }
}

/// A running test server (see [`spawn_app`]); it stops when dropped.
pub struct TestApp {
    /// `http://127.0.0.1:PORT`.
    pub address: String,
    /// Sends `Authorization: Bearer` with [`TestApp::token`] (the test admin's).
    pub client: reqwest::Client,
    /// The server's database.
    pub database: TestDb,
    /// The API token of [`TEST_ADMIN`], an admin with no password change due.
    pub token: String,
    /// The server's login throttle: `flush` writes the open windows'
    /// `login_failures` records, as `serve` does at shutdown.
    pub login_guard: std::sync::Arc<pitbook::store::staff::LoginGuard>,
    shutdown: Option<oneshot::Sender<()>>,
}

/// The account every test server has (an admin), whose token `app.client`
/// sends. Its `user_added` and `token_issued` are the log's seq 1 and 2.
pub const TEST_ADMIN: &str = "test-admin";
/// The password of every account made by the harness.
pub const TEST_PASSWORD: &str = "test-password-for-everyone";

impl TestApp {
    /// The full URL of `path` on this server.
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    /// Adds an account with [`TEST_PASSWORD`] (no password change due);
    /// returns its user name and password.
    pub async fn add_user(&self, name: &str, role: Role) -> (String, String) {
        pitbook::store::staff::add_user(
            &self.database.db,
            &test_key(),
            "test",
            name,
            role,
            TEST_PASSWORD,
            false,
        )
        .await
        .unwrap_or_else(|e| panic!("add user {name}: {e}"));
        (name.to_string(), TEST_PASSWORD.to_string())
    }

    /// Issues a new API token for `username` (label "test").
    pub async fn token_for(&self, username: &str) -> String {
        let (token, _) = pitbook::store::staff::issue_token(
            &self.database.db,
            &test_key(),
            "test",
            username,
            "test",
        )
        .await
        .unwrap_or_else(|e| panic!("token for {username}: {e}"));
        token
    }

    /// A client sending `Authorization: Bearer {token}` on every request.
    pub fn client_with_token(&self, token: &str) -> reqwest::Client {
        bearer_client(token)
    }

    /// Signs in through the login form (GET /login for the CSRF cookie and
    /// field, then POST) and returns a client sending that session's cookie
    /// on every request. The client never follows redirects.
    pub async fn login(&self, username: &str, password: &str) -> reqwest::Client {
        let plain = reqwest::Client::builder()
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client");
        let page = plain
            .get(self.url("/login"))
            .send()
            .await
            .expect("GET /login");
        let login_cookie =
            set_cookie_value(&page, "pitbook_login_csrf").expect("login CSRF cookie");
        let html = page.text().await.expect("login page");
        let start = html.find("name=\"csrf\" value=\"").expect("a csrf field") + 19;
        let csrf = &html[start..start + 64];
        let form = format!(
            "csrf={csrf}&username={}&password={}",
            form_encode(username),
            form_encode(password)
        );
        let response = plain
            .post(self.url("/login"))
            .header("cookie", format!("pitbook_login_csrf={login_cookie}"))
            .header("content-type", "application/x-www-form-urlencoded")
            .body(form)
            .send()
            .await
            .expect("POST /login");
        assert_eq!(response.status().as_u16(), 303, "login as {username}");
        let session = set_cookie_value(&response, "pitbook_session")
            .unwrap_or_else(|| panic!("login as {username} set no session cookie"));
        let mut headers = reqwest::header::HeaderMap::new();
        headers.insert(
            reqwest::header::COOKIE,
            format!("pitbook_session={session}")
                .parse()
                .expect("cookie header"),
        );
        reqwest::Client::builder()
            .default_headers(headers)
            .redirect(reqwest::redirect::Policy::none())
            .build()
            .expect("client")
    }

    /// GETs `path` with [`TestApp::client`]; returns the status and the JSON body.
    pub async fn get_json(&self, path: &str) -> (u16, serde_json::Value) {
        let response = self
            .client
            .get(self.url(path))
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.expect("json body"))
    }

    /// POSTs `body` as `application/json` with [`TestApp::client`];
    /// returns the status and the JSON body.
    pub async fn post_raw(&self, path: &str, body: &str) -> (u16, serde_json::Value) {
        let response = self
            .client
            .post(self.url(path))
            .header("content-type", "application/json")
            .body(body.to_string())
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        (status, response.json().await.expect("json body"))
    }
}

impl Drop for TestApp {
    fn drop(&mut self) {
        if let Some(tx) = self.shutdown.take() {
            let _ = tx.send(());
        }
    }
}

/// The audit key every test server uses.
pub fn test_key() -> pitbook::domain::common::audit::AuditKey {
    pitbook::domain::common::audit::AuditKey::from_text(TEST_KEY_HEX).expect("test key")
}

/// [`test_key`] as hex text, as `PITBOOK_AUDIT_KEY` takes it.
pub const TEST_KEY_HEX: &str = "5f1e0c2a9b7d3e4f5a6b7c8d9e0f1a2b3c4d5e6f708192a3b4c5d6e7f8091a2b";

/// A client sending `Authorization: Bearer {token}` on every request.
pub fn bearer_client(token: &str) -> reqwest::Client {
    let mut headers = reqwest::header::HeaderMap::new();
    headers.insert(
        reqwest::header::AUTHORIZATION,
        format!("Bearer {token}")
            .parse()
            .expect("authorization header"),
    );
    reqwest::Client::builder()
        .default_headers(headers)
        .build()
        .expect("client")
}

/// The value a response's `Set-Cookie` gives the cookie `name`.
fn set_cookie_value(response: &reqwest::Response, name: &str) -> Option<String> {
    response
        .headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .filter_map(|v| v.split(';').next()?.split_once('='))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v.to_string())
}

/// `application/x-www-form-urlencoded` text for a form value.
fn form_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'.' | b'_' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Starts the real server on 127.0.0.1:0 over a fresh database with the
/// account [`TEST_ADMIN`] and an API token for it, which `client` sends.
pub async fn spawn_app(backend: Backend) -> TestApp {
    spawn_app_with(backend, |state| state).await
}

/// [`spawn_app`] with the app state changed by `configure` first (a time
/// zone, trusted proxies).
pub async fn spawn_app_with(
    backend: Backend,
    configure: impl FnOnce(AppState) -> AppState,
) -> TestApp {
    let database = TestDb::new(backend).await;
    let db = &database.db;
    pitbook::store::staff::add_user(
        db,
        &test_key(),
        "test",
        TEST_ADMIN,
        Role::Admin,
        TEST_PASSWORD,
        false,
    )
    .await
    .expect("add the test admin");
    let (token, _) =
        pitbook::store::staff::issue_token(db, &test_key(), "test", TEST_ADMIN, "test")
            .await
            .expect("the test admin's token");
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let address = format!("http://{}", listener.local_addr().expect("addr"));
    let (tx, rx) = oneshot::channel::<()>();
    let state = configure(AppState::new(database.db.clone(), test_key()).expect("the app state"));
    let login_guard = state.login_guard.clone();
    tokio::spawn(async move {
        let _ = web::serve(listener, state, async {
            let _ = rx.await;
        })
        .await;
    });
    TestApp {
        address,
        client: bearer_client(&token),
        database,
        token,
        login_guard,
        shutdown: Some(tx),
    }
}

/// Runs each named `async fn(Backend)` once on SQLite and once on PostgreSQL.
#[macro_export]
macro_rules! on_both_databases {
    ($($test:ident),+ $(,)?) => {
        mod sqlite {
            $(#[tokio::test] async fn $test() { super::$test($crate::common::Backend::Sqlite).await })+
        }
        mod postgres {
            $(#[tokio::test] async fn $test() { super::$test($crate::common::Backend::Postgres).await })+
        }
    };
}

impl TestApp {
    /// POSTs JSON; returns the status, the body and whether the response
    /// was an idempotent replay.
    pub async fn post_json(
        &self,
        path: &str,
        body: &serde_json::Value,
    ) -> (u16, serde_json::Value, bool) {
        let response = self
            .client
            .post(self.url(path))
            .json(body)
            .send()
            .await
            .expect("request");
        let status = response.status().as_u16();
        let replayed = response.headers().get("idempotent-replayed").is_some();
        (status, response.json().await.expect("json body"), replayed)
    }
}

/// `audit verify` from `from`, checked to give the same report however the
/// log is split: into parts read side by side, into rounds down to a record
/// a round, and both.
pub async fn verify_split_every_way(
    db: &pitbook::store::Db,
    key: &pitbook::domain::common::audit::AuditKey,
    from: i64,
    anchors: Vec<pitbook::domain::common::audit::AnchorCheck>,
) -> pitbook::store::verify::VerifyReport {
    use pitbook::store::verify::{Split, verify_in_parts};
    let how = |parts_max, part_records_min, round_records| Split {
        parts_max,
        part_records_min,
        round_records,
    };
    let whole = verify_in_parts(db, key, from, anchors.clone(), how(1, 1, i64::MAX))
        .await
        .expect("verify runs");
    // Parts side by side (two; more parts than most logs have records),
    // rounds one after another (each round's rows compared before the next
    // is read) down to a record a round, and parts of a least size within
    // rounds.
    let ways = [(2, 1, i64::MAX), (8, 1, i64::MAX), (1, 1, 1), (3, 2, 16)];
    for (parts, records_min, round_records) in ways {
        let split = verify_in_parts(
            db,
            key,
            from,
            anchors.clone(),
            how(parts, records_min, round_records),
        )
        .await
        .expect("verify runs");
        assert_eq!(
            split, whole,
            "verify in rounds of {round_records} records, {parts} parts of {records_min}+ records"
        );
    }
    whole
}

/// Where and what verification found wrong; panics when it found nothing.
pub fn problem(report: &pitbook::store::verify::VerifyReport) -> (i64, &'static str) {
    let p = report
        .problem
        .as_ref()
        .unwrap_or_else(|| panic!("tampering undetected: {report:?}"));
    (p.seq, p.kind)
}

/// Runs SQL as a database administrator would to tamper with the log:
/// the append-only triggers are taken off first.
pub async fn tamper(db: &pitbook::store::Db, statements: &[&str]) {
    use pitbook::store::Db;
    match db {
        Db::Sqlite(pool) => {
            let mut conn = pool.acquire().await.expect("conn");
            for s in [
                "DROP TRIGGER IF EXISTS audit_log_no_update",
                "DROP TRIGGER IF EXISTS audit_log_no_delete",
            ]
            .iter()
            .chain(statements)
            {
                sqlx::query(s)
                    .execute(&mut *conn)
                    .await
                    .expect("tamper sqlite");
            }
        }
        Db::Postgres(pool) => {
            let mut conn = pool.acquire().await.expect("conn");
            for s in ["ALTER TABLE audit_log DISABLE TRIGGER USER"]
                .iter()
                .chain(statements)
            {
                sqlx::query(s)
                    .execute(&mut *conn)
                    .await
                    .expect("tamper postgres");
            }
        }
    }
}

/// POSTs JSON and expects 200; returns the body.
pub async fn post_ok(app: &TestApp, path: &str, body: serde_json::Value) -> serde_json::Value {
    let (status, response, _) = app.post_json(path, &body).await;
    assert_eq!(status, 200, "{path} {body}: {response}");
    response
}

/// A 422 body: `{"error": "bad_input", "message": …, "field": …}` and
/// `"value"` when known, nothing else, the message starting with its field.
/// Returns the field and the message.
pub fn bad_input_body(response: &serde_json::Value) -> (String, String) {
    assert_eq!(response["error"], "bad_input", "{response}");
    let keys = response.as_object().expect("object").keys();
    for key in keys {
        let known = ["error", "message", "field", "value"];
        assert!(known.contains(&key.as_str()), "{key} in {response}");
    }
    let field = response["field"].as_str().expect("field").to_string();
    let message = response["message"].as_str().expect("message").to_string();
    assert!(message.starts_with(&format!("{field}: ")), "{response}");
    (field, message)
}

/// POSTs JSON and expects 422 `{"error": "bad_input", "message": …, "field": …}`
/// with `needle` in the message.
pub async fn post_bad(app: &TestApp, path: &str, body: serde_json::Value, needle: &str) {
    let (status, response, _) = app.post_json(path, &body).await;
    assert_eq!(status, 422, "{path} {body}: {response}");
    let (_, message) = bad_input_body(&response);
    assert!(
        message.contains(needle),
        "{path} {body}: {message:?} lacks {needle:?}"
    );
}

/// POSTs JSON and expects 422 naming `field` (and `value`, when given);
/// returns the body.
pub async fn post_bad_field(
    app: &TestApp,
    path: &str,
    body: serde_json::Value,
    field: &str,
    value: Option<&str>,
) -> serde_json::Value {
    let (status, response, _) = app.post_json(path, &body).await;
    assert_eq!(status, 422, "{path} {body}: {response}");
    assert_eq!(
        bad_input_body(&response).0,
        field,
        "{path} {body}: {response}"
    );
    if let Some(value) = value {
        assert_eq!(response["value"], value, "{path} {body}: {response}");
    }
    response
}

/// Every record of the audit log in order: (event type, actor, payload).
pub async fn log_records(db: &pitbook::store::Db) -> Vec<(String, String, serde_json::Value)> {
    let mut all = Vec::new();
    pitbook::store::audit::for_each_record(db, None, None, |r| {
        let payload = serde_json::from_str(&r.payload).expect("payload");
        all.push((r.event_type.clone(), r.actor.clone(), payload));
    })
    .await
    .expect("records");
    all
}

/// How many audit records of `event_type` the log holds.
pub async fn records(app: &TestApp, event_type: &str) -> i64 {
    let sql = "SELECT COUNT(*) FROM audit_log WHERE event_type = $1";
    match &app.database.db {
        pitbook::store::Db::Sqlite(p) => {
            sqlx::query_scalar(sql).bind(event_type).fetch_one(p).await
        }
        pitbook::store::Db::Postgres(p) => {
            sqlx::query_scalar(sql).bind(event_type).fetch_one(p).await
        }
    }
    .expect("count records")
}

impl TestApp {
    /// Makes `name` a configured table (lucky-chances, 7 seats, no wager
    /// limits) over the API as the test admin, once: hands open only at
    /// configured tables. `collecting` posts the seed's collection schedules
    /// (player 0.01-100:1, bank 0.01-5000:2), which every hand there must take.
    pub async fn configured_table(&self, name: &str, collecting: bool) {
        configure_table(&self.address, &self.token, name, collecting).await;
    }

    /// Assigns `dealer` to the configured table `table` (as the test admin).
    pub async fn assign(&self, table: &str, dealer: &str) {
        let body = serde_json::json!({"dealer": dealer, "assigned": true});
        let (status, body) = self
            .post_raw(
                &format!("/api/v1/tables/{table}/dealers"),
                &body.to_string(),
            )
            .await;
        assert_eq!(status, 200, "assign {dealer} to {table}: {body}");
    }
}

/// [`TestApp::configured_table`] on any server (`base`: `http://host:port`)
/// with a token of a supervisor or admin.
pub async fn configure_table(base: &str, token: &str, name: &str, collecting: bool) {
    let client = bearer_client(token);
    let found = client
        .get(format!("{base}/api/v1/tables/{name}"))
        .send()
        .await
        .expect("get table");
    if found.status().as_u16() == 200 {
        return;
    }
    let mut config = serde_json::json!({"name": name, "profile": "lucky-chances", "seats": 7});
    if collecting {
        config["player_schedule"] = serde_json::json!([{"from": "0.01", "to": "100", "fee": "1"}]);
        config["bank_schedule"] = serde_json::json!([{"from": "0.01", "to": "5000", "fee": "2"}]);
    }
    let r = client
        .post(format!("{base}/api/v1/tables"))
        .json(&config)
        .send()
        .await
        .expect("create table");
    let status = r.status().as_u16();
    assert_eq!(
        status,
        201,
        "create table {name}: {}",
        r.text().await.unwrap_or_default()
    );
}
