//! `audit verify` replays Tripoley games, on both databases: an untouched
//! game verifies; an edited record is caught at its seq — by its hash, and,
//! when whoever edited it also held the key and re-signed the chain, by the
//! replay; an edited game row is caught at the game's last record.

use crate::common::{Backend, TestApp, spawn_app, tamper, test_key};
use pitbook::domain::common::money::Money;
use pitbook::domain::tripoley::Profile;
use pitbook::domain::tripoley::betting::BetAction;
use pitbook::domain::tripoley::game::{GameSetup, TripoleyGame};
use pitbook::domain::tripoley::round_steps::RoundStep;
use pitbook::store::audit::{AuditRecord, SELECT_RECORD};
use pitbook::store::kept_games;
use pitbook::store::tripoley::TripoleyAction;
use pitbook::store::verify::VerifyReport;

use crate::common::tripoley::CLASSIC_DEAL as DEAL;

fn bet(player: &str, action: BetAction) -> RoundStep {
    RoundStep::Bet {
        player: player.into(),
        action,
    }
}

/// A classic game kept step by step through the store: one round, paid
/// out by its Michigan result. Returns the game's id.
async fn game_with_a_round(app: &TestApp) -> String {
    let db = &app.database.db;
    let game = TripoleyGame::start(&GameSetup {
        profile: Profile::Classic,
        players: ["Dee", "Ann", "Bo", "Cy"].map(String::from).to_vec(),
        chips_each: 40,
        chip_value: Money::parse("0.25").unwrap(),
        ante: 1,
        bet_limit: 10,
    })
    .unwrap();
    let id = kept_games::start(db, &test_key(), "dana", &game)
        .await
        .unwrap();
    let steps = [
        RoundStep::Ante,
        RoundStep::Deal {
            hands: DEAL
                .iter()
                .map(|(n, c)| (n.to_string(), c.to_string()))
                .collect(),
        },
        RoundStep::Spare {
            dealer_swaps: false,
            auction: None,
        },
        RoundStep::MoneyCards,
        bet("Ann", BetAction::Bet { chips: 5 }),
        bet("Bo", BetAction::Call),
        bet("Cy", BetAction::Fold),
        bet("Dee", BetAction::Call),
        RoundStep::Showdown { shown: vec![] },
        RoundStep::MichiganResult {
            out: Some("Ann".into()),
            blocked: false,
            cards_left: vec![("Bo".into(), 3), ("Cy".into(), 6), ("Dee".into(), 2)],
        },
    ];
    for (k, step) in steps.into_iter().enumerate() {
        let version = k as i64 + 1;
        let key = format!("key-{k}");
        kept_games::act::<TripoleyGame>(
            db,
            &test_key(),
            "dana",
            &id,
            version,
            &key,
            &TripoleyAction::Step(step),
        )
        .await
        .unwrap_or_else(|e| panic!("step {k}: {e}"));
    }
    id
}

async fn all_records(app: &TestApp) -> Vec<AuditRecord> {
    let sql = format!("{SELECT_RECORD} ORDER BY seq");
    match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_as(&sql).fetch_all(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_as(&sql).fetch_all(p).await,
    }
    .expect("records")
}

async fn seq_of(app: &TestApp, event: &str) -> i64 {
    all_records(app)
        .await
        .iter()
        .find(|r| r.event_type == event)
        .unwrap_or_else(|| panic!("no {event}"))
        .seq
}

/// Edits the payload of record `seq` and, with the key, re-signs it and
/// every record after it: the chain stays whole.
async fn edit_and_resign(app: &TestApp, seq: i64, edit: impl Fn(&str) -> String) {
    let key = test_key();
    let records = all_records(app).await;
    let mut prev = records
        .iter()
        .find(|r| r.seq == seq - 1)
        .expect("record before")
        .hash
        .clone();
    let mut statements = Vec::new();
    for r in records.into_iter().filter(|r| r.seq >= seq) {
        let mut r = r;
        if r.seq == seq {
            let edited = edit(&r.payload);
            assert_ne!(edited, r.payload, "the edit changes the record");
            r.payload = edited;
        }
        r.prev_hash = prev;
        let hash = key.record_hash(&r.fields());
        statements.push(format!(
            "UPDATE audit_log SET payload = '{}', prev_hash = '{}', hash = '{hash}' WHERE seq = {}",
            r.payload.replace('\'', "''"),
            r.prev_hash,
            r.seq
        ));
        prev = hash;
    }
    let refs: Vec<&str> = statements.iter().map(String::as_str).collect();
    tamper(&app.database.db, &refs).await;
}

async fn verify_now(app: &TestApp) -> VerifyReport {
    crate::common::verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await
}

async fn an_untouched_game_verifies(backend: Backend) {
    let app = spawn_app(backend).await;
    game_with_a_round(&app).await;
    let report = verify_now(&app).await;
    assert!(report.ok(), "{report:?}");
}

async fn an_edited_bet_is_caught_by_its_hash(backend: Backend) {
    let app = spawn_app(backend).await;
    game_with_a_round(&app).await;
    let seq = seq_of(&app, "tripoley_bet").await;
    tamper(
        &app.database.db,
        &[&format!(
            "UPDATE audit_log SET payload = replace(payload, '\"chips\":5', '\"chips\":9') WHERE seq = {seq}"
        )],
    )
    .await;
    assert_eq!(
        crate::common::problem(&verify_now(&app).await),
        (seq, "hash_mismatch")
    );
}

async fn a_resigned_edited_bet_is_caught_by_the_replay(backend: Backend) {
    let app = spawn_app(backend).await;
    game_with_a_round(&app).await;
    // Ann's bet of 5 made 11, above the limit: the chain is whole, but the
    // replay refuses the bet itself.
    let seq = seq_of(&app, "tripoley_bet").await;
    edit_and_resign(&app, seq, |p| p.replace("\"chips\":5", "\"chips\":11")).await;
    let report = verify_now(&app).await;
    assert_eq!(
        crate::common::problem(&report),
        (seq, "tripoley_mismatch"),
        "{report:?}"
    );
    assert!(
        report
            .problem
            .as_ref()
            .unwrap()
            .message
            .contains("bet limit"),
        "{report:?}"
    );
}

async fn a_resigned_legal_looking_bet_is_caught_where_the_round_disagrees(backend: Backend) {
    let app = spawn_app(backend).await;
    game_with_a_round(&app).await;
    // 5 made 9 is a legal bet, so the first record that contradicts it is
    // the round's payouts, recorded from the real bets.
    let seq = seq_of(&app, "tripoley_bet").await;
    let round = seq_of(&app, "tripoley_round").await;
    edit_and_resign(&app, seq, |p| p.replace("\"chips\":5", "\"chips\":9")).await;
    let report = verify_now(&app).await;
    assert_eq!(
        crate::common::problem(&report),
        (round, "tripoley_mismatch"),
        "{report:?}"
    );
}

async fn resigned_edited_round_chips_are_caught_by_the_replay(backend: Backend) {
    let app = spawn_app(backend).await;
    game_with_a_round(&app).await;
    let seq = seq_of(&app, "tripoley_round").await;
    edit_and_resign(&app, seq, |p| {
        p.replacen("\"chips\":{\"Ann\":", "\"chips\":{\"Ann\":1", 1)
    })
    .await;
    let report = verify_now(&app).await;
    assert_eq!(
        crate::common::problem(&report),
        (seq, "tripoley_mismatch"),
        "{report:?}"
    );
}

async fn an_edited_game_row_is_caught_at_its_last_record(backend: Backend) {
    let app = spawn_app(backend).await;
    game_with_a_round(&app).await;
    let last = seq_of(&app, "tripoley_round").await;
    tamper(
        &app.database.db,
        &["UPDATE tripoley_games SET state = replace(state, '\"bet_limit\":10', '\"bet_limit\":99')"],
    )
    .await;
    let report = verify_now(&app).await;
    assert_eq!(
        crate::common::problem(&report),
        (last, "tripoley_mismatch"),
        "{report:?}"
    );
}

on_both_databases!(
    an_untouched_game_verifies,
    an_edited_bet_is_caught_by_its_hash,
    a_resigned_edited_bet_is_caught_by_the_replay,
    a_resigned_legal_looking_bet_is_caught_where_the_round_disagrees,
    resigned_edited_round_chips_are_caught_by_the_replay,
    an_edited_game_row_is_caught_at_its_last_record,
);
