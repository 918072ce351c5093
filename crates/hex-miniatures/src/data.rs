//! The rules' tables as one data file: `data/hex-miniatures.toml` (embedded) or a replacement
//! with the printed values, read and validated whole; every problem is reported, one a line.

use crate::army::{Arm, ArmyLine, Kind, NationalArmy};
use crate::artillery::{ArtilleryTable, FireResult};
use crate::combat::CombatRules;
use crate::crt::{CombatResult, Crt, Ratio};
use crate::morale::{Crisis, CrisisTable, GeneralFate, GeneralUnderFire};
use crate::orders::Orders;
use crate::prob::{parse_modifier, parse_prob, Bands, Prob};
use crate::square::{SquareResult, SquareTable};
use crate::terrain::{
    HexTerrain, HexsideTerrain, Movement, Sight, TerrainChart, HEXSIDE_KINDS, HEX_KINDS,
};
use crate::weather::{Track, Weather};
use serde::Deserialize;
use std::collections::BTreeMap;

/// Why a data file was refused: every problem found, one a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct DataError(pub Vec<String>);

/// The file's format tag.
pub const FORMAT: &str = "grognard-hex-miniatures/1";

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    odds: OddsFile,
    crt: BTreeMap<String, Vec<String>>,
    shifts: ShiftsFile,
    modifiers: ModifiersFile,
    rally: RallyFile,
    orders: OrdersFile,
    general_under_fire: GeneralFile,
    square: SquareFile,
    artillery: ArtilleryFile,
    victory: VictoryFile,
    crisis: BTreeMap<String, Vec<String>>,
    command: CommandFile,
    army: BTreeMap<String, BTreeMap<String, LineFile>>,
    terrain: TerrainFile,
    weather: WeatherFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OddsFile {
    columns: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ShiftsFile {
    two_arms: i32,
    three_arms: i32,
    flank: i32,
    rear: i32,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ModifiersFile {
    general: String,
    senior_general: String,
    infantry_against_square: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RallyFile {
    routed: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct OrdersFile {
    understood: String,
    restricted: String,
    messenger_movement: u8,
    #[serde(default)]
    initiative: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct GeneralFile {
    artillery: Vec<String>,
    combat: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct SquareFile {
    ordered: Vec<String>,
    disordered: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArtilleryFile {
    foot: BTreeMap<String, Vec<String>>,
    horse: BTreeMap<String, Vec<String>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct VictoryFile {
    first: u32,
    step: u32,
    margins: [u32; 3],
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommandFile {
    movement: u8,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LineFile {
    strength: u32,
    disordered: u32,
    #[serde(default)]
    first_contact: Option<u32>,
    movement: u8,
    rally: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainFile {
    hexes: BTreeMap<String, HexFile>,
    hexsides: BTreeMap<String, HexsideFile>,
}

#[derive(Deserialize, Default)]
#[serde(deny_unknown_fields, default)]
struct HexFile {
    movement: Option<String>,
    sight: Option<String>,
    defence: Option<u32>,
    sheltered: Vec<String>,
    attacked: Option<String>,
    attacking: Option<String>,
    occupants: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct HexsideFile {
    #[serde(default = "yes")]
    crossable: bool,
    #[serde(default)]
    disorders: bool,
    #[serde(default = "yes")]
    zoc: bool,
}

fn yes() -> bool {
    true
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct WeatherFile {
    fog_by_time: Vec<String>,
    dusk: Vec<u8>,
    fog: TrackFile,
    snow: TrackFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TrackFile {
    positions: Vec<String>,
    start: u8,
    down_to: i32,
    up_from: i32,
}

/// The rules' tables: the combat results table with its odds columns, shifts and modifiers,
/// the national army tables, rallies and orders, the general under fire, the square attack
/// table, the artillery table, the victory table, the crisis of morale table, the terrain
/// effects table and the weather.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tables {
    /// The combat results table ([15], [23]) over the odds table's columns ([22]).
    pub crt: Crt,
    /// Column shifts and modifiers of a combat ([9.2], [9.4.1]).
    pub combat: CombatRules,
    /// The number a routed unit needs to stop ([6.2]: 0.800).
    pub rally_routed: Prob,
    /// Orders by messenger ([7.1.2.1], [24]).
    pub orders: Orders,
    /// The nations whose generals act on their own initiative ([7.1]: the French): each may
    /// change his own formation's orders, where the others' come from above (ruling HM56).
    pub initiative: Vec<String>,
    /// The general under fire ([17]).
    pub general_under_fire: GeneralUnderFire,
    /// The square attack table ([20]).
    pub square: SquareTable,
    /// The artillery table ([21]).
    pub artillery: ArtilleryTable,
    /// The victory table's first casualty mark in percent ([3.2]: 15).
    pub first_level: u32,
    /// The step between marks in percent ([3.2]: 5).
    pub level_step: u32,
    /// The margins of victory in percent ([14]: 5, 10, 25).
    pub margins: [u32; 3],
    /// The crisis of morale table ([19]).
    pub crisis: CrisisTable,
    /// A general's movement in hexes ([2.4.6.3]: 5).
    pub command_movement: u8,
    /// The national army tables ([16]), by nation.
    pub armies: Vec<NationalArmy>,
    /// The terrain effects table ([18]).
    pub terrain: TerrainChart,
    /// Weather and light ([24]).
    pub weather: Weather,
    /// XXH3 of the data file's text: to join every game's scenario digest, so that a record
    /// replays only with the tables it was played with.
    pub digest: u64,
}

impl Tables {
    /// The shipped data file.
    pub const TOML: &'static str = include_str!("../data/hex-miniatures.toml");

    /// The shipped tables.
    pub fn shipped() -> Tables {
        Tables::from_toml(Tables::TOML).expect("the shipped data/hex-miniatures.toml is valid")
    }

    /// Reads and validates a data file.
    pub fn from_toml(text: &str) -> Result<Tables, DataError> {
        let f: File = toml::from_str(text)
            .map_err(|e| DataError(vec![format!("hex-miniatures data: {e}")]))?;
        let mut errs = Vec::new();
        if f.format != FORMAT {
            errs.push(format!("format '{}': expected '{FORMAT}'", f.format));
        }
        let mut e = |s: String| errs.push(s);
        let crt = read_crt(&f.odds, &f.crt).map_err(&mut e).ok();
        let prob = |what: &str, s: &str, e: &mut dyn FnMut(String)| {
            parse_prob(s).map_err(|x| e(format!("{what}: {x}"))).ok()
        };
        let modifier = |what: &str, s: &str, e: &mut dyn FnMut(String)| {
            parse_modifier(s)
                .map_err(|x| e(format!("{what}: {x}")))
                .ok()
        };
        let combat = (|| {
            Some(CombatRules {
                two_arms: f.shifts.two_arms,
                three_arms: f.shifts.three_arms,
                flank: f.shifts.flank,
                rear: f.shifts.rear,
                general: modifier("modifiers.general", &f.modifiers.general, &mut e)?,
                senior_general: modifier(
                    "modifiers.senior_general",
                    &f.modifiers.senior_general,
                    &mut e,
                )?,
                infantry_against_square: modifier(
                    "modifiers.infantry_against_square",
                    &f.modifiers.infantry_against_square,
                    &mut e,
                )?,
            })
        })();
        let rally_routed = prob("rally.routed", &f.rally.routed, &mut e);
        let understood = prob("orders.understood", &f.orders.understood, &mut e);
        let restricted = prob("orders.restricted", &f.orders.restricted, &mut e);
        let bands = |what: &str, cells: &[String], e: &mut dyn FnMut(String)| {
            Bands::parse(cells, GeneralFate::parse)
                .map_err(|x| e(format!("{what}: {x}")))
                .ok()
        };
        let gen_art = bands(
            "general_under_fire.artillery",
            &f.general_under_fire.artillery,
            &mut e,
        );
        let gen_com = bands(
            "general_under_fire.combat",
            &f.general_under_fire.combat,
            &mut e,
        );
        let sq = |what: &str, cells: &[String], e: &mut dyn FnMut(String)| {
            Bands::parse(cells, SquareResult::parse)
                .map_err(|x| e(format!("{what}: {x}")))
                .ok()
        };
        let sq_o = sq("square.ordered", &f.square.ordered, &mut e);
        let sq_d = sq("square.disordered", &f.square.disordered, &mut e);
        let foot = read_ranges("artillery.foot", &f.artillery.foot, &mut e);
        let horse = read_ranges("artillery.horse", &f.artillery.horse, &mut e);
        if f.victory.step == 0 || f.victory.first == 0 || f.victory.first > 100 {
            e(format!(
                "victory: first mark {}% and step {}% (the first within 1..100, the step above 0)",
                f.victory.first, f.victory.step
            ));
        }
        if f.victory.margins.windows(2).any(|w| w[0] >= w[1]) {
            e(format!(
                "victory.margins {:?}: must increase (draw, marginal, major)",
                f.victory.margins
            ));
        }
        let crisis = read_crisis(&f.crisis, f.victory.first, f.victory.step.max(1), &mut e);
        let armies = read_armies(&f.army, &mut e);
        for n in &f.orders.initiative {
            if !armies.iter().any(|a| &a.nation == n) {
                e(format!(
                    "orders.initiative: '{n}' has no national army table ([7.1], [16])"
                ));
            }
        }
        let terrain = read_terrain(&f.terrain, &mut e);
        let weather = read_weather(&f.weather, &mut e);
        match (
            crt,
            combat,
            rally_routed,
            understood,
            restricted,
            gen_art,
            gen_com,
            sq_o,
            sq_d,
            weather,
        ) {
            (
                Some(crt),
                Some(combat),
                Some(rally_routed),
                Some(understood),
                Some(restricted),
                Some(artillery),
                Some(combat_fire),
                Some(ordered),
                Some(disordered),
                Some(weather),
            ) if errs.is_empty() => Ok(Tables {
                crt,
                combat,
                rally_routed,
                orders: Orders {
                    understood,
                    restricted,
                    messenger_movement: f.orders.messenger_movement,
                },
                initiative: f.orders.initiative.clone(),
                general_under_fire: GeneralUnderFire {
                    artillery,
                    combat: combat_fire,
                },
                square: SquareTable {
                    ordered,
                    disordered,
                },
                artillery: ArtilleryTable { foot, horse },
                first_level: f.victory.first,
                level_step: f.victory.step,
                margins: f.victory.margins,
                crisis,
                command_movement: f.command.movement,
                armies,
                terrain,
                weather,
                digest: engine::hash_bytes(text.as_bytes()),
            }),
            _ => Err(DataError(errs)),
        }
    }

    /// A nation's army table.
    pub fn army(&self, nation: &str) -> Option<&NationalArmy> {
        self.armies.iter().find(|a| a.nation == nation)
    }

    /// A nation's line for a kind of unit.
    pub fn line(&self, nation: &str, kind: Kind) -> Option<&ArmyLine> {
        self.army(nation)?.line(kind)
    }
}

fn read_crt(odds: &OddsFile, crt: &BTreeMap<String, Vec<String>>) -> Result<Crt, String> {
    let columns: Vec<Ratio> = odds
        .columns
        .iter()
        .map(|c| Ratio::parse(c).map_err(|e| format!("odds.columns: {e}")))
        .collect::<Result<_, _>>()?;
    let mut bands = Vec::new();
    for c in &odds.columns {
        let cells = crt
            .get(c)
            .ok_or_else(|| format!("crt: no column '{c}' (every odds column needs one)"))?;
        bands
            .push(Bands::parse(cells, CombatResult::parse).map_err(|e| format!("crt '{c}': {e}"))?);
    }
    if let Some(k) = crt.keys().find(|k| !odds.columns.contains(k)) {
        return Err(format!("crt: column '{k}' is not in odds.columns"));
    }
    Crt::new(columns, bands).map_err(|e| format!("crt: {e}"))
}

fn read_ranges(
    what: &str,
    rows: &BTreeMap<String, Vec<String>>,
    e: &mut dyn FnMut(String),
) -> Vec<(u8, Bands<FireResult>)> {
    let mut out = Vec::new();
    for (k, cells) in rows {
        let Ok(r) = k.parse::<u8>() else {
            e(format!("{what}: '{k}' is not a range in hexes"));
            continue;
        };
        if r < 2 {
            e(format!("{what}: range {r}: fire starts at 2 hexes (adjacent batteries fight the exchange, [9.1.5])"));
            continue;
        }
        match Bands::parse(cells, FireResult::parse) {
            Ok(b) => {
                if b.results().windows(2).any(|w| w[0] >= w[1]) {
                    e(format!("{what} range {r}: results must run -, D, L, LD"));
                }
                out.push((r, b));
            }
            Err(x) => e(format!("{what} range {r}: {x}")),
        }
    }
    out.sort_by_key(|(r, _)| *r);
    if out.is_empty() {
        e(format!("{what}: no ranges"));
    } else if out.windows(2).any(|w| w[1].0 != w[0].0 + 1) {
        e(format!(
            "{what}: ranges must follow one another with no gap"
        ));
    }
    out
}

fn read_crisis(
    rows: &BTreeMap<String, Vec<String>>,
    first: u32,
    step: u32,
    e: &mut dyn FnMut(String),
) -> CrisisTable {
    let mut levels = Vec::new();
    for (k, cells) in rows {
        let Ok(l) = k.parse::<u32>() else {
            e(format!("crisis: '{k}' is not a level in percent"));
            continue;
        };
        if l < first || !(l - first).is_multiple_of(step) {
            e(format!(
                "crisis: level {l}% is not a mark of the victory table ({first}% then every {step}%)"
            ));
        }
        match Bands::parse(cells, Crisis::parse) {
            Ok(b) => {
                if b.results().windows(2).any(|w| w[0] >= w[1])
                    || b.results().last() != Some(&Crisis::FightsOn)
                {
                    e(format!(
                        "crisis {l}%: results must run rout, retire, disrupt, fights-on, ending with fights-on"
                    ));
                }
                levels.push((l, b));
            }
            Err(x) => e(format!("crisis {l}%: {x}")),
        }
    }
    levels.sort_by_key(|(l, _)| *l);
    if levels.first().map(|(l, _)| *l) != Some(first) {
        e(format!(
            "crisis: the first row must be the first mark, {first}%"
        ));
    }
    if levels.windows(2).any(|w| w[1].0 != w[0].0 + step) {
        e(format!(
            "crisis: one row for every mark from {first}% by {step}%, with no gap"
        ));
    }
    CrisisTable { levels }
}

fn read_armies(
    army: &BTreeMap<String, BTreeMap<String, LineFile>>,
    e: &mut dyn FnMut(String),
) -> Vec<NationalArmy> {
    let mut out = Vec::new();
    for (nation, lines) in army {
        let mut rows = Vec::new();
        for (id, l) in lines {
            let Some(kind) = Kind::from_id(id) else {
                e(format!(
                    "army.{nation}: unknown kind '{id}' (one of {})",
                    Kind::ALL.map(|k| k.id()).join(", ")
                ));
                continue;
            };
            let rally = match parse_prob(&l.rally) {
                Ok(p) => p,
                Err(x) => {
                    e(format!("army.{nation}.{id}.rally: {x}"));
                    continue;
                }
            };
            if l.strength == 0 || l.disordered > l.strength {
                e(format!(
                    "army.{nation}.{id}: strength {} and disordered {}: disorder reduces a strength above 0 ([2.4.1.2])",
                    l.strength, l.disordered
                ));
            }
            if l.movement == 0 {
                e(format!("army.{nation}.{id}: a movement of 0 hexes"));
            }
            if l.first_contact.is_some() && kind != Kind::Lancers {
                e(format!(
                    "army.{nation}.{id}: only lancers have a first-contact strength ([2.4.4.5])"
                ));
            }
            rows.push((
                kind,
                ArmyLine {
                    strength: l.strength,
                    disordered: l.disordered,
                    first_contact: l.first_contact,
                    movement: l.movement,
                    rally,
                },
            ));
        }
        rows.sort_by_key(|(k, _)| *k);
        out.push(NationalArmy {
            nation: nation.clone(),
            lines: rows,
        });
    }
    if out.is_empty() {
        e("army: no national army table".into());
    }
    out
}

fn arm(s: &str) -> Result<Arm, String> {
    match s {
        "infantry" => Ok(Arm::Infantry),
        "cavalry" => Ok(Arm::Cavalry),
        "artillery" => Ok(Arm::Artillery),
        _ => Err(format!("'{s}': an arm is infantry, cavalry or artillery")),
    }
}

fn read_terrain(t: &TerrainFile, e: &mut dyn FnMut(String)) -> TerrainChart {
    let mut hexes = BTreeMap::new();
    for k in HEX_KINDS {
        if !t.hexes.contains_key(k) {
            e(format!("terrain.hexes: '{k}' is missing"));
        }
    }
    for k in HEXSIDE_KINDS {
        if !t.hexsides.contains_key(k) {
            e(format!("terrain.hexsides: '{k}' is missing"));
        }
    }
    for (k, h) in &t.hexes {
        if !HEX_KINDS.contains(&k.as_str()) {
            e(format!(
                "terrain.hexes: unknown kind '{k}' (one of {})",
                HEX_KINDS.join(", ")
            ));
            continue;
        }
        let movement = match h.movement.as_deref() {
            None | Some("normal") => Movement::Normal,
            Some("halved") => Movement::Halved,
            Some("prohibited") => Movement::Prohibited,
            Some(x) => {
                e(format!(
                    "terrain.hexes.{k}.movement '{x}': normal, halved or prohibited"
                ));
                Movement::Normal
            }
        };
        let sight = match h.sight.as_deref() {
            None | Some("open") => Sight::Open,
            Some("blocks") => Sight::Blocks,
            Some(x) => {
                e(format!("terrain.hexes.{k}.sight '{x}': open or blocks"));
                Sight::Open
            }
        };
        let mut m = |what: &str, v: &Option<String>| match v {
            None => 0,
            Some(s) => parse_modifier(s).unwrap_or_else(|x| {
                e(format!("terrain.hexes.{k}.{what}: {x}"));
                0
            }),
        };
        let attacked = m("attacked", &h.attacked);
        let attacking = m("attacking", &h.attacking);
        let mut arms = |what: &str, v: &[String]| -> Vec<Arm> {
            v.iter()
                .filter_map(|s| {
                    arm(s)
                        .map_err(|x| e(format!("terrain.hexes.{k}.{what}: {x}")))
                        .ok()
                })
                .collect()
        };
        let sheltered = arms("sheltered", &h.sheltered);
        let occupants = arms("occupants", &h.occupants);
        let defence = h.defence.unwrap_or(1);
        if defence == 0 {
            e(format!("terrain.hexes.{k}.defence: a multiplier of 0"));
        }
        hexes.insert(
            k.clone(),
            HexTerrain {
                movement,
                sight,
                defence,
                sheltered,
                attacked,
                attacking,
                occupants,
            },
        );
    }
    let mut hexsides = BTreeMap::new();
    for (k, s) in &t.hexsides {
        if !HEXSIDE_KINDS.contains(&k.as_str()) {
            e(format!(
                "terrain.hexsides: unknown kind '{k}' (one of {})",
                HEXSIDE_KINDS.join(", ")
            ));
            continue;
        }
        hexsides.insert(
            k.clone(),
            HexsideTerrain {
                crossable: s.crossable,
                disorders: s.disorders,
                zoc: s.zoc,
            },
        );
    }
    TerrainChart { hexes, hexsides }
}

fn read_track(what: &str, t: &TrackFile, e: &mut dyn FnMut(String)) -> Option<Track> {
    let mut positions = Vec::new();
    for p in &t.positions {
        if p == "clear" {
            positions.push(None);
        } else if let Ok(n) = p.parse::<u8>() {
            positions.push(Some(n));
        } else {
            e(format!(
                "weather.{what}: position '{p}' is a range in hexes or 'clear'"
            ));
            return None;
        }
    }
    if positions.is_empty() || t.start == 0 || usize::from(t.start) > positions.len() {
        e(format!(
            "weather.{what}: start {} is not a position of the track (1..={})",
            t.start,
            positions.len()
        ));
        return None;
    }
    if t.down_to >= t.up_from {
        e(format!(
            "weather.{what}: down_to {} must be below up_from {}",
            t.down_to, t.up_from
        ));
    }
    Some(Track {
        positions,
        start: t.start,
        down_to: t.down_to,
        up_from: t.up_from,
    })
}

fn read_weather(w: &WeatherFile, e: &mut dyn FnMut(String)) -> Option<Weather> {
    let fog = read_track("fog", &w.fog, e);
    let snow = read_track("snow", &w.snow, e);
    let mut fog_by_time = Vec::new();
    for cell in &w.fog_by_time {
        let parsed = (|| {
            let (t, m) = cell.split_once(char::is_whitespace)?;
            let (h, mi) = t.split_once(':')?;
            let (h, mi): (u32, u32) = (h.parse().ok()?, mi.parse().ok()?);
            if h > 23 || mi > 59 {
                return None;
            }
            Some((h * 60 + mi, m.trim().parse::<i32>().ok()?))
        })();
        match parsed {
            Some(p) => fog_by_time.push(p),
            None => e(format!(
                "weather.fog_by_time: '{cell}': expected 'HH:MM modifier' ('14:00 -1')"
            )),
        }
    }
    if fog_by_time.windows(2).any(|w| w[0].0 >= w[1].0) {
        e("weather.fog_by_time: times must increase".into());
    }
    if w.dusk.windows(2).any(|p| p[0] < p[1]) {
        e("weather.dusk: the visible range may only shrink toward night".into());
    }
    Some(Weather {
        fog: fog?,
        snow: snow?,
        fog_by_time,
        dusk: w.dusk.clone(),
    })
}
