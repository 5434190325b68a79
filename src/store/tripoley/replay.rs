//! `audit verify` for Tripoley games: every game's records replayed from
//! its `tripoley_started` through each step, round and last hand with the
//! same domain functions the pages use; each record must be exactly the
//! record the replay makes, and each game's stored row the game the replay
//! ends with. The first record that differs is reported by its sequence
//! number, like a hand whose settlement differs. Tripoley records are few:
//! they are read in one query after the chain walk. The row's times are its
//! first and last records' `recorded_at`, its `last_key` the key in its last
//! action's first record (not compared for an action recorded before keys
//! were).

use std::collections::HashMap;

use serde_json::Value;
use sqlx::Row;

use super::{finished_record, round_record, step_record};
use crate::domain::tripoley::game::{GameSetup, RoundEntry, TripoleyGame};
use crate::domain::tripoley::round_steps::RoundStep;
use crate::store::verify::Problem;
use crate::store::{Db, StoreError};

/// A game as replayed so far.
struct Replayed {
    game: TripoleyGame,
    version: i64,
    /// The seq of the game's last record.
    seq: i64,
    /// Who started it (the `tripoley_started` record's actor).
    created_by: String,
    /// A step paid the round out: its `tripoley_round` record comes next.
    pending: Option<Value>,
    created_at: String,
    /// The last record's time.
    updated_at: String,
    /// The last action's key (None: no action yet); unknown when it was
    /// recorded without one.
    last_key: Option<Option<String>>,
}

/// A row field that differs from its records (`verify/projections.rs`).
fn row_problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: {message}"),
    }
}

fn problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "tripoley_mismatch",
        message: format!("seq {seq}: {message}"),
    }
}

/// The earlier of the problem already found and the first Tripoley
/// problem among the records up to `head_seq` (the walked chain's head),
/// and how many games were replayed.
pub async fn first_problem(
    db: &Db,
    head_seq: i64,
    found: Option<Problem>,
) -> Result<(Option<Problem>, u64), StoreError> {
    let bound = found.as_ref().map_or(head_seq, |p| p.seq.min(head_seq));
    let sql = "SELECT seq, event_type, payload, actor, recorded_at FROM audit_log \
               WHERE seq <= $1 AND event_type LIKE 'tripoley%' ORDER BY seq";
    let records: Vec<(i64, String, String, String, String)> = on_pool!(db, |pool| sqlx::query(sql)
        .bind(bound)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4)))
        .collect());
    let mut games = HashMap::new();
    let mut mine = None;
    for (seq, event, payload, actor, at) in &records {
        if let Err(p) = replay_record(&mut games, (*seq, at), event, payload, actor) {
            mine = Some(p);
            break;
        }
    }
    if mine.is_none() && found.is_none() {
        mine = compare_rows(db, &games, head_seq).await?;
    }
    let problem = match (found, mine) {
        (Some(f), Some(m)) => Some(if m.seq < f.seq { m } else { f }),
        (f, m) => f.or(m),
    };
    Ok((problem, games.len() as u64))
}

fn replay_record(
    games: &mut HashMap<String, Replayed>,
    (seq, recorded_at): (i64, &str),
    event: &str,
    text: &str,
    actor: &str,
) -> Result<(), Problem> {
    let mut payload: Value = serde_json::from_str(text)
        .map_err(|e| problem(seq, format!("unreadable {event} record: {e}")))?;
    // An action's key is beside the record the game makes, not part of it.
    let key = payload
        .as_object_mut()
        .and_then(|o| o.remove(crate::store::kept_games::KEY_FIELD));
    let id = payload["game_id"].as_str().unwrap_or_default().to_string();
    let bad = |m: String| problem(seq, format!("tripoley game {id}: {m}"));
    if event == "tripoley_started" {
        let game = started(&payload, &bad)?;
        games.insert(
            id,
            Replayed {
                game,
                version: 1,
                seq,
                created_by: actor.to_string(),
                pending: None,
                created_at: recorded_at.to_string(),
                updated_at: recorded_at.to_string(),
                last_key: Some(None),
            },
        );
        return Ok(());
    }
    let g = games.get_mut(&id).ok_or_else(|| {
        bad(format!(
            "{event} for a game with no tripoley_started record"
        ))
    })?;
    let version = payload["version"].as_i64().unwrap_or(0);
    // The round a step paid out is that action's second record.
    let follows_step = event == "tripoley_round" && g.pending.is_some();
    let expected = if follows_step {
        let pending = g.pending.take();
        pending.unwrap_or_default()
    } else {
        if g.pending.is_some() {
            return Err(bad(format!(
                "{event} where the round paid out by the step before belongs"
            )));
        }
        if version != g.version + 1 {
            return Err(bad(format!(
                "version {version} follows version {}",
                g.version
            )));
        }
        recomputed(g, event, &id, version, &payload, &bad)?
    };
    if expected != payload {
        return Err(bad(format!(
            "the {event} record differs from the one recomputed from the game's earlier records"
        )));
    }
    g.version = version;
    g.seq = seq;
    g.updated_at = recorded_at.to_string();
    if !follows_step {
        g.last_key = key.and_then(|k| k.as_str().map(|k| Some(k.to_string())));
    }
    Ok(())
}

/// The game a `tripoley_started` record holds, which must be a new game of
/// its setup.
fn started(payload: &Value, bad: &dyn Fn(String) -> Problem) -> Result<TripoleyGame, Problem> {
    let game: TripoleyGame = serde_json::from_value(payload["state"].clone())
        .map_err(|e| bad(format!("unreadable state: {e}")))?;
    let fresh = TripoleyGame::start(&GameSetup {
        profile: game.profile,
        players: game.players.clone(),
        chips_each: game.chips.first().copied().unwrap_or(0) as i64,
        chip_value: game.chip_value,
        ante: game.ante as i64,
        bet_limit: game.bet_limit as i64,
    })
    .map_err(|e| bad(e.to_string()))?;
    if fresh != game {
        return Err(bad("the started game is not a new game".into()));
    }
    Ok(game)
}

/// The record a round, a finish or a step makes when applied to the game
/// replayed so far (which it moves on): what the record must be.
fn recomputed(
    g: &mut Replayed,
    event: &str,
    id: &str,
    version: i64,
    payload: &Value,
    bad: &dyn Fn(String) -> Problem,
) -> Result<Value, Problem> {
    let rules = |e: crate::domain::tripoley::TripoleyError| bad(e.to_string());
    Ok(match event {
        "tripoley_round" => {
            let entry = RoundEntry::from_input(&payload["input"])
                .ok_or_else(|| bad("the round's input is not a round entry".into()))?;
            let (next, out) = g.game.apply_round(&entry).map_err(rules)?;
            let record = round_record(id, version, &next, &out).1;
            g.game = next;
            record
        }
        "tripoley_finished" => {
            let hands: Vec<(String, String)> = payload["input"]["hands"]
                .as_object()
                .map(|m| {
                    m.iter()
                        .map(|(k, v)| (k.clone(), v.as_str().unwrap_or_default().to_string()))
                        .collect()
                })
                .unwrap_or_default();
            let (next, out) = g.game.finish(&hands).map_err(rules)?;
            let record = finished_record(id, version, &next, &out).1;
            g.game = next;
            record
        }
        _ => {
            let step: RoundStep = serde_json::from_value(payload["step"].clone())
                .map_err(|e| bad(format!("unreadable step: {e}")))?;
            if step.event() != event {
                return Err(bad(format!("a {} step recorded as {event}", step.event())));
            }
            let record = step_record(id, version, &g.game, &step).1;
            let (next, out) = g.game.apply_step(&step).map_err(rules)?;
            if let Some(out) = out {
                g.pending = Some(round_record(id, version, &next, &out).1);
            }
            g.game = next;
            record
        }
    })
}

/// The row's times and key against the replayed game's records.
fn time_differs(
    (created_at, updated_at, last_key): &(String, String, Option<String>),
    r: &Replayed,
) -> Option<String> {
    let differs = |field: &str, row: &dyn std::fmt::Debug, log: &dyn std::fmt::Debug| {
        format!("{field} is {row:?} in the row, {log:?} from its records")
    };
    if created_at != &r.created_at {
        return Some(differs("created_at", created_at, &r.created_at));
    }
    if updated_at != &r.updated_at {
        return Some(differs("updated_at", updated_at, &r.updated_at));
    }
    match &r.last_key {
        Some(key) if key != last_key => Some(differs("last_key", last_key, key)),
        _ => None,
    }
}

/// Each game's stored row must be the replayed game. Rows written after
/// the walked head (a live server goes on writing) are left for the next
/// verification.
async fn compare_rows(
    db: &Db,
    games: &HashMap<String, Replayed>,
    head_seq: i64,
) -> Result<Option<Problem>, StoreError> {
    let sql = "SELECT id, state, version, status, created_by, created_at, updated_at, last_key \
               FROM tripoley_games ORDER BY id";
    type Times = (String, String, Option<String>);
    let mut times: HashMap<String, Times> = HashMap::new();
    let rows: Vec<(String, String, i64, String, String)> = on_pool!(db, |pool| sqlx::query(sql)
        .fetch_all(pool)
        .await?
        .into_iter()
        .map(|r| {
            times.insert(r.get(0), (r.get(5), r.get(6), r.get(7)));
            (r.get(0), r.get(1), r.get(2), r.get(3), r.get(4))
        })
        .collect());
    let mut first: Option<Problem> = None;
    let stored: std::collections::HashSet<String> = rows.iter().map(|r| r.0.clone()).collect();
    for (id, r) in games {
        // A game started before the head whose row is gone (its row is
        // written in the same transaction as its first record).
        if !stored.contains(id) && first.as_ref().is_none_or(|f| r.seq < f.seq) {
            first = Some(row_problem(
                r.seq,
                format!(
                    "tripoley_games row {id}: missing; its records end at seq {}",
                    r.seq
                ),
            ));
        }
    }
    for (id, state, version, status, created_by) in rows {
        let found = match games.get(&id) {
            None => {
                let later = "SELECT COUNT(*) FROM audit_log WHERE seq > $1 \
                             AND event_type = 'tripoley_started' AND payload LIKE $2";
                let pattern = format!("%\"game_id\":\"{id}\"%");
                let n: i64 = on_pool!(db, |pool| sqlx::query_scalar(later)
                    .bind(head_seq)
                    .bind(&pattern)
                    .fetch_one(pool)
                    .await?);
                (n == 0).then(|| {
                    problem(
                        head_seq,
                        format!(
                            "tripoley game {id}: a stored game with no tripoley_started record"
                        ),
                    )
                })
            }
            Some(r) if version > r.version => None,
            Some(r) => {
                let same = serde_json::from_str::<TripoleyGame>(&state)
                    .is_ok_and(|stored| version == r.version && stored == r.game);
                let replayed_status = if r.game.finished() {
                    "finished"
                } else {
                    "playing"
                };
                if !same {
                    Some(problem(
                        r.seq,
                        format!(
                            "tripoley game {id}: the stored game differs from the one replayed from its records"
                        ),
                    ))
                } else if status != replayed_status {
                    Some(row_problem(
                        r.seq,
                        format!(
                            "tripoley_games row {id}: status is {status:?} in the row, {replayed_status:?} from its records"
                        ),
                    ))
                } else if created_by != r.created_by {
                    Some(row_problem(
                        r.seq,
                        format!(
                            "tripoley_games row {id}: created_by is {created_by:?} in the row, {:?} from its records",
                            r.created_by
                        ),
                    ))
                } else {
                    times
                        .get(&id)
                        .and_then(|t| time_differs(t, r))
                        .map(|d| row_problem(r.seq, format!("tripoley_games row {id}: {d}")))
                }
            }
        };
        if let Some(p) = found
            && first.as_ref().is_none_or(|f| p.seq < f.seq)
        {
            first = Some(p);
        }
    }
    Ok(first)
}
