//! The Grognard game server: the HTTP and WebSocket API of `docs/api.md` over the rules
//! engine, with seat tokens, the computer opponent, and persistence in SQLite or PostgreSQL.
//!
//! The server is authoritative: clients send action texts, the rules decide. It holds no rules
//! logic of its own and names no rules system: it reaches every game through
//! [`engine::dynamic::DynGame`] and every system (its scenarios, views, queries, computer
//! players and rules reference) through the [`systems::Library`] it is started with. Each
//! seat is sent only its own view (`Viewer`). Every accepted action (with the dice and the
//! computer's actions it triggers) is committed to the database before the reply; a game is
//! rebuilt by replaying its actions.
//!
//! ```no_run
//! # async fn run() -> Result<(), server::ServerError> {
//! let config = server::Config {
//!     port: 0,
//!     database: "sqlite:/tmp/games.sqlite".into(),
//!     ..server::Config::default()
//! };
//! let running = server::start(config, systems::Library::standard()).await?;
//! println!("http://{}/", running.addr());
//! running.wait().await;
//! # Ok(()) }
//! ```

#![warn(missing_docs)]

mod error;
pub mod games;
mod guard;
mod net;
mod routes;
pub mod store;
mod web;

pub use error::{ApiError, ServerError};
pub use guard::{Client, Limits, Rate};
pub use net::{check_public_url, lan_address, parse_listen};
pub use store::{default_database, Store};

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::Router;
use std::collections::HashMap;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;
use systems::Library;
use tower_http::catch_panic::CatchPanicLayer;
use tower_http::compression::CompressionLayer;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::trace::TraceLayer;

/// The largest request body accepted (64 KiB); larger ones get 413.
pub const BODY_LIMIT: usize = 64 * 1024;

/// The port `grognard play` tries first.
pub const DEFAULT_PORT: u16 = 8813;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// The address to listen on (127.0.0.1 by default: a game on this machine; `0.0.0.0` or
    /// `::` for every address of the machine, so that others on the network can play). With
    /// `port`, what `grognard serve --listen ADDR` sets (see [`parse_listen`]).
    pub host: IpAddr,
    /// The port; 0 for any free port.
    pub port: u16,
    /// When the port is taken, listen on any free port instead of failing.
    pub fallback_port: bool,
    /// `sqlite:PATH` or `postgres://...`.
    pub database: String,
    /// The most games kept in memory; the least recently used idle ones are evicted beyond
    /// it (they reload from the database on their next request).
    pub live_games: usize,
    /// How long a game no one touches stays in memory (it reloads from the database on its
    /// next request).
    pub idle: Duration,
    /// The address players reach the server at (`https://games.example.org`), for the links
    /// handed out: `http(s)://host[:port]` and no path (checked by [`check_public_url`] when
    /// the server starts). Without it, a server listening on every address uses its guess of
    /// this machine's address on the network ([`lan_address`]); one on loopback has none.
    pub public_url: Option<String>,
    /// Believe the last hop of `X-Forwarded-For` as the client's address (behind a reverse
    /// proxy that sets it; never on a server clients reach directly, who could write any).
    pub trust_proxy: bool,
    /// The connection caps, timeouts and rate limits ([`Limits`]).
    pub limits: Limits,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: IpAddr::V4(Ipv4Addr::LOCALHOST),
            port: DEFAULT_PORT,
            fallback_port: false,
            database: String::new(),
            live_games: games::DEFAULT_LIVE_GAMES,
            idle: games::DEFAULT_IDLE,
            public_url: None,
            trust_proxy: false,
            limits: Limits::default(),
        }
    }
}

/// What every handler shares.
pub struct App {
    games: games::Games,
    scenario_list: Arc<str>,
    maps: Mutex<HashMap<String, Arc<str>>>,
    public_url: Option<String>,
    limits: Limits,
    guard: guard::Guard,
}

impl App {
    /// Lists the library's shipped scenarios over a store, keeping at most `live_games` games
    /// in memory.
    pub fn new(store: Store, library: Library, live_games: usize) -> Result<App, ServerError> {
        let mut list = Vec::new();
        for s in library.scenarios() {
            let s = s.map_err(|(id, e)| ServerError::Data(format!("scenario {id}: {e}")))?;
            // the systems that can play it (its own first), each with its name: the start
            // screen's rules chooser
            let rules: Vec<serde_json::Value> = library
                .rules_for(&s)
                .into_iter()
                .map(|id| {
                    let name = library.system(id).map(|x| x.name()).unwrap_or(id);
                    serde_json::json!({"id": id, "name": name})
                })
                .collect();
            list.push(serde_json::json!({
                "id": s.id,
                "title": s.title,
                "system": s.system,
                "rules": rules,
                "first_turn": s.first_turn,
                "last_turn": s.last_turn,
                "sides": s.sides,
                "units": s.units,
                "description": s.description,
            }));
        }
        Ok(App {
            games: games::Games::new(store, library, live_games),
            scenario_list: Arc::from(serde_json::Value::Array(list).to_string()),
            maps: Mutex::new(HashMap::new()),
            public_url: None,
            guard: guard::Guard::new(&Limits::default(), false, None),
            limits: Limits::default(),
        })
    }

    /// With the public URL (already checked), the proxy's trust and the limits of a
    /// configuration.
    fn configured(mut self, public_url: Option<String>, trust_proxy: bool, limits: Limits) -> App {
        self.guard = guard::Guard::new(&limits, trust_proxy, public_url.as_deref());
        self.public_url = public_url;
        self.limits = limits;
        self
    }

    /// The address players reach the server at (`https://games.example.org`, no trailing
    /// `/`), for absolute links: the configured public URL, else the guess of this machine's
    /// address on the network when the server listens on every address; `None` for a server
    /// on loopback (links stay relative).
    pub fn public_url(&self) -> Option<&str> {
        self.public_url.as_deref()
    }

    /// The limits the server runs under.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The games.
    pub fn games(&self) -> &games::Games {
        &self.games
    }

    /// The library of rules systems and scenarios.
    pub fn library(&self) -> &Library {
        self.games.library()
    }

    /// The map view of a scenario (JSON), made once.
    fn map(&self, scenario: &str) -> Result<Arc<str>, ApiError> {
        if let Some(m) = self
            .maps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(scenario)
        {
            return Ok(m.clone());
        }
        let v = self
            .library()
            .map_view(scenario)
            .map_err(|e| ApiError::not_found(format!("this game's map: {e}")))?;
        let m: Arc<str> = Arc::from(v.to_string());
        self.maps
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .insert(scenario.to_string(), m.clone());
        Ok(m)
    }
}

/// Answers every error of the API as JSON: a bare error from a layer (413 from the body
/// limit, 405, a path that does not parse) becomes `{"error": {...}}`.
async fn json_errors(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let res = next.run(req).await;
    let status = res.status();
    let is_json = res
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if is_json || !(status.is_client_error() || status.is_server_error()) {
        return res;
    }
    if !api && status != StatusCode::PAYLOAD_TOO_LARGE {
        return res;
    }
    let e = match status {
        StatusCode::PAYLOAD_TOO_LARGE => {
            ApiError::too_large(format!("the body is over {} KiB", BODY_LIMIT / 1024))
        }
        StatusCode::NOT_FOUND => ApiError::not_found("no such resource"),
        StatusCode::METHOD_NOT_ALLOWED => ApiError {
            status,
            kind: "bad_request",
            case: None,
            why: "that method is not allowed here".into(),
        },
        s if s.is_client_error() => ApiError {
            status: s,
            kind: "bad_request",
            case: None,
            why: s.canonical_reason().unwrap_or("bad request").into(),
        },
        _ => ApiError::internal("the server failed"),
    };
    e.into_response()
}

fn panic_response(p: Box<dyn std::any::Any + Send + 'static>) -> Response {
    let what = p
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_default();
    ApiError::incident(
        "the server failed on this request",
        &format!("a request panicked: {what}"),
    )
    .into_response()
}

/// The router: every endpoint of `docs/api.md` and the board's static files.
pub fn router(app: Arc<App>) -> Router {
    Router::new()
        .route("/api/scenarios", get(routes::scenarios))
        .route("/api/rules", get(routes::rules))
        .route("/api/odds", get(routes::odds))
        .route("/api/tables", get(routes::tables))
        .route("/api/players", get(routes::players))
        .route("/api/games", post(routes::create))
        .route("/api/games/{id}", get(routes::state))
        .route("/api/games/{id}/map", get(routes::map))
        .route("/api/games/{id}/moves/{unit}", get(routes::moves))
        .route("/api/games/{id}/preview", get(routes::preview))
        .route("/api/games/{id}/record", get(routes::record))
        .route("/api/games/{id}/actions", post(routes::act))
        .route("/api/games/{id}/undo", post(routes::undo))
        .route("/api/games/{id}/finish", post(routes::finish))
        .route(
            "/api/games/{id}/takeback",
            get(routes::takeback_get).post(routes::takeback),
        )
        .route("/api/games/{id}/seat", get(routes::seat))
        .route("/api/games/{id}/branch", post(routes::branch))
        .route("/api/games/{id}/replay/{n}", get(routes::replay))
        .route("/api/games/{id}/ws", get(routes::ws))
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .fallback(web::serve)
        .with_state(app.clone())
        .layer(DefaultBodyLimit::max(BODY_LIMIT))
        .layer(RequestBodyLimitLayer::new(BODY_LIMIT))
        .layer(axum::middleware::from_fn(json_errors))
        .layer(axum::middleware::from_fn_with_state(app, guard::guard))
        .layer(CatchPanicLayer::custom(panic_response))
        // gzip or brotli as the client accepts, for bodies over 32 bytes (never a WebSocket
        // upgrade's empty one)
        .layer(CompressionLayer::new())
        .layer(axum::middleware::from_fn(guard::security_headers))
        .layer(TraceLayer::new_for_http())
}

async fn api_not_found() -> ApiError {
    ApiError::not_found("there is no such API endpoint (see docs/api.md)")
}

/// A running server.
pub struct Running {
    addr: SocketAddr,
    task: tokio::task::JoinHandle<std::io::Result<()>>,
    store: Store,
    public_url: Option<String>,
    app: Arc<App>,
}

impl Running {
    /// What the server's handlers share (its games, for instance).
    pub fn app(&self) -> &App {
        &self.app
    }

    /// The address it listens on.
    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// `http://ADDR/`.
    pub fn url(&self) -> String {
        format!("http://{}/", self.addr)
    }

    /// The address players reach the server at, as [`App::public_url`] has it (the public
    /// URL, or the guess of this machine's address on its network; no trailing `/`).
    pub fn public_url(&self) -> Option<&str> {
        self.public_url.as_deref()
    }

    /// The database backend (`sqlite` or `postgres`).
    pub fn backend(&self) -> &'static str {
        self.store.backend()
    }

    /// Serves until the server fails (it does not stop by itself).
    pub async fn wait(self) {
        match self.task.await {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::error!("the server stopped: {e}"),
            Err(e) => tracing::error!("the server task failed: {e}"),
        }
    }

    /// Stops listening and closes the database.
    pub async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
        self.store.close().await;
    }
}

/// Opens the database (creating it and its tables where needed), binds the listener and
/// starts serving the library's rules systems and scenarios in the background, under the
/// configuration's limits.
pub async fn start(config: Config, library: Library) -> Result<Running, ServerError> {
    let public_url = match &config.public_url {
        Some(u) => Some(check_public_url(u).map_err(ServerError::Config)?),
        None => None,
    };
    let url = if config.database.is_empty() {
        default_database()?
    } else {
        config.database.clone()
    };
    let store = Store::open(&url).await?;
    let listener = match tokio::net::TcpListener::bind((config.host, config.port)).await {
        Ok(l) => l,
        Err(e) if config.fallback_port && e.kind() == std::io::ErrorKind::AddrInUse => {
            tracing::info!("port {} is taken: using a free port", config.port);
            tokio::net::TcpListener::bind((config.host, 0))
                .await
                .map_err(|source| ServerError::Io {
                    what: format!("cannot listen on {}", config.host),
                    source,
                })?
        }
        Err(source) => {
            return Err(ServerError::Io {
                what: format!("cannot listen on {}:{}", config.host, config.port),
                source,
            })
        }
    };
    let addr = listener.local_addr().map_err(|source| ServerError::Io {
        what: "no local address".into(),
        source,
    })?;
    let public_url =
        public_url.or_else(|| lan_address(config.host).map(|ip| net::http_url(ip, addr.port())));
    let app = Arc::new(
        App::new(store.clone(), library, config.live_games)?.configured(
            public_url.clone(),
            config.trust_proxy,
            config.limits.clone(),
        ),
    );
    app.games().set_idle(config.idle);
    guard::Guard::sweep_every(&app, Duration::from_secs(60));
    let router = router(app.clone());
    let (limits, trust_proxy) = (config.limits, config.trust_proxy);
    let task = tokio::spawn(net::serve(listener, router, limits, trust_proxy));
    tracing::info!("serving on http://{addr}/ with {}", store.backend());
    Ok(Running {
        addr,
        task,
        store,
        public_url,
        app,
    })
}

#[cfg(test)]
mod tidy {
    /// Architecture invariant: the server names no rules crate and no system's own views; it
    /// reaches every system through `engine::dynamic` and `systems::Library`.
    #[test]
    fn the_server_names_no_rules_system() {
        let files = [
            ("lib.rs", include_str!("lib.rs")),
            ("games.rs", include_str!("games.rs")),
            ("routes.rs", include_str!("routes.rs")),
            ("store.rs", include_str!("store.rs")),
            ("error.rs", include_str!("error.rs")),
            ("web.rs", include_str!("web.rs")),
            ("guard.rs", include_str!("guard.rs")),
            ("net.rs", include_str!("net.rs")),
        ];
        let banned = [
            concat!("naw", "::"),
            concat!("ai", "::"),
            concat!("present::", "state_view"),
            concat!("present::", "moves_view"),
            concat!("present::", "odds_view"),
            concat!("present::", "units"),
            concat!("present::", "map_view"),
            concat!("present::", "side_name"),
        ];
        for (name, text) in files {
            for b in banned {
                assert!(!text.contains(b), "crates/server/src/{name} names {b}");
            }
        }
        let manifest = include_str!("../Cargo.toml");
        for dep in [concat!("naw", ".workspace"), concat!("ai", ".workspace")] {
            assert!(
                !manifest.contains(dep),
                "crates/server/Cargo.toml depends on {dep}"
            );
        }
    }
}
