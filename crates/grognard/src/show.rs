//! Napoleon at War's own helpers for the commands that stay typed over `naw::Game` (`map`,
//! `odds`, the arena statistics of `sim`): typed sessions opened through the library, and the
//! text of `present`'s Napoleon at War part.

use anyhow::{anyhow, bail, Result};
use engine::dynamic::{DynGame, Hosted};
use engine::Session;
use grognard::core::open_with;
use naw::{Game, Scenario};
use present::NawPresenter;
use std::path::Path;
use systems::Library;

/// The typed session of a Napoleon at War game, or why the game is not one.
pub fn naw_session(game: &dyn DynGame, what: &str) -> Result<Session<Game>> {
    match game.as_any().downcast_ref::<Hosted<Game, NawPresenter>>() {
        Some(h) => Ok(h.session.clone()),
        None => bail!(
            "{what} plays only Napoleon at War games; this is a game of the '{}' rules system",
            game.system()
        ),
    }
}

/// Opens a Napoleon at War record through the library (verifying it).
pub fn open_record(lib: &Library, path: &Path, what: &str) -> Result<Session<Game>> {
    let g = open_with(lib, path)?;
    naw_session(g.as_ref(), what)
}

/// Loads a Napoleon at War scenario by shipped id or path.
pub fn load_scenario(spec: &str) -> Result<Scenario> {
    scenarios::load(spec).map_err(|e| anyhow!("{e}"))
}

/// The name of a side.
pub fn side_name(g: &Game, s: engine::Side) -> &str {
    present::side_name(g, s)
}
