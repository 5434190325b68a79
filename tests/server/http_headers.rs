//! Browser hardening: every page and API response carries the
//! Content-Security-Policy, nosniff, no Referer, no framing and
//! `Cache-Control: no-store` (the stylesheet may be cached), and no page
//! needs an inline script or style the policy would block.

use crate::common::browser::{Browser, signed_in};
use crate::common::play::{dana_banks_200, open_hand, table_with_dealer};
use crate::common::{Backend, spawn_app};
use pitbook::domain::staff::Role;

const CSP: &str = "default-src 'self'; base-uri 'none'; form-action 'self'; \
                   frame-ancestors 'none'; object-src 'none'";

fn header<'a>(r: &'a reqwest::Response, name: &str) -> &'a str {
    r.headers()
        .get(name)
        .map(|v| v.to_str().expect("ascii header"))
        .unwrap_or_else(|| panic!("{} has no {name}", r.url()))
}

/// The hardening headers; `cache` is the Cache-Control expected.
fn assert_hardened(r: &reqwest::Response, cache: &str) {
    let what = format!("{} {}", r.status(), r.url());
    assert_eq!(header(r, "content-security-policy"), CSP, "{what}");
    assert_eq!(header(r, "x-content-type-options"), "nosniff", "{what}");
    assert_eq!(header(r, "referrer-policy"), "no-referrer", "{what}");
    assert_eq!(header(r, "x-frame-options"), "DENY", "{what}");
    assert_eq!(header(r, "cache-control"), cache, "{what}");
}

/// Nothing in a page that `default-src 'self'` without 'unsafe-inline'
/// would block.
fn assert_no_inline_code(path: &str, html: &str) {
    let lower = html.to_ascii_lowercase();
    for needle in ["style=", "<style", "javascript:"] {
        assert!(!lower.contains(needle), "{path} has {needle}");
    }
    // A script only from the app's own /static/, with nothing inline.
    for (i, _) in lower.match_indices("<script") {
        let tag = &lower[i..];
        let external = tag.starts_with("<script src=\"/static/")
            && tag
                .find('>')
                .is_some_and(|end| tag[end + 1..].starts_with("</script>"));
        assert!(external, "{path} has an inline <script>");
    }
    // Event handler attributes: ` onclick=`, ` onsubmit=` …
    for (i, _) in lower.match_indices(" on") {
        let rest = &lower[i + 3..];
        let name: String = rest.chars().take_while(char::is_ascii_lowercase).collect();
        assert!(
            name.is_empty() || !rest[name.len()..].starts_with('='),
            "{path} has an on{name}= handler"
        );
    }
}

async fn get(b: &Browser, path: &str) -> reqwest::Response {
    b.client
        .get(format!("{}{path}", b.address))
        .header("cookie", b.cookie_header())
        .send()
        .await
        .expect("get")
}

async fn every_page_and_api_response_is_hardened(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = open_hand(&mut dana).await;
    dana_banks_200(&mut dana, &hand).await;
    let admin = signed_in(&app, "ada", Role::Admin).await;

    let mut pages = vec![
        (&admin, "/".to_string()),
        (&admin, "/password".to_string()),
        (&admin, "/users".to_string()),
        (&admin, "/tables".to_string()),
        (&admin, "/tables/DHP-1".to_string()),
        (&admin, "/chain".to_string()),
        (&admin, "/dice".to_string()),
        (&admin, "/tripoley".to_string()),
        (&dana, hand.clone()),
        (&dana, format!("{hand}/record")),
    ];
    let anonymous = Browser::new(&app);
    pages.push((&anonymous, "/login".to_string()));
    for (b, path) in &pages {
        let r = get(b, path).await;
        assert_eq!(r.status().as_u16(), 200, "{path}");
        assert_hardened(&r, "no-store");
        let html = r.text().await.unwrap();
        assert!(html.contains("/static/pitbook.css"), "{path}");
        assert_no_inline_code(path, &html);
    }
    // Redirects, refusals and unknown paths too.
    for (b, path, status) in [
        (&anonymous, "/", 303),
        (&anonymous, "/no/such/page", 404),
        (&dana, "/users", 403),
    ] {
        let r = get(b, path).await;
        assert_eq!(r.status().as_u16(), status, "{path}");
        assert_hardened(&r, "no-store");
    }

    // The stylesheet may be cached; it has the other headers.
    let css = get(&anonymous, "/static/pitbook.css").await;
    assert_eq!(css.status().as_u16(), 200);
    assert_hardened(&css, "public, max-age=3600");
    let script = get(&anonymous, "/static/enhance.js").await;
    assert_eq!(script.status().as_u16(), 200);
    assert_hardened(&script, "public, max-age=3600");

    // The API: data, errors, probes.
    let api = |path: &str| app.client.get(app.url(path)).send();
    for (path, status) in [
        ("/healthz", 200),
        ("/readyz", 200),
        ("/api/v1/me", 200),
        ("/api/v1/hands/eval?cards=As+Ks+Qs+Js+Ts", 200),
        ("/api/v1/hands/0190d5a0-0000-7000-8000-000000000000", 404),
    ] {
        let r = api(path).await.expect("api");
        assert_eq!(r.status().as_u16(), status, "{path}");
        assert_hardened(&r, "no-store");
    }
    let unauthenticated = reqwest::get(app.url("/api/v1/me")).await.unwrap();
    assert_eq!(unauthenticated.status().as_u16(), 401);
    assert_hardened(&unauthenticated, "no-store");
    let bad = app
        .client
        .post(app.url("/api/v1/settle"))
        .body("{")
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status().as_u16(), 422);
    assert_hardened(&bad, "no-store");
}

on_both_databases!(every_page_and_api_response_is_hardened);

/// Every template and every piece of HTML/SVG the web shell writes: no
/// inline style or script (the CSP has no 'unsafe-inline').
#[test]
fn no_template_or_drawing_has_inline_style_or_script() {
    let root = env!("CARGO_MANIFEST_DIR");
    let mut files = Vec::new();
    let mut dirs = vec![
        std::path::PathBuf::from(format!("{root}/templates")),
        std::path::PathBuf::from(format!("{root}/src/web")),
    ];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("read dir") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else {
                files.push(path);
            }
        }
    }
    assert!(files.len() > 20, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).expect("read");
        // This check's own needles live in tests/, not here.
        assert_no_inline_code(&path.display().to_string(), &text);
    }
}
