//! The dice keeper's pages on both databases. 10,000: a game played to its
//! end (throws tapped on the face keys or typed, keeps offered and chosen,
//! stop to record, a bust, the catch-up turn, the winner), bad input
//! refused beside the keys with nothing recorded and the taps kept, role
//! checks, stale pages and double taps. Poker dice: a round to its winner,
//! dice held and thrown by keys, refusals beside the keys.

use crate::common::browser::{Browser, Page, hidden_fields, input_value, signed_in};
use crate::common::{Backend, records, spawn_app, test_key};
use pitbook::domain::staff::Role;

/// Posts an action with the page's current version, csrf and key.
async fn action(b: &mut Browser, game: &str, fields: &[(&str, &str)]) -> Page {
    let page = b.get(game).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let mut all = vec![
        ("csrf".to_string(), input_value(&page.body, "csrf")),
        ("version".to_string(), input_value(&page.body, "version")),
        (
            "idempotency_key".to_string(),
            input_value(&page.body, "idempotency_key"),
        ),
    ];
    all.extend(fields.iter().map(|(k, v)| (k.to_string(), v.to_string())));
    let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(game, &pairs).await
}

/// Posts a throw tapped on the keys: each (prefix, faces) ticks
/// `{prefix}1`, `{prefix}2`… with the faces in order (`("die", "1 5")` is
/// die1=1, die2=5).
async fn throw_by_keys(b: &mut Browser, game: &str, keys: &[(&str, &str)]) -> Page {
    let mut fields = vec![("intent".to_string(), "throw".to_string())];
    for (prefix, faces) in keys {
        for (i, face) in faces.split_whitespace().enumerate() {
            fields.push((format!("{prefix}{}", i + 1), face.to_string()));
        }
    }
    let pairs: Vec<(&str, &str)> = fields
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    action(b, game, &pairs).await
}

/// The refusal `words` right after the keys `id`, and the error summary
/// linking to them.
fn refused_beside_keys(page: &Page, id: &str, words: &str) {
    assert_eq!(page.status, 422, "{}", page.body);
    let error = format!("<p class=\"error\" id=\"{id}-error\">");
    let (keys, after) = page.body.split_once(&error).unwrap_or_default();
    assert!(
        (keys.ends_with("</div>") || keys.ends_with("</fieldset>"))
            && after.split("</p>").next().unwrap_or("").contains(words),
        "{words} right after the keys {id}: {}",
        page.body
    );
    assert!(
        page.body.contains(&format!("<a href=\"#{id}\">")),
        "{}",
        page.body
    );
}

async fn new_game(b: &mut Browser, players: &str, target: &str) -> String {
    let csrf = b.csrf("/dice").await;
    let page = b
        .post(
            "/dice",
            &[
                ("csrf", &csrf),
                ("players", players),
                ("target_score", target),
            ],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    page.location
}

async fn a_game_is_kept_to_its_end(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let game = new_game(&mut dana, "Ann, Bo", "1000").await;
    let page = dana.get(&game).await;
    assert!(
        page.body.contains("Ann's turn: 0 so far, 6 dice to throw"),
        "{}",
        page.body
    );
    // A row of face keys per die to throw.
    assert!(page.body.contains("name=\"die6\" value=\"6\""));
    assert!(!page.body.contains("name=\"die7\""));

    assert_eq!(
        throw_by_keys(&mut dana, &game, &[("die", "1 1 1 5 2 3")])
            .await
            .status,
        303
    );
    let page = dana.get(&game).await;
    // Every legal keep is offered with its points; 2 and 3 never are.
    assert!(page.body.contains("Keep 1 1 1 5 = 1050"), "{}", page.body);
    assert!(page.body.contains("Keep 5 = 50"));
    assert!(!page.body.contains("Keep 1 1 1 2"));
    assert_eq!(
        action(&mut dana, &game, &[("intent", "keep"), ("keep", "1 1 1 5")])
            .await
            .status,
        303
    );
    assert_eq!(
        action(&mut dana, &game, &[("intent", "stop")]).await.status,
        303
    );
    let page = dana.get(&game).await;
    assert!(page.body.contains("Bo's turn"), "{}", page.body);
    assert!(page.body.contains("records 1,050"), "{}", page.body);
    // Bo's catch-up turn, typed as an old page sends it: a bust ends it,
    // and the game.
    assert_eq!(
        action(
            &mut dana,
            &game,
            &[("intent", "throw"), ("dice", "2 3 4 6 6 2")]
        )
        .await
        .status,
        303
    );
    let page = dana.get(&game).await;
    assert!(page.body.contains("id=\"winner\""), "{}", page.body);
    assert!(page.body.contains("Ann"), "{}", page.body);
    // The finished page offers no action; a turn posted anyway is refused.
    assert!(!page.body.contains("id=\"throw-form\""));
    let csrf = input_value(&page.body, "csrf");
    let form = [
        ("csrf", csrf.as_str()),
        ("version", "5"),
        ("intent", "throw"),
        ("dice", "1 2 3 4 5 6"),
    ];
    let page = dana.post(&game, &form).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("the game has ended"), "{}", page.body);
    assert_eq!(records(&app, "ten_thousand_started").await, 1);
    assert_eq!(records(&app, "ten_thousand_action").await, 4);
    assert_eq!(records(&app, "ten_thousand_finished").await, 1);
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn bad_input_roles_stale_pages_and_double_taps(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    // One player is not a game.
    let csrf = dana.csrf("/dice").await;
    let page = dana
        .post("/dice", &[("csrf", &csrf), ("players", "Ann")])
        .await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains("players") && page.body.contains("value=\"Ann\""),
        "{}",
        page.body
    );
    let game = new_game(&mut dana, "Ann, Bo", "").await;
    // A row left unpicked is not thrown: five dice when six are left,
    // refused beside the keys, the five taps kept.
    let page = throw_by_keys(&mut dana, &game, &[("die", "1 2 3 4 5")]).await;
    refused_beside_keys(&page, "dice-thrown", "6 dice are left");
    assert!(page.body.contains("name=\"die5\" value=\"5\" checked"));
    // Five dice when six are left; a face of 7; a keep with a non-scoring die.
    for (fields, needle) in [
        (
            vec![("intent", "throw"), ("dice", "1 2 3 4 5")],
            "6 dice are left",
        ),
        (vec![("intent", "throw"), ("dice", "1 2 3 4 5 7")], "7"),
    ] {
        let page = action(&mut dana, &game, &fields).await;
        assert_eq!(page.status, 422, "{fields:?}: {}", page.body);
        assert!(page.body.contains(needle), "{needle}: {}", page.body);
    }
    assert_eq!(
        action(
            &mut dana,
            &game,
            &[("intent", "throw"), ("dice", "1 5 2 3 4 4")]
        )
        .await
        .status,
        303
    );
    let page = action(&mut dana, &game, &[("intent", "keep"), ("keep", "1 2")]).await;
    assert_eq!(page.status, 422);
    assert!(
        page.body.contains("does not score") || page.body.contains("not every die"),
        "{}",
        page.body
    );
    // Recording 150 is below the opening.
    assert_eq!(
        action(&mut dana, &game, &[("intent", "keep"), ("keep", "1 5")])
            .await
            .status,
        303
    );
    let page = action(&mut dana, &game, &[("intent", "stop")]).await;
    assert_eq!(page.status, 422);
    assert!(page.body.contains("below the opening"), "{}", page.body);
    assert_eq!(records(&app, "ten_thousand_action").await, 2);

    // A double tap: the same form twice records once; an old page is stale.
    let page = dana.get(&game).await;
    let mut form = hidden_fields(&page.body);
    form.push(("intent", "throw".to_string()));
    form.push(("dice", "2 2 2 3".to_string()));
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(dana.post(&game, &pairs).await.status, 303);
    assert_eq!(dana.post(&game, &pairs).await.status, 303);
    assert_eq!(records(&app, "ten_thousand_action").await, 3);
    let mut stale = pairs.clone();
    stale[2] = ("idempotency_key", "other");
    let page = dana.post(&game, &stale).await;
    assert_eq!(page.status, 409, "{}", page.body);

    // An auditor reads but cannot keep score; no CSRF → 403.
    let mut audrey = signed_in(&app, "audrey", Role::Auditor).await;
    assert_eq!(audrey.get(&game).await.status, 200);
    let page = audrey.get(&game).await;
    assert!(
        !page.body.contains("id=\"keeps\""),
        "no keep buttons for an auditor"
    );
    let csrf = input_value(&page.body, "csrf");
    let form = [
        ("csrf", csrf.as_str()),
        ("version", "4"),
        ("intent", "keep"),
        ("keep", "2 2 2"),
    ];
    let page = audrey.post(&game, &form).await;
    assert_eq!(page.status, 403);
    let page = dana.post(&game, &[("intent", "stop")]).await;
    assert_eq!(page.status, 403);
    assert_eq!(records(&app, "ten_thousand_action").await, 3);
}

async fn a_poker_dice_round_is_kept_to_its_winner(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let csrf = dana.csrf("/dice").await;
    let page = dana
        .post(
            "/dice",
            &[
                ("csrf", &csrf),
                ("game", "poker-dice"),
                ("players", "Ana, Beto"),
                ("profile", "caribena"),
            ],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let game = page.location;
    // The faces in words; five rows of keys, no dice to hold yet.
    let page = dana.get(&game).await;
    assert!(page.body.contains("8 red = R (roja), 7 black = N (negra)"));
    assert!(page.body.contains("name=\"roll5\" value=\"N\""));
    assert!(!page.body.contains("name=\"hold1\""));
    assert_eq!(
        throw_by_keys(&mut dana, &game, &[("roll", "A A K Q J")])
            .await
            .status,
        303
    );
    // The last throw's five dice as keys to hold, each with its face.
    let page = dana.get(&game).await;
    assert!(page.body.contains("name=\"hold2\" value=\"A\""));
    assert!(page.body.contains("name=\"hold5\" value=\"J\""));
    // Holding a die that was not thrown (typed, as an old page sends it) is
    // refused beside the dice held.
    let page = action(
        &mut dana,
        &game,
        &[("intent", "throw"), ("held", "N N"), ("rolled", "A K K")],
    )
    .await;
    refused_beside_keys(&page, "held", "is not in the previous throw");
    // Five dice in all: two held and five thrown are refused beside the
    // dice thrown, the keys keeping what was tapped, nothing recorded.
    let keys = [("hold", "A A"), ("roll", "K K Q J N")];
    let page = throw_by_keys(&mut dana, &game, &keys).await;
    refused_beside_keys(&page, "rolled", "make 7 dice, not 5");
    assert!(page.body.contains("name=\"hold2\" value=\"A\" checked"));
    assert!(!page.body.contains("name=\"hold3\" value=\"K\" checked"));
    assert!(page.body.contains("name=\"roll5\" value=\"N\" checked"));
    assert_eq!(records(&app, "poker_dice_action").await, 1);
    let keys = [("hold", "A A"), ("roll", "A K K")];
    assert_eq!(throw_by_keys(&mut dana, &game, &keys).await.status, 303);
    let page = dana.get(&game).await;
    assert!(page.body.contains("Full de ases y reyes"), "{}", page.body);
    assert_eq!(
        action(&mut dana, &game, &[("intent", "stand")])
            .await
            .status,
        303
    );
    assert_eq!(
        action(
            &mut dana,
            &game,
            &[("intent", "throw"), ("rolled", "Q Q Q J N")]
        )
        .await
        .status,
        303
    );
    assert_eq!(
        action(&mut dana, &game, &[("intent", "stand")])
            .await
            .status,
        303
    );
    let page = dana.get(&game).await;
    assert!(page.body.contains("id=\"winner\""), "{}", page.body);
    assert!(page.body.contains("Ana wins"), "{}", page.body);
    assert_eq!(records(&app, "poker_dice_started").await, 1);
    assert_eq!(records(&app, "poker_dice_action").await, 5);
    assert_eq!(records(&app, "poker_dice_finished").await, 1);
    // A throw after the round is refused.
    let csrf = input_value(&page.body, "csrf");
    let form = [
        ("csrf", csrf.as_str()),
        ("version", "6"),
        ("intent", "throw"),
        ("rolled", "A A A A A"),
    ];
    let page = dana.post(&game, &form).await;
    assert_eq!(page.status, 422);
    assert!(page.body.contains("the round is over"), "{}", page.body);
}

on_both_databases!(
    a_poker_dice_round_is_kept_to_its_winner,
    a_game_is_kept_to_its_end,
    bad_input_roles_stale_pages_and_double_taps,
);
