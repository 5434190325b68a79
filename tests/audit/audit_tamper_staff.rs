//! `audit verify` re-derives every staff account's role and disabled flag
//! from the log and finds a `staff_users` row edited around it, on both
//! databases: reported at the seq of the last record about that account,
//! kind `projection`.

use crate::common::{Backend, TestApp, problem, spawn_app, tamper, test_key};
use pitbook::domain::staff::Role;
use pitbook::store::staff::admin;
use pitbook::store::verify::{self, VerifyReport};

async fn verify(app: &TestApp) -> VerifyReport {
    crate::common::verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await
}

async fn head(app: &TestApp) -> i64 {
    verify::anchor(&app.database.db)
        .await
        .expect("anchor")
        .expect("a head")
        .seq
}

/// The harness's admin (seq 1, 2), then dana added (3) and made a
/// supervisor (4), eve added (5) and disabled (6).
async fn app_with_accounts(backend: Backend) -> TestApp {
    let app = spawn_app(backend).await;
    let (db, key) = (&app.database.db, test_key());
    app.add_user("dana", Role::Dealer).await;
    admin::set_role(db, &key, "test-admin", "dana", Role::Supervisor)
        .await
        .expect("role");
    app.add_user("eve", Role::Dealer).await;
    admin::set_disabled(db, &key, "test-admin", "eve", true)
        .await
        .expect("disable");
    assert_eq!(head(&app).await, 6);
    app
}

async fn untouched_accounts_verify(backend: Backend) {
    let app = app_with_accounts(backend).await;
    let report = verify(&app).await;
    assert!(report.ok(), "{report:?}");
}

async fn an_edited_role_is_detected(backend: Backend) {
    let app = app_with_accounts(backend).await;
    tamper(
        &app.database.db,
        &["UPDATE staff_users SET role = 'admin' WHERE username = 'dana'"],
    )
    .await;
    let report = verify(&app).await;
    assert_eq!(problem(&report), (4, "projection"));
    let message = &report.problem.as_ref().expect("problem").message;
    assert!(message.contains("\"dana\" is stored as admin"), "{message}");
}

async fn an_edited_disabled_flag_is_detected(backend: Backend) {
    let app = app_with_accounts(backend).await;
    tamper(
        &app.database.db,
        &["UPDATE staff_users SET disabled = false WHERE username = 'eve'"],
    )
    .await;
    assert_eq!(problem(&verify(&app).await), (6, "projection"));
    tamper(
        &app.database.db,
        &[
            "UPDATE staff_users SET disabled = true WHERE username = 'eve'",
            "UPDATE staff_users SET disabled = true WHERE username = 'dana'",
        ],
    )
    .await;
    assert_eq!(problem(&verify(&app).await), (4, "projection"));
}

async fn an_account_inserted_by_sql_is_detected(backend: Backend) {
    let app = app_with_accounts(backend).await;
    tamper(
        &app.database.db,
        &["INSERT INTO staff_users (id, username, role, password_hash, must_change_password, disabled, created_at) \
           SELECT 'forged', 'mallory', 'admin', password_hash, false, false, created_at FROM staff_users WHERE username = 'dana'"],
    )
    .await;
    let report = verify(&app).await;
    assert_eq!(problem(&report), (6, "projection"));
    let message = &report.problem.as_ref().expect("problem").message;
    assert!(
        message.contains("\"mallory\" (admin) has no user_added"),
        "{message}"
    );
}

on_both_databases!(
    untouched_accounts_verify,
    an_edited_role_is_detected,
    an_edited_disabled_flag_is_detected,
    an_account_inserted_by_sql_is_detected,
);
