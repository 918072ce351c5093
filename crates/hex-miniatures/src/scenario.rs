//! A scenario of the hex-miniatures rules as data the rules read: the table (a `hexmap` map), the
//! two armies by battalion, cavalry regiment and battery with their generals and commands, the
//! turn span and the light, the weather, and the victory conditions, validated whole
//! ([`Scenario::from_toml`]) with every problem reported, one a line.
//!
//! The shipped scenario is Möckern, 16 October 1813 (`moeckern-1813`): three files of
//! `crates/scenarios`, read here through `include_str!` as Leipzig 1813 reads its map (the
//! `scenarios` crate depends on a rules crate, so no rules crate depends on it):
//! - `data/moeckern-scenario.toml`: the scenario proper (sides, time, weather, the legend's
//!   terrain onto the terrain effects table [18], the order of battle's types onto the unit
//!   kinds of [2.4], formations at the start, senior generals, entry hexes, the French set-up,
//!   the objectives);
//! - `maps/moeckern.toml`: the generated table;
//! - `data/moeckern-oob.toml`: the battalion order of battle.
//!
//! Its choices are rulings HM40... (`docs/rulings.md`), explained in `docs/moeckern-map.md`.
//!
//! ```
//! use hex_miniatures::scenario::{Scenario, Start};
//! use hex_miniatures::army::Kind;
//!
//! let s = Scenario::moeckern();
//! assert_eq!((s.turns(), s.clock(1).as_str(), s.clock(36).as_str()), (36, "12:00", "17:50"));
//! // The 2nd Marine holds the walled village; the walled hexes are fortified hexes of [18].
//! let u = &s.units[s.unit_index("FR-21-2M-1").unwrap()];
//! assert_eq!(u.kind, Kind::Grenadier);
//! let Start::SetUp(h) = u.start else { panic!() };
//! assert_eq!(s.hex_kind(h), "fortified");
//! // Horn's brigade comes in at Lindenthal at 14:30, the 16th turn.
//! let horn = &s.units[s.unit_index("PR-7-L-1").unwrap()];
//! assert!(matches!(&horn.start, Start::Arrives(a) if a.turn == 16 && a.at == "Lindenthal"));
//! ```

use crate::army::{Arm, Kind};
use crate::data::Tables;
use crate::terrain::{TerrainChart, HEXSIDE_KINDS, HEX_KINDS};
use crate::victory::{verdict, Margin, Verdict};
use engine::Side;
use hexmap::{Dir, Edge, Hex, Map};
use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt;

/// The scenario file's format tag.
pub const FORMAT: &str = "grognard-hex-miniatures-scenario/1";

/// The shipped Möckern scenario file.
pub const MOECKERN_TOML: &str = include_str!("../../scenarios/data/moeckern-scenario.toml");
/// The shipped Möckern table.
pub const MOECKERN_MAP_TOML: &str = include_str!("../../scenarios/maps/moeckern.toml");
/// The shipped Möckern order of battle.
pub const MOECKERN_OOB_TOML: &str = include_str!("../../scenarios/data/moeckern-oob.toml");

/// What the legend's hexside features may stand for, beyond the [18] hexside kinds
/// ([`HEXSIDE_KINDS`]): a road ([3.1.6], [8.4.2]), a trail ([8.4.3]), a slope ([8.4.6], [18])
/// or nothing of its own (`none`).
pub const FEATURE_MEANINGS: [&str; 4] = ["road", "trail", "slope", "none"];

/// Why a scenario was refused: every problem found, one a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct ScenarioError(pub Vec<String>);

/// A unit's formation ([8.1]; a battery limbered to move or unlimbered to fire, [9.1.7]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Formation {
    /// Infantry or cavalry in line.
    Line,
    /// Infantry in column.
    Column,
    /// Infantry in square ([8.1.1], [9.3]).
    Square,
    /// A battery limbered: it may move, not fire ([9.1.7]).
    Limbered,
    /// A battery unlimbered: it may fire, not move ([9.1.7]).
    Unlimbered,
}

impl Formation {
    /// Every formation.
    pub const ALL: [Formation; 5] = [
        Formation::Line,
        Formation::Column,
        Formation::Square,
        Formation::Limbered,
        Formation::Unlimbered,
    ];

    /// Its data name (`line`, `column`, `square`, `limbered`, `unlimbered`).
    pub fn id(self) -> &'static str {
        match self {
            Formation::Line => "line",
            Formation::Column => "column",
            Formation::Square => "square",
            Formation::Limbered => "limbered",
            Formation::Unlimbered => "unlimbered",
        }
    }

    /// The formation of a data name.
    pub fn from_id(id: &str) -> Option<Formation> {
        Formation::ALL.into_iter().find(|f| f.id() == id)
    }

    /// Whether a unit of an arm may take it: line, column and square for infantry ([8.1],
    /// [8.1.1]), line for cavalry (HM25: cavalry is always in line), limbered and unlimbered for
    /// batteries ([9.1.7]).
    pub fn fits(self, arm: Arm) -> bool {
        match self {
            Formation::Line => matches!(arm, Arm::Infantry | Arm::Cavalry),
            Formation::Column | Formation::Square => arm == Arm::Infantry,
            Formation::Limbered | Formation::Unlimbered => arm == Arm::Artillery,
        }
    }
}

impl fmt::Display for Formation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One army.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideInfo {
    /// Its id in the data (`prussian`).
    pub id: String,
    /// Its name for people and the seat's name (`Prussians`).
    pub name: String,
    /// The national army table [16] its units read (`Prussian`).
    pub nation: String,
    /// The table edge behind it, where its routs run ([8.8.3]) (ruling HM40).
    pub rear: Edge,
}

/// Where a unit or a general begins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// On the table at the start, in this hex.
    SetUp(Hex),
    /// Comes on later over a table edge.
    Arrives(Arrival),
}

impl Start {
    /// The turn it is on the table or comes on (1 for a set-up).
    pub fn turn(&self) -> u32 {
        match self {
            Start::SetUp(_) => 1,
            Start::Arrives(a) => a.turn,
        }
    }
}

/// An arrival over a table edge.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrival {
    /// The turn it comes on (1 is the first).
    pub turn: u32,
    /// The edge it comes over.
    pub edge: Edge,
    /// The road or place it comes by, as the order of battle names it.
    pub at: String,
    /// The edge hexes it may enter by, in order of preference (ruling HM46).
    pub hexes: Vec<Hex>,
}

/// A command of the order of battle: a corps, a division or a brigade.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Command {
    /// Its id (`PR-7`).
    pub id: String,
    /// Its name (`7th Brigade`).
    pub name: String,
    /// Its army.
    pub side: Side,
    /// The command it belongs to (index into [`Scenario::commands`]); `None` for a corps.
    pub parent: Option<usize>,
    /// Its commander (index into [`Scenario::generals`]).
    pub commander: usize,
    /// Its initial orders at the start of the battle ([7.1.1]; HM54): hold, free, or advance
    /// on a place of the map. A command the scenario gives none is free.
    pub order: crate::setup::Standing,
}

/// A general ([2.4.6]): no fighting value; he lends his bonus to the troops of his hex ([6.3],
/// [9.2]) and sends orders ([7.1.2]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct General {
    /// Its id (`yorck`).
    pub id: String,
    /// His name.
    pub name: String,
    /// His army.
    pub side: Side,
    /// The command he belongs to (index into [`Scenario::commands`]).
    pub command: usize,
    /// A senior commander: the larger bonus ([9.2]: "Napoleon or other key commanders",
    /// ruling HM45).
    pub senior: bool,
    /// Where he begins.
    pub start: Start,
    /// What befell him on the day (`wounded`, `killed`...; empty if nothing), for the record.
    pub fate: String,
}

/// A fighting unit: a battalion, a cavalry regiment or a battery.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// Its id (`FR-21-2M-1`).
    pub id: String,
    /// Its name.
    pub name: String,
    /// Its army.
    pub side: Side,
    /// Its command (index into [`Scenario::commands`]).
    pub command: usize,
    /// Its kind of the rules ([2.4], ruling HM43).
    pub kind: Kind,
    /// The order of battle's own type (`marine`, `uhlan`, `foot-12pdr`).
    pub type_: String,
    /// Its base units at the start ([2.4.3.1], [2.4.4], [2.4.5]).
    pub base_units: u8,
    /// Its men (the order of battle's estimate).
    pub men: u32,
    /// Its squadrons (cavalry).
    pub squadrons: Option<u8>,
    /// Its guns (artillery).
    pub guns: Option<u8>,
    /// Its formation at the start (ruling HM44).
    pub formation: Formation,
    /// Where it begins.
    pub start: Start,
    /// `stated`, `recalled` or `decided` (the order of battle's evidence).
    pub evidence: String,
}

/// The span of play and the light ([2.5], [24]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Time {
    /// The first turn's clock, in minutes of the day (12:00 is 720).
    pub start: u32,
    /// Minutes a turn ([2.1.1]: 10).
    pub turn_minutes: u32,
    /// The number of turns.
    pub turns: u32,
    /// The minute night falls ([24]); the light shortens over the hour before it.
    pub night: u32,
    /// The minute of dawn, for a battle that starts before light ([24]; HM53): night before
    /// it, the light growing over the hour after it. `None`: the battle starts in daylight.
    pub dawn: Option<u32>,
}

/// The weather at the start ([11], [24]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WeatherStart {
    /// Clear all day: no weather counter.
    Clear,
    /// A drifting weather counter on a track of the tables' `[weather]`, at a position (1 is
    /// the worst).
    Track {
        /// Which track.
        track: WeatherTrack,
        /// The counter's first position.
        position: u8,
    },
}

/// The weather tracks of [24].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeatherTrack {
    /// Fog: its die is modified by the time of day.
    Fog,
    /// Snow.
    Snow,
    /// A thunderstorm: drifts as snow does ([24]).
    Storm,
}

/// An objective: hexes whose possession decides who holds the field ([14], ruling HM48).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// Its name.
    pub name: String,
    /// Its hexes.
    pub hexes: Vec<Hex>,
    /// The side holding it at the start.
    pub held: Side,
}

/// What the map's hexside features stand for in the rules (ruling HM42).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SideTerrain {
    /// The [18] hexside kinds it carries (`river`, `bridge`, `stream`), as the terrain chart
    /// reads them.
    pub river: bool,
    /// A bridge.
    pub bridge: bool,
    /// A stream.
    pub stream: bool,
    /// A road ([3.1.6], [8.4.2]).
    pub road: bool,
    /// A trail ([8.4.3]).
    pub trail: bool,
    /// A slope ([8.4.6]).
    pub slope: bool,
}

impl SideTerrain {
    /// The [18] hexside kinds, for [`TerrainChart::entry_cost`] and
    /// [`TerrainChart::crossing_disorders`].
    pub fn kinds(&self) -> Vec<&'static str> {
        let mut v = Vec::new();
        if self.river {
            v.push("river");
        }
        if self.bridge {
            v.push("bridge");
        }
        if self.stream {
            v.push("stream");
        }
        v
    }
}

/// A validated scenario.
#[derive(Clone, Debug)]
pub struct Scenario {
    /// Its id (`moeckern-1813`).
    pub id: String,
    /// Its title.
    pub title: String,
    /// A few lines for the player.
    pub description: String,
    /// The table.
    pub map: Map,
    /// The two armies, in the order they play: the first takes the attacking stage first
    /// ([5.1.2]); seat `i` is `sides[i]`.
    pub sides: [SideInfo; 2],
    /// The commands of the order of battle.
    pub commands: Vec<Command>,
    /// The generals.
    pub generals: Vec<General>,
    /// The fighting units.
    pub units: Vec<Unit>,
    /// The span of play and the night.
    pub time: Time,
    /// The weather at the start.
    pub weather: WeatherStart,
    /// The objectives.
    pub objectives: Vec<Objective>,
    /// The legend's terrain ids onto the [18] hex kinds.
    pub hex_terrain: BTreeMap<String, String>,
    /// The legend's hexside features onto what the rules read.
    pub hexside_terrain: BTreeMap<String, String>,
    /// The hexes below the terrace and the heights: those a slope hexside climbs out of
    /// (ruling HM49).
    low: BTreeSet<Hex>,
    /// XXH3 over the scenario, map and order of battle texts: joins a game's record.
    pub digest: u64,
}

// ---- The files ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    id: String,
    title: String,
    map: String,
    description: String,
    side: Vec<SideFile>,
    time: TimeFile,
    weather: WeatherFile,
    terrain: TerrainFile,
    kinds: BTreeMap<String, String>,
    formation: FormationFile,
    generals: GeneralsFile,
    entries: BTreeMap<String, Vec<String>>,
    #[serde(rename = "set-up")]
    set_up: BTreeMap<String, String>,
    objective: Vec<ObjectiveFile>,
    /// The initial orders ([7.1.1]; HM54): command id = `hold`, `free` or `advance PLACE`.
    #[serde(default)]
    orders: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SideFile {
    id: String,
    name: String,
    nation: String,
    rear: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TimeFile {
    start: String,
    end: String,
    turn_minutes: u32,
    night: String,
    /// Dawn, for a battle that starts before light (HM53).
    #[serde(default)]
    dawn: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeatherFile {
    kind: String,
    #[serde(default)]
    track: Option<String>,
    #[serde(default)]
    position: Option<u8>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    hexes: BTreeMap<String, String>,
    hexsides: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormationFile {
    #[serde(rename = "set-up")]
    set_up: BTreeMap<String, String>,
    arriving: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneralsFile {
    senior: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ObjectiveFile {
    name: String,
    hexes: Vec<String>,
    held: String,
}

#[derive(Deserialize)]
struct Oob {
    battle: OobBattle,
    side: Vec<OobSide>,
    formation: Vec<OobFormation>,
    general: Vec<OobGeneral>,
    unit: Vec<OobUnit>,
}

#[derive(Deserialize)]
struct OobBattle {
    start: String,
    end: String,
    turn_minutes: u32,
    map: String,
}

#[derive(Deserialize)]
struct OobSide {
    id: String,
}

#[derive(Deserialize)]
struct OobFormation {
    id: String,
    side: String,
    name: String,
    parent: String,
    commander: String,
}

#[derive(Deserialize)]
struct OobGeneral {
    id: String,
    side: String,
    name: String,
    formation: String,
    arrives: String,
    entry: String,
    at: String,
    #[serde(default)]
    fate: String,
}

#[derive(Deserialize)]
struct OobUnit {
    id: String,
    side: String,
    formation: String,
    name: String,
    arm: String,
    #[serde(rename = "type")]
    type_: String,
    quality: String,
    men: u32,
    bases: u8,
    #[serde(default)]
    squadrons: Option<u8>,
    #[serde(default)]
    guns: Option<u8>,
    arrives: String,
    entry: String,
    at: String,
    evidence: String,
}

/// A clock `HH:MM` as minutes of the day.
pub fn parse_clock(s: &str) -> Result<u32, String> {
    let bad = || format!("'{s}' is not a time HH:MM");
    let (h, m) = s.split_once(':').ok_or_else(bad)?;
    if h.len() != 2 || m.len() != 2 {
        return Err(bad());
    }
    let h: u32 = h.parse().map_err(|_| bad())?;
    let m: u32 = m.parse().map_err(|_| bad())?;
    if h > 23 || m > 59 {
        return Err(bad());
    }
    Ok(h * 60 + m)
}

/// Minutes of the day as `HH:MM`.
pub fn format_clock(minutes: u32) -> String {
    format!("{:02}:{:02}", (minutes / 60) % 24, minutes % 60)
}

fn parse_edge(s: &str) -> Option<Edge> {
    match s {
        "north" => Some(Edge::North),
        "south" => Some(Edge::South),
        "east" => Some(Edge::East),
        "west" => Some(Edge::West),
        _ => None,
    }
}

fn arm_of(s: &str) -> Option<Arm> {
    match s {
        "infantry" => Some(Arm::Infantry),
        "cavalry" => Some(Arm::Cavalry),
        "artillery" => Some(Arm::Artillery),
        _ => None,
    }
}

impl Scenario {
    /// The shipped Möckern scenario (`moeckern-1813`) under the shipped tables.
    pub fn moeckern() -> Scenario {
        Scenario::from_toml(
            MOECKERN_TOML,
            MOECKERN_MAP_TOML,
            MOECKERN_OOB_TOML,
            &Tables::shipped(),
        )
        .expect("the shipped Möckern scenario is valid")
    }

    /// Reads and validates a scenario from its file, its map and its order of battle, against
    /// the rules' tables (every unit's kind in its nation's army table, every terrain kind in
    /// the terrain chart, every set-up hex one its unit may hold). Every problem is reported,
    /// one a line.
    pub fn from_toml(
        text: &str,
        map_text: &str,
        oob_text: &str,
        tables: &Tables,
    ) -> Result<Scenario, ScenarioError> {
        let one = |s: String| ScenarioError(vec![s]);
        let f: File = toml::from_str(text).map_err(|e| one(format!("scenario: {e}")))?;
        let map = Map::from_toml(map_text).map_err(|e| one(format!("scenario map: {e}")))?;
        let oob: Oob =
            toml::from_str(oob_text).map_err(|e| one(format!("order of battle: {e}")))?;
        let mut r = Reader {
            f: &f,
            map: &map,
            oob: &oob,
            tables,
            errs: Vec::new(),
        };
        r.header();
        let sides = r.sides();
        let time = r.time();
        let weather = r.weather();
        r.legend();
        let formations = r.formations();
        let entries = r.entries();
        let commands = r.commands(&sides);
        let ctx = Ctx {
            sides: &sides,
            time,
            entries: &entries,
        };
        let generals = r.generals(&ctx);
        let units = r.units(&ctx, &commands, &formations);
        r.set_up(&units);
        let objectives = r.objectives(&sides);
        let Reader { errs, .. } = r;
        if !errs.is_empty() {
            return Err(ScenarioError(errs));
        }
        let sides: [SideInfo; 2] = sides
            .try_into()
            .map_err(|_| one("a scenario has two sides".into()))?;
        let mut bytes = Vec::new();
        for t in [text, map_text, oob_text] {
            bytes.extend_from_slice(&(t.len() as u64).to_le_bytes());
            bytes.extend_from_slice(t.as_bytes());
        }
        let mut s = Scenario {
            id: f.id,
            title: f.title,
            description: f.description,
            map,
            sides,
            commands,
            generals,
            units,
            time,
            weather,
            objectives,
            hex_terrain: f.terrain.hexes,
            hexside_terrain: f.terrain.hexsides,
            low: BTreeSet::new(),
            digest: engine::hash_bytes(&bytes),
        };
        s.low = s.low_ground();
        Ok(s)
    }

    // ---- Time and light ----

    /// The number of turns.
    pub fn turns(&self) -> u32 {
        self.time.turns
    }

    /// The minute of the day a turn (1-based) begins.
    pub fn turn_start(&self, turn: u32) -> u32 {
        self.time.start + turn.saturating_sub(1) * self.time.turn_minutes
    }

    /// A turn's clock, `HH:MM`.
    pub fn clock(&self, turn: u32) -> String {
        format_clock(self.turn_start(turn))
    }

    /// Whether a turn falls at night: no combat ([11.2]); before dawn too (HM53).
    pub fn is_night(&self, turn: u32) -> bool {
        let t = self.turn_start(turn);
        t >= self.time.night || self.time.dawn.is_some_and(|d| t < d)
    }

    /// The visible range the light allows in a turn ([24]): `None` (unlimited, subject to
    /// terrain) until the hour before night, then 6 hexes down to 1, and 0 at night. A turn
    /// reads the light at its start (ruling HM41).
    pub fn light(&self, turn: u32, tables: &Tables) -> Option<u8> {
        let t = self.turn_start(turn);
        tables.weather.light_at(t, self.time.dawn, self.time.night)
    }

    // ---- Terrain ----

    /// The [18] kind of a hex (`clear`, `forest`, `fortified`...; ruling HM42).
    pub fn hex_kind(&self, h: Hex) -> &str {
        self.hex_terrain
            .get(&self.map.terrain_kind(h).id)
            .map_or("clear", String::as_str)
    }

    /// What the hexside between two adjacent hexes carries, in the rules' terms (nothing for
    /// hexes that are not adjacent).
    pub fn hexside(&self, a: Hex, b: Hex) -> SideTerrain {
        let sides = self.map.hexside_between(a, b);
        let mut t = SideTerrain::default();
        for id in self.map.legend().feature_ids(sides) {
            match self.hexside_terrain.get(id).map(String::as_str) {
                Some("river") => t.river = true,
                Some("bridge") => t.bridge = true,
                Some("stream") => t.stream = true,
                Some("road") => t.road = true,
                Some("trail") => t.trail = true,
                Some("slope") => t.slope = true,
                _ => {}
            }
        }
        t
    }

    /// The cost in half hexes of a step from `from` into the adjacent `to` ([18], [3.1.6.1],
    /// [8.4.2]-[8.4.4], [8.4.6]): the terrain chart's, along a road half a hex, along a trail
    /// never more than a clear hex ([8.4.3]), a hex more out of a slope hex down a slope
    /// hexside (HM51); `None` where the step is prohibited (a river without a
    /// bridge, a lake, off the table).
    pub fn step_cost(&self, chart: &TerrainChart, from: Hex, to: Hex) -> Option<u32> {
        if !self.map.contains(to) || self.map.direction(from, to).is_none() {
            return None;
        }
        let side = self.hexside(from, to);
        let kinds = side.kinds();
        let cost = chart.entry_cost(self.hex_kind(to), side.road, &kinds)?;
        if side.trail {
            return Some(cost.min(2));
        }
        // [8.4.6]: out of a slope hex down a slope hexside, a movement point more (HM51)
        let slope_hex = |h: Hex| self.map.is_slope_hex(h) || self.hex_kind(h) == "slope";
        let down = side.slope && !side.road && slope_hex(from) && !slope_hex(to);
        Some(if down { cost + 2 } else { cost })
    }

    /// True when the step from `from` into the adjacent `to` climbs a slope hexside: `to` is
    /// the top ([18] Slope, [8.4.6]; ruling HM49).
    pub fn climbs(&self, from: Hex, to: Hex) -> bool {
        self.hexside(from, to).slope && self.above(to, from)
    }

    /// True when the step from `from` into the adjacent `to` goes down a slope hexside.
    pub fn descends(&self, from: Hex, to: Hex) -> bool {
        self.hexside(from, to).slope && self.above(from, to)
    }

    /// Of two hexes either side of a slope hexside, whether `a` is the higher: the one out of
    /// the low ground below the terrace (the meadows' side); else the slope hex against one
    /// that is not (the heights' face over the plain); else the one with more slope hexes
    /// about it (the foot of the heights between two hexes of the plain).
    fn above(&self, a: Hex, b: Hex) -> bool {
        match (self.low.contains(&a), self.low.contains(&b)) {
            (false, true) => true,
            (true, false) => false,
            _ => match (self.map.is_slope_hex(a), self.map.is_slope_hex(b)) {
                (true, false) => true,
                (false, true) => false,
                _ => self.slope_neighbours(a) > self.slope_neighbours(b),
            },
        }
    }

    /// How many of a hex's neighbours are slope hexes.
    fn slope_neighbours(&self, h: Hex) -> usize {
        self.map
            .neighbours(h)
            .into_iter()
            .filter(|&n| self.map.is_slope_hex(n))
            .count()
    }

    /// The low ground: every hex reached from a meadow hex without crossing a slope hexside.
    fn low_ground(&self) -> BTreeSet<Hex> {
        let meadow: Vec<Hex> = self
            .map
            .hexes()
            .filter(|&h| self.map.terrain_kind(h).id == "meadow")
            .collect();
        let mut seen: BTreeSet<Hex> = meadow.iter().copied().collect();
        let mut todo = meadow;
        while let Some(h) = todo.pop() {
            for d in Dir::ALL {
                let n = self.map.neighbour(h, d);
                if self.map.contains(n) && !self.hexside(h, n).slope && seen.insert(n) {
                    todo.push(n);
                }
            }
        }
        seen
    }

    // ---- Forces ----

    /// The index of a unit by id.
    pub fn unit_index(&self, id: &str) -> Option<usize> {
        self.units.iter().position(|u| u.id == id)
    }

    /// The index of a general by id.
    pub fn general_index(&self, id: &str) -> Option<usize> {
        self.generals.iter().position(|g| g.id == id)
    }

    /// The index of a command by id.
    pub fn command_index(&self, id: &str) -> Option<usize> {
        self.commands.iter().position(|c| c.id == id)
    }

    /// The national army table's nation of a side.
    pub fn nation(&self, side: Side) -> &str {
        &self.sides[usize::from(side.0) & 1].nation
    }

    /// Whether command `c` is `within` or one of its subordinate commands.
    pub fn in_command(&self, c: usize, within: usize) -> bool {
        let mut p = Some(c);
        let mut steps = 0;
        while let Some(i) = p {
            if i == within {
                return true;
            }
            steps += 1;
            if steps > self.commands.len() {
                return false;
            }
            p = self.commands.get(i).and_then(|x| x.parent);
        }
        false
    }

    /// The commands a general commands (those whose commander he is).
    pub fn commands_of(&self, general: usize) -> Vec<usize> {
        (0..self.commands.len())
            .filter(|&c| self.commands[c].commander == general)
            .collect()
    }

    /// Whether a unit is under a general's command: its command is one he commands or
    /// subordinate to one (his orders reach it, [7.1]).
    pub fn commands_unit(&self, general: usize, unit: usize) -> bool {
        let Some(u) = self.units.get(unit) else {
            return false;
        };
        self.commands_of(general)
            .into_iter()
            .any(|c| self.in_command(u.command, c))
    }

    /// The base units a side has on the table by a turn: set up, or arrived on or before it
    /// (the victory table's total, recounted as reinforcements arrive, [3.2]).
    pub fn base_units_by(&self, side: Side, turn: u32) -> u32 {
        self.units
            .iter()
            .filter(|u| u.side == side && u.start.turn() <= turn)
            .map(|u| u32::from(u.base_units))
            .sum()
    }

    /// The base units of a side's whole order of battle.
    pub fn base_units(&self, side: Side) -> u32 {
        self.base_units_by(side, u32::MAX)
    }

    // ---- Victory ----

    /// The side holding every objective, given who holds each objective hex (`holder`); `None`
    /// if no side holds them all ([14], ruling HM48).
    pub fn holder_of_the_field(&self, holder: impl Fn(Hex) -> Side) -> Option<Side> {
        let mut who = None;
        for h in self.objectives.iter().flat_map(|o| &o.hexes) {
            let s = holder(*h);
            match who {
                None => who = Some(s),
                Some(w) if w != s => return None,
                _ => {}
            }
        }
        who
    }

    /// Who won when the battle ends at dusk ([14], ruling HM48): the side holding every
    /// objective wins, by the casualties' margin if they favour it too, else marginally; if no
    /// side holds them all, the casualties alone decide. `losses[i]` is side `i`'s base units
    /// lost and its total.
    pub fn verdict(
        &self,
        tables: &Tables,
        losses: [(u32, u32); 2],
        field: Option<Side>,
    ) -> Verdict {
        let v = verdict(losses[0], losses[1], tables.margins);
        match field {
            None => v,
            Some(s) if v.winner == Some(s.0) => v,
            Some(s) => Verdict {
                margin: Margin::Marginal,
                winner: Some(s.0),
            },
        }
    }
}

// ---- Reading and validating ----

/// The files being read, and every problem found so far.
struct Reader<'a> {
    f: &'a File,
    map: &'a Map,
    oob: &'a Oob,
    tables: &'a Tables,
    errs: Vec<String>,
}

/// What the reading of the generals and units needs from the parts read before.
struct Ctx<'a> {
    sides: &'a [SideInfo],
    time: Time,
    entries: &'a BTreeMap<String, Vec<Hex>>,
}

impl Ctx<'_> {
    /// The seat of a side id.
    fn side(&self, id: &str) -> Option<Side> {
        self.sides
            .iter()
            .position(|s| s.id == id)
            .map(|i| Side(i as u8))
    }
}

/// The formations units start in: by arm, for those set up and those arriving (HM44).
struct StartFormations {
    set_up: Vec<(Arm, Formation)>,
    arriving: Vec<(Arm, Formation)>,
}

const ARMS: [(&str, Arm); 3] = [
    ("infantry", Arm::Infantry),
    ("cavalry", Arm::Cavalry),
    ("artillery", Arm::Artillery),
];

impl Reader<'_> {
    fn err(&mut self, s: String) {
        self.errs.push(s);
    }

    /// The format and the map both files name.
    fn header(&mut self) {
        let (f, map) = (self.f, self.map);
        if f.format != FORMAT {
            self.err(format!("format '{}': expected '{FORMAT}'", f.format));
        }
        if f.map != map.id {
            self.err(format!(
                "the scenario names map '{}' but the map is '{}'",
                f.map, map.id
            ));
        }
        if self.oob.battle.map != map.id {
            self.err(format!(
                "the order of battle names map '{}' but the map is '{}'",
                self.oob.battle.map, map.id
            ));
        }
    }

    /// The two sides in playing order, each with a national army table and a rear (HM40).
    fn sides(&mut self) -> Vec<SideInfo> {
        let mut sides = Vec::new();
        for s in &self.f.side {
            let rear = parse_edge(&s.rear).unwrap_or_else(|| {
                self.err(format!(
                    "side '{}': rear '{}' is no table edge (north, south, east, west)",
                    s.id, s.rear
                ));
                Edge::North
            });
            if self.tables.army(&s.nation).is_none() {
                self.err(format!(
                    "side '{}': no national army table for '{}'",
                    s.id, s.nation
                ));
            }
            sides.push(SideInfo {
                id: s.id.clone(),
                name: s.name.clone(),
                nation: s.nation.clone(),
                rear,
            });
        }
        if sides.len() != 2 {
            self.err(format!(
                "a scenario has two sides, this one {}",
                sides.len()
            ));
        }
        let theirs: BTreeSet<&str> = self.oob.side.iter().map(|s| s.id.as_str()).collect();
        let ours: BTreeSet<&str> = sides.iter().map(|s| s.id.as_str()).collect();
        if theirs != ours {
            self.err(format!(
                "the sides {ours:?} are not the order of battle's {theirs:?}"
            ));
        }
        sides
    }

    /// A clock time, or 0 with an error.
    fn clock(&mut self, what: &str, s: &str) -> u32 {
        parse_clock(s).unwrap_or_else(|x| {
            self.err(format!("{what}: {x}"));
            0
        })
    }

    /// The span of play, the same in both files, and the night (HM41).
    fn time(&mut self) -> Time {
        let (t, b) = (&self.f.time, &self.oob.battle);
        let start = self.clock("time.start", &t.start);
        let end = self.clock("time.end", &t.end);
        let night = self.clock("time.night", &t.night);
        let oob_start = self.clock("the order of battle's start", &b.start);
        let oob_end = self.clock("the order of battle's end", &b.end);
        let tm = t.turn_minutes;
        let mut turns = 0;
        if tm == 0 {
            self.err("time.turn_minutes is 0".into());
        } else if end <= start || !(end - start).is_multiple_of(tm) {
            self.err(format!(
                "time: {} to {} is not a whole number of {tm}-minute turns",
                t.start, t.end
            ));
        } else {
            turns = (end - start) / tm;
        }
        if (oob_start, oob_end, b.turn_minutes) != (start, end, tm) {
            self.err(format!(
                "time: the order of battle runs {} to {} by {} minutes, the scenario {} to {} by {tm}",
                b.start, b.end, b.turn_minutes, t.start, t.end
            ));
        }
        if night < start {
            self.err(format!(
                "time.night {} falls before the start {}",
                t.night, t.start
            ));
        }
        let dawn_text = t.dawn.clone();
        let dawn = dawn_text.map(|d| {
            let m = self.clock("time.dawn", &d);
            if m >= night {
                self.err(format!("time.dawn {d} falls after the night {}", t.night));
            }
            m
        });
        Time {
            start,
            turn_minutes: tm.max(1),
            turns,
            night,
            dawn,
        }
    }

    /// The weather at the start: clear, or a counter on a track of the tables ([24]).
    fn weather(&mut self) -> WeatherStart {
        let w = &self.f.weather;
        match w.kind.as_str() {
            "clear" => {
                if w.track.is_some() || w.position.is_some() {
                    self.err("weather: a clear day has no track or position".into());
                }
                WeatherStart::Clear
            }
            "track" => {
                let track = match w.track.as_deref() {
                    Some("fog") => WeatherTrack::Fog,
                    Some("snow") => WeatherTrack::Snow,
                    Some("storm") => WeatherTrack::Storm,
                    other => {
                        self.err(format!(
                            "weather.track {other:?}: expected \"fog\", \"snow\" or \"storm\""
                        ));
                        return WeatherStart::Clear;
                    }
                };
                let len = match track {
                    WeatherTrack::Fog => self.tables.weather.fog.positions.len(),
                    _ => self.tables.weather.snow.positions.len(),
                };
                let position = w.position.unwrap_or(0);
                if position == 0 || usize::from(position) > len {
                    self.err(format!(
                        "weather.position {position}: the track has positions 1 to {len}"
                    ));
                }
                WeatherStart::Track { track, position }
            }
            other => {
                self.err(format!(
                    "weather.kind '{other}': expected \"clear\" or \"track\""
                ));
                WeatherStart::Clear
            }
        }
    }

    /// Every terrain and feature of the map's legend mapped onto the rules, and nothing else
    /// (HM42).
    fn legend(&mut self) {
        let (t, legend, chart) = (&self.f.terrain, self.map.legend(), &self.tables.terrain);
        let mut errs = Vec::new();
        for k in &legend.terrain {
            match t.hexes.get(&k.id) {
                None => errs.push(format!(
                    "terrain.hexes: the map's terrain '{}' has no [18] kind",
                    k.id
                )),
                Some(x) if !HEX_KINDS.contains(&x.as_str()) || chart.hex(x).is_none() => {
                    errs.push(format!(
                        "terrain.hexes.{}: '{x}' is no hex kind of the terrain chart ({})",
                        k.id,
                        HEX_KINDS.join(", ")
                    ))
                }
                Some(_) => {}
            }
        }
        for id in t.hexes.keys() {
            if legend.terrain_index(id).is_none() {
                errs.push(format!(
                    "terrain.hexes.{id}: no such terrain in the map's legend"
                ));
            }
        }
        for k in &legend.features {
            match t.hexsides.get(&k.id) {
                None => errs.push(format!(
                    "terrain.hexsides: the map's feature '{}' has no meaning",
                    k.id
                )),
                Some(x)
                    if !(HEXSIDE_KINDS.contains(&x.as_str()) && chart.hexsides.contains_key(x)
                        || FEATURE_MEANINGS.contains(&x.as_str())) =>
                {
                    errs.push(format!(
                        "terrain.hexsides.{}: '{x}' is neither a hexside kind of the terrain chart ({}) nor one of {}",
                        k.id,
                        HEXSIDE_KINDS.join(", "),
                        FEATURE_MEANINGS.join(", ")
                    ))
                }
                Some(_) => {}
            }
        }
        for id in t.hexsides.keys() {
            if legend.feature(id).is_none() {
                errs.push(format!(
                    "terrain.hexsides.{id}: no such feature in the map's legend"
                ));
            }
        }
        self.errs.extend(errs);
    }

    /// The formations at the start, by arm (HM44): one each arm may take, never a square.
    fn formations(&mut self) -> StartFormations {
        let fm = &self.f.formation;
        StartFormations {
            set_up: self.formation_table(&fm.set_up, "set-up"),
            arriving: self.formation_table(&fm.arriving, "arriving"),
        }
    }

    fn formation_table(
        &mut self,
        table: &BTreeMap<String, String>,
        which: &str,
    ) -> Vec<(Arm, Formation)> {
        let mut out = Vec::new();
        for (name, arm) in ARMS {
            match table.get(name) {
                None => self.err(format!("formation.{which}: no formation for {name}")),
                Some(s) => match Formation::from_id(s) {
                    Some(x) if x.fits(arm) && x != Formation::Square => {
                        out.push((arm, x));
                    }
                    _ => self.err(format!(
                        "formation.{which}.{name}: '{s}' is no formation {name} may start in"
                    )),
                },
            }
        }
        for k in table.keys() {
            if !ARMS.iter().any(|(n, _)| n == k) {
                self.err(format!("formation.{which}.{k}: no such arm"));
            }
        }
        out
    }

    /// The entry hexes of each road or place arrivals come by, on the table's edge (HM46).
    fn entries(&mut self) -> BTreeMap<String, Vec<Hex>> {
        let mut out = BTreeMap::new();
        for (at, hexes) in &self.f.entries {
            let mut v = Vec::new();
            for s in hexes {
                match s.parse::<Hex>() {
                    Ok(h) if self.map.contains(h) && !self.map.edges_of(h).is_empty() => v.push(h),
                    _ => self.err(format!(
                        "entries.'{at}': '{s}' is not a hex on the table's edge"
                    )),
                }
            }
            if v.is_empty() {
                self.err(format!("entries.'{at}': no hex"));
            }
            out.insert(at.clone(), v);
        }
        out
    }

    fn command_index(&self, id: &str) -> Option<usize> {
        self.oob.formation.iter().position(|x| x.id == id)
    }

    fn general_index(&self, id: &str) -> Option<usize> {
        self.oob.general.iter().position(|x| x.id == id)
    }

    /// The order of battle's formations: each of a side, under a parent of its side with no
    /// loop, commanded by a general of its side (named by id or in his name).
    fn commands(&mut self, sides: &[SideInfo]) -> Vec<Command> {
        let side_of = |id: &str| sides.iter().position(|s| s.id == id).map(|i| Side(i as u8));
        let oob = self.oob;
        let mut seen = BTreeSet::new();
        let mut commands = Vec::new();
        for fm in &oob.formation {
            if !seen.insert(fm.id.as_str()) {
                self.err(format!("formation '{}' is listed twice", fm.id));
            }
            let side = side_of(&fm.side).unwrap_or_else(|| {
                self.err(format!("formation '{}': no side '{}'", fm.id, fm.side));
                Side(0)
            });
            let parent = if fm.parent.is_empty() {
                None
            } else {
                let p = self.command_index(&fm.parent);
                if p.is_none() {
                    self.err(format!(
                        "formation '{}': no parent formation '{}'",
                        fm.id, fm.parent
                    ));
                }
                p
            };
            let commander = self
                .general_index(&fm.commander.to_lowercase())
                .or_else(|| {
                    oob.general
                        .iter()
                        .position(|g| g.name.contains(&fm.commander))
                });
            let commander = match commander {
                Some(g) => {
                    if side_of(&oob.general[g].side) != Some(side) {
                        self.err(format!(
                            "formation '{}': its commander '{}' is of the other side",
                            fm.id, oob.general[g].id
                        ));
                    }
                    g
                }
                None => {
                    self.err(format!(
                        "formation '{}': no general '{}'",
                        fm.id, fm.commander
                    ));
                    0
                }
            };
            commands.push(Command {
                id: fm.id.clone(),
                name: fm.name.clone(),
                side,
                parent,
                commander,
                order: crate::setup::Standing::Free,
            });
        }
        // [7.1.1]: the initial orders (HM54)
        for (id, text) in &self.f.orders {
            let Some(c) = commands.iter().position(|c| &c.id == id) else {
                self.err(format!("orders: no formation '{id}'"));
                continue;
            };
            let order = match text.trim() {
                "hold" => Some(crate::setup::Standing::Hold),
                "free" => Some(crate::setup::Standing::Free),
                t => t.strip_prefix("advance ").and_then(|place| {
                    self.map
                        .places
                        .iter()
                        .find(|p| p.name == place.trim())
                        .map(|p| crate::setup::Standing::Advance(p.hex))
                }),
            };
            match order {
                Some(o) => commands[c].order = o,
                None => self.err(format!(
                    "orders.{id} = '{text}': an order is hold, free or 'advance PLACE' (a place of the map)"
                )),
            }
        }
        for (i, c) in commands.iter().enumerate() {
            let mut p = c.parent;
            let mut steps = 0;
            while let Some(j) = p {
                if j == i || steps > commands.len() {
                    self.errs
                        .push(format!("formation '{}': its parents form a loop", c.id));
                    break;
                }
                if commands[j].side != c.side {
                    self.errs.push(format!(
                        "formation '{}': its parent '{}' is of the other side",
                        c.id, commands[j].id
                    ));
                }
                p = commands[j].parent;
                steps += 1;
            }
        }
        commands
    }

    /// Where a unit or general begins: a set-up hex (of `[set-up]`, else his place's hex) or an
    /// arrival on a turn by its road's or place's entry hexes (HM46, HM47).
    fn start(
        &mut self,
        ctx: &Ctx,
        what: &str,
        arrives: &str,
        entry: &str,
        at: &str,
        id: &str,
    ) -> Start {
        let f = self.f;
        if entry == "set-up" {
            if arrives != f.time.start {
                self.err(format!(
                    "{what}: set up at {arrives}, not at the start {}",
                    f.time.start
                ));
            }
            let hex = match f.set_up.get(id) {
                Some(s) => s.parse::<Hex>().ok().filter(|h| self.map.contains(*h)),
                None => self.map.places.iter().find(|p| p.name == at).map(|p| p.hex),
            };
            return Start::SetUp(hex.unwrap_or_else(|| {
                self.err(format!(
                    "{what}: no set-up hex (neither in [set-up] nor a place '{at}' of the map)"
                ));
                Hex::new(1, 1)
            }));
        }
        let turn = self.turn_of(ctx.time, what, arrives);
        let edge = parse_edge(entry).unwrap_or_else(|| {
            self.err(format!(
                "{what}: entry '{entry}' is neither set-up nor an edge"
            ));
            Edge::North
        });
        let hexes = ctx.entries.get(at).cloned().unwrap_or_else(|| {
            self.err(format!("{what}: no entry hexes for '{at}' in [entries]"));
            Vec::new()
        });
        for h in &hexes {
            if !self.map.edges_of(*h).contains(&edge) {
                self.err(format!(
                    "{what}: entry hex {h} of '{at}' is not on the {entry} edge"
                ));
            }
        }
        Start::Arrives(Arrival {
            turn,
            edge,
            at: at.to_string(),
            hexes,
        })
    }

    /// The turn an arrival's clock time begins: it must be a turn's start within the span.
    fn turn_of(&mut self, t: Time, what: &str, s: &str) -> u32 {
        let end = t.start + t.turns * t.turn_minutes;
        match parse_clock(s) {
            Ok(m) if m >= t.start && m < end && (m - t.start).is_multiple_of(t.turn_minutes) => {
                (m - t.start) / t.turn_minutes + 1
            }
            Ok(_) => {
                self.err(format!(
                    "{what}: {s} is not the start of a turn between {} and {}",
                    format_clock(t.start),
                    format_clock(end)
                ));
                1
            }
            Err(x) => {
                self.err(format!("{what}: {x}"));
                1
            }
        }
    }

    /// The generals: of a side, in a formation of their side, each starting somewhere; the
    /// senior ones those the scenario names (HM45).
    fn generals(&mut self, ctx: &Ctx) -> Vec<General> {
        let oob = self.oob;
        for s in &self.f.generals.senior {
            if self.general_index(s).is_none() {
                self.err(format!("generals.senior: no general '{s}'"));
            }
        }
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for g in &oob.general {
            let what = format!("general '{}'", g.id);
            if !seen.insert(g.id.as_str()) {
                self.err(format!("{what} is listed twice"));
            }
            let side = ctx.side(&g.side).unwrap_or_else(|| {
                self.err(format!("{what}: no side '{}'", g.side));
                Side(0)
            });
            let command = match self.command_index(&g.formation) {
                Some(c) => {
                    if ctx.side(&oob.formation[c].side) != Some(side) {
                        self.err(format!(
                            "{what}: his formation '{}' is of the other side",
                            g.formation
                        ));
                    }
                    c
                }
                None => {
                    self.err(format!("{what}: no formation '{}'", g.formation));
                    0
                }
            };
            let start = self.start(ctx, &what, &g.arrives, &g.entry, &g.at, &g.id);
            out.push(General {
                id: g.id.clone(),
                name: g.name.clone(),
                side,
                command,
                senior: self.f.generals.senior.contains(&g.id),
                start,
                fate: g.fate.clone(),
            });
        }
        out
    }

    /// The fighting units: each of a side and a formation of it, of a kind its nation's army
    /// table knows (HM43), of sizes the rules allow ([2.4]), starting somewhere in the formation
    /// of its arm (HM44).
    fn units(&mut self, ctx: &Ctx, commands: &[Command], fm: &StartFormations) -> Vec<Unit> {
        let oob = self.oob;
        let mut seen = BTreeSet::new();
        let mut out = Vec::new();
        for u in &oob.unit {
            let what = format!("unit '{}'", u.id);
            if !seen.insert(u.id.as_str()) {
                self.err(format!("{what} is listed twice"));
            }
            if self.general_index(&u.id).is_some() {
                self.err(format!("{what}: a general has the same id"));
            }
            let side = ctx.side(&u.side).unwrap_or_else(|| {
                self.err(format!("{what}: no side '{}'", u.side));
                Side(0)
            });
            let command = self.command_index(&u.formation).unwrap_or_else(|| {
                self.err(format!("{what}: no formation '{}'", u.formation));
                0
            });
            if commands.get(command).is_some_and(|c| c.side != side) {
                self.err(format!(
                    "{what}: its formation '{}' is of the other side",
                    u.formation
                ));
            }
            let kind = self.kind(&what, u, ctx.sides.get(usize::from(side.0)));
            let start = self.start(ctx, &what, &u.arrives, &u.entry, &u.at, &u.id);
            let table = match start {
                Start::SetUp(_) => &fm.set_up,
                Start::Arrives(_) => &fm.arriving,
            };
            out.push(Unit {
                id: u.id.clone(),
                name: u.name.clone(),
                side,
                command,
                kind,
                type_: u.type_.clone(),
                base_units: u.bases,
                men: u.men,
                squadrons: u.squadrons,
                guns: u.guns,
                formation: table
                    .iter()
                    .find(|(a, _)| *a == kind.arm())
                    .map_or(Formation::Line, |(_, x)| *x),
                start,
                evidence: u.evidence.clone(),
            });
        }
        out
    }

    /// A unit's kind by its arm, type and quality (`[kinds]`, HM43), checked against its arm,
    /// its nation's army table and its size.
    fn kind(&mut self, what: &str, u: &OobUnit, side: Option<&SideInfo>) -> Kind {
        let key = format!("{} {} {}", u.arm, u.type_, u.quality);
        let kind = match self.f.kinds.get(&key) {
            Some(k) => Kind::from_id(k).unwrap_or_else(|| {
                self.err(format!("kinds.'{key}': '{k}' is no unit kind"));
                Kind::Line
            }),
            None => {
                self.err(format!("{what}: '{key}' has no kind in [kinds]"));
                Kind::Line
            }
        };
        if arm_of(&u.arm) != Some(kind.arm()) {
            self.err(format!(
                "{what}: arm '{}' but its kind {kind} is {:?}",
                u.arm,
                kind.arm()
            ));
        }
        if let Some(s) = side {
            if self.tables.line(&s.nation, kind).is_none() {
                self.err(format!("{what}: the {} army table has no {kind}", s.nation));
            }
        }
        let most = kind.full_base_units().max(u.squadrons.unwrap_or(0));
        if u.bases == 0 || u.bases > most {
            self.err(format!(
                "{what}: {} base units (a {kind} has 1 to {most})",
                u.bases
            ));
        }
        match kind.arm() {
            Arm::Cavalry if u.squadrons.is_none() => {
                self.err(format!("{what}: cavalry without squadrons"))
            }
            Arm::Artillery if u.guns.is_none() => {
                self.err(format!("{what}: a battery without guns"))
            }
            _ => {}
        }
        if !["stated", "recalled", "decided"].contains(&u.evidence.as_str()) {
            self.err(format!(
                "{what}: evidence '{}' is not stated, recalled or decided",
                u.evidence
            ));
        }
        kind
    }

    /// The set-up: a hex for every unit set up and for nothing else; each on ground its arm
    /// may hold ([18]); one battalion or regiment and one battery a hex ([2.4.1.3]); no hex
    /// of both sides (HM47).
    fn set_up(&mut self, units: &[Unit]) {
        let oob = self.oob;
        for id in self.f.set_up.keys() {
            let unit = oob.unit.iter().find(|u| &u.id == id).map(|u| &u.entry);
            let general = oob.general.iter().find(|g| &g.id == id).map(|g| &g.entry);
            match unit.or(general) {
                None => self.err(format!("set-up.{id}: no such unit or general")),
                Some(entry) if entry != "set-up" => {
                    self.err(format!("set-up.{id}: it arrives, it is not set up"))
                }
                Some(_) => {}
            }
        }
        for u in &oob.unit {
            if u.entry == "set-up" && !self.f.set_up.contains_key(&u.id) {
                self.err(format!(
                    "unit '{}' is set up but [set-up] gives it no hex",
                    u.id
                ));
            }
        }
        let kind_of_hex = |h: Hex| -> &str {
            self.f
                .terrain
                .hexes
                .get(&self.map.terrain_kind(h).id)
                .map_or("clear", String::as_str)
        };
        let mut errs = Vec::new();
        let mut held: BTreeMap<Hex, [Option<&str>; 2]> = BTreeMap::new();
        let mut sides_at: BTreeMap<Hex, Side> = BTreeMap::new();
        for u in units {
            let Start::SetUp(h) = u.start else { continue };
            let hk = kind_of_hex(h);
            if !self.tables.terrain.may_occupy(hk, u.kind.arm()) {
                errs.push(format!(
                    "unit '{}': a {} may not hold {h} ({hk}, [18])",
                    u.id, u.kind
                ));
            }
            let slot = &mut held.entry(h).or_default()[usize::from(u.kind.arm() == Arm::Artillery)];
            match slot {
                Some(other) => errs.push(format!(
                    "unit '{}': {h} already holds '{other}' (one battalion or regiment and one battery a hex, [2.4.1.3])",
                    u.id
                )),
                None => *slot = Some(&u.id),
            }
            if sides_at.insert(h, u.side).is_some_and(|s| s != u.side) {
                errs.push(format!("{h} holds units of both sides at the start"));
            }
        }
        self.errs.extend(errs);
    }

    /// The objectives: hexes of the table, held at the start by a side (HM48).
    fn objectives(&mut self, sides: &[SideInfo]) -> Vec<Objective> {
        if self.f.objective.is_empty() {
            self.err("no objective".into());
        }
        let mut out = Vec::new();
        for o in &self.f.objective {
            let mut hexes = Vec::new();
            for s in &o.hexes {
                match s.parse::<Hex>() {
                    Ok(h) if self.map.contains(h) => hexes.push(h),
                    _ => self.err(format!(
                        "objective '{}': '{s}' is not a hex of the table",
                        o.name
                    )),
                }
            }
            if hexes.is_empty() {
                self.err(format!("objective '{}': no hex", o.name));
            }
            let held = match sides.iter().position(|s| s.id == o.held) {
                Some(i) => Side(i as u8),
                None => {
                    self.err(format!("objective '{}': no side '{}'", o.name, o.held));
                    Side(0)
                }
            };
            out.push(Objective {
                name: o.name.clone(),
                hexes,
                held,
            });
        }
        out
    }
}
