//! The training pages on both databases: a trainee's practice (wrong,
//! then a wrong shape kept beside its field, then right), progress, and
//! the supervisor's pass marks, trainees side by side and sign-off.

use crate::common::browser::{Browser, csrf_of, input_value, signed_in, text_of};
use crate::common::{Backend, TestApp, bearer_client, records, spawn_app, test_key};
use crate::http_api::post;
use pitbook::domain::staff::Role;
use pitbook::domain::training::{Drill, Kind, Level};
use serde_json::json;

/// The drill on the run page `body`: its id and the drill (from the seed
/// the database holds).
pub async fn drill_on(app: &TestApp, body: &str) -> (String, Drill) {
    let id = input_value(body, "drill");
    let sql = "SELECT kind, level, seed FROM drills WHERE id = $1";
    let (kind, level, seed): (String, i64, i64) = match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_as(sql).bind(&id).fetch_one(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_as(sql).bind(&id).fetch_one(p).await,
    }
    .expect("the drill's row");
    let drill = Drill::generate(
        Kind::parse(&kind).expect("kind"),
        Level::new(level).expect("level"),
        seed as u64,
    );
    (id, drill)
}

pub fn seat_of(drill: &Drill) -> u64 {
    serde_json::to_value(&drill.answer).expect("answer")["seat"]
        .as_u64()
        .expect("seat")
}

/// Starts a practice run of action-seat drills; returns its page's path.
async fn practice(b: &mut Browser) -> String {
    let csrf = b.csrf("/training").await;
    let form = [
        ("csrf", csrf.as_str()),
        ("kind", "action-seat"),
        ("level", "1"),
        ("mode", "practice"),
    ];
    let started = b.post("/training/runs", &form).await;
    assert_eq!(started.status, 303, "{}", started.body);
    assert!(
        started.location.starts_with("/training/runs/"),
        "{}",
        started.location
    );
    started.location
}

async fn a_trainee_practises_wrong_then_right_and_sees_progress(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut tess = signed_in(&app, "tess", Role::Trainee).await;
    let home = tess.get("/").await;
    assert!(
        home.body.contains("href=\"/training\""),
        "the home page links to training"
    );
    // The start form's refusals, beside their fields, nothing recorded.
    let csrf = tess.csrf("/training").await;
    let refused = tess
        .post(
            "/training/runs",
            &[
                ("csrf", &csrf),
                ("kind", "settle"),
                ("level", "1"),
                ("mode", "test"),
                ("questions", "ten"),
            ],
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(text_of(&refused.body, "questions-error").contains("\"ten\" is not a whole number"));
    let refused = tess
        .post(
            "/training/runs",
            &[
                ("csrf", &csrf),
                ("kind", "settle"),
                ("level", "1"),
                ("mode", "practice"),
            ],
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(text_of(&refused.body, "kind-error").contains("\"settle\" is not a kind of drill"));
    assert_eq!(records(&app, "drill_run_started").await, 0);
    let run = practice(&mut tess).await;
    let page = tess.get(&run).await;
    assert_eq!(page.status, 200);
    let (drill_id, drill) = drill_on(&app, &page.body).await;
    assert!(text_of(&page.body, "question").contains("Which seat gets the first pile"));
    // Drawn as the table: the seats, the PD's, the dice thrown; a key for
    // every seat (the PD's own takes the first pile on 1, 8 and 15), one
    // tap answering.
    assert_eq!(
        text_of(&page.body, "ask"),
        "The dice are thrown: which seat gets the ACTION button?"
    );
    assert!(page.body.contains("class=\"table-drawing\""));
    let pitbook::domain::training::Question::ActionSeat(q) = &drill.question else {
        panic!("an ACTION seat drill");
    };
    let seats = q.seats;
    let [a, b, c] = q.dice;
    assert_eq!(text_of(&page.body, "dice-thrown"), format!("{a}{b}{c}"));
    for seat in 1..=seats {
        let key = format!("id=\"answer-seat-{seat}\"");
        assert!(page.body.contains(&key), "seat {seat}");
    }
    assert!(
        !page.body.contains("id=\"submit-answer\""),
        "the key answers"
    );
    let right = seat_of(&drill);
    let wrong = if right == 1 { 2 } else { 1 };
    let csrf = csrf_of(&page.body);
    let answer = format!("/training/runs/{}/answer", &run["/training/runs/".len()..]);
    let sent = tess
        .post(
            &answer,
            &[
                ("csrf", &csrf),
                ("drill", &drill_id),
                ("seat", &wrong.to_string()),
            ],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let page = tess.get(&run).await;
    assert_eq!(text_of(&page.body, "verdict"), "Wrong");
    assert_eq!(text_of(&page.body, "correct"), format!("Seat {right}."));
    assert!(!text_of(&page.body, "explanation").is_empty());
    // The next drill; a wrong shape comes back beside its field, kept.
    let next = format!("{run}/next");
    assert_eq!(tess.post(&next, &[("csrf", &csrf)]).await.status, 303);
    let page = tess.get(&run).await;
    let (drill_id, drill) = drill_on(&app, &page.body).await;
    let before = records(&app, "drill_answered").await;
    let refused = tess
        .post(
            &answer,
            &[("csrf", &csrf), ("drill", &drill_id), ("seat", "four")],
        )
        .await;
    assert_eq!(refused.status, 422, "{}", refused.body);
    assert!(
        text_of(&refused.body, "answer-seat-error").contains("\"four\" is not"),
        "{}",
        refused.body
    );
    // The seat is tapped, not typed: the refusal names what came and the
    // seat keys are offered again.
    assert!(
        refused.body.contains("id=\"seat-keys\""),
        "{}",
        refused.body
    );
    assert_eq!(
        records(&app, "drill_answered").await,
        before,
        "nothing recorded"
    );
    let seat = seat_of(&drill).to_string();
    let sent = tess
        .post(
            &answer,
            &[("csrf", &csrf), ("drill", &drill_id), ("seat", &seat)],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let page = tess.get(&run).await;
    assert_eq!(text_of(&page.body, "verdict"), "Right");
    assert_eq!(text_of(&page.body, "score"), "1 of 2");
    // Progress: two attempts, one right, a chart over attempts, the run
    // named by its skill in words.
    let progress = tess.get("/training/progress").await;
    assert_eq!(progress.status, 200);
    let row = text_of(&progress.body, "kind-action-seat");
    assert!(row.starts_with("ACTION seat 2 50%"), "{row}");
    assert!(row.ends_with("not yet no attempts at level 2 or above yet (needs 40)"));
    assert!(
        progress.body.contains("id=\"trend-action-seat\""),
        "a trend chart"
    );
    let runs = text_of(&progress.body, "runs");
    assert!(runs.contains("practiceACTION seat11 of 2"), "{runs}");
    // Another trainee may neither answer nor see it; a supervisor may see it.
    let mut tom = signed_in(&app, "tom", Role::Trainee).await;
    assert_eq!(tom.get(&run).await.status, 403);
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    let tess_page = sam.get("/training/trainees/tess").await;
    assert!(
        tess_page.body.contains(&format!("href=\"{run}\"")),
        "the supervisor reaches the run from tess's page"
    );
    let seen = sam.get(&run).await;
    assert_eq!(seen.status, 200);
    assert!(
        !seen.body.contains("id=\"next-form\""),
        "only the trainee gets the next drill"
    );
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

/// Sets `kind`'s pass mark through the page; returns the response.
/// Posts the pass marks' one form, every kind's four numbers (window,
/// accuracy, median, level) and whether required from `mark_of`.
async fn set_marks(
    b: &mut Browser,
    mark_of: impl Fn(Kind) -> ([&'static str; 4], bool),
) -> crate::common::browser::Page {
    let csrf = b.csrf("/training/pass-marks").await;
    let mut form = vec![("csrf".to_string(), csrf)];
    for kind in Kind::ALL {
        let (mark, required) = mark_of(kind);
        let fields = ["window", "accuracy_pct", "median_seconds", "level"];
        for (field, value) in fields.iter().zip(mark) {
            form.push((format!("{}.{field}", kind.name()), value.to_string()));
        }
        if required {
            form.push((format!("{}.required", kind.name()), "yes".to_string()));
        }
    }
    let form: Vec<(&str, &str)> = form.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    b.post("/training/pass-marks", &form).await
}

async fn a_supervisor_sets_pass_marks_and_signs_off_a_ready_trainee(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut sam = signed_in(&app, "sam", Role::Supervisor).await;
    // Every mark in one form: one refusal refuses it all, beside its
    // field, the skill named in the summary, what was typed kept.
    let refused = set_marks(&mut sam, |k| match k {
        Kind::Decide => (["2", "95", "20", "2"], true),
        Kind::ActionSeat => (["5", "80", "600", "1"], true),
        _ => (["40", "95", "20", "2"], true),
    })
    .await;
    assert_eq!(refused.status, 422);
    assert!(
        text_of(&refused.body, "decide-window-error").contains("not a number of attempts"),
        "{}",
        refused.body
    );
    assert!(text_of(&refused.body, "error-summary").contains("Deciding a position: 2 is not"));
    assert!(refused.body.contains(r#"id="action-seat-median_seconds" name="action-seat.median_seconds" inputmode="numeric" size="4" aria-label="ACTION seat: Median under (s)" value="600""#), "typed kept");
    assert_eq!(records(&app, "pass_mark_set").await, 0, "nothing recorded");
    // Only ACTION seat required, at an easy mark; the others optional.
    let marks = |k: Kind| match k {
        Kind::ActionSeat => (["5", "80", "600", "1"], true),
        _ => (["40", "95", "20", "2"], false),
    };
    let set = set_marks(&mut sam, marks).await;
    assert_eq!(set.status, 303, "{}", set.body);
    assert_eq!(records(&app, "pass_mark_set").await, 10);
    // Saved again unchanged: nothing recorded.
    assert_eq!(set_marks(&mut sam, marks).await.status, 303);
    assert_eq!(records(&app, "pass_mark_set").await, 10);
    app.add_user("tess", Role::Trainee).await;
    let tess = bearer_client(&app.token_for("tess").await);
    let sign_off = "/training/trainees/tess/sign-off";
    let csrf = sam.csrf("/training/trainees/tess").await;
    let early = sam
        .post(sign_off, &[("csrf", &csrf), ("promote", "yes")])
        .await;
    assert_eq!(early.status, 409, "{}", early.body);
    assert!(
        text_of(&early.body, "refusal")
            .contains("not ready: the pass mark is not met for ACTION seat")
    );
    for seed in 0..5 {
        let (_, issued) = post(
            &app,
            &tess,
            "/api/v1/drills",
            json!({"kind": "action-seat", "seed": seed}),
        )
        .await;
        let drill = Drill::generate(Kind::ActionSeat, Level::EASY, seed);
        let path = format!(
            "/api/v1/drills/{}/answer",
            issued["id"].as_str().expect("id")
        );
        let (status, _) = post(&app, &tess, &path, json!({"answer": drill.answer})).await;
        assert_eq!(status, 200);
    }
    let side_by_side = sam.get("/training/trainees").await;
    assert_eq!(side_by_side.status, 200);
    assert!(
        text_of(&side_by_side.body, "trainee-tess").contains("ready 100% of 5"),
        "{}",
        side_by_side.body
    );
    let page = sam.get("/training/trainees/tess").await;
    assert!(
        text_of(&page.body, "readiness").starts_with("Ready"),
        "{}",
        page.body
    );
    let signed = sam
        .post(sign_off, &[("csrf", &csrf), ("promote", "yes")])
        .await;
    assert_eq!(signed.status, 303, "{}", signed.body);
    let page = sam.get("/training/trainees/tess").await;
    assert!(text_of(&page.body, "signed-off").contains("Signed off by sam"));
    assert!(text_of(&page.body, "signed-off").contains("promoted to dealer"));
    let me = tess.get(app.url("/api/v1/me")).send().await.expect("me");
    let me: serde_json::Value = me.json().await.expect("json");
    assert_eq!(me["role"], "dealer", "{me}");
    let again = sam
        .post(sign_off, &[("csrf", &csrf), ("promote", "yes")])
        .await;
    assert_eq!(again.status, 409, "signed off once: {}", again.body);
    assert!(text_of(&again.body, "refusal").contains("already signed off"));
    // No one signs themselves off; dealers may not sign anyone off.
    let own = sam
        .post("/training/trainees/sam/sign-off", &[("csrf", &csrf)])
        .await;
    assert_eq!(own.status, 403, "{}", own.body);
    let mut dana = signed_in(&app, "dana", Role::Dealer).await;
    let dcsrf = dana.csrf("/training").await;
    assert_eq!(dana.post(sign_off, &[("csrf", &dcsrf)]).await.status, 403);
    assert_eq!(records(&app, "trainee_signed_off").await, 1);
    let report = pitbook::store::verify::verify(&app.database.db, &test_key(), 1, None)
        .await
        .expect("verify");
    assert!(report.ok(), "{report:?}");
}

/// A house-way drill answered links to what each setting of its cards is
/// worth (the value page, `/tools/hand-ev`).
async fn a_house_way_drill_links_to_its_cards_value(backend: Backend) {
    let app = spawn_app(backend).await;
    let mut tess = signed_in(&app, "tess", Role::Trainee).await;
    let csrf = tess.csrf("/training").await;
    let form = [
        ("csrf", csrf.as_str()),
        ("kind", "house-way"),
        ("level", "1"),
        ("mode", "practice"),
    ];
    let run = tess.post("/training/runs", &form).await.location;
    let page = tess.get(&run).await;
    let (drill_id, drill) = drill_on(&app, &page.body).await;
    assert!(
        !page.body.contains("id=\"ev-link\""),
        "not before the answer"
    );
    let cards = drill
        .seven_cards()
        .expect("a house-way drill's cards")
        .to_string();
    let answer = format!("{run}/answer");
    let right = serde_json::to_value(&drill.answer).expect("answer");
    let (high, low) = (
        right["high"].as_str().unwrap(),
        right["low"].as_str().unwrap(),
    );
    let sent = tess
        .post(
            &answer,
            &[
                ("csrf", &csrf),
                ("drill", &drill_id),
                ("high", high),
                ("low", low),
            ],
        )
        .await;
    assert_eq!(sent.status, 303, "{}", sent.body);
    let page = tess.get(&run).await;
    assert_eq!(text_of(&page.body, "verdict"), "Right");
    let query = serde_urlencoded::to_string([("cards", cards.as_str())]).unwrap();
    let href = format!("href=\"/tools/hand-ev?{query}\" id=\"ev-link\"");
    assert!(page.body.contains(&href), "{href} in {}", page.body);
}

on_both_databases!(
    a_house_way_drill_links_to_its_cards_value,
    a_trainee_practises_wrong_then_right_and_sees_progress,
    a_supervisor_sets_pass_marks_and_signs_off_a_ready_trainee,
);
