//! Staff accounts over HTTP on both databases: login, wrong passwords and
//! their summary, CSRF, session expiry, a new session id per login, the
//! forced password change, role checks, logout; `pitbook user add` and the
//! first-start admin through the real binary. Every step is in the audit
//! log, and the chain still verifies.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use crate::common::browser::{Browser, csrf_of};
use crate::common::{Backend, TEST_KEY_HEX, TestApp, spawn_app, test_key};
use pitbook::domain::staff::Role;
use pitbook::store::Db;

const BIN: &str = env!("CARGO_BIN_EXE_pitbook");
const PASSWORD: &str = "correct-horse-battery";

async fn add(app: &TestApp, name: &str, role: Role, must_change: bool) {
    pitbook::store::staff::add_user(
        &app.database.db,
        &test_key(),
        "test",
        name,
        role,
        PASSWORD,
        must_change,
    )
    .await
    .expect("add user");
}

async fn event_types(db: &Db) -> Vec<(String, String)> {
    let mut all = Vec::new();
    pitbook::store::audit::for_each_record(db, None, None, |r| {
        all.push((r.event_type.clone(), r.actor.clone()))
    })
    .await
    .expect("records");
    all
}

async fn count(db: &Db, event: &str) -> usize {
    event_types(db)
        .await
        .iter()
        .filter(|(e, _)| e == event)
        .count()
}

async fn sql(db: &Db, statement: &str) {
    match db {
        Db::Sqlite(pool) => sqlx::query(statement).execute(pool).await.map(drop),
        Db::Postgres(pool) => sqlx::query(statement).execute(pool).await.map(drop),
    }
    .expect("sql");
}

async fn assert_chain_verifies(db: &Db) {
    let report = pitbook::store::verify::verify(db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn login_leads_home_showing_the_user(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, false).await;
    let mut b = Browser::new(&app);
    let unauthenticated = b.get("/").await;
    assert_eq!(
        (unauthenticated.status, unauthenticated.location.as_str()),
        (303, "/login")
    );

    let page = b.login("dana", PASSWORD).await;
    assert_eq!(
        (page.status, page.location.as_str()),
        (303, "/"),
        "{}",
        page.body
    );
    assert!(b.cookies.contains_key("pitbook_session"));
    assert!(
        !b.cookies.contains_key("pitbook_login_csrf"),
        "the login token is spent"
    );
    let home = b.get("/").await;
    assert_eq!(home.status, 200);
    assert!(
        home.body
            .contains("Signed in as <strong>dana</strong> (dealer)"),
        "{}",
        home.body
    );
    assert!(
        home.body.contains("href=\"/tables\""),
        "home leads to the tables"
    );
    assert!(
        !home.body.contains("/users"),
        "a dealer gets no account link"
    );

    let css = b.get("/static/pitbook.css").await;
    assert_eq!(css.status, 200);
    assert!(css.body.contains("--accent"));

    let me = b.get("/api/v1/me").await;
    assert_eq!(me.status, 200);
    let me: serde_json::Value = serde_json::from_str(&me.body).expect("json");
    assert_eq!(
        me,
        serde_json::json!({"username": "dana", "role": "dealer"})
    );
    assert_eq!(count(&app.database.db, "login").await, 1);
}

async fn a_wrong_password_shows_the_error_beside_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, false).await;
    let mut b = Browser::new(&app);
    let page = b.login("dana", "not-the-password").await;
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains("<p class=\"error\" id=\"password-error\">wrong user name or password</p>"),
        "{}",
        page.body
    );
    assert!(
        page.body.contains("value=\"dana\""),
        "the user name is kept"
    );
    assert!(
        !page.body.contains("not-the-password"),
        "the password is not"
    );
    assert!(!b.cookies.contains_key("pitbook_session"));

    let unknown = b.login("nobody", "whatever-it-is").await;
    assert!(unknown.body.contains("wrong user name or password"));
    let empty = b.login("", "whatever-it-is").await;
    assert!(
        empty
            .body
            .contains("id=\"username-error\">enter your user name")
    );

    // Failures are summarised per user name and address when their window
    // closes (or at a success from there): none is a record of its own yet.
    assert_eq!(count(&app.database.db, "login_failures").await, 0);
    assert_eq!(count(&app.database.db, "login_failed").await, 0);
}

async fn failures_before_a_success_are_summarised_with_it(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, false).await;
    let mut b = Browser::new(&app);
    for _ in 0..3 {
        let page = b.login("dana", "wrong-password-x").await;
        assert!(page.body.contains("wrong user name or password"));
    }
    assert_eq!(b.login("dana", PASSWORD).await.location, "/");
    let kinds: Vec<_> = event_types(&app.database.db)
        .await
        .into_iter()
        .map(|(e, actor)| format!("{e} {actor}"))
        .skip(3)
        .collect();
    assert_eq!(kinds, ["login_failures dana", "login dana"]);
    let mut summary = None;
    pitbook::store::audit::for_each_record(&app.database.db, None, None, |r| {
        if r.event_type == "login_failures" {
            summary = Some(serde_json::from_str::<serde_json::Value>(&r.payload).expect("json"));
        }
    })
    .await
    .expect("records");
    let summary = summary.expect("a summary");
    assert_eq!(summary["username"], "dana");
    assert_eq!(summary["address"], "127.0.0.1");
    assert_eq!(summary["count"], 3);
    assert!(
        summary["window_start"]
            .as_str()
            .expect("time")
            .ends_with('Z')
    );
    assert_chain_verifies(&app.database.db).await;
}

async fn a_form_without_its_csrf_token_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, false).await;
    let mut b = Browser::new(&app);
    b.csrf("/login").await;
    let page = b
        .post("/login", &[("username", "dana"), ("password", PASSWORD)])
        .await;
    assert_eq!(page.status, 403);
    assert_eq!(b.login("dana", PASSWORD).await.location, "/");
    for form in [vec![], vec![("csrf", "0".repeat(64))]] {
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        assert_eq!(b.post("/logout", &form).await.status, 403);
        assert_eq!(b.post("/password", &form).await.status, 403);
    }
    assert_eq!(b.get("/").await.status, 200, "still signed in");
    assert_eq!(count(&app.database.db, "logout").await, 0);
}

async fn an_expired_session_leads_back_to_login(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, false).await;
    let db = &app.database.db;
    for column in ["last_seen_at", "created_at"] {
        let mut b = Browser::new(&app);
        assert_eq!(b.login("dana", PASSWORD).await.location, "/");
        assert_eq!(b.get("/").await.status, 200);
        sql(
            db,
            &format!("UPDATE staff_sessions SET {column} = '2026-01-01T00:00:00.000000Z'"),
        )
        .await;
        let page = b.get("/").await;
        assert_eq!(
            (page.status, page.location.as_str()),
            (303, "/login"),
            "{column}"
        );
        let api = b.get("/api/v1/me").await;
        assert_eq!(api.status, 401);
        assert!(api.body.contains("unauthenticated"));
    }
    // The idle limit is 30 minutes: 29 minutes idle is still a session.
    let mut b = Browser::new(&app);
    b.login("dana", PASSWORD).await;
    let recent = (chrono::Utc::now() - chrono::Duration::minutes(29))
        .format("%Y-%m-%dT%H:%M:%S%.6fZ")
        .to_string();
    sql(
        db,
        &format!("UPDATE staff_sessions SET last_seen_at = '{recent}'"),
    )
    .await;
    assert_eq!(b.get("/").await.status, 200);
}

async fn every_login_gets_a_new_session_id(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, false).await;
    let mut b = Browser::new(&app);
    b.login("dana", PASSWORD).await;
    let first = b.cookies["pitbook_session"].clone();
    b.login("dana", PASSWORD).await;
    let second = b.cookies["pitbook_session"].clone();
    assert_ne!(first, second);
    assert_eq!(first.len(), 64);
    // Only the hash of the id is stored.
    let stored: Vec<String> = match &app.database.db {
        Db::Sqlite(p) => {
            sqlx::query_scalar("SELECT id_hash FROM staff_sessions")
                .fetch_all(p)
                .await
        }
        Db::Postgres(p) => {
            sqlx::query_scalar("SELECT id_hash FROM staff_sessions")
                .fetch_all(p)
                .await
        }
    }
    .expect("ids");
    assert_eq!(stored.len(), 2);
    assert!(!stored.contains(&first) && !stored.contains(&second));
}

async fn a_one_time_password_must_be_changed_first(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "sam", Role::Supervisor, true).await;
    let mut b = Browser::new(&app);
    assert_eq!(b.login("sam", PASSWORD).await.location, "/password");
    assert_eq!(b.get("/").await.location, "/password");
    assert_eq!(b.get("/api/v1/me").await.status, 403);
    let csrf = b.csrf("/password").await;
    let post = |current: &'static str, new: &'static str, confirm: &'static str| {
        vec![
            ("csrf", csrf.clone()),
            ("current", current.into()),
            ("new", new.into()),
            ("confirm", confirm.into()),
        ]
    };
    for (form, field, message) in [
        (
            post(PASSWORD, "brand-new-secret-1", "brand-new-secret-2"),
            "confirm",
            "the two new passwords differ",
        ),
        (
            post(
                "not-my-password",
                "brand-new-secret-1",
                "brand-new-secret-1",
            ),
            "current",
            "wrong password",
        ),
        (
            post(PASSWORD, "short", "short"),
            "new",
            "at least 12 characters",
        ),
        (
            post(PASSWORD, PASSWORD, PASSWORD),
            "new",
            "other than the current one",
        ),
    ] {
        let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let page = b.post("/password", &form).await;
        assert_eq!(page.status, 200);
        assert!(
            page.body.contains(&format!("id=\"{field}-error\">")),
            "{field}: {}",
            page.body
        );
        assert!(page.body.contains(message), "{message}");
        assert!(!page.body.contains("brand-new-secret"));
    }
    let ok = post(PASSWORD, "brand-new-secret-1", "brand-new-secret-1");
    let ok: Vec<(&str, &str)> = ok.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(b.post("/password", &ok).await.location, "/");
    assert_eq!(b.get("/").await.status, 200);

    let mut other = Browser::new(&app);
    assert!(
        other
            .login("sam", PASSWORD)
            .await
            .body
            .contains("wrong user name or password")
    );
    assert_eq!(other.login("sam", "brand-new-secret-1").await.location, "/");
    assert_eq!(count(&app.database.db, "password_changed").await, 1);
}

async fn roles_are_checked_and_denials_recorded(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "ada", Role::Admin, false).await;
    add(&app, "aud", Role::Auditor, false).await;
    let mut auditor = Browser::new(&app);
    auditor.login("aud", PASSWORD).await;
    let page = auditor.get("/users").await;
    assert_eq!(page.status, 403);
    assert!(
        page.body.contains("the auditor role may not do this"),
        "{}",
        page.body
    );
    let mut admin = Browser::new(&app);
    admin.login("ada", PASSWORD).await;
    assert!(admin.get("/").await.body.contains("href=\"/users\""));
    let page = admin.get("/users").await;
    assert_eq!(page.status, 200);
    assert!(
        page.body
            .contains("<td>aud</td><td>auditor</td><td>active</td>"),
        "{}",
        page.body
    );
    let denied: Vec<_> = event_types(&app.database.db)
        .await
        .into_iter()
        .filter(|(e, _)| e == "permission_denied")
        .collect();
    assert_eq!(
        denied,
        [("permission_denied".to_string(), "aud".to_string())]
    );
}

async fn logout_ends_the_session_and_every_kind_is_audited(backend: Backend) {
    let app = spawn_app(backend).await;
    add(&app, "dana", Role::Dealer, true).await;
    let mut b = Browser::new(&app);
    b.login("dana", "wrong-password-x").await;
    b.login("dana", PASSWORD).await;
    let csrf = b.csrf("/password").await;
    let form = [
        ("csrf", csrf.as_str()),
        ("current", PASSWORD),
        ("new", "a-new-password-1"),
        ("confirm", "a-new-password-1"),
    ];
    assert_eq!(b.post("/password", &form).await.location, "/");
    assert_eq!(b.get("/users").await.status, 403);
    let csrf = csrf_of(&b.get("/").await.body);
    let page = b.post("/logout", &[("csrf", &csrf)]).await;
    assert_eq!((page.status, page.location.as_str()), (303, "/login"));
    assert!(!b.cookies.contains_key("pitbook_session"));
    assert_eq!(b.get("/").await.location, "/login");

    let kinds: Vec<String> = event_types(&app.database.db)
        .await
        .into_iter()
        .map(|(e, _)| e)
        .collect();
    assert_eq!(
        kinds,
        [
            "user_added", // the harness's test admin and its token
            "token_issued",
            "user_added",
            "login_failures",
            "login",
            "password_changed",
            "permission_denied",
            "logout"
        ]
    );
    assert_chain_verifies(&app.database.db).await;
}

/// `pitbook user add` through the real binary, with the password on stdin.
fn user_add(url: &str, args: &[&str], stdin: &str) -> (i32, String, String) {
    let mut child = Command::new(BIN)
        .args(["user", "add"])
        .args(args)
        .args(["--database-url", url])
        .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("spawn");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(stdin.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code().expect("code"),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

async fn user_add_on_the_command_line(backend: Backend) {
    let app = spawn_app(backend).await;
    let url = app.database.url.clone();
    let run = move |args: &'static [&'static str], stdin: &'static str| {
        let url = url.clone();
        async move {
            tokio::task::spawn_blocking(move || user_add(&url, args, stdin))
                .await
                .expect("join")
        }
    };
    let (code, out, err) = run(&["dana", "--role", "dealer"], "correct-horse-battery\n").await;
    assert_eq!(
        (code, out.as_str()),
        (0, "added user \"dana\" (dealer)\n"),
        "{err}"
    );
    for (args, stdin, message) in [
        (
            &["dana", "--role", "dealer"][..],
            "correct-horse-battery\n",
            "\"dana\" already exists",
        ),
        (
            &["Dana", "--role", "dealer"][..],
            "correct-horse-battery\n",
            "NAME: \"D\" is not allowed",
        ),
        (
            &["eve", "--role", "boss"][..],
            "correct-horse-battery\n",
            "--role: \"boss\" is not a role",
        ),
        (
            &["eve", "--role", "dealer"][..],
            "short\n",
            "password: at least 12 characters",
        ),
    ] {
        let (code, out, err) = run(args, stdin).await;
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(out.is_empty());
        assert!(err.contains(message), "{args:?}: {err}");
    }
    let mut b = Browser::new(&app);
    assert_eq!(b.login("dana", PASSWORD).await.location, "/");
    // The harness's test admin, then dana.
    assert_eq!(count(&app.database.db, "user_added").await, 2);
    assert_chain_verifies(&app.database.db).await;
}

/// `serve` on a database without accounts creates `admin` and prints its
/// one-time password once; a second start does not.
async fn the_first_start_creates_admin(backend: Backend) {
    let database = crate::common::TestDb::new(backend).await;
    let dir = tempfile::tempdir().expect("dir");
    let start = |url: String, dir: std::path::PathBuf| {
        tokio::task::spawn_blocking(move || {
            let mut child = Command::new(BIN)
                .args([
                    "serve",
                    "--bind",
                    "127.0.0.1:0",
                    "--log-format",
                    "json",
                    "--database-url",
                    &url,
                ])
                .current_dir(dir)
                .env("PITBOOK_AUDIT_KEY", TEST_KEY_HEX)
                .stderr(Stdio::piped())
                .spawn()
                .expect("spawn");
            let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
            let mut first_start = Vec::new();
            let address = loop {
                let line = lines.next().expect("a line").expect("utf-8");
                let record: serde_json::Value = serde_json::from_str(&line).expect("json log");
                let message = record["message"].as_str().unwrap_or_default().to_string();
                if message.contains("first start") {
                    first_start.push(message);
                } else if message == "pitbook listening" {
                    break record["address"].as_str().expect("address").to_string();
                }
            };
            std::thread::spawn(move || for _ in lines.by_ref() {});
            (child, address, first_start)
        })
    };
    let (mut child, address, lines) = start(database.url.clone(), dir.path().into())
        .await
        .expect("join");
    assert_eq!(lines.len(), 1, "{lines:?}");
    let prefix = "pitbook: first start: created user \"admin\" with one-time password ";
    assert!(lines[0].starts_with(prefix), "{}", lines[0]);
    assert!(
        lines[0].ends_with(" — change it at first login"),
        "{}",
        lines[0]
    );
    let password = lines[0][prefix.len()..]
        .split(' ')
        .next()
        .expect("password")
        .to_string();
    assert_eq!(password.len(), 24);

    let mut b = Browser::at(&format!("http://{address}"));
    assert_eq!(b.login("admin", &password).await.location, "/password");
    child.kill().expect("kill");
    child.wait().expect("wait");

    let (mut child, _, lines) = start(database.url.clone(), dir.path().into())
        .await
        .expect("join");
    assert!(lines.is_empty(), "{lines:?}");
    child.kill().expect("kill");
    child.wait().expect("wait");
    assert_eq!(count(&database.db, "user_added").await, 1);
}

on_both_databases!(
    login_leads_home_showing_the_user,
    a_wrong_password_shows_the_error_beside_the_field,
    failures_before_a_success_are_summarised_with_it,
    a_form_without_its_csrf_token_is_refused,
    an_expired_session_leads_back_to_login,
    every_login_gets_a_new_session_id,
    a_one_time_password_must_be_changed_first,
    roles_are_checked_and_denials_recorded,
    logout_ends_the_session_and_every_kind_is_audited,
    user_add_on_the_command_line,
    the_first_start_creates_admin,
);
