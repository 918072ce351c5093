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
