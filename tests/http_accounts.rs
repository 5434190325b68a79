//! Accounts an admin runs, over HTTP on both databases: `/users` (create
//! with a one-time password, disable, enable, change role, reset, tokens),
//! a password change ending the other sessions, who may verify the chain,
//! the login form's server-issued CSRF value.

mod common;

use common::browser::{csrf_of, signed_in};
use common::{Backend, records, spawn_app};
use pitbook::domain::staff::Role;

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

on_both_databases!(only_auditors_supervisors_and_admins_verify_the_chain,);
