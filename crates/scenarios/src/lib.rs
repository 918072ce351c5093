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
pub const MAPS: &[Shipped] = &[
    Shipped {
        id: "leipzig",
        file: "maps/leipzig.toml",
        text: include_str!("../maps/leipzig.toml"),
    },
    Shipped {
        id: "central-europe",
        file: "maps/central-europe.toml",
        text: include_str!("../maps/central-europe.toml"),
    },
];

/// The shipped scenarios, in the order `grognard scenarios` lists them. Each names the rules
/// system that reads it (`system`): Napoleon at War's files hold the whole scenario; Leipzig
/// 1813's are stubs naming one of its rules crate's eight scenarios (`scenario = N`), and so is
/// the hex-miniatures rules' Möckern (`scenario = "moeckern-1813"`).
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
    // Leipzig 1813: stubs naming the rules crate's scenario number (`system = "leipzig-1813"`)
    Shipped {
        id: "leipzig1813-1",
        file: "scenarios/leipzig1813-1.toml",
        text: include_str!("../scenarios/leipzig1813-1.toml"),
    },
    Shipped {
        id: "leipzig1813-2",
        file: "scenarios/leipzig1813-2.toml",
        text: include_str!("../scenarios/leipzig1813-2.toml"),
    },
    Shipped {
        id: "leipzig1813-3",
        file: "scenarios/leipzig1813-3.toml",
        text: include_str!("../scenarios/leipzig1813-3.toml"),
    },
    Shipped {
        id: "leipzig1813-4",
        file: "scenarios/leipzig1813-4.toml",
        text: include_str!("../scenarios/leipzig1813-4.toml"),
    },
    Shipped {
        id: "leipzig1813-5",
        file: "scenarios/leipzig1813-5.toml",
        text: include_str!("../scenarios/leipzig1813-5.toml"),
    },
    Shipped {
        id: "leipzig1813-6",
        file: "scenarios/leipzig1813-6.toml",
        text: include_str!("../scenarios/leipzig1813-6.toml"),
    },
    Shipped {
        id: "leipzig1813-7",
        file: "scenarios/leipzig1813-7.toml",
        text: include_str!("../scenarios/leipzig1813-7.toml"),
    },
    Shipped {
        id: "leipzig1813-8",
        file: "scenarios/leipzig1813-8.toml",
        text: include_str!("../scenarios/leipzig1813-8.toml"),
    },
    // The hex-miniatures rules: a stub naming the rules crate's scenario (`system =
    // "hex-miniatures"`)
    Shipped {
        id: "moeckern-1813",
        file: "scenarios/moeckern-1813.toml",
        text: include_str!("../scenarios/moeckern-1813.toml"),
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

/// A scenario file as found, before any rules system reads it: what the registry needs to
/// pick the system (its header) and what the system needs to build it (its text and its map).
#[derive(Clone, Debug)]
pub struct Source {
    /// The shipped id or the path it was named by.
    pub name: String,
    /// The file name to cite in errors (`scenarios/bon-first-day.toml` or the path).
    pub file: String,
    /// The file's text.
    pub text: String,
    /// The folder of a scenario read from disk (its map may be a path relative to it).
    pub dir: Option<std::path::PathBuf>,
}

/// The fields of a scenario file every system shares: which system it is written for and the
/// components it is played with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    /// The scenario's id.
    pub id: String,
    /// The rules system its file names (`system = "naw"`).
    pub system: String,
    /// The components (game box) it uses: the file's `components`, else its map's id.
    pub components: String,
}

impl Source {
    /// The shipped scenario of an id, or the file at a path.
    pub fn find(spec: &str) -> Result<Source, LoadError> {
        if let Some(s) = SCENARIOS.iter().find(|s| s.id == spec) {
            return Ok(Source {
                name: spec.to_string(),
                file: s.file.to_string(),
                text: s.text.to_string(),
                dir: None,
            });
        }
        let path = std::path::Path::new(spec);
        let text = std::fs::read_to_string(path)
            .map_err(|e| LoadError::NotFound(spec.into(), e.to_string()))?;
        Ok(Source {
            name: spec.to_string(),
            file: spec.to_string(),
            text,
            dir: path.parent().map(|p| p.to_path_buf()),
        })
    }

    /// Reads a file the scenario names (its map): a shipped map id, else a path relative to
    /// the scenario's folder.
    pub fn read(&self, name: &str) -> Result<String, String> {
        resolve_map(self.dir.clone())(name)
    }

    /// The shared header fields.
    pub fn header(&self) -> Result<Header, String> {
        #[derive(serde::Deserialize)]
        struct Raw {
            id: Option<String>,
            system: Option<String>,
            components: Option<String>,
            map: Option<String>,
        }
        let raw: Raw = toml::from_str(&self.text).map_err(|e| format!("{}: {e}", self.file))?;
        let system = raw
            .system
            .ok_or_else(|| format!("{}: the scenario names no `system`", self.file))?;
        Ok(Header {
            id: raw.id.unwrap_or_else(|| self.name.clone()),
            components: raw.components.or(raw.map).unwrap_or_default(),
            system,
        })
    }
}
