//! The game state and the sequence of play (4.0, 10.0).

use crate::scenario::{Scenario, Start};
use crate::tables::{Column, CombatResult};
use crate::Opponent;
use crate::{Action, Blocker, Elimination, Event, UnitId, UnitSet};
use engine::{Outcome, Refusal, Rules, Side, ToAct};
use hexmap::{Hex, HexGrid};
use std::sync::Arc;

/// Where a unit is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Loc {
    /// On the map.
    Map(Hex),
    /// Not yet arrived (a reinforcement).
    Waiting,
    /// Eliminated (or destroyed before the scenario).
    Eliminated,
    /// Pushed out of this hex by displacement and about to retreat from it (7.81).
    Lifted(Hex),
}

/// The phase of the current player-turn (4.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Phase {
    /// The phasing player moves (5.0).
    Movement,
    /// The phasing player attacks (7.0).
    Combat,
}

/// The step within the phase: who decides what next.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Movement phase: move units, bring on reinforcements, then `end`.
    Movement,
    /// Combat phase: declare which units attack which (7.1, 7.2), then `end`.
    Declare,
    /// Combat phase: choose the next declared combat to resolve (7.0), optionally at reduced
    /// odds (7.9).
    Choose,
    /// A die is rolled for the combat being resolved.
    Roll,
    /// After an exchange, the attacker chooses his losses (7.6 Ex).
    Losses,
    /// Units retreat one hex each, chosen by their owner (7.7, 7.8).
    Retreat,
    /// The victor may advance one unit into a vacated hex (7.74, 7.75).
    Advance,
    /// The game is over.
    Over,
}

pub(crate) const NO_COMBAT: u8 = u8::MAX;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct UnitState {
    pub loc: Loc,
    /// Moved this movement phase (5.17).
    pub moved: bool,
    /// Index of its combat this phase, or NO_COMBAT.
    pub combat: u8,
    /// Advanced after combat this phase (7.74).
    pub advanced: bool,
    /// Turn from which a waiting reinforcement may enter.
    pub due: u8,
    /// Its current entry hex.
    pub entry: Hex,
    /// Delayed once already (15.0).
    pub delayed: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Combat {
    pub attackers: UnitSet,
    pub defenders: UnitSet,
    /// Bombarding artillery (8.1): fixed when it joins the combat.
    pub bombard: UnitSet,
    pub resolved: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub(crate) struct Resolution {
    pub combat: u8,
    pub column: Option<Column>,
    pub die: u8,
    pub result: Option<CombatResult>,
    /// Bombarding artillery of this combat (8.14).
    pub bombard: UnitSet,
    /// Units that must still retreat.
    pub retreating: UnitSet,
    /// Bombarding artillery that may elect to retreat (8.15).
    pub optional: UnitSet,
    /// A displaced unit that must retreat before anything else (7.81).
    pub displaced: Option<UnitId>,
    /// The hexes the current chain of displacement has pushed units out of (7.82): the chain
    /// may not pass through them again, so that it ends.
    pub chain: Vec<Hex>,
    /// Hexes the losing side held when the die was rolled.
    pub losing_hexes: Vec<Hex>,
    /// The side that may advance.
    pub victor: Option<Side>,
    /// Strength the attacker must lose in an exchange.
    pub loss_needed: u32,
}

/// A game of Napoleon at War: a validated scenario and the current state.
#[derive(Clone, Debug)]
pub struct Game {
    pub(crate) sc: Arc<Scenario>,
    pub(crate) turn: u8,
    pub(crate) player: u8,
    pub(crate) step: Step,
    pub(crate) units: Vec<UnitState>,
    pub(crate) occ: HexGrid<u8>,
    /// Zone-of-control counts per side: how many of its units control each hex (6.0).
    /// By dense hex index, with one more entry (unused) for the sentinel index of
    /// [`crate::movement::StepTable`].
    pub(crate) zoc: [Vec<u8>; 2],
    pub(crate) combats: Vec<Combat>,
    pub(crate) res: Resolution,
    pub(crate) losses: Vec<u32>,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) takeback: u16,
    pub(crate) events: Vec<Event>,
    /// Names this state for caches of derived data (the last destinations search): a new,
    /// never repeated value whenever the state changes. A clone shares it (its state is the
    /// same); it is not part of the state and not hashed.
    pub(crate) stamp: u64,
    /// Each unit's eight bytes of the state hash, kept up to date by every change of
    /// `units` (see [`Game::sync_unit`]), so that hashing a state copies them at once.
    pub(crate) unit_bytes: Vec<u8>,
    /// The combats of this combat phase whose die has been rolled, by combat index, as they
    /// stood at the roll (7.6, 7.9), for the views: they follow from the record, are not part
    /// of the state that decides play, and are not hashed. Shared between clones (the
    /// computer players copy games by the thousand), `None` when empty.
    pub(crate) rolled: Option<Arc<Vec<(u8, crate::combat::Rolled)>>>,
    /// What began the run of actions that may be taken back (the last `takeback`): not
    /// hashed.
    pub(crate) barrier: Barrier,
    /// The line of communications was checked at the end of the last game-turn (17.5): not
    /// hashed (the outcome and the losses it made are).
    pub(crate) loc_checked: bool,
}

/// The line-of-communications check (17.5): the units of `side` on the map that trace a line
/// to `hex`, and those that cannot.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineCheck {
    /// The side that must trace (the French in The Battle of Nations).
    pub side: Side,
    /// The hex the line leads to (2131).
    pub hex: Hex,
    /// The units that trace a line.
    pub traced: Vec<UnitId>,
    /// The units cut off: at the end of the last game-turn they count as eliminated.
    pub cut_off: Vec<UnitId>,
}

/// What stands before the actions that may still be taken back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Barrier {
    /// The start of the game: nothing before it.
    Start,
    /// A player-turn began: the last player-turn's actions stand (5.17, ruling M8).
    PlayerTurn,
    /// A die was rolled (5.14).
    Die,
}

/// A unit's eight bytes in the canonical form of the state hash.
fn unit_bytes(s: &UnitState) -> [u8; 8] {
    let (tag, h) = match s.loc {
        Loc::Map(h) => (0u8, h),
        Loc::Waiting => (1, s.entry),
        Loc::Eliminated => (2, Hex::default()),
        Loc::Lifted(h) => (3, h),
    };
    [
        tag,
        h.x as u8,
        h.y as u8,
        s.moved as u8,
        s.combat,
        s.advanced as u8,
        s.due,
        s.delayed as u8,
    ]
}

/// Issues [`Game::stamp`] values, unique over the process.
static STAMPS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);

fn new_stamp() -> u64 {
    STAMPS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// A unit as shown to players.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitView {
    /// The unit.
    pub unit: UnitId,
    /// Its id.
    pub id: String,
    /// Where it is.
    pub loc: Loc,
    /// Moved this phase.
    pub moved: bool,
    /// In a declared combat this phase.
    pub in_combat: bool,
    /// Turn a waiting reinforcement may enter, and where.
    pub arrival: Option<(u8, Hex)>,
}

impl Game {
    /// A new game at the start of the scenario.
    pub fn new(sc: Scenario) -> Game {
        Game::from_arc(Arc::new(sc))
    }

    /// A new game sharing a scenario.
    pub fn from_arc(sc: Arc<Scenario>) -> Game {
        let mut occ = sc.map.grid(0u8);
        let mut losses = vec![0u32; sc.armies.len()];
        let units = sc
            .units
            .iter()
            .enumerate()
            .map(|(i, d)| {
                let mut s = UnitState {
                    loc: Loc::Waiting,
                    moved: false,
                    combat: NO_COMBAT,
                    advanced: false,
                    due: 0,
                    entry: Hex::default(),
                    delayed: false,
                };
                match d.start {
                    Start::Hex(h) => {
                        s.loc = Loc::Map(h);
                        occ[h] = i as u8 + 1;
                    }
                    Start::Arrives(a) => {
                        s.due = a.turn;
                        s.entry = a.hex;
                    }
                    Start::Destroyed => {
                        // 17.0: destroyed units count toward demoralization.
                        s.loc = Loc::Eliminated;
                        losses[d.army as usize] += d.strength as u32;
                    }
                }
                s
            })
            .collect();
        let sc_zoc = vec![0u8; occ.len() + 1];
        let mut g = Game {
            turn: sc.first_turn,
            sc,
            player: 0,
            step: Step::Movement,
            units,
            zoc: [sc_zoc.clone(), sc_zoc],
            occ,
            combats: Vec::new(),
            res: Resolution::default(),
            losses,
            outcome: None,
            takeback: 0,
            events: Vec::new(),
            stamp: new_stamp(),
            unit_bytes: Vec::new(),
            rolled: None,
            barrier: Barrier::Start,
            loc_checked: false,
        };
        g.unit_bytes = g.units.iter().flat_map(unit_bytes).collect();
        for u in g.unit_ids().collect::<Vec<_>>() {
            if let Loc::Map(h) = g.units[u.0 as usize].loc {
                g.exert(u, h, true);
            }
        }
        g.begin_player_turn();
        g.barrier = Barrier::Start;
        g
    }

    /// Adds (or removes) a unit's zone of control around `h` (6.0, 6.6).
    fn exert(&mut self, u: UnitId, h: Hex, on: bool) {
        let side = self.side_of(u).0 as usize;
        let Some(i) = self.occ.index(h) else {
            return;
        };
        // the neighbours it controls, precomputed: not across an unbridged river (6.6), not
        // off the map (those lead to the sentinel entry, never read)
        let zoc = &mut self.zoc[side];
        for &n in &self.sc.steps.zoc[i] {
            let c = &mut zoc[n as usize];
            *c = if on {
                c.wrapping_add(1)
            } else {
                c.saturating_sub(1)
            };
        }
    }

    /// The scenario.
    pub fn scenario(&self) -> &Scenario {
        &self.sc
    }

    /// The shared scenario.
    pub fn scenario_arc(&self) -> &Arc<Scenario> {
        &self.sc
    }

    /// The current game-turn.
    pub fn turn(&self) -> u8 {
        self.turn
    }

    /// The phasing side.
    pub fn phasing(&self) -> Side {
        Side(self.player)
    }

    /// The current phase.
    pub fn phase(&self) -> Phase {
        match self.step {
            Step::Movement => Phase::Movement,
            _ => Phase::Combat,
        }
    }

    /// The current step.
    pub fn step(&self) -> Step {
        self.step
    }

    /// True during a night game-turn (10.0).
    pub fn is_night(&self) -> bool {
        self.sc.is_night(self.turn)
    }

    /// Where a unit is.
    pub fn loc(&self, u: UnitId) -> Loc {
        self.units[u.0 as usize].loc
    }

    /// The hex of a unit on the map.
    pub fn hex_of(&self, u: UnitId) -> Option<Hex> {
        match self.units[u.0 as usize].loc {
            Loc::Map(h) => Some(h),
            _ => None,
        }
    }

    /// The unit in a hex.
    #[inline]
    pub fn unit_at(&self, h: Hex) -> Option<UnitId> {
        match self.occ.get(h) {
            Some(&v) if v != 0 => Some(UnitId(v - 1)),
            _ => None,
        }
    }

    /// When and where a waiting reinforcement may enter: the game-turn it is due and its current
    /// entry hex (15.0, after any delay). `None` for a unit that is not waiting. A cheap query
    /// for computer players (no allocation, unlike [`Game::units`]).
    #[inline]
    pub fn arrival(&self, u: UnitId) -> Option<(u8, Hex)> {
        let s = self.units.get(u.0 as usize)?;
        (s.loc == Loc::Waiting).then_some((s.due, s.entry))
    }

    /// True when the unit is in a declared combat of this combat phase (7.14). A cheap query
    /// for computer players.
    #[inline]
    pub fn in_combat(&self, u: UnitId) -> bool {
        self.units
            .get(u.0 as usize)
            .is_some_and(|s| s.combat != NO_COMBAT)
    }

    /// The side owning a unit.
    #[inline]
    pub fn side_of(&self, u: UnitId) -> Side {
        self.sc.unit_sides[u.0 as usize]
    }

    /// All units, with their state, for display.
    pub fn units(&self) -> Vec<UnitView> {
        (0..self.units.len())
            .map(|i| {
                let s = &self.units[i];
                UnitView {
                    unit: UnitId(i as u8),
                    id: self.sc.units[i].id.clone(),
                    loc: s.loc,
                    moved: s.moved,
                    in_combat: s.combat != NO_COMBAT,
                    arrival: (s.loc == Loc::Waiting).then_some((s.due, s.entry)),
                }
            })
            .collect()
    }

    /// Unit ids in scenario order.
    pub fn unit_ids(&self) -> impl Iterator<Item = UnitId> {
        (0..self.units.len() as u8).map(UnitId)
    }

    /// Eliminated strength per demoralization army (17.0).
    pub fn losses(&self) -> &[u32] {
        &self.losses
    }

    /// The current demoralization level of an army (17.1).
    pub fn demoralization_level(&self, army: u8) -> Option<u32> {
        self.sc.demoralization_level(army, self.turn)
    }

    /// How the game ended.
    pub fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    /// What the last action caused, for the log.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    pub(crate) fn event(&mut self, e: Event) {
        self.events.push(e);
    }

    /// Brings a unit's bytes of the state hash up to date after a change of its state.
    #[inline]
    pub(crate) fn sync_unit(&mut self, u: UnitId) {
        let i = u.0 as usize;
        self.unit_bytes[8 * i..8 * i + 8].copy_from_slice(&unit_bytes(&self.units[i]));
    }

    pub(crate) fn place(&mut self, u: UnitId, h: Hex) {
        if let Loc::Map(old) = self.units[u.0 as usize].loc {
            if self.occ[old] == u.0 + 1 {
                self.occ[old] = 0;
            }
            self.exert(u, old, false);
        }
        self.units[u.0 as usize].loc = Loc::Map(h);
        self.sync_unit(u);
        self.occ[h] = u.0 + 1;
        self.exert(u, h, true);
    }

    pub(crate) fn lift(&mut self, u: UnitId) {
        if let Loc::Map(old) = self.units[u.0 as usize].loc {
            if self.occ[old] == u.0 + 1 {
                self.occ[old] = 0;
            }
            self.exert(u, old, false);
            self.units[u.0 as usize].loc = Loc::Lifted(old);
            self.sync_unit(u);
        }
    }

    /// Removes a unit from play and counts it against its army (7.6, 15.4, 17.0).
    pub(crate) fn eliminate(&mut self, u: UnitId, why: Elimination) {
        let i = u.0 as usize;
        match self.units[i].loc {
            Loc::Map(h) => {
                if self.occ.get(h) == Some(&(u.0 + 1)) {
                    self.occ[h] = 0;
                }
                self.exert(u, h, false);
            }
            Loc::Lifted(h) if self.occ.get(h) == Some(&(u.0 + 1)) => {
                self.occ[h] = 0;
            }
            _ => {}
        }
        if self.units[i].loc == Loc::Eliminated {
            return;
        }
        self.units[i].loc = Loc::Eliminated;
        self.sync_unit(u);
        let d = &self.sc.units[i];
        self.losses[d.army as usize] += d.strength as u32;
        self.event(Event::Eliminated { unit: u, why });
    }

    /// True when a unit of `side` exerts a zone of control into `h` (6.0, 6.6: not through an
    /// unbridged river hexside).
    #[inline]
    pub fn controlled_by(&self, side: Side, h: Hex) -> bool {
        self.occ
            .index(h)
            .is_some_and(|i| self.zoc[side.0 as usize][i] > 0)
    }

    /// True when the unit stands in a hex controlled by the enemy.
    pub fn in_enemy_zoc(&self, u: UnitId) -> bool {
        match self.hex_of(u) {
            Some(h) => self.controlled_by(self.side_of(u).other(), h),
            None => false,
        }
    }

    fn first_player_turn_of_scenario(&self) -> bool {
        self.turn == self.sc.first_turn
    }

    /// 14.62: the phasing side has no movement phase in this game-turn.
    pub(crate) fn no_movement_phase_this_turn(&self) -> bool {
        self.first_player_turn_of_scenario()
            && self.sc.hooks.no_movement_first_turn == Some(self.phasing())
    }

    /// Starts the phasing player's player-turn: reinforcements (15.0) and the movement phase,
    /// or straight to combat where 14.62 takes the movement phase away.
    pub(crate) fn begin_player_turn(&mut self) {
        self.takeback = 0;
        self.barrier = Barrier::PlayerTurn;
        self.combats.clear();
        self.rolled = None;
        self.res = Resolution::default();
        for (s, b) in self
            .units
            .iter_mut()
            .zip(self.unit_bytes.chunks_exact_mut(8))
        {
            s.moved = false;
            s.combat = NO_COMBAT;
            s.advanced = false;
            b.copy_from_slice(&unit_bytes(s));
        }
        let side = self.phasing();
        if self.no_movement_phase_this_turn() {
            self.event(Event::NoMovement { side }); // 14.62
            self.begin_combat_phase();
            return;
        }
        self.step = Step::Movement;
        self.schedule_reinforcements(side);
    }

    /// 15.0: reinforcements due whose entry hex is blocked are delayed one turn, then enter at
    /// the nearest unblocked road hex of the same edge.
    fn schedule_reinforcements(&mut self, side: Side) {
        for i in 0..self.units.len() {
            let u = UnitId(i as u8);
            let s = self.units[i];
            if s.loc != Loc::Waiting || self.side_of(u) != side || s.due > self.turn {
                continue;
            }
            let Start::Arrives(arr) = self.sc.units[i].start else {
                continue;
            };
            if !s.delayed {
                if let Some(by) = self.entry_blocker(side, s.entry) {
                    self.units[i].delayed = true;
                    self.units[i].due = self.turn + 1;
                    self.sync_unit(u);
                    self.event(Event::Delayed {
                        unit: u,
                        hex: s.entry,
                        by,
                    }); // 15.0
                }
            } else {
                // After the delay: the nearest unblocked road hex on the same edge.
                let mut best: Option<(u32, Hex)> = None;
                for &h in self.sc.edge_roads(arr.edge) {
                    if self.entry_blocked(side, h) {
                        continue;
                    }
                    let k = (arr.hex.distance(h), h);
                    if best.is_none_or(|b| k < b) {
                        best = Some(k);
                    }
                }
                match best {
                    Some((_, h)) => self.units[i].entry = h,
                    None => self.units[i].due = self.turn + 1,
                }
                self.sync_unit(u);
            }
        }
    }

    /// An entry hex is blocked when an enemy unit holds it or controls it (15.0), or a
    /// friendly unit stands in it where the scenario says friends block.
    pub(crate) fn entry_blocked(&self, side: Side, h: Hex) -> bool {
        self.entry_blocker(side, h).is_some()
    }

    /// What blocks an entry hex (15.0), said for the delay: the enemy first (a unit in the
    /// hex or its zone of control over it), then a friendly unit in it where the scenario's
    /// `friendly_occupied_entry_ok` is off.
    fn entry_blocker(&self, side: Side, h: Hex) -> Option<Blocker> {
        let occupant = self.unit_at(h);
        if occupant.is_some_and(|o| self.side_of(o) != side) || self.controlled_by(side.other(), h)
        {
            return Some(Blocker::Enemy);
        }
        if occupant.is_some() && !self.sc.hooks.friendly_occupied_entry_ok {
            return Some(Blocker::Friend);
        }
        None
    }

    pub(crate) fn begin_combat_phase(&mut self) {
        if self.is_night() {
            // 10.1: no combat phase at night.
            self.end_player_turn();
            return;
        }
        self.step = Step::Declare;
    }

    /// Ends the phasing player's player-turn: the other player's turn, or the game-turn
    /// record interphase (4.1) and the end of the game after the last turn.
    pub(crate) fn end_player_turn(&mut self) {
        if self.outcome.is_some() {
            return;
        }
        if self.player == 0 {
            self.player = 1;
        } else {
            if self.turn >= self.sc.last_turn {
                self.finish();
                return;
            }
            self.turn += 1;
            self.player = 0;
            self.check_demoralization(None);
            if self.outcome.is_some() {
                return;
            }
        }
        self.begin_player_turn();
    }

    /// 17.1-17.2: whether an army of `side` has lost at least its demoralization level of the
    /// current game-turn.
    pub fn demoralized(&self, side: Side) -> bool {
        self.sc.armies.iter().enumerate().any(|(a, (_, s))| {
            *s == side
                && self
                    .sc
                    .demoralization_level(a as u8, self.turn)
                    .is_some_and(|level| self.losses[a] >= level)
        })
    }

    /// 17.2-17.3: an army whose losses reach its level is demoralized at once.
    pub(crate) fn check_demoralization(&mut self, _hint: Option<Side>) {
        if self.outcome.is_some() {
            return;
        }
        let demoralized = [self.demoralized(Side(0)), self.demoralized(Side(1))];
        let names = &self.sc.sides;
        let outcome = match demoralized {
            [true, true] => Some(Outcome {
                winner: Some(self.phasing()),
                case: "17.3",
                why: format!(
                    "both armies are demoralized at once; the phasing player ({}) wins",
                    names[self.player as usize]
                ),
            }),
            [true, false] => Some(Outcome {
                winner: Some(Side(1)),
                case: "17.2",
                why: format!("the {} army is demoralized; {} win", names[0], names[1]),
            }),
            [false, true] => Some(Outcome {
                winner: Some(Side(0)),
                case: "17.2",
                why: format!("the {} army is demoralized; {} win", names[1], names[0]),
            }),
            _ => None,
        };
        if let Some(o) = outcome {
            self.event(Event::GameOver {
                winner: o.winner,
                case: o.case,
            });
            self.outcome = Some(o);
            self.step = Step::Over;
        }
    }

    /// End of the last game-turn: the line of communications (17.5), then demoralization or a
    /// draw (17.4).
    fn finish(&mut self) {
        self.loc_checked = self.sc.loc.is_some();
        if let Some(loc) = self.sc.loc.clone() {
            let cut = self.cut_off_units(loc.side, loc.hex);
            for u in cut {
                let d = &self.sc.units[u.0 as usize];
                self.losses[loc.army as usize] += d.strength as u32;
                self.event(Event::CutOff {
                    unit: u,
                    target: loc.hex,
                }); // 17.5
            }
        }
        self.check_demoralization(None);
        if self.outcome.is_none() {
            let o = Outcome {
                winner: None,
                case: "17.4",
                why: "neither army is demoralized at the end of the last game-turn: a draw".into(),
            };
            self.event(Event::GameOver {
                winner: None,
                case: o.case,
            });
            self.outcome = Some(o);
        }
        self.step = Step::Over;
    }

    /// The units of `side` that cannot trace a line of communications to `target` (17.5): a
    /// path of adjacent hexes that crosses no unbridged river, enters marsh only along a road,
    /// and passes through no hex holding or controlled by an enemy unit (even one holding a
    /// friend). Its ends may be enemy-controlled; the target may not hold an enemy.
    pub fn cut_off_units(&self, side: Side, target: Hex) -> Vec<UnitId> {
        let map = &self.sc.map;
        let enemy = side.other();
        let open = |h: Hex| {
            map.contains(h)
                && self.unit_at(h).is_none_or(|o| self.side_of(o) != enemy)
                && !self.controlled_by(enemy, h)
        };
        let mut reached = map.grid(false);
        let mut stack = Vec::new();
        // The ruling on 17.5: the path may not pass *through* an enemy-controlled hex; its two
        // ends (the unit's hex and the target hex) may lie in an enemy zone of control, but the
        // target may not hold an enemy unit.
        if map.contains(target)
            && self
                .unit_at(target)
                .is_none_or(|o| self.side_of(o) != enemy)
        {
            reached[target] = true;
            stack.push(target);
        }
        let step_ok = |from: Hex, d: hexmap::Dir| {
            let to = from.neighbour(d);
            let s = map.hexside(from, d);
            map.contains(to) && self.sc.chart.passable(s, map.terrain(to))
        };
        // The search runs backwards from the target; the path runs forwards, from the unit to
        // the target, so a hex `n` joins when the step `n -> h` is allowed (marsh is entered
        // only along a road in the direction of the path).
        while let Some(h) = stack.pop() {
            for d in hexmap::Dir::ALL {
                let n = h.neighbour(d);
                if open(n) && !reached[n] && step_ok(n, d.opposite()) {
                    reached[n] = true;
                    stack.push(n);
                }
            }
        }
        let mut cut = Vec::new();
        for u in self.unit_ids() {
            if self.side_of(u) != side {
                continue;
            }
            let Some(h) = self.hex_of(u) else { continue };
            let ok = h == target
                || reached[h]
                || hexmap::Dir::ALL.iter().any(|&d| {
                    let n = h.neighbour(d);
                    // from the unit's own hex the path may start even inside an enemy zone
                    map.contains(n) && reached[n] && step_ok(h, d)
                });
            if !ok {
                cut.push(u);
            }
        }
        cut
    }

    /// The line-of-communications check of 17.5 as the board stands: which units of the
    /// scenario's side (on the map) trace a line to its hex and which are cut off
    /// ([`Game::cut_off_units`]). `None` when the scenario has no such check.
    pub fn line_of_communications(&self) -> Option<LineCheck> {
        let loc = self.sc.loc.as_ref()?;
        let cut_off = self.cut_off_units(loc.side, loc.hex);
        let traced = self
            .unit_ids()
            .filter(|&u| {
                self.side_of(u) == loc.side && self.hex_of(u).is_some() && !cut_off.contains(&u)
            })
            .collect();
        Some(LineCheck {
            side: loc.side,
            hex: loc.hex,
            traced,
            cut_off,
        })
    }

    /// The check of 17.5 made at the end of the last game-turn, once the game has ended
    /// there: the units it found tracing and cut off (the cut-off ones counted as eliminated).
    /// `None` before, when the game ended otherwise (17.2 during play), or without the check.
    pub fn line_of_communications_at_end(&self) -> Option<LineCheck> {
        if self.loc_checked {
            self.line_of_communications()
        } else {
            None
        }
    }

    pub(crate) fn refuse<T>(case: &'static str, why: impl Into<String>) -> Result<T, Refusal> {
        Err(Refusal::new(case, why))
    }

    /// The id of a unit.
    pub fn id(&self, u: UnitId) -> &str {
        self.sc
            .units
            .get(u.0 as usize)
            .map_or("(no such unit)", |d| d.id.as_str())
    }

    /// Appends the canonical bytes of the state to `b`.
    fn hash_into(&self, b: &mut Vec<u8>) {
        b.extend_from_slice(&[self.turn, self.player, self.step as u8]);
        // eight bytes per unit, kept up to date as the units change
        debug_assert!(
            self.units
                .iter()
                .flat_map(unit_bytes)
                .eq(self.unit_bytes.iter().copied()),
            "the units' hash bytes are out of date"
        );
        b.extend_from_slice(&self.unit_bytes);
        for c in &self.combats {
            for w in [c.attackers, c.defenders, c.bombard] {
                for u in w.iter() {
                    b.push(u.0);
                }
                b.push(0xff);
            }
            b.push(c.resolved as u8);
        }
        let r = &self.res;
        b.extend_from_slice(&[
            r.combat,
            r.column.map_or(0xff, |c| c.0),
            r.die,
            r.result.map_or(0xff, |x| x as u8),
            r.displaced.map_or(0xff, |u| u.0),
            r.victor.map_or(0xff, |s| s.0),
        ]);
        for set in [r.bombard, r.retreating, r.optional] {
            for u in set.iter() {
                b.push(u.0);
            }
            b.push(0xff);
        }
        for h in &r.losing_hexes {
            b.extend_from_slice(&[h.x as u8, h.y as u8]);
        }
        b.extend_from_slice(&r.loss_needed.to_le_bytes());
        if !r.chain.is_empty() {
            // (only during a chain of displacement: other states hash as before)
            b.push(0xfe);
            for h in &r.chain {
                b.extend_from_slice(&[h.x as u8, h.y as u8]);
            }
        }
        for l in &self.losses {
            b.extend_from_slice(&l.to_le_bytes());
        }
        b.push(
            self.outcome
                .as_ref()
                .map_or(0xff, |o| o.winner.map_or(2, |s| s.0)),
        );
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
        self.sc
            .sides
            .get(seat.0 as usize)
            .map_or("?", |s| s.as_str())
    }

    fn events(&self) -> &[Event] {
        &self.events
    }

    fn to_act(&self) -> ToAct {
        if let Some(o) = &self.outcome {
            return ToAct::Over(o.clone());
        }
        match self.step {
            Step::Roll => ToAct::Chance,
            Step::Retreat => ToAct::Side(self.retreat_side()),
            Step::Advance => ToAct::Side(self.res.victor.unwrap_or(self.phasing())),
            _ => ToAct::Side(self.phasing()),
        }
    }

    fn legal_actions(&self, out: &mut Vec<Action>) {
        if self.outcome.is_some() {
            return;
        }
        match self.step {
            Step::Movement => self.movement_actions(out),
            Step::Declare => self.declare_actions(out),
            Step::Choose => self.choose_actions(out),
            Step::Roll => out.extend((1..=6).map(Action::Roll)),
            Step::Losses => self.loss_actions(out),
            Step::Retreat => self.retreat_actions(out),
            Step::Advance => self.advance_actions(out),
            Step::Over => {}
        }
    }

    fn check(&self, a: Action) -> Result<(), Refusal> {
        if let Some(o) = &self.outcome {
            return Game::refuse(o.case, format!("the game is over: {}", o.why));
        }
        match (self.step, a) {
            (Step::Movement, Action::Move { unit, to }) => {
                self.check_move(unit, to, false).map(|_| ())
            }
            (Step::Movement, Action::End) => Ok(()),
            (Step::Declare, Action::Attack { unit, target }) => self.check_attack(unit, target),
            (Step::Declare, Action::End) => self.check_declarations_complete(),
            (Step::Choose, Action::Resolve { target, column }) => {
                self.check_resolve(target, column)
            }
            (Step::Roll, Action::Roll(f)) if (1..=6).contains(&f) => Ok(()),
            (Step::Roll, Action::Roll(f)) => {
                Game::refuse("7.6", format!("a die shows 1 to 6, not {f}"))
            }
            (Step::Losses, Action::Lose { units }) => self.check_losses(units),
            (Step::Retreat, Action::Retreat { unit, to }) => self.check_retreat(unit, to),
            (Step::Retreat, Action::Stand { unit }) => self.check_stand(unit),
            (Step::Advance, Action::Advance { unit, to }) => self.check_advance(unit, to),
            (Step::Advance, Action::Hold) => Ok(()),
            (_, a @ Action::Move { .. }) => {
                // 14.62: the whole first game-turn passes without a movement phase; 5.11:
                // moving out of sequence
                let r = self.out_of_phase();
                Game::refuse(r.case, format!("{}: {}", self.action_text(a), r.why))
            }
            (step, a) => {
                let case = match a {
                    // 5.14: no combat in the movement phase
                    Action::Attack { .. } | Action::Resolve { .. } if step == Step::Movement => {
                        "5.14"
                    }
                    _ => step_case(step),
                };
                Game::refuse(
                    case,
                    format!("{}: {}", self.action_text(a), step_expects(step)),
                )
            }
        }
    }

    fn apply_unchecked(&mut self, a: Action) {
        self.stamp = new_stamp();
        self.events.clear();
        match a {
            Action::Move { unit, to } => {
                self.apply_move(unit, to);
                self.takeback += 1;
            }
            Action::End => match self.step {
                Step::Movement => {
                    self.takeback += 1;
                    self.begin_combat_phase();
                }
                Step::Declare => {
                    self.takeback += 1;
                    self.end_declarations();
                }
                _ => {}
            },
            Action::Attack { unit, target } => {
                self.apply_attack(unit, target);
                self.takeback += 1;
            }
            Action::Resolve { target, column } => {
                self.apply_resolve(target, column);
                self.takeback += 1;
            }
            Action::Roll(f) => {
                // 5.14: the die and everything before it stand
                self.takeback = 0;
                self.barrier = Barrier::Die;
                self.apply_roll(f);
            }
            // The choices that carry out a result (ruling M8): they came after the die and
            // may be taken back to it, the die standing. Counted before they are applied: the
            // last of them may end the player-turn, which starts a new count.
            Action::Lose { units } => {
                self.takeback += 1;
                self.apply_losses(units);
            }
            Action::Retreat { unit, to } => {
                self.takeback += 1;
                self.apply_retreat(unit, to);
            }
            Action::Stand { unit } => {
                self.takeback += 1;
                self.apply_stand(unit);
            }
            Action::Advance { unit, to } => {
                self.takeback += 1;
                self.apply_advance(Some((unit, to)));
            }
            Action::Hold => {
                self.takeback += 1;
                self.apply_advance(None);
            }
        }
    }

    fn chance_outcomes(&self) -> Vec<(Action, u32)> {
        if self.step == Step::Roll && self.outcome.is_none() {
            // 7.6: one six-sided die, each face equally likely
            (1..=6).map(|f| (Action::Roll(f), 1)).collect()
        } else {
            Vec::new()
        }
    }

    fn action_text(&self, a: Action) -> String {
        a.text(self)
    }

    fn parse_action(&self, text: &str) -> Result<Action, Refusal> {
        Action::parse(text, self)
    }

    fn state_hash(&self) -> u64 {
        thread_local! {
            // the canonical bytes, reused (no allocation per hash)
            static BYTES: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
        }
        BYTES.with(|cell| {
            let b = &mut *cell.borrow_mut();
            b.clear();
            self.hash_into(b);
            engine::hash_bytes(b)
        })
    }

    fn undoable(&self) -> usize {
        self.takeback as usize
    }

    fn undo_refusal(&self) -> Refusal {
        match self.barrier {
            // 5.14: the die and everything before it stand; the choices after it do not
            Barrier::Die => Refusal::new(
                "5.14",
                "the die has been rolled: it and every action before it stand (only the \
                 choices made since, losses, retreats and advances, may be taken back)",
            ),
            // 5.17 and ruling M8: a player takes back his own moves within his player-turn
            Barrier::PlayerTurn => Refusal::new(
                "5.17",
                format!(
                    "the {} player-turn of game-turn {} has begun: the actions of the player-turn \
                     before it stand",
                    self.seat_name(self.phasing()),
                    self.turn
                ),
            ),
            // (the case the take-back rule of Napoleon at War has always answered with)
            Barrier::Start => Refusal::new("5.14", "there is nothing to take back"),
        }
    }
}

fn step_case(step: Step) -> &'static str {
    match step {
        Step::Movement => "5.11",
        Step::Declare | Step::Choose => "7.0",
        Step::Roll => "7.0",
        Step::Losses => "7.6",
        Step::Retreat => "7.71",
        Step::Advance => "7.74",
        Step::Over => "17.0",
    }
}

fn step_expects(step: Step) -> &'static str {
    match step {
        Step::Movement => "in the movement phase units move (move UNIT HEX) until the player ends it (end)",
        Step::Declare => "in the combat phase attacks are declared first (attack UNIT TARGET, end; undo takes a declaration back)",
        Step::Choose => "choose the next declared combat to resolve (resolve TARGET [at ODDS])",
        Step::Roll => "the die must be rolled now (roll N)",
        Step::Losses => "the attacker must choose his exchange losses first (lose UNIT,UNIT)",
        Step::Retreat => "retreats must be carried out first (retreat UNIT HEX)",
        Step::Advance => "the victor may advance one unit or decline (advance UNIT HEX, hold)",
        Step::Over => "the game is over",
    }
}
