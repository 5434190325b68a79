//! `audit verify` for the rows that are projections of a few kinds of
//! records: the card tables (`table_created`), the dealer assignments
//! (`dealer_assigned`, `dealer_unassigned`), and the kept games' rows —
//! `dice_games` (`ten_thousand_…` / `poker_dice_…` `started`, `action`,
//! `finished`: every action replayed through the game's own keeper; the
//! `tripoley_games` rows are `tripoley/replay.rs`'s). Each row is
//! re-derived from the log and compared, field by field; a difference is a
//! `projection` problem at the seq of the last record about that row.
//!
//! These records are few: they are read in one query over a partial index
//! (migration 0011), never by a second walk of the log. Rows that records
//! after the walked chain head touch (a live server goes on writing) are
//! left for the next verification. The rows are read before the records, so
//! every row a record made is matched by that record.
//!
//! The rows' times are their records' `recorded_at` (`created_at` the
//! first record's, `updated_at` the last one's, `assigned_at` the
//! assignment's) and a dice game's `last_key` is the key in its last
//! `…_action` record (an action recorded before keys were has none: the
//! column is then not compared).

use std::collections::{BTreeMap, BTreeSet, HashMap};

use serde_json::Value;
use sqlx::Row;

use super::Problem;
use crate::domain::double_hand_poker::table::TableConfig;
use crate::domain::poker_dice::RoundAction;
use crate::domain::ten_thousand::KeeperAction;
use crate::store::dice_games::{DiceAction, DiceState};
use crate::store::double_hand_poker::tables::TableColumns;
use crate::store::{Db, StoreError};

mod compare;

use compare::compare;

/// The records this check reads, found through the partial index of the
/// records without a hand (migration 0011: keep `hand_id IS NULL` here, or
/// the index goes unused).
const EVENTS: &str = "hand_id IS NULL AND event_type IN ('table_created', 'dealer_assigned', 'dealer_unassigned', \
     'ten_thousand_started', 'ten_thousand_action', 'ten_thousand_finished', \
     'poker_dice_started', 'poker_dice_action', 'poker_dice_finished')";

const PROJECTION: &str = "projection";

fn problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: PROJECTION,
        message: format!("seq {seq}: {message}"),
    }
}

/// A record as this check reads it.
#[derive(Clone)]
struct Record {
    seq: i64,
    recorded_at: String,
    actor: String,
    table: Option<String>,
    event: String,
    payload: String,
}

/// A table as its records give it.
struct TableFromLog {
    columns: TableColumns,
    created_by: String,
    created_at: String,
    /// The seq of the last record about the table.
    seq: i64,
}

/// A dice game as replayed from its records.
struct DiceFromLog {
    kind: &'static str,
    state: DiceState,
    version: i64,
    created_by: String,
    finished_recorded: bool,
    seq: i64,
    created_at: String,
    /// The last record's time.
    updated_at: String,
    /// The key of the last action (None: no action yet); unknown when the
    /// last action was recorded without one.
    last_key: Option<Option<String>>,
}

#[derive(Default)]
struct FromLog {
    tables: HashMap<String, TableFromLog>,
    /// (table, dealer) → (assigned by, seq of the assignment, its time).
    dealers: BTreeMap<(String, String), (String, i64, String)>,
    dice: HashMap<String, DiceFromLog>,
    /// Tables and games that records after the head touch.
    later: BTreeSet<String>,
}

/// The rows as stored.
struct Rows {
    tables: Vec<(String, TableColumns, String)>,
    dealers: Vec<(String, String, String)>,
    /// id, game, state, status, version, created_by.
    dice: Vec<(String, String, String, String, i64, String)>,
    /// The rows' times and keys, by table name, (table, dealer) or game id.
    times: RowTimes,
}

/// The columns no record held before `recorded_at` was shared with rows.
#[derive(Default)]
struct RowTimes {
    /// name → created_at.
    tables: HashMap<String, String>,
    /// (table, dealer) → assigned_at.
    dealers: HashMap<(String, String), String>,
    /// id → (created_at, updated_at, last_key).
    dice: HashMap<String, (String, String, Option<String>)>,
}

/// The earlier of the problem already found and the first projection
/// problem among the rows the records up to `head_seq` describe.
pub async fn first_problem(
    db: &Db,
    head_seq: i64,
    found: Option<Problem>,
) -> Result<Option<Problem>, StoreError> {
    let rows = read_rows(db).await?;
    let sql = format!(
        "SELECT seq, actor, table_id, event_type, payload, recorded_at FROM audit_log WHERE {EVENTS} ORDER BY seq"
    );
    let records: Vec<Record> = on_pool!(db, |pool| sqlx::query(&sql)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| Record {
            seq: r.get(0),
            actor: r.get(1),
            table: r.get(2),
            event: r.get(3),
            payload: r.get(4),
            recorded_at: r.get(5),
        })
        .collect());
    let mine = match replay(&records, head_seq) {
        Ok(log) => compare(&log, &rows, head_seq),
        Err(p) => Some(p),
    };
    Ok(match (found, mine) {
        (Some(f), Some(m)) => Some(if m.seq < f.seq { m } else { f }),
        (f, m) => f.or(m),
    })
}

async fn read_rows(db: &Db) -> Result<Rows, StoreError> {
    let mut times = RowTimes::default();
    let sql = "SELECT name, game, profile, options, seats, player_schedule, bank_schedule, \
               wager_min, wager_max, training, created_by, created_at FROM card_tables ORDER BY name";
    let tables = on_pool!(db, |pool| sqlx::query(sql)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| {
            let columns = TableColumns {
                name: r.get(0),
                game: r.get(1),
                profile: r.get(2),
                options: r.get(3),
                seats: r.get(4),
                player_schedule: r.get(5),
                bank_schedule: r.get(6),
                wager_min: r.get(7),
                wager_max: r.get(8),
                training: r.get(9),
            };
            times.tables.insert(r.get(0), r.get(11));
            (r.get(0), columns, r.get(10))
        })
        .collect());
    let sql = "SELECT table_name, username, assigned_by, assigned_at FROM table_dealers \
               ORDER BY table_name, username";
    let dealers = on_pool!(db, |pool| sqlx::query(sql)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| {
            times.dealers.insert((r.get(0), r.get(1)), r.get(3));
            (r.get(0), r.get(1), r.get(2))
        })
        .collect());
    let sql = "SELECT id, game, state, status, version, created_by, created_at, updated_at, \
               last_key FROM dice_games ORDER BY id";
    let dice = on_pool!(db, |pool| sqlx::query(sql)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| {
            times.dice.insert(r.get(0), (r.get(6), r.get(7), r.get(8)));
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4), r.get(5))
        })
        .collect());
    Ok(Rows {
        tables,
        dealers,
        dice,
        times,
    })
}

/// The game kinds of the dice records' prefixes.
fn dice_kind(event: &str) -> Option<(&'static str, &str)> {
    for (prefix, kind) in [
        ("ten_thousand_", "ten-thousand"),
        ("poker_dice_", "poker-dice"),
    ] {
        if let Some(rest) = event.strip_prefix(prefix) {
            return Some((kind, rest));
        }
    }
    None
}

/// Folds the records up to `head_seq`; an error is a record that cannot be
/// replayed (unreadable, or an action its game's rules refuse).
fn replay(records: &[Record], head_seq: i64) -> Result<FromLog, Problem> {
    let mut log = FromLog::default();
    for r in records {
        let payload: Value = serde_json::from_str(&r.payload)
            .map_err(|e| problem(r.seq, format!("unreadable {} record: {e}", r.event)))?;
        let game_id = payload["game_id"].as_str().unwrap_or_default().to_string();
        if r.seq > head_seq {
            log.later.insert(r.table.clone().unwrap_or(game_id));
            continue;
        }
        let table = r.table.clone().unwrap_or_default();
        let bad = |what: &str, m: String| problem(r.seq, format!("{what}: {m}"));
        match r.event.as_str() {
            "table_created" => {
                let what = format!("table \"{table}\"");
                let config: TableConfig = serde_json::from_value(payload)
                    .map_err(|e| bad(&what, format!("unreadable table_created record: {e}")))?;
                let columns = TableColumns::of(&config).map_err(|e| bad(&what, e.to_string()))?;
                log.tables.insert(
                    config.name.clone(),
                    TableFromLog {
                        columns,
                        created_by: r.actor.clone(),
                        created_at: r.recorded_at.clone(),
                        seq: r.seq,
                    },
                );
            }
            "dealer_assigned" | "dealer_unassigned" => {
                let dealer = payload["dealer"].as_str().unwrap_or_default().to_string();
                if let Some(t) = log.tables.get_mut(&table) {
                    t.seq = r.seq;
                }
                let pair = (table, dealer);
                if r.event == "dealer_assigned" {
                    log.dealers
                        .insert(pair, (r.actor.clone(), r.seq, r.recorded_at.clone()));
                } else {
                    log.dealers.remove(&pair);
                }
            }
            event => {
                let Some((kind, step)) = dice_kind(event) else {
                    continue;
                };
                replay_dice(&mut log, r, kind, step, &game_id, payload)?;
            }
        }
    }
    Ok(log)
}

fn replay_dice(
    log: &mut FromLog,
    r: &Record,
    kind: &'static str,
    step: &str,
    id: &str,
    payload: Value,
) -> Result<(), Problem> {
    let bad = |m: String| problem(r.seq, format!("dice game {id}: {m}"));
    if step == "started" {
        let state = DiceState::from_json(kind, &payload["state"].to_string())
            .map_err(|e| bad(e.to_string()))?;
        log.dice.insert(
            id.to_string(),
            DiceFromLog {
                kind,
                state,
                version: 1,
                created_by: r.actor.clone(),
                finished_recorded: false,
                seq: r.seq,
                created_at: r.recorded_at.clone(),
                updated_at: r.recorded_at.clone(),
                last_key: Some(None),
            },
        );
        return Ok(());
    }
    let g = log
        .dice
        .get_mut(id)
        .ok_or_else(|| bad(format!("{} with no …_started record", r.event)))?;
    if g.kind != kind {
        return Err(bad(format!("a {} record for a {} game", r.event, g.kind)));
    }
    g.seq = r.seq;
    g.updated_at = r.recorded_at.clone();
    match step {
        "action" => {
            let version = payload["version"].as_i64().unwrap_or(0);
            if version != g.version + 1 {
                return Err(bad(format!(
                    "version {version} follows version {}",
                    g.version
                )));
            }
            let action = payload["action"].clone();
            let action = match kind {
                "ten-thousand" => {
                    serde_json::from_value::<KeeperAction>(action).map(DiceAction::TenThousand)
                }
                _ => serde_json::from_value::<RoundAction>(action).map(DiceAction::PokerDice),
            }
            .map_err(|e| bad(format!("unreadable action: {e}")))?;
            g.state = g
                .state
                .apply(&action)
                .map_err(|e| bad(format!("the recorded action is refused: {e}")))?;
            g.version = version;
            g.last_key = payload["key"].as_str().map(|k| Some(k.to_string()));
        }
        "finished" => {
            if !g.state.finished() || g.finished_recorded {
                return Err(bad(
                    "a …_finished record for a game not just finished".into()
                ));
            }
            if payload["outcome"] != g.state.outcome() {
                return Err(bad(
                    "the …_finished record's outcome differs from the replayed game's".into(),
                ));
            }
            g.finished_recorded = true;
        }
        _ => {}
    }
    Ok(())
}

#[cfg(test)]
#[path = "projections_tests.rs"]
mod tests;
