//! `audit verify`'s check of training (docs/training.md): the records
//! (`drill_run_started`, `drill_issued`, `drill_answered`, `pass_mark_set`,
//! `trainee_signed_off`) folded through the same core the store writes
//! with — each run's `Run::issue` and `Run::answer` at the records' own
//! times and actors, so an answer that broke a rule (another's drill, a
//! second answer, a late speed answer) is a problem — every answer graded
//! again and compared with the `right` and the time recorded, every drill
//! issued under this generator version generated again and compared with
//! the question and answer recorded; then the rows (`drill_runs`,
//! `drills`, `training_pass_marks`, `training_sign_offs`) compared with the
//! fold, field by field, as text. Rows whose records come after the walked
//! head are left for the next verification.

use std::collections::BTreeMap;

use serde_json::Value;

use super::Problem;
use crate::domain::training::run::{Mode, Run};
use crate::domain::training::{AnswerInput, GENERATOR_VERSION, Kind, Level};
use crate::store::training::{generate, time_ms};
use crate::store::{Db, StoreError};

const SELECT_RECORDS: &str = "SELECT seq, recorded_at, actor, event_type, payload FROM audit_log \
    WHERE hand_id IS NULL AND event_type IN ('drill_run_started', 'drill_issued', \
    'drill_answered', 'pass_mark_set', 'trainee_signed_off') ORDER BY seq";

type Record = (i64, String, String, String, String);

fn problem(seq: i64, message: String) -> Problem {
    Problem {
        seq,
        kind: "projection",
        message: format!("seq {seq}: {message}"),
    }
}

/// What the log says: each row described as text, with the seq of its
/// last record.
#[derive(Debug, Default)]
struct Derived {
    runs: BTreeMap<String, (String, i64)>,
    drills: BTreeMap<String, (String, i64)>,
    marks: BTreeMap<String, (String, i64)>,
    sign_offs: BTreeMap<String, (String, i64)>,
}

fn field<'a>(v: &'a Value, name: &str, seq: i64, event: &str) -> Result<&'a Value, Problem> {
    v.get(name)
        .ok_or_else(|| problem(seq, format!("{event}: no \"{name}\" in the payload")))
}

fn text(v: &Value, name: &str, seq: i64, event: &str) -> Result<String, Problem> {
    field(v, name, seq, event)?
        .as_str()
        .map(str::to_string)
        .ok_or_else(|| problem(seq, format!("{event}: \"{name}\" is not text")))
}

fn int(v: &Value, name: &str, seq: i64, event: &str) -> Result<i64, Problem> {
    field(v, name, seq, event)?
        .as_i64()
        .ok_or_else(|| problem(seq, format!("{event}: \"{name}\" is not an integer")))
}

fn internal(seq: i64) -> impl Fn(StoreError) -> Problem {
    move |e| problem(seq, e.to_string())
}

/// One record being folded: its seq, time, actor, type, payload and time
/// in milliseconds.
type At<'a> = (i64, &'a str, &'a str, &'a str, &'a Value, i64);

/// The fold so far: each run through the core, and the rows it derives.
#[derive(Default)]
struct Folding {
    runs: BTreeMap<String, Run>,
    derived: Derived,
}

/// Folds the records in seq order.
fn fold(records: &[Record]) -> Result<Derived, Problem> {
    let mut folding = Folding::default();
    for (seq, at, actor, event, payload) in records {
        let (seq, event) = (*seq, event.as_str());
        let v: Value = serde_json::from_str(payload)
            .map_err(|e| problem(seq, format!("{event}: the payload is not JSON: {e}")))?;
        let now_ms = time_ms(at).map_err(internal(seq))?;
        let r = (seq, at.as_str(), actor.as_str(), event, &v, now_ms);
        match event {
            "drill_run_started" => folding.run_started(r)?,
            "drill_issued" => folding.drill_issued(r)?,
            "drill_answered" => folding.drill_answered(r)?,
            "pass_mark_set" => folding.pass_mark_set(r)?,
            _ => folding.signed_off(r)?,
        }
    }
    Ok(folding.derived)
}

impl Folding {
    /// A run started: by its trainee.
    fn run_started(&mut self, r: At<'_>) -> Result<(), Problem> {
        let (seq, at, actor, event, v, now_ms) = r;
        let id = text(v, "run", seq, event)?;
        let trainee = text(v, "trainee", seq, event)?;
        let questions = v.get("questions").and_then(Value::as_i64);
        let mode = Mode::parse(&text(v, "mode", seq, event)?, questions)
            .map_err(|e| problem(seq, format!("{event}: {e}")))?;
        let kind = Kind::parse(&text(v, "kind", seq, event)?)
            .map_err(|e| problem(seq, format!("{event}: {e}")))?;
        let level = Level::new(int(v, "level", seq, event)?)
            .map_err(|e| problem(seq, format!("{event}: {e}")))?;
        if *actor != trainee {
            return Err(problem(
                seq,
                format!("{event}: {actor} started {trainee}'s run"),
            ));
        }
        let row = format!(
            "{trainee}|{}|{questions:?}|{kind}|{level}|{at}|{seq}",
            mode.name()
        );
        self.derived.runs.insert(id.clone(), (row, seq));
        self.runs.insert(
            id.clone(),
            Run::start(id, trainee, mode, kind, level, now_ms),
        );
        Ok(())
    }

    /// A drill issued in a run, generated again from its seed under this generator version.
    fn drill_issued(&mut self, r: At<'_>) -> Result<(), Problem> {
        let (seq, at, actor, event, v, now_ms) = r;
        let id = text(v, "drill", seq, event)?;
        let run_id = text(v, "run", seq, event)?;
        let seed = int(v, "seed", seq, event)?;
        let run = self
            .runs
            .get_mut(&run_id)
            .ok_or_else(|| problem(seq, format!("{event}: no run {run_id}")))?;
        let position = run.drills.len() + 1;
        run.issue(actor, id.clone(), seed as u64, now_ms)
            .map_err(|r| problem(seq, format!("{event} {id}: {r}")))?;
        if int(v, "generator", seq, event)? == i64::from(GENERATOR_VERSION) {
            let drill = generate(run.kind, run.level, seed as u64).map_err(internal(seq))?;
            let same = serde_json::to_value(&drill.question).ok().as_ref() == v.get("question")
                && serde_json::to_value(&drill.answer).ok().as_ref() == v.get("answer");
            if !same {
                return Err(problem(
                    seq,
                    format!(
                        "{event} {id}: the question or answer recorded is not the drill of its seed"
                    ),
                ));
            }
        }
        let row = format!(
            "{run_id}|{position}|{}|{}|{}|{seed}|{at}|{seq}",
            run.trainee, run.kind, run.level
        );
        self.derived.drills.insert(id, (row, seq));
        Ok(())
    }

    /// A drill answered, graded again.
    fn drill_answered(&mut self, r: At<'_>) -> Result<(), Problem> {
        let (seq, at, actor, event, v, now_ms) = r;
        let id = text(v, "drill", seq, event)?;
        let run_id = text(v, "run", seq, event)?;
        let run = self
            .runs
            .get_mut(&run_id)
            .ok_or_else(|| problem(seq, format!("{event}: no run {run_id}")))?;
        let seed = run
            .drills
            .iter()
            .find(|d| d.id == id)
            .map(|d| d.seed as i64);
        let named = (
            text(v, "kind", seq, event)?,
            int(v, "level", seq, event)?,
            Some(int(v, "seed", seq, event)?),
        );
        if named
            != (
                run.kind.name().to_string(),
                i64::from(run.level.get()),
                seed,
            )
        {
            return Err(problem(
                seq,
                format!("{event} {id}: names {named:?}, not the drill's kind, level and seed"),
            ));
        }
        let answer = AnswerInput::from_value(field(v, "answer", seq, event)?.clone());
        let answered = run
            .answer(actor, &id, &answer, now_ms)
            .map_err(|r| problem(seq, format!("{event} {id}: {r}")))?;
        let recorded = (
            field(v, "right", seq, event)?.as_bool(),
            v.get("elapsed_ms").and_then(Value::as_i64),
        );
        let attempt = &answered.attempt;
        if recorded != (Some(attempt.right), Some(attempt.elapsed_ms)) {
            return Err(problem(
                seq,
                format!(
                    "{event} {id}: recorded as right {:?} in {:?} ms; graded again: right {} in {} ms",
                    recorded.0, recorded.1, attempt.right, attempt.elapsed_ms
                ),
            ));
        }
        let answer_text =
            serde_json::to_string(answer.value()).map_err(|e| problem(seq, e.to_string()))?;
        let entry = self
            .derived
            .drills
            .get_mut(&id)
            .ok_or_else(|| problem(seq, format!("{event}: no drill {id}")))?;
        entry.0 = format!(
            "{}|{answer_text}|{}|{}|{at}|{seq}",
            entry.0, attempt.right, attempt.elapsed_ms
        );
        entry.1 = seq;
        Ok(())
    }

    /// A kind's pass mark set.
    fn pass_mark_set(&mut self, r: At<'_>) -> Result<(), Problem> {
        let (seq, at, actor, event, v, _) = r;
        let kind = text(v, "kind", seq, event)?;
        let required = field(v, "required", seq, event)?.as_bool();
        let row = format!(
            "{}|{}|{}|{}|{required:?}|{actor}|{at}|{seq}",
            int(v, "window", seq, event)?,
            int(v, "accuracy_pct", seq, event)?,
            int(v, "median_seconds", seq, event)?,
            int(v, "level", seq, event)?,
        );
        self.derived.marks.insert(kind, (row, seq));
        Ok(())
    }

    /// A trainee signed off, once.
    fn signed_off(&mut self, r: At<'_>) -> Result<(), Problem> {
        let (seq, at, actor, event, v, _) = r;
        let trainee = text(v, "trainee", seq, event)?;
        let promoted = field(v, "promoted", seq, event)?.as_bool();
        if self.derived.sign_offs.contains_key(&trainee) {
            return Err(problem(seq, format!("{trainee} signed off twice")));
        }
        let row = format!("{actor}|{at}|{seq}|{promoted:?}");
        self.derived.sign_offs.insert(trainee, (row, seq));
        Ok(())
    }
}

/// The first difference between rows (as text, by key) and the fold.
pub(super) fn compare(
    what: &str,
    rows: &BTreeMap<String, String>,
    derived: &BTreeMap<String, (String, i64)>,
    head_seq: i64,
) -> Option<Problem> {
    let mut problems = Vec::new();
    for (key, row) in rows {
        match derived.get(key) {
            None => problems.push(problem(
                head_seq,
                format!("the {what} {key} has no record in the log"),
            )),
            Some((_, seq)) if *seq > head_seq => {}
            Some((text, seq)) if text != row => problems.push(problem(
                *seq,
                format!("the {what} {key} is stored as {row} but its records make it {text}"),
            )),
            Some(_) => {}
        }
    }
    for (key, (_, seq)) in derived {
        if *seq <= head_seq && !rows.contains_key(key) {
            problems.push(problem(
                *seq,
                format!("the {what} {key} is in the log but has no stored row"),
            ));
        }
    }
    problems.into_iter().min_by_key(|p| p.seq)
}

type RunDbRow = (
    String,
    String,
    String,
    Option<i64>,
    String,
    i64,
    String,
    i64,
);
type MarkDbRow = (String, i64, i64, i64, i64, bool, String, String, i64);
type DrillDbRow = (
    String,
    String,
    i64,
    String,
    String,
    i64,
    i64,
    String,
    i64,
    Option<String>,
    Option<bool>,
    Option<i64>,
    Option<String>,
    Option<i64>,
);

/// The first problem with training.
pub async fn check(db: &Db, head_seq: i64) -> Result<Option<Problem>, StoreError> {
    let runs_sql =
        "SELECT id, trainee, mode, questions, kind, level, started_at, started_seq FROM drill_runs";
    let drills_sql = "SELECT id, run_id, position, trainee, kind, level, seed, issued_at, issued_seq, \
        answer, correct, elapsed_ms, answered_at, answered_seq FROM drills";
    let marks_sql = "SELECT kind, window_attempts, accuracy_pct, median_seconds, level, required, \
        set_by, set_at, set_seq FROM training_pass_marks";
    let sign_offs_sql =
        "SELECT trainee, signed_by, signed_at, signed_seq, promoted FROM training_sign_offs";
    // The rows first: a change committed after this read has its record
    // after the walked head, and is skipped.
    let (runs, drills, marks, sign_offs, records) = on_pool!(db, |pool| {
        let runs: Vec<RunDbRow> = sqlx::query_as(runs_sql).fetch_all(pool).await?;
        let drills: Vec<DrillDbRow> = sqlx::query_as(drills_sql).fetch_all(pool).await?;
        let marks: Vec<MarkDbRow> = sqlx::query_as(marks_sql).fetch_all(pool).await?;
        let sign_offs: Vec<(String, String, String, i64, bool)> =
            sqlx::query_as(sign_offs_sql).fetch_all(pool).await?;
        let records: Vec<Record> = sqlx::query_as(SELECT_RECORDS).fetch_all(pool).await?;
        (runs, drills, marks, sign_offs, records)
    });
    let derived = match fold(&records) {
        Err(p) if p.seq <= head_seq => return Ok(Some(p)),
        Err(_) => return Ok(None),
        Ok(d) => d,
    };
    let runs: BTreeMap<String, String> = runs
        .into_iter()
        .map(|(id, trainee, mode, questions, kind, level, at, seq)| {
            (
                id,
                format!("{trainee}|{mode}|{questions:?}|{kind}|{level}|{at}|{seq}"),
            )
        })
        .collect();
    let drills: BTreeMap<String, String> = drills
        .into_iter()
        .map(|r| {
            let (id, run, position, trainee, kind, level, seed, at, seq) =
                (r.0, r.1, r.2, r.3, r.4, r.5, r.6, r.7, r.8);
            let mut row = format!("{run}|{position}|{trainee}|{kind}|{level}|{seed}|{at}|{seq}");
            if r.9.is_some() || r.10.is_some() || r.11.is_some() || r.12.is_some() || r.13.is_some()
            {
                let shown = |o: Option<String>| o.unwrap_or_else(|| "NULL".into());
                row = format!(
                    "{row}|{}|{}|{}|{}|{}",
                    shown(r.9),
                    shown(r.10.map(|b| b.to_string())),
                    shown(r.11.map(|n| n.to_string())),
                    shown(r.12),
                    shown(r.13.map(|n| n.to_string()))
                );
            }
            (id, row)
        })
        .collect();
    let marks: BTreeMap<String, String> = marks
        .into_iter()
        .map(|(kind, w, pct, secs, level, required, by, at, seq)| {
            (
                kind,
                format!(
                    "{w}|{pct}|{secs}|{level}|{:?}|{by}|{at}|{seq}",
                    Some(required)
                ),
            )
        })
        .collect();
    let sign_offs: BTreeMap<String, String> = sign_offs
        .into_iter()
        .map(|(trainee, by, at, seq, promoted)| {
            (trainee, format!("{by}|{at}|{seq}|{:?}", Some(promoted)))
        })
        .collect();
    Ok([
        compare("drill run", &runs, &derived.runs, head_seq),
        compare("drill", &drills, &derived.drills, head_seq),
        compare("pass mark of", &marks, &derived.marks, head_seq),
        compare("sign-off of", &sign_offs, &derived.sign_offs, head_seq),
    ]
    .into_iter()
    .flatten()
    .min_by_key(|p| p.seq))
}
