//! Accounts an admin runs, over HTTP on both databases: `/users` (create
//! with a one-time password, disable, enable, change role, reset, tokens),
//! a password change ending the other sessions, who may verify the chain,
//! the login form's server-issued CSRF value.

use crate::common::browser::{Browser, csrf_of, input_value, signed_in};
use crate::common::{Backend, TEST_ADMIN, TEST_PASSWORD, TestApp, records, spawn_app};
use pitbook::domain::staff::Role;
use serde_json::json;

/// (actor, payload) of every record of `event_type`, in order.
async fn payloads(app: &TestApp, event_type: &str) -> Vec<(String, serde_json::Value)> {
    let mut all = Vec::new();
    pitbook::store::audit::for_each_record(&app.database.db, None, None, |r| {
        if r.event_type == event_type {
            let payload = serde_json::from_str(&r.payload).expect("payload");
            all.push((r.actor.clone(), payload));
        }
    })
    .await
    .expect("records");
    all
}

async fn assert_chain_verifies(app: &TestApp) {
    let report =
        pitbook::store::verify::verify(&app.database.db, &crate::common::test_key(), 1, None)
            .await
            .expect("verify");
    assert!(report.ok(), "{report:?}");
}

/// Text as the page shows it (askama escapes quotes).
fn esc(text: &str) -> String {
    text.replace('"', "&#34;")
}

/// The one-time password a `/users` page shows.
fn one_time_password(body: &str) -> String {
    let start = body
        .find("<code id=\"one-time-password\">")
        .unwrap_or_else(|| panic!("no one-time password: {body}"))
        + 29;
    let end = body[start..].find('<').expect("end") + start;
    body[start..end].to_string()
}

async fn an_admin_adds_an_account_with_a_one_time_password(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut ada = signed_in(&app, "ada", Role::Admin).await;
    let csrf = ada.csrf("/users").await;
    let page = ada
        .post(
            "/users",
            &[
                ("csrf", &csrf),
                ("username", "dana"),
                ("staff_role", "dealer"),
            ],
        )
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    let password = one_time_password(&page.body);
    assert_eq!(password.len(), 24);
    assert!(
        page.body
            .contains("<td>dana</td><td>dealer</td><td>password change due</td>"),
        "{}",
        page.body
    );
    // Shown once: the list does not show it again.
    assert!(!ada.get("/users").await.body.contains(&password));
    let mut dana = Browser::new(&app);
    assert_eq!(dana.login("dana", &password).await.location, "/password");
    assert_eq!(
        payloads(&app, "user_added").await.last().expect("added"),
        &(
            "ada".to_string(),
            json!({"username": "dana", "role": "dealer", "must_change_password": true})
        )
    );

    // Refused: the message beside the field, what was typed kept, nothing written.
    let before = records(&app, "user_added").await;
    for (username, role, field, message) in [
        ("Dana", "dealer", "username-error", "\"D\" is not allowed"),
        (
            "dana",
            "dealer",
            "username-error",
            "\"dana\" already exists",
        ),
        ("", "dealer", "username-error", "a user name is required"),
        ("eve", "boss", "role-error", "\"boss\" is not a role"),
    ] {
        let page = ada
            .post(
                "/users",
                &[
                    ("csrf", &csrf),
                    ("username", username),
                    ("staff_role", role),
                ],
            )
            .await;
        assert_eq!(page.status, 422, "{}", page.body);
        assert!(
            page.body.contains(&format!("id=\"{field}\">")) && page.body.contains(&esc(message)),
            "{username} {role}: {}",
            page.body
        );
        assert_eq!(input_value(&page.body, "username"), username);
        assert!(!page.body.contains("one-time-password"));
    }
    assert_eq!(records(&app, "user_added").await, before);
    // Without the form's CSRF token: 403, nothing written.
    let page = ada
        .post("/users", &[("username", "eve"), ("staff_role", "dealer")])
        .await;
    assert_eq!(page.status, 403);
    assert_eq!(records(&app, "user_added").await, before);
    assert_chain_verifies(&app).await;
}

async fn a_disabled_account_stops_at_once_and_can_be_enabled(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let mut dana_too = Browser::new(&app);
    assert_eq!(dana_too.login("dana", TEST_PASSWORD).await.status, 303);
    let token = app.token_for("dana").await;
    let api = app.client_with_token(&token);
    let me = app.url("/api/v1/me");
    assert_eq!(api.get(&me).send().await.expect("me").status(), 200);

    let mut ada = signed_in(&app, "ada", Role::Admin).await;
    let csrf = ada.csrf("/users").await;
    let page = ada.post("/users/dana/disable", &[("csrf", &csrf)]).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(
        page.body
            .contains(&esc("Disabled \"dana\": 2 sessions signed out")),
        "{}",
        page.body
    );
    assert!(
        page.body
            .contains("<td>dana</td><td>dealer</td><td>disabled</td>")
    );
    assert_eq!(dana.get("/").await.location, "/login");
    assert_eq!(dana_too.get("/").await.location, "/login");
    assert_eq!(api.get(&me).send().await.expect("me").status(), 401);
    let mut again = Browser::new(&app);
    assert_eq!(
        again.login("dana", TEST_PASSWORD).await.status,
        200,
        "no login"
    );
    // Twice is refused beside the row, nothing written.
    let page = ada.post("/users/dana/disable", &[("csrf", &csrf)]).await;
    assert!(
        page.body.contains(&format!(
            "id=\"error-dana\">{}",
            esc("\"dana\" is already disabled")
        )),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "user_disabled").await, 1);

    let page = ada.post("/users/dana/enable", &[("csrf", &csrf)]).await;
    assert!(
        page.body.contains(&esc("Enabled \"dana\".")),
        "{}",
        page.body
    );
    assert_eq!(api.get(&me).send().await.expect("me").status(), 200);
    assert_eq!(again.login("dana", TEST_PASSWORD).await.status, 303);
    assert_eq!(
        payloads(&app, "user_disabled").await,
        [("ada".to_string(), json!({"username": "dana"}))]
    );
    assert_eq!(
        payloads(&app, "sessions_ended").await,
        [(
            "ada".to_string(),
            json!({"username": "dana", "count": 2, "reason": "disabled"})
        )]
    );
    assert_eq!(
        payloads(&app, "user_enabled").await,
        [("ada".to_string(), json!({"username": "dana"}))]
    );
    assert_chain_verifies(&app).await;
}

async fn the_last_enabled_admin_is_kept(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut ada = signed_in(&app, "ada", Role::Admin).await;
    let csrf = ada.csrf("/users").await;
    // Two admins: one may go.
    let page = ada
        .post(&format!("/users/{TEST_ADMIN}/disable"), &[("csrf", &csrf)])
        .await;
    assert!(page.body.contains("Disabled"), "{}", page.body);
    let page = ada.post("/users/ada/disable", &[("csrf", &csrf)]).await;
    assert!(
        page.body.contains(&format!(
            "id=\"error-ada\">{}",
            esc("\"ada\" is the last enabled admin and cannot be disabled")
        )),
        "{}",
        page.body
    );
    let page = ada
        .post(
            "/users/ada/role",
            &[("csrf", &csrf), ("staff_role", "dealer")],
        )
        .await;
    assert!(
        page.body.contains(&format!(
            "id=\"role-error-ada\">{}",
            esc("\"ada\" is the last enabled admin")
        )),
        "{}",
        page.body
    );
    // The role typed is kept in the row's form.
    assert!(
        page.body.contains("<option value=\"dealer\" selected>"),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "role_changed").await, 0);
    assert_eq!(records(&app, "user_disabled").await, 1);
    assert_eq!(ada.get("/users").await.status, 200, "ada is still an admin");
}

async fn a_role_change_applies_at_once_and_is_recorded(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let mut ada = signed_in(&app, "ada", Role::Admin).await;
    let csrf = ada.csrf("/users").await;
    let page = ada
        .post(
            "/users/dana/role",
            &[("csrf", &csrf), ("staff_role", "supervisor")],
        )
        .await;
    assert!(
        page.body
            .contains(&esc("\"dana\" is now supervisor (was dealer).")),
        "{}",
        page.body
    );
    let me: serde_json::Value =
        serde_json::from_str(&dana.get("/api/v1/me").await.body).expect("json");
    assert_eq!(me["role"], "supervisor");
    for (role, message) in [
        ("supervisor", "\"dana\" is already supervisor"),
        ("root", "\"root\" is not a role"),
    ] {
        let page = ada
            .post("/users/dana/role", &[("csrf", &csrf), ("staff_role", role)])
            .await;
        assert_eq!(page.status, 422, "{}", page.body);
        assert!(
            page.body
                .contains(&format!("id=\"role-error-dana\">{}", esc(message))),
            "{}",
            page.body
        );
    }
    let page = ada
        .post(
            "/users/nobody/role",
            &[("csrf", &csrf), ("staff_role", "dealer")],
        )
        .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(!page.body.contains("is now"));
    assert_eq!(
        payloads(&app, "role_changed").await,
        [(
            "ada".to_string(),
            json!({"username": "dana", "from": "dealer", "to": "supervisor"})
        )]
    );
}

async fn a_reset_password_is_shown_once_and_must_be_changed(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let mut ada = signed_in(&app, "ada", Role::Admin).await;
    let csrf = ada.csrf("/users").await;
    let page = ada
        .post("/users/dana/reset-password", &[("csrf", &csrf)])
        .await;
    let password = one_time_password(&page.body);
    assert!(page.body.contains("1 sessions signed out"), "{}", page.body);
    assert_eq!(dana.get("/").await.location, "/login");
    let mut b = Browser::new(&app);
    assert_eq!(
        b.login("dana", TEST_PASSWORD).await.status,
        200,
        "the old one fails"
    );
    assert_eq!(b.login("dana", &password).await.location, "/password");
    assert_eq!(
        payloads(&app, "password_reset").await,
        [("ada".to_string(), json!({"username": "dana"}))]
    );
    assert_eq!(
        payloads(&app, "sessions_ended").await,
        [(
            "ada".to_string(),
            json!({"username": "dana", "count": 1, "reason": "password_reset"})
        )]
    );
}

async fn an_admin_lists_and_revokes_tokens(backend: Backend) {
    let app = spawn_app(backend).await;
    app.add_user("dana", Role::Dealer).await;
    let token = app.token_for("dana").await;
    let api = app.client_with_token(&token);
    let mut ada = signed_in(&app, "ada", Role::Admin).await;
    let page = ada.get("/users/dana/tokens").await;
    assert_eq!(page.status, 200);
    let id = input_value(&page.body, "token_id");
    assert!(
        page.body.contains(&format!("<tr id=\"token-{id}\">")),
        "{}",
        page.body
    );
    assert!(
        !page.body.contains(&token),
        "the token itself is never shown"
    );
    let csrf = csrf_of(&page.body);
    let page = ada
        .post(
            "/users/dana/tokens/revoke",
            &[("csrf", &csrf), ("token_id", &id)],
        )
        .await;
    assert!(
        page.body.contains(&format!("Revoked API token {id}")),
        "{}",
        page.body
    );
    assert!(page.body.contains("revoked 20"), "{}", page.body);
    let me = app.url("/api/v1/me");
    assert_eq!(api.get(&me).send().await.expect("me").status(), 401);
    let page = ada
        .post(
            "/users/dana/tokens/revoke",
            &[("csrf", &csrf), ("token_id", &id)],
        )
        .await;
    assert!(
        page.body.contains("id=\"id-error\">no live token"),
        "{}",
        page.body
    );
    assert_eq!(
        payloads(&app, "token_revoked").await,
        [(
            "ada".to_string(),
            json!({"username": "dana", "token_id": id, "label": "test"})
        )]
    );
    assert_eq!(ada.get("/users/nobody/tokens").await.status, 404);
}

async fn only_admins_run_accounts(backend: Backend) {
    let app = spawn_app(backend).await;
    app.add_user("dana", Role::Dealer).await;
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let csrf = csrf_of(&sam.get("/").await.body);
    let posts: [(&str, &[(&str, &str)]); 6] = [
        ("/users", &[("username", "eve"), ("staff_role", "admin")]),
        ("/users/dana/disable", &[]),
        ("/users/dana/enable", &[]),
        ("/users/sam/role", &[("staff_role", "admin")]),
        ("/users/dana/reset-password", &[]),
        ("/users/test-admin/tokens/revoke", &[("token_id", "x")]),
    ];
    let mut denied = 0;
    for (path, fields) in posts {
        let mut form = vec![("csrf", csrf.as_str())];
        form.extend_from_slice(fields);
        let page = sam.post(path, &form).await;
        assert_eq!(page.status, 403, "{path}");
        assert!(
            page.body.contains("the supervisor role may not do this"),
            "{path}"
        );
        denied += 1;
    }
    for path in ["/users", "/users/dana/tokens"] {
        assert_eq!(sam.get(path).await.status, 403, "{path}");
        denied += 1;
    }
    // Without the form's CSRF token the request is refused before the role
    // is looked at: 403, and it is not a permission_denied record (a forged
    // cross-site post is not the signed-in user trying).
    for (path, fields) in posts {
        let page = sam.post(path, fields).await;
        assert_eq!(page.status, 403, "{path} without csrf");
        assert!(
            !page.body.contains("the supervisor role may not do this"),
            "{path}: refused for its CSRF token, not the role: {}",
            page.body
        );
    }
    assert_eq!(records(&app, "permission_denied").await, denied);
    for kind in [
        "user_added",
        "user_disabled",
        "role_changed",
        "password_reset",
    ] {
        let expected = if kind == "user_added" { 3 } else { 0 };
        assert_eq!(records(&app, kind).await, expected, "{kind}");
    }
}

async fn a_password_change_signs_out_the_other_sessions(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut here = signed_in(&app, "dana", Role::Dealer).await;
    let mut there = Browser::new(&app);
    assert_eq!(there.login("dana", TEST_PASSWORD).await.status, 303);
    let mut third = Browser::new(&app);
    assert_eq!(third.login("dana", TEST_PASSWORD).await.status, 303);
    let csrf = here.csrf("/password").await;
    let new = "a-brand-new-password";
    let page = here
        .post(
            "/password",
            &[
                ("csrf", &csrf),
                ("current", TEST_PASSWORD),
                ("new", new),
                ("confirm", new),
            ],
        )
        .await;
    assert_eq!(page.location, "/?signed_out=2");
    let home = here.get(&page.location).await;
    assert!(
        home.body.contains("your other 2 sessions were signed out"),
        "{}",
        home.body
    );
    assert_eq!(here.get("/").await.status, 200, "this session stays");
    assert_eq!(there.get("/").await.location, "/login");
    assert_eq!(third.get("/").await.location, "/login");
    assert_eq!(
        payloads(&app, "sessions_ended").await,
        [(
            "dana".to_string(),
            json!({"username": "dana", "count": 2, "reason": "password_changed"})
        )]
    );
}

async fn a_self_made_login_csrf_pair_is_refused(backend: Backend) {
    let app = spawn_app(backend).await;
    app.add_user("dana", Role::Dealer).await;
    let mut b = Browser::new(&app);
    // A value the server never issued, sent as both the cookie and the field.
    let made_up = "ab".repeat(32);
    b.cookies
        .insert("pitbook_login_csrf".to_string(), made_up.clone());
    let page = b
        .post(
            "/login",
            &[
                ("csrf", &made_up),
                ("username", "dana"),
                ("password", TEST_PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, 403, "{}", page.body);
    assert!(!b.cookies.contains_key("pitbook_session"));
    // The server's own value passes, but only with its cookie.
    let issued = b.csrf("/login").await;
    assert_ne!(issued, made_up);
    b.cookies
        .insert("pitbook_login_csrf".to_string(), made_up.clone());
    let page = b
        .post(
            "/login",
            &[
                ("csrf", &issued),
                ("username", "dana"),
                ("password", TEST_PASSWORD),
            ],
        )
        .await;
    assert_eq!(page.status, 403);
    assert_eq!(b.login("dana", TEST_PASSWORD).await.status, 303);
    assert_eq!(records(&app, "login").await, 1);
}

async fn only_auditors_supervisors_and_admins_verify_the_chain(backend: Backend) {
    let app = spawn_app(backend).await;
    for (name, role, allowed) in [
        ("dana", Role::Dealer, false),
        ("tess", Role::Trainee, false),
        ("audrey", Role::Auditor, true),
        ("sam", Role::Supervisor, true),
        ("ada", Role::Admin, true),
    ] {
        let mut b = signed_in(&app, name, role).await;
        let page = b.get("/chain").await;
        assert_eq!(page.status, 200, "{name} reads the chain page");
        assert_eq!(page.body.contains("id=\"verify-form\""), allowed, "{name}");
        let csrf = csrf_of(&b.get("/").await.body);
        let before = records(&app, "chain_verified").await;
        let page = b.post("/chain", &[("csrf", &csrf)]).await;
        if allowed {
            assert_eq!((page.status, page.location.as_str()), (303, "/chain"));
            assert_eq!(records(&app, "chain_verified").await, before + 1, "{name}");
        } else {
            assert_eq!(page.status, 403, "{name}: {}", page.body);
            assert!(page.body.contains("may not do this"), "{}", page.body);
            assert_eq!(records(&app, "chain_verified").await, before, "{name}");
        }
    }
    assert_eq!(records(&app, "permission_denied").await, 2);
}

on_both_databases!(
    only_auditors_supervisors_and_admins_verify_the_chain,
    an_admin_adds_an_account_with_a_one_time_password,
    a_disabled_account_stops_at_once_and_can_be_enabled,
    the_last_enabled_admin_is_kept,
    a_role_change_applies_at_once_and_is_recorded,
    a_reset_password_is_shown_once_and_must_be_changed,
    an_admin_lists_and_revokes_tokens,
    only_admins_run_accounts,
    a_password_change_signs_out_the_other_sessions,
    a_self_made_login_csrf_pair_is_refused,
);
