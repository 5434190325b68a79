//! The hand's record in human terms, on both databases: each event first
//! as a sentence on the cardroom's clock ("14:02:11 dana: Ann bets 60.00
//! on seat 4") with the UTC the record keeps beside, and the exact payload
//! kept beneath in a `<details>`.

use crate::common::browser::{plain_text, signed_in};
use crate::common::{Backend, log_records, spawn_app_with};
use crate::http_numbers::{play, whole_hand};
use pitbook::domain::staff::Role;

/// The record page's sentences, in order (`td.sentence`, as read).
fn sentences(html: &str) -> Vec<String> {
    html.split("<td class=\"sentence\">")
        .skip(1)
        .map(|cell| plain_text(&cell[..cell.find("</td>").unwrap()]))
        .collect()
}

async fn the_record_reads_as_sentences_on_the_cardrooms_clock(backend: Backend) {
    let zone: chrono_tz::Tz = "America/Los_Angeles".parse().unwrap();
    let app = spawn_app_with(backend, |s| s.with_time_zone(zone)).await;
    app.configured_table("T1", false).await;
    let id = play(&app, whole_hand("T1", "200", "60", "60")).await;
    let mut sue = signed_in(&app, "sue", Role::Supervisor).await;
    let page = sue.get(&format!("/hands/{id}/record")).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let said = sentences(&page.body);
    let words: Vec<&str> = said
        .iter()
        .map(|s| s.split_once(" test-admin: ").expect("time and who first").1)
        .collect();
    assert_eq!(
        words,
        [
            "Hand opened at table T1, dealer test-admin",
            "Pat is the PD on seat 1, banking 200.00",
            "Ann bets 60.00 on seat 4",
            "Bo bets 60.00 on seat 5",
            "ACTION on seat 4",
            "Seat 4: the PD wins",
            "Seat 5: the player wins",
            "Settlement steps confirmed: Ann's 60.00 on seat 4; Bo's 60.00 on seat 5",
            "The hand is closed and settled; the house collects 0.00",
        ]
    );
    // Each sentence starts with the time of day on the cardroom's clock:
    // the local time shown beside it, with the UTC the record keeps.
    let log = log_records(&app.database.db).await;
    let hand_records = log.iter().filter(|(kind, _, _)| kind != "table_created");
    assert!(hand_records.count() >= 9);
    for s in &said {
        let clock = s.split_once(' ').unwrap().0;
        assert_eq!(clock.len(), 8, "{s}");
        assert!(
            page.body.contains(&format!(" {clock} PST"))
                || page.body.contains(&format!(" {clock} PDT")),
            "{clock} in the cardroom's zone"
        );
    }
    // UTC in each time's tooltip.
    assert!(page.body.contains(" UTC\">"));
    // The exact payloads are kept, beneath each sentence.
    let payloads = page
        .body
        .matches("<details><summary>The record as kept</summary><code class=\"payload\">")
        .count();
    assert_eq!(payloads, 9);
    assert!(
        page.body
            .contains("{&quot;type&quot;:&quot;wager_placed&quot;")
            || page.body.contains("{&#34;type&#34;:&#34;wager_placed&#34;"),
        "{}",
        page.body
    );
}

on_both_databases!(the_record_reads_as_sentences_on_the_cardrooms_clock);
