//! Napoleon at War's own helpers for the commands that stay typed over `naw::Game` (`map`,
//! `odds`, the arena statistics of `sim`): typed sessions opened through the library, and the
//! text of `present`'s Napoleon at War part.

use anyhow::{anyhow, bail, Result};
use engine::dynamic::{DynGame, Hosted, QueryError};
use engine::{Session, Viewer};
use grognard::core::open_with;
use naw::{Game, Scenario};
use present::NawPresenter;
use serde_json::Value;
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

/// Asks the game's rules system a study query (`hexsides`, `retreats`, `reach`,
/// `map_around`: `present::naw_study`): its text (the query with `--text`), or its JSON.
pub fn study(lib: &Library, path: &Path, name: &str, arg: &str, json: bool) -> Result<String> {
    let g = open_with(lib, path)?;
    let arg = if json {
        arg.to_string()
    } else {
        format!("{arg} --text")
    };
    match g.query(name, &arg, Viewer::Referee) {
        Ok(Value::String(s)) => Ok(s),
        Ok(v) => Ok(format!("{}\n", serde_json::to_string_pretty(&v)?)),
        Err(QueryError::Unknown(_)) => {
            bail!("the '{}' rules system has no {name} query", g.system())
        }
        Err(e) => bail!("{e}"),
    }
}

/// `grognard show --map HEX --radius N [--last N]`: the state, then the map within `radius`
/// (default 4) of the hex with the last moves marked; with `--json` one object, the state
/// with the map's view as `map_around`.
pub fn show_around(
    lib: &Library,
    path: &Path,
    json: bool,
    hex: &str,
    radius: Option<u32>,
    last: Option<usize>,
) -> Result<String> {
    let state = grognard::core::show_with(lib, path, json, None)?;
    let arg = format!(
        "{hex} {} {}",
        radius.unwrap_or(4),
        last.map_or("turn".to_string(), |n| n.to_string())
    );
    let map = study(lib, path, "map_around", &arg, json)?;
    if !json {
        return Ok(format!("{state}\n{map}"));
    }
    let mut v: Value = serde_json::from_str(&state)?;
    if let Some(o) = v.as_object_mut() {
        o.insert("map_around".into(), serde_json::from_str(&map)?);
    }
    Ok(format!("{}\n", serde_json::to_string_pretty(&v)?))
}
