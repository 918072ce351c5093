//! The Terrain Effects Chart (TEC) for the central Europe map's legend kinds: what each hex
//! kind costs to enter and does to a defender, what each hexside costs to cross and does to an
//! attack across it, as replaceable data (`[terrain]` of `data/leipzig.toml`).

use crate::crt::CombatResult;
use serde::Deserialize;
use std::collections::BTreeMap;

/// The hex kinds of the map's legend (`docs/central-europe-map.md`).
pub const HEX_KINDS: [&str; 5] = [
    "clear",
    "city",
    "city-fortress",
    "mountain",
    "mountain-pass",
];

/// The hexside features of the map's legend.
pub const HEXSIDE_KINDS: [&str; 5] = ["river", "bridge", "pass", "border", "armistice"];

fn one() -> u32 {
    1
}

fn yes() -> bool {
    true
}

/// A hex kind's effects (TEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexEffects {
    /// Movement points to enter.
    pub mp: u32,
    /// Movement points to enter a mountain pass from a hex that is neither a pass-entry hex
    /// nor an adjacent pass hex (TEC Mountain Pass); `None` for other kinds.
    #[serde(default)]
    pub mp_off_pass: Option<u32>,
    /// The defender's strength multiplier (1: no effect).
    #[serde(default = "one")]
    pub defence: u32,
    /// Only a Dx touches units defending here (TEC City-Fortress, Fortress (A)).
    #[serde(default)]
    pub only_dx: bool,
    /// Divisions that may stand here supplied with no supply unit (TEC City-Fortress,
    /// Fortress (B)); 0 for none.
    #[serde(default)]
    pub supplied_divisions: u32,
    /// Cavalry may enter (TEC Mountain: prohibited).
    #[serde(default = "yes")]
    pub cavalry: bool,
    /// Supply and depot units may enter (TEC notes: never a mountain).
    #[serde(default = "yes")]
    pub supply: bool,
}

impl HexEffects {
    /// A combat result as it touches units defending in this terrain: in a fortress only a Dx
    /// (Fortress (A), TEC City-Fortress; [`CombatResult::against_fortress`]), elsewhere as
    /// printed.
    pub fn result_against(&self, r: CombatResult) -> CombatResult {
        if self.only_dx {
            r.against_fortress()
        } else {
            r
        }
    }
}

/// A hexside feature's effects (TEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HexsideEffects {
    /// Movement points added to cross it.
    #[serde(default)]
    pub extra_mp: u32,
    /// The defender's multiplier when the attack crosses it (1: no effect).
    #[serde(default = "one")]
    pub defence: u32,
    /// No attack across it below this percentage (0: none).
    #[serde(default)]
    pub min_percent: u32,
    /// Zones of control extend across it (TEC River hexside: not an unbridged river).
    #[serde(default = "yes")]
    pub zoc: bool,
    /// Retreats may cross it (Combat (J), (K): never an unbridged river).
    #[serde(default = "yes")]
    pub retreat: bool,
}

impl Default for HexsideEffects {
    fn default() -> Self {
        HexsideEffects {
            extra_mp: 0,
            defence: 1,
            min_percent: 0,
            zoc: true,
            retreat: true,
        }
    }
}

/// The chart as written.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainFile {
    /// The chart's notes: MP added to enter a hex of automatically eliminated enemy units
    /// (TEC notes, CRT Auto).
    pub over_eliminated_mp: u32,
    /// The chart's notes: MP a cavalry unit adds to leave a partially controlled enemy hex it
    /// entered in the same movement phase (TEC notes, Zones of Control (B)).
    pub cavalry_leave_partial_zoc_mp: u32,
    /// Hex kinds by legend name.
    pub hexes: BTreeMap<String, HexEffects>,
    /// Hexside features by legend name.
    pub hexsides: BTreeMap<String, HexsideEffects>,
}

/// The Terrain Effects Chart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainChart {
    /// MP added to enter a hex of automatically eliminated enemy units (TEC notes, CRT Auto).
    pub over_eliminated_mp: u32,
    /// MP a cavalry unit adds to leave a partially controlled enemy hex it entered in the same
    /// movement phase (TEC notes, Zones of Control (B)).
    pub cavalry_leave_partial_zoc_mp: u32,
    hexes: BTreeMap<String, HexEffects>,
    hexsides: BTreeMap<String, HexsideEffects>,
}

impl TerrainChart {
    /// Validates the chart: every legend kind present, no kind the map does not have, every
    /// cost and multiplier at least 1 where it must be.
    pub fn from_file(f: &TerrainFile) -> Result<TerrainChart, Vec<String>> {
        let mut errs = Vec::new();
        for k in HEX_KINDS {
            if !f.hexes.contains_key(k) {
                errs.push(format!("terrain: no entry for the hex kind '{k}'"));
            }
        }
        for k in HEXSIDE_KINDS {
            if !f.hexsides.contains_key(k) {
                errs.push(format!("terrain: no entry for the hexside '{k}'"));
            }
        }
        for (k, h) in &f.hexes {
            if !HEX_KINDS.contains(&k.as_str()) {
                errs.push(format!(
                    "terrain: '{k}' is not a hex kind of the map (one of {})",
                    HEX_KINDS.join(", ")
                ));
            }
            if h.mp == 0 || h.mp_off_pass == Some(0) {
                errs.push(format!("terrain: '{k}' costs 0 MP to enter"));
            }
            if h.defence == 0 {
                errs.push(format!("terrain: '{k}' multiplies the defence by 0"));
            }
        }
        for (k, h) in &f.hexsides {
            if !HEXSIDE_KINDS.contains(&k.as_str()) {
                errs.push(format!(
                    "terrain: '{k}' is not a hexside of the map (one of {})",
                    HEXSIDE_KINDS.join(", ")
                ));
            }
            if h.defence == 0 {
                errs.push(format!("terrain: '{k}' multiplies the defence by 0"));
            }
        }
        if errs.is_empty() {
            Ok(TerrainChart {
                over_eliminated_mp: f.over_eliminated_mp,
                cavalry_leave_partial_zoc_mp: f.cavalry_leave_partial_zoc_mp,
                hexes: f.hexes.clone(),
                hexsides: f.hexsides.clone(),
            })
        } else {
            Err(errs)
        }
    }

    /// A hex kind's effects.
    pub fn hex(&self, kind: &str) -> Option<&HexEffects> {
        self.hexes.get(kind)
    }

    /// A hexside feature's effects.
    pub fn hexside(&self, kind: &str) -> Option<&HexsideEffects> {
        self.hexsides.get(kind)
    }

    /// A bridged river hexside carries both `river` and `bridge`: its effects are the bridge's
    /// (TEC Bridged River hexside); other features add nothing to a move or a combat.
    fn crossing<'a>(&'a self, features: &[&str]) -> Vec<&'a HexsideEffects> {
        let bridged = features.contains(&"bridge");
        features
            .iter()
            .filter(|f| !(bridged && **f == "river"))
            .filter_map(|f| self.hexsides.get(*f))
            .collect()
    }

    /// Movement points to enter a hex of `kind` across a hexside carrying `features`; `None`
    /// when unknown. `from_pass_entry`: the mover comes from a pass-entry hex or an adjacent
    /// pass hex along the pass (TEC Mountain Pass; which hexes those are is the map's).
    pub fn entry_cost(&self, kind: &str, features: &[&str], from_pass_entry: bool) -> Option<u32> {
        let h = self.hexes.get(kind)?;
        let base = match h.mp_off_pass {
            Some(off) if !from_pass_entry => off,
            _ => h.mp,
        };
        Some(
            self.crossing(features)
                .iter()
                .fold(base, |t, s| t.saturating_add(s.extra_mp)),
        )
    }

    /// The defender's multiplier: the single best of the hex's and the crossed hexside's
    /// (TEC: terrain effects in combat are not cumulative; a fortress across a river triples).
    pub fn defence_multiplier(&self, kind: &str, features: &[&str]) -> u32 {
        let hex = self.hexes.get(kind).map_or(1, |h| h.defence);
        self.crossing(features)
            .iter()
            .map(|s| s.defence)
            .fold(hex, u32::max)
    }

    /// The lowest percentage an attack across a hexside carrying `features` may be made at
    /// (TEC River hexside: 160%); 0 when none.
    pub fn min_percent(&self, features: &[&str]) -> u32 {
        self.crossing(features)
            .iter()
            .map(|s| s.min_percent)
            .max()
            .unwrap_or(0)
    }

    /// Whether zones of control extend across a hexside carrying `features` (Zones of Control
    /// (C): not across an unbridged river, across a bridged one).
    pub fn zoc_crosses(&self, features: &[&str]) -> bool {
        self.crossing(features).iter().all(|s| s.zoc)
    }

    /// Whether a retreat may cross a hexside carrying `features` (Combat (J), (K)).
    pub fn retreat_crosses(&self, features: &[&str]) -> bool {
        self.crossing(features).iter().all(|s| s.retreat)
    }
}
