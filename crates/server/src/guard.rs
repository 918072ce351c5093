//! What every request passes before a handler sees it, and what every reply carries
//! (`docs/api.md`, "Limits"; `docs/deploy.md`):
//!
//! - who the client is: the address it connects from, or with `trust_proxy` the last hop of
//!   `X-Forwarded-For` (the address the reverse proxy saw);
//! - every change (a POST under `/api/`) is JSON (`Content-Type: application/json`, else 415)
//!   and comes from the board's own site: not `Sec-Fetch-Site: cross-site`, and an `Origin`,
//!   when there is one, naming the request's own `Host` (or the public URL); else 403. A
//!   WebSocket upgrade passes the same origin check. Requests without `Origin` (curl, the
//!   command line) pass;
//! - per-client rate limits (token buckets per address, `governor`): new games (creating and
//!   branching) and changes (actions, undo, take-back), 429 with `Retry-After` beyond them;
//! - the security headers of every reply (a Content-Security-Policy the board works under,
//!   `nosniff`, no referrer, no framing, a Permissions-Policy).

use crate::error::ApiError;
use crate::net::{address_key, PerAddress, Place};
use crate::App;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::Method;
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota};
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::num::NonZeroU32;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

/// A rate: bursts of up to `burst` requests, then one more every `every`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rate {
    /// How many requests may come at once.
    pub burst: u32,
    /// How often one more is allowed after a burst.
    pub every: Duration,
}

impl Rate {
    /// Bursts of `burst`, then one every `every`.
    pub const fn new(burst: u32, every: Duration) -> Rate {
        Rate { burst, every }
    }

    fn quota(self) -> Quota {
        let burst = NonZeroU32::new(self.burst.max(1)).unwrap_or(NonZeroU32::MIN);
        Quota::with_period(self.every.max(Duration::from_millis(1)))
            .unwrap_or_else(|| Quota::per_second(NonZeroU32::MIN))
            .allow_burst(burst)
    }
}

/// How much the server gives one client and everyone together. The defaults are generous for
/// players at a board (a human makes a few actions a second at most; the computer's actions
/// and the dice are the server's own and cost nothing here) and tight for a script; tests set
/// small ones. `docs/api.md` ("Limits") and `docs/deploy.md` give the reasons.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Open connections, all clients together (1024); one more is closed at once.
    pub max_connections: usize,
    /// Open connections from one address (64; IPv6 addresses count by their /64); one more
    /// is closed at once. Not applied with `trust_proxy`, where every connection comes from
    /// the proxy.
    pub max_connections_per_address: usize,
    /// The time a client has to send a request's whole header (10 s), counted from its first
    /// byte (from the connection's opening for its first request); the connection is closed
    /// past it.
    pub header_timeout: Duration,
    /// How long a kept-alive connection may wait for its next request (60 s).
    pub idle_timeout: Duration,
    /// Open WebSockets (game windows) from one client (32); one more is 429.
    pub websockets_per_address: usize,
    /// How often a WebSocket is pinged (30 s); one that has not answered by the next ping, or
    /// that has not taken a message within this time, is closed.
    pub ws_ping: Duration,
    /// New games from one client, created or branched: bursts of 10, then one every 6 s
    /// (10 a minute).
    pub new_games: Rate,
    /// Changes from one client (actions, undo, take-back): bursts of 40, then one every
    /// 50 ms (20 a second).
    pub changes: Rate,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            max_connections: 1024,
            max_connections_per_address: 64,
            header_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(60),
            websockets_per_address: 32,
            ws_ping: Duration::from_secs(30),
            new_games: Rate::new(10, Duration::from_secs(6)),
            changes: Rate::new(40, Duration::from_millis(50)),
        }
    }
}

/// The client a request comes from, put in the request's extensions by [`guard`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Client {
    /// Its address: the peer's, or with `trust_proxy` the proxy's word for it.
    pub addr: IpAddr,
    /// This machine itself, connecting directly (a loopback address and no proxy in
    /// between): the owner's own board, scripts and tests, which no rate limit applies to.
    pub local: bool,
}

type Limiter = DefaultKeyedRateLimiter<IpAddr>;

/// The guard's state: the rate limiters, the WebSockets by address, and how to tell a
/// client and a same-origin request.
pub(crate) struct Guard {
    trust_proxy: bool,
    /// `(host, port)` of the public URL.
    public: Option<(String, u16)>,
    new_games: Arc<Limiter>,
    changes: Arc<Limiter>,
    websockets: Arc<PerAddress>,
    warned_proxy: AtomicBool,
}

/// What a limited request is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    NewGame,
    Change,
    Other,
}

impl Guard {
    /// The guard of a server with these limits.
    pub(crate) fn new(limits: &Limits, trust_proxy: bool, public_url: Option<&str>) -> Guard {
        Guard {
            trust_proxy,
            public: public_url.and_then(|u| {
                let uri: axum::http::Uri = u.parse().ok()?;
                origin_of(&uri)
            }),
            new_games: Arc::new(Limiter::keyed(limits.new_games.quota())),
            changes: Arc::new(Limiter::keyed(limits.changes.quota())),
            websockets: Arc::new(PerAddress::new(limits.websockets_per_address)),
            warned_proxy: AtomicBool::new(false),
        }
    }

    /// Forgets, now and then, the clients whose buckets are full again (bounded memory). The
    /// task ends with the server.
    pub(crate) fn sweep_every(app: &Arc<App>, period: Duration) {
        let weak = Arc::downgrade(app);
        tokio::spawn(async move {
            let mut tick = tokio::time::interval(period);
            tick.tick().await;
            loop {
                tick.tick().await;
                let Some(app) = weak.upgrade() else { break };
                for l in [&app.guard.new_games, &app.guard.changes] {
                    l.retain_recent();
                    l.shrink_to_fit();
                }
            }
        });
    }

    /// The client of a request: the connection's peer, or with `trust_proxy` the last hop of
    /// `X-Forwarded-For`.
    fn client(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> Client {
        let forwarded =
            headers.contains_key("x-forwarded-for") || headers.contains_key(header::FORWARDED);
        let Some(peer) = peer else {
            // a request handed to the router in-process (no connection): this machine
            return Client {
                addr: IpAddr::V4(Ipv4Addr::LOCALHOST),
                local: true,
            };
        };
        let peer_ip = peer.ip().to_canonical();
        if self.trust_proxy {
            if let Some(ip) = last_forwarded(headers) {
                return Client {
                    addr: ip,
                    local: ip.is_loopback(),
                };
            }
            return Client {
                addr: peer_ip,
                local: peer_ip.is_loopback(),
            };
        }
        if forwarded && peer_ip.is_loopback() && !self.warned_proxy.swap(true, Ordering::Relaxed) {
            tracing::warn!(
                "requests come through a proxy on this machine (X-Forwarded-For), but the \
                 server does not trust it: every client counts as the proxy's address; start \
                 it with --trust-proxy (docs/deploy.md)"
            );
        }
        Client {
            addr: peer_ip,
            // through a proxy, a loopback peer is not this machine's own user
            local: peer_ip.is_loopback() && !forwarded,
        }
    }

    /// Refuses a request another web site makes a browser send: `Sec-Fetch-Site:
    /// cross-site`, or an `Origin` that is not the request's own host (nor the public URL's).
    fn same_origin(&self, headers: &HeaderMap) -> Result<(), ApiError> {
        let refuse = |from: &str| {
            ApiError::forbidden(format!(
                "this request came from another web site ({from}): a game is changed or \
                 watched only from its own board"
            ))
        };
        if headers
            .get("sec-fetch-site")
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.trim().eq_ignore_ascii_case("cross-site"))
        {
            return Err(refuse("the browser says so"));
        }
        let Some(origin) = headers.get(header::ORIGIN) else {
            return Ok(());
        };
        let text = origin.to_str().unwrap_or("?");
        let Some(o) = text
            .parse::<axum::http::Uri>()
            .ok()
            .and_then(|u| origin_of(&u))
        else {
            return Err(refuse(text));
        };
        if self.public.as_ref() == Some(&o) {
            return Ok(());
        }
        let host = headers
            .get(header::HOST)
            .and_then(|h| h.to_str().ok())
            .and_then(|h| h.parse::<axum::http::uri::Authority>().ok());
        if let Some(h) = host {
            let same_host = h.host().eq_ignore_ascii_case(&o.0);
            let same_port = match h.port_u16() {
                Some(p) => p == o.1,
                // a Host without a port is the scheme's default one
                None => o.1 == 80 || o.1 == 443,
            };
            if same_host && same_port {
                return Ok(());
            }
        }
        Err(refuse(text))
    }

    /// Takes one token from the client's bucket, or says when to come back.
    fn take(&self, kind: Kind, client: Client) -> Result<(), Limited> {
        if client.local {
            return Ok(());
        }
        let (limiter, what) = match kind {
            Kind::NewGame => (&self.new_games, "new games"),
            Kind::Change => (&self.changes, "actions"),
            Kind::Other => return Ok(()),
        };
        match limiter.check_key(&address_key(client.addr)) {
            Ok(()) => Ok(()),
            Err(not_until) => {
                let wait = not_until.wait_time_from(DefaultClock::default().now());
                let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
                let secs = secs.max(1);
                let e = ApiError::rate_limited(format!(
                    "too many {what} from your address: try again in {secs} s"
                ));
                Err(Limited {
                    error: e,
                    retry_after: secs,
                })
            }
        }
    }

    /// A place for one more WebSocket of `client`, held as long as the socket is open; 429
    /// when its address has all its places taken.
    pub(crate) fn websocket(&self, client: Option<Client>) -> Result<Place, Limited> {
        let addr = client.map_or(IpAddr::V4(Ipv4Addr::LOCALHOST), |c| c.addr);
        self.websockets.take(addr).ok_or_else(|| {
            let e = ApiError::rate_limited(format!(
                "too many game windows are open from your address ({}): close one and try \
                 again",
                self.websockets.max()
            ));
            Limited {
                error: e,
                retry_after: 30,
            }
        })
    }
}

/// A 429: the error and the seconds to wait, answered with `Retry-After`.
#[derive(Debug)]
pub(crate) struct Limited {
    error: ApiError,
    retry_after: u64,
}

impl IntoResponse for Limited {
    fn into_response(self) -> Response {
        let mut r = self.error.into_response();
        if let Ok(v) = HeaderValue::from_str(&self.retry_after.to_string()) {
            r.headers_mut().insert(header::RETRY_AFTER, v);
        }
        r
    }
}

/// `(host, port)` of an `http(s)://host[:port]` URI (the port defaulted by the scheme).
fn origin_of(u: &axum::http::Uri) -> Option<(String, u16)> {
    let default = match u.scheme_str()? {
        s if s.eq_ignore_ascii_case("http") => 80,
        s if s.eq_ignore_ascii_case("https") => 443,
        _ => return None,
    };
    let a = u.authority()?;
    Some((
        a.host().to_ascii_lowercase(),
        a.port_u16().unwrap_or(default),
    ))
}

/// The last hop of the last `X-Forwarded-For` header: the address the proxy saw.
fn last_forwarded(headers: &HeaderMap) -> Option<IpAddr> {
    let last = headers.get_all("x-forwarded-for").iter().next_back()?;
    let hop = last.to_str().ok()?.rsplit(',').next()?.trim();
    if let Ok(ip) = hop.parse::<IpAddr>() {
        return Some(ip.to_canonical());
    }
    if let Ok(sa) = hop.parse::<SocketAddr>() {
        return Some(sa.ip().to_canonical());
    }
    hop.trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
        .ok()
        .map(|ip| ip.to_canonical())
}

fn kind_of(method: &Method, path: &str) -> Kind {
    if method != Method::POST {
        return Kind::Other;
    }
    if path == "/api/games" || (path.starts_with("/api/games/") && path.ends_with("/branch")) {
        return Kind::NewGame;
    }
    if path.starts_with("/api/games/")
        && ["/actions", "/undo", "/takeback"]
            .iter()
            .any(|e| path.ends_with(e))
    {
        return Kind::Change;
    }
    Kind::Other
}

fn is_json(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(v) = headers.get(header::CONTENT_TYPE) else {
        return Err(ApiError::unsupported_media_type(
            "send the body as JSON, with the header Content-Type: application/json (this \
             request had no Content-Type; an empty body needs it too)",
        ));
    };
    let text = v.to_str().unwrap_or("?");
    let essence = text.split(';').next().unwrap_or("").trim();
    if essence.eq_ignore_ascii_case("application/json") {
        return Ok(());
    }
    Err(ApiError::unsupported_media_type(format!(
        "send the body as JSON, with the header Content-Type: application/json (this request \
         said {text})"
    )))
}

/// The guard of every request (see the module's documentation): finds the client, refuses a
/// cross-site or non-JSON change and a client over its rate.
pub(crate) async fn guard(State(app): State<Arc<App>>, mut req: Request, next: Next) -> Response {
    let g = &app.guard;
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0);
    let client = g.client(peer, req.headers());
    req.extensions_mut().insert(client);
    let path = req.uri().path();
    if path.starts_with("/api/") {
        let method = req.method();
        let changes =
            !(method == Method::GET || method == Method::HEAD || method == Method::OPTIONS);
        let socket = method == Method::GET && path.ends_with("/ws");
        if changes || socket {
            if let Err(e) = g.same_origin(req.headers()) {
                return e.into_response();
            }
        }
        if method == Method::POST {
            if let Err(e) = is_json(req.headers()) {
                return e.into_response();
            }
        }
        if let Err(r) = g.take(kind_of(method, path), client) {
            return r.into_response();
        }
    }
    next.run(req).await
}

/// The Content-Security-Policy of the board: its own scripts (ES modules, no inline script,
/// no `eval`), its stylesheet and the `style` attributes it sets on counters and chips, the
/// SVG it draws in the page, a `data:` favicon, and connections to its own server (the API
/// and the WebSocket, written out as `ws:`/`wss:` for browsers whose `'self'` does not cover
/// them).
fn board_policy(host: Option<&str>) -> String {
    let sockets = host
        .filter(|h| {
            !h.is_empty()
                && h.bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b".-:[]".contains(&b))
        })
        .map(|h| format!(" ws://{h} wss://{h}"))
        .unwrap_or_default();
    format!(
        "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; \
         img-src 'self' data:; font-src 'self'; connect-src 'self'{sockets}; \
         object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// The policy of API replies: JSON is never a page that loads anything.
const API_POLICY: &str = "default-src 'none'; frame-ancestors 'none'; base-uri 'none'";

/// The security headers of every reply, the board's and the API's.
pub(crate) async fn security_headers(req: Request, next: Next) -> Response {
    let api = req.uri().path().starts_with("/api/");
    let policy = if api {
        API_POLICY.to_string()
    } else {
        board_policy(
            req.headers()
                .get(header::HOST)
                .and_then(|h| h.to_str().ok()),
        )
    };
    let mut res = next.run(req).await;
    let h = res.headers_mut();
    let mut set = |name: HeaderName, value: &str| {
        if let Ok(v) = HeaderValue::from_str(value) {
            h.insert(name, v);
        }
    };
    set(header::CONTENT_SECURITY_POLICY, &policy);
    set(header::X_CONTENT_TYPE_OPTIONS, "nosniff");
    set(header::REFERRER_POLICY, "no-referrer");
    set(header::X_FRAME_OPTIONS, "DENY");
    set(
        HeaderName::from_static("permissions-policy"),
        "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), \
         bluetooth=(), midi=(), display-capture=(), browsing-topics=()",
    );
    set(
        HeaderName::from_static("cross-origin-opener-policy"),
        "same-origin",
    );
    set(
        HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    );
    res
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (k, v) in pairs {
            h.append(*k, HeaderValue::from_str(v).unwrap());
        }
        h
    }

    #[test]
    fn origins_are_compared_by_host_and_port() {
        let g = Guard::new(&Limits::default(), false, Some("https://games.example.org"));
        let ok = |h: &[(&'static str, &str)]| g.same_origin(&headers(h)).is_ok();
        assert!(
            ok(&[("host", "127.0.0.1:8813")]),
            "no Origin: curl, the CLI"
        );
        assert!(ok(&[
            ("host", "127.0.0.1:8813"),
            ("origin", "http://127.0.0.1:8813")
        ]));
        assert!(ok(&[
            ("host", "[::1]:8813"),
            ("origin", "http://[::1]:8813")
        ]));
        assert!(ok(&[
            ("host", "games.example.org"),
            ("origin", "https://games.example.org")
        ]));
        // a proxy that hands on another Host: the public URL decides
        assert!(ok(&[
            ("host", "127.0.0.1:8813"),
            ("origin", "https://games.example.org")
        ]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8813"),
            ("origin", "http://127.0.0.1:9999")
        ]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8813"),
            ("origin", "http://evil.example")
        ]));
        assert!(!ok(&[("host", "127.0.0.1:8813"), ("origin", "null")]));
        assert!(!ok(&[
            ("host", "127.0.0.1:8813"),
            ("sec-fetch-site", "cross-site")
        ]));
    }

    #[test]
    fn the_proxy_is_believed_only_when_trusted() {
        let peer: SocketAddr = "127.0.0.1:5000".parse().unwrap();
        let h = headers(&[("x-forwarded-for", "10.1.1.1, 203.0.113.7")]);
        let trusting = Guard::new(&Limits::default(), true, None);
        let c = trusting.client(Some(peer), &h);
        assert_eq!(c.addr, "203.0.113.7".parse::<IpAddr>().unwrap());
        assert!(!c.local);
        let wary = Guard::new(&Limits::default(), false, None);
        let c = wary.client(Some(peer), &h);
        assert_eq!(c.addr, peer.ip());
        assert!(!c.local, "a forwarded request is not this machine's own");
        let c = wary.client(Some(peer), &HeaderMap::new());
        assert!(c.local);
    }

    #[test]
    fn limited_requests() {
        assert_eq!(kind_of(&Method::POST, "/api/games"), Kind::NewGame);
        assert_eq!(
            kind_of(&Method::POST, "/api/games/g_1/branch"),
            Kind::NewGame
        );
        assert_eq!(
            kind_of(&Method::POST, "/api/games/g_1/actions"),
            Kind::Change
        );
        assert_eq!(
            kind_of(&Method::POST, "/api/games/g_1/takeback"),
            Kind::Change
        );
        assert_eq!(
            kind_of(&Method::GET, "/api/games/g_1/takeback"),
            Kind::Other
        );
    }

    #[test]
    fn the_board_policy_names_its_own_sockets() {
        let p = board_policy(Some("127.0.0.1:8813"));
        assert!(p.contains("connect-src 'self' ws://127.0.0.1:8813 wss://127.0.0.1:8813;"));
        let p = board_policy(Some("evil; script-src *"));
        assert!(p.contains("connect-src 'self';"), "{p}");
    }
}
