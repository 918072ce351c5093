//! Online play strangers can trust (issue 11): what a client that is not a player at a board
//! (a slow or silent one, another web site, a script) cannot make the server do, and what
//! every reply carries. Each test says what it guards; each fails without that guard. Over a
//! real listener on loopback and a temporary SQLite database; no timing is asserted (a test
//! waits for what must happen with a generous timeout).

mod common;

use common::{databases, Db};
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use std::net::SocketAddr;
use std::time::Duration;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite;
use tungstenite::client::IntoClientRequest;

/// Longer than anything here should take: what must happen has happened by then.
const GENEROUS: Duration = Duration::from_secs(60);

/// A server over `db` with the configuration `f` makes of the tests' default one.
async fn start(db: &Db, f: impl FnOnce(&mut server::Config)) -> server::Running {
    let mut config = server::Config {
        port: 0,
        database: db.url.clone(),
        ..server::Config::default()
    };
    f(&mut config);
    server::start(config, systems::Library::standard())
        .await
        .expect("the server starts")
}

fn client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(120))
        .build()
        .expect("a client")
}

/// A POST with the given headers and body: status, headers and the body as JSON.
async fn post(
    addr: SocketAddr,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (u16, reqwest::header::HeaderMap, Value) {
    let mut rq = client()
        .post(format!("http://{addr}{path}"))
        .body(body.to_string());
    for (k, v) in headers {
        rq = rq.header(*k, *v);
    }
    let r = rq.send().await.expect("an answer");
    let status = r.status().as_u16();
    let h = r.headers().clone();
    let text = r.text().await.expect("a body");
    let v = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, h, v)
}

const JSON: (&str, &str) = ("content-type", "application/json");
const NEW_GAME: &str = r#"{"scenario": "bon-first-day", "seed": 7, "mode": "hotseat"}"#;

/// Creates a hot-seat game: its id and token.
async fn new_game(addr: SocketAddr, headers: &[(&str, &str)]) -> (String, String) {
    let (s, _, v) = post(addr, "/api/games", headers, NEW_GAME).await;
    assert_eq!(s, 201, "{v}");
    (
        v["id"].as_str().unwrap().to_string(),
        v["seats"]["both"].as_str().unwrap().to_string(),
    )
}

fn assert_error(answer: &(u16, reqwest::header::HeaderMap, Value), status: u16, kind: &str) {
    let (s, _, v) = answer;
    assert_eq!(*s, status, "{v}");
    assert_eq!(v["error"]["status"], status, "{v}");
    assert_eq!(v["error"]["kind"], kind, "{v}");
    assert!(
        v["error"]["why"].as_str().is_some_and(|w| w.len() > 10),
        "{v}"
    );
}

/// A TCP connection to `addr` from another loopback address (Linux routes all of 127/8 to
/// this machine), so that it counts as another client.
async fn connect_from(from: &str, addr: SocketAddr) -> TcpStream {
    let s = TcpSocket::new_v4().expect("a socket");
    s.bind(format!("{from}:0").parse().unwrap())
        .expect("bind a loopback address");
    s.connect(addr).await.expect("connect")
}

/// Reads until the server closes the connection (end of stream or reset); false if it has
/// not within [`GENEROUS`].
async fn closed_by_server(r: &mut (impl AsyncReadExt + Unpin)) -> bool {
    let mut buf = [0u8; 4096];
    tokio::time::timeout(GENEROUS, async {
        loop {
            match r.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// Guards the connection caps and the header timeout (slowloris): one address opening
/// many connections and trickling a header byte by byte holds at most its share of the
/// server (the ones over its cap are closed at once) and loses even those after the header
/// timeout, while a player from another address is answered. Without the guards every slow
/// connection stays open for as long as its client likes (and with only an overall cap, the
/// slow client would take every place and the player's connection would be closed).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_slow_client_cannot_starve_a_player() {
    let db = &databases()[0];
    let srv = start(db, |c| {
        c.limits.max_connections = 6;
        c.limits.max_connections_per_address = 3;
        c.limits.header_timeout = Duration::from_secs(2);
        c.limits.idle_timeout = Duration::from_secs(2);
    })
    .await;
    let addr = srv.addr();
    let mut readers = Vec::new();
    let mut trickles = Vec::new();
    for _ in 0..8 {
        let s = connect_from("127.0.0.2", addr).await;
        let (r, mut w) = s.into_split();
        readers.push(r);
        trickles.push(tokio::spawn(async move {
            if w.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\nX-Slow: ")
                .await
                .is_err()
            {
                return;
            }
            // a byte every 100 ms, never the end of the header (bounded: two minutes, longer
            // than the test waits for the server to cut it)
            for _ in 0..1200 {
                tokio::time::sleep(Duration::from_millis(100)).await;
                if w.write_all(b"a").await.is_err() {
                    return;
                }
            }
        }));
    }
    // a player from 127.0.0.1 is answered while the slow client holds its places
    let r = client()
        .get(format!("http://{addr}/api/scenarios"))
        .send()
        .await
        .expect("the player is answered");
    assert_eq!(r.status(), 200);
    // every slow connection is closed: over the cap at once, the others at the header timeout
    for (i, r) in readers.iter_mut().enumerate() {
        assert!(
            closed_by_server(r).await,
            "slow connection {i} is still open"
        );
    }
    for t in trickles {
        t.abort();
    }
    srv.stop().await;
}

/// Guards the keep-alive idle timeout: a connection that has had its answer and then sends
/// nothing is closed (without it, it holds its place for as long as the client likes).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_connection_is_closed() {
    let db = &databases()[0];
    let srv = start(db, |c| {
        c.limits.idle_timeout = Duration::from_secs(1);
    })
    .await;
    let mut s = TcpStream::connect(srv.addr()).await.unwrap();
    s.write_all(b"GET /api/scenarios HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut got = Vec::new();
    let mut buf = [0u8; 8192];
    while !String::from_utf8_lossy(&got).contains("\r\n\r\n") {
        let n = s.read(&mut buf).await.unwrap();
        assert!(n > 0, "an answer before the end");
        got.extend_from_slice(&buf[..n]);
    }
    assert!(got.starts_with(b"HTTP/1.1 200"));
    assert!(
        closed_by_server(&mut s).await,
        "the idle connection stays open"
    );
    srv.stop().await;
}

/// Guards against cross-site requests (CSRF): a page on another site can make a browser send
/// a `text/plain` POST without asking (no CORS preflight), or a JSON one carrying its own
/// `Origin`; both are refused, and so is a WebSocket opened from another site. The board's
/// own requests (JSON, same origin) and those without `Origin` (curl, the CLI) pass.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_come_only_from_the_board_itself() {
    let db = &databases()[0];
    let srv = start(db, |_| {}).await;
    let addr = srv.addr();
    let own = format!("http://{addr}");

    // a form-like post: 415, nothing created
    let a = post(
        addr,
        "/api/games",
        &[("content-type", "text/plain")],
        NEW_GAME,
    )
    .await;
    assert_error(&a, 415, "unsupported_media_type");
    assert!(a.2["error"]["why"]
        .as_str()
        .unwrap()
        .contains("Content-Type: application/json"));
    assert_error(
        &post(addr, "/api/games", &[], NEW_GAME).await,
        415,
        "unsupported_media_type",
    );
    // JSON from another site
    assert_error(
        &post(
            addr,
            "/api/games",
            &[JSON, ("origin", "http://evil.example")],
            NEW_GAME,
        )
        .await,
        403,
        "forbidden",
    );
    assert_error(
        &post(
            addr,
            "/api/games",
            &[
                JSON,
                ("origin", &format!("http://127.0.0.1:{}", addr.port() + 1)),
            ],
            NEW_GAME,
        )
        .await,
        403,
        "forbidden",
    );
    assert_error(
        &post(
            addr,
            "/api/games",
            &[JSON, ("sec-fetch-site", "cross-site")],
            NEW_GAME,
        )
        .await,
        403,
        "forbidden",
    );
    // the board's own request, and a script's
    let (id, token) = new_game(addr, &[JSON, ("origin", &own)]).await;
    new_game(addr, &[JSON, ("sec-fetch-site", "same-origin")]).await;
    new_game(addr, &[JSON]).await;
    // an action or a take-back is a change like any other
    let bearer = format!("Bearer {token}");
    assert_error(
        &post(
            addr,
            &format!("/api/games/{id}/undo"),
            &[("authorization", &bearer)],
            "",
        )
        .await,
        415,
        "unsupported_media_type",
    );
    assert_error(
        &post(
            addr,
            &format!("/api/games/{id}/actions"),
            &[
                JSON,
                ("authorization", &bearer),
                ("origin", "https://evil.example"),
            ],
            r#"{"action": "end"}"#,
        )
        .await,
        403,
        "forbidden",
    );
    let (s, _, v) = post(
        addr,
        &format!("/api/games/{id}/actions"),
        &[JSON, ("authorization", &bearer), ("origin", &own)],
        r#"{"action": "end"}"#,
    )
    .await;
    assert_eq!(s, 200, "{v}");

    // a WebSocket from another site is refused before the upgrade; from the board it opens
    let url = format!("ws://{addr}/api/games/{id}/ws");
    let mut rq = url.clone().into_client_request().unwrap();
    rq.headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    match tokio_tungstenite::connect_async(rq).await {
        Err(tungstenite::Error::Http(r)) => assert_eq!(r.status(), 403),
        Err(e) => panic!("refused with 403, not {e}"),
        Ok(_) => panic!("a WebSocket from another site is opened"),
    }
    let mut rq = url.into_client_request().unwrap();
    rq.headers_mut().insert("origin", own.parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(rq)
        .await
        .expect("the board's WebSocket opens");
    let first = tokio::time::timeout(GENEROUS, ws.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(first.to_text().unwrap().contains("\"type\":\"state\""));
    srv.stop().await;
}

/// Guards the per-client rate limits: a script creating games or sending actions as fast as
/// it can is told to slow down (429, `Retry-After`, words that say what and when) while
/// another client goes on; `X-Forwarded-For` names the client only when the server trusts its
/// proxy (else anyone could be anyone). The owner's own requests on this machine are free.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_script_is_slowed_down_and_told_when_to_come_back() {
    let db = &databases()[0];
    let srv = start(db, |c| {
        c.trust_proxy = true;
        c.limits.new_games = server::Rate::new(2, Duration::from_secs(3600));
        c.limits.changes = server::Rate::new(3, Duration::from_secs(3600));
    })
    .await;
    let addr = srv.addr();
    let a = [JSON, ("x-forwarded-for", "198.51.100.1, 203.0.113.7")];
    let b = [JSON, ("x-forwarded-for", "203.0.113.8")];
    let (id, token) = new_game(addr, &a).await;
    new_game(addr, &a).await;
    let third = post(addr, "/api/games", &a, NEW_GAME).await;
    assert_error(&third, 429, "rate_limited");
    let why = third.2["error"]["why"].as_str().unwrap();
    assert!(
        why.contains("too many new games") && why.contains("try again in"),
        "{why}"
    );
    let after: u64 = third.1["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .expect("Retry-After in seconds");
    assert!(after >= 1, "{after}");
    // another client is not held back
    new_game(addr, &b).await;
    // nor is this machine's own user (no proxy in between)
    for _ in 0..3 {
        new_game(addr, &[JSON]).await;
    }
    // actions: three, then 429 (a refused action costs its token too)
    let bearer = format!("Bearer {token}");
    let act = [a[0], a[1], ("authorization", bearer.as_str())];
    for _ in 0..3 {
        let (s, _, v) = post(
            addr,
            &format!("/api/games/{id}/actions"),
            &act,
            r#"{"action": "no such action"}"#,
        )
        .await;
        assert_eq!(s, 400, "{v}");
    }
    let fourth = post(
        addr,
        &format!("/api/games/{id}/actions"),
        &act,
        r#"{"action": "end"}"#,
    )
    .await;
    assert_error(&fourth, 429, "rate_limited");
    assert!(fourth.2["error"]["why"]
        .as_str()
        .unwrap()
        .contains("too many actions"));
    assert!(fourth.1.contains_key("retry-after"));
    srv.stop().await;

    // without trust_proxy the header is the client's own word: ignored
    let db = &databases()[0];
    let srv = start(db, |c| {
        c.limits.new_games = server::Rate::new(2, Duration::from_secs(3600));
    })
    .await;
    let addr = srv.addr();
    for who in ["203.0.113.1", "203.0.113.2"] {
        new_game(addr, &[JSON, ("x-forwarded-for", who)]).await;
    }
    assert_error(
        &post(
            addr,
            "/api/games",
            &[JSON, ("x-forwarded-for", "203.0.113.3")],
            NEW_GAME,
        )
        .await,
        429,
        "rate_limited",
    );
    srv.stop().await;
}

/// Guards the security headers: the board and the API's replies forbid framing (clickjacking),
/// sniffing, referrers (seat tokens are in the URL's fragment) and set a policy that lets the
/// board load only its own scripts and talk only to its own server.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_reply_carries_the_security_headers() {
    let db = &databases()[0];
    let srv = start(db, |_| {}).await;
    let addr = srv.addr();
    for path in [
        "/",
        "/app.js",
        "/api/scenarios",
        "/api/no-such-thing",
        "/nothing",
    ] {
        let r = client()
            .get(format!("http://{addr}{path}"))
            .send()
            .await
            .unwrap();
        let h = r.headers();
        let get = |k: &str| {
            h.get(k)
                .unwrap_or_else(|| panic!("{path}: no {k}"))
                .to_str()
                .unwrap()
                .to_string()
        };
        let csp = get("content-security-policy");
        assert!(csp.contains("frame-ancestors 'none'"), "{path}: {csp}");
        assert_eq!(get("x-content-type-options"), "nosniff");
        assert_eq!(get("referrer-policy"), "no-referrer");
        assert_eq!(get("x-frame-options"), "DENY");
        assert!(get("permissions-policy").contains("camera=()"));
        if !path.starts_with("/api/") {
            assert!(csp.contains("script-src 'self';"), "{csp}");
            assert!(!csp.contains("unsafe-eval"), "{csp}");
            assert!(
                csp.contains(&format!("connect-src 'self' ws://{addr} wss://{addr};")),
                "{csp}"
            );
        } else {
            assert!(csp.contains("default-src 'none'"), "{csp}");
        }
    }
    srv.stop().await;
}

fn gunzip(bytes: &[u8]) -> String {
    use std::io::Read;
    let mut s = String::new();
    flate2::read::GzDecoder::new(bytes)
        .read_to_string(&mut s)
        .expect("gzip");
    s
}

/// Guards compression: the state view (tens of KiB of JSON) and the board's files go out
/// gzip- or brotli-compressed when the client accepts it, and a WebSocket still opens when
/// the browser says it accepts gzip.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn replies_are_compressed_when_asked() {
    let db = &databases()[0];
    let srv = start(db, |_| {}).await;
    let addr = srv.addr();
    let (id, _) = new_game(addr, &[JSON]).await;
    let get = |path: String, enc: Option<&'static str>| async move {
        let mut rq = client().get(format!("http://{addr}{path}"));
        if let Some(e) = enc {
            rq = rq.header("accept-encoding", e);
        }
        let r = rq.send().await.unwrap();
        assert_eq!(r.status(), 200);
        let e = r
            .headers()
            .get("content-encoding")
            .map(|v| v.to_str().unwrap().to_string());
        (e, r.bytes().await.unwrap().to_vec())
    };
    let (e, body) = get(format!("/api/games/{id}"), Some("gzip")).await;
    assert_eq!(e.as_deref(), Some("gzip"));
    let state: Value = serde_json::from_str(&gunzip(&body)).expect("JSON");
    assert_eq!(state["id"], json!(id));
    let (plain_e, plain) = get(format!("/api/games/{id}"), None).await;
    assert_eq!(plain_e, None);
    assert!(
        body.len() * 2 < plain.len(),
        "{} vs {}",
        body.len(),
        plain.len()
    );
    let (e, body) = get("/app.js".into(), Some("gzip")).await;
    assert_eq!(e.as_deref(), Some("gzip"));
    assert!(gunzip(&body).contains("import"));
    let (e, _) = get("/api/scenarios".into(), Some("br")).await;
    assert_eq!(e.as_deref(), Some("br"));

    let mut rq = format!("ws://{addr}/api/games/{id}/ws")
        .into_client_request()
        .unwrap();
    rq.headers_mut()
        .insert("accept-encoding", "gzip, deflate, br".parse().unwrap());
    let (mut ws, _) = tokio_tungstenite::connect_async(rq)
        .await
        .expect("the WebSocket opens");
    let first = tokio::time::timeout(GENEROUS, ws.next())
        .await
        .unwrap()
        .unwrap()
        .unwrap();
    assert!(first.to_text().unwrap().contains("\"type\":\"state\""));
    srv.stop().await;
}

/// Guards the words of a 500: when the database fails (here another connection holds its
/// write lock, so the server's write times out with SQLite's "database is locked"), the
/// player reads what failed in plain words, that nothing changed, and an error number to give
/// the operator; never the database's own message. Once the lock is gone, all is well.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failing_database_is_told_in_a_players_words() {
    use sqlx::Connection;
    let db = &databases()[0];
    let srv = start(db, |_| {}).await;
    let addr = srv.addr();
    let mut lock = sqlx::SqliteConnection::connect(&db.url)
        .await
        .expect("a connection of our own");
    sqlx::query("BEGIN EXCLUSIVE")
        .execute(&mut lock)
        .await
        .expect("the write lock");
    // the server waits for the lock (its busy timeout) and gives up
    let (s, _, v) = post(addr, "/api/games", &[JSON], NEW_GAME).await;
    assert_eq!(s, 500, "{v}");
    assert_eq!(v["error"]["kind"], "internal", "{v}");
    let why = v["error"]["why"].as_str().unwrap().to_string();
    let lower = why.to_lowercase();
    for raw in [
        "locked", "sqlite", "sqlx", "code:", "pool", "returned", "(code",
    ] {
        assert!(!lower.contains(raw), "'{raw}' in: {why}");
    }
    assert!(lower.contains("busy"), "{why}");
    assert!(lower.contains("nothing was changed"), "{why}");
    assert!(lower.contains("try again"), "{why}");
    assert!(
        why.split_whitespace()
            .any(|w| w.trim_end_matches(')').len() == 8
                && w.trim_end_matches(')')
                    .chars()
                    .all(|c| c.is_ascii_hexdigit())),
        "an error number: {why}"
    );
    sqlx::query("ROLLBACK").execute(&mut lock).await.unwrap();
    lock.close().await.unwrap();
    new_game(addr, &[JSON]).await;
    srv.stop().await;
}

/// Opens a WebSocket with a bare handshake over TCP, answering nothing after it (no pongs).
async fn silent_socket(addr: SocketAddr, id: &str) -> TcpStream {
    let mut s = TcpStream::connect(addr).await.unwrap();
    let rq = format!(
        "GET /api/games/{id}/ws HTTP/1.1\r\nHost: {addr}\r\nUpgrade: websocket\r\n\
         Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\
         Sec-WebSocket-Version: 13\r\n\r\n"
    );
    s.write_all(rq.as_bytes()).await.unwrap();
    let mut got = Vec::new();
    let mut b = [0u8; 1];
    while !got.ends_with(b"\r\n\r\n") {
        assert_eq!(s.read(&mut b).await.unwrap(), 1, "the handshake's answer");
        got.push(b[0]);
    }
    assert!(
        got.starts_with(b"HTTP/1.1 101"),
        "{}",
        String::from_utf8_lossy(&got)
    );
    s
}

/// Guards what a WebSocket may cost: one client opens only so many (429 past them), a socket
/// that stops answering pings is closed, and a closed socket gives its place back (its task
/// and everything it holds are gone). Without the cap a client opens sockets without end;
/// without the pings a vanished client's socket is kept for ever.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn websockets_are_capped_pinged_and_freed() {
    let db = &databases()[0];
    let srv = start(db, |c| {
        c.limits.websockets_per_address = 2;
        c.limits.ws_ping = Duration::from_millis(300);
    })
    .await;
    let addr = srv.addr();
    let (id, _) = new_game(addr, &[JSON]).await;
    let url = format!("ws://{addr}/api/games/{id}/ws");
    // a socket that answers nothing is closed after its first unanswered ping
    let mut silent = silent_socket(addr, &id).await;
    assert!(
        closed_by_server(&mut silent).await,
        "a socket that answers no ping stays open"
    );
    drop(silent);
    // two sockets that answer their pings (the client library does) stay open
    let mut open = Vec::new();
    for _ in 0..2 {
        let url = url.clone();
        let opened = tokio::time::timeout(GENEROUS, async move {
            loop {
                match tokio_tungstenite::connect_async(url.as_str()).await {
                    Ok((ws, _)) => return ws,
                    // the silent socket's place may not be given back yet
                    Err(tungstenite::Error::Http(r)) if r.status() == 429 => {
                        tokio::time::sleep(Duration::from_millis(50)).await
                    }
                    Err(e) => panic!("{e}"),
                }
            }
        })
        .await
        .expect("a place");
        open.push(opened);
    }
    match tokio_tungstenite::connect_async(url.as_str()).await {
        Err(tungstenite::Error::Http(r)) => {
            assert_eq!(r.status(), 429);
            let body = String::from_utf8_lossy(r.body().as_deref().unwrap_or_default());
            assert!(body.contains("rate_limited"), "{body}");
        }
        Err(e) => panic!("refused with 429, not {e}"),
        Ok(_) => panic!("a third socket opened over the cap of two"),
    }
    // the open ones live through several pings
    let mut first = open.remove(0);
    let mut messages = 0;
    let mut pings = 0;
    while pings < 3 {
        match tokio::time::timeout(GENEROUS, first.next()).await {
            Ok(Some(Ok(tungstenite::Message::Ping(_)))) => pings += 1,
            Ok(Some(Ok(_))) => messages += 1,
            other => panic!("the answering socket is closed: {other:?}"),
        }
    }
    assert!(messages >= 1, "the state first");
    // one closes: its place comes back
    first.send(tungstenite::Message::Close(None)).await.unwrap();
    drop(first);
    let again = tokio::time::timeout(GENEROUS, async {
        loop {
            match tokio_tungstenite::connect_async(url.as_str()).await {
                Ok((ws, _)) => return ws,
                Err(tungstenite::Error::Http(r)) if r.status() == 429 => {
                    tokio::time::sleep(Duration::from_millis(50)).await
                }
                Err(e) => panic!("{e}"),
            }
        }
    })
    .await
    .expect("a closed socket gives its place back");
    drop(again);
    srv.stop().await;
}

/// Guards the public URL: one that is not the root of an http(s) site is refused at start,
/// a good one is what the server hands out, and the board served at it may change games
/// although the proxy in front hands the server another `Host`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_public_url_is_checked_and_trusted() {
    let db = &databases()[0];
    for bad in ["games.example.org", "https://games.example.org/grognard"] {
        let r = server::start(
            server::Config {
                port: 0,
                database: db.url.clone(),
                public_url: Some(bad.into()),
                ..server::Config::default()
            },
            systems::Library::standard(),
        )
        .await;
        assert!(
            matches!(r, Err(server::ServerError::Config(_))),
            "{bad} is accepted"
        );
    }
    let srv = start(db, |c| {
        c.public_url = Some("https://Games.Example.org/".into());
    })
    .await;
    assert_eq!(srv.public_url(), Some("https://games.example.org"));
    new_game(srv.addr(), &[JSON, ("origin", "https://games.example.org")]).await;
    srv.stop().await;
    // a server on loopback hands out no address of its own
    let srv = start(db, |_| {}).await;
    assert_eq!(srv.public_url(), None);
    srv.stop().await;
}
