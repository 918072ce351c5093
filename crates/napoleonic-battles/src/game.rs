//! The game state of the Napoleonic Battles system and its sequence of play: initiative,
//! reinforcements, the action phase of alternating impulses, the victory phase.
//!
//! The rulebook has no case numbers: the code cites its section names (`// NB Turn End`) and
//! our rulings `NB50`... (`docs/rulings.md`).

use crate::action::{Action, LeaderId};
use crate::data::{LeaderAt, Supplement};
use crate::event::{ActivationKind, Event};
use engine::{Outcome, Refusal, Rules, Side, ToAct};
use hexmap::{Dir, Hex};
use naw::scenario::Start;
use naw::{Scenario, UnitId, UnitType};
use std::hash::{Hash, Hasher};
use std::sync::Arc;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Loc {
    /// Not yet arrived.
    Waiting,
    /// On the map.
    Map(Hex),
    /// Eliminated.
    Eliminated,
}

/// Where a leader is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum LeaderLoc {
    /// Not in this scenario.
    Absent,
    /// Not yet arrived.
    Waiting,
    /// On the map.
    Map(Hex),
    /// Killed, wounded or captured.
    Casualty,
}

/// Disorder (NB Morale and disorder rules): `Good`, disordered on its "not this impulse"
/// side (it may rally at the end of its next activation), or disordered this impulse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub enum Disorder {
    /// In good order.
    #[default]
    Good,
    /// Disordered, marker on its "not this impulse" side.
    Disordered,
    /// Disordered during the current impulse.
    ThisImpulse,
}

/// An officer's initiative bonus after failures (NB Action phase: +2, then Auto).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, serde::Serialize)]
pub enum Bonus {
    /// None.
    #[default]
    None,
    /// +2 to the next initiative roll.
    Plus2,
    /// The next attempt passes automatically.
    Auto,
}

/// The step of the sequence of play the game is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize)]
pub enum Step {
    /// Initiative phase: 2d6 for each side (chance).
    InitiativeRoll,
    /// Action phase: the side to act chooses an activation or passes.
    Choose,
    /// The die after a pass (chance).
    PassRoll,
    /// Designating the activation's units (after a commander's move before spending his
    /// command points, NB77, a point must be spent first).
    Designate,
    /// The initiative roll of an activation (chance).
    ActivationRoll,
    /// A failed officer may write an order.
    WriteOrder,
    /// Movement phase of the impulse.
    Movement,
    /// The other side may make reaction face changes.
    Reaction,
    /// Melee phase of the impulse.
    Melee,
    /// Defending cavalry decides to retreat before infantry's melee or stand.
    Evade,
    /// The melee's to-hit dice (chance).
    ToHit,
    /// The melee's morale die (chance).
    MoraleDie,
    /// A side allocates its melee losses.
    Losses,
    /// A stack retreats, hex by hex.
    Retreat,
    /// The attacker advances into the won hex.
    Advance,
    /// Rally rolls at the end of the activation (chance).
    Rally,
    /// Recovery rolls in the last night turn (chance).
    Recovery,
    /// The owner places a unit that recovered from elimination, within 2 hexes of its
    /// officer (NB Recovery; NB78).
    Place,
    /// The game is over.
    Over,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UnitState {
    pub loc: Loc,
    pub sp: u16,
    pub facing: u8,
    pub disorder: Disorder,
    /// Acted (or tried to) this turn.
    pub acted: bool,
    /// Failed an initiative attempt this turn.
    pub spent: bool,
    /// Left out of its officer's activation this turn: unit initiative only.
    pub excluded: bool,
    /// In the current activation.
    pub active: bool,
    pub mp_half: u16,
    /// Turned since its last step.
    pub faced: bool,
    pub halted: bool,
    /// The direction it entered an enemy front hex by (6: none).
    pub zoc_dir: u8,
    /// Has been adjacent to an enemy during this movement (NB Tactical movement).
    pub near: bool,
    /// Where its activation began.
    pub start: Hex,
    /// Made its reaction face change this enemy impulse.
    pub reacted: bool,
    /// Permanently eliminated: an eliminated unit whose recovery roll failed, or one
    /// destroyed before the scenario began (NB Recovery; NB78).
    pub gone: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct LeaderState {
    pub loc: LeaderLoc,
    pub cp_used: u8,
    /// Has made his one move this turn (NB Action phase; NB62).
    pub moved: bool,
    /// Half MP of that move spent so far this turn: a commander's move before he spends his
    /// command points and its continuation with an activated unit are one move (NB77).
    pub mp_half: u16,
    pub acted: bool,
    pub spent: bool,
    pub bonus: Bonus,
    pub order: Option<Hex>,
    /// A march order: the turn it arrives and its destination.
    pub march: Option<(u8, Hex)>,
    /// A commander's rating lent to him this turn (NB75).
    pub lent: u8,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct FormationState {
    pub lost: u16,
    /// The turn from which it is demoralized (0: not).
    pub demoralized_from: u8,
}

/// The activation of the current impulse.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Act {
    pub side: u8,
    pub how: ActivationKind,
    pub commander: Option<u8>,
    pub officers: Vec<u8>,
    pub lead: Option<UnitId>,
    pub second: Option<Hex>,
    pub included: Vec<UnitId>,
    pub excluded: Vec<UnitId>,
    /// The destination its formation must march to (a written or march order).
    pub order: Option<Hex>,
    pub uses_bonus: bool,
    pub out_of_range: bool,
    pub strategic: bool,
    pub came_near: bool,
    pub attacked: Vec<Hex>,
    pub attackers: Vec<Hex>,
    /// Leaders who may move in this activation.
    pub movers: Vec<u8>,
    /// Reaction: the moving unit and the hexes that may still react.
    pub mover: Option<UnitId>,
    pub reactions: Vec<Hex>,
}

/// A melee in progress.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Fight {
    pub from: Hex,
    pub to: Hex,
    pub attackers: Vec<UnitId>,
    pub defenders: Vec<UnitId>,
    pub column: usize,
    pub roll: u8,
    pub die: u8,
    pub evaded: bool,
    /// Losses still to allocate: attacker, defender.
    pub loss: [u8; 2],
    /// Retreats still owed: attacker, defender.
    pub retreat: [u8; 2],
    /// The retreating side (0 attacker, 1 defender) and where its stack stands.
    pub retreating: Option<(u8, Hex)>,
    pub advanced: Vec<UnitId>,
    pub turned: bool,
    pub morale_checks: [bool; 2],
    pub leader_loss: [bool; 2],
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct State {
    pub turn: u8,
    pub step: Step,
    pub acting: u8,
    pub initiative: u8,
    pub init_rolls: [u8; 2],
    pub passes: u8,
    pub units: Vec<UnitState>,
    pub leaders: Vec<LeaderState>,
    pub formations: Vec<FormationState>,
    pub army_lost: Vec<u16>,
    pub army_demoralized: Vec<u8>,
    pub act: Option<Act>,
    pub fight: Option<Fight>,
    pub queue: Vec<UnitId>,
    /// A unit back from elimination that its owner is to place (NB Recovery; NB78).
    pub placing: Option<UnitId>,
    pub points: [u16; 2],
}

/// A game of the Napoleonic Battles system on the Battle of Nations components.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) sc: Arc<Scenario>,
    pub(crate) sup: Arc<Supplement>,
    pub(crate) starts: Arc<Vec<Option<LeaderAt>>>,
    pub(crate) st: State,
    /// The units in each hex (derived from the units' places, kept in step by `set_loc`).
    pub(crate) occ: hexmap::HexGrid<Vec<UnitId>>,
    /// The map's step costs for the leaders' reach (derived from the scenario, shared).
    pub(crate) steps: Arc<crate::movement::Steps>,
    pub(crate) events: Vec<Event>,
    pub(crate) outcome: Option<Outcome>,
    /// Players' actions since the last die (NB58).
    pub(crate) since_roll: usize,
}

/// A unit as a front end sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct UnitView {
    /// Where.
    pub loc: Loc,
    /// Strength points left.
    pub sp: u16,
    /// The hexside faced (`E`, `NE`, ...).
    pub facing: &'static str,
    /// Disorder.
    pub disorder: Disorder,
    /// Acted this turn.
    pub acted: bool,
    /// Spent by a failed attempt this turn.
    pub spent: bool,
    /// In the current activation.
    pub active: bool,
}

pub(crate) const NO_DIR: u8 = 6;

/// How far from its officer a recovered unit is placed (NB Recovery: "within 2 hexes").
pub const RECOVERY_RADIUS: u32 = 2;

pub(crate) fn dir_of(i: u8) -> Dir {
    Dir::ALL[usize::from(i % 6)]
}

/// The other side of a two-sided game.
pub(crate) fn other(s: u8) -> u8 {
    1 - s
}

impl Game {
    /// A new game of the scenario with the system's data. The supplement must fit the
    /// scenario ([`Supplement::check`]); leaders and formations it lacks are simply absent.
    pub fn new(sc: Scenario, sup: Supplement) -> Game {
        Game::with(Arc::new(sc), Arc::new(sup))
    }

    /// A new game sharing a scenario and supplement.
    pub fn with(sc: Arc<Scenario>, sup: Arc<Supplement>) -> Game {
        let mut starts = vec![None; sup.leaders.len()];
        for (i, at) in sup.leader_starts(&sc) {
            if i < starts.len() {
                starts[i] = Some(at);
            }
        }
        let units = sc
            .units
            .iter()
            .map(|d| UnitState {
                loc: match d.start {
                    Start::Hex(h) => Loc::Map(h),
                    Start::Arrives(_) => Loc::Waiting,
                    Start::Destroyed => Loc::Eliminated,
                },
                sp: d.strength,
                facing: 0,
                disorder: Disorder::Good,
                acted: false,
                spent: false,
                excluded: false,
                active: false,
                mp_half: 0,
                faced: false,
                halted: false,
                zoc_dir: NO_DIR,
                near: false,
                start: Hex::default(),
                reacted: false,
                // NB78: units destroyed before the scenario had their nights of recovery
                gone: matches!(d.start, Start::Destroyed),
            })
            .collect();
        let leaders = starts
            .iter()
            .map(|s| LeaderState {
                loc: match s {
                    None => LeaderLoc::Absent,
                    Some(LeaderAt::Hex(h)) => LeaderLoc::Map(*h),
                    Some(LeaderAt::WithUnit(u)) => match sc.unit(*u).start {
                        Start::Hex(h) => LeaderLoc::Map(h),
                        _ => LeaderLoc::Waiting,
                    },
                    Some(_) => LeaderLoc::Waiting,
                },
                cp_used: 0,
                moved: false,
                mp_half: 0,
                acted: false,
                spent: false,
                bonus: Bonus::None,
                order: None,
                march: None,
                lent: 0,
            })
            .collect();
        let mut g = Game {
            st: State {
                turn: sc.first_turn,
                step: Step::Choose,
                acting: 1,
                initiative: 1,
                init_rolls: [0; 2],
                passes: 0,
                units,
                leaders,
                formations: vec![FormationState::default(); sup.formations.len()],
                army_lost: vec![0; sup.armies.len()],
                army_demoralized: vec![0; sup.armies.len()],
                act: None,
                fight: None,
                queue: Vec::new(),
                placing: None,
                points: [0; 2],
            },
            starts: Arc::new(starts),
            occ: sc.map.grid(Vec::new()),
            steps: crate::movement::Steps::new(&sc),
            sc,
            sup,
            events: Vec::new(),
            outcome: None,
            since_roll: 0,
        };
        for u in g.unit_ids().collect::<Vec<_>>() {
            if let Loc::Map(h) = g.us(u).loc {
                if let Some(v) = g.occ.get_mut(h) {
                    v.push(u);
                }
            }
        }
        g.initial_facings();
        g.begin_turn();
        g
    }

    // ---- queries ----

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.sc
    }

    /// The system's data.
    pub fn supplement(&self) -> &Supplement {
        &self.sup
    }

    /// The game turn.
    pub fn turn(&self) -> u8 {
        self.st.turn
    }

    /// The step of the sequence of play.
    pub fn step(&self) -> Step {
        self.st.step
    }

    /// The side whose impulse it is (or who is to choose one).
    pub fn acting(&self) -> Side {
        Side(self.st.acting)
    }

    /// The side with the initiative this turn.
    pub fn initiative(&self) -> Side {
        Side(self.st.initiative)
    }

    /// Victory points of each side.
    pub fn points(&self) -> [u16; 2] {
        self.st.points
    }

    /// A unit's state.
    pub fn unit(&self, u: UnitId) -> UnitView {
        let s = &self.st.units[usize::from(u.0)];
        UnitView {
            loc: s.loc,
            sp: s.sp,
            facing: dir_of(s.facing).name(),
            disorder: s.disorder,
            acted: s.acted,
            spent: s.spent,
            active: s.active,
        }
    }

    /// Where a unit is.
    pub fn loc(&self, u: UnitId) -> Loc {
        self.st.units[usize::from(u.0)].loc
    }

    /// The hexside a unit faces.
    pub fn facing(&self, u: UnitId) -> Dir {
        dir_of(self.st.units[usize::from(u.0)].facing)
    }

    /// A unit's SP left.
    pub fn sp(&self, u: UnitId) -> u16 {
        self.st.units[usize::from(u.0)].sp
    }

    /// A unit's disorder.
    pub fn disorder(&self, u: UnitId) -> Disorder {
        self.st.units[usize::from(u.0)].disorder
    }

    /// Where a leader is.
    pub fn leader_loc(&self, l: LeaderId) -> LeaderLoc {
        self.st
            .leaders
            .get(usize::from(l.0))
            .map_or(LeaderLoc::Absent, |s| s.loc)
    }

    /// An officer's initiative bonus and written order.
    pub fn officer_order(&self, l: LeaderId) -> (Bonus, Option<Hex>) {
        let s = &self.st.leaders[usize::from(l.0)];
        (s.bonus, s.order)
    }

    /// SP a formation has lost.
    pub fn formation_lost(&self, f: usize) -> u16 {
        self.st.formations[f].lost
    }

    /// True when a formation is demoralized this turn (NB Formation demoralization: from the
    /// turn after the victory phase that found it).
    pub fn formation_demoralized(&self, f: usize) -> bool {
        let d = self.st.formations[f].demoralized_from;
        d != 0 && d <= self.st.turn
    }

    /// Every unit id.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> + '_ {
        (0..self.sc.units.len()).map(|i| UnitId(i as u8))
    }

    /// The units on the map in a hex.
    pub fn units_at(&self, h: Hex) -> Vec<UnitId> {
        self.occupants(h).to_vec()
    }

    /// The units on the map in a hex, in id order.
    pub fn occupants(&self, h: Hex) -> &[UnitId] {
        self.occ.get(h).map_or(&[], |v| v.as_slice())
    }

    /// Moves a unit (keeping the hex index in step).
    pub(crate) fn set_loc(&mut self, u: UnitId, loc: Loc) {
        if let Loc::Map(h) = self.st.units[usize::from(u.0)].loc {
            if let Some(v) = self.occ.get_mut(h) {
                v.retain(|&x| x != u);
            }
        }
        if let Loc::Map(h) = loc {
            if let Some(v) = self.occ.get_mut(h) {
                let i = v.partition_point(|&x| x < u);
                v.insert(i, u);
            }
        }
        self.st.units[usize::from(u.0)].loc = loc;
    }

    /// The leaders on the map in a hex.
    pub fn leaders_at(&self, h: Hex) -> Vec<LeaderId> {
        (0..self.st.leaders.len())
            .filter(|&i| self.st.leaders[i].loc == LeaderLoc::Map(h))
            .map(|i| LeaderId(i as u8))
            .collect()
    }

    /// A unit's id text.
    pub fn unit_name(&self, u: UnitId) -> &str {
        self.sc
            .units
            .get(usize::from(u.0))
            .map_or("?", |d| d.id.as_str())
    }

    /// A leader's id text.
    pub fn leader_name(&self, l: LeaderId) -> &str {
        self.sup
            .leaders
            .get(usize::from(l.0))
            .map_or("?", |d| d.id.as_str())
    }

    /// A leader by id (case-insensitive).
    pub fn leader_by_id(&self, id: &str) -> Option<LeaderId> {
        self.sup
            .leaders
            .iter()
            .position(|l| l.id.eq_ignore_ascii_case(id))
            .map(|i| LeaderId(i as u8))
    }

    /// The side of a leader (`None` when his nation is not in the scenario).
    pub fn leader_side(&self, l: LeaderId) -> Option<Side> {
        self.sup.leader_side(&self.sc, usize::from(l.0))
    }

    /// A unit's morale now: its base, less one if its formation or army is demoralized (NB
    /// Formation demoralization).
    pub fn morale(&self, u: UnitId) -> i8 {
        let base = self.sup.morale(&self.sc, u) as i8;
        let f = self.sup.formation_of(&self.sc, u);
        let mut m = base;
        if f < self.st.formations.len() && self.formation_demoralized(f) {
            m -= 1;
        } else if let Some(a) = self.sup.formations.get(f).map(|f| f.army) {
            let d = self.st.army_demoralized.get(a).copied().unwrap_or(0);
            if d != 0 && d <= self.st.turn {
                m -= 1;
            }
        }
        m
    }

    pub(crate) fn us(&self, u: UnitId) -> &UnitState {
        &self.st.units[usize::from(u.0)]
    }

    pub(crate) fn us_mut(&mut self, u: UnitId) -> &mut UnitState {
        &mut self.st.units[usize::from(u.0)]
    }

    pub(crate) fn side_of(&self, u: UnitId) -> u8 {
        self.sc.units[usize::from(u.0)].side.0
    }

    pub(crate) fn hex_of(&self, u: UnitId) -> Option<Hex> {
        match self.us(u).loc {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }

    pub(crate) fn lhex(&self, l: usize) -> Option<Hex> {
        match self.st.leaders.get(l).map(|s| s.loc) {
            Some(LeaderLoc::Map(h)) => Some(h),
            _ => None,
        }
    }

    pub(crate) fn lside(&self, l: usize) -> Option<u8> {
        self.sup.leader_side(&self.sc, l).map(|s| s.0)
    }

    pub(crate) fn night(&self) -> bool {
        self.sc.is_night(self.st.turn)
    }

    fn seat_index(&self, name: &str) -> Option<u8> {
        self.sc
            .sides
            .iter()
            .position(|s| s == name)
            .map(|i| i as u8)
    }

    // ---- the sequence of play ----

    /// Facing at the start (NB51): each stack faces the hexside toward the nearest enemy
    /// unit; a reinforcement faces into the map.
    fn initial_facings(&mut self) {
        let ids: Vec<UnitId> = self.unit_ids().collect();
        for u in ids {
            if let Some(h) = self.hex_of(u) {
                let f = self.facing_toward_enemy(h, self.side_of(u));
                self.us_mut(u).facing = f;
            }
        }
    }

    pub(crate) fn facing_toward_enemy(&self, h: Hex, side: u8) -> u8 {
        let mut best: Option<(u32, Hex)> = None;
        for u in self.unit_ids() {
            if self.side_of(u) == side {
                continue;
            }
            if let Some(e) = self.hex_of(u) {
                let d = self.sc.map.distance(h, e);
                if best.is_none_or(|(bd, bh)| (d, e) < (bd, bh)) {
                    best = Some((d, e));
                }
            }
        }
        let target = match best {
            Some((_, e)) => e,
            None => Hex::new(self.sc.map.width() / 2 + 1, self.sc.map.height() / 2 + 1),
        };
        self.facing_toward(h, target)
    }

    pub(crate) fn facing_toward(&self, h: Hex, target: Hex) -> u8 {
        let mut best = (u32::MAX, 0u8);
        for d in Dir::ALL {
            let n = self.sc.map.neighbour(h, d);
            let dist = self.sc.map.distance(n, target);
            if dist < best.0 {
                best = (dist, d as u8);
            }
        }
        best.1
    }

    /// NB Sequence of Play: a new game turn.
    pub(crate) fn begin_turn(&mut self) {
        let night = self.night();
        self.events.push(Event::TurnBegan {
            turn: self.st.turn,
            night,
        });
        // NB Victory phase: refresh all units (done here, at the start of the new turn).
        for u in self.st.units.iter_mut() {
            u.acted = false;
            u.spent = false;
            u.excluded = false;
            u.active = false;
            u.reacted = false;
        }
        for l in self.st.leaders.iter_mut() {
            l.cp_used = 0;
            l.moved = false;
            l.mp_half = 0;
            l.acted = false;
            l.spent = false;
            l.lent = 0;
        }
        self.st.passes = 0;
        if self.st.turn == self.sc.first_turn {
            // NB Napoleon At Leipzig: the Allies have the initiative on turn 1 (NB52: the
            // first turn of every scenario).
            let allies = self.seat_index("Allied").unwrap_or(1);
            self.st.initiative = allies;
            self.events.push(Event::Initiative {
                side: Side(allies),
                why: "first turn",
            });
            self.reinforcements();
        } else {
            self.st.init_rolls = [0; 2];
            self.st.step = Step::InitiativeRoll;
        }
    }

    /// The initiative bonus of a side: its overall commander's command rating when he is on
    /// the map (NB Sequence of Play; NB53).
    pub fn initiative_bonus(&self, side: Side) -> u8 {
        self.sup
            .overall_commanders(&self.sc, side)
            .into_iter()
            .find(|&l| self.lhex(l).is_some())
            .map_or(0, |l| self.sup.leaders[l].command)
    }

    /// NB Sequence of Play: reinforcements phase, then the action phase.
    fn reinforcements(&mut self) {
        let turn = self.st.turn;
        let ids: Vec<UnitId> = self.unit_ids().collect();
        // the initiative player first
        for side in [self.st.initiative, other(self.st.initiative)] {
            for &u in &ids {
                if self.side_of(u) != side || self.us(u).loc != Loc::Waiting {
                    continue;
                }
                let Start::Arrives(a) = self.sc.unit(u).start else {
                    continue;
                };
                if a.turn > turn {
                    continue;
                }
                // NB54: an entry hex held by the enemy delays the arrival.
                if self
                    .units_at(a.hex)
                    .iter()
                    .any(|&x| self.side_of(x) != side)
                {
                    self.events.push(Event::Delayed { unit: u });
                    continue;
                }
                let facing = match self.units_at(a.hex).first() {
                    Some(&f) => self.us(f).facing,
                    None => {
                        let c = Hex::new(self.sc.map.width() / 2 + 1, self.sc.map.height() / 2 + 1);
                        self.facing_toward(a.hex, c)
                    }
                };
                self.set_loc(u, Loc::Map(a.hex));
                self.us_mut(u).facing = facing;
                self.events.push(Event::Arrived {
                    unit: u,
                    hex: a.hex,
                });
            }
        }
        // leaders
        for l in 0..self.st.leaders.len() {
            if self.st.leaders[l].loc != LeaderLoc::Waiting {
                continue;
            }
            let at = match self.starts[l] {
                Some(LeaderAt::WithUnit(u)) => self.hex_of(u),
                Some(LeaderAt::Arrives { turn: t, hex }) if t <= turn => Some(hex),
                Some(LeaderAt::WithLeader { turn: t, leader }) if t <= turn => self.lhex(leader),
                _ => None,
            };
            if let Some(h) = at {
                self.st.leaders[l].loc = LeaderLoc::Map(h);
                self.events.push(Event::LeaderArrived {
                    leader: LeaderId(l as u8),
                    hex: h,
                });
            }
        }
        self.st.acting = self.st.initiative;
        self.st.step = Step::Choose;
    }

    fn end_action_phase(&mut self) {
        self.events.push(Event::ActionPhaseEnded);
        self.st.act = None;
        // NB Recovery: in the last night turn of a night.
        if self.night() && !self.sc.is_night(self.st.turn.saturating_add(1)) {
            self.st.queue = self.recovery_candidates();
            if !self.st.queue.is_empty() {
                self.st.step = Step::Recovery;
                return;
            }
        }
        self.victory_phase();
    }

    /// NB Recovery: the units that roll in the last night turn, in id order. On the map, a
    /// unit that has lost 2 SP or more (NB55: one more SP leaves it short of full strength);
    /// eliminated, a unit not yet permanently gone whose printed strength is 2 SP or more (a
    /// single-SP unit, like the rulebook's single-step units, never recovers: it would return
    /// whole) and which has a hex to return to within 2 hexes of its officer (NB78).
    pub(crate) fn recovery_candidates(&self) -> Vec<UnitId> {
        self.unit_ids()
            .filter(|&u| {
                let s = self.us(u);
                let strength = self.sc.unit(u).strength;
                match s.loc {
                    Loc::Map(_) => s.sp + 1 < strength,
                    Loc::Eliminated => {
                        !s.gone && strength >= 2 && !self.placement_hexes(u).is_empty()
                    }
                    Loc::Waiting => false,
                }
            })
            .collect()
    }

    /// True when a unit is permanently eliminated: its recovery roll failed, or it was
    /// destroyed before the scenario began (NB Recovery; NB78). An eliminated unit that is not
    /// may still return in the last night turn of a night.
    pub fn permanently_eliminated(&self, u: UnitId) -> bool {
        let s = self.us(u);
        s.loc == Loc::Eliminated && s.gone
    }

    /// The unit back from elimination that its owner is to place now (NB Recovery; NB78),
    /// if any.
    pub fn unit_to_place(&self) -> Option<UnitId> {
        match self.st.step {
            Step::Place => self.st.placing,
            _ => None,
        }
    }

    /// The hexes where an eliminated unit may return with 1 SP (NB Recovery: "within 2 hexes
    /// of its Officer"; NB78), its officer's own hex and the nearest first, then by hex number:
    /// every hex [`Game::placement_refusal`] accepts. Empty without its officer on the map.
    pub fn placement_hexes(&self, u: UnitId) -> Vec<Hex> {
        let Some(oh) = self.officer_hex(u) else {
            return Vec::new();
        };
        let mut v: Vec<(u32, Hex)> = self
            .hexes_within(oh, RECOVERY_RADIUS)
            .into_iter()
            .filter(|&h| self.placement_refusal(u, h).is_ok())
            .map(|h| (self.sc.map.distance(oh, h), h))
            .collect();
        v.sort();
        v.into_iter().map(|x| x.1).collect()
    }

    /// Where the officer of a unit's formation is, when he is on the map.
    fn officer_hex(&self, u: UnitId) -> Option<Hex> {
        let f = self.sup.formation_of(&self.sc, u);
        self.sup.officer_of(f).and_then(|o| self.lhex(o))
    }

    /// Why an eliminated unit may not return with 1 SP into `h` (NB Recovery; NB78): the hex
    /// must be on the map within 2 hexes of its formation's officer, hold no enemy unit, be
    /// next to none (NB Napoleon At Leipzig: at night no unit comes next to the enemy), have
    /// terrain the unit could enter from some neighbour, and room for it to stack.
    pub fn placement_refusal(&self, u: UnitId, h: Hex) -> Result<(), Refusal> {
        let f = self.sup.formation_of(&self.sc, u);
        let officer = self.sup.officer_of(f);
        let Some(oh) = self.officer_hex(u) else {
            return Err(Refusal::new(
                "NB Recovery",
                format!(
                    "{} has no officer on the map to return to",
                    self.unit_name(u)
                ),
            ));
        };
        if !self.sc.map.contains(h) {
            return Err(Refusal::new(
                "NB Recovery",
                format!("{h} is not on the map"),
            ));
        }
        let d = self.sc.map.distance(oh, h);
        if d > RECOVERY_RADIUS {
            return Err(Refusal::new(
                "NB Recovery",
                format!(
                    "{h} is {d} hexes from {} (in {oh}): a recovered unit is placed within {RECOVERY_RADIUS} hexes of its officer",
                    officer.map_or("?", |o| self.leader_name(LeaderId(o as u8)))
                ),
            ));
        }
        let side = self.side_of(u);
        if self.occupants(h).iter().any(|&e| self.side_of(e) != side) {
            return Err(Refusal::new("NB78", format!("{h} holds enemy units")));
        }
        if self.enemy_adjacent(side, h) {
            return Err(Refusal::new(
                "NB Napoleon At Leipzig",
                format!("{h} is next to an enemy unit: at night no unit comes next to the enemy"),
            ));
        }
        let kind = self.kind(u);
        if !self.sc.map.neighbours(h).iter().any(|&n| {
            self.sc
                .map
                .direction(n, h)
                .is_some_and(|dir| self.terrain_step(kind, n, dir).is_ok())
        }) {
            return Err(Refusal::new(
                "NB78",
                format!(
                    "{} could not enter {h}'s terrain from any side",
                    self.unit_name(u)
                ),
            ));
        }
        self.stacking_sp(h, u, 1)
    }

    /// NB Recovery: one SP back, and one less lost by its formation and army.
    fn recover_sp(&mut self, u: UnitId) {
        self.us_mut(u).sp += 1;
        let f = self.sup.formation_of(&self.sc, u);
        if let Some(fs) = self.st.formations.get_mut(f) {
            fs.lost = fs.lost.saturating_sub(1);
        }
        if let Some(a) = self.sup.formations.get(f).map(|d| d.army) {
            if let Some(x) = self.st.army_lost.get_mut(a) {
                *x = x.saturating_sub(1);
            }
        }
    }

    /// The checks of the placement step (NB Recovery; NB78): only `place U HEX` of the unit to
    /// place, into a hex [`Game::placement_refusal`] accepts.
    fn check_place(&self, a: Action) -> Result<(), Refusal> {
        let Some(p) = self.unit_to_place() else {
            return Err(Refusal::new(
                "NB Recovery",
                "no recovered unit is waiting to be placed",
            ));
        };
        match a {
            Action::Place { unit, to } if unit == p => self.placement_refusal(unit, to),
            Action::Place { unit, .. } => Err(Refusal::new(
                "NB Recovery",
                format!(
                    "{} is not the unit to place: {} is",
                    self.unit_name(unit),
                    self.unit_name(p)
                ),
            )),
            _ => Err(Refusal::new(
                "NB Recovery",
                format!(
                    "{} has recovered: its owner places it first (place {} HEX, within {RECOVERY_RADIUS} hexes of its officer)",
                    self.unit_name(p),
                    self.unit_name(p)
                ),
            )),
        }
    }

    /// `place U HEX`: the recovered unit returns with 1 SP, in good order, facing as the units
    /// it joins, else toward the nearest enemy (NB Recovery; NB78); then the next recovery
    /// roll, or the victory phase.
    fn apply_place(&mut self, a: Action) {
        let Action::Place { unit: u, to: h } = a else {
            return;
        };
        self.recover_sp(u);
        let facing = match self.occupants(h).first() {
            Some(&f) => self.us(f).facing,
            None => self.facing_toward_enemy(h, self.side_of(u)),
        };
        self.set_loc(u, Loc::Map(h));
        let s = self.us_mut(u);
        s.facing = facing;
        s.disorder = Disorder::Good;
        self.st.placing = None;
        self.events.push(Event::Placed { unit: u, hex: h });
        if self.st.queue.is_empty() {
            self.victory_phase();
        } else {
            self.st.step = Step::Recovery;
        }
    }

    /// NB Sequence of Play: victory phase (formation demoralization, victory, refresh).
    pub(crate) fn victory_phase(&mut self) {
        let turn = self.st.turn;
        for f in 0..self.st.formations.len() {
            let def = &self.sup.formations[f];
            let fs = &self.st.formations[f];
            if fs.demoralized_from == 0 && def.loss_limit > 0 && fs.lost >= def.loss_limit {
                self.st.formations[f].demoralized_from = turn + 1;
                let side = self.sup.army_side(&self.sc, def.army).map_or(0, |s| s.0);
                self.st.points[usize::from(other(side))] += def.victory_points;
                self.events.push(Event::FormationDemoralized {
                    formation: f,
                    name: def.name.clone(),
                });
            }
        }
        let mut lost_army = None;
        for a in 0..self.sup.armies.len() {
            // the limits of the army's formations in this scenario (the data's NB32)
            let limit = self.sup.army_loss_limit(&self.sc, a);
            let disintegration = self.sup.army_disintegration(&self.sc, a);
            let lost = u32::from(self.st.army_lost[a]);
            let side = self.sup.army_side(&self.sc, a).map_or(0, |s| s.0);
            if self.st.army_demoralized[a] == 0 && limit > 0 && lost >= limit {
                self.st.army_demoralized[a] = turn + 1;
                self.st.points[usize::from(other(side))] += self.sup.armies[a].victory_points;
                self.events.push(Event::ArmyDemoralized { army: a });
            }
            if disintegration > 0 && lost >= disintegration && lost_army.is_none() {
                lost_army = Some(side);
            }
        }
        if let Some(side) = lost_army {
            // NB25 (the data's ruling): an army's disintegration is its side's defeat.
            let winner = Some(Side(other(side)));
            self.finish(
                winner,
                format!(
                    "the {} army has disintegrated",
                    self.sc.sides[usize::from(side)]
                ),
            );
            return;
        }
        if turn >= self.sc.last_turn {
            let p = self.st.points;
            let winner = match p[0].cmp(&p[1]) {
                std::cmp::Ordering::Greater => Some(Side(0)),
                std::cmp::Ordering::Less => Some(Side(1)),
                std::cmp::Ordering::Equal => None,
            };
            self.finish(
                winner,
                format!("victory points {}-{} after the last turn", p[0], p[1]),
            );
            return;
        }
        self.st.turn += 1;
        self.begin_turn();
    }

    fn finish(&mut self, winner: Option<Side>, why: String) {
        self.events.push(Event::GameOver {
            winner,
            points: self.st.points,
        });
        self.st.step = Step::Over;
        self.outcome = Some(Outcome {
            winner,
            case: "NB Formation demoralization",
            why,
        });
    }

    fn pass(&mut self) {
        let side = self.st.acting;
        self.events.push(Event::Passed { side: Side(side) });
        // NB Turn End: two passes in succession end the action phase without a roll.
        if self.st.passes > 0 {
            self.end_action_phase();
        } else {
            self.st.step = Step::PassRoll;
        }
    }

    pub(crate) fn next_impulse(&mut self) {
        for u in self.st.units.iter_mut() {
            if u.active && u.disorder == Disorder::ThisImpulse {
                // NB Impulse Action sequence: rally phase, flip the marker.
                u.disorder = Disorder::Disordered;
            }
            u.active = false;
            u.reacted = false;
            u.halted = false;
            u.mp_half = 0;
            u.zoc_dir = NO_DIR;
            u.faced = false;
            u.near = false;
        }
        // NB77: a commander who moved before spending his command points has made his one
        // move of the turn, whether or not he went on with a unit.
        for l in self.st.leaders.iter_mut() {
            if l.mp_half > 0 {
                l.moved = true;
            }
        }
        self.st.act = None;
        self.st.fight = None;
        self.st.acting = other(self.st.acting);
        self.st.step = Step::Choose;
    }

    /// The end of an activation: rally, then the other side.
    pub(crate) fn end_activation(&mut self) {
        self.st.fight = None;
        self.st.queue = self
            .unit_ids()
            .filter(|&u| {
                let s = self.us(u);
                s.active && s.disorder == Disorder::Disordered && matches!(s.loc, Loc::Map(_))
            })
            .collect();
        if self.st.queue.is_empty() {
            self.next_impulse();
        } else {
            self.st.step = Step::Rally;
        }
    }

    /// The best rally modifier of the leaders in a hex (NB Morale and disorder rules: their
    /// command rating; NB57).
    pub(crate) fn rally_bonus(&self, h: Hex, side: u8) -> i8 {
        self.leaders_at(h)
            .into_iter()
            .filter(|l| self.lside(usize::from(l.0)) == Some(side))
            // NB75: a lent rating adds to the officer's command rating for the turn
            .map(|l| {
                let i = usize::from(l.0);
                (self.sup.leaders[i].command + self.st.leaders[i].lent) as i8
            })
            .max()
            .unwrap_or(0)
    }

    fn roll_outcomes(&self) -> Vec<(u8, u32)> {
        match self.st.step {
            Step::InitiativeRoll => two_dice(),
            Step::ToHit => self.sup.melee.roll_weights(),
            Step::PassRoll
            | Step::ActivationRoll
            | Step::MoraleDie
            | Step::Rally
            | Step::Recovery => (1..=6).map(|f| (f, 1)).collect(),
            _ => Vec::new(),
        }
    }

    fn apply_roll(&mut self, n: u8) {
        match self.st.step {
            Step::InitiativeRoll => {
                let side = if self.st.init_rolls[0] == 0 { 0 } else { 1 };
                self.st.init_rolls[side] = n;
                let bonus = self.initiative_bonus(Side(side as u8));
                self.events.push(Event::InitiativeRolled {
                    side: Side(side as u8),
                    roll: n,
                    bonus,
                });
                if side == 1 {
                    let t0 = u16::from(self.st.init_rolls[0])
                        + u16::from(self.initiative_bonus(Side(0)));
                    let t1 = u16::from(n) + u16::from(bonus);
                    let (winner, why) = match t0.cmp(&t1) {
                        std::cmp::Ordering::Greater => (0, "rolled"),
                        std::cmp::Ordering::Less => (1, "rolled"),
                        // NB Sequence of Play: last turn's initiative player wins ties.
                        std::cmp::Ordering::Equal => (self.st.initiative, "tie"),
                    };
                    self.st.initiative = winner;
                    self.events.push(Event::Initiative {
                        side: Side(winner),
                        why,
                    });
                    self.reinforcements();
                }
            }
            Step::PassRoll => {
                // NB Turn End: a pass ends the action sequence on a 6.
                let ended = n == 6;
                self.events.push(Event::PassRoll { die: n, ended });
                if ended {
                    self.end_action_phase();
                } else {
                    self.st.passes = 1;
                    self.st.acting = other(self.st.acting);
                    self.st.step = Step::Choose;
                }
            }
            Step::ActivationRoll => self.activation_roll(n),
            Step::ToHit | Step::MoraleDie => self.melee_roll(n),
            Step::Rally => {
                let u = self.st.queue.remove(0);
                let h = self.hex_of(u).unwrap_or_default();
                let need = self.morale(u) + self.rally_bonus(h, self.side_of(u));
                let rallied = crate::melee::morale_passes(need, n);
                if rallied {
                    self.us_mut(u).disorder = Disorder::Good;
                }
                self.events.push(Event::Rally {
                    unit: u,
                    die: n,
                    need,
                    rallied,
                });
                if self.st.queue.is_empty() {
                    self.next_impulse();
                }
            }
            Step::Recovery => {
                let u = self.st.queue.remove(0);
                // NB Recovery: less than the unit's initiative, -1 when demoralized.
                let mut recovered = (n as i8) < self.morale(u);
                let mut place = false;
                if self.us(u).loc == Loc::Eliminated {
                    if !recovered {
                        // NB Recovery: a failed roll eliminates it permanently
                        self.us_mut(u).gone = true;
                    } else {
                        // NB78: its owner places it within 2 hexes of its officer (when an
                        // earlier unit took the last hex, it stays in the box for another night)
                        recovered = !self.placement_hexes(u).is_empty();
                        place = recovered;
                    }
                } else if recovered {
                    self.recover_sp(u);
                }
                self.events.push(Event::Recovery {
                    unit: u,
                    die: n,
                    recovered,
                });
                if place {
                    self.st.placing = Some(u);
                    self.st.step = Step::Place;
                } else if self.st.queue.is_empty() {
                    self.victory_phase();
                }
            }
            _ => {}
        }
    }

    fn canonical_hash(&self) -> u64 {
        let mut h = engine::PortableHasher::new();
        self.st.hash(&mut h);
        self.outcome
            .as_ref()
            .map(|o| o.winner.map_or(2u8, |w| w.0))
            .unwrap_or(9)
            .hash(&mut h);
        h.finish()
    }

    /// The seat to act, for a step a side acts in.
    pub(crate) fn seat_to_act(&self) -> u8 {
        match self.st.step {
            Step::Reaction => other(self.st.acting),
            Step::Evade => other(self.st.acting),
            Step::Losses => {
                let f = self.st.fight.as_ref();
                if f.is_some_and(|f| f.loss[1] > 0) {
                    other(self.st.acting)
                } else {
                    self.st.acting
                }
            }
            Step::Retreat => match self.st.fight.as_ref().and_then(|f| f.retreating) {
                Some((1, _)) => other(self.st.acting),
                _ => self.st.acting,
            },
            // NB Recovery: the owner places his recovered unit
            Step::Place => self.st.placing.map_or(self.st.acting, |u| self.side_of(u)),
            _ => self.st.acting,
        }
    }

    /// Checks an action (the `Rules::check` of this system).
    pub fn why_not(&self, a: Action) -> Result<(), Refusal> {
        if let Some(o) = &self.outcome {
            return Err(Refusal::new(
                "NB Sequence of Play",
                format!("the game is over: {}", o.why),
            ));
        }
        let chance = matches!(
            self.st.step,
            Step::InitiativeRoll
                | Step::PassRoll
                | Step::ActivationRoll
                | Step::ToHit
                | Step::MoraleDie
                | Step::Rally
                | Step::Recovery
        );
        if chance {
            return match a {
                Action::Roll(n) if self.roll_outcomes().iter().any(|&(f, _)| f == n) => Ok(()),
                Action::Roll(n) => Err(Refusal::new(
                    "NB Sequence of Play",
                    format!("{n} is not a possible roll now"),
                )),
                _ => Err(Refusal::new(
                    "NB Sequence of Play",
                    "the dice are rolled now (roll N)",
                )),
            };
        }
        if let Action::Roll(_) = a {
            return Err(Refusal::new(
                "NB Sequence of Play",
                "no die is to be rolled now",
            ));
        }
        if self.st.step == Step::Place || matches!(a, Action::Place { .. }) {
            return self.check_place(a);
        }
        match self.st.step {
            Step::Choose | Step::Designate | Step::WriteOrder => self.check_activation(a),
            Step::Movement | Step::Reaction => self.check_movement(a),
            Step::Melee | Step::Evade | Step::Losses | Step::Retreat | Step::Advance => {
                self.check_melee(a)
            }
            _ => Err(Refusal::new(
                "NB Sequence of Play",
                "nothing may be done now",
            )),
        }
    }

    fn apply_action(&mut self, a: Action) {
        self.events.clear();
        if let Action::Roll(_) = a {
            self.since_roll = 0;
        } else {
            self.since_roll += 1;
        }
        match a {
            Action::Roll(n) => self.apply_roll(n),
            Action::Pass => self.pass(),
            Action::Place { .. } => self.apply_place(a),
            _ => match self.st.step {
                Step::Choose | Step::Designate | Step::WriteOrder => self.apply_activation(a),
                Step::Movement | Step::Reaction => self.apply_movement(a),
                _ => self.apply_melee(a),
            },
        }
    }

    /// The unit's base type.
    pub(crate) fn kind(&self, u: UnitId) -> UnitType {
        self.sc.unit(u).kind
    }
}

/// Two dice summed: 2..=12 weighted 1..6..1.
pub(crate) fn two_dice() -> Vec<(u8, u32)> {
    (2..=12u8)
        .map(|r| (r, 6 - (i32::from(r) - 7).unsigned_abs()))
        .collect()
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
        &self.sc.sides[usize::from(seat.0.min(1))]
    }
    fn to_act(&self) -> ToAct {
        if let Some(o) = &self.outcome {
            return ToAct::Over(o.clone());
        }
        match self.st.step {
            Step::InitiativeRoll
            | Step::PassRoll
            | Step::ActivationRoll
            | Step::ToHit
            | Step::MoraleDie
            | Step::Rally
            | Step::Recovery => ToAct::Chance,
            _ => ToAct::Side(Side(self.seat_to_act())),
        }
    }
    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        let outs = self.roll_outcomes();
        if !outs.is_empty() {
            out.extend(outs.into_iter().map(|(n, _)| Action::Roll(n)));
            return;
        }
        let mut cands = Vec::new();
        let mut sure = Vec::new();
        match self.st.step {
            Step::Choose | Step::Designate | Step::WriteOrder => {
                self.activation_candidates(&mut cands, &mut sure)
            }
            Step::Movement | Step::Reaction => self.movement_candidates(&mut cands, &mut sure),
            // NB Recovery: every hex the recovered unit may be placed in (all checked)
            Step::Place => {
                if let Some(u) = self.unit_to_place() {
                    sure.extend(
                        self.placement_hexes(u)
                            .into_iter()
                            .map(|to| Action::Place { unit: u, to }),
                    );
                }
            }
            _ => self.melee_candidates(&mut cands),
        }
        out.extend(cands.into_iter().filter(|&a| self.why_not(a).is_ok()));
        out.extend(sure);
    }
    fn check(&self, a: Action) -> Result<(), Refusal> {
        self.why_not(a)
    }
    fn apply_unchecked(&mut self, a: Action) {
        self.apply_action(a);
    }
    fn events(&self) -> &[Event] {
        &self.events
    }
    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        self.roll_outcomes()
            .into_iter()
            .map(|(n, w)| (Action::Roll(n), w))
            .collect()
    }
    fn action_text(&self, a: Action) -> String {
        a.text(self)
    }
    fn parse_action(&self, text: &str) -> Result<Action, Refusal> {
        Action::parse(self, text)
    }
    fn state_hash(&self) -> u64 {
        self.canonical_hash()
    }
    fn undoable(&self) -> usize {
        // NB58: every choice since the last die may be taken back, none before it.
        self.since_roll
    }
    fn undo_refusal(&self) -> Refusal {
        Refusal::new(
            "NB58",
            "a die has been rolled since: nothing before it may be taken back",
        )
    }
}

/// A leader as a front end sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct LeaderView {
    /// Where.
    pub loc: LeaderLoc,
    /// Activated (or tried to) this turn.
    pub acted: bool,
    /// Spent by a failed initiative roll this turn.
    pub spent: bool,
    /// A commander who has made his one move this turn.
    pub moved: bool,
    /// The bonus of an officer's earlier failure.
    pub bonus: Bonus,
    /// His written order's destination.
    pub order: Option<Hex>,
    /// A march order: the turn it arrives and its destination.
    pub march: Option<(u8, Hex)>,
    /// Command points spent this turn.
    pub command_points_used: u8,
    /// A commander's rating lent to this officer this turn (NB75).
    pub lent: u8,
}

/// The activation of the current impulse, as a front end sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ActivationView {
    /// The acting side.
    pub side: Side,
    /// How it was made.
    pub how: ActivationKind,
    /// The commander spending command points, if any.
    pub commander: Option<LeaderId>,
    /// The officers activated.
    pub officers: Vec<LeaderId>,
    /// The lead unit of a unit activation.
    pub lead: Option<UnitId>,
    /// The units designated (before the roll) or activated.
    pub units: Vec<UnitId>,
    /// The destination its order binds it to.
    pub order: Option<Hex>,
}

/// The melee in progress, as a front end sees it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct MeleeView {
    /// The attacking hex.
    pub from: Hex,
    /// The defending hex.
    pub to: Hex,
    /// The attacking units.
    pub attackers: Vec<UnitId>,
    /// The defending units.
    pub defenders: Vec<UnitId>,
    /// The column's name (`150%`).
    pub column: String,
    /// SP still to allocate: attacker, defender.
    pub loss: [u8; 2],
    /// Hexes of retreat still owed: attacker, defender.
    pub retreat: [u8; 2],
    /// The side retreating now and where its stack stands.
    pub retreating: Option<(Side, Hex)>,
}

impl Game {
    /// A leader's state.
    pub fn leader(&self, l: LeaderId) -> Option<LeaderView> {
        let s = self.st.leaders.get(usize::from(l.0))?;
        Some(LeaderView {
            loc: s.loc,
            acted: s.acted,
            spent: s.spent,
            moved: s.moved,
            bonus: s.bonus,
            order: s.order,
            march: s.march,
            command_points_used: s.cp_used,
            lent: s.lent,
        })
    }

    /// The activation of the current impulse.
    pub fn activation(&self) -> Option<ActivationView> {
        let a = self.st.act.as_ref()?;
        let units = if self.st.step == Step::Designate || self.st.step == Step::ActivationRoll {
            self.act_units(a)
        } else {
            self.unit_ids().filter(|&u| self.us(u).active).collect()
        };
        Some(ActivationView {
            side: Side(a.side),
            how: a.how,
            commander: a.commander.map(LeaderId),
            officers: a.officers.iter().map(|&o| LeaderId(o)).collect(),
            lead: a.lead,
            units,
            order: a.order,
        })
    }

    /// The melee in progress.
    pub fn melee(&self) -> Option<MeleeView> {
        let f = self.st.fight.as_ref()?;
        Some(MeleeView {
            from: f.from,
            to: f.to,
            attackers: f.attackers.clone(),
            defenders: f.defenders.clone(),
            column: self.sup.melee.column_name(f.column),
            loss: f.loss,
            retreat: f.retreat,
            retreating: f.retreating.map(|(k, h)| {
                let side = if k == 0 {
                    self.st.acting
                } else {
                    other(self.st.acting)
                };
                (Side(side), h)
            }),
        })
    }

    /// The outcome, once the game is over.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }
}
