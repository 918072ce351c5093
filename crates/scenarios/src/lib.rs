//! The maps and scenarios Grognard ships, embedded in the binary, and the generator that
//! rebuilds the Battle of Nations map from geographic source data.
//!
//! This crate holds data and the code that makes data; it has no rules logic.

pub mod mapgen;

/// A shipped file: its id and its text.
#[derive(Clone, Copy, Debug)]
pub struct Shipped {
    /// Identifier (`leipzig`, `bon-first-day`).
    pub id: &'static str,
    /// File name inside the crate.
    pub file: &'static str,
    /// The file's text.
    pub text: &'static str,
}

/// The shipped maps.
pub const MAPS: &[Shipped] = &[Shipped {
    id: "leipzig",
    file: "maps/leipzig.toml",
    text: include_str!("../maps/leipzig.toml"),
}];

/// The shipped scenarios, in the order `grognard scenarios` lists them.
pub const SCENARIOS: &[Shipped] = &[
    Shipped {
        id: "bon-first-day",
        file: "scenarios/bon-first-day.toml",
        text: include_str!("../scenarios/bon-first-day.toml"),
    },
    Shipped {
        id: "bon-third-day",
        file: "scenarios/bon-third-day.toml",
        text: include_str!("../scenarios/bon-third-day.toml"),
    },
    Shipped {
        id: "bon-grand-battle",
        file: "scenarios/bon-grand-battle.toml",
        text: include_str!("../scenarios/bon-grand-battle.toml"),
    },
];

/// The text of a shipped map.
pub fn map_text(id: &str) -> Option<&'static str> {
    MAPS.iter().find(|m| m.id == id).map(|m| m.text)
}

/// The text of a shipped scenario.
pub fn scenario_text(id: &str) -> Option<&'static str> {
    SCENARIOS.iter().find(|s| s.id == id).map(|s| s.text)
}

/// Why a scenario could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// Neither a shipped id nor a readable file.
    #[error("'{0}' is neither a shipped scenario ({ids}) nor a readable file: {1}", ids = SCENARIOS.iter().map(|s| s.id).collect::<Vec<_>>().join(", "))]
    NotFound(String, String),
    /// The scenario is invalid.
    #[error("{0}")]
    Invalid(#[from] naw::ScenarioError),
}

/// Loads a scenario by shipped id or by path, resolving its map by shipped id or by a path
/// relative to the scenario file.
pub fn load(spec: &str) -> Result<naw::Scenario, LoadError> {
    if let Some(text) = scenario_text(spec) {
        let file = SCENARIOS
            .iter()
            .find(|s| s.id == spec)
            .map_or(spec, |s| s.file);
        return Ok(naw::Scenario::from_toml(text, file, &resolve_map(None))?);
    }
    let path = std::path::Path::new(spec);
    let text = std::fs::read_to_string(path)
        .map_err(|e| LoadError::NotFound(spec.into(), e.to_string()))?;
    let dir = path.parent().map(|p| p.to_path_buf());
    Ok(naw::Scenario::from_toml(&text, spec, &resolve_map(dir))?)
}

fn resolve_map(dir: Option<std::path::PathBuf>) -> impl Fn(&str) -> Result<String, String> {
    move |name: &str| {
        if let Some(t) = map_text(name) {
            return Ok(t.to_string());
        }
        let p = match &dir {
            Some(d) => d.join(name),
            None => std::path::PathBuf::from(name),
        };
        std::fs::read_to_string(&p).map_err(|e| {
            format!(
                "map '{name}' is neither a shipped map nor a readable file ({}): {e}",
                p.display()
            )
        })
    }
}
