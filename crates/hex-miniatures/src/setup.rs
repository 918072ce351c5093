//! What a game is built from: the table, the two armies with their units, generals and
//! formations, the clock, the weather and the objectives. A `Setup` is the game's own digest
//! of a scenario (the scenario module reads the files and validates them; `Game::new` turns
//! its `Scenario` into a `Setup`), so that the rules and the scenario format can change apart.
//! [`Setup::skirmish`] builds a small one in code for the tests.

use crate::army::Kind;
use crate::data::Tables;
use hexmap::{Dir, Edge, Hex, Hexside, Map};

/// Where a unit or general starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Start {
    /// On the table at the start, in this hex ([3.2]).
    Hex(Hex),
    /// Arrives during the battle ([3.2]: an encounter battle): from this minute of the day,
    /// by one of these entry hexes.
    Arrives {
        /// The minute of the day (12:30 is 750) from which it may enter.
        minute: u32,
        /// The hexes it may enter by (on its edge of the table).
        entry: Vec<Hex>,
    },
}

/// One side's army.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SideSetup {
    /// Its name (the seat's).
    pub name: String,
    /// The table edge behind it: where its routs run ([8.8.3]).
    pub rear: Edge,
}

/// A fighting unit: battalion, regiment or battery ([2.4]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitSetup {
    /// Its id (unique among units and generals, no spaces).
    pub id: String,
    /// Its side (0 or 1).
    pub side: u8,
    /// Its nation, as the national army tables name it (`French`, `Prussian`).
    pub nation: String,
    /// Its kind.
    pub kind: Kind,
    /// Its base units at the start ([2.4.3.1], [2.4.4]).
    pub base_units: u8,
    /// Its formation of the order of battle: brigade or division (an index into
    /// [`Setup::formations`]).
    pub command: Option<usize>,
    /// Its formation at the start ([8.1]; a battery limbered or not, [9.1.7]).
    pub formation: crate::action::Formation,
    /// Where it starts.
    pub start: Start,
}

/// A general ([2.4.6]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GeneralSetup {
    /// His id.
    pub id: String,
    /// His side.
    pub side: u8,
    /// A senior commander (Napoleon and the like): +0.200 instead of +0.100 ([6.3], [9.2]).
    pub senior: bool,
    /// Where he starts.
    pub start: Start,
}

/// A standing order of a formation ([7.1.1], [7.1.2]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Standing {
    /// At its commander's discretion: no constraint (ruling HM29).
    Free,
    /// Hold: its units do not move into an enemy zone of control (HM29).
    Hold,
    /// Advance on a hex: its units may not end a move further from it than they began (HM29).
    Advance(Hex),
}

/// A formation (brigade, division, corps) and its commander.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormationSetup {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: u8,
    /// Its commander (an index into [`Setup::generals`]).
    pub commander: Option<usize>,
    /// The formation above it.
    pub parent: Option<usize>,
    /// Its initial orders ([7.1.1]).
    pub order: Standing,
}

/// The weather pattern of a battle ([24]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WeatherKind {
    /// No weather counter: visibility is limited only by the light.
    Clear,
    /// Fog: the fog track, with the time-of-day modifier.
    Fog,
    /// Snow: the snow track.
    Snow,
    /// Thunderstorms: the snow track ([24]: "a similar pattern").
    Storm,
}

/// Everything a game is built from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The scenario's id.
    pub id: String,
    /// The table.
    pub map: Map,
    /// For each terrain of the map's legend (by index), the kind of [18] it plays as.
    pub hex_kinds: Vec<String>,
    /// For each hexside feature of the map's legend (by index), what the rules read it as:
    /// `road`, `trail`, `river`, `stream`, `bridge`, `slope` or `none`.
    pub hexside_kinds: Vec<String>,
    /// The two sides; side 0 takes the attacking stage first in each turn ([5.1.1]).
    pub sides: [SideSetup; 2],
    /// The units.
    pub units: Vec<UnitSetup>,
    /// The generals.
    pub generals: Vec<GeneralSetup>,
    /// The formations.
    pub formations: Vec<FormationSetup>,
    /// The first turn's minute of the day (12:00 is 720).
    pub start_minute: u32,
    /// The minute the battle ends: the last turn is the one before it.
    pub end_minute: u32,
    /// Nightfall's minute (for the dusk table of [24]).
    pub night_minute: u32,
    /// Dawn's minute, for a battle that starts before light ([24]; HM53); `None` in daylight.
    pub dawn_minute: Option<u32>,
    /// The weather.
    pub weather: WeatherKind,
    /// The weather counter's start position, if not the track's.
    pub weather_start: Option<u8>,
    /// The objectives: hexes whose holder at the end holds the field ([14]).
    pub objectives: Vec<Objective>,
    /// The steps that climb a slope hexside, `(from, to)` with `to` the top ([18] Slope); empty
    /// when the scenario does not say (the game then takes a slope hex for the top, HM39).
    pub uphill: Vec<(Hex, Hex)>,
}

/// Hexes whose possession decides who holds the field ([14]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Objective {
    /// Its name.
    pub name: String,
    /// Its hexes.
    pub hexes: Vec<Hex>,
    /// The side holding it at the start.
    pub held: u8,
}

/// What the rules read a hexside feature id as by default (`lane` is a trail, [8.4.3]).
pub fn default_feature(id: &str) -> &'static str {
    match id {
        "road" => "road",
        "trail" | "lane" => "trail",
        "river" => "river",
        "stream" => "stream",
        "bridge" => "bridge",
        "slope" => "slope",
        _ => "none",
    }
}

/// The minutes a turn lasts ([2.1.1]).
pub const TURN_MINUTES: u32 = 10;

/// The [18] kind a map terrain id plays as by default (the Möckern legend's ids, and the
/// chart's own).
pub fn default_kind(terrain_id: &str) -> &'static str {
    match terrain_id {
        "woods" | "forest" => "forest",
        "meadow" | "rough" | "marsh" => "rough",
        "village" | "town" => "town",
        "walled" | "fortified" => "fortified",
        "redoubt" | "earthwork" => "earthwork",
        "slope" => "slope",
        "lake" => "lake",
        _ => "clear",
    }
}

/// Why a setup cannot be played.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct SetupError(pub Vec<String>);

impl Setup {
    /// Checks the setup against the tables: every problem, one a line.
    pub fn check(&self, t: &Tables) -> Result<(), SetupError> {
        let mut e = Vec::new();
        if self.units.len() > 250 {
            e.push(format!("{} units: at most 250", self.units.len()));
        }
        if self.generals.len() > 250 || self.formations.len() > 250 {
            e.push("at most 250 generals and 250 formations".into());
        }
        let legend = self.map.legend().terrain.len();
        if self.hexside_kinds.len() != self.map.legend().features.len() {
            e.push("one hexside kind for each feature of the legend".into());
        }
        if self.hex_kinds.len() != legend {
            e.push(format!(
                "{} hex kinds for a legend of {legend} terrains",
                self.hex_kinds.len()
            ));
        }
        for k in &self.hex_kinds {
            if t.terrain.hex(k).is_none() {
                e.push(format!("hex kind '{k}' is not in the terrain table"));
            }
        }
        let mut ids = std::collections::BTreeSet::new();
        let start_ok = |s: &Start, what: &str, e: &mut Vec<String>| match s {
            Start::Hex(h) if !self.map.contains(*h) => {
                e.push(format!("{what}: {h} is off the table"))
            }
            Start::Arrives { entry, .. } if entry.is_empty() => {
                e.push(format!("{what}: no entry hex"))
            }
            Start::Arrives { entry, .. } => {
                for h in entry {
                    if !self.map.contains(*h) {
                        e.push(format!("{what}: entry {h} is off the table"));
                    }
                }
            }
            _ => {}
        };
        for u in &self.units {
            if !ids.insert(u.id.to_ascii_lowercase()) || u.id.is_empty() || u.id.contains(' ') {
                e.push(format!(
                    "unit '{}': ids are unique and have no spaces",
                    u.id
                ));
            }
            if u.side > 1 {
                e.push(format!("unit {}: side {}", u.id, u.side));
            }
            if t.line(&u.nation, u.kind).is_none() {
                e.push(format!(
                    "unit {}: the {} army table has no {}",
                    u.id, u.nation, u.kind
                ));
            }
            if u.base_units == 0 {
                e.push(format!("unit {}: no base units", u.id));
            }
            if u.command.is_some_and(|f| f >= self.formations.len()) {
                e.push(format!("unit {}: no such formation", u.id));
            }
            start_ok(&u.start, &u.id, &mut e);
        }
        for g in &self.generals {
            if !ids.insert(g.id.to_ascii_lowercase()) || g.id.is_empty() || g.id.contains(' ') {
                e.push(format!(
                    "general '{}': ids are unique and have no spaces",
                    g.id
                ));
            }
            if g.side > 1 {
                e.push(format!("general {}: side {}", g.id, g.side));
            }
            start_ok(&g.start, &g.id, &mut e);
        }
        for f in &self.formations {
            if f.commander.is_some_and(|c| c >= self.generals.len()) {
                e.push(format!("formation {}: no such commander", f.id));
            }
            if f.parent.is_some_and(|p| p >= self.formations.len()) {
                e.push(format!("formation {}: no such parent", f.id));
            }
        }
        if self.end_minute <= self.start_minute
            || !(self.end_minute - self.start_minute).is_multiple_of(TURN_MINUTES)
        {
            e.push("the battle must last a whole number of 10-minute turns".into());
        }
        if e.is_empty() {
            Ok(())
        } else {
            Err(SetupError(e))
        }
    }

    /// A small battle for the tests and examples: a 10 x 10 table of clear ground with a
    /// wood, a village, a slope and a stream; on each side two battalions, a cavalry regiment
    /// and a foot battery, a general each, one more battalion arriving for side 0; eight turns
    /// from 17:00 to 18:20 with nightfall at 18:00 (the last turns fall in the dusk).
    #[doc(hidden)]
    pub fn skirmish() -> Setup {
        let mut map = Map::new("skirmish", 10, 10);
        // the standard legend: clear, forest, rough, marsh, town
        let forest = map.legend().terrain_index("forest").unwrap_or_default();
        let town = map.legend().terrain_index("town").unwrap_or_default();
        map.set_terrain(Hex::new(5, 3), forest);
        map.set_terrain(Hex::new(6, 7), town);
        map.add_hexside(Hex::new(4, 8), Dir::E, Hexside::STREAM);
        map.add_hexside(Hex::new(3, 5), Dir::SE, Hexside::ROAD);
        let hex_kinds = map
            .legend()
            .terrain
            .iter()
            .map(|k| default_kind(&k.id).to_string())
            .collect();
        let hexside_kinds = map
            .legend()
            .features
            .iter()
            .map(|f| default_feature(&f.id).to_string())
            .collect();
        let unit = |id: &str, side: u8, nation: &str, kind: Kind, at: Hex| UnitSetup {
            id: id.into(),
            side,
            nation: nation.into(),
            kind,
            base_units: kind.full_base_units(),
            command: Some(usize::from(side)),
            formation: if kind.arm() == crate::army::Arm::Artillery {
                crate::action::Formation::Unlimbered
            } else {
                crate::action::Formation::Line
            },
            start: Start::Hex(at),
        };
        let mut units = vec![
            unit("P1", 0, "Prussian", Kind::Line, Hex::new(3, 4)),
            unit("P2", 0, "Prussian", Kind::Militia, Hex::new(3, 6)),
            unit("PC", 0, "Prussian", Kind::LightCavalry, Hex::new(2, 5)),
            unit("PA", 0, "Prussian", Kind::FootBattery, Hex::new(2, 4)),
            unit("F1", 1, "French", Kind::Line, Hex::new(7, 4)),
            unit("F2", 1, "French", Kind::Grenadier, Hex::new(6, 7)),
            unit("FC", 1, "French", Kind::HeavyCavalry, Hex::new(8, 5)),
            unit("FA", 1, "French", Kind::FootBattery, Hex::new(8, 6)),
        ];
        units.push(UnitSetup {
            start: Start::Arrives {
                minute: 17 * 60 + 20,
                entry: vec![Hex::new(1, 4), Hex::new(1, 5), Hex::new(1, 6)],
            },
            ..unit("P3", 0, "Prussian", Kind::Light, Hex::new(1, 5))
        });
        Setup {
            id: "skirmish".into(),
            map,
            hex_kinds,
            hexside_kinds,
            sides: [
                SideSetup {
                    name: "Prussian".into(),
                    rear: Edge::North,
                },
                SideSetup {
                    name: "French".into(),
                    rear: Edge::South,
                },
            ],
            units,
            generals: vec![
                GeneralSetup {
                    id: "blue".into(),
                    side: 0,
                    senior: false,
                    start: Start::Hex(Hex::new(2, 5)),
                },
                GeneralSetup {
                    id: "red".into(),
                    side: 1,
                    senior: false,
                    start: Start::Hex(Hex::new(8, 5)),
                },
            ],
            formations: vec![
                FormationSetup {
                    id: "PB".into(),
                    side: 0,
                    commander: Some(0),
                    parent: None,
                    order: Standing::Free,
                },
                FormationSetup {
                    id: "FB".into(),
                    side: 1,
                    commander: Some(1),
                    parent: None,
                    order: Standing::Free,
                },
            ],
            start_minute: 17 * 60,
            end_minute: 18 * 60 + 20,
            night_minute: 18 * 60,
            dawn_minute: None,
            weather: WeatherKind::Fog,
            weather_start: Some(4),
            objectives: vec![Objective {
                name: "the village".into(),
                hexes: vec![Hex::new(6, 7)],
                held: 1,
            }],
            uphill: Vec::new(),
        }
    }
}

impl Setup {
    /// The game's digest of a validated scenario ([`crate::scenario::Scenario`]): its table,
    /// armies, order of battle, clock, weather and objectives. Formations start with the
    /// scenario's initial orders ([7.1.1]; HM54).
    pub fn from_scenario(s: &crate::scenario::Scenario) -> Setup {
        use crate::scenario::{Start as S, WeatherStart, WeatherTrack};
        let start = |st: &S| match st {
            S::SetUp(h) => Start::Hex(*h),
            S::Arrives(a) => Start::Arrives {
                minute: s.turn_start(a.turn),
                entry: a.hexes.clone(),
            },
        };
        let legend = s.map.legend();
        let hex_kinds = legend
            .terrain
            .iter()
            .map(|k| {
                s.hex_terrain
                    .get(&k.id)
                    .cloned()
                    .unwrap_or_else(|| default_kind(&k.id).to_string())
            })
            .collect();
        let hexside_kinds = legend
            .features
            .iter()
            .map(|f| match s.hexside_terrain.get(&f.id).map(String::as_str) {
                Some(k @ ("road" | "trail" | "river" | "stream" | "bridge" | "slope")) => {
                    k.to_string()
                }
                Some(_) => "none".to_string(),
                None => default_feature(&f.id).to_string(),
            })
            .collect();
        let (weather, weather_start) = match s.weather {
            WeatherStart::Clear => (WeatherKind::Clear, None),
            WeatherStart::Track { track, position } => (
                match track {
                    WeatherTrack::Fog => WeatherKind::Fog,
                    WeatherTrack::Snow => WeatherKind::Snow,
                    WeatherTrack::Storm => WeatherKind::Storm,
                },
                Some(position),
            ),
        };
        Setup {
            id: s.id.clone(),
            map: s.map.clone(),
            hex_kinds,
            hexside_kinds,
            sides: [0, 1].map(|i| SideSetup {
                name: s.sides[i].name.clone(),
                rear: s.sides[i].rear,
            }),
            units: s
                .units
                .iter()
                .map(|u| UnitSetup {
                    id: u.id.clone(),
                    side: u.side.0,
                    nation: s.nation(u.side).to_string(),
                    kind: u.kind,
                    base_units: u.base_units,
                    command: Some(u.command),
                    formation: crate::action::Formation::parse(u.formation.id()).unwrap_or(
                        if u.kind.arm() == crate::army::Arm::Artillery {
                            crate::action::Formation::Unlimbered
                        } else {
                            crate::action::Formation::Line
                        },
                    ),
                    start: start(&u.start),
                })
                .collect(),
            generals: s
                .generals
                .iter()
                .map(|g| GeneralSetup {
                    id: g.id.clone(),
                    side: g.side.0,
                    senior: g.senior,
                    start: start(&g.start),
                })
                .collect(),
            formations: s
                .commands
                .iter()
                .map(|c| FormationSetup {
                    id: c.id.clone(),
                    side: c.side.0,
                    commander: Some(c.commander),
                    parent: c.parent,
                    order: c.order,
                })
                .collect(),
            start_minute: s.time.start,
            end_minute: s.time.start + s.time.turns * s.time.turn_minutes,
            night_minute: s.time.night,
            dawn_minute: s.time.dawn,
            weather,
            weather_start,
            objectives: s
                .objectives
                .iter()
                .map(|o| Objective {
                    name: o.name.clone(),
                    hexes: o.hexes.clone(),
                    held: o.held.0,
                })
                .collect(),
            uphill: s
                .map
                .hexes()
                .flat_map(|a| s.map.neighbours(a).into_iter().map(move |b| (a, b)))
                .filter(|&(a, b)| s.map.contains(b) && s.climbs(a, b))
                .collect(),
        }
    }
}
