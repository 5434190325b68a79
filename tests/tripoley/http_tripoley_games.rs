//! The Tripoley pages on both databases: a game started, two rounds entered
//! through the guided form (the deal read back, the spare auction, the
//! poker and Michigan results) and paid out, balances and board checked
//! against the round engine, the end of the game; bad input refused beside
//! the form with nothing recorded; roles, stale pages, double submits, CSRF.

use crate::common::browser::{Browser, Page, input_value, signed_in};
use crate::common::{Backend, TestApp, records, spawn_app, test_key};
use pitbook::domain::staff::Role;
use serde_json::{Value, json};

/// Seating: Dee deals first, Ann is at Dee's left (docs/tripoley.md's table).
const PLAYERS: [&str; 4] = ["Dee", "Ann", "Bo", "Cy"];
const SECTIONS: [&str; 9] = [
    "ace",
    "king",
    "queen",
    "jack",
    "ten",
    "king_queen",
    "eight_nine_ten",
    "kitty",
    "pot",
];

use crate::common::tripoley::CLASSIC_DEAL as DEAL;

fn deal_of(name: &str) -> &'static str {
    DEAL.iter().find(|(n, _)| *n == name).expect("hand").1
}

fn seat(name: &str) -> usize {
    PLAYERS.iter().position(|p| *p == name).expect("seat")
}

/// Posts a form with the page's current csrf, version and key.
async fn action(b: &mut Browser, game: &str, fields: &[(String, String)]) -> Page {
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
    all.extend(fields.iter().cloned());
    let pairs: Vec<(&str, &str)> = all.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post(game, &pairs).await
}

fn f(k: impl Into<String>, v: impl Into<String>) -> (String, String) {
    (k.into(), v.into())
}

async fn new_game(b: &mut Browser, profile: &str) -> String {
    let csrf = b.csrf("/tripoley").await;
    let page = b
        .post(
            "/tripoley",
            &[
                ("csrf", &csrf),
                ("players", "Dee, Ann, Bo, Cy"),
                ("chips", "40"),
                ("chip_value", "0.25"),
                ("profile", profile),
                ("ante", "1"),
                ("bet_limit", "10"),
            ],
        )
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    assert!(page.location.starts_with("/tripoley/"));
    page.location
}

/// Round 1: the example's deal, Cy buys the spare for 2, Dee folds after 2,
/// the others put in 10; Ann goes out, Bo 3, Cy 6, Dee 2 cards left.
fn round_one() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = PLAYERS
        .iter()
        .map(|p| f(format!("hand_{}", seat(p)), deal_of(p)))
        .collect();
    v.push(f("hand_spare", deal_of("spare")));
    v.extend([
        f("buyer", "Cy"),
        f("price", "2"),
        f(format!("contrib_{}", seat("Ann")), "10"),
        f(format!("contrib_{}", seat("Bo")), "10"),
        f(format!("contrib_{}", seat("Cy")), "10"),
        f(format!("contrib_{}", seat("Dee")), "2"),
        f(format!("fold_{}", seat("Dee")), "1"),
        f(format!("shown_{}", seat("Ann")), "As Ad 8s 8c Ts"),
        f(format!("shown_{}", seat("Bo")), "6h 7c 8d 9d Td"),
        f(format!("shown_{}", seat("Cy")), "Kh Kd 4c 5d 2s"),
        f("out", "Ann"),
        f(format!("left_{}", seat("Bo")), "3"),
        f(format!("left_{}", seat("Cy")), "6"),
        f(format!("left_{}", seat("Dee")), "2"),
    ]);
    v
}

fn round_one_input() -> Value {
    json!({
        "profile": "classic",
        "players": PLAYERS,
        "dealer": "Dee",
        "chips": {"Dee": 40, "Ann": 40, "Bo": 40, "Cy": 40},
        "ante": 1,
        "hands": DEAL.iter().map(|(n, h)| (n.to_string(), json!(h))).collect::<serde_json::Map<_, _>>(),
        "spare": {"auction": {"buyer": "Cy", "price": 2}},
        "poker": {
            "contributions": {"Ann": 10, "Bo": 10, "Cy": 10, "Dee": 2},
            "folded": ["Dee"],
            "shown": {"Ann": "As Ad 8s 8c Ts", "Bo": "6h 7c 8d 9d Td", "Cy": "Kh Kd 4c 5d 2s"}
        },
        "michigan": {"out": "Ann", "cards_left": {"Bo": 3, "Cy": 6, "Dee": 2}},
        "chip_value": "0.25"
    })
}

/// Round 2 (Ann deals): the hands passed on one seat (Ann has Bo's cards,
/// Bo Cy's, Cy Dee's, Dee the old spare, the spare Ann's); everyone checks;
/// Bo goes out, Ann 2, Cy 1, Dee 4 cards left.
const ROUND_TWO: [(&str, &str); 5] = [
    ("Ann", "Bo"),
    ("Bo", "Cy"),
    ("Cy", "Dee"),
    ("Dee", "spare"),
    ("spare", "Ann"),
];

fn round_two() -> Vec<(String, String)> {
    let mut v: Vec<(String, String)> = ROUND_TWO
        .iter()
        .map(|(to, from)| {
            let field = if *to == "spare" {
                "hand_spare".to_string()
            } else {
                format!("hand_{}", seat(to))
            };
            f(field, deal_of(from))
        })
        .collect();
    v.extend([
        f("out", "Bo"),
        f(format!("left_{}", seat("Ann")), "2"),
        f(format!("left_{}", seat("Cy")), "1"),
        f(format!("left_{}", seat("Dee")), "4"),
    ]);
    v
}

fn round_two_input(after_one: &Value) -> Value {
    json!({
        "profile": "classic",
        "players": PLAYERS,
        "dealer": "Ann",
        "chips": after_one["chips"],
        "board": after_one["board"],
        "ante": 1,
        "hands": ROUND_TWO.iter().map(|(to, from)| (to.to_string(), json!(deal_of(from)))).collect::<serde_json::Map<_, _>>(),
        "poker": {},
        "michigan": {"out": "Bo", "cards_left": {"Ann": 2, "Cy": 1, "Dee": 4}},
        "chip_value": "0.25"
    })
}

fn engine_round(input: &Value) -> Value {
    let text = pitbook::domain::tripoley::round_json(input.to_string().as_bytes(), false)
        .expect("the engine plays the round");
    serde_json::from_str(&text).expect("json")
}

/// The page shows each player's chips and money and the board as the engine
/// says.
fn check_page(body: &str, result: &Value) {
    for (i, p) in PLAYERS.iter().enumerate() {
        let chips = result["chips"][p].as_u64().expect("chips");
        let row = format!("<tr id=\"balance-{i}\">");
        let at = body.find(&row).unwrap_or_else(|| panic!("{row}: {body}"));
        let rest = &body[at..at + 300];
        assert!(
            rest.contains(&format!("<td class=\"chips num\">{chips}</td>")),
            "{p} {chips}: {rest}"
        );
        let money = result["money"][p].as_str().expect("money");
        // As every page shows money: 1,234.50.
        let shown = format!(
            "<td class=\"money num\">{}</td>",
            pitbook::domain::common::money::Money::parse(money)
                .expect("money")
                .to_display()
        );
        assert!(rest.contains(&shown), "{p} {shown}: {rest}");
    }
    for s in SECTIONS {
        let chips = result["board"][s].as_u64().expect("section");
        assert!(
            body.contains(&format!("id=\"board-after-{s}\" data-chips=\"{chips}\"")),
            "{s} {chips}"
        );
    }
    let players: u64 = PLAYERS
        .iter()
        .map(|p| result["chips"][p].as_u64().unwrap())
        .sum();
    let board: u64 = SECTIONS
        .iter()
        .map(|s| result["board"][s].as_u64().unwrap())
        .sum();
    assert_eq!(players + board, 160, "conservation");
}

async fn verify_ok(app: &TestApp) {
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

async fn a_game_is_played_through_the_pages(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let home = dana.get("/").await;
    assert!(home.body.contains("href=\"/tripoley\""), "{}", home.body);
    let game = new_game(&mut dana, "classic").await;
    let page = dana.get(&game).await;
    assert!(page.body.contains("Round 1: Dee deals"), "{}", page.body);
    assert!(page.body.contains("id=\"step-spare\""));
    assert_eq!(records(&app, "tripoley_started").await, 1);

    // Check the deal: the hands read back and the payouts previewed, nothing recorded.
    let mut check = round_one();
    check.push(f("intent", "check"));
    let page = action(&mut dana, &game, &check).await;
    assert_eq!(page.status, 200, "{}", page.body);
    assert!(page.body.contains("id=\"readings\""), "{}", page.body);
    // Ann: the Ace of hearts, 8-9-10 of spades; the spare: King of hearts.
    assert!(page.body.contains("<td>Ann</td>"), "{}", page.body);
    assert!(page.body.contains("spades"), "{}", page.body);
    assert!(page.body.contains("Four of a kind") || page.body.contains("Straight"));
    assert!(page.body.contains("id=\"preview\""), "{}", page.body);
    assert!(page.body.contains("Cy buys"), "{}", page.body);
    assert_eq!(records(&app, "tripoley_round").await, 0);

    let expected_one = engine_round(&round_one_input());
    let mut pay = round_one();
    pay.push(f("intent", "round"));
    let page = action(&mut dana, &game, &pay).await;
    assert_eq!(page.status, 303, "{}", page.body);
    let page = dana.get(&game).await;
    check_page(&page.body, &expected_one);
    assert!(page.body.contains("Round 2: Ann deals"), "{}", page.body);
    // The board before round 1 was empty; the steps are read aloud.
    assert!(
        page.body
            .contains("id=\"board-before-pot\" data-chips=\"0\"")
    );
    for step in expected_one["steps"].as_array().unwrap() {
        let text = step["explanation"].as_str().unwrap();
        let html = text.replace('"', "&#34;").replace('\'', "&#39;");
        assert!(
            page.body.contains(text) || page.body.contains(&html),
            "{text}"
        );
    }

    let expected_two = engine_round(&round_two_input(&expected_one));
    let mut pay = round_two();
    pay.push(f("intent", "round"));
    let page = action(&mut dana, &game, &pay).await;
    assert_eq!(page.status, 303, "{}", page.body);
    let page = dana.get(&game).await;
    check_page(&page.body, &expected_two);
    for s in SECTIONS {
        let before = expected_one["board"][s].as_u64().unwrap();
        assert!(
            page.body
                .contains(&format!("id=\"board-before-{s}\" data-chips=\"{before}\"")),
            "{s}"
        );
    }
    assert!(page.body.contains("Round 3: Bo deals"), "{}", page.body);
    assert!(page.body.contains("id=\"history\""));
    assert_eq!(records(&app, "tripoley_round").await, 2);

    // The end of the game: everything to the Pot, the best last hand takes it.
    let page = action(
        &mut dana,
        &game,
        &[
            f("intent", "final"),
            f(format!("final_{}", seat("Dee")), "2c 3c 4c 5c 7d"),
            f(format!("final_{}", seat("Ann")), "Ah Kh Qh Jh Th"),
            f(format!("final_{}", seat("Bo")), "2d 3d 4d 5d 7s"),
            f(format!("final_{}", seat("Cy")), "2h 3h 4h 5h 7c"),
        ],
    )
    .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let page = dana.get(&game).await;
    assert!(page.body.contains("id=\"finished\""), "{}", page.body);
    assert!(
        page.body.contains("Last hand: Ann wins the Pot"),
        "{}",
        page.body
    );
    assert!(!page.body.contains("id=\"round-form\""));
    let pot: u64 = SECTIONS
        .iter()
        .map(|s| expected_two["board"][s].as_u64().unwrap())
        .sum();
    let ann = expected_two["chips"]["Ann"].as_u64().unwrap() + pot;
    assert!(
        page.body
            .contains(&format!("<td class=\"chips num\">{ann}</td>")),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "tripoley_finished").await, 1);
    verify_ok(&app).await;
}

async fn bad_input_is_refused_beside_the_form(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    // A chip value that is not money, on the start form, typed values kept.
    let csrf = dana.csrf("/tripoley").await;
    let page = dana
        .post(
            "/tripoley",
            &[
                ("csrf", &csrf),
                ("players", "Ann, Bo"),
                ("chip_value", "a quarter"),
            ],
        )
        .await;
    assert_eq!(page.status, 422, "{}", page.body);
    // Beside its field, the message only.
    assert!(
        page.body
            .contains("id=\"chip_value-error\">&#34;a quarter&#34; is not a decimal"),
        "{}",
        page.body
    );
    assert!(page.body.contains("value=\"Ann, Bo\""), "{}", page.body);
    let page = dana
        .post("/tripoley", &[("csrf", &csrf), ("players", "Ann, Ann")])
        .await;
    assert_eq!(page.status, 422);
    assert!(page.body.contains("twice"), "{}", page.body);
    assert_eq!(records(&app, "tripoley_started").await, 0);

    let game = new_game(&mut dana, "classic").await;
    // A card twice: Ann's Ah also typed in Bo's hand.
    let mut twice = round_one();
    for (k, v) in twice.iter_mut() {
        if *k == format!("hand_{}", seat("Bo")) {
            *v = format!("{v} Ah");
        }
    }
    twice.push(f("intent", "round"));
    let page = action(&mut dana, &game, &twice).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("dealt twice"), "{}", page.body);
    // Beside Bo's hand, which is marked invalid.
    let beside = format!("id=\"hand_{}-error\">Ah is dealt twice", seat("Bo"));
    assert!(page.body.contains(&beside), "{}", page.body);
    assert!(!page.body.contains("id=\"form-error\""), "{}", page.body);
    // The typed hands are still in the form.
    assert!(page.body.contains(deal_of("Cy")), "{}", page.body);
    // A buyer not at the table.
    let mut stranger = round_one();
    for (k, v) in stranger.iter_mut() {
        if k == "buyer" {
            *v = "Zed".into();
        }
    }
    stranger.push(f("intent", "round"));
    let page = action(&mut dana, &game, &stranger).await;
    assert_eq!(page.status, 422, "{}", page.body);
    // Beside the buyer, the message only.
    assert!(
        page.body.contains("id=\"buyer-error\">&#34;Zed&#34;"),
        "{}",
        page.body
    );
    // Not a number.
    let mut words = round_one();
    words.push(f(format!("contrib_{}", seat("Bo")), "ten"));
    words.retain(|(k, v)| !(k == &format!("contrib_{}", seat("Bo")) && v == "10"));
    words.push(f("intent", "round"));
    let page = action(&mut dana, &game, &words).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body.contains("poker.contributions.Bo: &#34;ten&#34;"),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "tripoley_round").await, 0);

    // The spare hand under cadaco.
    let cadaco = new_game(&mut dana, "cadaco").await;
    let page = dana.get(&cadaco).await;
    assert!(!page.body.contains("id=\"step-spare\""));
    let mut spare = round_one();
    spare.push(f("intent", "round"));
    let page = action(&mut dana, &cadaco, &spare).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(page.body.contains("cadaco"), "{}", page.body);
    assert_eq!(records(&app, "tripoley_round").await, 0);
    verify_ok(&app).await;
}

async fn roles_stale_pages_double_submits_and_csrf(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let mut audrey = signed_in(&app, "audrey", Role::Auditor).await;
    let game = new_game(&mut dana, "classic").await;

    // An auditor reads but cannot start or act.
    let page = audrey.get(&game).await;
    assert_eq!(page.status, 200);
    assert!(!page.body.contains("id=\"round-form\""));
    let csrf = audrey.csrf("/tripoley").await;
    let page = audrey
        .post("/tripoley", &[("csrf", &csrf), ("players", "Ann, Bo")])
        .await;
    assert_eq!(page.status, 403);
    let mut form = round_one();
    form.extend([
        f("intent", "round"),
        f("version", "1"),
        f("csrf", csrf.clone()),
    ]);
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(audrey.post(&game, &pairs).await.status, 403);

    // CSRF missing.
    let mut form = round_one();
    form.extend([f("intent", "round"), f("version", "1")]);
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(dana.post(&game, &pairs).await.status, 403);
    assert_eq!(records(&app, "tripoley_round").await, 0);

    // The same form twice records once; the old page is then stale.
    let page = dana.get(&game).await;
    let mut form = round_one();
    form.extend([
        f("intent", "round"),
        f("csrf", input_value(&page.body, "csrf")),
        f("version", input_value(&page.body, "version")),
        f(
            "idempotency_key",
            input_value(&page.body, "idempotency_key"),
        ),
    ]);
    let pairs: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    assert_eq!(dana.post(&game, &pairs).await.status, 303);
    assert_eq!(dana.post(&game, &pairs).await.status, 303);
    assert_eq!(records(&app, "tripoley_round").await, 1);
    let mut stale = round_two();
    stale.extend([
        f("intent", "round"),
        f("csrf", input_value(&page.body, "csrf")),
        f("version", "1"),
        f("idempotency_key", "another-key"),
    ]);
    let pairs: Vec<(&str, &str)> = stale
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    let page = dana.post(&game, &pairs).await;
    assert_eq!(page.status, 409, "{}", page.body);
    assert!(page.body.contains("reload"), "{}", page.body);
    assert_eq!(records(&app, "tripoley_round").await, 1);
    verify_ok(&app).await;
}

/// The kept games' shared handlers (`web/kept_games.rs`) on both games: an
/// unknown game is 404 to read and to act on; a form without its version is
/// refused beside it (Tripoley's message saying nothing was recorded, the
/// dice games' as it was) and records nothing.
async fn unknown_games_and_a_form_without_its_version(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    for path in ["/tripoley", "/dice"] {
        let unknown = format!("{path}/no-such-game");
        let page = dana.get(&unknown).await;
        assert_eq!(page.status, 404, "{}", page.body);
        assert!(page.body.contains("no game"), "{}", page.body);
        let csrf = dana.csrf(path).await;
        let form = [
            ("csrf", csrf.as_str()),
            ("version", "1"),
            ("intent", "final"),
        ];
        assert_eq!(dana.post(&unknown, &form).await.status, 404);
    }

    let game = new_game(&mut dana, "classic").await;
    let csrf = dana.csrf(&game).await;
    let page = dana
        .post(&game, &[("csrf", csrf.as_str()), ("intent", "final")])
        .await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body
            .contains("version: missing; reload the page. Nothing was recorded."),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "tripoley_finished").await, 0);

    let csrf = dana.csrf("/dice").await;
    let page = dana
        .post("/dice", &[("csrf", csrf.as_str()), ("players", "Ann, Bo")])
        .await;
    assert_eq!(page.status, 303, "{}", page.body);
    let dice = page.location;
    let csrf = dana.csrf(&dice).await;
    let form = [("csrf", csrf.as_str()), ("intent", "stop")];
    let page = dana.post(&dice, &form).await;
    assert_eq!(page.status, 422, "{}", page.body);
    assert!(
        page.body.contains("version: missing; reload the page<"),
        "{}",
        page.body
    );
    assert_eq!(records(&app, "ten_thousand_action").await, 0);
}

on_both_databases!(
    a_game_is_played_through_the_pages,
    bad_input_is_refused_beside_the_form,
    roles_stale_pages_double_submits_and_csrf,
    unknown_games_and_a_form_without_its_version,
);
