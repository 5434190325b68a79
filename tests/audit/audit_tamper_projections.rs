//! `audit verify` re-derives the card tables, the dealer assignments and
//! the kept games' rows from their records, on both databases: an
//! untouched database verifies; each row edited, added or deleted by SQL is
//! a `projection` problem at the seq of the last record about that row,
//! naming the row and the field.

use crate::common::{Backend, TestApp, spawn_app, tamper, test_key};
use pitbook::domain::common::money::Money;
use pitbook::domain::double_hand_poker::table::TableConfig;
use pitbook::domain::poker_dice::{Profile as DiceProfile, RoundAction, RoundKeeper, Straights};
use pitbook::domain::staff::Role;
use pitbook::domain::ten_thousand::{GameOptionsRecord, Keeper, KeeperAction};
use pitbook::domain::tripoley::Profile;
use pitbook::domain::tripoley::game::{GameSetup, TripoleyGame};
use pitbook::store::audit::{AuditRecord, SELECT_RECORD};
use pitbook::store::dice_games::{DiceAction, DiceState};
use pitbook::store::double_hand_poker::tables;
use pitbook::store::kept_games;
use pitbook::store::verify::VerifyReport;

async fn all_records(app: &TestApp) -> Vec<AuditRecord> {
    let sql = format!("{SELECT_RECORD} ORDER BY seq");
    match &app.database.db {
        pitbook::store::Db::Sqlite(p) => sqlx::query_as(&sql).fetch_all(p).await,
        pitbook::store::Db::Postgres(p) => sqlx::query_as(&sql).fetch_all(p).await,
    }
    .expect("records")
}

async fn verify_now(app: &TestApp) -> VerifyReport {
    crate::common::verify_split_every_way(&app.database.db, &test_key(), 1, Vec::new()).await
}

/// What the tests made: the ids and the seq of the last record of each row.
struct Made {
    ten_thousand: String,
    poker_dice: String,
    tripoley: String,
    /// Last record about table T1, and the assignment of "dee" to it.
    table_last: i64,
    dee_assigned: i64,
    ten_thousand_last: i64,
    poker_dice_last: i64,
    tripoley_last: i64,
}

/// Table T1 (schedules, limits, options, training), dealers assigned and
/// one unassigned, a 10,000 game under way, a finished poker dice round and
/// a Tripoley game just started.
async fn make(app: &TestApp) -> Made {
    let db = &app.database.db;
    let key = test_key();
    app.add_user("dee", Role::Dealer).await;
    app.add_user("sam", Role::Dealer).await;
    let config: TableConfig = serde_json::from_value(serde_json::json!({
        "name": "T1",
        "profile": "lucky-chances",
        "options": {"foul": "reset_house_way", "min_unit": "1"},
        "seats": 7,
        "player_schedule": [{"from": "1", "to": "100", "fee": "1"}, {"from": "101", "to": "5000", "fee": "2"}],
        "bank_schedule": [{"from": "1", "to": "5000", "fee": "1"}],
        "wager_min": "5",
        "wager_max": "100",
        "training": true
    }))
    .unwrap();
    tables::create(db, &key, "super", &config).await.unwrap();
    for (user, assign) in [("dee", true), ("sam", true), ("sam", false)] {
        tables::set_dealer(db, &key, "super", "T1", user, assign)
            .await
            .unwrap();
    }

    let keeper = Keeper::new(
        vec!["Ann".into(), "Bo".into()],
        GameOptionsRecord::default(),
    )
    .unwrap();
    let ten_thousand = kept_games::start(db, &key, "dana", &DiceState::TenThousand(keeper))
        .await
        .unwrap();
    let actions = [
        KeeperAction::Throw {
            dice: vec![1, 1, 1, 5, 2, 3],
        },
        KeeperAction::Keep {
            dice: vec![1, 1, 1],
        },
    ];
    for (k, a) in actions.into_iter().enumerate() {
        kept_games::act::<DiceState>(
            db,
            &key,
            "dana",
            &ten_thousand,
            k as i64 + 1,
            &format!("t{k}"),
            &DiceAction::TenThousand(a),
        )
        .await
        .unwrap_or_else(|e| panic!("10,000 action {k}: {e}"));
    }

    let round = RoundKeeper::new(
        vec!["Ann".into(), "Bo".into()],
        DiceProfile::Caribena,
        Straights::None,
        false,
    )
    .unwrap();
    let poker_dice = kept_games::start(db, &key, "dana", &DiceState::PokerDice(round))
        .await
        .unwrap();
    let throw = |rolled: &str| RoundAction::Throw {
        held: None,
        rolled: rolled.into(),
    };
    let actions = [
        throw("A A K K Q"),
        RoundAction::Stand,
        throw("K K K Q J"),
        RoundAction::Stand,
    ];
    for (k, a) in actions.into_iter().enumerate() {
        kept_games::act::<DiceState>(
            db,
            &key,
            "dana",
            &poker_dice,
            k as i64 + 1,
            &format!("p{k}"),
            &DiceAction::PokerDice(a),
        )
        .await
        .unwrap_or_else(|e| panic!("poker dice action {k}: {e}"));
    }

    let game = TripoleyGame::start(&GameSetup {
        profile: Profile::Classic,
        players: ["Dee", "Ann", "Bo", "Cy"].map(String::from).to_vec(),
        chips_each: 40,
        chip_value: Money::parse("0.25").unwrap(),
        ante: 1,
        bet_limit: 10,
    })
    .unwrap();
    let tripoley = kept_games::start(db, &key, "dana", &game).await.unwrap();

    let records = all_records(app).await;
    let last = |f: &dyn Fn(&AuditRecord) -> bool| {
        records
            .iter()
            .filter(|r| f(r))
            .map(|r| r.seq)
            .max()
            .expect("a record")
    };
    let of_game = |id: &str| format!("\"game_id\":\"{id}\"");
    let finished = last(&|r| r.event_type == "poker_dice_finished");
    Made {
        table_last: last(&|r| r.table_id.as_deref() == Some("T1")),
        dee_assigned: last(&|r| r.event_type == "dealer_assigned" && r.payload.contains("dee")),
        ten_thousand_last: last(&|r| r.payload.contains(&of_game(&ten_thousand))),
        poker_dice_last: last(&|r| r.payload.contains(&of_game(&poker_dice))),
        tripoley_last: last(&|r| r.payload.contains(&of_game(&tripoley))),
        ten_thousand,
        tripoley,
        poker_dice: {
            assert!(finished > 0);
            poker_dice
        },
    }
}

/// (what is edited, the statements, the statements that undo them, the
/// expected seq, words the message must hold)
type Case = (&'static str, Vec<String>, Vec<String>, i64, Vec<String>);

fn cases(m: &Made) -> Vec<Case> {
    let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let (tt, pd, tr) = (&m.ten_thousand, &m.poker_dice, &m.tripoley);
    let row = |table: &str, id: &str| format!("{table} row {id}");
    let mut out: Vec<Case> = vec![
        (
            "seats",
            s(&["UPDATE card_tables SET seats = 10 WHERE name = 'T1'"]),
            s(&["UPDATE card_tables SET seats = 7 WHERE name = 'T1'"]),
            m.table_last,
            s(&[
                "card_tables row \"T1\"",
                "seats is 10 in the row, 7 from its records",
            ]),
        ),
        (
            "profile",
            s(&["UPDATE card_tables SET profile = 'nevada' WHERE name = 'T1'"]),
            s(&["UPDATE card_tables SET profile = 'lucky-chances' WHERE name = 'T1'"]),
            m.table_last,
            s(&["card_tables row \"T1\"", "profile"]),
        ),
        (
            "options",
            s(&["UPDATE card_tables SET options = replace(options, 'reset_house_way', 'loses')"]),
            s(&["UPDATE card_tables SET options = replace(options, 'loses', 'reset_house_way')"]),
            m.table_last,
            s(&["card_tables row \"T1\"", "options"]),
        ),
        (
            "player schedule",
            s(&[
                "UPDATE card_tables SET player_schedule = replace(player_schedule, '5000', '9000')",
            ]),
            s(&[
                "UPDATE card_tables SET player_schedule = replace(player_schedule, '9000', '5000')",
            ]),
            m.table_last,
            s(&["card_tables row \"T1\"", "player_schedule"]),
        ),
        (
            "bank schedule",
            s(&["UPDATE card_tables SET bank_schedule = NULL"]),
            s(&[
                "UPDATE card_tables SET bank_schedule = '[{\"from\":\"1.00\",\"to\":\"5000.00\",\"fee\":\"1.00\"}]'",
            ]),
            m.table_last,
            s(&["card_tables row \"T1\"", "bank_schedule"]),
        ),
        (
            "wager limits",
            s(&["UPDATE card_tables SET wager_max = '100000', wager_min = NULL"]),
            s(&["UPDATE card_tables SET wager_max = '100.00', wager_min = '5.00'"]),
            m.table_last,
            s(&["card_tables row \"T1\"", "wager_min"]),
        ),
        (
            "training",
            s(&["UPDATE card_tables SET training = NOT training"]),
            s(&["UPDATE card_tables SET training = NOT training"]),
            m.table_last,
            s(&[
                "card_tables row \"T1\"",
                "training is false in the row, true",
            ]),
        ),
        (
            "created_by",
            s(&["UPDATE card_tables SET created_by = 'mallory'"]),
            s(&["UPDATE card_tables SET created_by = 'super'"]),
            m.table_last,
            s(&["card_tables row \"T1\"", "created_by"]),
        ),
        (
            "an assignment added",
            s(&[
                "INSERT INTO table_dealers (table_name, username, assigned_at, assigned_by) \
                 VALUES ('T1', 'sam', '2026-01-01T00:00:00.000000Z', 'super')",
            ]),
            s(&["DELETE FROM table_dealers WHERE username = 'sam'"]),
            m.table_last,
            s(&["table_dealers row (\"T1\", \"sam\")", "not assigned"]),
        ),
        (
            "an assignment removed",
            s(&[
                "CREATE TABLE dealers_copy AS SELECT * FROM table_dealers",
                "DELETE FROM table_dealers WHERE username = 'dee'",
            ]),
            s(&[
                "INSERT INTO table_dealers SELECT * FROM dealers_copy",
                "DROP TABLE dealers_copy",
            ]),
            m.table_last,
            s(&["table_dealers row (\"T1\", \"dee\")", "missing"]),
        ),
        (
            "assigned_by",
            s(&["UPDATE table_dealers SET assigned_by = 'mallory'"]),
            s(&["UPDATE table_dealers SET assigned_by = 'super'"]),
            m.dee_assigned,
            s(&["table_dealers row (\"T1\", \"dee\")", "assigned_by"]),
        ),
    ];
    let dice: [(&str, Vec<String>, Vec<String>, &str); 5] = [
        (
            "state",
            vec![format!(
                "UPDATE dice_games SET state = replace(state, '\"Bo\"', '\"Zed\"') WHERE id = '{tt}'"
            )],
            vec![format!(
                "UPDATE dice_games SET state = replace(state, '\"Zed\"', '\"Bo\"') WHERE id = '{tt}'"
            )],
            "state differs",
        ),
        (
            "status",
            vec![format!(
                "UPDATE dice_games SET status = 'finished' WHERE id = '{tt}'"
            )],
            vec![format!(
                "UPDATE dice_games SET status = 'playing' WHERE id = '{tt}'"
            )],
            "status is \"finished\" in the row, \"playing\"",
        ),
        (
            "version",
            vec![format!(
                "UPDATE dice_games SET version = version + 5 WHERE id = '{tt}'"
            )],
            vec![format!(
                "UPDATE dice_games SET version = version - 5 WHERE id = '{tt}'"
            )],
            "version is 8 in the row, 3",
        ),
        (
            "created_by",
            vec![format!(
                "UPDATE dice_games SET created_by = 'mallory' WHERE id = '{tt}'"
            )],
            vec![format!(
                "UPDATE dice_games SET created_by = 'dana' WHERE id = '{tt}'"
            )],
            "created_by",
        ),
        (
            "game",
            vec![format!(
                "UPDATE dice_games SET game = 'poker-dice' WHERE id = '{tt}'"
            )],
            vec![format!(
                "UPDATE dice_games SET game = 'ten-thousand' WHERE id = '{tt}'"
            )],
            "game is \"poker-dice\" in the row, \"ten-thousand\"",
        ),
    ];
    for (what, edit, undo, words) in dice {
        out.push((
            what,
            edit,
            undo,
            m.ten_thousand_last,
            vec![row("dice_games", tt), words.to_string()],
        ));
    }
    out.extend([
        (
            "a finished game's status",
            vec![format!(
                "UPDATE dice_games SET status = 'playing' WHERE id = '{pd}'"
            )],
            vec![format!(
                "UPDATE dice_games SET status = 'finished' WHERE id = '{pd}'"
            )],
            m.poker_dice_last,
            vec![row("dice_games", pd), "status".to_string()],
        ),
        (
            "a dice game removed",
            vec![
                "CREATE TABLE dice_copy AS SELECT * FROM dice_games".to_string(),
                format!("DELETE FROM dice_games WHERE id = '{pd}'"),
            ],
            vec![
                format!("INSERT INTO dice_games SELECT * FROM dice_copy WHERE id = '{pd}'"),
                "DROP TABLE dice_copy".to_string(),
            ],
            m.poker_dice_last,
            vec![row("dice_games", pd), "missing".to_string()],
        ),
        (
            "a Tripoley game's status",
            vec![format!(
                "UPDATE tripoley_games SET status = 'finished' WHERE id = '{tr}'"
            )],
            vec![format!(
                "UPDATE tripoley_games SET status = 'playing' WHERE id = '{tr}'"
            )],
            m.tripoley_last,
            vec![row("tripoley_games", tr), "status".to_string()],
        ),
        (
            "a Tripoley game's created_by",
            vec![format!(
                "UPDATE tripoley_games SET created_by = 'mallory' WHERE id = '{tr}'"
            )],
            vec![format!(
                "UPDATE tripoley_games SET created_by = 'dana' WHERE id = '{tr}'"
            )],
            m.tripoley_last,
            vec![row("tripoley_games", tr), "created_by".to_string()],
        ),
        (
            "a Tripoley game removed",
            vec![
                "CREATE TABLE tripoley_copy AS SELECT * FROM tripoley_games".to_string(),
                format!("DELETE FROM tripoley_games WHERE id = '{tr}'"),
            ],
            vec![
                "INSERT INTO tripoley_games SELECT * FROM tripoley_copy".to_string(),
                "DROP TABLE tripoley_copy".to_string(),
            ],
            m.tripoley_last,
            vec![row("tripoley_games", tr), "missing".to_string()],
        ),
    ]);
    // The rows' times are their records' recorded_at; a kept game's
    // last_key is the key in its last action's record.
    let t0 = "'2026-01-01T00:00:00.000000Z'";
    let time = |table: &str, column: &str, id: &str| {
        (
            vec![
                format!("CREATE TABLE times_copy AS SELECT {id} AS id, {column} AS t FROM {table}"),
                format!("UPDATE {table} SET {column} = {t0}"),
            ],
            vec![
                format!(
                    "UPDATE {table} SET {column} = (SELECT t FROM times_copy WHERE times_copy.id = {table}.{id})"
                ),
                "DROP TABLE times_copy".to_string(),
            ],
        )
    };
    let edited = format!("is \"{}\" in the row", t0.trim_matches('\''));
    for (what, table, column, id, seq, named) in [
        (
            "created_at",
            "card_tables",
            "created_at",
            "name",
            m.table_last,
            "card_tables row \"T1\"".to_string(),
        ),
        (
            "assigned_at",
            "table_dealers",
            "assigned_at",
            "username",
            m.dee_assigned,
            "table_dealers row (\"T1\", \"dee\")".to_string(),
        ),
        (
            "a dice game's created_at",
            "dice_games",
            "created_at",
            "id",
            m.ten_thousand_last,
            row("dice_games", tt),
        ),
        (
            "a dice game's updated_at",
            "dice_games",
            "updated_at",
            "id",
            m.ten_thousand_last,
            row("dice_games", tt),
        ),
        (
            "a dice game's last_key",
            "dice_games",
            "last_key",
            "id",
            m.ten_thousand_last,
            row("dice_games", tt),
        ),
        (
            "a Tripoley game's created_at",
            "tripoley_games",
            "created_at",
            "id",
            m.tripoley_last,
            row("tripoley_games", tr),
        ),
        (
            "a Tripoley game's updated_at",
            "tripoley_games",
            "updated_at",
            "id",
            m.tripoley_last,
            row("tripoley_games", tr),
        ),
        (
            "a Tripoley game's last_key",
            "tripoley_games",
            "last_key",
            "id",
            m.tripoley_last,
            row("tripoley_games", tr),
        ),
    ] {
        let (edit, undo) = time(table, column, id);
        // Each table has one row here but the dice games: the 10,000 game
        // comes first by seq, so it is the one reported.
        let edited = if column == "last_key" {
            format!("last_key is Some({})", &edited[3..edited.len() - 11])
        } else {
            format!("{column} {edited}")
        };
        out.push((what, edit, undo, seq, vec![named, edited]));
    }
    out
}

async fn each_edited_row_is_named_at_its_last_record(backend: Backend) {
    let app = spawn_app(backend).await;
    let made = make(&app).await;
    let report = verify_now(&app).await;
    assert!(report.ok(), "untouched: {report:?}");
    for (what, edit, undo, seq, words) in cases(&made) {
        let refs: Vec<&str> = edit.iter().map(String::as_str).collect();
        tamper(&app.database.db, &refs).await;
        let report = verify_now(&app).await;
        assert!(report.problem.is_some(), "{what}: undetected: {report:?}");
        assert_eq!(
            crate::common::problem(&report),
            (seq, "projection"),
            "{what}: {report:?}"
        );
        let message = &report.problem.as_ref().unwrap().message;
        for w in &words {
            assert!(
                message.contains(w.as_str()),
                "{what}: {message:?} lacks {w:?}"
            );
        }
        let refs: Vec<&str> = undo.iter().map(String::as_str).collect();
        tamper(&app.database.db, &refs).await;
        let report = verify_now(&app).await;
        assert!(report.ok(), "{what} undone: {report:?}");
    }
}

/// A row with no record at all (a table inserted by SQL) is reported at the
/// walked head.
async fn a_table_with_no_record_is_named(backend: Backend) {
    let app = spawn_app(backend).await;
    make(&app).await;
    let head = all_records(&app).await.last().unwrap().seq;
    tamper(
        &app.database.db,
        &["INSERT INTO card_tables (name, game, profile, options, seats, created_at, created_by) \
           VALUES ('T9', 'double-hand-poker', 'nevada', '{}', 7, '2026-01-01T00:00:00.000000Z', 'super')"],
    )
    .await;
    let report = verify_now(&app).await;
    assert_eq!(
        crate::common::problem(&report),
        (head, "projection"),
        "{report:?}"
    );
    let message = &report.problem.as_ref().unwrap().message;
    assert!(
        message.contains("card_tables row \"T9\": no table_created record"),
        "{message}"
    );
}

on_both_databases!(
    each_edited_row_is_named_at_its_last_record,
    a_table_with_no_record_is_named,
);
