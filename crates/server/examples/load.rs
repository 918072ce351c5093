//! A bounded load benchmark of the game server on the loopback (not a test):
//!
//! ```text
//! cargo run --release -p server --example load -- --games 100 --seconds 10
//! ```
//!
//! Starts the server in-process on 127.0.0.1 over a temporary SQLite file (or `--database
//! URL`), creates `--games` hot-seat games of `--scenario` (default `bon-first-day`), and lets
//! one client task per game play random legal actions, each with `expect` and asking for the
//! legal actions that follow (as the board does), until `--seconds` have passed (or
//! `--max-actions` in all). Before each action a client pauses like a player: uniformly 0 to
//! 2 × `--think` ms (default 250: four actions a second a game on average, faster than anyone
//! plays); `--think 0` sends actions back to back and measures the server saturated. A finished
//! game is replaced by a new one. The clock starts once every game is made. Prints the
//! throughput and the p50/p99/max latency of an action (request to parsed reply), every action
//! committed to the database before its reply.

use serde::Deserialize;
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
    think: u64,
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        games: 100,
        seconds: 10,
        max_actions: 2_000_000,
        scenario: "bon-first-day".into(),
        database: None,
        think: 250,
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
            "--think" => a.think = v()?.parse().map_err(|e| format!("--think: {e}"))?,
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.games == 0 || a.games > 10_000 || a.seconds == 0 || a.seconds > 600 {
        return Err("--games 1..10000 and --seconds 1..600".into());
    }
    Ok(a)
}

/// What a client needs of a state view or a change: the legal actions, the record's length,
/// the side to act (parsed into these fields only, so that the client takes little of the CPU
/// the server needs: a browser runs on another machine).
#[derive(Deserialize, Default)]
struct Seen {
    #[serde(default)]
    legal: Vec<String>,
    actions_recorded: u64,
    to_act: String,
}

/// The reply to an action.
#[derive(Deserialize)]
struct Reply {
    change: Seen,
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
) -> (String, String, Seen) {
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
    let state: Seen = http
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
    let srv = server::start(
        server::Config {
            port: 0,
            database: database.clone(),
            ..server::Config::default()
        },
        systems::Library::standard(),
    )
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
    // every client creates its game first; the clock starts once all are made
    let made = Arc::new(tokio::sync::Barrier::new(a.games + 1));
    let go = Arc::new(tokio::sync::Barrier::new(a.games + 1));
    let clock: Arc<std::sync::OnceLock<Instant>> = Arc::new(std::sync::OnceLock::new());
    let budget = Arc::new(AtomicU64::new(a.max_actions));
    let games_done = Arc::new(AtomicU64::new(0));
    let mut tasks = Vec::new();
    for g in 0..a.games {
        let http = http.clone();
        let base = base.clone();
        let scenario = a.scenario.clone();
        let budget = budget.clone();
        let games_done = games_done.clone();
        let think = a.think;
        let (made, go, clock) = (made.clone(), go.clone(), clock.clone());
        let seconds = a.seconds;
        tasks.push(tokio::spawn(async move {
            let mut seed = 0x9E37_79B9_7F4A_7C15u64 ^ (g as u64 + 1);
            let (mut id, mut token, mut state) =
                new_game(&http, &base, &scenario, next(&mut seed)).await;
            made.wait().await;
            go.wait().await;
            let deadline = *clock.get().unwrap_or(&Instant::now()) + Duration::from_secs(seconds);
            let mut lat = Vec::new();
            let mut errors = 0u64;
            while Instant::now() < deadline {
                if think > 0 {
                    // a player's pause before each action: uniform in 0..2*think ms, so that
                    // the games start and go on out of step, as players do
                    let pause = next(&mut seed) % (2 * think + 1);
                    tokio::time::sleep(Duration::from_millis(pause)).await;
                }
                if budget
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| b.checked_sub(1))
                    .is_err()
                {
                    break;
                }
                let legal = &state.legal;
                if legal.is_empty() || state.to_act == "over" {
                    games_done.fetch_add(1, Ordering::Relaxed);
                    (id, token, state) = new_game(&http, &base, &scenario, next(&mut seed)).await;
                    continue;
                }
                // end phases now and then, so that games move through their turns
                let action =
                    if next(&mut seed).is_multiple_of(8) && legal.iter().any(|a| a == "end") {
                        "end".to_string()
                    } else {
                        legal[(next(&mut seed) % legal.len() as u64) as usize].clone()
                    };
                let expect = state.actions_recorded;
                let t = Instant::now();
                let r = http
                    .post(format!("{base}/api/games/{id}/actions"))
                    .bearer_auth(&token)
                    .json(&json!({"action": action, "expect": expect, "legal": true}))
                    .send()
                    .await;
                let ok = match r {
                    // the change carries what the client needs: the legal actions, the record's
                    // length, the side to act
                    Ok(r) if r.status().is_success() => match r.json::<Reply>().await {
                        Ok(v) => {
                            state = v.change;
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
                        if let Ok(v) = r.json::<Seen>().await {
                            state = v;
                        }
                    }
                }
            }
            (lat, errors)
        }));
    }
    made.wait().await;
    let started = *clock.get_or_init(Instant::now);
    go.wait().await;
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
