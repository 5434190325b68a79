//! A finished test says PASS or FAIL against the kind's pass mark, lists
//! each wrong answer beside the right one with the engine's why, and
//! offers the next drill in one tap; a drill about a hand is drawn as the
//! live hand's table and answered with its controls — on both databases.

use crate::common::browser::{Browser, signed_in, text_of};
use crate::common::{Backend, spawn_app};
use crate::http_pages::{drill_on, seat_of};
use pitbook::domain::staff::Role;
use pitbook::domain::training::Question;

/// Starts a run from the training page's form; returns its page's path.
async fn start(b: &mut Browser, kind: &str, level: &str, mode: &str) -> String {
    let csrf = b.csrf("/training").await;
    let form = [
        ("csrf", csrf.as_str()),
        ("kind", kind),
        ("level", level),
        ("mode", mode),
        ("questions", "2"),
    ];
    let started = b.post("/training/runs", &form).await;
    assert_eq!(started.status, 303, "{}", started.body);
    started.location
}

/// Answers the drill on `run`'s page with a seat: the right one or not.
async fn answer_seat(b: &mut Browser, app: &crate::common::TestApp, run: &str, right: bool) {
    let page = b.get(run).await;
    let (drill_id, drill) = drill_on(app, &page.body).await;
    let seat = seat_of(&drill);
    let seats = match &drill.question {
        Question::ActionSeat(q) => u64::from(q.seats),
        _ => panic!("an ACTION seat drill"),
    };
    let given = if right { seat } else { seat % seats + 1 };
    let csrf = b.csrf(run).await;
    let answer = format!("{run}/answer");
    let form = [
        ("csrf", csrf.as_str()),
        ("drill", drill_id.as_str()),
        ("seat", &given.to_string()),
    ];
    assert_eq!(b.post(&answer, &form).await.status, 303);
}

async fn a_finished_test_says_pass_or_fail_and_what_to_take_next(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut tess = signed_in(&app, "tess", Role::Trainee).await;
    // One wrong of two: FAIL (the default mark is 95 %).
    let run = start(&mut tess, "action-seat", "2", "test").await;
    answer_seat(&mut tess, &app, &run, false).await;
    answer_seat(&mut tess, &app, &run, true).await;
    let page = tess.get(&run).await;
    assert_eq!(text_of(&page.body, "test-verdict"), "FAIL");
    assert_eq!(
        text_of(&page.body, "short-of"),
        "1 right of 2 (needs 95%)",
        "{}",
        page.body
    );
    assert!(text_of(&page.body, "pass-mark").contains("95% right, a median under 20 s"));
    let wrong = text_of(&page.body, "wrong");
    assert!(
        wrong.starts_with("Question 1. ")
            && wrong.contains("Your answer")
            && wrong.contains("The answer"),
        "the wrong answer beside the right one: {wrong}"
    );
    let next = text_of(&page.body, "next-run");
    assert!(
        next.contains("Practise ACTION seat at level 2 again"),
        "{next}"
    );
    assert!(page.body.contains("name=\"mode\" value=\"practice\""));
    // Both right: PASS, and the test a level up.
    let run = start(&mut tess, "action-seat", "2", "test").await;
    answer_seat(&mut tess, &app, &run, true).await;
    answer_seat(&mut tess, &app, &run, true).await;
    let page = tess.get(&run).await;
    assert_eq!(text_of(&page.body, "test-verdict"), "PASS");
    assert!(!page.body.contains("id=\"short-of\""));
    assert!(!page.body.contains("id=\"wrong\""));
    assert!(text_of(&page.body, "next-run").contains("Take the level 3 test"));
}

async fn a_settle_drill_is_drawn_as_the_table(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut tess = signed_in(&app, "tess", Role::Trainee).await;
    let run = start(&mut tess, "settle-all", "1", "practice").await;
    let page = tess.get(&run).await;
    let (_, drill) = drill_on(&app, &page.body).await;
    let Question::SettleAll(q) = &drill.question else {
        panic!("a settle-all drill");
    };
    let s = &q.scenario;
    assert_eq!(
        text_of(&page.body, "ask"),
        "Settle every wager: each player's net and what returns to the PD."
    );
    let bank = format!("PD bank {}", s.pd.bank.to_display());
    assert!(text_of(&page.body, "svg-bank").contains(&bank), "{bank}");
    // Each decided seat coloured by its result, the PD's as the PD's.
    for (seat, outcome) in &s.outcomes.as_ref().expect("outcomes").0 {
        let class = format!("<g class=\"seat r-{outcome}\" data-seat=\"{seat}\">");
        assert!(page.body.contains(&class), "{class}");
    }
    let pd = format!("<g class=\"seat pd\" data-seat=\"{}\">", s.pd.seat);
    assert!(page.body.contains(&pd));
    // The whole question folded under it; amounts on the money keypad.
    assert!(text_of(&page.body, "question-words").contains("The question in words"));
    assert!(
        page.body
            .contains("id=\"answer-pd-returned\" name=\"pd_returned\" inputmode=\"decimal\"")
    );
    assert!(page.body.contains("data-keypad"));
}

/// A drill about cards shows them as the set hands are shown; a dice
/// drill its dice as the dice keys show them; their words stay beside.
async fn card_and_dice_drills_show_their_cards_and_dice(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut tess = signed_in(&app, "tess", Role::Trainee).await;
    let run = start(&mut tess, "decide", "2", "practice").await;
    let page = tess.get(&run).await;
    let (_, drill) = drill_on(&app, &page.body).await;
    let Question::Decide(q) = &drill.question else {
        panic!("a decide drill");
    };
    assert!(
        text_of(&page.body, "question").contains("Who wins"),
        "{}",
        page.body
    );
    // Four rows: each hand's five and two, every card a face.
    assert_eq!(
        page.body.matches("class=\"hand-part drill-cards\"").count(),
        4
    );
    assert_eq!(page.body.matches("class=\"pc ").count(), 14);
    let first = q.player.high.split_whitespace().next().unwrap();
    assert!(
        page.body
            .contains(&format!("title=\"{}", face_label(first)))
    );
    let run = start(&mut tess, "poker-dice", "1", "practice").await;
    let page = tess.get(&run).await;
    let (_, drill) = drill_on(&app, &page.body).await;
    let Question::PokerDice(q) = &drill.question else {
        panic!("a poker dice drill");
    };
    for (i, hand) in q.hands.iter().enumerate() {
        let keys: String = hand
            .split_whitespace()
            .map(|f| format!("<span class=\"die-key\"><span>{f}</span></span>"))
            .collect();
        let label = format!("Hand {}", i + 1);
        let row = format!(
            "<div class=\"die-pad\" role=\"group\" aria-label=\"{label}\"><span class=\"which\">{label}</span>{keys}</div>"
        );
        assert!(page.body.contains(&row), "{row}\n{}", page.body);
    }
}

/// A collection drill is the wager or the bank on the felt beside the
/// posted schedule; a Tripoley drill the board as the game draws it, the
/// players' chips beside it and their cards; a house-way drill's hands are
/// filled by the card picker.
async fn collection_tripoley_and_house_way_drills_show_the_table(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut tess = signed_in(&app, "tess", Role::Trainee).await;
    let run = start(&mut tess, "collection", "3", "practice").await;
    let page = tess.get(&run).await;
    let (_, drill) = drill_on(&app, &page.body).await;
    let Question::Collection(q) = &drill.question else {
        panic!("a collection drill");
    };
    let drawing = text_of(&page.body, "drawing");
    assert!(drawing.contains(&q.amount.to_display()), "{drawing}");
    let ask = text_of(&page.body, "ask");
    assert!(ask.starts_with("What is the collection on"), "{ask}");
    let figures = &page.body[page
        .body
        .find("id=\"drill-figures\"")
        .expect("the schedule")..];
    for b in &q.schedule {
        let row = format!(
            "<th scope=\"row\">{} to {}</th><td class=\"num\">{}</td>",
            b.from.to_display(),
            b.to.to_display(),
            b.fee.to_display()
        );
        assert!(figures.contains(&row), "{row}");
    }
    let run = start(&mut tess, "tripoley", "2", "practice").await;
    let page = tess.get(&run).await;
    let (_, drill) = drill_on(&app, &page.body).await;
    let Question::Tripoley(q) = &drill.question else {
        panic!("a Tripoley drill");
    };
    let r = &q.round;
    for section in pitbook::domain::tripoley::Section::ALL {
        let chips = r.board.get(section.key()).copied().unwrap_or(0);
        let tile = format!(
            "id=\"drill-board-{}\" data-chips=\"{chips}\"",
            section.key()
        );
        assert!(page.body.contains(&tile), "{tile}");
    }
    for (name, chips) in &r.chips.0 {
        let put = r.poker.contributions.get(name).expect("a bet");
        assert!(page.body.contains(&format!(
            "<td class=\"num\">{chips}</td><td class=\"num\">{put}</td>"
        )));
        assert!(
            page.body
                .contains(&format!("<span class=\"which\">{name}&#39;s hand</span>"))
        );
    }
    let run = start(&mut tess, "house-way", "1", "practice").await;
    let page = tess.get(&run).await;
    for (name, cards) in [("high", 5), ("low", 2)] {
        let found = page.body.find(&format!("name=\"{name}\"")).expect(name);
        let tag = &page.body[found..found + page.body[found..].find('>').unwrap()];
        assert!(tag.contains(&format!("data-cards=\"{cards}\"")), "{tag}");
    }
}

/// How a card is named to a screen reader ("ace of spades").
fn face_label(card: &str) -> String {
    let card = pitbook::domain::cards::parse_cards(card).unwrap()[0];
    pitbook::domain::double_hand_poker::hand_words::CardFace::of(card).label
}

on_both_databases!(
    card_and_dice_drills_show_their_cards_and_dice,
    collection_tripoley_and_house_way_drills_show_the_table,
    a_finished_test_says_pass_or_fail_and_what_to_take_next,
    a_settle_drill_is_drawn_as_the_table,
);
