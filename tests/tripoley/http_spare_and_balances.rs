//! The dealer's Tripoley pages, on both databases: a spare-hand price
//! typed with no buyer is refused by the core (422, beside its field, what
//! was typed kept, nothing recorded) on the step form and the whole-round
//! form, and over the JSON API; the balances follow each recorded step; the
//! read-aloud steps are a list; a refused start is beside the players field
//! in plain words.

use crate::common::browser::{Browser, Page, input_value, signed_in};
use crate::common::tripoley::CLASSIC_DEAL as DEAL;
use crate::common::{Backend, bad_input_body, records, spawn_app};
use pitbook::domain::staff::Role;
use serde_json::json;

/// Seating: Dee deals first.
const PLAYERS: [&str; 4] = ["Dee", "Ann", "Bo", "Cy"];

fn f(k: impl Into<String>, v: impl Into<String>) -> (String, String) {
    (k.into(), v.into())
}

/// Posts one of the game page's forms with the page's csrf, version, key.
async fn post(b: &mut Browser, game: &str, fields: &[(String, String)]) -> Page {
    let page = b.get(game).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let mut all = vec![
        f("csrf", input_value(&page.body, "csrf")),
        f("version", input_value(&page.body, "version")),
        f(
            "idempotency_key",
            input_value(&page.body, "idempotency_key"),
        ),
    ];
    all.extend(fields.iter().cloned());
    let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(game, &pairs).await
}

async fn new_game(b: &mut Browser) -> String {
    let csrf = b.csrf("/tripoley").await;
    let page = b
        .post(
            "/tripoley",
            &[
                ("csrf", &csrf),
                ("players", "Dee, Ann, Bo, Cy"),
                ("chips", "40"),
            ],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    page.location
}

fn deal() -> Vec<(String, String)> {
    DEAL.iter()
        .map(
            |(name, cards)| match PLAYERS.iter().position(|p| p == name) {
                Some(seat) => f(format!("hand_{seat}"), *cards),
                None => f("hand_spare", *cards),
            },
        )
        .collect()
}

/// The chips shown on the balances row of `seat`.
pub(super) fn chips(page: &Page, seat: usize) -> String {
    let row = format!("id=\"balance-{seat}\"");
    let at = page.body.find(&row).expect("balance row");
    let cell = "<td class=\"chips num\">";
    let start = page.body[at..].find(cell).expect("chips cell") + at + cell.len();
    let end = page.body[start..].find("</td>").expect("end") + start;
    page.body[start..end].to_string()
}

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

async fn a_price_with_no_buyer_is_refused_beside_its_field(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let game = new_game(&mut dana).await;
    let step = |fields: &[(&str, &str)]| {
        let mut v = vec![f("intent", "step")];
        v.extend(fields.iter().map(|(k, v)| f(*k, *v)));
        v
    };
    // The balances follow each recorded step: 40 each, then 31 after the antes.
    let page = dana.get(&game).await;
    assert_eq!(chips(&page, 0), "40");
    assert_eq!(
        post(&mut dana, &game, &step(&[("step", "ante")]))
            .await
            .status,
        303
    );
    let page = dana.get(&game).await;
    assert!((0..4).all(|s| chips(&page, s) == "31"), "{}", page.body);
    let mut dealt = step(&[("step", "deal")]);
    dealt.extend(deal());
    assert_eq!(post(&mut dana, &game, &dealt).await.status, 303);

    // The step form: a price, nobody chosen to buy.
    let page = post(
        &mut dana,
        &game,
        &step(&[("step", "spare"), ("buyer", ""), ("price", "3")]),
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    let error = error_beside(&page, "step_buyer");
    assert!(error.contains("nobody buys the spare"), "{error}");
    assert!(!error.contains("spare.auction"), "plain words: {error}");
    assert!(page.body.contains("value=\"3\""), "the price typed is kept");
    assert!(
        !page.body.contains("id=\"step-error\""),
        "shown once: {}",
        page.body
    );
    assert_eq!(records(&app, "tripoley_spare").await, 0);
    // A buyer with no price is refused beside the price.
    let page = post(
        &mut dana,
        &game,
        &step(&[("step", "spare"), ("buyer", "Cy"), ("price", "")]),
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(error_beside(&page, "step_price").contains("type the chips Cy pays"));
    assert!(
        page.body.contains("value=\"Cy\" selected"),
        "the buyer chosen is kept"
    );
    // More than the buyer has: the engine's refusal, beside the price too.
    let page = post(
        &mut dana,
        &game,
        &step(&[("step", "spare"), ("buyer", "Cy"), ("price", "40")]),
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(error_beside(&page, "step_price").contains("more than the 31 chips"));
    assert_eq!(records(&app, "tripoley_spare").await, 0);
    // Sold to Cy for 2: Cy 29, Dee (the dealer) 33.
    let sold = step(&[("step", "spare"), ("buyer", "Cy"), ("price", "2")]);
    assert_eq!(post(&mut dana, &game, &sold).await.status, 303);
    let page = dana.get(&game).await;
    assert_eq!(
        (chips(&page, 0), chips(&page, 3)),
        ("33".into(), "29".into())
    );
    assert!(
        page.body
            .contains("<ol class=\"read-aloud\" id=\"so-far\">"),
        "{}",
        page.body
    );

    // The whole-round form on a fresh game: the same refusal, beside its field.
    let other = new_game(&mut dana).await;
    let mut round = deal();
    round.extend([f("intent", "round"), f("buyer", ""), f("price", "5")]);
    let page = post(&mut dana, &other, &round).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(error_beside(&page, "buyer").contains("a price of 5 chips was typed"));
    assert!(
        !page.body.contains("id=\"form-error\""),
        "shown once: {}",
        page.body
    );
    assert_eq!(records(&app, "tripoley_round").await, 0);

    // The JSON API: an auction needs its buyer.
    let (status, body) = app
        .post_raw(
            "/api/v1/tripoley/round",
            &json!({"profile": "classic", "players": PLAYERS, "dealer": "Dee",
                    "chips": {"Dee": 40, "Ann": 40, "Bo": 40, "Cy": 40},
                    "hands": DEAL.iter().map(|(n, c)| (n.to_string(), json!(c))).collect::<serde_json::Map<_, _>>(),
                    "spare": {"auction": {"price": 5}}})
            .to_string(),
        )
        .await;
    assert_eq!(status, 422, "{body}");
    let (field, message) = bad_input_body(&body);
    assert!(field.starts_with("spare.auction"), "{field}");
    assert!(message.contains("buyer"), "{message}");
}

async fn a_refused_start_is_beside_the_players_in_plain_words(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    for (path, extra) in [
        ("/tripoley", None),
        ("/dice", Some(("game", "ten-thousand"))),
    ] {
        let csrf = dana.csrf(path).await;
        let mut form = vec![("csrf", csrf.as_str()), ("players", "Ann, Bo\u{200B}")];
        form.extend(extra);
        let page = dana.post(path, &form).await;
        assert_eq!(page.status, 422, "{path}: {}", page.body);
        let error = error_beside(&page, "players");
        assert!(
            error.starts_with("Player 2: &#34;Bo&#34; contains U+200B"),
            "{path}: {error}"
        );
        assert!(
            !error.contains("players[") && !error.contains("\\u{"),
            "{path}: {error}"
        );
        assert!(
            !page.body.contains("id=\"form-error\""),
            "{path}: shown once"
        );
        assert!(
            page.body.contains("autofocus"),
            "{path}: the field at fault is focused"
        );
    }
}

on_both_databases!(
    a_price_with_no_buyer_is_refused_beside_its_field,
    a_refused_start_is_beside_the_players_in_plain_words,
);
