//! Load generator for the hand API (the web API load test): N tables at
//! once, each driving complete 7-seat hands through `POST /api/v1/hands…`
//! the way a dealer's screen does — one request per step, each with its
//! `expected_version` and a fresh idempotency key:
//!
//!   open (hand_opened + pd_set) → collection → 12 wagers (a primary and a
//!   backline on seats 2–7) → dice (action_set) → 6 outcomes → 12 step
//!   confirmations in action order → close            = 34 requests a hand
//!
//! Any answer but 2xx is an error (the hand is abandoned). Prints hands/s,
//! requests/s and the per-request latency p50/p90/p99/max. Only loopback
//! addresses are accepted. `scripts/load-test.sh` runs it end to end.
//! Given several `--url`s (instances of one database), table k is driven
//! through URL k mod N and the figures are the aggregate
//! (`scripts/load-test-instances.sh`).
//!
//! cargo run --release --example load -- --url http://127.0.0.1:PORT --token pbk_… [--tables 16] [--hands 2000]

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use pitbook::domain::double_hand_poker::hand_record::{HandEvent, HandState};
use serde_json::{Value, json};

#[derive(Debug, Parser)]
#[command(about = "Drive complete 7-seat hands through the hand API and report the speed")]
struct Args {
    /// The server, on a loopback address: http://127.0.0.1:PORT; repeat
    /// for several instances of one database (the tables are spread over them).
    #[arg(long, required = true)]
    url: Vec<String>,
    /// An API token (`pitbook user token NAME`) of a user who may run hands.
    #[arg(long, env = "PITBOOK_TOKEN", hide_env_values = true)]
    token: String,
    /// Tables driving hands at once.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u16).range(1..=1000))]
    tables: u16,
    /// Complete hands to drive in the measured run.
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u32).range(1..=10_000_000))]
    hands: u32,
    /// Hands driven first and not measured (connections, caches).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u32).range(0..=100_000))]
    warmup: u32,
    /// Runtime worker threads for the generator (it shares the machine with the server).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
}

/// What one table saw.
#[derive(Default)]
struct Tally {
    /// Latency of every successful request, in microseconds.
    latencies: Vec<u32>,
    hands: usize,
    errors: usize,
    /// The first few errors, for the report.
    samples: Vec<String>,
}

/// The events of hand `n` as a dealer enters them, grouped one request per
/// step, with the step confirmations (which depend on the dice) last.
fn hand_requests(n: usize) -> Result<Vec<Vec<Value>>, String> {
    let mut steps: Vec<Vec<Value>> = vec![
        vec![
            json!({"type": "hand_opened", "table": format!("T{}", n % 64)}),
            json!({"type": "pd_set", "seat": 1, "player": "Pat", "bank": "500"}),
        ],
        vec![json!({"type": "collection_taken"})],
    ];
    for seat in 2..=7 {
        for (k, backline) in [(0, false), (1, true)] {
            steps.push(vec![
                json!({"type": "wager_placed", "id": format!("s{seat}w{k}"),
                "seat": seat, "bettor": format!("P{seat}{k}"),
                "amount": format!("{}.50", 20 + seat * 5 + k), "backline": backline}),
            ]);
        }
    }
    steps.push(vec![
        json!({"type": "action_set", "dice": [(n % 6) + 1, (n / 6) % 6 + 1, 4]}),
    ]);
    for seat in 2..=7 {
        let outcome = ["player", "pd", "push"][(seat + n) % 3];
        steps.push(vec![
            json!({"type": "outcome_recorded", "seat": seat, "outcome": outcome}),
        ]);
    }
    for wager in action_order(&steps)? {
        steps.push(vec![json!({"type": "steps_confirmed", "wagers": [wager]})]);
    }
    steps.push(vec![json!({"type": "hand_closed"})]);
    Ok(steps)
}

/// The wagers in action order, as the dealer's screen shows the steps.
fn action_order(steps: &[Vec<Value>]) -> Result<Vec<String>, String> {
    // The client's hand_opened names only the table; folded here, as the
    // store records it, it has a dealer.
    let events: Vec<HandEvent> = steps
        .iter()
        .flatten()
        .map(|e| {
            let mut e = e.clone();
            if e["type"] == "hand_opened" {
                e["dealer"] = json!("load");
            }
            serde_json::from_value(e).map_err(|e| format!("event: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let state = HandState::fold(&events).map_err(|e| format!("fold: {e}"))?;
    let scenario = state.scenario().map_err(|e| format!("scenario: {e}"))?;
    let settlement = pitbook::domain::double_hand_poker::settle::settle(&scenario)
        .map_err(|e| format!("settle: {e}"))?;
    Ok(settlement
        .steps
        .iter()
        .map(|s| s.wager.to_string())
        .collect())
}

/// Sends one command; returns the new version and the hand id.
async fn send(
    client: &reqwest::Client,
    url: &str,
    body: &Value,
    tally: &mut Tally,
) -> Result<(u64, String), String> {
    let start = Instant::now();
    let response = client
        .post(url)
        .json(body)
        .send()
        .await
        .map_err(|e| format!("{url}: {e}"))?;
    let status = response.status();
    let text = response.text().await.map_err(|e| format!("{url}: {e}"))?;
    let took = start.elapsed();
    if !status.is_success() {
        return Err(format!("{url}: {status}: {text}"));
    }
    tally
        .latencies
        .push(u32::try_from(took.as_micros()).unwrap_or(u32::MAX));
    let reply: Value = serde_json::from_str(&text).map_err(|e| format!("{url}: {e}: {text}"))?;
    let version = reply["version"]
        .as_u64()
        .ok_or_else(|| format!("{url}: no version in {text}"))?;
    let hand = reply["hand_id"].as_str().unwrap_or_default().to_string();
    Ok((version, hand))
}

/// Drives hand `n` from open to close.
async fn drive_hand(
    client: &reqwest::Client,
    base: &str,
    n: usize,
    tally: &mut Tally,
) -> Result<(), String> {
    let steps = hand_requests(n)?;
    let mut hand = String::new();
    let mut version = 0;
    for (i, events) in steps.into_iter().enumerate() {
        let key = uuid::Uuid::new_v4().to_string();
        let (url, body) = if i == 0 {
            (
                format!("{base}/api/v1/hands"),
                json!({"idempotency_key": key, "events": events}),
            )
        } else {
            (
                format!("{base}/api/v1/hands/{hand}/commands"),
                json!({"idempotency_key": key, "expected_version": version, "events": events}),
            )
        };
        let (v, id) = send(client, &url, &body, tally).await?;
        version = v;
        if i == 0 {
            hand = id;
        }
    }
    Ok(())
}

/// Each table takes the next hand number until `total` are done.
async fn run(
    client: reqwest::Client,
    bases: Arc<[String]>,
    tables: usize,
    first: usize,
    total: usize,
) -> (Tally, Duration) {
    let next = Arc::new(AtomicUsize::new(0));
    let start = Instant::now();
    let tasks: Vec<_> = (0..tables)
        .map(|k| {
            let (client, next) = (client.clone(), next.clone());
            let base = bases[k % bases.len()].clone();
            tokio::spawn(async move {
                let mut tally = Tally::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    if i >= total {
                        break;
                    }
                    match drive_hand(&client, &base, first + i, &mut tally).await {
                        Ok(()) => tally.hands += 1,
                        Err(e) => {
                            tally.errors += 1;
                            if tally.samples.len() < 3 {
                                tally.samples.push(e);
                            }
                        }
                    }
                }
                tally
            })
        })
        .collect();
    let mut all = Tally::default();
    for task in tasks {
        match task.await {
            Ok(t) => {
                all.latencies.extend(t.latencies);
                all.hands += t.hands;
                all.errors += t.errors;
                all.samples.extend(t.samples);
            }
            Err(e) => {
                all.errors += 1;
                all.samples.push(format!("table task: {e}"));
            }
        }
    }
    (all, start.elapsed())
}

fn percentile(sorted: &[u32], p: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    f64::from(sorted[rank.clamp(1, sorted.len()) - 1]) / 1000.0
}

/// Refuses anything but a loopback address: this tool is for a local server.
fn loopback_base(url: &str) -> Result<String, String> {
    let rest = url
        .strip_prefix("http://")
        .ok_or_else(|| format!("--url: \"{url}\" must start with http://"))?;
    let host_port = rest.trim_end_matches('/');
    let host = host_port.rsplit_once(':').map_or(host_port, |(h, _)| h);
    if !matches!(host, "127.0.0.1" | "localhost" | "[::1]") || host_port.contains('/') {
        return Err(format!(
            "--url: \"{url}\" is not http://127.0.0.1:PORT (only a loopback server is load-tested)"
        ));
    }
    Ok(format!("http://{host_port}"))
}

fn main() -> std::process::ExitCode {
    let args = Args::parse();
    let bases = match args
        .url
        .iter()
        .map(|u| loopback_base(u))
        .collect::<Result<Vec<_>, _>>()
    {
        Ok(b) => b,
        Err(e) => {
            eprintln!("error: {e}");
            return std::process::ExitCode::from(2);
        }
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread()
        .worker_threads(usize::from(args.threads))
        .enable_all()
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: no runtime: {e}");
            return std::process::ExitCode::from(1);
        }
    };
    runtime.block_on(async move {
        let mut headers = reqwest::header::HeaderMap::new();
        let Ok(auth) = format!("Bearer {}", args.token).parse() else {
            eprintln!("error: --token: not a valid header value");
            return std::process::ExitCode::from(2);
        };
        headers.insert(reqwest::header::AUTHORIZATION, auth);
        let client = match reqwest::Client::builder()
            .default_headers(headers)
            .pool_max_idle_per_host(usize::from(args.tables))
            .timeout(Duration::from_secs(30))
            .build()
        {
            Ok(c) => c,
            Err(e) => {
                eprintln!("error: HTTP client: {e}");
                return std::process::ExitCode::from(1);
            }
        };
        let bases: Arc<[String]> = bases.into();
        let base = bases[0].clone();
        let tables = usize::from(args.tables);
        // Hands open only at configured tables: T0… with the seed's schedules.
        // Hands are spread over the table names T0..T63.
        for n in 0..64 {
            if let Err(e) = configure_table(&client, &base, &format!("T{n}")).await {
                eprintln!("error: table T{n}: {e}");
                return std::process::ExitCode::from(1);
            }
        }
        let (warm, _) = run(
            client.clone(),
            bases.clone(),
            tables,
            0,
            args.warmup as usize,
        )
        .await;
        if warm.errors > 0 {
            eprintln!(
                "warm-up errors: {} (first: {:?})",
                warm.errors,
                warm.samples.first()
            );
        }
        let (mut tally, took) = run(
            client,
            bases.clone(),
            tables,
            args.warmup as usize,
            args.hands as usize,
        )
        .await;
        tally.latencies.sort_unstable();
        let secs = took.as_secs_f64();
        let requests = tally.latencies.len();
        let l = &tally.latencies;
        println!(
            "instances {}, tables {tables}, hands {} complete of {} ({} requests each, 7 seats), {secs:.2} s",
            bases.len(),
            tally.hands,
            args.hands,
            requests.checked_div(tally.hands).unwrap_or(0),
        );
        println!(
            "hands/s {:.1}, requests/s {:.0}, errors {}",
            tally.hands as f64 / secs,
            requests as f64 / secs,
            tally.errors
        );
        println!(
            "latency per request (ms): p50 {:.2}, p90 {:.2}, p99 {:.2}, max {:.2}",
            percentile(l, 50.0),
            percentile(l, 90.0),
            percentile(l, 99.0),
            l.last().map_or(0.0, |m| f64::from(*m) / 1000.0)
        );
        for e in &tally.samples {
            eprintln!("error: {e}");
        }
        if tally.errors > 0 || warm.errors > 0 {
            std::process::ExitCode::from(1)
        } else {
            std::process::ExitCode::SUCCESS
        }
    })
}

/// Creates table `name` (the seed's collection schedules) unless it exists.
async fn configure_table(client: &reqwest::Client, base: &str, name: &str) -> Result<(), String> {
    let found = client
        .get(format!("{base}/api/v1/tables/{name}"))
        .send()
        .await
        .map_err(|e| e.to_string())?;
    if found.status().as_u16() == 200 {
        return Ok(());
    }
    let config = json!({"name": name, "profile": "lucky-chances", "seats": 7,
        "player_schedule": [{"from": "0.01", "to": "100", "fee": "1"}],
        "bank_schedule": [{"from": "0.01", "to": "5000", "fee": "2"}]});
    let r = client
        .post(format!("{base}/api/v1/tables"))
        .json(&config)
        .send()
        .await
        .map_err(|e| e.to_string())?;
    match r.status().as_u16() {
        201 => Ok(()),
        s => Err(format!("{s}: {}", r.text().await.unwrap_or_default())),
    }
}
