//! The set hands on the guided hand's pages and its record, and the
//! house-way preview page, through the real server on both databases: each
//! seat's high and low as cards and words, the foul and what the foul rule
//! did, the PD's hand set by house way with its rule, each seat's result
//! with the reason; a seat entered as a result says so; the preview shows
//! the setting and the rule and refuses bad cards beside the field.

use crate::common::browser::Browser;
use crate::common::play::{form_html, ok, refused_beside_their_fields, table_with_dealer};
use crate::common::{Backend, spawn_app};

/// A hand with the PD (seat 1) and seats 4 and 5 at 50 each, dice thrown.
async fn hand_at_results(dana: &mut Browser) -> String {
    crate::common::play::hand_at_results(dana, &[("4", "Ann", "50"), ("5", "Bo", "50")]).await
}

/// The PD's seven cards by house way; seat 4 fouls ("K Q 7 4 2 vs A 3" of
/// the rules file, here K Q 7 5 2); seat 5 wins behind and copies in front.
const CARDS: &[(&str, &str)] = &[
    ("mode", "cards"),
    ("cards_1", "Kh Kd 4c 4d 9s As Qd"),
    ("high_4", "Ks Qs 7d 5h 2c"),
    ("low_4", "Ah 3s"),
    ("high_5", "8h 8c 8d 6h 2d"),
    ("low_5", "4s 4h"),
];

/// What every page showing the decided hand must say (HTML-escaped).
const SHOWN: &[&str] = &[
    "id=\"hands-shown\"",
    // The PD's hand, set by house way, and the rule that fired.
    "Seat 1, Dana (PD)",
    "set by house way",
    "House way, rule 5 (Two pair): Two pair: split, lower pair in front.",
    "The rule: If a straight or flush can be played behind",
    "Pair of kings",
    "Pair of fours",
    // Cards as faces: rank, glyph and letter, a name for screen readers.
    "aria-label=\"king of hearts\" title=\"king of hearts\">K♥<small>h</small>",
    "class=\"pc black\" role=\"img\" aria-label=\"ace of spades\"",
    // Seat 4: fouled, and what the foul rule did.
    "Seat 4, Ann",
    "King high",
    "Ace-three",
    "<strong class=\"fouled\">fouled</strong>",
    "Fouled: King high behind does not beat Ace-three in front. Foul rule &#34;loses&#34;: it loses both hands to the PD.",
    "Result: <strong>PD wins</strong> — fouled → PD wins",
    // Seat 5: high won, low copied.
    "Seat 5, Bo",
    "Three of a kind, eights",
    "Result: <strong>push</strong> — high: player, low: copy → push",
    "High: Three of a kind, eights against Pair of kings: player.",
    "Low: Pair of fours against Pair of fours: copy.",
];

fn assert_shown(body: &str, what: &str) {
    for needle in SHOWN {
        assert!(body.contains(needle), "{what}: no {needle:?} in:\n{body}");
    }
}

async fn the_hands_are_shown_on_the_hand_page_and_its_record(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = hand_at_results(&mut dana).await;

    // The results step: the preview link carries the hand's card rules, the
    // card inputs are marked for the picker, which the app serves.
    let page = dana.get(&format!("{hand}?mode=cards")).await;
    let id = hand.trim_start_matches("/hands/");
    assert!(
        page.body.contains(&format!(
            "href=\"/tools/house-way?profile=lucky-chances&#38;joker=bug&#38;wheel=lowest&#38;house_way=reference&#38;hand={id}\""
        )),
        "{}",
        page.body
    );
    // The PD's seven cards (seat 1) are the first to enter.
    let pd_cards = &page.body[page.body.find("id=\"cards_1\"").expect("the PD's cards")..];
    let pd_cards = &pd_cards[..pd_cards.find('>').unwrap()];
    assert!(
        pd_cards.contains("data-cards=\"7\"") && pd_cards.contains("autofocus"),
        "{pd_cards}"
    );
    // Every page loads the picker (it only acts on `data-cards` inputs).
    assert!(
        page.body
            .contains("<script src=\"/static/cards.js\" defer></script>")
    );
    assert!(
        !page.body.contains("id=\"hands-shown\""),
        "nothing decided yet"
    );
    let js = dana.get("/static/cards.js").await;
    assert_eq!(js.status, 200);
    assert!(js.body.contains("data-cards"), "{}", js.body);
    let css = dana.get("/static/hands.css").await;
    assert!(css.status == 200 && css.body.contains(".card-picker"));

    ok(
        &mut dana,
        &format!("{hand}?mode=cards"),
        "results-form",
        CARDS,
    )
    .await;

    // The settlement step: the hands, and the confirm button in the pinned
    // panel that names the step to do now, focused.
    let page = dana.get(&hand).await;
    assert!(page.body.contains("5. Settlement"), "{}", page.body);
    assert_shown(&page.body, "settlement step");
    let current = form_html(&page.body, "confirm-one");
    assert!(current.contains("autofocus"), "{current}");
    let now_start = page.body.find("id=\"now\"").expect("the now panel");
    let form_at = page.body.find("id=\"confirm-one\"").expect("confirm-one");
    let now_end = now_start + page.body[now_start..].find("</section>").expect("end");
    assert!(
        now_start < form_at && form_at < now_end,
        "the confirm button sits in the panel"
    );
    assert!(
        page.body[now_start..form_at].contains("Step 1 of 2 · seat 4, Ann"),
        "{}",
        &page.body[now_start..now_end]
    );

    // Record page, then the closed hand.
    let record = dana.get(&format!("{hand}/record")).await;
    assert_eq!(record.status, 200);
    assert_shown(&record.body, "record page");
    ok(&mut dana, &hand, "confirm-one", &[]).await;
    ok(&mut dana, &hand, "confirm-all", &[]).await;
    ok(&mut dana, &hand, "close-form", &[]).await;
    let page = dana.get(&hand).await;
    assert!(page.body.contains("id=\"closed\""), "{}", page.body);
    assert_shown(&page.body, "closed hand");
    assert!(!page.body.contains("id=\"confirm-one\""));
    assert_shown(
        &dana.get(&format!("{hand}/record")).await.body,
        "closed record",
    );
}

async fn seats_entered_as_results_say_so(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let hand = hand_at_results(&mut dana).await;
    ok(
        &mut dana,
        &hand,
        "results-form",
        &[("outcome_4", "player"), ("outcome_5", "push")],
    )
    .await;
    for path in [hand.clone(), format!("{hand}/record")] {
        let body = dana.get(&path).await.body;
        for needle in [
            "Seat 4, Ann",
            "Result: <strong>player wins</strong> — entered as a result, without cards",
            "Result: <strong>push</strong> — entered as a result, without cards",
        ] {
            assert!(body.contains(needle), "{path}: no {needle:?} in:\n{body}");
        }
        assert!(!body.contains("class=\"pc "), "{path}: no cards to show");
    }
}

async fn the_preview_page_shows_the_setting_and_refuses_bad_cards(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let home = dana.get("/").await;
    assert!(
        home.body.contains("href=\"/tools/house-way\""),
        "{}",
        home.body
    );
    let empty = dana.get("/tools/house-way").await;
    assert_eq!(empty.status, 200);
    assert!(empty.body.contains("id=\"house-way-form\""));
    assert!(!empty.body.contains("id=\"house-way-result\""));

    let page = dana
        .get("/tools/house-way?cards=Kh+Kd+4c+4d+9s+As+Qd&profile=lucky-chances&joker=&wheel=&hand=abc-1")
        .await;
    assert_eq!(page.status, 200, "{}", page.body);
    for needle in [
        "id=\"house-way-result\"",
        "Pair of kings",
        "Pair of fours",
        "House way, rule 5 (Two pair): Two pair: split, lower pair in front.",
        "Under profile lucky-chances, joker bug, wheel lowest.",
        "href=\"/hands/abc-1#step\"",
        "value=\"Kh Kd 4c 4d 9s As Qd\"",
    ] {
        assert!(
            page.body.contains(needle),
            "no {needle:?} in:\n{}",
            page.body
        );
    }
    // The options chosen are the ones applied.
    let wild = dana
        .get("/tools/house-way?cards=Kh+Kd+JK+4d+9s+As+Qd&joker=wild")
        .await;
    assert_eq!(wild.status, 200, "{}", wild.body);
    assert!(wild.body.contains("joker wild"), "{}", wild.body);

    // (query, field, words of the message, what was typed kept)
    let bad: &[(&str, &str, &str, &str)] = &[
        (
            "cards=Kh+Kd+4c+4d+9s+As",
            "cards",
            "expected 7 cards, got 6",
            "value=\"Kh Kd 4c 4d 9s As\"",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As+Kh",
            "cards",
            "card &#34;Kh&#34; appears twice",
            "value=\"Kh Kd 4c 4d 9s As Kh\"",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As+Zq",
            "cards",
            "unknown card &#34;Zq&#34;",
            "value=\"Kh Kd 4c 4d 9s As Zq\"",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As+JK&joker=none",
            "cards",
            "the joker is not in play",
            "value=\"Kh Kd 4c 4d 9s As JK\"",
        ),
        (
            "cards=Kh+Kd+4c+4d+9s+As+Qd&joker=maybe",
            "joker",
            "&#34;maybe&#34; is not bug, wild or none",
            "value=\"maybe\" selected",
        ),
    ];
    refused_beside_their_fields(&mut dana, "/tools/house-way", bad, "house-way-result").await;
}

/// The house ways' charts (docs/house-ways.md): the list links each; a
/// chart reads every rule in order in plain words; an unknown name is 404.
async fn each_house_way_has_a_chart_to_post(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = table_with_dealer(&app).await;
    let preview = dana.get("/tools/house-way").await;
    assert!(preview.body.contains("href=\"/tools/house-ways\""));
    // The preview sets by the house way chosen.
    let fox = dana
        .get("/tools/house-way?cards=Js+Jh+Jd+Jc+Ad+5c+2h&house_way=foxwoods")
        .await;
    assert_eq!(fox.status, 200, "{}", fox.body);
    // Its own words, never the reference's rule number or rules-file text.
    assert!(
        fox.body
            .contains("House way foxwoods: Four of a kind (jacks to aces): always split."),
        "{}",
        fox.body
    );
    assert!(!fox.body.contains("class=\"rule-says\""), "{}", fox.body);
    assert!(
        fox.body.contains("<option value=\"foxwoods\" selected>"),
        "{}",
        fox.body
    );
    let bad = dana
        .get("/tools/house-way?cards=Js+Jh+Jd+Jc+Ad+5c+2h&house_way=nowhere")
        .await;
    assert_eq!(bad.status, 422);
    assert!(bad.body.contains("id=\"house_way-error\""), "{}", bad.body);
    let list = dana.get("/tools/house-ways").await;
    assert_eq!(list.status, 200);
    for name in ["reference", "foxwoods", "atlantic-city", "gold-star", "mgm"] {
        assert!(
            list.body
                .contains(&format!("href=\"/tools/house-ways/{name}\"")),
            "{}",
            list.body
        );
    }
    let chart = dana.get("/tools/house-ways/foxwoods").await;
    assert_eq!(chart.status, 200, "{}", chart.body);
    for needle in [
        "<h1>Foxwoods pai gow poker house way</h1>",
        "<td>1</td><td>Five aces, with a pair of kings</td><td>the kings in front</td>",
        "<td>Four of a kind (jacks to aces)</td><td>split: two of the four in front</td>",
        "<td>Two pair, the highest pair 7s to 10s, with an ace (or the joker) besides</td>",
        "Wizard of Odds",
    ] {
        assert!(
            chart.body.contains(needle),
            "no {needle:?} in:\n{}",
            chart.body
        );
    }
    assert_eq!(chart.body.matches("<tr><td>").count(), 22);
    let unknown = dana.get("/tools/house-ways/nowhere").await;
    assert_eq!(unknown.status, 404);
}

on_both_databases!(
    the_hands_are_shown_on_the_hand_page_and_its_record,
    seats_entered_as_results_say_so,
    the_preview_page_shows_the_setting_and_refuses_bad_cards,
    each_house_way_has_a_chart_to_post,
);
