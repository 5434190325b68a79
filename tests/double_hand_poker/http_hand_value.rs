//! The value page, `/tools/hand-ev` (issue 20), through the real server on
//! both databases: linked from the house-way preview with the same cards
//! and rules; bad cards, an unknown side or house way refused with 422
//! beside the field, what was typed kept. (A real count takes seconds of a
//! release build, minutes of this debug one: its figures are tested in the
//! core, `ev_tests.rs`, and its page by `ev_page`'s render test.)

use crate::common::play::{refused_beside_their_fields, table_with_dealer};
use crate::common::{Backend, spawn_app};

async fn the_value_page_is_linked_and_refuses_bad_input_beside_the_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let preview = dana
        .get("/tools/house-way?cards=Kh+Kd+4c+4d+9s+As+Qd&house_way=foxwoods")
        .await;
    assert_eq!(preview.status, 200, "{}", preview.body);
    let link = "href=\"/tools/hand-ev?cards=Kh+Kd+4c+4d+9s+As+Qd&#38;profile=&#38;joker=&#38;wheel=&#38;house_way=foxwoods&#38;hand=\" id=\"ev-link\"";
    assert!(preview.body.contains(link), "{}", preview.body);

    let empty = dana.get("/tools/hand-ev?side=banker").await;
    assert_eq!(empty.status, 200, "{}", empty.body);
    assert!(empty.body.contains("id=\"hand-ev-form\""));
    assert!(empty.body.contains("<option value=\"banker\" selected>"));
    assert!(!empty.body.contains("id=\"ev-result\""));

    // (query, field, words of the message, what was typed kept)
    let bad: &[(&str, &str, &str, &str)] = &[
        (
            "cards=Kh+Kd+4c+4d+9s+As+Kh",
            "cards",
            "card &#34;Kh&#34; appears twice",
            "value=\"Kh Kd 4c 4d 9s As Kh\"",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As",
            "cards",
            "expected 7 cards, got 6",
            "value=\"Kh Kd 4c 4d 9s As\"",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As+Qd&side=dealer",
            "side",
            "&#34;dealer&#34; is not player or banker",
            "<option value=\"dealer\" selected>",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As+Qd&house_way=nowhere",
            "house_way",
            "&#34;nowhere&#34; is not a house way",
            "<option value=\"nowhere\" selected>",
        ),
    ];
    refused_beside_their_fields(&mut dana, "/tools/hand-ev", bad, "ev-result").await;
}

on_both_databases!(the_value_page_is_linked_and_refuses_bad_input_beside_the_field);
