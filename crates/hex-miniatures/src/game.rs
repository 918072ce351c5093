//! The game: its state, the five-stage player-turn of [5.1.2] and `engine::Rules`.
//!
//! A turn is two player-turns ([5.1.2], [5.1.3]); side 0 takes the attacking stage in the
//! first. Each player-turn runs (a) the phasing army's rallies ([6]), (b) its orders ([7]),
//! (c) its movement ([8]), (d) combat: its artillery fires ([9.1]), then its attacks are
//! declared and resolved, cavalry's first ([9]), (e) the crisis of morale ([13]). Every
//! random number is a chance event (`draw 0.734`), the weather die too (`roll 4`).
//!
//! Automatic work (rallies, a messenger's arrival, a combat, a crisis test) waits in a queue;
//! each item that needs a number makes the game wait for a chance event.

use crate::action::{parse_dir, Action, Formation, GeneralId, UnitId};
use crate::army::{self, Arm, ArmyLine, Circumstance, Kind, Order};
use crate::data::Tables;
use crate::event::{Cause, Event, Stage};
use crate::morale::{self, Crisis, GeneralFate, UnderFire};
use crate::prob::{Draw, Modifier, Prob, D1000};
use crate::results::Movement as Withdrawal;
use crate::setup::{Setup, SetupError, Standing, Start, WeatherKind, TURN_MINUTES};
use crate::terrain::TerrainChart;
use crate::victory;
use engine::{Outcome, Refusal, Rules, Side, ToAct};
use hexmap::{Dir, Edge, Hex, HexGrid, Hexside};
use std::collections::VecDeque;
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Loc {
    /// Not yet arrived ([3.2]).
    Waiting,
    /// On the table.
    Map(Hex),
    /// Out of the battle (destroyed, captured, routed off the table; a general killed,
    /// wounded or captured; a messenger home).
    Gone,
}

impl Loc {
    /// The hex of a thing on the table; `None` while it waits or once it is gone.
    pub fn hex(self) -> Option<Hex> {
        match self {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UnitState {
    pub loc: Loc,
    pub bases: u8,
    pub order: Order,
    pub formation: Formation,
    pub facing: u8,
    /// Moved (or changed formation, or withdrew) this player-turn.
    pub moved: bool,
    pub faced: bool,
    pub fired: bool,
    /// The hex it attacks this combat stage.
    pub target: Option<Hex>,
    /// Has fought since it last came into contact with the enemy (lancers strike as medium
    /// cavalry only in their first combat of a contact, [2.4.4.5]; HM38).
    pub contact: bool,
    /// Cavalry whose square held: the hex of the square it must charge again ([9.3.5]).
    pub pinned: Option<Hex>,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct GeneralState {
    pub loc: Loc,
    pub rode: bool,
    pub ordered: bool,
    /// Took his test under fire this player-turn (and survived, if still here).
    pub tested: bool,
}

/// A messenger carrying an order, or riding back ([7.1.2.1]).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub struct Messenger {
    /// The side.
    pub side: u8,
    /// The general who sent him.
    pub from: GeneralId,
    /// The formation he rides to.
    pub formation: u8,
    /// The order he carries (`None` on the way back).
    pub order: Option<Standing>,
    /// Where he is.
    pub at: Hex,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Task {
    Rally(UnitId),
    Deliver(u8),
    GeneralTest(GeneralId, bool),
    FireDraw(UnitId, UnitId),
    Prepare(Hex),
    CombatDraw(Hex),
    Recharge(UnitId),
    RechargeDraw(UnitId),
    Crisis(UnitId, u32),
    Weather,
}

impl Task {
    fn needs_die(self) -> bool {
        matches!(self, Task::Weather)
    }
    fn needs_draw(self) -> bool {
        !matches!(self, Task::Prepare(_) | Task::Recharge(_))
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State {
    /// Turn index from 0.
    pub turn: u16,
    /// The phasing side.
    pub part: u8,
    pub stage: Stage,
    pub units: Vec<UnitState>,
    pub generals: Vec<GeneralState>,
    pub orders: Vec<Standing>,
    pub messengers: Vec<Messenger>,
    pub queue: VecDeque<Task>,
    /// Base units lost, and the total that took the field ([3.2], [12]).
    pub lost: [u32; 2],
    pub total: [u32; 2],
    /// The highest casualty level each army has tested ([13]).
    pub tested: [Option<u32>; 2],
    pub weather: u8,
    /// The side holding each objective hex ([14]), in `Fixed::field`'s order.
    pub held: Vec<u8>,
    /// Player actions since the last chance event.
    pub since_chance: u16,
    /// No player has acted yet in this stage (a stage with no choice then passes by).
    pub fresh: bool,
    /// A hex vacated by a combat, and the victors who may advance into it ([8.7.4]).
    pub advance: Option<(Hex, Vec<UnitId>)>,
}

/// Tables and the setup, with what is derived from them once.
#[derive(Debug)]
pub(crate) struct Fixed {
    pub setup: Setup,
    pub tables: Tables,
    pub lines: Vec<ArmyLine>,
    /// The [18] kind of each hex.
    pub kind: HexGrid<u8>,
    pub kinds: Vec<String>,
    pub road: Hexside,
    pub lane: Hexside,
    pub river: Hexside,
    pub stream: Hexside,
    pub bridge: Hexside,
    pub slope: Hexside,
    /// The hexes at the top of a slope ([18] Slope, top to bottom): slope hexes and the tops
    /// of slope hexsides (HM49), from which one sees over the hexes below (HM50).
    pub high: HexGrid<bool>,
    /// The hexes an order may name as an objective.
    pub objectives: Vec<Hex>,
    /// The objective hexes of the victory conditions ([14]).
    pub field: Vec<Hex>,
}

/// A game of the hex-miniatures rules.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) fx: Arc<Fixed>,
    pub(crate) st: State,
    pub(crate) occ: HexGrid<Vec<UnitId>>,
    pub(crate) events: Vec<Event>,
    pub(crate) outcome: Option<Outcome>,
}

/// A unit as the presenter and the computer players see it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct UnitView {
    /// Its id.
    pub id: String,
    /// Its side.
    pub side: u8,
    /// Its kind (`line`, `heavy-cavalry`, `foot-battery`...).
    pub kind: &'static str,
    /// Where it is.
    pub loc: Loc,
    /// The hexside it faces (`E`, `NE`...).
    pub facing: &'static str,
    /// Its formation.
    pub formation: Formation,
    /// Its state.
    pub order: Order,
    /// Base units left.
    pub bases: u8,
    /// Its combat strength now (before terrain).
    pub strength: u32,
    /// Moved this player-turn.
    pub moved: bool,
}

/// A general as the presenter sees him.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct GeneralView {
    /// His id.
    pub id: String,
    /// His side.
    pub side: u8,
    /// Where he is.
    pub loc: Loc,
    /// Senior (+0.200).
    pub senior: bool,
}

pub(crate) fn other(s: u8) -> u8 {
    1 - s
}

fn dir_of(i: u8) -> Dir {
    Dir::ALL[usize::from(i % 6)]
}

impl Game {
    /// A new game of a scenario with the rules' tables; a clear error if they do not fit.
    pub fn new(scenario: &crate::scenario::Scenario, tables: &Tables) -> Result<Game, SetupError> {
        Game::from_setup(Setup::from_scenario(scenario), tables)
    }

    /// A new game of a setup with the rules' tables; a clear error if they do not fit.
    pub fn from_setup(setup: Setup, tables: &Tables) -> Result<Game, SetupError> {
        setup.check(tables)?;
        let lines = setup
            .units
            .iter()
            .map(|u| *tables.line(&u.nation, u.kind).expect("checked"))
            .collect();
        let kinds: Vec<String> = crate::terrain::HEX_KINDS
            .iter()
            .map(|s| s.to_string())
            .collect();
        let mut kind = setup.map.grid(0u8);
        for h in setup.map.hexes() {
            let t = setup.map.terrain(h).0 as usize;
            let k = setup.hex_kinds.get(t).map_or("clear", |s| s.as_str());
            let i = kinds.iter().position(|x| x == k).unwrap_or(0);
            if let Some(c) = kind.get_mut(h) {
                *c = i as u8;
            }
        }
        let legend = setup.map.legend();
        let feat = |what: &str| {
            let mut m = Hexside::NONE;
            for (i, _) in legend.features.iter().enumerate() {
                if setup.hexside_kinds.get(i).is_some_and(|k| k == what) {
                    m = m.with(Hexside::bit(i));
                }
            }
            m
        };
        let (road, lane, river, stream, bridge, slope) = (
            feat("road"),
            feat("trail"),
            feat("river"),
            feat("stream"),
            feat("bridge"),
            feat("slope"),
        );
        // HM50: the top of a slope is a slope hex (its symbol, or a hex of the slope kind),
        // or the upper hex of a slope hexside as the scenario draws it (HM49)
        let mut high = setup.map.grid(false);
        for h in setup.map.hexes() {
            let k = kind.get(h).copied().unwrap_or(0) as usize;
            if setup.map.is_slope_hex(h) || kinds[k] == "slope" {
                if let Some(x) = high.get_mut(h) {
                    *x = true;
                }
            }
        }
        for &(_, top) in &setup.uphill {
            if let Some(x) = high.get_mut(top) {
                *x = true;
            }
        }
        let mut objectives: Vec<Hex> = setup.map.places.iter().map(|p| p.hex).collect();
        objectives.extend(
            setup
                .objectives
                .iter()
                .flat_map(|o| o.hexes.iter().copied()),
        );
        for h in setup.map.hexes() {
            let k = kind.get(h).copied().unwrap_or(0) as usize;
            if matches!(kinds[k].as_str(), "town" | "fortified" | "earthwork") {
                objectives.push(h);
            }
        }
        objectives.sort();
        objectives.dedup();
        let units = setup
            .units
            .iter()
            .map(|u| UnitState {
                loc: match u.start {
                    Start::Hex(h) => Loc::Map(h),
                    Start::Arrives { .. } => Loc::Waiting,
                },
                bases: u.base_units,
                order: Order::Ordered,
                formation: u.formation,
                facing: 0,
                moved: false,
                faced: false,
                fired: false,
                target: None,
                contact: false,
                pinned: None,
            })
            .collect::<Vec<_>>();
        let generals = setup
            .generals
            .iter()
            .map(|g| GeneralState {
                loc: match g.start {
                    Start::Hex(h) => Loc::Map(h),
                    Start::Arrives { .. } => Loc::Waiting,
                },
                rode: false,
                ordered: false,
                tested: false,
            })
            .collect();
        let mut total = [0u32; 2];
        for (u, s) in setup.units.iter().zip(&units) {
            if matches!(s.loc, Loc::Map(_)) {
                total[usize::from(u.side)] += u32::from(u.base_units);
            }
        }
        let weather = match setup.weather {
            WeatherKind::Clear => 0,
            WeatherKind::Fog => setup.weather_start.unwrap_or(tables.weather.fog.start),
            WeatherKind::Snow | WeatherKind::Storm => {
                setup.weather_start.unwrap_or(tables.weather.snow.start)
            }
        };
        let orders = setup.formations.iter().map(|f| f.order).collect();
        let mut field = Vec::new();
        let mut held = Vec::new();
        for o in &setup.objectives {
            for &h in &o.hexes {
                if !field.contains(&h) {
                    field.push(h);
                    held.push(o.held);
                }
            }
        }
        let occ = setup.map.grid(Vec::new());
        let fx = Fixed {
            lines,
            kind,
            kinds,
            road,
            lane,
            river,
            stream,
            bridge,
            slope,
            high,
            objectives,
            field,
            tables: tables.clone(),
            setup,
        };
        let mut g = Game {
            st: State {
                turn: 0,
                part: 0,
                stage: Stage::Rally,
                units,
                generals,
                orders,
                messengers: Vec::new(),
                queue: VecDeque::new(),
                lost: [0; 2],
                total,
                tested: [None; 2],
                weather,
                held,
                since_chance: 0,
                fresh: true,
                advance: None,
            },
            fx: Arc::new(fx),
            occ,
            events: Vec::new(),
            outcome: None,
        };
        for i in 0..g.st.units.len() {
            if let Loc::Map(h) = g.st.units[i].loc {
                g.occ_add(UnitId(i as u8), h);
            }
        }
        // Every unit starts facing the enemy's side of the table (HM26).
        for i in 0..g.st.units.len() {
            let s = g.fx.setup.units[i].side;
            g.st.units[i].facing = g.toward_enemy_edge(s);
        }
        g.begin_turn();
        g.advance();
        Ok(g)
    }

    // ---- queries for the presenter and the computer players ----

    /// The setup the game was built from.
    pub fn setup(&self) -> &Setup {
        &self.fx.setup
    }

    /// The rules' tables.
    pub fn tables(&self) -> &Tables {
        &self.fx.tables
    }

    /// The turn, 1 first.
    pub fn turn(&self) -> u16 {
        self.st.turn + 1
    }

    /// The number of turns of the battle.
    pub fn turns(&self) -> u16 {
        ((self.fx.setup.end_minute - self.fx.setup.start_minute) / TURN_MINUTES) as u16
    }

    /// The minute of the day of this turn ([2.5]).
    pub fn minute(&self) -> u32 {
        self.fx.setup.start_minute + u32::from(self.st.turn) * TURN_MINUTES
    }

    /// The side in the attacking stage ([5.1.1]).
    pub fn phasing(&self) -> Side {
        Side(self.st.part)
    }

    /// The stage of the player-turn.
    pub fn stage(&self) -> Stage {
        self.st.stage
    }

    /// The number of units.
    pub fn unit_count(&self) -> usize {
        self.st.units.len()
    }

    /// A unit as the front ends see it.
    pub fn unit(&self, u: UnitId) -> UnitView {
        let s = &self.st.units[usize::from(u.0)];
        let d = &self.fx.setup.units[usize::from(u.0)];
        UnitView {
            id: d.id.clone(),
            side: d.side,
            kind: d.kind.id(),
            loc: s.loc,
            facing: dir_of(s.facing).name(),
            formation: s.formation,
            order: s.order,
            bases: s.bases,
            strength: self.strength(u, false),
            moved: s.moved,
        }
    }

    /// The hex of a unit on the table.
    pub fn hex_of(&self, u: UnitId) -> Option<Hex> {
        self.st.units[usize::from(u.0)].loc.hex()
    }

    /// The units in a hex.
    pub fn units_at(&self, h: Hex) -> &[UnitId] {
        self.occ.get(h).map_or(&[], |v| v.as_slice())
    }

    /// A unit's side.
    pub fn side_of(&self, u: UnitId) -> u8 {
        self.fx.setup.units[usize::from(u.0)].side
    }

    /// A unit's kind.
    pub fn kind_of(&self, u: UnitId) -> Kind {
        self.fx.setup.units[usize::from(u.0)].kind
    }

    /// A unit's id text.
    pub fn unit_name(&self, u: UnitId) -> &str {
        &self.fx.setup.units[usize::from(u.0)].id
    }

    /// A unit by its id (case-insensitive).
    pub fn unit_by_id(&self, id: &str) -> Option<UnitId> {
        self.fx
            .setup
            .units
            .iter()
            .position(|u| u.id.eq_ignore_ascii_case(id))
            .map(|i| UnitId(i as u8))
    }

    /// The number of generals.
    pub fn general_count(&self) -> usize {
        self.st.generals.len()
    }

    /// A general as the front ends see him.
    pub fn general(&self, g: GeneralId) -> GeneralView {
        let d = &self.fx.setup.generals[usize::from(g.0)];
        GeneralView {
            id: d.id.clone(),
            side: d.side,
            loc: self.st.generals[usize::from(g.0)].loc,
            senior: d.senior,
        }
    }

    /// A general by his id (case-insensitive).
    pub fn general_by_id(&self, id: &str) -> Option<GeneralId> {
        self.fx
            .setup
            .generals
            .iter()
            .position(|u| u.id.eq_ignore_ascii_case(id))
            .map(|i| GeneralId(i as u8))
    }

    /// A formation by its id (case-insensitive).
    pub fn formation_by_id(&self, id: &str) -> Option<u8> {
        self.fx
            .setup
            .formations
            .iter()
            .position(|f| f.id.eq_ignore_ascii_case(id))
            .map(|i| i as u8)
    }

    /// A formation's standing order ([7.1]).
    pub fn formation_order(&self, f: u8) -> Standing {
        self.st.orders[usize::from(f)]
    }

    /// The messengers on the table: orders in transit and riders going back ([7.1.2]).
    pub fn messengers(&self) -> &[Messenger] {
        &self.st.messengers
    }

    /// The hexes an order may name as an objective (the table's places, towns and works).
    pub fn objectives(&self) -> &[Hex] {
        &self.fx.objectives
    }

    /// Base units each army has lost and the total that took the field ([3.2], [12]).
    pub fn casualties(&self) -> [(u32, u32); 2] {
        [
            (self.st.lost[0], self.st.total[0]),
            (self.st.lost[1], self.st.total[1]),
        ]
    }

    /// The highest casualty level each army has reached and tested ([13]).
    pub fn crisis_level(&self) -> [Option<u32>; 2] {
        self.st.tested
    }

    /// The weather counter's position (0: no weather this battle) ([24]).
    pub fn weather_position(&self) -> u8 {
        self.st.weather
    }

    /// The visible range by the weather alone (`None`: clear).
    pub fn weather_visibility(&self) -> Option<u8> {
        let w = &self.fx.tables.weather;
        match self.fx.setup.weather {
            WeatherKind::Clear => None,
            WeatherKind::Fog => w.fog.visibility(self.st.weather),
            WeatherKind::Snow | WeatherKind::Storm => w.snow.visibility(self.st.weather),
        }
    }

    /// The visible range by the light alone ([24]: dusk, and dawn for a battle that starts
    /// before light; 0 at night; HM53).
    pub fn light(&self) -> Option<u8> {
        let s = &self.fx.setup;
        self.fx
            .tables
            .weather
            .light_at(self.minute(), s.dawn_minute, s.night_minute)
    }

    /// The turn's visible range: the shorter of the weather's and the light's (`None`:
    /// unlimited, subject to terrain) ([24]).
    pub fn visibility(&self) -> Option<u8> {
        crate::weather::visibility(self.weather_visibility(), self.light())
    }

    /// A night turn: no combat, no entering enemy zones of control ([11.2]).
    pub fn night(&self) -> bool {
        self.light() == Some(0)
    }

    /// Whether a side sees a hex: within the turn's visible range of one of its units or
    /// generals, by a line of sight no terrain blocks ([18], [24]).
    pub fn sees(&self, side: u8, h: Hex) -> bool {
        let range = self.visibility();
        let eyes = self
            .st
            .units
            .iter()
            .enumerate()
            .filter(|(i, _)| self.fx.setup.units[*i].side == side)
            .map(|(_, s)| s.loc)
            .chain(
                self.st
                    .generals
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| self.fx.setup.generals[*i].side == side)
                    .map(|(_, s)| s.loc),
            );
        for l in eyes {
            if let Loc::Map(e) = l {
                let d = self.fx.setup.map.distance(e, h);
                if range.is_some_and(|r| d > u32::from(r)) {
                    continue;
                }
                if self.line_clear(e, h, false) {
                    return true;
                }
            }
        }
        false
    }

    /// Whether a hex is at the top of a slope: a slope hex, or the upper side of a slope
    /// hexside (HM49, HM50). Troops there see a hex behind towns and forests ([18]).
    pub fn at_the_top(&self, h: Hex) -> bool {
        self.fx.high.get(h).copied().unwrap_or(false)
    }

    /// Whether a hex carries the slope symbol ([8.4.6]): marked so on the map or of the
    /// slope kind.
    pub(crate) fn slope_hex(&self, h: Hex) -> bool {
        self.fx.setup.map.is_slope_hex(h) || self.hex_kind(h) == "slope"
    }

    /// Whether a side sees a unit (its own always).
    pub fn sees_unit(&self, side: u8, u: UnitId) -> bool {
        self.side_of(u) == side || self.hex_of(u).is_some_and(|h| self.sees(side, h))
    }

    /// The terrain kind of [18] a hex plays as (`clear`, `forest`...).
    pub fn hex_kind(&self, h: Hex) -> &str {
        let k = self.fx.kind.get(h).copied().unwrap_or(0);
        &self.fx.kinds[usize::from(k)]
    }

    /// For tests: sets a unit's state, base units and formation.
    #[doc(hidden)]
    pub fn set_unit_for_test(
        &mut self,
        u: UnitId,
        order: Order,
        bases: u8,
        formation: Formation,
        facing: Dir,
    ) {
        let s = self.us_mut(u);
        s.order = order;
        s.bases = bases;
        s.formation = formation;
        s.facing = facing as u8;
    }

    /// For tests: sets an army's losses.
    #[doc(hidden)]
    pub fn set_losses_for_test(&mut self, side: u8, lost: u32) {
        self.st.lost[usize::from(side)] = lost;
    }

    // ---- internals: places ----

    pub(crate) fn us(&self, u: UnitId) -> &UnitState {
        &self.st.units[usize::from(u.0)]
    }

    pub(crate) fn us_mut(&mut self, u: UnitId) -> &mut UnitState {
        &mut self.st.units[usize::from(u.0)]
    }

    pub(crate) fn line(&self, u: UnitId) -> &ArmyLine {
        &self.fx.lines[usize::from(u.0)]
    }

    pub(crate) fn arm_of(&self, u: UnitId) -> Arm {
        self.kind_of(u).arm()
    }

    fn occ_add(&mut self, u: UnitId, h: Hex) {
        if let Some(v) = self.occ.get_mut(h) {
            let i = v.partition_point(|&x| x < u);
            v.insert(i, u);
        }
    }

    pub(crate) fn set_loc(&mut self, u: UnitId, loc: Loc) {
        self.us_mut(u).pinned = None;
        if let Loc::Map(h) = self.us(u).loc {
            if let Some(v) = self.occ.get_mut(h) {
                v.retain(|&x| x != u);
            }
        }
        if let Loc::Map(h) = loc {
            self.occ_add(u, h);
            // [14]: the last side to stand in an objective hex holds it
            if let Some(i) = self.fx.field.iter().position(|&f| f == h) {
                self.st.held[i] = self.side_of(u);
            }
        }
        self.us_mut(u).loc = loc;
    }

    /// The side holding every objective hex, if one does ([14]; HM48).
    pub fn holder_of_the_field(&self) -> Option<u8> {
        let first = *self.st.held.first()?;
        self.st.held.iter().all(|&s| s == first).then_some(first)
    }

    /// The objective hexes and who holds each ([14]).
    pub fn objective_holders(&self) -> Vec<(Hex, u8)> {
        self.fx
            .field
            .iter()
            .copied()
            .zip(self.st.held.iter().copied())
            .collect()
    }

    pub(crate) fn general_hex(&self, g: usize) -> Option<Hex> {
        self.st.generals[g].loc.hex()
    }

    pub(crate) fn chart(&self) -> &TerrainChart {
        &self.fx.tables.terrain
    }

    /// The direction toward the enemy's rear edge.
    fn toward_enemy_edge(&self, side: u8) -> u8 {
        match self.fx.setup.sides[usize::from(other(side))].rear {
            Edge::North => Dir::NE as u8,
            Edge::South => Dir::SW as u8,
            Edge::East => Dir::E as u8,
            Edge::West => Dir::W as u8,
        }
    }

    /// Hexes between a hex and its side's rear edge.
    pub(crate) fn to_rear(&self, side: u8, h: Hex) -> i32 {
        let m = &self.fx.setup.map;
        match self.fx.setup.sides[usize::from(side)].rear {
            Edge::North => i32::from(h.x) - 1,
            Edge::South => i32::from(m.width() - h.x),
            Edge::East => i32::from(h.y) - 1,
            Edge::West => i32::from(m.height() - h.y),
        }
    }

    /// The hexside features between two adjacent hexes.
    pub(crate) fn side_between(&self, a: Hex, b: Hex) -> Hexside {
        self.fx.setup.map.hexside_between(a, b)
    }

    /// A river not bridged: no crossing, no zone of control, no attack ([3.1.3.1], [4.1.6]).
    pub(crate) fn barred(&self, a: Hex, b: Hex) -> bool {
        let s = self.side_between(a, b);
        s.any(self.fx.river) && !s.any(self.fx.bridge)
    }

    /// True when an enemy of `side` (not routed) exerts a zone of control on `h` ([4],
    /// [4.1.6]; HM27: routed units exert none).
    pub(crate) fn enemy_zoc(&self, side: u8, h: Hex) -> bool {
        let m = &self.fx.setup.map;
        m.neighbours(h).into_iter().any(|n| {
            m.contains(n)
                && !self.barred(h, n)
                && self
                    .units_at(n)
                    .iter()
                    .any(|&e| self.side_of(e) != side && self.us(e).order != Order::Routed)
        })
    }

    pub(crate) fn enemy_in(&self, side: u8, h: Hex) -> bool {
        self.units_at(h).iter().any(|&e| self.side_of(e) != side)
    }

    /// Whether the line between two hexes is clear of blocking terrain ([18]) and, for a
    /// battery's fire, of units ([9.1.3]); a line along a hexside is blocked only if both
    /// hexes block. From the top of a slope ([18] Slope, top to bottom; HM50) the slope
    /// below does not block, and a town, forest or work hides only the hexes more than one
    /// behind it: the hex just behind it is seen.
    pub(crate) fn line_clear(&self, a: Hex, b: Hex, units_block: bool) -> bool {
        use hexmap::LosStep;
        let top = self.at_the_top(a);
        let map = &self.fx.setup.map;
        let blocks = |h: Hex| {
            let terrain = self
                .chart()
                .hex(self.hex_kind(h))
                .is_some_and(|t| t.sight == crate::terrain::Sight::Blocks)
                && !(top && (self.slope_hex(h) || map.distance(h, b) <= 1));
            terrain || (units_block && !self.units_at(h).is_empty())
        };
        self.fx
            .setup
            .map
            .line_of_sight(a, b)
            .into_iter()
            .all(|s| match s {
                LosStep::Hex(h) => !blocks(h),
                LosStep::Hexside(p, q) => !(blocks(p) && blocks(q)),
            })
    }

    /// Whether a unit may stand in a hex with those already there ([2.4.1.3], [3.1.5],
    /// [8.5.2], [8.6]): one battalion or regiment and one battery; a disordered, retiring or
    /// routed unit (`share`) may end beside one friendly battalion or regiment, which it
    /// disrupts ([2.4.1.5], [6.1], [8.6.2.1]).
    pub(crate) fn may_stand(&self, u: UnitId, h: Hex, share: bool) -> bool {
        let side = self.side_of(u);
        let arm = self.arm_of(u);
        if !self.chart().may_occupy(self.hex_kind(h), arm) {
            return false;
        }
        let mut foot = 0;
        let mut guns = 0;
        for &o in self.units_at(h) {
            if o == u {
                continue;
            }
            if self.side_of(o) != side {
                return false;
            }
            match self.arm_of(o) {
                Arm::Artillery => guns += 1,
                _ => foot += 1,
            }
        }
        match arm {
            Arm::Artillery => guns == 0,
            _ => foot == 0 || (share && foot == 1),
        }
    }

    /// A unit's combat strength now ([9.4.1], [16]).
    pub(crate) fn strength(&self, u: UnitId, exchange: bool) -> u32 {
        let s = self.us(u);
        army::strength(
            self.line(u),
            s.bases,
            s.order,
            Circumstance {
                in_square: s.formation == Formation::Square,
                first_contact: exchange && !s.contact && self.side_of(u) == self.st.part,
                artillery_in_exchange: exchange && self.arm_of(u) == Arm::Artillery,
            },
        )
    }

    /// The generals of a side in some hexes, still on the table: (ordinary, senior) ([6.3],
    /// [9.2]).
    pub(crate) fn generals_in(&self, side: u8, hexes: &[Hex]) -> (u32, u32) {
        let mut n = (0, 0);
        for (i, g) in self.fx.setup.generals.iter().enumerate() {
            if g.side != side {
                continue;
            }
            if let Loc::Map(h) = self.st.generals[i].loc {
                if hexes.contains(&h) {
                    if g.senior {
                        n.1 += 1;
                    } else {
                        n.0 += 1;
                    }
                }
            }
        }
        n
    }

    pub(crate) fn bonus(&self, side: u8, hexes: &[Hex]) -> Modifier {
        let (a, b) = self.generals_in(side, hexes);
        self.fx.tables.combat.generals(a, b)
    }

    /// Generals of a side in the hexes who have not yet been tested this player-turn.
    pub(crate) fn untested(&self, side: u8, hexes: &[Hex]) -> Vec<GeneralId> {
        (0..self.st.generals.len())
            .filter(|&i| {
                self.fx.setup.generals[i].side == side
                    && !self.st.generals[i].tested
                    && self.general_hex(i).is_some_and(|h| hexes.contains(&h))
            })
            .map(|i| GeneralId(i as u8))
            .collect()
    }

    /// The formation order that binds a unit ([7.1]).
    pub(crate) fn standing_of(&self, u: UnitId) -> Standing {
        self.fx.setup.units[usize::from(u.0)]
            .command
            .map_or(Standing::Free, |f| self.st.orders[f])
    }

    /// The formations a general may order: his own and those under it (HM29).
    /// Whether a side's generals act on their own initiative ([7.1]; ruling HM56): its army's
    /// nation (its first unit's) is one of the tables' `[orders] initiative`.
    pub fn initiative(&self, side: u8) -> bool {
        self.fx
            .setup
            .units
            .iter()
            .find(|u| u.side == side)
            .is_some_and(|u| self.tables().initiative.contains(&u.nation))
    }

    pub(crate) fn commanded(&self, g: GeneralId) -> Vec<u8> {
        let fs = &self.fx.setup.formations;
        let own: Vec<usize> = (0..fs.len())
            .filter(|&i| fs[i].commander == Some(usize::from(g.0)))
            .collect();
        (0..fs.len())
            .filter(|&i| {
                let mut f = Some(i);
                let mut steps = 0;
                while let Some(x) = f {
                    if own.contains(&x) {
                        return true;
                    }
                    f = fs[x].parent;
                    steps += 1;
                    if steps > fs.len() {
                        break;
                    }
                }
                false
            })
            .map(|i| i as u8)
            .collect()
    }

    // ---- the sequence of play ----

    fn push(&mut self, e: Event) {
        self.events.push(e);
    }

    fn begin_turn(&mut self) {
        let e = Event::TurnBegan {
            turn: self.turn(),
            minute: self.minute(),
            visibility: self.visibility(),
            night: self.night(),
        };
        self.push(e);
        self.st.part = 0;
        self.begin_part();
    }

    /// A player-turn begins with its rallies ([6]).
    fn begin_part(&mut self) {
        let side = self.st.part;
        // HM38: a unit out of the enemy's reach is out of contact
        for i in 0..self.st.units.len() {
            let u = UnitId(i as u8);
            let touching = self
                .hex_of(u)
                .is_some_and(|h| self.enemy_zoc(self.side_of(u), h));
            if !touching {
                self.us_mut(u).contact = false;
            }
        }
        for u in self.st.units.iter_mut() {
            u.moved = false;
            u.faced = false;
            u.fired = false;
            u.target = None;
        }
        for g in self.st.generals.iter_mut() {
            g.rode = false;
            g.ordered = false;
            g.tested = false;
        }
        self.set_stage(Stage::Rally);
        // [6]: only the army in the attacking stage rallies
        for i in 0..self.st.units.len() {
            let u = UnitId(i as u8);
            if self.side_of(u) == side
                && matches!(self.us(u).loc, Loc::Map(_))
                && self.us(u).order != Order::Ordered
            {
                self.st.queue.push_back(Task::Rally(u));
            }
        }
    }

    fn set_stage(&mut self, s: Stage) {
        self.st.stage = s;
        self.st.fresh = true;
        if s != Stage::Over {
            let side = self.st.part;
            self.push(Event::StageBegan { side, stage: s });
        }
    }

    /// Runs the automatic work until a player or a chance event must act.
    pub(crate) fn advance(&mut self) {
        loop {
            if self.outcome.is_some() || self.st.advance.is_some() {
                return;
            }
            if let Some(&t) = self.st.queue.front() {
                if t.needs_draw() {
                    return;
                }
                self.st.queue.pop_front();
                self.run_task(t, 0);
                continue;
            }
            // the queue is empty: move the stage on where no player acts
            match self.st.stage {
                Stage::Rally => self.set_stage(Stage::Orders),
                Stage::Orders | Stage::Movement | Stage::Artillery | Stage::Attacks => {
                    if !self.st.fresh || self.stage_has_choices() {
                        return;
                    }
                    self.end_stage();
                }
                Stage::Resolution => self.begin_crisis(),
                Stage::Crisis => self.end_part(),
                Stage::TurnEnd => self.next_turn(),
                Stage::Over => return,
            }
        }
    }

    /// Whether the phasing player has any choice but `end` in this stage (stages without
    /// one pass by themselves).
    fn stage_has_choices(&self) -> bool {
        let mut v = Vec::new();
        self.player_actions(&mut v);
        v.iter().any(|a| *a != Action::End)
    }

    /// The phasing player ends a stage.
    pub(crate) fn end_stage(&mut self) {
        match self.st.stage {
            Stage::Orders => {
                crate::command::ride_messengers(self);
                self.set_stage(Stage::Movement);
            }
            Stage::Movement => {
                if self.night() {
                    // [11.2.1]: no combat phase at night
                    self.set_stage(Stage::Resolution);
                } else {
                    self.set_stage(Stage::Artillery);
                }
            }
            Stage::Artillery => self.set_stage(Stage::Attacks),
            Stage::Attacks => {
                crate::fight::queue_combats(self);
                self.set_stage(Stage::Resolution);
            }
            _ => {}
        }
    }

    /// (e) The crisis of morale ([13]): each army whose casualties reached a new level tests.
    fn begin_crisis(&mut self) {
        self.set_stage(Stage::Crisis);
        let fx = Arc::clone(&self.fx);
        let t = &fx.tables;
        for side in 0..2u8 {
            let s = usize::from(side);
            let due = victory::crisis_due(
                self.st.tested[s],
                self.st.lost[s],
                self.st.total[s],
                t.first_level,
                t.level_step,
            );
            if let Some(level) = due {
                self.st.tested[s] = Some(level);
                self.push(Event::CrisisOfMorale { side, level });
                for i in 0..self.st.units.len() {
                    let u = UnitId(i as u8);
                    if self.side_of(u) == side && self.in_sight_of_action(u) {
                        self.st.queue.push_back(Task::Crisis(u, level));
                    }
                }
            }
        }
    }

    /// A unit "within sight of the action" ([13]): on the table, within the turn's visible
    /// range of an enemy unit by a clear line (HM30).
    fn in_sight_of_action(&self, u: UnitId) -> bool {
        let Some(h) = self.hex_of(u) else {
            return false;
        };
        let side = self.side_of(u);
        let range = self.visibility();
        (0..self.st.units.len()).any(|i| {
            let e = UnitId(i as u8);
            self.side_of(e) != side
                && self.hex_of(e).is_some_and(|eh| {
                    range.is_none_or(|r| self.fx.setup.map.distance(h, eh) <= u32::from(r))
                        && self.line_clear(h, eh, false)
                })
        })
    }

    fn end_part(&mut self) {
        if self.decided() {
            return;
        }
        if self.st.part == 0 {
            self.st.part = 1;
            self.begin_part();
        } else {
            self.set_stage(Stage::TurnEnd);
            if self.fx.setup.weather != WeatherKind::Clear {
                self.st.queue.push_back(Task::Weather);
            }
        }
    }

    fn next_turn(&mut self) {
        if self.st.turn + 1 >= self.turns() {
            self.finish();
            return;
        }
        self.st.turn += 1;
        self.begin_turn();
    }

    /// An army with nothing on the table and nothing to come has lost the field ([14]).
    fn decided(&mut self) -> bool {
        let mut alive = [false; 2];
        for (i, s) in self.st.units.iter().enumerate() {
            if s.loc != Loc::Gone {
                alive[usize::from(self.fx.setup.units[i].side)] = true;
            }
        }
        if alive[0] && alive[1] {
            return false;
        }
        let winner = if alive[0] {
            Some(0)
        } else if alive[1] {
            Some(1)
        } else {
            None
        };
        self.over(
            winner,
            "decisive",
            "the other army has left the field".into(),
        );
        true
    }

    /// The battle ends at dusk: the margins of victory ([14]).
    fn finish(&mut self) {
        let t = &self.fx.tables;
        let mut v = victory::verdict(
            (self.st.lost[0], self.st.total[0]),
            (self.st.lost[1], self.st.total[1]),
            t.margins,
        );
        // HM48: the side holding every objective wins, by the casualties' margin if they
        // favour it too, else marginally
        if let Some(f) = self.holder_of_the_field() {
            if v.winner != Some(f) {
                v = victory::Verdict {
                    margin: victory::Margin::Marginal,
                    winner: Some(f),
                };
            }
        }
        let margin = match v.margin {
            victory::Margin::Draw => "draw",
            victory::Margin::Marginal => "marginal",
            victory::Margin::Major => "major",
            victory::Margin::Decisive => "decisive",
        };
        let pct = |s: usize| {
            if self.st.total[s] == 0 {
                0.0
            } else {
                100.0 * f64::from(self.st.lost[s]) / f64::from(self.st.total[s])
            }
        };
        let why = format!(
            "casualties {} {:.1}%, {} {:.1}%: {}",
            self.fx.setup.sides[0].name,
            pct(0),
            self.fx.setup.sides[1].name,
            pct(1),
            match v.winner {
                None => "a draw".to_string(),
                Some(w) => format!(
                    "a {margin} victory for the {}",
                    self.fx.setup.sides[usize::from(w)].name
                ),
            }
        );
        self.over(v.winner, margin, why);
    }

    fn over(&mut self, winner: Option<u8>, margin: &'static str, why: String) {
        self.st.stage = Stage::Over;
        self.st.queue.clear();
        self.push(Event::Over { winner, margin });
        self.outcome = Some(Outcome {
            winner: winner.map(Side),
            case: "14",
            why,
        });
    }

    // ---- chance ----

    /// Runs a task with the number drawn for it.
    pub(crate) fn run_task(&mut self, t: Task, n: u16) {
        match t {
            Task::Rally(u) => self.rally(u, n),
            Task::Deliver(m) => crate::command::deliver(self, usize::from(m), n),
            Task::GeneralTest(g, artillery) => self.general_test(g, artillery, n),
            Task::FireDraw(b, target) => crate::fight::fire(self, b, target, n),
            Task::Prepare(h) => crate::fight::prepare(self, h),
            Task::CombatDraw(h) => crate::fight::resolve(self, h, n),
            Task::Recharge(c) => crate::fight::prepare_recharge(self, c),
            Task::RechargeDraw(c) => crate::fight::recharge(self, c, n),
            Task::Crisis(u, level) => self.crisis(u, level, n),
            Task::Weather => self.weather(n as u8),
        }
    }

    /// A rally ([6.1], [6.2], [6.3]): a disrupted or retiring unit back to order on its
    /// morale, a routed one to disrupted on 0.800, with its generals' bonus; failing, a routed
    /// unit routs on and a retiring one retires on, at once (HM31).
    fn rally(&mut self, u: UnitId, n: u16) {
        let Some(h) = self.hex_of(u) else {
            return;
        };
        let s = self.us(u).order;
        let Some(needed) = morale::rally_threshold(self.line(u), s, self.fx.tables.rally_routed)
        else {
            return;
        };
        let side = self.side_of(u);
        let bonus = self.bonus(side, &[h]);
        let draw = Draw::new(n).unwrap_or(Draw::new(0).expect("0"));
        let ok = morale::rallies(draw, bonus, needed);
        let after = if ok { morale::rallied(s) } else { s };
        self.us_mut(u).order = after;
        self.push(Event::Rally {
            unit: u,
            draw: n,
            bonus,
            needed: needed.0,
            order: after,
        });
        if !ok {
            match s {
                Order::Routed => {
                    let hexes = self.line(u).movement;
                    crate::fight::withdraw(self, u, hexes, Withdrawal::Rout);
                    self.us_mut(u).moved = true;
                }
                Order::Retiring => {
                    let hexes = self.line(u).movement;
                    crate::fight::withdraw(self, u, hexes, Withdrawal::Retire);
                    self.us_mut(u).moved = true;
                }
                _ => {}
            }
        }
    }

    /// A general under fire tests ([6.3], [9.2], [17]).
    fn general_test(&mut self, g: GeneralId, artillery: bool, n: u16) {
        let i = usize::from(g.0);
        if self.st.generals[i].loc == Loc::Gone {
            return;
        }
        let fire = if artillery {
            UnderFire::Artillery
        } else {
            UnderFire::Combat
        };
        let fate = self
            .fx
            .tables
            .general_under_fire
            .fate(fire, Draw::new(n).unwrap_or(Draw::new(0).expect("0")));
        self.st.generals[i].tested = true;
        let name = match fate {
            GeneralFate::Killed => "killed",
            GeneralFate::Wounded => "wounded",
            GeneralFate::Survives => "survives",
        };
        if fate != GeneralFate::Survives {
            self.st.generals[i].loc = Loc::Gone;
        }
        self.push(Event::GeneralTested {
            general: g,
            draw: n,
            fate: name,
        });
    }

    /// A unit's crisis test ([13], [19]; HM9: its generals help).
    fn crisis(&mut self, u: UnitId, level: u32, n: u16) {
        let Some(h) = self.hex_of(u) else {
            return;
        };
        let side = self.side_of(u);
        let bonus = self.bonus(side, &[h]);
        let draw = Draw::new(n).unwrap_or(Draw::new(0).expect("0"));
        let Some(r) = self.fx.tables.crisis.result(level, draw, bonus) else {
            return;
        };
        let name = match r {
            Crisis::Rout => "rout",
            Crisis::Retire => "retire",
            Crisis::Disrupt => "disrupt",
            Crisis::FightsOn => "fights-on",
        };
        self.push(Event::CrisisTest {
            unit: u,
            draw: n,
            result: name,
        });
        let hexes = self.line(u).movement;
        match r {
            Crisis::Rout => {
                self.set_order(u, Order::Routed, Cause::Crisis);
                crate::fight::withdraw(self, u, hexes + 1, Withdrawal::Rout);
            }
            Crisis::Retire => {
                if self.us(u).order != Order::Routed {
                    self.set_order(u, Order::Retiring, Cause::Crisis);
                    crate::fight::withdraw(self, u, hexes, Withdrawal::Retire);
                }
            }
            Crisis::Disrupt => {
                if self.us(u).order == Order::Ordered {
                    self.set_order(u, Order::Disordered, Cause::Crisis);
                }
            }
            Crisis::FightsOn => {}
        }
    }

    pub(crate) fn set_order(&mut self, u: UnitId, o: Order, cause: Cause) {
        if self.us(u).order != o {
            self.us_mut(u).order = o;
            self.push(Event::StateChanged {
                unit: u,
                order: o,
                cause,
            });
        }
    }

    /// The weather die at the end of a turn ([5.1.3], [24]).
    fn weather(&mut self, die: u8) {
        let w = &self.fx.tables.weather;
        let (track, modifier) = match self.fx.setup.weather {
            WeatherKind::Clear => return,
            WeatherKind::Fog => (&w.fog, w.fog_modifier(self.minute() + TURN_MINUTES)),
            WeatherKind::Snow | WeatherKind::Storm => (&w.snow, 0),
        };
        let position = track.next(self.st.weather, die, modifier);
        let visibility = track.visibility(position);
        self.st.weather = position;
        self.push(Event::Weather {
            die,
            position,
            visibility,
        });
    }

    /// Removes a base unit ([9.8], [12]); the last one takes the unit from the table.
    pub(crate) fn lose_base(&mut self, u: UnitId, cause: Cause) {
        let side = usize::from(self.side_of(u));
        if self.us(u).bases == 0 || self.us(u).loc == Loc::Gone {
            return;
        }
        self.us_mut(u).bases -= 1;
        self.st.lost[side] += 1;
        let left = self.us(u).bases;
        self.push(Event::BaseLost {
            unit: u,
            left,
            cause,
        });
        if left == 0 {
            self.remove(u);
        }
    }

    /// Takes a unit out of the battle; its base units count for the enemy ([2.4.1.5],
    /// [8.8.3], [9.3.3]).
    pub(crate) fn remove(&mut self, u: UnitId) {
        let side = usize::from(self.side_of(u));
        let bases = self.us(u).bases;
        self.st.lost[side] += u32::from(bases);
        self.us_mut(u).bases = 0;
        self.set_loc(u, Loc::Gone);
        self.push(Event::Removed { unit: u, bases });
    }

    /// Enemy messengers, and generals standing alone, in a hex a unit passes through are
    /// taken ([7.1.2.2]; HM28).
    pub(crate) fn capture_at(&mut self, side: u8, h: Hex) {
        let before = self.st.messengers.len();
        let mut taken = Vec::new();
        self.st.messengers.retain(|m| {
            let t = m.side != side && m.at == h;
            if t {
                taken.push((m.side, m.order));
            }
            !t
        });
        if self.st.messengers.len() != before {
            for (s, o) in taken {
                self.events.push(Event::MessengerCaptured {
                    side: s,
                    hex: h,
                    order: o,
                });
            }
        }
        let defended = self.units_at(h).iter().any(|&o| self.side_of(o) != side);
        if !defended {
            for i in 0..self.st.generals.len() {
                if self.fx.setup.generals[i].side != side && self.st.generals[i].loc == Loc::Map(h)
                {
                    self.st.generals[i].loc = Loc::Gone;
                    self.push(Event::GeneralCaptured {
                        general: GeneralId(i as u8),
                    });
                }
            }
        }
    }

    fn canonical_hash(&self) -> u64 {
        let mut h = engine::PortableHasher::new();
        self.st.hash(&mut h);
        self.outcome.as_ref().map(|o| o.winner).hash(&mut h);
        h.finish()
    }

    fn pending(&self) -> Option<Task> {
        if self.outcome.is_some() || self.st.advance.is_some() {
            return None;
        }
        self.st.queue.front().copied().filter(|t| t.needs_draw())
    }

    /// The actions of the phasing player in this stage.
    pub(crate) fn player_actions(&self, out: &mut Vec<Action>) {
        if let Some((_, v)) = &self.st.advance {
            out.extend(v.iter().map(|&unit| Action::Advance { unit }));
            out.push(Action::End);
            return;
        }
        match self.st.stage {
            Stage::Orders => crate::command::order_actions(self, out),
            Stage::Movement => crate::movement::movement_actions(self, out),
            Stage::Artillery => crate::fight::fire_actions(self, out),
            Stage::Attacks => crate::fight::attack_actions(self, out),
            _ => return,
        }
        if self.st.stage != Stage::Attacks || crate::fight::attacks_complete(self) {
            out.push(Action::End);
        }
    }

    fn stage_case(&self) -> &'static str {
        match self.st.stage {
            Stage::Rally => "6",
            Stage::Orders => "7",
            Stage::Movement => "8",
            Stage::Artillery => "9.1",
            Stage::Attacks | Stage::Resolution => "9",
            Stage::Crisis => "13",
            Stage::TurnEnd => "5.1.3",
            Stage::Over => "14",
        }
    }
}

impl Rules for Game {
    type Action = Action;
    type Event = Event;

    fn rules_version(&self) -> &'static str {
        crate::RULES_VERSION
    }

    fn seats(&self) -> usize {
        2
    }

    fn seat_name(&self, seat: Side) -> &str {
        &self.fx.setup.sides[usize::from(seat.0.min(1))].name
    }

    fn to_act(&self) -> ToAct {
        if let Some(o) = &self.outcome {
            return ToAct::Over(o.clone());
        }
        if self.pending().is_some() {
            return ToAct::Chance;
        }
        ToAct::Side(Side(self.st.part))
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        match self.pending() {
            Some(t) if t.needs_die() => out.extend((1..=6).map(Action::Roll)),
            Some(_) => out.extend((0..D1000).map(Action::Draw)),
            None if self.outcome.is_none() => self.player_actions(out),
            None => {}
        }
    }

    fn check(&self, a: Action) -> Result<(), Refusal> {
        if self.outcome.is_some() {
            return Err(Refusal::new("14", "the battle is over"));
        }
        match (self.pending(), a) {
            (Some(t), Action::Roll(n)) if t.needs_die() && (1..=6).contains(&n) => return Ok(()),
            (Some(t), Action::Draw(n)) if !t.needs_die() && n < D1000 => return Ok(()),
            (Some(t), _) if t.needs_die() => {
                return Err(Refusal::new(
                    "24",
                    "the weather die is thrown now (roll 1-6)",
                ))
            }
            (Some(_), _) => {
                return Err(Refusal::new(
                    "2.3",
                    "a random number is drawn now (draw 0.000-0.999)",
                ))
            }
            (None, Action::Draw(_) | Action::Roll(_)) => {
                return Err(Refusal::new("2.3", "no random number is pending"))
            }
            _ => {}
        }
        if let Some((_, v)) = &self.st.advance {
            return match a {
                Action::End => Ok(()),
                Action::Advance { unit } if v.contains(&unit) => Ok(()),
                Action::Advance { unit }
                    if self.st.units.get(usize::from(unit.0)).is_some()
                        && self.us(unit).formation == Formation::Square =>
                {
                    Err(Refusal::new(
                        "8.1.1",
                        "infantry in square cannot move, so it does not advance",
                    ))
                }
                _ => Err(Refusal::new(
                    "8.7.4",
                    "a victor may advance into the vacated hex now (advance U), or not (end)",
                )),
            };
        }
        match a {
            Action::Advance { .. } => Err(Refusal::new(
                "8.7.4",
                "a unit advances only into a hex its combat has just vacated",
            )),
            Action::End => {
                if self.st.stage == Stage::Attacks {
                    crate::fight::check_end_attacks(self)
                } else {
                    Ok(())
                }
            }
            Action::Order { .. } if self.st.stage != Stage::Orders => Err(Refusal::new(
                "7",
                "orders are given in the orders stage of one's own player-turn",
            )),
            Action::Order { .. } => crate::command::check_order(self, a),
            Action::Move { .. }
            | Action::Ride { .. }
            | Action::Face { .. }
            | Action::Form { .. }
                if self.st.stage != Stage::Movement =>
            {
                Err(Refusal::new(
                    "8.3.1",
                    "units move only in their own movement stage",
                ))
            }
            Action::Move { .. }
            | Action::Ride { .. }
            | Action::Face { .. }
            | Action::Form { .. } => crate::movement::check_movement(self, a),
            Action::Fire { .. } if self.st.stage != Stage::Artillery => Err(Refusal::new(
                "9.1.1",
                "batteries fire first in the combat stage, before the attacks",
            )),
            Action::Fire { battery, target } => crate::fight::check_fire(self, battery, target),
            Action::Attack { .. } if self.st.stage != Stage::Attacks => Err(Refusal::new(
                "9",
                "attacks are declared in the combat stage, after the artillery's fire",
            )),
            Action::Attack { unit, target } => crate::fight::check_attack(self, unit, target),
            Action::Draw(_) | Action::Roll(_) => Ok(()),
        }
        .map_err(|r| {
            if r.case.is_empty() {
                Refusal::new(self.stage_case(), r.why)
            } else {
                r
            }
        })
    }

    fn apply_unchecked(&mut self, a: Action) {
        self.events.clear();
        if !matches!(a, Action::Draw(_) | Action::Roll(_)) {
            self.st.fresh = false;
        }
        match a {
            Action::Draw(_) | Action::Roll(_) => {
                let n = match a {
                    Action::Roll(d) => u16::from(d),
                    Action::Draw(n) => n,
                    _ => 0,
                };
                self.st.since_chance = 0;
                if let Some(t) = self.st.queue.pop_front() {
                    self.run_task(t, n);
                }
            }
            Action::End if self.st.advance.is_some() => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                self.st.advance = None;
            }
            Action::End => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                self.end_stage();
            }
            Action::Advance { unit } => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                crate::fight::advance_into(self, unit);
            }
            Action::Order { .. } => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                crate::command::give_order(self, a);
            }
            Action::Move { .. }
            | Action::Ride { .. }
            | Action::Face { .. }
            | Action::Form { .. } => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                crate::movement::apply_movement(self, a);
            }
            Action::Fire { battery, target } => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                crate::fight::declare_fire(self, battery, target);
            }
            Action::Attack { unit, target } => {
                self.st.since_chance = self.st.since_chance.saturating_add(1);
                self.us_mut(unit).target = Some(target);
            }
        }
        self.advance();
    }

    fn events(&self) -> &[Event] {
        &self.events
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        match self.pending() {
            Some(t) if t.needs_die() => (1..=6).map(|d| (Action::Roll(d), 1)).collect(),
            Some(_) => (0..D1000).map(|n| (Action::Draw(n), 1)).collect(),
            None => Vec::new(),
        }
    }

    fn action_text(&self, a: Action) -> String {
        crate::text::action_text(self, a)
    }

    fn parse_action(&self, text: &str) -> Result<Action, Refusal> {
        crate::text::parse_action(self, text)
    }

    fn state_hash(&self) -> u64 {
        self.canonical_hash()
    }

    fn undoable(&self) -> usize {
        // HM32: every choice since the last random number may be taken back
        usize::from(self.st.since_chance)
    }

    fn undo_refusal(&self) -> Refusal {
        Refusal::new(
            "8.3.4",
            "a random number has been drawn since: nothing before it may be taken back",
        )
    }
}

/// Parses a direction's text (`E`, `NE`...).
pub fn direction(s: &str) -> Option<Dir> {
    parse_dir(s)
}

/// The probability a draw needs, for the presenter (`0.150`).
pub fn prob_text(p: Prob) -> String {
    p.to_string()
}
