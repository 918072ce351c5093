//! Shared helpers of the server's tests: the databases to test against, a server on a free
//! loopback port, and a small JSON client.

#![allow(dead_code)]

use serde_json::{json, Value};
use std::time::Duration;

/// A database to run a test against; the temporary directory lives as long as it.
pub struct Db {
    /// `sqlite` or `postgres`.
    pub name: &'static str,
    /// Its URL.
    pub url: String,
    _dir: Option<tempfile::TempDir>,
}

/// SQLite always (a new file), PostgreSQL when `GROGNARD_TEST_POSTGRES` names one.
pub fn databases() -> Vec<Db> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let url = format!("sqlite:{}", dir.path().join("games.sqlite").display());
    let mut v = vec![Db {
        name: "sqlite",
        url,
        _dir: Some(dir),
    }];
    match std::env::var("GROGNARD_TEST_POSTGRES") {
        Ok(u) if !u.is_empty() => v.push(Db {
            name: "postgres",
            url: u,
            _dir: None,
        }),
        _ => eprintln!(
            "note: GROGNARD_TEST_POSTGRES is not set: PostgreSQL is not tested (scripts/with-postgres sets it)"
        ),
    }
    v
}

/// Starts a server on 127.0.0.1 and a free port over `db`.
pub async fn start(db: &Db) -> server::Running {
    start_with(
        db,
        systems::Library::standard(),
        server::Config::default().live_games,
    )
    .await
}

/// Starts a server over `db` with a library of one's own, keeping at most `live_games` games
/// in memory.
pub async fn start_with(db: &Db, library: systems::Library, live_games: usize) -> server::Running {
    server::start(
        server::Config {
            port: 0,
            database: db.url.clone(),
            live_games,
            ..server::Config::default()
        },
        library,
    )
    .await
    .unwrap_or_else(|e| panic!("the server starts on {}: {e}", db.name))
}

/// A JSON client of one server.
#[derive(Clone)]
pub struct Api {
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    /// The HTTP client.
    pub http: reqwest::Client,
}

impl Api {
    /// A client of the server at `addr`.
    pub fn new(addr: std::net::SocketAddr) -> Api {
        Api {
            base: format!("http://{addr}"),
            http: reqwest::Client::builder()
                .timeout(Duration::from_secs(120))
                .build()
                .expect("a client"),
        }
    }

    async fn done(r: reqwest::Response) -> (u16, Value) {
        let status = r.status().as_u16();
        let text = r.text().await.expect("a body");
        let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, v)
    }

    /// GET a path.
    pub async fn get(&self, path: &str) -> (u16, Value) {
        let r = self
            .http
            .get(format!("{}{path}", self.base))
            .send()
            .await
            .expect("the request is answered");
        Api::done(r).await
    }

    /// POST JSON to a path, with a seat token when given.
    pub async fn post(&self, path: &str, token: Option<&str>, body: Value) -> (u16, Value) {
        self.post_raw(path, token, body.to_string()).await
    }

    /// POST raw text to a path.
    pub async fn post_raw(&self, path: &str, token: Option<&str>, body: String) -> (u16, Value) {
        let mut rq = self
            .http
            .post(format!("{}{path}", self.base))
            .header("content-type", "application/json")
            .body(body);
        if let Some(t) = token {
            rq = rq.bearer_auth(t);
        }
        Api::done(rq.send().await.expect("the request is answered")).await
    }

    /// A GET with a bearer token.
    pub async fn done_get(&self, path: &str, token: Option<&str>) -> (u16, Value) {
        let mut rq = self.http.get(format!("{}{path}", self.base));
        if let Some(t) = token {
            rq = rq.bearer_auth(t);
        }
        Api::done(rq.send().await.expect("the request is answered")).await
    }

    /// Creates a game: returns its id and the answer.
    pub async fn create(&self, body: Value) -> (String, Value) {
        let (s, v) = self.post("/api/games", None, body.clone()).await;
        assert_eq!(s, 201, "creating {body}: {v}");
        (v["id"].as_str().expect("an id").to_string(), v)
    }

    /// A hot-seat First Day with seed 7: its id and token.
    pub async fn hotseat(&self) -> (String, String) {
        let (id, v) = self
            .create(json!({"scenario": "bon-first-day", "seed": 7, "mode": "hotseat"}))
            .await;
        let t = v["seats"]["both"].as_str().expect("a token").to_string();
        (id, t)
    }

    /// Takes an action: the answer.
    pub async fn act(&self, id: &str, token: &str, action: &str) -> (u16, Value) {
        self.post(
            &format!("/api/games/{id}/actions"),
            Some(token),
            json!({ "action": action }),
        )
        .await
    }

    /// Takes an action that must be accepted: the change it made (`docs/api.md`).
    pub async fn ok(&self, id: &str, token: &str, action: &str) -> Value {
        let (s, v) = self.act(id, token, action).await;
        assert_eq!(s, 200, "{action}: {v}");
        v["change"].clone()
    }

    /// The state of a game.
    pub async fn state(&self, id: &str) -> Value {
        let (s, v) = self.get(&format!("/api/games/{id}")).await;
        assert_eq!(s, 200, "{v}");
        v
    }
}

/// Asserts an error answer: status, kind and (when given) case.
pub fn assert_error(answer: &(u16, Value), status: u16, kind: &str, case: Option<&str>) {
    let (s, v) = answer;
    assert_eq!(*s, status, "{v}");
    assert_eq!(v["error"]["status"], status, "{v}");
    assert_eq!(v["error"]["kind"], kind, "{v}");
    assert!(
        v["error"]["why"].as_str().is_some_and(|w| !w.is_empty()),
        "{v}"
    );
    if let Some(c) = case {
        assert_eq!(v["error"]["case"], c, "{v}");
    }
}

/// The seeded plan every random game of the tests follows: picks legal action `k` of `n`.
pub fn pick(seed: &mut u64, n: usize) -> usize {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    (*seed % n as u64) as usize
}

/// Plays up to `steps` random legal actions in a hot-seat game (each reply's change lists the
/// legal actions that follow); returns the whole state view at the end.
pub async fn play_random(api: &Api, id: &str, token: &str, steps: usize, seed: u64) -> Value {
    let mut seed = seed.max(1);
    let mut state = api.state(id).await;
    for _ in 0..steps {
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        if legal.is_empty() || state["to_act"] == "over" {
            break;
        }
        // favour ending phases now and then so games move on
        let k = pick(&mut seed, legal.len());
        let a = legal[k].as_str().unwrap().to_string();
        let n = state["actions_recorded"].as_u64().unwrap();
        let (s, v) = api
            .post(
                &format!("/api/games/{id}/actions"),
                Some(token),
                json!({"action": a, "expect": n, "legal": true}),
            )
            .await;
        assert_eq!(s, 200, "{a}: {v}");
        state = v["change"].clone();
    }
    api.state(id).await
}

/// Verifies a game record (JSON) by replaying it with the rules: every die and state hash.
pub fn verify_record(record: &Value) -> usize {
    let r: engine::Record = serde_json::from_value(record.clone()).expect("a record");
    let n = r.actions.len();
    systems::Library::standard()
        .resume(r)
        .expect("the record replays");
    n
}
