//! The system's data for the Battle of Nations components: leaders, formations and armies,
//! morale, cavalry classes, terrain classes, stacking limits and the melee table, read from
//! `data/bon.toml` (embedded) or a replacement. Every figure and the reason for it is in
//! `docs/napoleonic-battles.md`; the rulings are NB1-NB49 in `docs/rulings.md`.
//!
//! ```
//! use napoleonic_battles::data::Supplement;
//!
//! let data = Supplement::bon();
//! let sc = scenarios::load("bon-first-day").unwrap();
//! data.check(&sc).unwrap();
//! let guard = sc.unit_by_id("FR.1Gd").unwrap();
//! assert_eq!(data.morale(&sc, guard), 4);
//! assert!(data.old_guard(&sc, guard));
//! let napoleon = data.leaders.iter().position(|l| l.id == "FR.Napoleon").unwrap();
//! assert_eq!(data.overall_commander(&sc, engine::Side(0), 2), Some(napoleon));
//! ```

use crate::melee::{MeleeTable, MeleeTableFile};
use engine::Side;
use hexmap::Hex;
use naw::scenario::Start;
use naw::{Scenario, UnitId, UnitType};
use serde::Deserialize;
use std::collections::{BTreeMap, HashMap};

/// Why a supplement was refused: every problem found, one a line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{}", .0.join("\n"))]
pub struct DataError(pub Vec<String>);

/// A leader's rank.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Rank {
    /// An army or wing commander: spends command points (NB Action phase).
    Army,
    /// A corps officer: activates his formation(s).
    Corps,
}

/// A leader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeaderDef {
    /// Id, `FR.Napoleon`.
    pub id: String,
    /// Name as shown.
    pub name: String,
    /// Nation id (`FR`).
    pub nation: String,
    /// Army/wing commander or corps officer.
    pub rank: Rank,
    /// Command rating: command points a turn for a commander; for an officer, his rally
    /// modifier and what his range grows from.
    pub command: u8,
    /// Initiative, 1..=6: an officer's formation activates on a d6 at most this.
    pub initiative: u8,
    /// Command range in hexes.
    pub range: u8,
    /// The formations he commands as their officer (indices into `formations`).
    pub formations: Vec<usize>,
    /// His superior (index into `leaders`), if any.
    pub superior: Option<usize>,
    /// Movement allowance (NB Strategic movement: leaders get 10).
    pub movement: u8,
}

/// Where a leader starts a scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LeaderAt {
    /// On the map in this hex.
    Hex(Hex),
    /// Stacked with this unit: in its hex if it starts on the map, arriving with it if it is
    /// a reinforcement.
    WithUnit(UnitId),
    /// Arrives on a turn at an entry hex.
    Arrives {
        /// The game-turn.
        turn: u8,
        /// The entry hex.
        hex: Hex,
    },
    /// Appears at the start of a turn stacked with another leader, wherever that leader then
    /// is (NB Turn End: Napoleon with Murat on turn 2).
    WithLeader {
        /// The game-turn.
        turn: u8,
        /// The leader (index into `leaders`).
        leader: usize,
    },
}

impl LeaderAt {
    /// The turn the leader is first on the map, given the scenario (a leader with a unit
    /// arrives when the unit does).
    pub fn turn(&self, sc: &Scenario) -> u8 {
        match *self {
            LeaderAt::Hex(_) => sc.first_turn,
            LeaderAt::WithUnit(u) => match sc.unit(u).start {
                Start::Arrives(a) => a.turn,
                _ => sc.first_turn,
            },
            LeaderAt::Arrives { turn, .. } | LeaderAt::WithLeader { turn, .. } => turn,
        }
    }
}

/// A formation: one corps of the order of battle (the scenarios' `corps` values).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FormationDef {
    /// The scenarios' `corps` value.
    pub corps: String,
    /// Name as shown.
    pub name: String,
    /// Its army (index into `armies`).
    pub army: usize,
    /// Demoralization loss limit, SP lost (NB Formation demoralization), our scale.
    pub loss_limit: u16,
    /// Victory points to the enemy when it is demoralized.
    pub victory_points: u16,
}

/// An army: its formations' demoralization adds up to its own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ArmyDef {
    /// Name (`Grand Army`).
    pub name: String,
    /// The scenario side name it fights for (`French`, `Allied`).
    pub side: String,
    /// SP lost at which the army is demoralized (every unit -1 morale): the sum of its
    /// formations' limits over the whole order of battle (a scenario's is
    /// [`Supplement::army_loss_limit`]).
    pub loss_limit: u16,
    /// SP lost at which the army disintegrates, an automatic defeat (ruling NB25):
    /// `disintegration_percent` of the loss limit, rounded up (a scenario's is
    /// [`Supplement::army_disintegration`]).
    pub disintegration: u16,
    /// The disintegration level as a percentage of the loss limit.
    pub disintegration_percent: u16,
    /// Victory points to the enemy when it is demoralized.
    pub victory_points: u16,
}

/// What a terrain means to this system (NB Leipzig Terrain Effects).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TerrainClass {
    /// Obstructed: half stacking limits, cavalry 1 per SP.
    #[serde(default)]
    pub obstructed: bool,
    /// Village or town: 1 left against cavalry melee (and artillery fire).
    #[serde(default)]
    pub village: bool,
    /// Chateau / fortified: 1 left against melee and fire.
    #[serde(default)]
    pub fortified: bool,
    /// Swamp: cavalry and artillery only along a road or trail; fire into it 1 left.
    #[serde(default)]
    pub swamp: bool,
}

/// What a melee from one hex into an adjacent one crosses (NB Leipzig Terrain Effects).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Crossing {
    /// A bridge over a river: a "major river bridge" (ruling NB23).
    pub river_bridge: bool,
    /// A stream, bridged or not (ruling NB24).
    pub stream: bool,
    /// Up a slope: through a slope hexside out of a slope hex, as the movement rules read
    /// slopes (ruling NB24).
    pub up_slope: bool,
}

/// Stacking limits in open ground, SP; halved in obstructed terrain (NB Stacking and SP
/// limits).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StackLimits {
    /// Infantry (brigade scale 12).
    pub infantry: u8,
    /// Cavalry (6; horse artillery counts half against it, rounded up).
    pub cavalry: u8,
    /// Artillery (12, shared with infantry at brigade scale).
    pub artillery: u8,
}

/// Movement costs the system adds to the original game's terrain chart (NB Leipzig Terrain
/// Effects; ruling NB73).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MovementRules {
    /// MP infantry pays to enter a swamp hex off the road (the original chart prohibits it,
    /// the system allows infantry in): 2 in our data, as the chart's other obstructed hexes.
    pub infantry_swamp_mp: u8,
}

/// A cavalry unit's class (NB Napoleon At Leipzig).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum CavalryClass {
    /// Heavy (speed 6): 1 column right attacking light cavalry.
    Heavy,
    /// Light (speed 7).
    Light,
}

/// The system's data for the Battle of Nations components.
#[derive(Clone, Debug, PartialEq)]
pub struct Supplement {
    /// Leaders.
    pub leaders: Vec<LeaderDef>,
    /// Formations (one per corps of the order of battle).
    pub formations: Vec<FormationDef>,
    /// Armies.
    pub armies: Vec<ArmyDef>,
    /// The melee table.
    pub melee: MeleeTable,
    /// Stacking limits.
    pub stacking: StackLimits,
    /// Movement costs this system adds to the original game's chart.
    pub movement: MovementRules,
    /// xxh3 of the text: part of every game's scenario digest.
    pub digest: u64,
    morale: MoraleRules,
    cavalry: CavalryRules,
    terrain: BTreeMap<String, TerrainClass>,
    features: BTreeMap<String, TerrainClass>,
    fortified_hexes: Vec<Hex>,
    demoralization: DemoralizationFile,
    starts: Vec<StartFile>,
    commanders: Vec<(String, Vec<usize>)>,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct MoraleRules {
    nations: BTreeMap<String, u8>,
    /// (corps, unit ids, morale) overrides, first match wins.
    overrides: Vec<MoraleOverride>,
    old_guard: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct MoraleOverride {
    /// Why (shown in the doc).
    why: String,
    #[serde(default)]
    corps: Option<String>,
    #[serde(default)]
    units: Vec<String>,
    morale: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Default)]
struct CavalryRules {
    heavy_speed: u8,
    light_speed: u8,
    units: BTreeMap<String, CavalryClass>,
}

// ---- the file ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct File {
    format: String,
    stacking: StackLimits,
    morale: MoraleFile,
    cavalry: CavalryFile,
    terrain: BTreeMap<String, TerrainClass>,
    features: BTreeMap<String, TerrainClass>,
    movement: MovementRules,
    #[serde(default)]
    fortified_hexes: Vec<Hex>,
    armies: Vec<ArmyFile>,
    demoralization: DemoralizationFile,
    formations: Vec<FormationFile>,
    leaders: Vec<LeaderFile>,
    #[serde(default)]
    starts: Vec<StartFile>,
    commanders: Vec<CommanderFile>,
    melee: MeleeTableFile,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct MoraleFile {
    nations: BTreeMap<String, u8>,
    #[serde(default)]
    overrides: Vec<MoraleOverride>,
    #[serde(default)]
    old_guard: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CavalryFile {
    heavy_speed: u8,
    light_speed: u8,
    #[serde(default)]
    units: BTreeMap<String, CavalryClass>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ArmyFile {
    name: String,
    side: String,
    disintegration_percent: u16,
    #[serde(default)]
    victory_points: u16,
}

/// How the loss limits were derived from the rulebook's Leipzig levels: documentation kept as
/// data (tests/data.rs recomputes every limit from it); validated, not used in play.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DemoralizationFile {
    /// The share of an army's SP its covered formations' limits add up to, percent.
    pub share_percent: u16,
    /// A limit is kept between these percentages of the formation's SP.
    pub clamp_percent: [u16; 2],
    /// The rulebook's levels and the corps each covers.
    #[serde(default)]
    pub rulebook_levels: Vec<RulebookLevel>,
}

/// One line of the rulebook's "Leipzig formation demoralization levels".
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RulebookLevel {
    /// The rulebook's name for it (`II Victor`).
    pub rulebook: String,
    /// Its level, in the rulebook's strength points.
    pub level: u16,
    /// Our army.
    pub army: String,
    /// Our corps it covers.
    pub corps: Vec<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct FormationFile {
    corps: String,
    name: String,
    army: String,
    loss_limit: u16,
    #[serde(default)]
    victory_points: u16,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct LeaderFile {
    id: String,
    name: String,
    nation: String,
    rank: Rank,
    command: u8,
    initiative: u8,
    range: u8,
    #[serde(default)]
    formations: Vec<String>,
    #[serde(default)]
    superior: Option<String>,
    #[serde(default = "ten")]
    movement: u8,
}

fn ten() -> u8 {
    10
}

/// A leader's start in one scenario, overriding the default (with the first unit of his
/// command).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
struct StartFile {
    scenario: String,
    leader: String,
    #[serde(default)]
    hex: Option<Hex>,
    #[serde(default)]
    unit: Option<String>,
    #[serde(default)]
    turn: Option<u8>,
    #[serde(default)]
    with_leader: Option<String>,
    #[serde(default)]
    absent: bool,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct CommanderFile {
    side: String,
    /// In order of succession: the first present is the overall commander.
    leaders: Vec<String>,
}

impl Supplement {
    /// The embedded supplement for the Battle of Nations.
    pub const BON_TOML: &'static str = include_str!("../data/bon.toml");

    /// The embedded supplement (a test proves it parses and fits all three scenarios).
    pub fn bon() -> Supplement {
        match Supplement::from_toml(Self::BON_TOML) {
            Ok(s) => s,
            // The embedded text is pinned by tests/data.rs; it cannot fail at run time.
            Err(e) => unreachable!("data/bon.toml: {e}"),
        }
    }

    /// Parses and validates a supplement's text (every problem is reported; never panics).
    pub fn from_toml(text: &str) -> Result<Supplement, DataError> {
        let f: File = toml::from_str(text)
            .map_err(|e| DataError(vec![e.to_string().trim().replace('\n', " ")]))?;
        let mut p = Vec::new();
        if f.format != "grognard-nb-supplement/1" {
            p.push(format!(
                "format '{}': expected grognard-nb-supplement/1",
                f.format
            ));
        }
        if f.movement.infantry_swamp_mp == 0 {
            p.push("movement: infantry_swamp_mp must be at least 1".into());
        }
        if f.stacking.infantry == 0 || f.stacking.cavalry == 0 || f.stacking.artillery == 0 {
            p.push("stacking: every limit must be at least 1".into());
        }
        let melee = match MeleeTable::from_file(&f.melee) {
            Ok(m) => Some(m),
            Err(e) => {
                p.push(e.to_string());
                None
            }
        };
        for (n, m) in &f.morale.nations {
            if !(1..=6).contains(m) {
                p.push(format!("morale of nation {n}: {m} is not 1..=6"));
            }
        }
        for o in &f.morale.overrides {
            if !(1..=6).contains(&o.morale) {
                p.push(format!(
                    "morale override '{}': {} is not 1..=6",
                    o.why, o.morale
                ));
            }
            if o.corps.is_none() && o.units.is_empty() {
                p.push(format!(
                    "morale override '{}' names no corps or unit",
                    o.why
                ));
            }
        }
        let mut armies: Vec<ArmyDef> = f
            .armies
            .iter()
            .map(|a| ArmyDef {
                name: a.name.clone(),
                side: a.side.clone(),
                loss_limit: 0,
                disintegration: 0,
                disintegration_percent: a.disintegration_percent,
                victory_points: a.victory_points,
            })
            .collect();
        for a in &armies {
            if a.disintegration_percent <= 100 {
                p.push(format!(
                    "army '{}': disintegration_percent {} must exceed 100 (of the loss limit)",
                    a.name, a.disintegration_percent
                ));
            }
        }
        let mut formations = Vec::new();
        for fo in &f.formations {
            let army = armies.iter().position(|a| a.name == fo.army);
            if army.is_none() {
                p.push(format!("formation '{}': no army '{}'", fo.corps, fo.army));
            }
            if formations
                .iter()
                .any(|x: &FormationDef| x.corps == fo.corps)
            {
                p.push(format!("formation '{}' twice", fo.corps));
            }
            if fo.loss_limit == 0 {
                p.push(format!("formation '{}': loss limit 0", fo.corps));
            }
            formations.push(FormationDef {
                corps: fo.corps.clone(),
                name: fo.name.clone(),
                army: army.unwrap_or(0),
                loss_limit: fo.loss_limit,
                victory_points: fo.victory_points,
            });
        }
        for (i, a) in armies.iter_mut().enumerate() {
            let sum: u32 = formations
                .iter()
                .filter(|x| x.army == i)
                .map(|x| u32::from(x.loss_limit))
                .sum();
            a.loss_limit = sum.min(u32::from(u16::MAX)) as u16;
            a.disintegration =
                disintegration(sum, a.disintegration_percent).min(u32::from(u16::MAX)) as u16;
        }
        let d = &f.demoralization;
        if d.clamp_percent[0] > d.clamp_percent[1] || d.clamp_percent[1] > 100 {
            p.push("demoralization: clamp_percent must be [low, high] within 0..=100".into());
        }
        for l in &d.rulebook_levels {
            if !f.armies.iter().any(|a| a.name == l.army) {
                p.push(format!(
                    "rulebook level '{}': no army '{}'",
                    l.rulebook, l.army
                ));
            }
            for c in &l.corps {
                if !formations.iter().any(|x| &x.corps == c) {
                    p.push(format!(
                        "rulebook level '{}': no formation '{c}'",
                        l.rulebook
                    ));
                }
            }
        }
        let ids: HashMap<&str, usize> = f
            .leaders
            .iter()
            .enumerate()
            .map(|(i, l)| (l.id.as_str(), i))
            .collect();
        if ids.len() != f.leaders.len() {
            p.push("two leaders share an id".into());
        }
        let mut leaders = Vec::new();
        for l in &f.leaders {
            if !(1..=6).contains(&l.initiative) {
                p.push(format!(
                    "leader {}: initiative {} is not 1..=6",
                    l.id, l.initiative
                ));
            }
            if l.range == 0 || l.movement == 0 {
                p.push(format!(
                    "leader {}: range and movement must be at least 1",
                    l.id
                ));
            }
            let mut fs = Vec::new();
            for c in &l.formations {
                match formations.iter().position(|x| &x.corps == c) {
                    Some(i) => fs.push(i),
                    None => p.push(format!("leader {}: no formation '{c}'", l.id)),
                }
            }
            if l.rank == Rank::Corps && fs.is_empty() {
                p.push(format!("corps officer {} commands no formation", l.id));
            }
            let superior = match &l.superior {
                Some(s) => match ids.get(s.as_str()) {
                    Some(&i) => Some(i),
                    None => {
                        p.push(format!("leader {}: no superior '{s}'", l.id));
                        None
                    }
                },
                None => None,
            };
            leaders.push(LeaderDef {
                id: l.id.clone(),
                name: l.name.clone(),
                nation: l.nation.clone(),
                rank: l.rank,
                command: l.command,
                initiative: l.initiative,
                range: l.range,
                formations: fs,
                superior,
                movement: l.movement,
            });
        }
        for (fi, fo) in formations.iter().enumerate() {
            let n = leaders
                .iter()
                .filter(|l| l.formations.contains(&fi))
                .count();
            if n > 1 {
                p.push(format!("formation '{}' has {n} officers", fo.corps));
            }
        }
        for s in &f.starts {
            if !ids.contains_key(s.leader.as_str()) {
                p.push(format!("start in {}: no leader '{}'", s.scenario, s.leader));
            }
            let n = [
                s.hex.is_some(),
                s.unit.is_some(),
                s.with_leader.is_some(),
                s.absent,
            ]
            .iter()
            .filter(|b| **b)
            .count();
            if n != 1 {
                p.push(format!(
                    "start of {} in {}: give exactly one of hex, unit, with_leader, absent",
                    s.leader, s.scenario
                ));
            }
            if s.with_leader.is_some() && s.turn.is_none() {
                p.push(format!(
                    "start of {} in {}: with_leader needs a turn",
                    s.leader, s.scenario
                ));
            }
            if let Some(w) = &s.with_leader {
                if !ids.contains_key(w.as_str()) {
                    p.push(format!("start of {}: no leader '{w}'", s.leader));
                }
            }
        }
        let mut commanders = Vec::new();
        for c in &f.commanders {
            let mut v = Vec::new();
            for id in &c.leaders {
                match ids.get(id.as_str()) {
                    Some(&i) if leaders[i].rank == Rank::Army => v.push(i),
                    Some(_) => p.push(format!("overall commander {id} is not an army commander")),
                    None => p.push(format!("overall commander: no leader '{id}'")),
                }
            }
            commanders.push((c.side.clone(), v));
        }
        let Some(melee) = melee.filter(|_| p.is_empty()) else {
            return Err(DataError(p));
        };
        Ok(Supplement {
            leaders,
            formations,
            armies,
            melee,
            stacking: f.stacking,
            movement: f.movement,
            digest: engine::hash_bytes(text.as_bytes()),
            morale: MoraleRules {
                nations: f.morale.nations,
                overrides: f.morale.overrides,
                old_guard: f.morale.old_guard,
            },
            cavalry: CavalryRules {
                heavy_speed: f.cavalry.heavy_speed,
                light_speed: f.cavalry.light_speed,
                units: f.cavalry.units,
            },
            terrain: f.terrain,
            features: f.features,
            fortified_hexes: f.fortified_hexes,
            demoralization: f.demoralization,
            starts: f.starts,
            commanders,
        })
    }

    /// The supplement with its melee table replaced by the `[melee]` section of `text` (a
    /// player's printed table, in the notation of `data/bon.toml`); the digest changes with
    /// it. A malformed table is refused with the reason.
    pub fn with_melee_table(&self, text: &str) -> Result<Supplement, DataError> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct MeleeOnly {
            melee: MeleeTableFile,
        }
        let m: MeleeOnly = toml::from_str(text)
            .map_err(|e| DataError(vec![e.to_string().trim().replace('\n', " ")]))?;
        let table = MeleeTable::from_file(&m.melee).map_err(|e| DataError(vec![e.to_string()]))?;
        let mut bytes = self.digest.to_le_bytes().to_vec();
        bytes.extend_from_slice(text.as_bytes());
        Ok(Supplement {
            melee: table,
            digest: engine::hash_bytes(&bytes),
            ..self.clone()
        })
    }

    /// Checks the supplement against a scenario: every unit's corps has a formation, every
    /// nation a morale, every map terrain a class, every named unit and hex exists.
    pub fn check(&self, sc: &Scenario) -> Result<(), DataError> {
        let mut p = Vec::new();
        for u in &sc.units {
            if !self.formations.iter().any(|f| f.corps == u.corps) {
                p.push(format!(
                    "unit {}: no formation for corps '{}'",
                    u.id, u.corps
                ));
            }
            let nation = &sc.nations[usize::from(u.nation)].id;
            if !self.morale.nations.contains_key(nation) {
                p.push(format!("unit {}: no morale for nation {nation}", u.id));
            }
        }
        for t in &sc.map.legend().terrain {
            if !self.terrain.contains_key(&t.id) {
                p.push(format!("map terrain '{}' has no class", t.id));
            }
        }
        for h in &self.fortified_hexes {
            if !sc.map.contains(*h) {
                p.push(format!("fortified hex {h} is off the map"));
            }
        }
        for a in &self.armies {
            if !sc.sides.contains(&a.side) {
                p.push(format!("army '{}': no side '{}'", a.name, a.side));
            }
        }
        for l in &self.leaders {
            if !sc.nations.iter().any(|n| n.id == l.nation) {
                p.push(format!("leader {}: no nation '{}'", l.id, l.nation));
            }
        }
        for (side, _) in &self.commanders {
            if !sc.sides.contains(side) {
                p.push(format!("overall commanders: no side '{side}'"));
            }
        }
        for s in self.starts.iter().filter(|s| s.scenario == sc.id) {
            if let Some(u) = &s.unit {
                if sc.unit_by_id(u).is_none() {
                    p.push(format!("start of {} in {}: no unit '{u}'", s.leader, sc.id));
                }
            }
            if let Some(h) = s.hex {
                if !sc.map.contains(h) {
                    p.push(format!(
                        "start of {} in {}: hex {h} off the map",
                        s.leader, sc.id
                    ));
                }
            }
        }
        if p.is_empty() {
            Ok(())
        } else {
            Err(DataError(p))
        }
    }

    /// The formation of a unit (index into `formations`); 0 if [`Supplement::check`] would
    /// have refused the scenario.
    pub fn formation_of(&self, sc: &Scenario, u: UnitId) -> usize {
        let corps = &sc.unit(u).corps;
        self.formations
            .iter()
            .position(|f| &f.corps == corps)
            .unwrap_or(0)
    }

    /// The officer of a formation (index into `leaders`), `None` for a formation commanded by
    /// nobody of rank (activated by unit initiative only, ruling NB3).
    pub fn officer_of(&self, formation: usize) -> Option<usize> {
        self.leaders
            .iter()
            .position(|l| l.rank == Rank::Corps && l.formations.contains(&formation))
    }

    /// A unit's base morale, which is also its unit initiative (NB Morale and disorder rules;
    /// NB Napoleon At Leipzig), before demoralization.
    pub fn morale(&self, sc: &Scenario, u: UnitId) -> u8 {
        let d = sc.unit(u);
        for o in &self.morale.overrides {
            if o.units.iter().any(|x| x == &d.id) || o.corps.as_deref() == Some(d.corps.as_str()) {
                return o.morale;
            }
        }
        let nation = &sc.nations[usize::from(d.nation)].id;
        self.morale.nations.get(nation).copied().unwrap_or(3)
    }

    /// A cavalry unit's class (`None` for infantry and artillery): by its speed, heavy 6 and
    /// light 7 (NB Napoleon At Leipzig), unless the data names it (ruling NB17).
    pub fn cavalry_class(&self, sc: &Scenario, u: UnitId) -> Option<CavalryClass> {
        let d = sc.unit(u);
        if d.kind != UnitType::Cavalry {
            return None;
        }
        if let Some(c) = self.cavalry.units.get(&d.id) {
            return Some(*c);
        }
        if d.movement >= self.cavalry.light_speed {
            Some(CavalryClass::Light)
        } else {
            Some(CavalryClass::Heavy)
        }
    }

    /// True for French Old Guard infantry: the "dot" attack shift (NB Napoleon At Leipzig).
    pub fn old_guard(&self, sc: &Scenario, u: UnitId) -> bool {
        let d = sc.unit(u);
        d.kind == UnitType::Infantry && self.morale.old_guard.iter().any(|x| x == &d.id)
    }

    /// The class of a legend terrain id (unknown ids are clear).
    pub fn terrain(&self, legend_id: &str) -> TerrainClass {
        self.terrain.get(legend_id).copied().unwrap_or_default()
    }

    /// The class of a hexside feature id (`bridge`, `stream`, ...): only what it means to
    /// this system; unknown ids mean nothing.
    pub fn feature(&self, legend_id: &str) -> TerrainClass {
        self.features.get(legend_id).copied().unwrap_or_default()
    }

    /// How this system moves through a legend terrain, in words, where it departs from the
    /// original game's chart (NB Leipzig Terrain Effects; ruling NB73): the swamp's. `None`
    /// where the original chart's cost stands. For the terrain chart of front ends.
    pub fn movement_text(&self, legend_id: &str) -> Option<String> {
        self.terrain(legend_id).swamp.then(|| {
            format!(
                "infantry {} MP to enter; cavalry, artillery and leaders only along a road or \
                 trail (1/2 MP along a road)",
                self.movement.infantry_swamp_mp
            )
        })
    }

    /// The class of a map hex: its terrain's, made fortified where the data says (ruling
    /// NB33).
    pub fn hex_class(&self, sc: &Scenario, h: Hex) -> TerrainClass {
        let id = sc
            .map
            .legend()
            .terrain_kind(sc.map.terrain(h))
            .map(|k| k.id.as_str())
            .unwrap_or("clear");
        let mut c = self.terrain(id);
        if self.fortified_hexes.contains(&h) {
            c.fortified = true;
            c.obstructed = true;
        }
        c
    }

    /// What a melee from `attacker` into the adjacent `defender` hex crosses, read from the
    /// map's hexside features (nothing for hexes that are not adjacent). The game copies it
    /// into [`crate::melee::MeleeSituation`]'s `across_bridge`, `across_stream` and
    /// `up_slope`.
    pub fn crossing(&self, sc: &Scenario, attacker: Hex, defender: Hex) -> Crossing {
        let side = sc.map.hexside_between(attacker, defender);
        let c = &sc.chart;
        Crossing {
            river_bridge: side.any(c.bridge) && side.any(c.river),
            stream: side.any(c.stream),
            up_slope: side.any(c.slope) && sc.map.is_slope_hex(attacker),
        }
    }

    /// The hexes the data makes fortified.
    pub fn fortified_hexes(&self) -> &[Hex] {
        &self.fortified_hexes
    }

    /// The overall commanders of a side in order of succession (indices into `leaders`): the
    /// first present is the one whose command rating is added to the initiative roll (NB
    /// Sequence of Play).
    pub fn overall_commanders(&self, sc: &Scenario, side: Side) -> Vec<usize> {
        let name = &sc.sides[usize::from(side.0).min(1)];
        self.commanders
            .iter()
            .filter(|(s, _)| s == name)
            .flat_map(|(_, v)| v.iter().copied())
            .collect()
    }

    /// The overall commander of a side on a turn: the first of the succession who is on the
    /// map by then (by [`Supplement::leader_starts`]); the game passes over a lost leader.
    pub fn overall_commander(&self, sc: &Scenario, side: Side, turn: u8) -> Option<usize> {
        let starts = self.leader_starts(sc);
        self.overall_commanders(sc, side)
            .into_iter()
            .find(|l| starts.iter().any(|(i, at)| i == l && at.turn(sc) <= turn))
    }

    /// The side a leader fights for in a scenario (by his nation).
    pub fn leader_side(&self, sc: &Scenario, leader: usize) -> Option<Side> {
        sc.nations
            .iter()
            .find(|n| n.id == self.leaders[leader].nation)
            .map(|n| n.side)
    }

    /// The units a leader commands directly or through his subordinates, in scenario order.
    fn command_units(&self, sc: &Scenario, leader: usize) -> Vec<UnitId> {
        let mut fs: Vec<usize> = self.leaders[leader].formations.clone();
        for (i, l) in self.leaders.iter().enumerate() {
            if i != leader && self.is_under(i, leader) {
                fs.extend(l.formations.iter().copied());
            }
        }
        (0..sc.units.len())
            .map(|i| UnitId(i as u8))
            .filter(|&u| fs.contains(&self.formation_of(sc, u)))
            .collect()
    }

    /// True when `leader` is below `chief` in the chain of command.
    fn is_under(&self, leader: usize, chief: usize) -> bool {
        let mut cur = self.leaders[leader].superior;
        let mut n = 0;
        while let Some(s) = cur {
            if s == chief {
                return true;
            }
            n += 1;
            if n > self.leaders.len() {
                return false;
            }
            cur = self.leaders[s].superior;
        }
        false
    }

    /// The leaders a scenario has and where each starts (ruling NB8): a leader named for the
    /// scenario in `[[starts]]` starts there; any other starts stacked with the first unit of
    /// his command (of his own nation where it has any) on the map at the start, else arrives
    /// with its first arriving unit; a leader with no unit in the scenario is not in it.
    pub fn leader_starts(&self, sc: &Scenario) -> Vec<(usize, LeaderAt)> {
        let mut out = Vec::new();
        for (i, l) in self.leaders.iter().enumerate() {
            if let Some(s) = self
                .starts
                .iter()
                .find(|s| s.scenario == sc.id && s.leader == l.id)
            {
                if s.absent {
                    continue;
                }
                if let Some(h) = s.hex {
                    out.push((
                        i,
                        match s.turn {
                            Some(t) if t > sc.first_turn => LeaderAt::Arrives { turn: t, hex: h },
                            _ => LeaderAt::Hex(h),
                        },
                    ));
                    continue;
                }
                if let Some(u) = s.unit.as_deref().and_then(|u| sc.unit_by_id(u)) {
                    out.push((i, LeaderAt::WithUnit(u)));
                    continue;
                }
                if let Some(w) = &s.with_leader {
                    if let Some(j) = self.leaders.iter().position(|x| &x.id == w) {
                        out.push((
                            i,
                            LeaderAt::WithLeader {
                                turn: s.turn.unwrap_or(sc.first_turn),
                                leader: j,
                            },
                        ));
                    }
                    continue;
                }
            }
            let mut units: Vec<UnitId> = self
                .command_units(sc, i)
                .into_iter()
                .filter(|&u| !matches!(sc.unit(u).start, Start::Destroyed))
                .collect();
            // His own nation's units first, where his command has any.
            let own: Vec<UnitId> = units
                .iter()
                .copied()
                .filter(|&u| sc.nations[usize::from(sc.unit(u).nation)].id == l.nation)
                .collect();
            if !own.is_empty() {
                units = own;
            }
            let on_map = units
                .iter()
                .find(|&&u| matches!(sc.unit(u).start, Start::Hex(_)));
            let first = on_map.copied().or_else(|| {
                units
                    .iter()
                    .filter_map(|&u| match sc.unit(u).start {
                        Start::Arrives(a) => Some((a.turn, u)),
                        _ => None,
                    })
                    .min()
                    .map(|x| x.1)
            });
            if let Some(u) = first {
                out.push((i, LeaderAt::WithUnit(u)));
            }
        }
        out
    }

    /// The total printed SP of a formation's units in a scenario (for loss limits).
    pub fn formation_strength(&self, sc: &Scenario, formation: usize) -> u32 {
        sc.units
            .iter()
            .filter(|u| self.formations.get(formation).map(|f| &f.corps) == Some(&u.corps))
            .map(|u| u32::from(u.strength))
            .sum()
    }

    /// How the loss limits were derived (the rulebook's levels, the share and the clamp).
    pub fn demoralization_source(&self) -> &DemoralizationFile {
        &self.demoralization
    }

    /// The formations with units in a scenario (indices into `formations`).
    pub fn formations_in(&self, sc: &Scenario) -> Vec<usize> {
        (0..self.formations.len())
            .filter(|&i| sc.units.iter().any(|u| u.corps == self.formations[i].corps))
            .collect()
    }

    /// An army's loss limit in a scenario: the sum of the limits of its formations that have
    /// units in it (NB Leipzig formation demoralization levels: the army's level is its
    /// formations' sum). Losses at or above it demoralize the army (NB Formation
    /// demoralization).
    pub fn army_loss_limit(&self, sc: &Scenario, army: usize) -> u32 {
        self.formations_in(sc)
            .into_iter()
            .filter(|&i| self.formations[i].army == army)
            .map(|i| u32::from(self.formations[i].loss_limit))
            .sum()
    }

    /// An army's disintegration level in a scenario: its loss limit times its
    /// `disintegration_percent`, rounded up; reaching it is an automatic defeat (ruling NB25).
    pub fn army_disintegration(&self, sc: &Scenario, army: usize) -> u32 {
        disintegration(
            self.army_loss_limit(sc, army),
            self.armies[army].disintegration_percent,
        )
    }

    /// The army of a scenario unit (index into `armies`).
    pub fn army_of(&self, sc: &Scenario, u: UnitId) -> usize {
        self.formations[self.formation_of(sc, u)].army
    }

    /// The side of an army in a scenario.
    pub fn army_side(&self, sc: &Scenario, army: usize) -> Option<Side> {
        sc.sides
            .iter()
            .position(|s| s == &self.armies[army].side)
            .map(|i| Side(i as u8))
    }
}

/// `limit x percent / 100`, rounded up.
fn disintegration(limit: u32, percent: u16) -> u32 {
    (limit * u32::from(percent)).div_ceil(100)
}
