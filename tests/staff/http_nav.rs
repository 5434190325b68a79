//! The navigation bar by role, on both databases: every signed-in page
//! shows the sections the role may use and no other, each of them opens
//! for that role (never a 403), and the page's own section is marked.

use crate::common::browser::{Browser, signed_in};
use crate::common::{Backend, spawn_app};
use pitbook::domain::staff::Role;

/// The bar's links on a page: (label, href, marked current).
fn bar(html: &str) -> Vec<(String, String, bool)> {
    let Some(start) = html.find("<nav class=\"sections\"") else {
        return Vec::new();
    };
    let nav = &html[start..start + html[start..].find("</nav>").expect("</nav>")];
    nav.split("<a href=\"")
        .skip(1)
        .map(|link| {
            let href = link[..link.find('"').expect("href")].to_string();
            let label =
                link[link.find('>').expect(">") + 1..link.find("</a>").expect("</a>")].to_string();
            (label, href, link.contains("aria-current=\"page\""))
        })
        .collect()
}

async fn sections_of(b: &mut Browser, path: &str) -> Vec<(String, String, bool)> {
    let page = b.get(path).await;
    assert_eq!(page.status, 200, "{path}: {}", page.body);
    bar(&page.body)
}

async fn each_role_sees_and_can_open_its_sections(backend: Backend) {
    let app = spawn_app(backend).await;
    // A supervisor's sections; an admin's are those and Staff.
    const FLOOR: [&str; 9] = [
        "Floor",
        "Tables",
        "History",
        "Shifts",
        "Training",
        "Tripoley",
        "Dice",
        "House ways",
        "Chain",
    ];
    let admin: Vec<&str> = FLOOR.iter().copied().chain(["Staff"]).collect();
    let expected: [(Role, &[&str]); 5] = [
        (Role::Dealer, &["Tables", "Training", "Tripoley", "Dice"]),
        (Role::Trainee, &["Tables", "Training"]),
        (Role::Auditor, &["Floor", "History", "Shifts", "Chain"]),
        (Role::Supervisor, &FLOOR),
        (Role::Admin, &admin),
    ];
    for (role, labels) in expected {
        let mut b = signed_in(&app, &format!("nav-{}", role.as_str()), role).await;
        let home = sections_of(&mut b, "/").await;
        let seen: Vec<&str> = home.iter().map(|(l, _, _)| l.as_str()).collect();
        assert_eq!(seen, labels, "{role:?}");
        assert!(
            home.iter().all(|(_, _, current)| !current),
            "home marks nothing: {home:?}"
        );
        for (label, href, _) in &home {
            // Each section's page opens for the role, and marks itself.
            let there = sections_of(&mut b, href).await;
            let marked: Vec<&str> = there.iter().filter(|s| s.2).map(|s| s.0.as_str()).collect();
            assert_eq!(marked, [label.as_str()], "{role:?} at {href}");
        }
    }
}

async fn a_page_inside_a_section_marks_it(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut b = signed_in(&app, "ada", Role::Admin).await;
    for (path, section) in [
        ("/history/player", "History"),
        ("/tools/house-way", "House ways"),
        ("/users/ada/tokens", "Staff"),
        ("/training/progress", "Training"),
    ] {
        let marked: Vec<String> = sections_of(&mut b, path)
            .await
            .into_iter()
            .filter(|s| s.2)
            .map(|s| s.0)
            .collect();
        assert_eq!(marked, [section], "{path}");
    }
}

on_both_databases!(
    each_role_sees_and_can_open_its_sections,
    a_page_inside_a_section_marks_it,
);
