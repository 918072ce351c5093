//! The server's own accept loop over hyper: connection caps (all clients together, and per
//! address), the time a client has to send a request's header and a kept-alive connection to
//! send its next one, the client's address for the guard (`ConnectInfo`), and WebSocket
//! upgrades. Also what the command line needs to listen: parsing `--listen`, checking
//! `--public-url`, and guessing the address a friend on the network would use.

use crate::guard::Limits;
use axum::extract::ConnectInfo;
use axum::Router;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::TokioIo;
use std::collections::HashMap;
use std::future::Future;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, UdpSocket};
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tower::ServiceExt;

/// The key an address is counted under: an IPv4 address itself, an IPv6 address by its /64
/// (one household or machine has a whole /64 to pick addresses from).
pub(crate) fn address_key(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let s = v6.segments();
            IpAddr::V6(Ipv6Addr::new(s[0], s[1], s[2], s[3], 0, 0, 0, 0))
        }
        v4 => v4,
    }
}

/// Counts what each address holds open (connections, WebSockets), up to a cap per address.
/// An address holding nothing is forgotten: the map is as large as the addresses connected.
pub(crate) struct PerAddress {
    max: usize,
    counts: Mutex<HashMap<IpAddr, usize>>,
}

/// One place held by an address, given back when dropped.
pub(crate) struct Place {
    owner: Arc<PerAddress>,
    key: IpAddr,
}

impl PerAddress {
    pub(crate) fn new(max: usize) -> PerAddress {
        PerAddress {
            max,
            counts: Mutex::new(HashMap::new()),
        }
    }

    /// The most places one address may hold.
    pub(crate) fn max(&self) -> usize {
        self.max
    }

    /// A place for `ip`, or `None` when its address holds its `max` already.
    pub(crate) fn take(self: &Arc<Self>, ip: IpAddr) -> Option<Place> {
        let key = address_key(ip);
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        let n = counts.entry(key).or_insert(0);
        if *n >= self.max {
            return None;
        }
        *n += 1;
        Some(Place {
            owner: self.clone(),
            key,
        })
    }
}

impl Drop for Place {
    fn drop(&mut self) {
        let mut counts = self.owner.counts.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(n) = counts.get_mut(&self.key) {
            *n = n.saturating_sub(1);
            if *n == 0 {
                counts.remove(&self.key);
            }
        }
    }
}

/// What a connection has done, for its header timer: bytes read, requests begun.
#[derive(Default)]
struct Activity {
    read: AtomicU64,
    requests: AtomicU64,
}

/// A client's TCP stream holding its places under the caps: they are given back when the
/// stream is dropped, which for a WebSocket is when the socket closes (the upgraded
/// connection keeps this stream).
struct Tracked {
    stream: TcpStream,
    activity: Arc<Activity>,
    _all: OwnedSemaphorePermit,
    _place: Option<Place>,
}

impl AsyncRead for Tracked {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let this = self.get_mut();
        let before = buf.filled().len();
        let r = Pin::new(&mut this.stream).poll_read(cx, buf);
        let n = buf.filled().len().saturating_sub(before);
        if n > 0 {
            this.activity.read.fetch_add(n as u64, Ordering::Relaxed);
        }
        r
    }
}

impl AsyncWrite for Tracked {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        Pin::new(&mut self.get_mut().stream).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.stream.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.get_mut().stream).poll_shutdown(cx)
    }
}

/// hyper's timer for its header-read timeout, which it starts whenever it waits for a
/// request's head (the first one of a connection, and the next one after each reply). This
/// one tells the two waits apart: a fresh connection, or a kept-alive one once its next
/// request has begun (a byte has come), has `header` from then; a kept-alive connection
/// with nothing coming has `idle`.
#[derive(Clone)]
struct HeadTimer {
    activity: Arc<Activity>,
    header: Duration,
    idle: Duration,
}

struct HeadSleep {
    activity: Arc<Activity>,
    header: Duration,
    read_at_start: u64,
    /// The header's clock runs (a fresh connection, or bytes came since the wait began).
    heading: bool,
    sleep: Pin<Box<tokio::time::Sleep>>,
}

impl HeadTimer {
    fn start(&self) -> HeadSleep {
        let now = tokio::time::Instant::now();
        let fresh = self.activity.requests.load(Ordering::Relaxed) == 0;
        let wait = if fresh { self.header } else { self.idle };
        HeadSleep {
            activity: self.activity.clone(),
            header: self.header,
            read_at_start: self.activity.read.load(Ordering::Relaxed),
            heading: fresh,
            sleep: Box::pin(tokio::time::sleep_until(now + wait)),
        }
    }
}

impl hyper::rt::Timer for HeadTimer {
    fn sleep(&self, _: Duration) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(self.start())
    }

    fn sleep_until(&self, _: std::time::Instant) -> Pin<Box<dyn hyper::rt::Sleep>> {
        Box::pin(self.start())
    }
}

impl Future for HeadSleep {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let this = self.get_mut();
        if !this.heading && this.activity.read.load(Ordering::Relaxed) != this.read_at_start {
            // the next request has begun: its header has `header` from now
            this.heading = true;
            let deadline = tokio::time::Instant::now() + this.header;
            this.sleep.as_mut().reset(deadline);
        }
        this.sleep.as_mut().poll(cx)
    }
}

impl hyper::rt::Sleep for HeadSleep {}

/// Is an accept error about one connection only (the loop goes on at once)?
fn is_connection_error(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::*;
    matches!(
        e.kind(),
        ConnectionRefused | ConnectionAborted | ConnectionReset | Interrupted | WouldBlock
    )
}

/// Serves `router` on `listener` until the task is dropped: each connection under the caps
/// of `limits` (one over them is closed at once), with the header and idle timeouts, the
/// peer's address as `ConnectInfo<SocketAddr>`, and WebSocket upgrades. With `trust_proxy`
/// the per-address cap is not applied (every connection comes from the proxy).
pub(crate) async fn serve(
    listener: TcpListener,
    router: Router,
    limits: Limits,
    trust_proxy: bool,
) -> std::io::Result<()> {
    let all = Arc::new(Semaphore::new(limits.max_connections.max(1)));
    let per_address = Arc::new(PerAddress::new(limits.max_connections_per_address.max(1)));
    let mut warned_full = false;
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) if is_connection_error(&e) => continue,
            Err(e) => {
                // out of file descriptors, most likely: wait for some to be given back
                tracing::error!("cannot accept a connection: {e}");
                tokio::time::sleep(Duration::from_secs(1)).await;
                continue;
            }
        };
        let Ok(permit) = all.clone().try_acquire_owned() else {
            if !warned_full {
                tracing::warn!(
                    "{} connections are open, the most allowed: new ones are closed at once",
                    limits.max_connections
                );
                warned_full = true;
            }
            drop(stream);
            continue;
        };
        if all.available_permits() > limits.max_connections / 2 {
            warned_full = false;
        }
        let place = if trust_proxy {
            None
        } else {
            match per_address.take(peer.ip()) {
                Some(p) => Some(p),
                None => {
                    tracing::debug!("{peer}: its address has all its connections: closed");
                    drop(stream);
                    continue;
                }
            }
        };
        let _ = stream.set_nodelay(true);
        let activity = Arc::new(Activity::default());
        let io = Tracked {
            stream,
            activity: activity.clone(),
            _all: permit,
            _place: place,
        };
        let timer = HeadTimer {
            activity: activity.clone(),
            header: limits.header_timeout,
            idle: limits.idle_timeout,
        };
        let header_timeout = limits.header_timeout;
        let router = router.clone();
        tokio::spawn(async move {
            let service = hyper::service::service_fn(move |mut req: hyper::Request<Incoming>| {
                activity.requests.fetch_add(1, Ordering::Relaxed);
                req.extensions_mut().insert(ConnectInfo(peer));
                router.clone().oneshot(req)
            });
            let mut builder = http1::Builder::new();
            builder
                .timer(timer)
                .header_read_timeout(header_timeout)
                .keep_alive(true)
                .max_buf_size(64 * 1024);
            let conn = builder
                .serve_connection(TokioIo::new(io), service)
                .with_upgrades();
            if let Err(e) = conn.await {
                tracing::debug!("connection from {peer}: {e}");
            }
        });
    }
}

/// Parses `--listen`: `IP:PORT`, `[IPv6]:PORT`, a bare IP (`0.0.0.0`, `::`, `[::]`) or
/// `localhost[:PORT]`; the port is `None` when not given.
pub fn parse_listen(text: &str) -> Result<(IpAddr, Option<u16>), String> {
    let t = text.trim();
    if let Ok(sa) = t.parse::<SocketAddr>() {
        return Ok((sa.ip(), Some(sa.port())));
    }
    if let Ok(ip) = t
        .trim_start_matches('[')
        .trim_end_matches(']')
        .parse::<IpAddr>()
    {
        if t.starts_with('[') == t.ends_with(']') {
            return Ok((ip, None));
        }
    }
    let (host, port) = match t.rsplit_once(':') {
        Some((h, p)) if !h.contains(':') => (h, Some(p)),
        _ => (t, None),
    };
    if host.eq_ignore_ascii_case("localhost") {
        let port = match port {
            Some(p) => Some(
                p.parse::<u16>()
                    .map_err(|_| format!("'{p}' is not a port number"))?,
            ),
            None => None,
        };
        return Ok((IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    Err(format!(
        "'{text}' is not an address to listen on: give an IP address and maybe a port \
         (0.0.0.0:8813, [::]:8813, 192.168.1.20, 127.0.0.1)"
    ))
}

/// Checks a public URL (`http(s)://host[:port]`, no path beyond `/`, no query) and returns it
/// without its trailing `/`.
pub fn check_public_url(text: &str) -> Result<String, String> {
    let t = text.trim();
    let bad = |why: &str| Err(format!("the public URL '{text}' {why}"));
    let uri: axum::http::Uri = match t.parse() {
        Ok(u) => u,
        Err(_) => return bad("is not a URL (give https://games.example.org)"),
    };
    match uri.scheme_str() {
        Some(s) if s.eq_ignore_ascii_case("http") || s.eq_ignore_ascii_case("https") => {}
        _ => return bad("must begin with https:// or http://"),
    }
    let Some(authority) = uri.authority() else {
        return bad("names no host");
    };
    if authority.as_str().contains('@') {
        return bad("must not carry a user name or password");
    }
    if authority.host().is_empty() {
        return bad("names no host");
    }
    if !matches!(uri.path(), "" | "/") || uri.query().is_some() || t.contains('#') {
        return bad(
            "must be the site's root, with no path, query or fragment (the board is served at /)",
        );
    }
    let scheme = uri.scheme_str().unwrap_or("https").to_ascii_lowercase();
    Ok(format!(
        "{scheme}://{}",
        authority.as_str().to_ascii_lowercase()
    ))
}

/// The address another machine on the network would reach a server listening on `host` at:
/// `host` itself when it is one address, this machine's address on its network when it
/// listens on every address (a guess: the source address the system would use to reach
/// the outside, found by connecting a UDP socket, which sends nothing), `None` on loopback
/// or when there is no network.
pub fn lan_address(host: IpAddr) -> Option<IpAddr> {
    if host.is_loopback() {
        return None;
    }
    if !host.is_unspecified() {
        return Some(host);
    }
    // documentation addresses (RFC 5737, RFC 3849): routed like any other, never reached
    let guess = |bind: SocketAddr, to: SocketAddr| -> Option<IpAddr> {
        let s = UdpSocket::bind(bind).ok()?;
        s.connect(to).ok()?;
        let ip = s.local_addr().ok()?.ip();
        (!ip.is_loopback() && !ip.is_unspecified()).then_some(ip)
    };
    let v4 = guess(
        (Ipv4Addr::UNSPECIFIED, 0).into(),
        (Ipv4Addr::new(192, 0, 2, 1), 9).into(),
    );
    match host {
        IpAddr::V4(_) => v4,
        IpAddr::V6(_) => v4.or_else(|| {
            guess(
                (Ipv6Addr::UNSPECIFIED, 0).into(),
                (Ipv6Addr::new(0x2001, 0xdb8, 0, 0, 0, 0, 0, 1), 9).into(),
            )
        }),
    }
}

/// `http://ADDR:PORT` for an address (IPv6 in brackets).
pub(crate) fn http_url(ip: IpAddr, port: u16) -> String {
    format!("http://{}", SocketAddr::new(ip, port))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn listen_addresses() {
        let v4 = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            parse_listen("0.0.0.0:8813").unwrap(),
            (v4("0.0.0.0"), Some(8813))
        );
        assert_eq!(parse_listen("[::]:8813").unwrap(), (v4("::"), Some(8813)));
        assert_eq!(parse_listen("[::]").unwrap(), (v4("::"), None));
        assert_eq!(parse_listen("::").unwrap(), (v4("::"), None));
        assert_eq!(
            parse_listen("192.168.1.20").unwrap(),
            (v4("192.168.1.20"), None)
        );
        assert_eq!(
            parse_listen("localhost:9000").unwrap(),
            (v4("127.0.0.1"), Some(9000))
        );
        assert!(parse_listen("games.example.org:80").is_err());
        assert!(parse_listen("0.0.0.0:99999").is_err());
        assert!(parse_listen("[::1").is_err());
    }

    #[test]
    fn public_urls() {
        assert_eq!(
            check_public_url("https://Games.Example.org/").unwrap(),
            "https://games.example.org"
        );
        assert_eq!(
            check_public_url("http://192.168.1.20:8813").unwrap(),
            "http://192.168.1.20:8813"
        );
        for bad in [
            "games.example.org",
            "ftp://games.example.org",
            "https://games.example.org/grognard",
            "https://games.example.org/?x=1",
            "https://games.example.org/#x",
            "https://user:pw@games.example.org",
            "https://",
        ] {
            assert!(check_public_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn addresses_are_counted_by_household() {
        let a: IpAddr = "2001:db8:1:2:aaaa::1".parse().unwrap();
        let b: IpAddr = "2001:db8:1:2:bbbb::9".parse().unwrap();
        assert_eq!(address_key(a), address_key(b));
        let places = Arc::new(PerAddress::new(1));
        let p = places.take(a).unwrap();
        assert!(places.take(b).is_none());
        drop(p);
        assert!(places.take(b).is_some());
        assert!(places.counts.lock().unwrap().len() <= 1);
    }

    #[test]
    fn a_loopback_server_has_no_network_address() {
        assert_eq!(lan_address("127.0.0.1".parse().unwrap()), None);
        let one: IpAddr = "192.168.1.20".parse().unwrap();
        assert_eq!(lan_address(one), Some(one));
    }
}
