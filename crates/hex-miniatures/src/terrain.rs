//! The terrain effects table ([18], printed; with [3.1] and [8.4]): movement, sight and
//! combat for each kind of hex and hexside, as data (`[terrain.hexes.*]`,
//! `[terrain.hexsides.*]`). Movement is counted in half hexes: a clear hex costs 2, a hex
//! that halves movement 4, a step along a road 1 ([3.1.6.1], [8.4.2]).

use crate::army::Arm;
use crate::prob::Modifier;
use std::collections::BTreeMap;

/// The hex kinds the table knows.
pub const HEX_KINDS: [&str; 8] = [
    "clear",
    "forest",
    "rough",
    "slope",
    "town",
    "fortified",
    "earthwork",
    "lake",
];

/// The hexside kinds the table knows.
pub const HEXSIDE_KINDS: [&str; 3] = ["river", "bridge", "stream"];

/// What a hex does to movement ([18] Movement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Movement {
    /// As the national army table: 2 half hexes.
    Normal,
    /// Movement halved: 4 half hexes.
    Halved,
    /// No troops may enter (a lake, [3.1.3.3]).
    Prohibited,
}

/// What a hex does to sight ([18] Visibility).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Sight {
    /// No effect.
    Open,
    /// It blocks the hexes behind it.
    Blocks,
}

/// One hex kind's line of the table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HexTerrain {
    /// Movement.
    pub movement: Movement,
    /// Sight.
    pub sight: Sight,
    /// The defender's multiplier (2: doubled in a town or fortification, [9.6]).
    pub defence: u32,
    /// The arms the multiplier shelters (ruling HM15: a town's houses shelter infantry, not
    /// cavalry, [3.1.4.2]).
    pub sheltered: Vec<Arm>,
    /// Added to the attacker's number when troops in this hex are attacked (-0.100 in a
    /// forest, rough or fortified hex; at the top of a slope, attacked from below).
    pub attacked: Modifier,
    /// Added to the number of troops attacking out of this hex (+0.100 at the top of a slope,
    /// attacking down it).
    pub attacking: Modifier,
    /// The arms that may occupy it (empty: all): only infantry in forest and rough ground
    /// ([3.1.7.2], [3.1.8.2]); infantry and artillery in earthworks ([3.1.5]).
    pub occupants: Vec<Arm>,
}

/// One hexside kind's line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HexsideTerrain {
    /// Whether troops may cross it (a river only at a bridge, [3.1.3.1]).
    pub crossable: bool,
    /// Whether crossing it disrupts the troops ([3.1.3.4], [8.4.5]).
    pub disorders: bool,
    /// Zones of control extend across it ([4.1.6]: not across an unbridged river).
    pub zoc: bool,
}

/// The terrain effects table.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TerrainChart {
    /// Hex kinds by name.
    pub hexes: BTreeMap<String, HexTerrain>,
    /// Hexside kinds by name.
    pub hexsides: BTreeMap<String, HexsideTerrain>,
}

impl TerrainChart {
    /// A hex kind's line.
    pub fn hex(&self, kind: &str) -> Option<&HexTerrain> {
        self.hexes.get(kind)
    }

    /// Whether a unit of an arm may occupy a hex kind (command units go anywhere troops may,
    /// [2.4.2]).
    pub fn may_occupy(&self, kind: &str, arm: Arm) -> bool {
        self.hex(kind).is_some_and(|h| {
            h.movement != Movement::Prohibited
                && (arm == Arm::Command || h.occupants.is_empty() || h.occupants.contains(&arm))
        })
    }

    /// The cost in half hexes to enter a hex, crossing `sides` (the hexside kinds on the way);
    /// `None` when it may not be entered (or a kind is unknown to the chart). Along a road (from a road hex through a road
    /// hexside) a step costs one half whatever the hex ([3.1.6.1], [8.4.2]); a bridge costs
    /// nothing more ([8.4.4]); a stream costs nothing more but disrupts ([3.1.3.4], ruling
    /// HM16); a river without a bridge may not be crossed.
    pub fn entry_cost(&self, kind: &str, along_road: bool, sides: &[&str]) -> Option<u32> {
        let h = self.hex(kind)?;
        let bridged = sides.contains(&"bridge");
        for s in sides {
            let side = self.hexsides.get(*s)?;
            if !side.crossable && !bridged {
                return None;
            }
        }
        match h.movement {
            Movement::Prohibited => None,
            _ if along_road => Some(1),
            Movement::Normal => Some(2),
            Movement::Halved => Some(4),
        }
    }

    /// Whether a unit may take a step costing `cost` halves having spent `spent` of its
    /// `allowance` (in hexes): within its allowance, or as its first step whatever the cost
    /// (ruling HM14: infantry in a forest moves a hex a turn).
    pub fn may_step(allowance: u8, spent: u32, cost: u32) -> bool {
        spent == 0 || spent + cost <= 2 * u32::from(allowance)
    }

    /// Whether crossing these hexsides disrupts the unit ([3.1.3.4], [18] Stream).
    pub fn crossing_disorders(&self, sides: &[&str]) -> bool {
        let bridged = sides.contains(&"bridge");
        !bridged
            && sides
                .iter()
                .any(|s| self.hexsides.get(*s).is_some_and(|h| h.disorders))
    }

    /// The defender's multiplier for a unit of an arm in a hex kind ([9.6], [18]; never more
    /// than the hex's own: terrain does not add up, ruling HM7).
    pub fn defence_multiplier(&self, kind: &str, arm: Arm) -> u32 {
        self.hex(kind).map_or(1, |h| {
            if h.sheltered.is_empty() || h.sheltered.contains(&arm) {
                h.defence.max(1)
            } else {
                1
            }
        })
    }

    /// The terrain's modifier to the attacker's number ([18]): the defender's hex's
    /// `attacked` (a slope's only when attacked from below), and the attacker's slope's
    /// `attacking` when it attacks down it. Neither side's terrain counts twice: the best for
    /// the defender and the best for the attacker, added (ruling HM7).
    pub fn combat_modifier(
        &self,
        defender_hex: &str,
        from_below: bool,
        downhill: bool,
    ) -> Modifier {
        let slope = self.hex("slope");
        let own = self
            .hex(defender_hex)
            .filter(|_| defender_hex != "slope")
            .map(|h| h.attacked);
        let uphill = slope.filter(|_| from_below).map(|s| s.attacked);
        let defence = match (own, uphill) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b).unwrap_or(0),
        };
        let attack = slope.filter(|_| downhill).map_or(0, |s| s.attacking);
        defence + attack
    }
}
