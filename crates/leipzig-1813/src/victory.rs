//! The Victory Point Schedule (How to Win): each scenario's points for its cities, for every
//! enemy division or leader destroyed, and the French points for a group moved off the east
//! edge, as replaceable data (`[[victory]]` of `data/leipzig.toml`).

use serde::Deserialize;
use std::collections::BTreeMap;

/// One scenario's row of the schedule.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VictoryRow {
    /// The scenario, 1..=8.
    pub scenario: u8,
    /// Points per city to the side that holds it at the end (or was last in it, or besieges
    /// it); a city absent is worth nothing in that scenario.
    pub cities: BTreeMap<String, u32>,
    /// Points per enemy division or leader destroyed, in combat or by forced march (Div).
    pub division: u32,
    /// French points per complete group of six divisions, a leader and a supply unit moved off
    /// the east edge (ESM); `None` where the schedule gives none.
    #[serde(default)]
    pub esm: Option<u32>,
}

impl VictoryRow {
    /// A city's points (0 when it is not an objective of this scenario).
    pub fn city(&self, name: &str) -> u32 {
        self.cities.get(name).copied().unwrap_or(0)
    }

    /// Points for enemy units in a city besieged at the end: half the points their divisions
    /// and leaders would be worth destroyed, fractions dropped (How to Win; ruling L13).
    pub fn besieged_units(&self, divisions_and_leaders: u32) -> u32 {
        self.division * divisions_and_leaders / 2
    }

    /// Points for the groups moved off the east edge: only complete groups count (ESM).
    pub fn exit_points(&self, complete_groups: u32) -> u32 {
        self.esm.unwrap_or(0) * complete_groups
    }
}

/// The cities the schedule names.
pub const CITIES: [&str; 5] = ["Berlin", "Prague", "Dresden", "Leipzig", "Breslau"];
