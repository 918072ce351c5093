//! A bounded load benchmark of the game server on the loopback (not a test):
//!
//! ```text
//! cargo run --release -p server --example load -- --games 100 --seconds 10
//! ```
//!
//! Starts the server in-process on 127.0.0.1 over a temporary SQLite file (or `--database
//! URL`), creates `--games` hot-seat games of `--scenario` (default `bon-first-day`), and lets
//! one client task per game take random legal actions as fast as the server answers, each with
//! `expect`, until `--seconds` have passed (or `--max-actions` in all). A finished game is
//! replaced by a new one. Prints the throughput and the p50/p99/max latency of an action
//! (request to parsed reply, which carries the whole state view), every action committed to
//! the database before its reply.

use serde_json::{json, Value};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

struct Args {
    games: usize,
    seconds: u64,
    max_actions: u64,
    scenario: String,
    database: Option<String>,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        games: 100,
        seconds: 10,
        max_actions: 2_000_000,
        scenario: "bon-first-day".into(),
        database: None,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().ok_or_else(|| format!("{k} needs a value"));
        match k.as_str() {
            "--games" => a.games = v()?.parse().map_err(|e| format!("--games: {e}"))?,
            "--seconds" => a.seconds = v()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--max-actions" => {
                a.max_actions = v()?.parse().map_err(|e| format!("--max-actions: {e}"))?
            }
            "--scenario" => a.scenario = v()?,
            "--database" => a.database = Some(v()?),
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.games == 0 || a.games > 10_000 || a.seconds == 0 || a.seconds > 600 {
        return Err("--games 1..10000 and --seconds 1..600".into());
    }
    Ok(a)
}

/// xorshift: each client's own random choices.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}

async fn new_game(
    http: &reqwest::Client,
    base: &str,
    scenario: &str,
    seed: u64,
) -> (String, String, Value) {
    let v: Value = http
        .post(format!("{base}/api/games"))
        .json(&json!({"scenario": scenario, "seed": seed, "mode": "hotseat"}))
        .send()
        .await
        .expect("create")
        .json()
        .await
        .expect("JSON");
    let id = v["id"].as_str().expect("id").to_string();
    let token = v["seats"]["both"].as_str().expect("token").to_string();
    let state: Value = http
        .get(format!("{base}/api/games/{id}"))
        .send()
        .await
        .expect("state")
        .json()
        .await
        .expect("JSON");
    (id, token, state)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

#[tokio::main(flavor = "multi_thread")]
async fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let dir = tempfile::tempdir().expect("a temporary directory");
    let database = a
        .database
        .clone()
        .unwrap_or_else(|| format!("sqlite:{}", dir.path().join("load.sqlite").display()));
    let srv = server::start(server::Config {
        port: 0,
        database: database.clone(),
        ..server::Config::default()
    })
    .await
    .expect("the server starts");
    let base = format!("http://{}", srv.addr());
    println!(
        "load: {} games of {} for {} s against {} ({})",
        a.games,
        a.scenario,
        a.seconds,
        srv.url(),
        srv.backend()
    );
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(a.games)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("a client");
    let deadline = Instant::now() + Duration::from_secs(a.seconds);
    let budget = Arc::new(AtomicU64::new(a.max_actions));
    let games_done = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let mut tasks = Vec::new();
    for g in 0..a.games {
        let http = http.clone();
        let base = base.clone();
        let scenario = a.scenario.clone();
        let budget = budget.clone();
        let games_done = games_done.clone();
        tasks.push(tokio::spawn(async move {
            let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (g as u64 + 1);
            let (mut id, mut token, mut state) =
                new_game(&http, &base, &scenario, next(&mut seed)).await;
            let mut lat = Vec::new();
            let mut errors = 0u64;
            while Instant::now() < deadline {
                if budget
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(1))
                    .is_err()
                {
                    break;
                }
                let legal = state["legal"].as_array().cloned().unwrap_or_default();
                if legal.is_empty() || state["to_act"] == "over" {
                    games_done.fetch_add(1, Ordering::Relaxed);
                    (id, token, state) = new_game(&http, &base, &scenario, next(&mut seed)).await;
                    continue;
                }
                // end phases now and then, so that games move through their turns
                let action = if next(&mut seed).is_multiple_of(8) && legal.contains(&json!("end")) {
                    "end".to_string()
                } else {
                    legal[(next(&mut seed) % legal.len() as u64) as usize]
                        .as_str()
                        .unwrap_or("end")
                        .to_string()
                };
                let expect = state["actions_recorded"].as_u64().unwrap_or(0);
                let t = Instant::now();
                let r = http
                    .post(format!("{base}/api/games/{id}/actions"))
                    .bearer_auth(&token)
                    .json(&json!({"action": action, "expect": expect}))
                    .send()
                    .await;
                let ok = match r {
                    Ok(r) if r.status().is_success() => match r.json::<Value>().await {
                        Ok(v) => {
                            state = v["state"].clone();
                            true
                        }
                        Err(_) => false,
                    },
                    _ => false,
                };
                if ok {
                    lat.push(t.elapsed());
                } else {
                    errors += 1;
                    // resynchronise
                    if let Ok(r) = http.get(format!("{base}/api/games/{id}")).send().await {
                        if let Ok(v) = r.json::<Value>().await {
                            state = v;
                        }
                    }
                }
            }
            (lat, errors)
        }));
    }
    let mut lat = Vec::new();
    let mut errors = 0;
    for t in tasks {
        let (l, e) = t.await.expect("a client task");
        lat.extend(l);
        errors += e;
    }
    let elapsed = started.elapsed();
    lat.sort();
    let n = lat.len();
    println!(
        "{n} actions in {:.1} s: {:.0} actions/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} refused or failed; {} games finished",
        elapsed.as_secs_f64(),
        n as f64 / elapsed.as_secs_f64(),
        percentile(&lat, 0.5).as_secs_f64() * 1e3,
        percentile(&lat, 0.99).as_secs_f64() * 1e3,
        lat.last().copied().unwrap_or_default().as_secs_f64() * 1e3,
        errors,
        games_done.load(Ordering::Relaxed)
    );
    srv.stop().await;
}
