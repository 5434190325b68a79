//! Settlements per second for a full 7-seat table: the PD on seat 1 and, on
//! each of the six other seats, a primary wager and 3 backline wagers
//! (24 wagers), outcomes given, a collection schedule, one 3:2 backline per
//! seat, and a bank that runs out partway round the table.
//!
//! - `settle/engine`: `settle(&Scenario)` on a validated scenario (the engine);
//! - `settle/engine+json`: the engine plus serializing the settlement JSON
//!   (which renders the 24 explanation sentences);
//! - `settle/json_to_json`: `settle_json`, text in to text out (parse,
//!   validate, settle, serialize), what the CLI and HTTP do.

use std::hint::black_box;

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use pitbook::domain::double_hand_poker::settle::{parse_scenario, settle, settle_json};

fn full_table() -> String {
    let names = ["Ann", "Bo", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"];
    let outcomes = ["pd", "player", "push", "pd", "player", "pd"];
    let mut wagers = Vec::new();
    for (k, seat) in (2..=7).enumerate() {
        wagers.push(format!(
            r#"{{"id": "s{seat}p", "seat": {seat}, "bettor": "{}", "amount": "{}"}}"#,
            names[k],
            40 + 10 * k
        ));
        for b in 0..3 {
            let payout = if b == 1 { r#", "payout": "3:2""# } else { "" };
            wagers.push(format!(
                r#"{{"id": "s{seat}b{b}", "seat": {seat}, "bettor": "{}", "amount": "{}.50", "backline": true{payout}}}"#,
                names[(k + b + 2) % names.len()],
                15 + 5 * b
            ));
        }
    }
    let outcomes: Vec<String> = (2..=7)
        .zip(outcomes)
        .map(|(s, o)| format!(r#""{s}": "{o}""#))
        .collect();
    format!(
        r#"{{"pd": {{"seat": 1, "player": "Dana", "bank": "500"}},
            "action": {{"dice": [4, 5, 3]}},
            "wagers": [{}],
            "outcomes": {{{}}},
            "collection": {{"player": [{{"from": "0", "to": "99.99", "fee": "1"}}, {{"from": "100", "to": "5000", "fee": "2"}}],
                            "bank": [{{"from": "0", "to": "5000", "fee": "2"}}]}}}}"#,
        wagers.join(","),
        outcomes.join(",")
    )
}

fn bench(c: &mut Criterion) {
    let json = full_table();
    let scenario = parse_scenario(&json).expect("valid benchmark scenario");
    let settlement = settle(&scenario).expect("settles");
    assert_eq!(settlement.steps.len(), 24);
    assert!(
        settlement.steps.iter().any(|s| !s.no_action().is_zero()),
        "the bank should run out"
    );

    let mut g = c.benchmark_group("settle");
    g.throughput(Throughput::Elements(1));
    g.bench_function("engine", |b| {
        b.iter(|| settle(black_box(&scenario)).map(|s| s.steps.len()))
    });
    g.bench_function("engine+json", |b| {
        b.iter(|| settle(black_box(&scenario)).map(|s| serde_json::to_string(&s).map(|t| t.len())))
    });
    g.bench_function("json_to_json", |b| {
        b.iter(|| settle_json(black_box(&json)).map(|t| t.len()))
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
