//! A bounded load benchmark of the game server on the loopback (not a test):
//!
//! ```text
//! cargo run --release -p server --example load -- --games 100 --seconds 10
//! cargo run --release -p server --example load -- --games 100,200 --think 250,0
//! ./scripts/with-postgres sh -c 'cargo run --release -p server --example load -- \
//!     --games 100,200 --think 250,0 --database sqlite --database "$GROGNARD_TEST_POSTGRES"'
//! ```
//!
//! One run starts the server in-process on 127.0.0.1 over a temporary SQLite file (`--database
//! sqlite`, the default) or a PostgreSQL URL, creates `--games` hot-seat games of `--scenario`
//! (default `bon-first-day`), and lets one client task per game play random legal actions,
//! each with `expect` and asking for the legal actions that follow (as the board does), until
//! `--seconds` have passed (or `--max-actions` in all). Before each action a client pauses like
//! a player: uniformly 0 to 2 × `--think` ms (default 250: four actions a second a game on
//! average, faster than anyone plays); `--think 0` sends actions back to back and measures the
//! server saturated. A finished game is replaced by a new one. The clock starts once every game
//! is made.
//!
//! `--games`, `--think` and `--database` take several values (lists separated by commas;
//! `--database` may also be repeated): every combination is one run, each on a fresh server
//! (and a fresh SQLite file), and the end prints one Markdown table row per run: the
//! throughput, the p50/p90/p99/max latency of an action (request to parsed reply; every
//! action committed to the database before its reply), the requests that failed, the CPU the
//! server and the clients used (in cores), the CPU the machine's other processes used meanwhile
//! (a PostgreSQL server among them: a figure taken while others were busy is not comparable
//! with one from an idle machine) and the load average when the run began (which counts the
//! previous run's threads too).
//!
//! The clients run on a Tokio runtime of their own (`--client-threads`, default 1), apart from
//! the server's, so that a reply waiting for a client is not queued behind the server's work
//! (a browser runs on another machine; they still share the cores). `--shared-runtime` puts
//! them on the server's runtime, as the first version of this benchmark did.
//!
//! `--spans` also times what the server traces: every span by name (wall time from its
//! creation to its close, and busy time, while entered), including the HTTP layer's `request`
//! span, and every SQL statement sqlx reports (by its first words, as sqlx summarizes it),
//! with their p50/p99/max per run. Spans added to the server (`tracing::info_span!`) show up
//! here without any change to this program.

use serde::Deserialize;
use serde_json::{json, Value};
use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

struct Args {
    games: Vec<usize>,
    seconds: u64,
    max_actions: u64,
    scenario: String,
    databases: Vec<String>,
    think: Vec<u64>,
    spans: bool,
    client_threads: usize,
    shared_runtime: bool,
}

/// A comma-separated list of numbers.
fn list<T: std::str::FromStr>(k: &str, v: &str) -> Result<Vec<T>, String>
where
    T::Err: std::fmt::Display,
{
    v.split(',')
        .map(|x| x.trim().parse().map_err(|e| format!("{k}: '{x}': {e}")))
        .collect()
}

fn args() -> Result<Args, String> {
    let mut a = Args {
        games: vec![100],
        seconds: 10,
        max_actions: 2_000_000,
        scenario: "bon-first-day".into(),
        databases: Vec::new(),
        think: vec![250],
        spans: false,
        client_threads: 1,
        shared_runtime: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(k) = it.next() {
        let mut v = || it.next().ok_or_else(|| format!("{k} needs a value"));
        match k.as_str() {
            "--games" => a.games = list(&k, &v()?)?,
            "--seconds" => a.seconds = v()?.parse().map_err(|e| format!("--seconds: {e}"))?,
            "--max-actions" => {
                a.max_actions = v()?.parse().map_err(|e| format!("--max-actions: {e}"))?
            }
            "--scenario" => a.scenario = v()?,
            "--database" => a.databases.extend(
                v()?.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty()),
            ),
            "--think" => a.think = list(&k, &v()?)?,
            "--client-threads" => {
                a.client_threads = v()?.parse().map_err(|e| format!("--client-threads: {e}"))?
            }
            "--spans" => a.spans = true,
            "--shared-runtime" => a.shared_runtime = true,
            "--help" | "-h" => {
                return Err("options: --games N[,N...] --think MS[,MS...] --seconds S \
                     --database sqlite|URL (repeatable) --scenario ID --max-actions N --spans \
                     --client-threads N --shared-runtime"
                    .into())
            }
            other => return Err(format!("unknown option {other}")),
        }
    }
    if a.databases.is_empty() {
        a.databases.push("sqlite".into());
    }
    if a.games.iter().any(|&g| g == 0 || g > 10_000) || a.seconds == 0 || a.seconds > 600 {
        return Err("--games 1..10000 and --seconds 1..600".into());
    }
    if a.client_threads == 0 || a.client_threads > 64 {
        return Err("--client-threads 1..64".into());
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
    let r = http
        .post(format!("{base}/api/games"))
        .json(&json!({"scenario": scenario, "seed": seed.to_string(), "mode": "hotseat"}))
        .send()
        .await
        .expect("create");
    let status = r.status();
    let v: Value = r.json().await.expect("JSON");
    assert!(status.is_success(), "creating a game: {status}: {v}");
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

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// The machine's one-minute load average.
fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|s| s.split_whitespace().next().map(str::to_string))
        .unwrap_or_else(|| "?".into())
}

/// CPU seconds the whole machine has been busy so far (every core, every process: from
/// `/proc/stat`, Linux; 0 elsewhere).
fn machine_busy_seconds() -> f64 {
    let ticks = 100.0; // USER_HZ on Linux
    std::fs::read_to_string("/proc/stat")
        .ok()
        .and_then(|s| {
            let line = s.lines().next()?.strip_prefix("cpu ")?.to_string();
            let f: Vec<f64> = line
                .split_whitespace()
                .filter_map(|x| x.parse().ok())
                .collect();
            // user nice system idle iowait irq softirq steal: busy is all but idle and iowait
            let all: f64 = f.iter().take(8).sum();
            let idle = f.get(3).copied().unwrap_or(0.0) + f.get(4).copied().unwrap_or(0.0);
            Some((all - idle) / ticks)
        })
        .unwrap_or(0.0)
}

/// CPU seconds used so far: the whole process, and its threads whose name starts with
/// `prefix` (the clients' runtime). From `/proc` (Linux); zeros elsewhere.
fn cpu_seconds(prefix: &str) -> (f64, f64) {
    let ticks = 100.0; // USER_HZ on Linux
    let parse = |stat: &str| -> Option<(String, f64)> {
        let open = stat.find('(')?;
        let close = stat.rfind(')')?;
        let name = stat[open + 1..close].to_string();
        let f: Vec<&str> = stat[close + 2..].split_whitespace().collect();
        // fields 14 and 15 (utime, stime), counted from 3 after the name
        let t = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
        Some((name, t / ticks))
    };
    let total = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|s| parse(&s))
        .map_or(0.0, |x| x.1);
    let mut mine = 0.0;
    if let Ok(dir) = std::fs::read_dir("/proc/self/task") {
        for t in dir.flatten() {
            if let Some((name, s)) = std::fs::read_to_string(t.path().join("stat"))
                .ok()
                .and_then(|s| parse(&s))
            {
                if name.starts_with(prefix) {
                    mine += s;
                }
            }
        }
    }
    (total, mine)
}

/// Times the spans and SQL statements the server traces (`--spans`): a minimal
/// `tracing::Subscriber` (the server depends on `tracing` only).
mod timing {
    use super::{ms, percentile};
    use std::collections::{BTreeMap, HashMap};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Mutex;
    use std::time::{Duration, Instant};
    use tracing::field::{Field, Visit};
    use tracing::span::{Attributes, Id, Record};
    use tracing::{Event, Level, Metadata, Subscriber};

    struct Open {
        name: &'static str,
        start: Instant,
        refs: usize,
        busy: Duration,
        entered: Option<Instant>,
    }

    /// Per name: (wall, busy) of each closed span; per SQL summary: each statement's time.
    #[derive(Default)]
    struct Stats {
        spans: BTreeMap<&'static str, (Vec<Duration>, Vec<Duration>)>,
        sql: BTreeMap<String, Vec<Duration>>,
    }

    /// The subscriber.
    #[derive(Default)]
    pub struct Timer {
        next: AtomicU64,
        open: Mutex<HashMap<u64, Open>>,
        stats: Mutex<Stats>,
    }

    /// The fields of a sqlx statement event.
    #[derive(Default)]
    struct Sql {
        summary: String,
        secs: Option<f64>,
        message: String,
    }

    impl Visit for Sql {
        fn record_f64(&mut self, f: &Field, v: f64) {
            if f.name() == "elapsed_secs" {
                self.secs = Some(v);
            }
        }
        fn record_str(&mut self, f: &Field, v: &str) {
            if f.name() == "summary" {
                self.summary = v.to_string();
            }
        }
        fn record_debug(&mut self, f: &Field, v: &dyn std::fmt::Debug) {
            match f.name() {
                "summary" => self.summary = format!("{v:?}").trim_matches('"').to_string(),
                "message" => self.message = format!("{v:?}"),
                _ => {}
            }
        }
    }

    impl Timer {
        /// Forgets what was timed so far.
        pub fn reset(&self) {
            *self.stats.lock().unwrap_or_else(|e| e.into_inner()) = Stats::default();
        }

        /// The table of what was timed since the last reset.
        pub fn report(&self) -> String {
            let s = self.stats.lock().unwrap_or_else(|e| e.into_inner());
            let mut out = String::from(
                "| span or statement | count | wall p50 | wall p99 | wall max | busy p50 | busy p99 |\n\
                 |---|---|---|---|---|---|---|\n",
            );
            let row = |name: &str, wall: &mut Vec<Duration>, busy: &mut Vec<Duration>| {
                wall.sort();
                busy.sort();
                let b = |p| {
                    if busy.is_empty() {
                        "-".to_string()
                    } else {
                        format!("{:.3} ms", ms(percentile(busy, p)))
                    }
                };
                format!(
                    "| {name} | {} | {:.3} ms | {:.3} ms | {:.3} ms | {} | {} |\n",
                    wall.len(),
                    ms(percentile(wall, 0.5)),
                    ms(percentile(wall, 0.99)),
                    ms(wall.last().copied().unwrap_or_default()),
                    b(0.5),
                    b(0.99)
                )
            };
            for (name, (wall, busy)) in &s.spans {
                out += &row(name, &mut wall.clone(), &mut busy.clone());
            }
            for (name, t) in &s.sql {
                out += &row(&format!("sql: {name}"), &mut t.clone(), &mut Vec::new());
            }
            out
        }
    }

    impl Subscriber for Timer {
        fn enabled(&self, m: &Metadata<'_>) -> bool {
            m.is_span() || m.target() == "sqlx::query" || *m.level() <= Level::WARN
        }

        fn new_span(&self, a: &Attributes<'_>) -> Id {
            let id = self.next.fetch_add(1, Ordering::Relaxed) + 1;
            self.open.lock().unwrap_or_else(|e| e.into_inner()).insert(
                id,
                Open {
                    name: a.metadata().name(),
                    start: Instant::now(),
                    refs: 1,
                    busy: Duration::ZERO,
                    entered: None,
                },
            );
            Id::from_u64(id)
        }

        fn record(&self, _: &Id, _: &Record<'_>) {}

        fn record_follows_from(&self, _: &Id, _: &Id) {}

        fn event(&self, e: &Event<'_>) {
            let m = e.metadata();
            let mut f = Sql::default();
            e.record(&mut f);
            if m.target() == "sqlx::query" {
                if let Some(secs) = f.secs {
                    let mut words: Vec<&str> = f.summary.split_whitespace().take(3).collect();
                    if words.last() == Some(&"…") {
                        words.pop();
                    }
                    self.stats
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .sql
                        .entry(words.join(" "))
                        .or_default()
                        .push(Duration::from_secs_f64(secs));
                }
            } else if *m.level() <= Level::WARN {
                eprintln!("server {}: {}", m.level(), f.message);
            }
        }

        fn enter(&self, id: &Id) {
            if let Some(o) = self
                .open
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_mut(&id.into_u64())
            {
                o.entered = Some(Instant::now());
            }
        }

        fn exit(&self, id: &Id) {
            if let Some(o) = self
                .open
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_mut(&id.into_u64())
            {
                if let Some(t) = o.entered.take() {
                    o.busy += t.elapsed();
                }
            }
        }

        fn clone_span(&self, id: &Id) -> Id {
            if let Some(o) = self
                .open
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .get_mut(&id.into_u64())
            {
                o.refs += 1;
            }
            id.clone()
        }

        fn try_close(&self, id: Id) -> bool {
            let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
            let k = id.into_u64();
            let Some(o) = open.get_mut(&k) else {
                return false;
            };
            o.refs = o.refs.saturating_sub(1);
            if o.refs > 0 {
                return false;
            }
            let o = open.remove(&k).expect("an open span");
            drop(open);
            let mut s = self.stats.lock().unwrap_or_else(|e| e.into_inner());
            let entry = s.spans.entry(o.name).or_default();
            entry.0.push(o.start.elapsed());
            entry.1.push(o.busy);
            true
        }
    }
}

/// One run's figures.
struct Row {
    backend: String,
    games: usize,
    think: u64,
    actions: usize,
    seconds: f64,
    p50: Duration,
    p90: Duration,
    p99: Duration,
    max: Duration,
    failed: u64,
    failures: BTreeMap<String, u64>,
    finished: u64,
    server_cpu: f64,
    client_cpu: f64,
    /// CPU cores the rest of the machine used meanwhile (other processes; a PostgreSQL
    /// server among them).
    other_cpu: f64,
    load: String,
}

impl Row {
    fn markdown(&self) -> String {
        let failures = if self.failures.is_empty() {
            String::new()
        } else {
            format!(
                " ({})",
                self.failures
                    .iter()
                    .map(|(k, v)| format!("{k}: {v}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            )
        };
        format!(
            "| {} | {} | {} | {:.0} | {:.2} ms | {:.2} ms | {:.2} ms | {:.1} ms | {}{} | {:.2} + {:.2} | {:.2} | {} |",
            self.backend,
            self.games,
            self.think,
            self.actions as f64 / self.seconds,
            ms(self.p50),
            ms(self.p90),
            ms(self.p99),
            ms(self.max),
            self.failed,
            failures,
            self.server_cpu,
            self.client_cpu,
            self.other_cpu,
            self.load,
        )
    }
}

const HEADER: &str = "| backend | games | think (ms) | actions/s | p50 | p90 | p99 | max | failed | CPU cores: server + clients | other processes' CPU cores | load average at start |\n\
                      |---|---|---|---|---|---|---|---|---|---|---|---|";

/// What the clients of one run measured.
struct Measured {
    lat: Vec<Duration>,
    failures: BTreeMap<String, u64>,
    finished: u64,
    elapsed: Duration,
    cpu: ((f64, f64), (f64, f64)),
    /// The machine's busy CPU seconds at the start and the end.
    machine: (f64, f64),
}

/// The clients of one run against `base`: `games` games, each played by its own task.
async fn clients(
    a: &Args,
    base: String,
    games: usize,
    think: u64,
    timer: Option<&timing::Timer>,
) -> Measured {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(games)
        .timeout(Duration::from_secs(60))
        .build()
        .expect("a client");
    // every client creates its game first; the clock starts once all are made
    let made = Arc::new(tokio::sync::Barrier::new(games + 1));
    let go = Arc::new(tokio::sync::Barrier::new(games + 1));
    let clock: Arc<std::sync::OnceLock<Instant>> = Arc::new(std::sync::OnceLock::new());
    let budget = Arc::new(AtomicU64::new(a.max_actions));
    let games_done = Arc::new(AtomicU64::new(0));
    let failures: Arc<Mutex<BTreeMap<String, u64>>> = Arc::default();
    let mut tasks = Vec::new();
    for g in 0..games {
        let http = http.clone();
        let base = base.clone();
        let scenario = a.scenario.clone();
        let budget = budget.clone();
        let games_done = games_done.clone();
        let failures = failures.clone();
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
            let fail = |why: String| {
                *failures
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .entry(why)
                    .or_default() += 1;
            };
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
                        Err(_) => {
                            fail("unparsed reply".into());
                            false
                        }
                    },
                    Ok(r) => {
                        fail(format!("HTTP {}", r.status().as_u16()));
                        false
                    }
                    Err(e) => {
                        fail(if e.is_timeout() {
                            "timeout".into()
                        } else {
                            "transport".into()
                        });
                        false
                    }
                };
                if ok {
                    lat.push(t.elapsed());
                } else if let Ok(r) = http.get(format!("{base}/api/games/{id}")).send().await {
                    // resynchronise
                    if let Ok(v) = r.json::<Seen>().await {
                        state = v;
                    }
                }
            }
            lat
        }));
    }
    made.wait().await;
    if let Some(t) = timer {
        t.reset();
    }
    let cpu0 = cpu_seconds("load-client");
    let busy0 = machine_busy_seconds();
    let started = *clock.get_or_init(Instant::now);
    go.wait().await;
    let mut lat = Vec::new();
    for t in tasks {
        lat.extend(t.await.expect("a client task"));
    }
    let elapsed = started.elapsed();
    let cpu1 = cpu_seconds("load-client");
    let busy1 = machine_busy_seconds();
    lat.sort();
    let failures = failures.lock().unwrap_or_else(|e| e.into_inner()).clone();
    Measured {
        lat,
        failures,
        finished: games_done.load(Ordering::Relaxed),
        elapsed,
        cpu: (cpu0, cpu1),
        machine: (busy0, busy1),
    }
}

fn runtime(name: &'static str, threads: Option<usize>) -> tokio::runtime::Runtime {
    let mut b = tokio::runtime::Builder::new_multi_thread();
    b.enable_all().thread_name(name);
    if let Some(n) = threads {
        b.worker_threads(n);
    }
    b.build().expect("a Tokio runtime")
}

/// One run: a fresh server over `database`, `games` clients pausing `think` ms.
fn run(a: &Args, database: &str, games: usize, think: u64, timer: Option<&timing::Timer>) -> Row {
    let load = loadavg();
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = if database == "sqlite" {
        format!("sqlite:{}", dir.path().join("load.sqlite").display())
    } else {
        database.to_string()
    };
    // the server's runtime; with `--shared-runtime` the clients' too (its threads are then
    // all counted as the server's CPU)
    let server_rt = runtime("load-server", None);
    let defaults = server::Limits::default();
    let max_connections = 2 * games + 64;
    let srv = server_rt
        .block_on(server::start(
            server::Config {
                port: 0,
                database: url,
                // every client connects from 127.0.0.1: the per-address cap that protects a
                // public server would cut the benchmark's games off
                limits: server::Limits {
                    max_connections: max_connections.max(defaults.max_connections),
                    max_connections_per_address: max_connections,
                    ..defaults
                },
                ..server::Config::default()
            },
            systems::Library::standard(),
        ))
        .expect("the server starts");
    let base = format!("http://{}", srv.addr());
    let backend = srv.backend().to_string();
    eprintln!(
        "load: {games} games of {}, think {think} ms, for {} s against {} ({backend}), load average {load}",
        a.scenario,
        a.seconds,
        srv.url(),
    );
    let m = if a.shared_runtime {
        server_rt.block_on(clients(a, base, games, think, timer))
    } else {
        let client_rt = runtime("load-client", Some(a.client_threads));
        let m = client_rt.block_on(clients(a, base, games, think, timer));
        client_rt.shutdown_timeout(Duration::from_secs(5));
        m
    };
    server_rt.block_on(srv.stop());
    server_rt.shutdown_timeout(Duration::from_secs(5));
    let ((t0, c0), (t1, c1)) = m.cpu;
    let secs = m.elapsed.as_secs_f64();
    let row = Row {
        backend,
        games,
        think,
        actions: m.lat.len(),
        seconds: secs,
        p50: percentile(&m.lat, 0.5),
        p90: percentile(&m.lat, 0.9),
        p99: percentile(&m.lat, 0.99),
        max: m.lat.last().copied().unwrap_or_default(),
        failed: m.failures.values().sum(),
        failures: m.failures,
        finished: m.finished,
        server_cpu: ((t1 - t0) - (c1 - c0)) / secs,
        client_cpu: (c1 - c0) / secs,
        other_cpu: ((m.machine.1 - m.machine.0) - (t1 - t0)).max(0.0) / secs,
        load,
    };
    eprintln!(
        "{} actions in {secs:.1} s: {:.0} actions/s; latency p50 {:.2} ms, p99 {:.2} ms, max {:.2} ms; {} refused or failed; {} games finished",
        row.actions,
        row.actions as f64 / secs,
        ms(row.p50),
        ms(row.p99),
        ms(row.max),
        row.failed,
        row.finished
    );
    if let Some(t) = timer {
        println!(
            "\n{} games, think {} ms, {}: the server's spans and statements\n\n{}",
            games,
            think,
            row.backend,
            t.report()
        );
    }
    row
}

fn main() {
    let a = match args() {
        Ok(a) => a,
        Err(e) => {
            eprintln!("load: {e}");
            std::process::exit(2);
        }
    };
    let timer: Option<Arc<timing::Timer>> = a.spans.then(|| {
        let t = Arc::new(timing::Timer::default());
        tracing::subscriber::set_global_default(t.clone()).expect("the only subscriber");
        t
    });
    let mut rows = Vec::new();
    for db in &a.databases {
        for &think in &a.think {
            for &games in &a.games {
                let row = run(&a, db, games, think, timer.as_deref());
                println!("{HEADER}\n{}", row.markdown());
                rows.push(row);
            }
        }
    }
    if rows.len() > 1 {
        println!(
            "\nAll runs ({} s each, {}):\n\n{HEADER}",
            a.seconds, a.scenario
        );
        for r in &rows {
            println!("{}", r.markdown());
        }
    }
}
