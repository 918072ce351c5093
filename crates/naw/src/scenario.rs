//! The scenario model: a scenario file as written ([`ScenarioFile`], unvalidated) and the
//! validated [`Scenario`] a game is built from. The format is `docs/formats.md`.

use engine::Side;
use hexmap::{Edge, Hex, Map, Parity};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap, HashSet};

/// The most units a scenario may hold: a hex's occupancy is kept as its unit's index plus one
/// in a byte (0 for a vacant hex), so unit indices run 0..=254 (ruling I3 in `docs/rulings.md`).
/// Unit sets ([`crate::UnitSet`]) have room for 256.
pub const MAX_UNITS: usize = u8::MAX as usize;

/// The type of a unit (2.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum UnitType {
    /// Infantry.
    Infantry,
    /// Cavalry.
    Cavalry,
    /// Artillery: bombards at range 2 (8.0).
    Artillery,
}

impl UnitType {
    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            UnitType::Infantry => "infantry",
            UnitType::Cavalry => "cavalry",
            UnitType::Artillery => "artillery",
        }
    }
}

/// A reinforcement's arrival (15.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Arrival {
    /// The game-turn it arrives.
    pub turn: u8,
    /// Its entry hex.
    pub hex: Hex,
    /// The map edge of the entry hex (for delayed entry, 15.0).
    pub edge: Edge,
}

/// A unit as written in a scenario file.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnitFile {
    /// Unique id (`FR.4`).
    pub id: String,
    /// Nation id.
    pub nation: String,
    /// Designation as printed.
    pub designation: String,
    /// Unit type.
    #[serde(rename = "type")]
    pub kind: UnitType,
    /// Combat strength.
    pub strength: u16,
    /// Movement allowance.
    pub movement: u8,
    /// Army in the order of battle.
    #[serde(default)]
    pub army: String,
    /// Corps in the order of battle.
    #[serde(default)]
    pub corps: String,
    /// Set-up hex.
    #[serde(default)]
    pub hex: Option<Hex>,
    /// Reinforcement arrival.
    #[serde(default)]
    pub arrive: Option<Arrival>,
    /// Listed as destroyed: out of play, counted as eliminated (17.0).
    #[serde(default)]
    pub destroyed: bool,
}

/// A nation as written.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NationFile {
    /// Id, the prefix of unit ids.
    pub id: String,
    /// Name.
    pub name: String,
    /// The side it fights for.
    pub side: String,
    /// The army for demoralization (defaults to the side).
    #[serde(default)]
    pub army: Option<String>,
}

/// A row of the demoralization table (17.1).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoralizationFile {
    /// First and last game-turn of the row.
    pub turns: [u8; 2],
    /// Level per army.
    pub levels: BTreeMap<String, u32>,
}

/// The line of communications condition (17.5).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LocFile {
    /// The side that must trace it.
    pub side: String,
    /// The army whose losses count the cut-off units.
    pub army: String,
    /// The hex to trace to.
    pub hex: Hex,
}

/// Named exclusive-rule behaviours a scenario switches on. A file without a `[hooks]` table
/// gets the defaults of `docs/formats.md`: every behaviour off, except that a friendly unit on
/// an entry hex does not delay reinforcements.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct HooksFile {
    /// 14.62: this side has no movement phase in the scenario's first game-turn.
    #[serde(default)]
    pub no_movement_first_turn: Option<String>,
    /// 16.1: at night units may leave (but not enter) enemy zones of control.
    #[serde(default)]
    pub night_withdrawal: bool,
    /// 15.0 ruling: a friendly unit on the entry hex does not delay reinforcements.
    #[serde(default = "yes")]
    pub friendly_occupied_entry_ok: bool,
}

fn yes() -> bool {
    true
}

impl Default for HooksFile {
    /// The same values as a `[hooks]` table with no keys (`docs/formats.md`).
    fn default() -> HooksFile {
        HooksFile {
            no_movement_first_turn: None,
            night_withdrawal: false,
            friendly_occupied_entry_ok: yes(), // 15.0 ruling
        }
    }
}

/// A scenario file as written: the unvalidated form of a [`Scenario`].
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Always `grognard-scenario/1`.
    pub format: String,
    /// Identifier.
    pub id: String,
    /// Title.
    pub title: String,
    /// The rules module (`naw`).
    pub system: String,
    /// Map id or path.
    pub map: String,
    /// First game-turn.
    pub first_turn: u8,
    /// Last game-turn.
    pub last_turn: u8,
    /// Night game-turns (10.0).
    #[serde(default)]
    pub night_turns: Vec<u8>,
    /// The two sides, first player first.
    pub sides: Vec<String>,
    /// Description for players.
    #[serde(default)]
    pub description: String,
    /// Exclusive-rule hooks.
    #[serde(default)]
    pub hooks: HooksFile,
    /// Nations.
    pub nations: Vec<NationFile>,
    /// Demoralization table.
    #[serde(default)]
    pub demoralization: Vec<DemoralizationFile>,
    /// Line of communications.
    #[serde(default)]
    pub line_of_communications: Option<LocFile>,
    /// Units.
    pub units: Vec<UnitFile>,
}

/// One problem found while validating a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Problem {
    /// The file (or scenario id).
    pub file: String,
    /// The item at fault (`unit FR.4`).
    pub item: String,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}: {}", self.file, self.item, self.problem)
    }
}

/// Every problem found in a scenario.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.iter().map(|p| p.to_string()).collect::<Vec<_>>().join("\n"))]
pub struct ScenarioError(pub Vec<Problem>);

/// A validated unit definition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitDef {
    /// Unique id.
    pub id: String,
    /// Index into [`Scenario::nations`].
    pub nation: u8,
    /// Owning side.
    pub side: Side,
    /// Demoralization army index into [`Scenario::armies`].
    pub army: u8,
    /// Designation.
    pub designation: String,
    /// Type.
    pub kind: UnitType,
    /// Printed combat strength.
    pub strength: u16,
    /// Movement allowance.
    pub movement: u8,
    /// Army in the order of battle.
    pub oob_army: String,
    /// Corps in the order of battle.
    pub corps: String,
    /// How it starts.
    pub start: Start,
}

/// How a unit starts a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Start {
    /// On the map.
    Hex(Hex),
    /// As a reinforcement.
    Arrives(Arrival),
    /// Destroyed before the scenario: counted as eliminated.
    Destroyed,
}

/// A validated nation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Nation {
    /// Id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Side.
    pub side: Side,
}

/// A validated demoralization row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DemoralizationRow {
    /// First turn.
    pub from: u8,
    /// Last turn.
    pub to: u8,
    /// Level per army index.
    pub levels: Vec<u32>,
}

/// A validated line of communications rule.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineOfCommunications {
    /// Side that traces.
    pub side: Side,
    /// Army index.
    pub army: u8,
    /// Target hex.
    pub hex: Hex,
}

/// The hooks, validated. The default is that of a scenario file without `[hooks]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hooks {
    /// 14.62.
    pub no_movement_first_turn: Option<Side>,
    /// 16.1.
    pub night_withdrawal: bool,
    /// 15.0 ruling.
    pub friendly_occupied_entry_ok: bool,
}

impl Default for Hooks {
    fn default() -> Hooks {
        Hooks {
            no_movement_first_turn: None,
            night_withdrawal: false,
            friendly_occupied_entry_ok: true, // 15.0 ruling
        }
    }
}

/// A validated scenario: everything a game needs, always consistent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// Identifier.
    pub id: String,
    /// Title.
    pub title: String,
    /// Description.
    pub description: String,
    /// The map.
    pub map: Map,
    /// First game-turn.
    pub first_turn: u8,
    /// Last game-turn.
    pub last_turn: u8,
    /// Night turns.
    pub night_turns: Vec<u8>,
    /// Side names, first player first.
    pub sides: [String; 2],
    /// Nations.
    pub nations: Vec<Nation>,
    /// Demoralization armies by name, each with its side.
    pub armies: Vec<(String, Side)>,
    /// Units; a unit's index is its [`crate::UnitId`].
    pub units: Vec<UnitDef>,
    /// Demoralization table.
    pub demoralization: Vec<DemoralizationRow>,
    /// Line of communications.
    pub loc: Option<LineOfCommunications>,
    /// Exclusive-rule hooks.
    pub hooks: Hooks,
    /// A digest of the scenario and map text, for records.
    pub digest: u64,
    /// The Terrain Effects Chart laid onto the map's legend (9.0).
    pub chart: crate::tables::Chart,
    /// Terrain step costs of the map, derived from it.
    pub(crate) steps: crate::movement::StepTable,
    /// The side of the unit in a hex by its occupancy value (0 for none: `u8::MAX`; unit `i`
    /// at `i + 1`), for the movement search.
    pub(crate) occupant_side: Vec<u8>,
    /// The side of each unit, by index: a compact copy of the units' `side` for the queries
    /// asked of every unit in turn.
    pub(crate) unit_sides: Vec<Side>,
    /// The road hexes of each map edge (in the order of [`EDGES`]), in map order: where a
    /// delayed reinforcement may enter (15.0).
    pub(crate) edge_roads: [Vec<Hex>; 4],
}

/// The map edges, in the order of [`Scenario::edge_roads`].
const EDGES: [Edge; 4] = [Edge::North, Edge::South, Edge::East, Edge::West];

impl Scenario {
    /// The road hexes of a map edge (15.0), in map order.
    pub(crate) fn edge_roads(&self, e: Edge) -> &[Hex] {
        let i = EDGES.iter().position(|&x| x == e).unwrap_or(0);
        &self.edge_roads[i]
    }
}

impl Scenario {
    /// Parses and validates scenario text. `file` names it in errors; `resolve_map` finds the
    /// map named by the scenario (a shipped id or a path) and returns its text.
    pub fn from_toml(
        text: &str,
        file: &str,
        resolve_map: &dyn Fn(&str) -> Result<String, String>,
    ) -> Result<Scenario, ScenarioError> {
        let sf: ScenarioFile = toml::from_str(text).map_err(|e| {
            ScenarioError(vec![Problem {
                file: file.to_string(),
                item: "syntax".into(),
                problem: e.to_string().trim().replace('\n', " "),
            }])
        })?;
        let map_text = resolve_map(&sf.map).map_err(|e| {
            ScenarioError(vec![Problem {
                file: file.into(),
                item: "map".into(),
                problem: e,
            }])
        })?;
        let map = Map::from_toml(&map_text).map_err(|e| {
            ScenarioError(vec![Problem {
                file: file.into(),
                item: format!("map '{}'", sf.map),
                problem: e.to_string(),
            }])
        })?;
        let mut bytes = text.as_bytes().to_vec();
        bytes.extend_from_slice(map_text.as_bytes());
        sf.validate(file, map, engine::hash_bytes(&bytes))
    }

    /// The id of a unit.
    pub fn unit(&self, u: crate::UnitId) -> &UnitDef {
        &self.units[u.0 as usize]
    }

    /// Finds a unit by id (case-insensitive).
    pub fn unit_by_id(&self, id: &str) -> Option<crate::UnitId> {
        self.units
            .iter()
            .position(|d| d.id.eq_ignore_ascii_case(id))
            .map(|i| crate::UnitId(i as u8))
    }

    /// True for a night game-turn (10.0).
    pub fn is_night(&self, turn: u8) -> bool {
        self.night_turns.contains(&turn)
    }

    /// The demoralization level of an army on a turn (17.1), if the scenario has one.
    pub fn demoralization_level(&self, army: u8, turn: u8) -> Option<u32> {
        self.demoralization
            .iter()
            .find(|r| r.from <= turn && turn <= r.to)
            .map(|r| r.levels[army as usize])
    }
}

const FORMAT: &str = "grognard-scenario/1";

impl ScenarioFile {
    /// Validates the file against its map, reporting every problem.
    pub fn validate(&self, file: &str, map: Map, digest: u64) -> Result<Scenario, ScenarioError> {
        // 9.0: the map's terrains and hexside features must all be on the Terrain Effects
        // Chart, and its grid the Napoleon at War one (RULES-NOTES: even rows shifted). Nothing
        // else can be checked against a map the rules cannot read.
        let map_problem = |problem: String| {
            ScenarioError(vec![Problem {
                file: file.to_string(),
                item: format!("map '{}'", map.id),
                problem,
            }])
        };
        let chart = crate::tables::Chart::new(map.legend()).map_err(map_problem)?;
        if map.parity() != Parity::Even {
            return Err(map_problem(format!(
                "its {} rows are shifted; Napoleon at War plays on maps whose even rows are \
                 shifted (parity = \"even\")",
                map.parity().name()
            )));
        }
        let mut probs = Vec::new();
        let mut p = |item: String, problem: String| {
            probs.push(Problem {
                file: file.to_string(),
                item,
                problem,
            })
        };
        if self.format != FORMAT {
            p(
                "format".into(),
                format!("expected '{FORMAT}', found '{}'", self.format),
            );
        }
        if self.system != "naw" {
            p(
                "system".into(),
                format!(
                    "this module plays 'naw', the file asks for '{}'",
                    self.system
                ),
            );
        }
        if self.sides.len() != 2 || self.sides[0] == self.sides[1] {
            p(
                "sides".into(),
                "exactly two different sides are needed".into(),
            );
        }
        let side_of = |name: &str| {
            self.sides
                .iter()
                .position(|s| s == name)
                .map(|i| Side(i as u8))
        };
        if self.first_turn == 0 || self.first_turn > self.last_turn {
            p(
                "turns".into(),
                format!(
                    "first_turn {} and last_turn {} do not make a game",
                    self.first_turn, self.last_turn
                ),
            );
        }
        // nations and armies
        let mut nations = Vec::new();
        let mut armies: Vec<(String, Side)> = Vec::new();
        let mut nation_army = Vec::new();
        for n in &self.nations {
            let side = match side_of(&n.side) {
                Some(s) => s,
                None => {
                    p(
                        format!("nation {}", n.id),
                        format!("side '{}' is not one of the sides", n.side),
                    );
                    Side(0)
                }
            };
            if nations.iter().any(|x: &Nation| x.id == n.id) {
                p(format!("nation {}", n.id), "declared twice".into());
            }
            let army = n.army.clone().unwrap_or_else(|| n.side.clone());
            let ai = match armies.iter().position(|(a, _)| *a == army) {
                Some(i) => {
                    if armies[i].1 != side {
                        p(
                            format!("nation {}", n.id),
                            format!("army '{army}' has nations of both sides"),
                        );
                    }
                    i
                }
                None => {
                    armies.push((army, side));
                    armies.len() - 1
                }
            };
            nation_army.push(ai as u8);
            nations.push(Nation {
                id: n.id.clone(),
                name: n.name.clone(),
                side,
            });
        }
        let army_index = |name: &str| armies.iter().position(|(a, _)| a == name).map(|i| i as u8);
        // units
        if self.units.len() > MAX_UNITS {
            p(
                "units".into(),
                format!(
                    "{} units; at most {MAX_UNITS} are supported (a hex's occupancy is a unit's index plus one in a byte)",
                    self.units.len()
                ),
            );
        }
        let mut units = Vec::new();
        let mut ids = HashSet::new();
        let mut placed: HashMap<Hex, String> = HashMap::new();
        for u in &self.units {
            let item = format!("unit {}", u.id);
            if u.id.is_empty()
                || !u
                    .id
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "./-_".contains(c))
            {
                p(
                    item.clone(),
                    "ids use letters, digits and . / - _ only".into(),
                );
            }
            if !ids.insert(u.id.to_ascii_lowercase()) {
                p(item.clone(), "the id is used twice".into());
            }
            let ni = match nations.iter().position(|n| n.id == u.nation) {
                Some(i) => i,
                None => {
                    p(
                        item.clone(),
                        format!("nation '{}' is not declared", u.nation),
                    );
                    continue;
                }
            };
            if u.strength == 0 {
                p(item.clone(), "strength must be at least 1".into());
            }
            if u.movement == 0 || u.movement > 30 {
                p(
                    item.clone(),
                    format!("movement allowance {} is not within 1..30", u.movement),
                );
            }
            let given = u.hex.is_some() as u8 + u.arrive.is_some() as u8 + u.destroyed as u8;
            let start = if given != 1 {
                p(
                    item.clone(),
                    "give exactly one of hex, arrive or destroyed".into(),
                );
                Start::Destroyed
            } else if let Some(h) = u.hex {
                if !map.contains(h) {
                    p(item.clone(), format!("set-up hex {h} is off the map"));
                } else if chart.road_only(map.terrain(h)) {
                    let name = &map.terrain_kind(h).id;
                    p(
                        item.clone(),
                        format!("set-up hex {h} is {name}, where no unit may stand (9.0)"),
                    );
                }
                if let Some(other) = placed.insert(h, u.id.clone()) {
                    p(
                        item.clone(),
                        format!("set-up hex {h} already holds {other} (5.32)"),
                    );
                }
                Start::Hex(h)
            } else if let Some(a) = u.arrive {
                if !map.contains(a.hex) {
                    p(item.clone(), format!("entry hex {} is off the map", a.hex));
                } else {
                    if !map.edges_of(a.hex).contains(&a.edge) {
                        p(
                            item.clone(),
                            format!("entry hex {} is not on the {:?} map edge", a.hex, a.edge),
                        );
                    }
                    if !map.touches(a.hex, chart.road) {
                        p(
                            item.clone(),
                            format!("entry hex {} is not a road hex (15.0)", a.hex),
                        );
                    }
                }
                if a.turn < self.first_turn || a.turn > self.last_turn {
                    p(
                        item.clone(),
                        format!("arrives on turn {}, outside the scenario's turns", a.turn),
                    );
                }
                Start::Arrives(a)
            } else {
                Start::Destroyed
            };
            units.push(UnitDef {
                id: u.id.clone(),
                nation: ni as u8,
                side: nations[ni].side,
                army: nation_army[ni],
                designation: u.designation.clone(),
                kind: u.kind,
                strength: u.strength,
                movement: u.movement,
                oob_army: u.army.clone(),
                corps: u.corps.clone(),
                start,
            });
        }
        // demoralization table
        let mut demoralization = Vec::new();
        for (i, r) in self.demoralization.iter().enumerate() {
            let item = format!("demoralization row {}", i + 1);
            if r.turns[0] > r.turns[1] {
                p(item.clone(), "the turns run backwards".into());
            }
            let mut levels = vec![0; armies.len()];
            for (a, &l) in &r.levels {
                match army_index(a) {
                    Some(ai) => levels[ai as usize] = l,
                    None => p(
                        item.clone(),
                        format!("army '{a}' is not an army of any nation"),
                    ),
                }
            }
            for (ai, (a, _)) in armies.iter().enumerate() {
                if !r.levels.contains_key(a) {
                    p(item.clone(), format!("no level for army '{a}'"));
                }
                let _ = ai;
            }
            demoralization.push(DemoralizationRow {
                from: r.turns[0],
                to: r.turns[1],
                levels,
            });
        }
        if !demoralization.is_empty() {
            for t in self.first_turn..=self.last_turn {
                let n = demoralization
                    .iter()
                    .filter(|r| r.from <= t && t <= r.to)
                    .count();
                if n != 1 {
                    p(
                        "demoralization".into(),
                        format!("turn {t} is covered by {n} rows; every turn needs exactly one"),
                    );
                }
            }
        }
        let loc = self.line_of_communications.as_ref().and_then(|l| {
            let side = side_of(&l.side);
            let army = army_index(&l.army);
            if side.is_none() {
                p(
                    "line_of_communications".into(),
                    format!("side '{}' is not a side", l.side),
                );
            }
            if army.is_none() {
                p(
                    "line_of_communications".into(),
                    format!("army '{}' is not an army", l.army),
                );
            }
            if !map.contains(l.hex) {
                p(
                    "line_of_communications".into(),
                    format!("hex {} is off the map", l.hex),
                );
            }
            Some(LineOfCommunications {
                side: side?,
                army: army?,
                hex: l.hex,
            })
        });
        let hooks = Hooks {
            no_movement_first_turn: self.hooks.no_movement_first_turn.as_ref().and_then(|s| {
                let r = side_of(s);
                if r.is_none() {
                    p(
                        "hooks.no_movement_first_turn".into(),
                        format!("'{s}' is not a side"),
                    );
                }
                r
            }),
            night_withdrawal: self.hooks.night_withdrawal,
            friendly_occupied_entry_ok: self.hooks.friendly_occupied_entry_ok,
        };
        if !probs.is_empty() {
            return Err(ScenarioError(probs));
        }
        let steps = crate::movement::StepTable::new(&map, &chart);
        let occupant_side = std::iter::once(u8::MAX)
            .chain(units.iter().map(|u| u.side.0))
            .chain(std::iter::repeat(u8::MAX))
            .take(MAX_UNITS + 1)
            .collect();
        let edge_roads = EDGES.map(|e| {
            map.edge_hexes(e)
                .into_iter()
                .filter(|&h| map.touches(h, chart.road))
                .collect()
        });
        let unit_sides = units.iter().map(|u| u.side).collect();
        Ok(Scenario {
            chart,
            steps,
            occupant_side,
            unit_sides,
            edge_roads,
            id: self.id.clone(),
            title: self.title.clone(),
            description: self.description.clone(),
            map,
            first_turn: self.first_turn,
            last_turn: self.last_turn,
            night_turns: self.night_turns.clone(),
            sides: [self.sides[0].clone(), self.sides[1].clone()],
            nations,
            armies,
            units,
            demoralization,
            loc,
            hooks,
            digest,
        })
    }
}

#[cfg(test)]
mod legend_tests {
    use super::*;

    const SCENARIO: &str = r#"format = "grognard-scenario/1"
id = "tiny"
title = "Tiny"
system = "naw"
map = "m"
first_turn = 1
last_turn = 2
sides = ["Blue", "Red"]
[[nations]]
id = "B"
name = "Blue"
side = "Blue"
[[nations]]
id = "R"
name = "Red"
side = "Red"
[[units]]
id = "B.1"
nation = "B"
designation = "1"
type = "infantry"
strength = 6
movement = 4
hex = "0101"
"#;

    fn load(map: &str) -> Result<Scenario, ScenarioError> {
        Scenario::from_toml(SCENARIO, "tiny.toml", &|_| Ok(map.to_string()))
    }

    const LEGEND: &str = r##"format = "grognard-map/1"
id = "m"
width = 2
height = 2
terrain = ["..", ".x"]
[[legend.terrain]]
id = "clear"
name = "Open"
code = "."
fill = "#eee"
[[legend.terrain]]
id = "TERRAIN"
name = "X"
code = "x"
fill = "#444"
[[legend.features]]
id = "river"
name = "River"
stroke = "#00f"
width = 0.1
"##;

    #[test]
    fn case_9_0_a_map_with_terrain_off_the_chart_is_refused() {
        let e = load(&LEGEND.replace("TERRAIN", "fortress"))
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("map 'm'") && e.contains("terrain 'fortress'") && e.contains("9.0"),
            "{e}"
        );
        let map = LEGEND
            .replace("TERRAIN", "town")
            .replace("id = \"river\"", "id = \"border\"");
        let e = load(&map).unwrap_err().to_string();
        assert!(e.contains("hexside feature 'border'"), "{e}");
    }

    #[test]
    fn case_9_0_known_ids_in_any_order_and_code_are_read_by_id() {
        // `x` is town here (index 1, where the standard legend has forest): 9.0 by id.
        let sc = load(&LEGEND.replace("TERRAIN", "town")).unwrap();
        let t = sc.map.terrain("0202".parse().unwrap());
        assert!(sc.chart.doubles_defender(t) && sc.chart.blocks_sight(t));
        assert_eq!(sc.chart.entry_cost_half(t), Some(2));
        assert!(sc.chart.road.is_empty() && !sc.chart.river.is_empty());
        // a legend without bridges: a river is never bridged, other hexsides never rivers
        assert!(sc.chart.unbridged_river(sc.chart.river));
        assert!(!sc.chart.unbridged_river(hexmap::Hexside::NONE));
    }

    #[test]
    fn a_map_with_odd_rows_shifted_is_refused() {
        let map = "format = \"grognard-map/1\"\nid = \"m\"\nwidth = 2\nheight = 2\n\
                   parity = \"odd\"\nterrain = [\"..\", \"..\"]\n";
        let e = load(map).unwrap_err().to_string();
        assert!(e.contains("odd rows are shifted"), "{e}");
        let even = map.replace("odd", "even");
        assert!(load(&even).is_ok());
    }
}
