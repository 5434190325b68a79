//! Tests of `projections`.

use super::*;

fn record(seq: i64, table: Option<&str>, event: &str, payload: &str) -> Record {
    Record {
        seq,
        recorded_at: time(seq),
        actor: "super".into(),
        table: table.map(String::from),
        event: event.into(),
        payload: payload.into(),
    }
}

const T1: &str = r#"{"name":"T1","profile":"nevada","seats":7}"#;

fn rows(dealers: &[&str], dice: &[&str]) -> Rows {
    let config: TableConfig = serde_json::from_str(T1).unwrap();
    Rows {
        tables: vec![(
            "T1".into(),
            TableColumns::of(&config).unwrap(),
            "super".into(),
        )],
        dealers: dealers
            .iter()
            .map(|d| ("T1".to_string(), d.to_string(), "super".to_string()))
            .collect(),
        dice: dice
            .iter()
            .map(|id| {
                (
                    id.to_string(),
                    "poker-dice".to_string(),
                    "{}".to_string(),
                    "playing".to_string(),
                    1,
                    "super".to_string(),
                )
            })
            .collect(),
        times: RowTimes {
            tables: HashMap::from([("T1".into(), time(1))]),
            dealers: dealers
                .iter()
                .map(|d| {
                    let seq = if *d == "dee" { 2 } else { 3 };
                    (("T1".to_string(), d.to_string()), time(seq))
                })
                .collect(),
            dice: HashMap::new(),
        },
    }
}

fn time(seq: i64) -> String {
    format!("2026-01-01T00:00:{seq:02}.000000Z")
}

/// A live server goes on writing after the walked head: rows that later
/// records touch are left for the next verification, and only those.
#[test]
fn rows_touched_after_the_head_are_left_for_the_next_verification() {
    let records = vec![
        record(1, Some("T1"), "table_created", T1),
        record(2, Some("T1"), "dealer_assigned", r#"{"dealer":"dee"}"#),
        record(3, Some("T1"), "dealer_assigned", r#"{"dealer":"sam"}"#),
        record(
            4,
            None,
            "poker_dice_started",
            r#"{"game_id":"g1","state":{}}"#,
        ),
    ];
    let head = 2;
    let log = replay(&records, head).unwrap();
    // sam's row and the game's row are the records' after the head.
    assert!(compare(&log, &rows(&["dee", "sam"], &["g1"]), head).is_none());
    // Without the later records they are rows nothing recorded.
    let log = replay(&records[..2], head).unwrap();
    let p = compare(&log, &rows(&["dee", "sam"], &[]), head).unwrap();
    assert_eq!((p.seq, p.kind), (2, PROJECTION));
    assert!(p.message.contains("(\"T1\", \"sam\")"), "{}", p.message);
    let p = compare(&log, &rows(&["dee"], &["g1"]), head).unwrap();
    assert_eq!((p.seq, p.kind), (head, PROJECTION));
    assert!(p.message.contains("dice_games row g1: no"), "{}", p.message);
    // An unassignment after the head leaves the row alone too.
    let mut later = records[..2].to_vec();
    later.push(record(
        5,
        Some("T1"),
        "dealer_unassigned",
        r#"{"dealer":"dee"}"#,
    ));
    let log = replay(&later, head).unwrap();
    assert!(compare(&log, &rows(&["dee"], &[]), head).is_none());
    let log = replay(&later[..2], head).unwrap();
    assert!(compare(&log, &rows(&[], &[]), head).is_some());
}
