//! The bench's hands: tables, names and whole closed hands with their
//! variety, submitted through the hand writer from one task per table.

use serde_json::{Value, json};

use super::Rng;
use crate::cli::CliError;
use crate::domain::common::audit::AuditKey;
use crate::domain::double_hand_poker::hand_record::{HandEvent, HandState};
use crate::domain::double_hand_poker::settle::settle;
use crate::domain::double_hand_poker::table::TableConfig;
use crate::store::Db;
use crate::store::double_hand_poker::hands::HandCommand;
use crate::store::double_hand_poker::tables;
use crate::store::double_hand_poker::writer::HandWriter;

const FIRST: [&str; 60] = [
    "Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ida", "Jo", "Kim", "Lou", "Max", "Ned",
    "Oda", "Pat", "Quin", "Ray", "Sue", "Tom", "Uma", "Vic", "Wes", "Xia", "Yan", "Zoe", "Amir",
    "Bea", "Carl", "Dana", "Eli", "Fay", "Gil", "Hana", "Ivo", "Jin", "Kai", "Lena", "Mo", "Nia",
    "Otis", "Pia", "Rosa", "Sam", "Tess", "Ugo", "Vera", "Walt", "Yuki", "Zane", "Ana", "Ben",
    "Cleo", "Dev", "Ema", "Finn", "Greta", "Hugo", "Iris", "José",
];
const LAST: [&str; 50] = [
    "Lee", "Kim", "Park", "Nguyen", "Garcia", "Smith", "Chen", "Wong", "Lopez", "Tran", "Brown",
    "Diaz", "Khan", "Singh", "Cohen", "Rossi", "Müller", "Silva", "Ito", "Sato", "Novak", "Ortiz",
    "Reyes", "Cruz", "Moore", "Hall", "Young", "King", "Wright", "Hill", "Scott", "Green", "Adams",
    "Baker", "Ng", "Ramos", "Vega", "Soto", "Luna", "Ruiz", "Ford", "Shaw", "Ward", "Cole", "West",
    "Dunn", "Lam", "Ho", "Yu", "Ma",
];

/// The pool of player names: every first name with every last (3,000).
pub fn players() -> Vec<String> {
    let mut names = Vec::with_capacity(FIRST.len() * LAST.len());
    for last in LAST {
        for first in FIRST {
            names.push(format!("{first} {last}"));
        }
    }
    names
}

/// The dealers' user names.
pub fn dealers() -> Vec<String> {
    FIRST[..24]
        .iter()
        .map(|f| format!("dealer.{}", f.to_lowercase()))
        .collect()
}

/// The bench tables' names.
pub fn table_names(count: u64) -> Vec<String> {
    (1..=count).map(|n| format!("B{n:02}")).collect()
}

/// Tables B01…: 7 seats, collecting; every fourth a training table.
pub async fn create_tables(db: &Db, key: &AuditKey, count: u64) -> Result<Vec<String>, CliError> {
    let names = table_names(count);
    for (i, name) in names.iter().enumerate() {
        let config: TableConfig = serde_json::from_value(json!({
            "name": name, "profile": "lucky-chances", "seats": 7,
            "player_schedule": [{"from": "0.01", "to": "100", "fee": "1"}, {"from": "100.01", "to": "5000", "fee": "2"}],
            "bank_schedule": [{"from": "0.01", "to": "10000", "fee": "2"}],
            "training": i % 4 == 3}))
        .map_err(|e| CliError::Failure(format!("the bench table: {e}")))?;
        tables::create(db, key, "bench", &config)
            .await
            .map_err(|e| CliError::Failure(format!("table {name}: {e}")))?;
    }
    Ok(names)
}

/// What was written.
#[derive(Default)]
pub struct Written {
    pub hands: u64,
    pub corrected: u64,
    pub voided: u64,
}

/// Writes `count` closed hands, one task per table submitting its own in
/// turn (the writer group-commits what they submit at once).
pub async fn write(
    writer: &HandWriter,
    tables: &[String],
    count: u64,
    seed: u64,
) -> Result<Written, CliError> {
    let players = std::sync::Arc::new(players());
    let dealers = std::sync::Arc::new(dealers());
    let per_table = count / tables.len() as u64;
    let mut tasks = Vec::new();
    for (t, table) in tables.iter().enumerate() {
        let mine = per_table + u64::from((t as u64) < count % tables.len() as u64);
        let (writer, table) = (writer.clone(), table.clone());
        let (players, dealers) = (players.clone(), dealers.clone());
        tasks.push(tokio::spawn(async move {
            let mut rng = Rng::new(seed ^ (t as u64 + 1).wrapping_mul(0x2545_F491_4F6C_DD1D));
            let mut written = Written::default();
            for n in 0..mine {
                let key = format!("bench-{table}-{n}");
                let command = closed_hand(&mut rng, &table, &players, &dealers, &key)?;
                let (done, _) = writer
                    .submit(None, command)
                    .await
                    .map_err(|e| CliError::Failure(format!("hand {key}: {e}")))?;
                written.hands += 1;
                // About one hand in 100 corrected, one in 200 voided, after
                // its close, by a supervisor.
                let after = match rng.below(200) {
                    0 | 1 => Some(correction(&mut rng, &done.hand_id)),
                    2 => Some(
                        json!({"type": "hand_voided", "reason": "misdeal: a card was exposed"}),
                    ),
                    _ => None,
                };
                if let Some(event) = after {
                    let voided = event["type"] == "hand_voided";
                    let command = command_of(
                        &format!("{key}-after"),
                        "supervisor.sue",
                        Some(done.version),
                        vec![event],
                    )?;
                    writer
                        .submit(Some(done.hand_id.clone()), command)
                        .await
                        .map_err(|e| CliError::Failure(format!("hand {key} afterwards: {e}")))?;
                    if voided {
                        written.voided += 1;
                    } else {
                        written.corrected += 1;
                    }
                }
            }
            Ok::<_, CliError>(written)
        }));
    }
    let mut total = Written::default();
    for task in tasks {
        let w = task
            .await
            .map_err(|e| CliError::Failure(format!("a bench table: {e}")))??;
        total.hands += w.hands;
        total.corrected += w.corrected;
        total.voided += w.voided;
    }
    Ok(total)
}

fn command_of(
    key: &str,
    actor: &str,
    version: Option<u64>,
    events: Vec<Value>,
) -> Result<HandCommand, CliError> {
    let mut command = json!({"idempotency_key": key, "actor": actor, "events": events});
    if let Some(v) = version {
        command["expected_version"] = json!(v);
    }
    serde_json::from_value(command)
        .map_err(|e| CliError::Failure(format!("bench command {key}: {e}")))
}

/// A seat's result corrected (the first seat that had a wager).
fn correction(rng: &mut Rng, _hand: &str) -> Value {
    let outcome = ["player", "pd", "push"][rng.below(3) as usize];
    json!({"type": "outcome_corrected", "seat": 2, "outcome": outcome, "reason": "misread at the table"})
}

/// A whole hand, opened to closed: the PD on seat 1, 1–8 wagers on seats
/// 2–7 (past six, backline wagers), the collection, dice, every wagered
/// seat's result, the steps confirmed in action order, the close.
pub(super) fn closed_hand(
    rng: &mut Rng,
    table: &str,
    players: &[String],
    dealers: &[String],
    key: &str,
) -> Result<HandCommand, CliError> {
    let pd = rng.pick(players);
    let bank = 200 + 50 * rng.below(97);
    let mut events = vec![
        json!({"type": "hand_opened", "table": table}),
        json!({"type": "pd_set", "seat": 1, "player": pd, "bank": bank.to_string()}),
        json!({"type": "collection_taken"}),
    ];
    let wagers = 1 + rng.below(8);
    let mut seats: Vec<u64> = vec![2, 3, 4, 5, 6, 7];
    for i in (1..seats.len()).rev() {
        seats.swap(i, rng.below(i as u64 + 1) as usize);
    }
    // Seat 2 always has a wager: the correction names it.
    if let Some(at) = seats.iter().position(|s| *s == 2) {
        seats.swap(0, at);
    }
    let used = seats.len().min(wagers as usize);
    for k in 0..wagers as usize {
        let (seat, backline) = (seats[k % used], k >= used);
        // Most wagers small, one in ten up to 500.
        let top = if rng.below(10) == 0 { 100 } else { 20 };
        let amount = 5 * (1 + rng.below(top));
        events.push(
            json!({"type": "wager_placed", "id": format!("w{k}"), "seat": seat,
            "bettor": rng.pick(players), "amount": amount.to_string(), "backline": backline}),
        );
    }
    let dice = [1 + rng.below(6), 1 + rng.below(6), 1 + rng.below(6)];
    events.push(json!({"type": "action_set", "dice": dice}));
    for &seat in &seats[..used] {
        let outcome = ["player", "pd", "push"][rng.below(3) as usize];
        events.push(json!({"type": "outcome_recorded", "seat": seat, "outcome": outcome}));
    }
    let dealer = rng.pick(dealers);
    let mut command = command_of(key, dealer, None, events)?;
    let order = action_order(&command)?;
    let confirm = serde_json::from_value(json!({"type": "steps_confirmed", "wagers": order}))
        .map_err(|e| CliError::Failure(e.to_string()))?;
    command.events.push(confirm);
    command
        .events
        .push(HandEvent::HandClosed { settlement: None });
    Ok(command)
}

/// The wagers in the order the settlement takes them (the dice decide it),
/// from the hand folded as the store records it (the opening names its
/// dealer).
pub fn action_order(command: &HandCommand) -> Result<Vec<String>, CliError> {
    let failed = |e: &dyn std::fmt::Display| CliError::Failure(format!("bench hand: {e}"));
    let mut events = command.events.clone();
    if let Some(HandEvent::HandOpened { dealer, .. }) = events.first_mut() {
        *dealer = command.actor.clone();
    }
    let state = HandState::fold(&events).map_err(|e| failed(&e))?;
    let scenario = state.scenario().map_err(|e| failed(&e))?;
    let settlement = settle(&scenario).map_err(|e| failed(&e))?;
    Ok(settlement
        .steps
        .iter()
        .map(|s| s.wager.to_string())
        .collect())
}
