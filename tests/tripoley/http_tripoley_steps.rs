//! A Tripoley round kept one screen per step through the pages, on both
//! databases: the ante, the deal (read back without recording), the spare
//! auction, the money cards, the betting action by action (out-of-turn and
//! over-the-limit actions refused, nothing recorded), the showdown, the
//! Michigan card by card or as a result; each step one audit record, the
//! round's payouts the engine's; stale pages 409, double submits once,
//! auditors 403; audit verify replays it all.

use crate::common::browser::{Browser, Page, hidden_fields, input_value, signed_in};
use crate::common::{Backend, TestApp, records, spawn_app, test_key};
use pitbook::domain::common::money::Money;
use pitbook::domain::staff::Role;
use pitbook::domain::tripoley::Profile;
use pitbook::domain::tripoley::game::{GameSetup, RoundEntry, TripoleyGame};
use pitbook::store::kept_games;

use crate::common::tripoley::CLASSIC_DEAL as DEAL;
/// Seating: Dee deals first.
const PLAYERS: [&str; 4] = ["Dee", "Ann", "Bo", "Cy"];

pub(super) fn seat(name: &str) -> usize {
    PLAYERS.iter().position(|p| *p == name).expect("seat")
}

pub(super) fn f(k: impl Into<String>, v: impl Into<String>) -> (String, String) {
    (k.into(), v.into())
}

/// Posts a step with the page's current csrf, version and key.
async fn step(b: &mut Browser, game: &str, fields: &[(String, String)]) -> Page {
    let page = b.get(game).await;
    assert_eq!(page.status, 200, "{}", page.body);
    let mut all = vec![
        f("csrf", input_value(&page.body, "csrf")),
        f("version", input_value(&page.body, "version")),
        f(
            "idempotency_key",
            input_value(&page.body, "idempotency_key"),
        ),
        f("intent", "step"),
    ];
    all.extend(fields.iter().cloned());
    let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(game, &pairs).await
}

pub(super) async fn ok(b: &mut Browser, game: &str, fields: &[(String, String)]) {
    let page = step(b, game, fields).await;
    assert_eq!(page.status, 303, "{fields:?}: {}", page.body);
}

pub(super) async fn new_game(b: &mut Browser) -> String {
    let csrf = b.csrf("/tripoley").await;
    let page = b
        .post(
            "/tripoley",
            &[
                ("csrf", &csrf),
                ("players", "Dee, Ann, Bo, Cy"),
                ("chips", "40"),
                ("chip_value", "0.25"),
                ("profile", "classic"),
                ("bet_limit", "10"),
            ],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    page.location
}

pub(super) fn deal_fields() -> Vec<(String, String)> {
    let mut v = vec![f("step", "deal")];
    for (name, cards) in DEAL {
        let key = if name == "spare" {
            "hand_spare".to_string()
        } else {
            format!("hand_{}", seat(name))
        };
        v.push(f(key, cards));
    }
    v
}

pub(super) fn bet(player: &str, action: &str, chips: &str) -> Vec<(String, String)> {
    vec![
        f("step", "bet"),
        f("player", player),
        f("bet", action),
        f("chips", chips),
    ]
}

/// Ante, deal, spare sold to Cy for 2, money cards, Ann bets 10, Bo and Cy
/// call, Dee folds, the showdown: the round at its Michigan.
async fn to_michigan(app: &TestApp, dana: &mut Browser, game: &str) {
    let page = dana.get(game).await;
    assert!(page.body.contains("id=\"round-steps\""), "{}", page.body);
    assert!(page.body.contains("Collect the antes"), "{}", page.body);
    ok(dana, game, &[f("step", "ante")]).await;
    // Read back, nothing recorded.
    let mut read = deal_fields();
    read.push(f("read", "1"));
    let page = step(dana, game, &read).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("id=\"step-readings\""), "{}", page.body);
    assert!(page.body.contains("Four of a kind"), "{}", page.body);
    assert_eq!(records(app, "tripoley_deal").await, 0);
    ok(dana, game, &deal_fields()).await;
    // A bad price: refused, what was chosen kept, nothing recorded.
    let page = step(
        dana,
        game,
        &[
            f("step", "spare"),
            f("swap", "1"),
            f("buyer", "Cy"),
            f("price", "two"),
        ],
    )
    .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("value=\"Cy\" selected"), "{}", page.body);
    assert!(page.body.contains("value=\"1\" checked"), "{}", page.body);
    assert_eq!(records(app, "tripoley_spare").await, 0);
    ok(
        dana,
        game,
        &[f("step", "spare"), f("buyer", "Cy"), f("price", "2")],
    )
    .await;
    let page = dana.get(game).await;
    assert!(page.body.contains("id=\"money-cards\""), "{}", page.body);
    assert!(page.body.contains("Ann holds the Ah"), "{}", page.body);
    ok(dana, game, &[f("step", "money_cards")]).await;

    let page = dana.get(game).await;
    assert!(
        page.body.contains("<strong>Ann</strong> to act"),
        "{}",
        page.body
    );
    let page = step(dana, game, &bet("Bo", "check", "")).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("out of turn"), "{}", page.body);
    assert!(page.body.contains("id=\"step-error\""), "{}", page.body);
    let page = step(dana, game, &bet("Ann", "bet", "11")).await;
    assert_eq!(page.status, 422, "{}", page.body);
    // Beside the chips typed, which are kept.
    assert!(
        page.body
            .contains("id=\"step_chips-error\">11 is more than the bet limit of 10 a bet"),
        "{}",
        page.body
    );
    assert!(page.body.contains("value=\"11\""), "{}", page.body);
    let page = step(dana, game, &bet("Ann", "bet", "ten")).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body
            .contains("id=\"step_chips-error\">&#34;ten&#34; is not a whole number"),
        "{}",
        page.body
    );
    assert_eq!(records(app, "tripoley_bet").await, 0);
    ok(dana, game, &bet("Ann", "bet", "10")).await;
    ok(dana, game, &bet("Bo", "call", "")).await;
    ok(dana, game, &bet("Cy", "call", "")).await;
    ok(dana, game, &bet("Dee", "fold", "")).await;
    let page = dana.get(game).await;
    assert!(page.body.contains("Record the showdown"), "{}", page.body);
    ok(
        dana,
        game,
        &[
            f("step", "showdown"),
            f(format!("shown_{}", seat("Ann")), "As Ad 8s 8c Ts"),
        ],
    )
    .await;
}

fn id_of(game: &str) -> &str {
    game.trim_start_matches("/tripoley/")
}

/// The stored game equals the same round entered whole through the engine.
async fn check_against_the_engine(app: &TestApp, game: &str, michigan: (&str, &[(&str, i64)])) {
    let stored = kept_games::get::<TripoleyGame>(&app.database.db, id_of(game))
        .await
        .unwrap()
        .expect("game");
    let g = &stored.game;
    assert!(g.current.is_empty());
    assert_eq!(g.rounds.len(), 1);
    let fresh = TripoleyGame::start(&GameSetup {
        profile: Profile::Classic,
        players: PLAYERS.map(String::from).to_vec(),
        chips_each: 40,
        chip_value: Money::parse("0.25").unwrap(),
        ante: 1,
        bet_limit: 10,
    })
    .unwrap();
    let entry = RoundEntry {
        hands: DEAL
            .iter()
            .map(|(n, c)| (n.to_string(), c.to_string()))
            .collect(),
        auction: Some(("Cy".into(), 2)),
        contributions: [("Ann", 10), ("Bo", 10), ("Cy", 10), ("Dee", 0)]
            .iter()
            .map(|(n, c)| (n.to_string(), *c))
            .collect(),
        folded: vec!["Dee".into()],
        shown: vec![("Ann".into(), "As Ad 8s 8c Ts".into())],
        out: Some(michigan.0.to_string()),
        cards_left: michigan
            .1
            .iter()
            .map(|(n, c)| (n.to_string(), *c))
            .collect(),
        ..RoundEntry::default()
    };
    let (expected, _) = fresh.apply_round(&entry).unwrap();
    assert_eq!(g.chips, expected.chips);
    assert_eq!(g.board, expected.board);
    assert_eq!(
        g.chips.iter().sum::<u64>() + g.board.iter().sum::<u64>(),
        160
    );
}

async fn verify_ok(app: &TestApp) {
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
    assert_eq!(
        report.tripoley_games, 1,
        "the game was replayed: {report:?}"
    );
}

async fn a_round_is_kept_step_by_step_with_the_michigan_card_by_card(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let game = new_game(&mut dana).await;
    to_michigan(&app, &mut dana, &game).await;
    let mut cards = 0;
    loop {
        let page = dana.get(&game).await;
        if !page.body.contains("id=\"michigan-turn\"") {
            assert!(page.body.contains("Round 2: Ann deals"), "{}", page.body);
            break;
        }
        let player = input_value(&page.body, "player");
        let card = input_value(&page.body, "card");
        ok(
            &mut dana,
            &game,
            &[
                f("step", "michigan_card"),
                f("player", player),
                f("card", card),
            ],
        )
        .await;
        cards += 1;
        assert!(cards <= 52);
    }
    for (event, n) in [
        ("tripoley_ante", 1),
        ("tripoley_deal", 1),
        ("tripoley_spare", 1),
        ("tripoley_money_cards", 1),
        ("tripoley_bet", 4),
        ("tripoley_showdown", 1),
        ("tripoley_michigan_card", cards),
        ("tripoley_round", 1),
    ] {
        assert_eq!(records(&app, event).await, n, "{event}");
    }
    let stored = kept_games::get::<TripoleyGame>(&app.database.db, id_of(&game))
        .await
        .unwrap()
        .expect("game");
    let michigan = &stored.game.rounds[0].input["michigan"];
    let out = michigan["out"]
        .as_str()
        .expect("someone went out")
        .to_string();
    let left: Vec<(String, i64)> = michigan["cards_left"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_i64().unwrap()))
        .collect();
    let left_refs: Vec<(&str, i64)> = left.iter().map(|(k, v)| (k.as_str(), *v)).collect();
    check_against_the_engine(&app, &game, (&out, &left_refs)).await;
    verify_ok(&app).await;
}

async fn the_michigan_entered_as_a_result_pays_the_round(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let game = new_game(&mut dana).await;
    to_michigan(&app, &mut dana, &game).await;
    let page = dana.get(&game).await;
    assert!(
        page.body.contains("id=\"michigan-result\""),
        "{}",
        page.body
    );
    let result = |left_bo: &str| {
        vec![
            f("step", "michigan_result"),
            f("out", "Ann"),
            f(format!("left_{}", seat("Bo")), left_bo),
            f(format!("left_{}", seat("Cy")), "6"),
            f(format!("left_{}", seat("Dee")), "2"),
        ]
    };
    // Bo holds 10 cards: 30 left is refused by the engine, beside Bo's field.
    let page = step(&mut dana, &game, &result("30")).await;
    assert_eq!(page.status, 422, "{}", page.body);
    let beside = format!("id=\"result_left_{}-error\">30", seat("Bo"));
    assert!(page.body.contains(&beside), "{}", page.body);
    // What was typed is kept.
    assert!(
        page.body.contains("value=\"Ann\" selected"),
        "{}",
        page.body
    );
    let bo = format!(
        "name=\"left_{}\" inputmode=\"numeric\" size=\"3\" autofocus aria-invalid=\"true\" aria-describedby=\"result_left_{0}-error\" value=\"30\"",
        seat("Bo")
    );
    assert!(page.body.contains(&bo), "{}", page.body);
    assert_eq!(records(&app, "tripoley_michigan_result").await, 0);
    assert_eq!(records(&app, "tripoley_round").await, 0);
    ok(&mut dana, &game, &result("3")).await;
    assert_eq!(records(&app, "tripoley_michigan_result").await, 1);
    assert_eq!(records(&app, "tripoley_round").await, 1);
    check_against_the_engine(&app, &game, ("Ann", &[("Bo", 3), ("Cy", 6), ("Dee", 2)])).await;
    verify_ok(&app).await;
}

async fn steps_stale_repeated_and_by_auditors_record_once_or_not_at_all(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let mut audrey = signed_in(&app, "audrey", Role::Auditor).await;
    let game = new_game(&mut dana).await;
    let page = dana.get(&game).await;
    let mut form = hidden_fields(&page.body);
    form.push(("intent", "step".to_string()));
    form.push(("step", "ante".to_string()));
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (*k, v.as_str())).collect();
    assert_eq!(dana.post(&game, &pairs).await.status, 303);
    // The same form again (a double tap): recorded once.
    assert_eq!(dana.post(&game, &pairs).await.status, 303);
    assert_eq!(records(&app, "tripoley_ante").await, 1);
    // A page from before the ante, with a new key: stale.
    let mut stale = form.clone();
    stale[2].1 = "another-key".into();
    stale[4].1 = "deal".into();
    let pairs: Vec<(&str, &str)> = stale.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let page = dana.post(&game, &pairs).await;
    assert_eq!(page.status, 409, "{}", page.body);
    assert_eq!(records(&app, "tripoley_deal").await, 0);
    // A step out of order: refused beside the form.
    let page = step(&mut dana, &game, &[f("step", "money_cards")]).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body
            .contains("&#34;money_cards&#34; is not the next step: the round is at the deal"),
        "{}",
        page.body
    );
    // A bad card names the field and the value; the typed hands are kept.
    let mut bad = deal_fields();
    bad[4].1 = bad[4].1.replace("Qh", "Xx");
    let page = step(&mut dana, &game, &bad).await;
    assert_eq!(page.status, 422, "{}", page.body);
    let beside = format!("id=\"step_hand_{}-error\">", seat("Dee"));
    assert!(
        page.body.contains(&beside) && page.body.contains("Xx"),
        "{}",
        page.body
    );
    assert!(page.body.contains(DEAL[0].1), "{}", page.body);
    assert_eq!(records(&app, "tripoley_deal").await, 0);
    // Auditors read but do not act.
    let page = audrey.get(&game).await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("id=\"step-form\""));
    let csrf = audrey.csrf("/tripoley").await;
    let page = audrey
        .post(
            &game,
            &[
                ("csrf", &csrf),
                ("version", "2"),
                ("intent", "step"),
                ("step", "deal"),
            ],
        )
        .await;
    assert_eq!(page.status, 403);
    assert_eq!(records(&app, "tripoley_deal").await, 0);
    verify_ok(&app).await;
}

on_both_databases!(
    a_round_is_kept_step_by_step_with_the_michigan_card_by_card,
    the_michigan_entered_as_a_result_pays_the_round,
    steps_stale_repeated_and_by_auditors_record_once_or_not_at_all,
);
