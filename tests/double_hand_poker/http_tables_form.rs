//! The table form: its own example schedule, submitted as it is,
//! is accepted; a schedule refused by the probe hand is shown beside the
//! schedule in the form's words (a bracket by its number, never an internal
//! path), with what was typed kept; the assign-dealer refusal sits beside
//! its field with the name kept. The same checks over the JSON API.

use crate::common::browser::{Browser, Page, signed_in};
use crate::common::play::{attr, create_table, form_html, submit};
use crate::common::{Backend, bad_input_body, spawn_app};
use pitbook::domain::staff::Role;
use serde_json::json;

/// The text of the error beside field `id` (`<p class="error" id="{id}-error">`).
fn error_beside(page: &Page, id: &str) -> String {
    let needle = format!("id=\"{id}-error\">");
    let start = page
        .body
        .find(&needle)
        .unwrap_or_else(|| panic!("no error beside {id}:\n{}", page.body))
        + needle.len();
    let end = page.body[start..].find("</p>").expect("end") + start;
    page.body[start..end].to_string()
}

/// The placeholder the form shows for `id`.
async fn placeholder(b: &mut Browser, id: &str) -> String {
    let page = b.get("/tables").await;
    let form = form_html(&page.body, "new-table");
    let at = form.find(&format!("id=\"{id}\"")).expect("field");
    attr(&form[at..], "placeholder")
}

async fn the_forms_example_schedule_is_accepted_as_it_is(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let example = placeholder(&mut sue, "player_schedule").await;
    assert_eq!(example, "1-100:1, 100.01-5000:2");
    let page = create_table(
        &mut sue,
        "EX-1",
        &[("player_schedule", &example), ("bank_schedule", &example)],
    )
    .await;
    assert_eq!(
        (page.status, page.location.as_str()),
        (303, "/tables/EX-1"),
        "{}",
        page.body
    );
    let page = sue.get("/tables/EX-1").await;
    assert!(
        page.body.contains("1.00-100.00:1.00, 100.01-5000.00:2.00"),
        "{}",
        page.body
    );
    // With a minimum wager the probe hand wagers that minimum.
    let page = create_table(
        &mut sue,
        "EX-2",
        &[
            ("player_schedule", &example),
            ("wager_min", "5"),
            ("wager_max", "500"),
        ],
    )
    .await;
    assert_eq!(page.status, 303, "{}", page.body);
    // The same schedule over the JSON API.
    let schedule = json!([{"from": "1", "to": "100", "fee": "1"}, {"from": "100.01", "to": "5000", "fee": "2"}]);
    let (status, body) = app
        .post_raw(
            "/api/v1/tables",
            &json!({"name": "EX-3", "profile": "lucky-chances", "seats": 7,
                    "player_schedule": schedule, "bank_schedule": schedule})
            .to_string(),
        )
        .await;
    assert_eq!(status, 201, "{body}");
}

async fn a_refused_schedule_is_beside_it_in_plain_words_and_kept(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let cases = [
        (
            vec![("player_schedule", "1-100:1, 50-200:2")],
            "player_schedule",
            "brackets 1.00..100.00 and 50.00..200.00 overlap",
        ),
        (
            vec![
                ("player_schedule", "1-100:1, 100.01-5000:2"),
                ("wager_min", "0.50"),
            ],
            "player_schedule",
            "no bracket covers the smallest wager, 0.50",
        ),
        (
            vec![("bank_schedule", "1-100:1.005")],
            "bank_schedule",
            "bracket 1 (fee): ",
        ),
        (
            vec![("bank_schedule", "1-100")],
            "bank_schedule",
            "is not FROM-TO:FEE",
        ),
    ];
    for (fields, id, words) in cases {
        let page = create_table(&mut sue, "BAD-1", &fields).await;
        assert_eq!(page.status, 422, "{fields:?}: {}", page.body);
        let error = error_beside(&page, id);
        assert!(error.contains(words), "{fields:?}: {error}");
        for internal in ["collection.", "wagers[", "pd.bank", "probe"] {
            assert!(!error.contains(internal), "{fields:?}: {error}");
        }
        // What was typed is kept, and the message is shown once.
        for (name, value) in &fields {
            assert!(
                page.body.contains(&format!("value=\"{value}\"")),
                "{name}: {}",
                page.body
            );
        }
        assert_eq!(
            page.body.matches("class=\"error\"").count(),
            1,
            "{}",
            page.body
        );
    }
    let page = sue.get("/tables").await;
    assert!(page.body.contains("No tables yet"), "nothing was created");
    // The JSON API names the same field.
    let (status, body) = app
        .post_raw(
            "/api/v1/tables",
            &json!({"name": "BAD-2", "profile": "lucky-chances", "seats": 7,
                    "player_schedule": [{"from": "1", "to": "100", "fee": "1"},
                                        {"from": "50", "to": "200", "fee": "2"}]})
            .to_string(),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (field, message) = bad_input_body(&body);
    assert_eq!(field, "player_schedule");
    assert!(
        message.contains("overlap") && !message.contains("collection."),
        "{message}"
    );
}

async fn the_assign_dealer_refusal_is_beside_its_field_with_the_name_kept(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    assert_eq!(create_table(&mut sue, "DHP-1", &[]).await.status, 303);
    app.add_user("audrey", Role::Auditor).await;
    let cases = [
        ("nobody", "no active account &#34;nobody&#34;"),
        ("audrey", "only dealers, supervisors and admins run tables"),
    ];
    for (name, words) in cases {
        let page = submit(
            &mut sue,
            "/tables/DHP-1",
            "assign",
            &[("username", name), ("op", "assign")],
        )
        .await;
        assert_eq!(page.status, 422, "{}", page.body);
        let error = error_beside(&page, "username");
        assert!(error.contains(words), "{error}");
        assert!(!error.starts_with("username:"), "{error}");
        let form = form_html(&page.body, "assign");
        assert!(form.contains(&format!("value=\"{name}\"")), "{form}");
        assert!(
            form.contains("autofocus"),
            "the field at fault has the focus: {form}"
        );
    }
    // The API names the body's own field.
    let (status, body) = app
        .post_raw(
            "/api/v1/tables/DHP-1/dealers",
            &json!({"dealer": "nobody", "assigned": true}).to_string(),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    assert_eq!(bad_input_body(&body).0, "dealer");
}

on_both_databases!(
    the_forms_example_schedule_is_accepted_as_it_is,
    a_refused_schedule_is_beside_it_in_plain_words_and_kept,
    the_assign_dealer_refusal_is_beside_its_field_with_the_name_kept,
);
