//! `grognard play` (the board in a browser) and `grognard serve`: the game server of
//! `docs/api.md`, on 127.0.0.1 by default, on the network with `--listen` (`docs/deploy.md`).

use anyhow::{anyhow, bail, Result};
use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

/// The options of `grognard serve`.
#[derive(clap::Args, Debug, Clone)]
#[command(
    after_help = "For a friend on your network: grognard serve --listen 0.0.0.0:8813 (and let \
the port through the firewall). Behind a TLS reverse proxy: grognard serve --trust-proxy \
--public-url https://games.example.org. See docs/deploy.md."
)]
pub struct ServeArgs {
    /// The address to listen on: IP:PORT, [IPv6]:PORT or a bare IP (default 127.0.0.1, this
    /// machine only; 0.0.0.0 or [::] for every address, so others on the network can play).
    #[arg(long, value_name = "ADDR")]
    pub listen: Option<String>,
    /// The port (default 8813; 0 = any free port), when --listen does not give one.
    #[arg(long)]
    pub port: Option<u16>,
    /// sqlite:PATH or postgres://... (default: games.sqlite in the user's data directory).
    #[arg(long, value_name = "URL")]
    pub database: Option<String>,
    /// The address players reach the server at, for the links handed out
    /// (https://games.example.org; no path).
    #[arg(long, value_name = "URL")]
    pub public_url: Option<String>,
    /// Take each client's address from the last hop of X-Forwarded-For (only behind a reverse
    /// proxy that sets it, with the server listening where only the proxy reaches it).
    #[arg(long)]
    pub trust_proxy: bool,
    /// The limits on connections, timeouts and rates.
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The limits `grognard serve` can change (`docs/api.md`, "Limits"); each defaults to
/// `server::Limits::default()`.
#[derive(clap::Args, Debug, Clone, Default)]
#[command(next_help_heading = "Limits")]
pub struct LimitArgs {
    /// Open connections, all clients together [default: 1024].
    #[arg(long, value_name = "N")]
    pub max_connections: Option<usize>,
    /// Open connections from one address [default: 64]; not applied with --trust-proxy.
    #[arg(long, value_name = "N")]
    pub max_connections_per_address: Option<usize>,
    /// Seconds a client has to send a request's header [default: 10].
    #[arg(long, value_name = "SECONDS")]
    pub header_timeout: Option<u64>,
    /// Seconds a kept-alive connection may wait for its next request [default: 60].
    #[arg(long, value_name = "SECONDS")]
    pub idle_timeout: Option<u64>,
    /// Open game windows (WebSockets) from one client [default: 32].
    #[arg(long, value_name = "N")]
    pub websockets_per_address: Option<usize>,
    /// New games (created or branched) one client may start a minute [default: 10].
    #[arg(long, value_name = "N")]
    pub new_games_per_minute: Option<u32>,
    /// New games one client may start at once [default: 10].
    #[arg(long, value_name = "N")]
    pub new_games_burst: Option<u32>,
    /// Actions, undos and take-backs one client may send a second [default: 20].
    #[arg(long, value_name = "N")]
    pub changes_per_second: Option<u32>,
    /// Actions, undos and take-backs one client may send at once [default: 40].
    #[arg(long, value_name = "N")]
    pub changes_burst: Option<u32>,
}

impl LimitArgs {
    /// The server's limits: the defaults, with what was given.
    pub fn limits(&self) -> Result<server::Limits> {
        let mut l = server::Limits::default();
        let positive = |name: &str, n: u64| -> Result<u64> {
            if n == 0 {
                bail!("--{name} must be at least 1");
            }
            Ok(n)
        };
        if let Some(n) = self.max_connections {
            l.max_connections = positive("max-connections", n as u64)? as usize;
        }
        if let Some(n) = self.max_connections_per_address {
            l.max_connections_per_address =
                positive("max-connections-per-address", n as u64)? as usize;
        }
        if let Some(s) = self.header_timeout {
            l.header_timeout = Duration::from_secs(positive("header-timeout", s)?);
        }
        if let Some(s) = self.idle_timeout {
            l.idle_timeout = Duration::from_secs(positive("idle-timeout", s)?);
        }
        if let Some(n) = self.websockets_per_address {
            l.websockets_per_address = positive("websockets-per-address", n as u64)? as usize;
        }
        if let Some(n) = self.new_games_per_minute {
            let n = positive("new-games-per-minute", u64::from(n))?;
            l.new_games.every = Duration::from_secs(60) / n as u32;
        }
        if let Some(n) = self.new_games_burst {
            l.new_games.burst = positive("new-games-burst", u64::from(n))? as u32;
        }
        if let Some(n) = self.changes_per_second {
            let n = positive("changes-per-second", u64::from(n))?;
            l.changes.every = Duration::from_secs(1) / n as u32;
        }
        if let Some(n) = self.changes_burst {
            l.changes.burst = positive("changes-burst", u64::from(n))? as u32;
        }
        Ok(l)
    }
}

/// How to start the server, from `play` or `serve`.
pub struct Options {
    /// `--listen`.
    pub listen: Option<String>,
    /// `--port`.
    pub port: Option<u16>,
    /// When no port is given, take any free one if the default is taken (`play`).
    pub fallback_port: bool,
    /// `--database`.
    pub database: Option<String>,
    /// `--public-url`.
    pub public_url: Option<String>,
    /// `--trust-proxy`.
    pub trust_proxy: bool,
    /// The limits.
    pub limits: server::Limits,
    /// Log warnings only (`play`), not every request's line.
    pub quiet: bool,
}

impl ServeArgs {
    /// The options of `grognard serve`.
    pub fn options(self) -> Result<Options> {
        Ok(Options {
            limits: self.limits.limits()?,
            listen: self.listen,
            port: self.port,
            fallback_port: false,
            database: self.database,
            public_url: self.public_url,
            trust_proxy: self.trust_proxy,
            quiet: false,
        })
    }
}

/// The address a browser on this machine opens for a server listening on `addr`.
fn local_url(addr: SocketAddr) -> String {
    let ip = match addr.ip() {
        IpAddr::V4(v) if v.is_unspecified() => IpAddr::V4(Ipv4Addr::LOCALHOST),
        IpAddr::V6(v) if v.is_unspecified() => IpAddr::V6(Ipv6Addr::LOCALHOST),
        ip => ip,
    };
    format!("http://{}/", SocketAddr::new(ip, addr.port()))
}

/// Starts the server and serves until interrupted. Prints the board's address on standard
/// output (and, for a server on the network, the address players elsewhere use).
pub fn serve(opts: Options) -> Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(if opts.quiet { "warn" } else { "info" })
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    let (host, listen_port) = match &opts.listen {
        Some(l) => server::parse_listen(l).map_err(|e| anyhow!("--listen: {e}"))?,
        None => (IpAddr::V4(Ipv4Addr::LOCALHOST), None),
    };
    let port = match (listen_port, opts.port) {
        (Some(a), Some(b)) if a != b => {
            bail!("--listen gives port {a} and --port {b}: give the port once")
        }
        (Some(p), _) | (None, Some(p)) => Some(p),
        (None, None) => None,
    };
    let public_url = match &opts.public_url {
        Some(u) => Some(server::check_public_url(u).map_err(|e| anyhow!("--public-url: {e}"))?),
        None => None,
    };
    let database = match opts.database {
        Some(d) => d,
        None => server::default_database().map_err(|e| anyhow!("{e}"))?,
    };
    let config = server::Config {
        host,
        port: port.unwrap_or(server::DEFAULT_PORT),
        fallback_port: opts.fallback_port && port.is_none(),
        database: database.clone(),
        public_url: public_url.clone(),
        trust_proxy: opts.trust_proxy,
        limits: opts.limits,
        ..server::Config::default()
    };
    let rt = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| anyhow!("cannot start the server's runtime: {e}"))?;
    rt.block_on(async move {
        let running = server::start(config, systems::Library::standard())
            .await
            .map_err(|e| anyhow!("{e}"))?;
        let addr = running.addr();
        let mut out = std::io::stdout();
        let here = local_url(addr);
        if addr.ip().is_loopback() {
            let _ = writeln!(out, "Grognard is serving {here}");
        } else {
            let _ = writeln!(out, "Grognard is serving {here} (on this machine)");
            match (public_url.as_deref(), running.public_url()) {
                (Some(u), _) => {
                    let _ = writeln!(out, "Players elsewhere open {u}/ (the public URL).");
                }
                (None, Some(u)) => {
                    let _ = writeln!(
                        out,
                        "A friend on your network opens {u}/ (this machine's address on its \
                         network, as best it can be told; let TCP port {} through this \
                         machine's firewall). The links for each side use it.",
                        addr.port()
                    );
                }
                (None, None) => {
                    let _ = writeln!(
                        out,
                        "A friend on your network opens http://<this machine's address>:{}/ \
                         (the address could not be found; let the port through the firewall).",
                        addr.port()
                    );
                }
            }
        }
        let _ = writeln!(
            out,
            "Open it in a browser to play. Games are kept in {database}. Ctrl-C stops the server."
        );
        let _ = out.flush();
        tokio::select! {
            _ = running.wait() => Err(anyhow!("the server stopped")),
            r = tokio::signal::ctrl_c() => {
                r.map_err(|e| anyhow!("cannot wait for Ctrl-C: {e}"))?;
                let _ = writeln!(std::io::stdout(), "Stopped. Every game is saved.");
                Ok(())
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_from_the_command_line() {
        let l = LimitArgs {
            new_games_per_minute: Some(30),
            changes_per_second: Some(5),
            changes_burst: Some(7),
            ..LimitArgs::default()
        }
        .limits()
        .unwrap();
        assert_eq!(l.new_games.every, Duration::from_secs(2));
        assert_eq!(l.changes.every, Duration::from_millis(200));
        assert_eq!(l.changes.burst, 7);
        assert_eq!(l.max_connections, server::Limits::default().max_connections);
        assert!(LimitArgs {
            max_connections: Some(0),
            ..LimitArgs::default()
        }
        .limits()
        .is_err());
    }

    #[test]
    fn the_local_address_of_every_address() {
        assert_eq!(
            local_url("0.0.0.0:8813".parse().unwrap()),
            "http://127.0.0.1:8813/"
        );
        assert_eq!(
            local_url("[::]:8813".parse().unwrap()),
            "http://[::1]:8813/"
        );
    }
}
