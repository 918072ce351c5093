//! `grognard play` (the board in a browser) and `grognard serve`: the game server of
//! `docs/api.md` on 127.0.0.1.

use anyhow::{anyhow, Result};
use std::io::Write;

/// Starts the server and serves until interrupted. `port` `None` is the default port, or any
/// free port when it is taken. Prints the board's address on standard output.
pub fn serve(port: Option<u16>, database: Option<String>, quiet: bool) -> Result<()> {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        tracing_subscriber::EnvFilter::new(if quiet { "warn" } else { "info" })
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    let database = match database {
        Some(d) => d,
        None => server::default_database().map_err(|e| anyhow!("{e}"))?,
    };
    let config = server::Config {
        port: port.unwrap_or(server::DEFAULT_PORT),
        fallback_port: port.is_none(),
        database: database.clone(),
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
        let mut out = std::io::stdout();
        let _ = writeln!(out, "Grognard is serving {}", running.url());
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
