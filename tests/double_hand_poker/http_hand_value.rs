//! The value page, `/tools/hand-ev`, through the real server on
//! both databases: linked from the house-way preview with the same cards
//! and rules; bad cards, an unknown side or house way refused with 422
//! beside the field, what was typed kept; and one real count of all
//! 53,524,680 banker hands, through the API and the page, its figures
//! pinned (a few seconds of this debug build).

use serde_json::json;

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

/// One hand counted for real: every setting's counts sum to C(46, 7), the
/// first setting's and the house way's are pinned (the release CLI's
/// figures), and the page shows the same values. One count runs at a time
/// per process, so a 409 (the other database's test counting) is asked
/// again, as a client would.
async fn a_hand_is_counted_over_every_banker_hand(backend: Backend) {
    const HANDS: u64 = 53_524_680;
    let app = spawn_app(backend).await;
    let body = loop {
        let (status, body, _) = app
            .post_json(
                "/api/v1/hands/ev",
                &json!({"cards": "Kd Qc Ad Ah 4h 6s Ac"}),
            )
            .await;
        if status != 409 {
            assert_eq!(status, 200, "{body}");
            break body;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert_eq!(body["hands"], HANDS);
    let settings = body["settings"].as_array().unwrap();
    assert_eq!(settings.len(), 21);
    for s in settings {
        let n = |k: &str| s[k].as_u64().unwrap();
        assert_eq!(n("win") + n("push") + n("loss"), HANDS, "{s}");
    }
    let first = &settings[0];
    assert_eq!(
        (&first["win"], &first["push"], &first["loss"], &first["ev"]),
        (
            &json!(24_875_106),
            &json!(27_309_043),
            &json!(1_340_531),
            &json!("0.439696")
        )
    );
    assert_eq!(body["house_way"], 2);
    assert_eq!(settings[2]["ev"], "0.498952");
    assert_eq!(body["cost"], "0");

    let mut dana = table_with_dealer(&app).await;
    let page = loop {
        let page = dana.get("/tools/hand-ev?cards=Kd+Qc+Ad+Ah+4h+6s+Ac").await;
        if page.status != 409 {
            break page;
        }
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
    };
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("id=\"ev-result\""), "{}", page.body);
    for shown in ["0.498952", "0.439696", "24,875,106"] {
        assert!(page.body.contains(shown), "{shown} not on the page");
    }
}

on_both_databases!(
    the_value_page_is_linked_and_refuses_bad_input_beside_the_field,
    a_hand_is_counted_over_every_banker_hand
);
