//! The rows against the log's fold, kind by kind (the card tables, the
//! dealer assignments, the dice games): the first difference by seq.

use std::collections::BTreeSet;

use super::{FromLog, Problem, Rows, problem};

/// A field that differs: `row` as stored, `log` as the records give it.
fn differs<T: std::fmt::Debug + PartialEq>(field: &str, row: &T, log: &T) -> Option<String> {
    (row != log).then(|| format!("{field} is {row:?} in the row, {log:?} from its records"))
}

/// The earliest problem noted.
#[derive(Default)]
struct First(Option<Problem>);

impl First {
    fn note(&mut self, p: Problem) {
        if self.0.as_ref().is_none_or(|f| p.seq < f.seq) {
            self.0 = Some(p);
        }
    }
}

/// The first difference (by seq) between the rows and the log.
pub(super) fn compare(log: &FromLog, rows: &Rows, head_seq: i64) -> Option<Problem> {
    let mut first = First::default();
    tables(log, rows, head_seq, &mut first);
    dealers(log, rows, head_seq, &mut first);
    dice(log, rows, head_seq, &mut first);
    first.0
}

/// The `card_tables` rows against the `table_created` records.
fn tables(log: &FromLog, rows: &Rows, head_seq: i64, first: &mut First) {
    let later = |key: &str| log.later.contains(key);
    let mut seen = BTreeSet::new();
    for (name, columns, created_by) in &rows.tables {
        seen.insert(name.as_str());
        if later(name) {
            continue;
        }
        let row = format!("card_tables row \"{name}\"");
        let Some(t) = log.tables.get(name) else {
            first.note(problem(head_seq, format!("{row}: no table_created record")));
            continue;
        };
        let (c, l) = (columns, &t.columns);
        let diff = differs("game", &c.game, &l.game)
            .or_else(|| differs("profile", &c.profile, &l.profile))
            .or_else(|| differs("options", &c.options, &l.options))
            .or_else(|| differs("seats", &c.seats, &l.seats))
            .or_else(|| differs("player_schedule", &c.player_schedule, &l.player_schedule))
            .or_else(|| differs("bank_schedule", &c.bank_schedule, &l.bank_schedule))
            .or_else(|| differs("wager_min", &c.wager_min, &l.wager_min))
            .or_else(|| differs("wager_max", &c.wager_max, &l.wager_max))
            .or_else(|| differs("training", &c.training, &l.training))
            .or_else(|| differs("created_by", created_by, &t.created_by))
            .or_else(|| {
                let created_at = rows.times.tables.get(name).map_or("", String::as_str);
                differs("created_at", &created_at, &t.created_at.as_str())
            });
        if let Some(d) = diff {
            first.note(problem(t.seq, format!("{row}: {d}")));
        }
    }
    for (name, t) in &log.tables {
        if !seen.contains(name.as_str()) && !later(name) {
            first.note(problem(
                t.seq,
                format!(
                    "card_tables row \"{name}\": missing; its table_created record is at seq {}",
                    t.seq
                ),
            ));
        }
    }
}

/// The `table_dealers` rows against the assignments the records leave.
fn dealers(log: &FromLog, rows: &Rows, head_seq: i64, first: &mut First) {
    let later = |key: &str| log.later.contains(key);
    let table_seq = |table: &str| log.tables.get(table).map_or(head_seq, |t| t.seq);
    let mut seen = BTreeSet::new();
    for (table, dealer, assigned_by) in &rows.dealers {
        let pair = (table.clone(), dealer.clone());
        seen.insert(pair.clone());
        if later(table) {
            continue;
        }
        let row = format!("table_dealers row (\"{table}\", \"{dealer}\")");
        match log.dealers.get(&pair) {
            None => first.note(problem(
                table_seq(table),
                format!("{row}: {dealer} is not assigned to {table} by its records"),
            )),
            Some((by, seq, at)) => {
                let assigned_at = rows.times.dealers.get(&pair).map_or("", String::as_str);
                if let Some(d) = differs("assigned_by", assigned_by, by)
                    .or_else(|| differs("assigned_at", &assigned_at, &at.as_str()))
                {
                    first.note(problem(*seq, format!("{row}: {d}")));
                }
            }
        }
    }
    for ((table, dealer), (_, seq, _)) in &log.dealers {
        if !seen.contains(&(table.clone(), dealer.clone())) && !later(table) {
            first.note(problem(
                table_seq(table).max(*seq),
                format!(
                    "table_dealers row (\"{table}\", \"{dealer}\"): missing; the dealer_assigned record at seq {seq} assigns {dealer} to {table}"
                ),
            ));
        }
    }
}

/// The `dice_games` rows against the games replayed from their records.
fn dice(log: &FromLog, rows: &Rows, head_seq: i64, first: &mut First) {
    let later = |key: &str| log.later.contains(key);
    let mut seen = BTreeSet::new();
    for (id, game, state, status, version, created_by) in &rows.dice {
        seen.insert(id.as_str());
        if later(id) {
            continue;
        }
        let row = format!("dice_games row {id}");
        let Some(g) = log.dice.get(id) else {
            first.note(problem(head_seq, format!("{row}: no …_started record")));
            continue;
        };
        let replayed = g.state.to_json().unwrap_or_default();
        let log_status = if g.state.finished() {
            "finished"
        } else {
            "playing"
        };
        let diff = differs("game", &game.as_str(), &g.kind)
            .or_else(|| {
                (state != &replayed)
                    .then(|| "state differs from the game replayed from its records".to_string())
            })
            .or_else(|| differs("status", &status.as_str(), &log_status))
            .or_else(|| differs("version", version, &g.version))
            .or_else(|| differs("created_by", created_by, &g.created_by))
            .or_else(|| {
                let (created_at, updated_at, last_key) = rows.times.dice.get(id)?;
                differs("created_at", created_at, &g.created_at)
                    .or_else(|| differs("updated_at", updated_at, &g.updated_at))
                    .or_else(|| {
                        let recorded = g.last_key.as_ref()?;
                        differs("last_key", last_key, recorded)
                    })
            });
        if let Some(d) = diff {
            first.note(problem(g.seq, format!("{row}: {d}")));
        }
    }
    for (id, g) in &log.dice {
        if !seen.contains(id.as_str()) && !later(id) {
            first.note(problem(g.seq, format!("dice_games row {id}: missing")));
        }
    }
}
