//! NB Movement procedures, facing and zones of control; NB Stacking and SP limits; NB
//! Strategic movement; NB Tactical movement; reaction face changes.

use crate::action::{Action, LeaderId};
use crate::event::Event;
use crate::game::{dir_of, Game, Loc, Step, NO_DIR};
use engine::Refusal;
use hexmap::{Dir, Hex};
use naw::{UnitId, UnitType};
use std::sync::Arc as Shared;

const MOVE: &str = "NB Movement";
const STACK: &str = "NB Stacking and SP limits";
const NIGHT: &str = "NB Napoleon At Leipzig";
const TERRAIN: &str = "NB Leipzig Terrain Effects";

/// The mark of a prohibited step in a [`Steps`] table.
const NO_STEP: u32 = u32::MAX;

/// The terrain cost of every step of the map, by dense hex index (the index of
/// `Map::grid`, which the game's occupancy grid shares): `naw::step_cost` computed once per
/// game and shared by its clones, for the leaders' reach search (NB62).
#[derive(Debug)]
pub(crate) struct Steps {
    /// The hex of each index.
    hex: Vec<Hex>,
    /// The neighbour's index per hex and direction, [`NO_STEP`] where the step is
    /// prohibited or leaves the grid.
    nbr: Vec<[u32; 6]>,
    /// The step's half MP per hex and direction (meaningful where `nbr` is set).
    cost: Vec<[u16; 6]>,
}

impl Steps {
    /// The table of a scenario's map and terrain chart.
    pub(crate) fn new(sc: &naw::Scenario) -> Shared<Steps> {
        let grid = sc.map.grid(());
        let n = grid.cells().len();
        let mut t = Steps {
            hex: (0..n).map(|i| grid.hex_at(i)).collect(),
            nbr: vec![[NO_STEP; 6]; n],
            cost: vec![[0; 6]; n],
        };
        for i in 0..n {
            let h = t.hex[i];
            for d in Dir::ALL {
                let Ok(c) = naw::step_cost(&sc.map, &sc.chart, h, d) else {
                    continue;
                };
                if let Some(ni) = grid.index(sc.map.neighbour(h, d)) {
                    t.nbr[i][d.index()] = ni as u32;
                    t.cost[i][d.index()] = c;
                }
            }
        }
        Shared::new(t)
    }
}

/// Where a hexside lies relative to a facing (NB Movement procedures, facing).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Arc {
    /// One of the three front hexsides.
    Front,
    /// One of the two flank hexsides.
    Flank,
    /// The rear hexside.
    Rear,
}

/// The arc of the hexside in direction `d` for a stack facing `facing`.
pub fn arc(facing: Dir, d: Dir) -> Arc {
    match (d as u8 + 6 - facing as u8) % 6 {
        0 | 1 | 5 => Arc::Front,
        3 => Arc::Rear,
        _ => Arc::Flank,
    }
}

impl Game {
    /// The facing of the units in a hex (they share it), if any unit is there.
    pub fn hex_facing(&self, h: Hex) -> Option<Dir> {
        self.units_at(h).first().map(|&u| self.facing(u))
    }

    /// True when a unit in hex `h` facing `f` has `x` (adjacent) in its front; a chateau
    /// (fortified hex) fronts all around (NB Movement procedures, facing).
    pub(crate) fn fronts(&self, h: Hex, f: Dir, x: Hex) -> bool {
        let Some(d) = self.sc.map.direction(h, x) else {
            return false;
        };
        if self.sup.hex_class(&self.sc, h).fortified {
            return true;
        }
        arc(f, d) == Arc::Front
    }

    /// True when `x` is a front hex of an enemy of `side` (its zone of control).
    pub fn enemy_front(&self, side: u8, x: Hex) -> bool {
        self.sc.map.neighbours(x).iter().any(|&n| {
            let us = self.occupants(n);
            us.first()
                .is_some_and(|&e| self.side_of(e) != side && self.fronts(n, self.facing(e), x))
        })
    }

    /// True when an enemy unit of `side` is adjacent to `x`.
    pub fn enemy_adjacent(&self, side: u8, x: Hex) -> bool {
        self.sc
            .map
            .neighbours(x)
            .iter()
            .any(|&n| self.occupants(n).iter().any(|&e| self.side_of(e) != side))
    }

    /// The distance from `x` to the nearest enemy unit of `side` (u32::MAX when none).
    pub fn enemy_distance(&self, side: u8, x: Hex) -> u32 {
        self.unit_ids()
            .filter(|&u| self.side_of(u) != side)
            .filter_map(|u| self.hex_of(u))
            .map(|h| self.sc.map.distance(h, x))
            .min()
            .unwrap_or(u32::MAX)
    }

    /// The open-ground stacking check of `units` joining the units already in `h` (NB
    /// Stacking and SP limits, brigade scale): infantry with artillery, cavalry with
    /// artillery, never infantry with cavalry; infantry and artillery share the infantry
    /// limit; a unit above its limit stands only alone (NB Napoleon At Leipzig).
    pub fn stacking(&self, h: Hex, joining: &[UnitId]) -> Result<(), Refusal> {
        self.stacking_in(h, joining, 1)
    }

    /// The stacking check of unit `u` joining `h` with `sp` SP (an eliminated unit returning
    /// with what it recovers, NB78).
    pub(crate) fn stacking_sp(&self, h: Hex, u: UnitId, sp: u16) -> Result<(), Refusal> {
        self.stacking_of(h, &[(u, sp)], 1)
    }

    /// The stacking check with the limits divided by `div` (2 for strategic movement: NB
    /// Strategic movement).
    fn stacking_in(&self, h: Hex, joining: &[UnitId], div: u8) -> Result<(), Refusal> {
        let joining: Vec<(UnitId, u16)> = joining.iter().map(|&u| (u, self.sp(u))).collect();
        self.stacking_of(h, &joining, div)
    }

    /// The stacking check of units with the given SP joining the units in `h`, the limits
    /// divided by `div`.
    fn stacking_of(&self, h: Hex, joining: &[(UnitId, u16)], div: u8) -> Result<(), Refusal> {
        let mut all: Vec<(UnitId, u16)> = self
            .units_at(h)
            .into_iter()
            .filter(|u| !joining.iter().any(|j| j.0 == *u))
            .map(|u| (u, self.sp(u)))
            .collect();
        all.extend_from_slice(joining);
        if all.len() <= 1 {
            return Ok(());
        }
        let lim = crate::data::StackLimits {
            infantry: self.sup.stacking.infantry / div,
            cavalry: self.sup.stacking.cavalry / div,
            artillery: self.sup.stacking.artillery / div,
        };
        let why = if div > 1 {
            " (halved in strategic movement)"
        } else {
            ""
        };
        let (mut inf, mut cav, mut art) = (0u16, 0u16, 0u16);
        for &(u, sp) in &all {
            let over = match self.kind(u) {
                UnitType::Infantry => {
                    inf += sp;
                    sp > u16::from(lim.infantry)
                }
                UnitType::Cavalry => {
                    cav += sp;
                    sp > u16::from(lim.cavalry)
                }
                UnitType::Artillery => {
                    art += sp;
                    sp > u16::from(lim.artillery)
                }
            };
            if over {
                return Err(Refusal::new(
                    NIGHT,
                    format!(
                        "{} is stronger than its stacking limit{why} and stands only alone",
                        self.unit_name(u)
                    ),
                ));
            }
        }
        if inf > 0 && cav > 0 {
            return Err(Refusal::new(
                STACK,
                "infantry and cavalry may not stack together",
            ));
        }
        if inf + art > u16::from(lim.infantry.max(lim.artillery)) {
            return Err(Refusal::new(
                STACK,
                format!(
                    "infantry and artillery together are limited to {} SP{why}",
                    lim.infantry.max(lim.artillery)
                ),
            ));
        }
        // horse artillery counts half against the cavalry limit
        if cav > 0 && cav + art.div_ceil(2) > u16::from(lim.cavalry) {
            return Err(Refusal::new(
                STACK,
                format!("cavalry is limited to {} SP a hex{why}", lim.cavalry),
            ));
        }
        Ok(())
    }

    /// A unit's movement allowance in half MP, and with strategic movement (NB Strategic
    /// movement: MA 3-4 become 6, 6-7 become 10).
    pub fn allowance_half(&self, u: UnitId) -> (u16, u16) {
        let ma = u16::from(self.sc.unit(u).movement);
        let strategic = match ma {
            3 | 4 => 6,
            6 | 7 => 10,
            m => m,
        };
        (2 * ma, 2 * strategic)
    }

    /// The terrain cost in half MP of a step of a unit of `kind` from `from` through the
    /// hexside `d`, or why the terrain forbids it. NB Impulse Action sequence: units move by
    /// "the rules of movement", the original game's terrain chart (`naw::step_cost`); NB
    /// Leipzig Terrain Effects: swamp is closed to cavalry and artillery except along a road
    /// or trail, and open to infantry, which pays the data's `infantry_swamp_mp` to enter it
    /// off the road, with any stream or slope hexside cost on top (ruling NB73).
    pub fn terrain_step(&self, kind: UnitType, from: Hex, d: Dir) -> Result<u16, Refusal> {
        let map = &self.sc.map;
        let chart = &self.sc.chart;
        if let Ok(c) = naw::step_cost(map, chart, from, d) {
            return Ok(c);
        }
        let to = map.neighbour(from, d);
        if !map.contains(to) {
            return Err(Refusal::new(MOVE, "units do not move off the map"));
        }
        let side = map.hexside(from, d);
        if chart.unbridged_river(side) {
            return Err(Refusal::new(
                MOVE,
                "a river hexside is crossed only at a bridge (the original game's terrain chart)",
            ));
        }
        if !self.sup.hex_class(&self.sc, to).swamp {
            return Err(Refusal::new(
                MOVE,
                "that terrain may not be entered (the original game's terrain chart)",
            ));
        }
        // NB Leipzig Terrain Effects: along a trail every arm enters a swamp.
        if side.any(chart.trail) {
            return Ok(naw::tables::TRAIL_STEP_HALF);
        }
        if kind != UnitType::Infantry {
            return Err(Refusal::new(
                TERRAIN,
                "swamp is closed to cavalry and artillery except along a road or trail",
            ));
        }
        // NB73: infantry off the road pays the data's cost, plus the hexside's.
        let mut c = 2 * u16::from(self.sup.movement.infantry_swamp_mp);
        if side.any(chart.stream) && !side.any(chart.bridge) {
            c += naw::tables::STREAM_EXTRA_HALF;
        }
        if side.any(chart.slope) && map.is_slope_hex(from) {
            c += naw::tables::SLOPE_EXTRA_HALF;
        }
        Ok(c)
    }

    /// The cost in half MP of a unit's step into an adjacent hex, or why it may not.
    pub fn step_check(&self, u: UnitId, to: Hex) -> Result<u16, Refusal> {
        let s = self.us(u);
        let side = self.side_of(u);
        let Some(act) = &self.st.act else {
            return Err(Refusal::new(MOVE, "no activation is moving"));
        };
        if !s.active || side != act.side {
            return Err(Refusal::new(MOVE, "only activated units move"));
        }
        let Loc::Map(from) = s.loc else {
            return Err(Refusal::new(MOVE, "that unit is not on the map"));
        };
        let Some(d) = self.sc.map.direction(from, to) else {
            return Err(Refusal::new(
                MOVE,
                "units move one hex at a time, to an adjacent hex",
            ));
        };
        if s.halted {
            return Err(Refusal::new(
                MOVE,
                "it entered an enemy front hex and halted for this impulse",
            ));
        }
        let base = self.terrain_step(self.kind(u), from, d)?;
        if self.occupants(to).iter().any(|&e| self.side_of(e) != side) {
            return Err(Refusal::new(
                MOVE,
                "units may not enter an enemy-occupied hex",
            ));
        }
        let adj_to = self.enemy_adjacent(side, to);
        if self.night() && adj_to {
            return Err(Refusal::new(
                NIGHT,
                "on a night turn no unit may move adjacent to an enemy unit",
            ));
        }
        let from_front = self.enemy_front(side, from);
        if from_front && self.enemy_front(side, to) {
            return Err(Refusal::new(
                MOVE,
                "no moving directly from one enemy front hex to another (ZOC to ZOC)",
            ));
        }
        if act.out_of_range && adj_to {
            let new_enemy = self.sc.map.neighbours(to).iter().any(|&n| {
                self.units_at(n).iter().any(|&e| self.side_of(e) != side)
                    && self.sc.map.distance(n, s.start) > 1
            });
            if new_enemy {
                return Err(Refusal::new(
                    "NB Action phase",
                    "a unit activation beyond 3 hexes of its officer may not move adjacent to new enemy units",
                ));
            }
        }
        if let Some(dest) = act.order {
            if self.sc.map.distance(to, dest) > self.sc.map.distance(from, dest) {
                return Err(Refusal::new(
                    "NB50",
                    format!("executing its order, the formation marches toward {dest}"),
                ));
            }
        }
        let mut cost = base;
        // NB Movement procedures: infantry and artillery pay +1 MP to leave an enemy front hex.
        if from_front && self.kind(u) != UnitType::Cavalry {
            cost += 2;
        }
        // NB Tactical movement: at least 1 MP a hex near the enemy (the road rate is lost).
        if s.near || adj_to || self.enemy_adjacent(side, from) {
            cost = cost.max(2);
        }
        let (normal, strategic) = self.allowance_half(u);
        let total = s.mp_half + cost;
        let far = |h: Hex| self.enemy_distance(side, h) >= 4;
        // NB Strategic movement: half the stacking limits for the activation using it
        let strategic_now = act.strategic || total > normal;
        if total <= normal {
            if act.strategic && !(far(from) && far(to)) {
                return Err(Refusal::new(
                    "NB Strategic movement",
                    "this activation moves strategically: its units stay 4 hexes from the enemy",
                ));
            }
        } else if total <= strategic && !act.came_near && far(from) && far(to) {
            // NB Strategic movement: the larger allowance while 4+ hexes from any enemy
        } else {
            return Err(Refusal::new(
                MOVE,
                format!(
                    "not enough movement points ({} of {} spent, this hex costs {})",
                    naw::fmt_half(s.mp_half),
                    naw::fmt_half(normal),
                    naw::fmt_half(cost)
                ),
            ));
        }
        self.stacking_in(to, &[u], if strategic_now { 2 } else { 1 })?;
        Ok(cost)
    }

    /// Which hexes may react to a unit that has just entered `to` (NB Movement procedures:
    /// reaction face changes), with the facings each may take.
    pub(crate) fn reaction_options(&self, mover_side: u8, to: Hex, hex: Hex) -> Vec<Dir> {
        let us = self.units_at(hex);
        let Some(&first) = us.first() else {
            return Vec::new();
        };
        if self.side_of(first) == mover_side || us.iter().any(|&u| self.us(u).reacted) {
            return Vec::new();
        }
        let f = self.facing(first);
        if self.fronts(hex, f, to) {
            return Vec::new();
        }
        let mut v = Vec::new();
        for nf in [dir_of(f as u8 + 1), dir_of(f as u8 + 5)] {
            if !self.fronts(hex, nf, to) {
                continue;
            }
            // not turning a flank or rear to an enemy already adjacent and fronted
            let exposes = self.sc.map.neighbours(hex).iter().any(|&n| {
                n != to
                    && self
                        .units_at(n)
                        .iter()
                        .any(|&e| self.side_of(e) == mover_side)
                    && self.fronts(hex, f, n)
                    && !self.fronts(hex, nf, n)
            });
            if !exposes {
                v.push(nf);
            }
        }
        v
    }

    /// The half MP a leader has left this turn: his allowance less what a commander's move
    /// before spending his command points used (NB77).
    pub(crate) fn leader_mp_left(&self, l: usize) -> u16 {
        (2 * u16::from(self.sup.leaders[l].movement)).saturating_sub(self.st.leaders[l].mp_half)
    }

    fn leader_movers(&self) -> Vec<u8> {
        self.st
            .act
            .as_ref()
            .map(|a| a.movers.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|&l| !self.st.leaders[usize::from(l)].moved)
            .collect()
    }

    /// The hexes a leader (or a march order's rider) reaches from `from` within `max_half`
    /// half MP by the terrain's costs, never entering an enemy-occupied hex (NB62), with
    /// the cost of each, in hex order.
    pub(crate) fn leader_reach(&self, from: Hex, max_half: u16, side: u8) -> Vec<(Hex, u16)> {
        let (_, best) = self.reach_search(from, max_half, side, None);
        // Every hex reached is settled once the search is done; the grid's index order is
        // the hexes' order.
        let hex = &self.steps.hex;
        let mut out: Vec<(Hex, u16)> = best
            .iter()
            .enumerate()
            .filter(|&(_, &c)| c != u16::MAX)
            .map(|(i, &c)| (hex[i], c))
            .collect();
        if self.occ.index(from).is_none() {
            let k = out.partition_point(|&(h, _)| h < from);
            out.insert(k, (from, 0));
        }
        out
    }

    /// The cost in half MP of the cheapest leader's path from `from` to `to` within
    /// `max_half` (the reach of [`Game::leader_reach`], NB62), `None` beyond it. Stops as
    /// soon as `to` is settled.
    pub(crate) fn leader_cost(&self, from: Hex, to: Hex, max_half: u16, side: u8) -> Option<u16> {
        self.reach_search(from, max_half, side, Some(to)).0
    }

    /// True when a unit of an enemy of `side` is in the hex of dense index `i` (NB62: a
    /// leader never enters one).
    fn enemy_at_index(&self, i: usize, side: u8) -> bool {
        self.occ.cells()[i].iter().any(|&u| self.side_of(u) != side)
    }

    /// The search behind [`Game::leader_reach`] and [`Game::leader_cost`]: a Dijkstra by
    /// bucket queue over the game's step table. Returns the target's cost, if a `target` is
    /// given and reached (the search stops when it is settled), and the cheapest cost found
    /// per hex index (`u16::MAX`: not reached; the start is not in it when off the grid).
    fn reach_search(
        &self,
        from: Hex,
        max_half: u16,
        side: u8,
        target: Option<Hex>,
    ) -> (Option<u16>, Vec<u16>) {
        let steps = &*self.steps;
        let n = steps.hex.len();
        let mut best = vec![u16::MAX; n];
        let mut buckets: Vec<Vec<u32>> = vec![Vec::new(); usize::from(max_half) + 1];
        // Relaxes the step into hex index `ni` at cost `nc`.
        let relax = |best: &mut [u16], buckets: &mut [Vec<u32>], ni: usize, nc: u16| {
            if nc > max_half || self.enemy_at_index(ni, side) {
                return;
            }
            if nc < best[ni] {
                best[ni] = nc;
                buckets[usize::from(nc)].push(ni as u32);
            }
        };
        if target == Some(from) {
            return (Some(0), best);
        }
        match self.occ.index(from) {
            Some(fi) => {
                best[fi] = 0;
                buckets[0].push(fi as u32);
            }
            None => {
                // Off the grid: its steps by the terrain directly.
                for d in Dir::ALL {
                    let Ok(sc) = naw::step_cost(&self.sc.map, &self.sc.chart, from, d) else {
                        continue;
                    };
                    if let Some(ni) = self.occ.index(self.sc.map.neighbour(from, d)) {
                        relax(&mut best, &mut buckets, ni, sc);
                    }
                }
            }
        }
        for c in 0..=max_half {
            while let Some(i) = buckets[usize::from(c)].pop() {
                let i = i as usize;
                if best[i] < c {
                    continue;
                }
                if target == Some(steps.hex[i]) {
                    return (Some(c), best);
                }
                for (k, &ni) in steps.nbr[i].iter().enumerate() {
                    if ni != NO_STEP {
                        relax(&mut best, &mut buckets, ni as usize, c + steps.cost[i][k]);
                    }
                }
            }
        }
        (None, best)
    }

    fn check_face(&self, hex: Hex, dir: Dir) -> Result<(), Refusal> {
        let us = self.units_at(hex);
        let side = self.st.acting;
        if us.is_empty() {
            return Err(Refusal::new(MOVE, "no unit there"));
        }
        if us
            .iter()
            .any(|&u| !self.us(u).active || self.side_of(u) != side)
        {
            return Err(Refusal::new(
                MOVE,
                "units in a hex share one facing: all of them must be activated to turn",
            ));
        }
        if us.iter().any(|&u| self.us(u).faced) {
            return Err(Refusal::new(
                MOVE,
                "a hex turns once after its last step (NB63)",
            ));
        }
        let f = self.facing(us[0]);
        if f == dir {
            return Err(Refusal::new(MOVE, "it already faces that hexside"));
        }
        if let Some(z) = us
            .iter()
            .map(|&u| self.us(u).zoc_dir)
            .find(|&z| z != NO_DIR)
        {
            let diff = (dir as u8 + 6 - z) % 6;
            if !matches!(diff, 0 | 1 | 5) {
                return Err(Refusal::new(
                    MOVE,
                    "after entering an enemy front hex a unit turns at most one hexspine",
                ));
            }
        }
        Ok(())
    }

    pub(crate) fn check_movement(&self, a: Action) -> Result<(), Refusal> {
        if self.st.step == Step::Reaction {
            let Some(act) = &self.st.act else {
                return Err(Refusal::new(MOVE, "no reaction pending"));
            };
            let Some(&pending) = act.reactions.first() else {
                return Err(Refusal::new(MOVE, "no reaction pending"));
            };
            let mover_hex = act.mover.and_then(|m| self.hex_of(m)).unwrap_or_default();
            return match a {
                Action::Hold { hex } if hex == pending => Ok(()),
                Action::React { hex, dir } if hex == pending => {
                    if self.reaction_options(act.side, mover_hex, hex).contains(&dir) {
                        Ok(())
                    } else {
                        Err(Refusal::new(
                            MOVE,
                            "a reaction turns one hexspine to front the unit that moved adjacent, \
                             turning no flank or rear to an adjacent enemy",
                        ))
                    }
                }
                _ => Err(Refusal::new(
                    MOVE,
                    format!("the units in {pending} may react (react {pending} DIR) or hold (hold {pending})"),
                )),
            };
        }
        match a {
            Action::End => Ok(()),
            Action::Move { unit, to } => {
                if usize::from(unit.0) >= self.st.units.len() {
                    return Err(Refusal::new("action", "no such unit"));
                }
                self.step_check(unit, to).map(|_| ())
            }
            Action::Face { hex, dir } => self.check_face(hex, dir),
            Action::Lead { leader, to } => {
                let l = usize::from(leader.0);
                if l >= self.sup.leaders.len() {
                    return Err(Refusal::new("action", "no such leader"));
                }
                if !self.leader_movers().contains(&leader.0) {
                    return Err(Refusal::new(
                        "NB Action phase",
                        "a leader moves with an activation he commands, a commander once a turn",
                    ));
                }
                let Some(from) = self.lhex(l) else {
                    return Err(Refusal::new(MOVE, "that leader is not on the map"));
                };
                if from == to {
                    return Err(Refusal::new(MOVE, "he is already there"));
                }
                // NB Action phase: a commander accompanies one activated unit (NB77).
                if self.sup.leaders[l].rank == crate::data::Rank::Army
                    && !self.occupants(to).iter().any(|&u| self.us(u).active)
                {
                    return Err(Refusal::new(
                        "NB Action phase",
                        "a commander moves in an activation by accompanying one of its units: \
                         to a hex holding an activated unit",
                    ));
                }
                let max = self.leader_mp_left(l);
                if self.leader_cost(from, to, max, self.st.acting).is_none() {
                    return Err(Refusal::new(
                        MOVE,
                        format!(
                            "{to} is beyond the {} movement points he has left",
                            naw::fmt_half(max)
                        ),
                    ));
                }
                Ok(())
            }
            _ => Err(Refusal::new(
                MOVE,
                "in the movement phase: move U HEX, face HEX DIR, lead L HEX or end",
            )),
        }
    }

    /// Candidate actions (`out`, to be checked) and actions known legal (`sure`: leader
    /// moves, from one reach search per leader).
    pub(crate) fn movement_candidates(&self, out: &mut Vec<Action>, sure: &mut Vec<Action>) {
        if self.st.step == Step::Reaction {
            if let Some(act) = &self.st.act {
                if let Some(&h) = act.reactions.first() {
                    out.push(Action::Hold { hex: h });
                    for d in Dir::ALL {
                        out.push(Action::React { hex: h, dir: d });
                    }
                }
            }
            return;
        }
        out.push(Action::End);
        let mut hexes = Vec::new();
        for u in self.unit_ids() {
            let s = self.us(u);
            if !s.active {
                continue;
            }
            if let Loc::Map(h) = s.loc {
                for n in self.sc.map.neighbours(h) {
                    out.push(Action::Move { unit: u, to: n });
                }
                if !hexes.contains(&h) {
                    hexes.push(h);
                }
            }
        }
        for h in hexes {
            for d in Dir::ALL {
                out.push(Action::Face { hex: h, dir: d });
            }
        }
        for l in self.leader_movers() {
            let li = usize::from(l);
            if let Some(from) = self.lhex(li) {
                let max = self.leader_mp_left(li);
                // NB77: a commander goes with an activated unit
                let commander = self.sup.leaders[li].rank == crate::data::Rank::Army;
                for (h, _) in self.leader_reach(from, max, self.st.acting) {
                    if h != from
                        && (!commander || self.occupants(h).iter().any(|&u| self.us(u).active))
                    {
                        sure.push(Action::Lead {
                            leader: LeaderId(l),
                            to: h,
                        });
                    }
                }
            }
        }
    }

    pub(crate) fn apply_movement(&mut self, a: Action) {
        match a {
            Action::End => {
                self.st.step = if self.night() {
                    // NB Napoleon At Leipzig: no combat of any kind at night.
                    self.end_activation();
                    return;
                } else {
                    Step::Melee
                };
            }
            Action::Move { unit, to } => {
                let Ok(cost) = self.step_check(unit, to) else {
                    return;
                };
                let side = self.side_of(unit);
                let from = self.hex_of(unit).unwrap_or_default();
                let d = self.sc.map.direction(from, to).unwrap_or(Dir::E);
                let far =
                    self.enemy_distance(side, from) >= 4 && self.enemy_distance(side, to) >= 4;
                let (normal, _) = self.allowance_half(unit);
                let adj = self.enemy_adjacent(side, to);
                let joined = self.units_at(to).first().map(|&f| self.us(f).facing);
                let entering_front = self.enemy_front(side, to);
                self.set_loc(unit, Loc::Map(to));
                {
                    let s = self.us_mut(unit);
                    s.mp_half += cost;
                    s.facing = joined.unwrap_or(d as u8);
                    s.faced = false;
                    s.near |= adj;
                }
                if let Some(act) = self.st.act.as_mut() {
                    if !far {
                        act.came_near = true;
                    }
                    let mp = self.st.units[usize::from(unit.0)].mp_half;
                    if mp > normal {
                        act.strategic = true;
                    }
                }
                self.events.push(Event::Moved {
                    unit,
                    from,
                    to,
                    cost_half: cost,
                });
                // leaders alone in a hex the enemy enters are displaced (NB56)
                self.displace_leaders(to, side);
                if entering_front {
                    self.halt(unit, to, d);
                }
                // NB Movement procedures: reaction face changes by the other side.
                let reactions: Vec<Hex> = self
                    .sc
                    .map
                    .neighbours(to)
                    .into_iter()
                    .filter(|&n| !self.reaction_options(side, to, n).is_empty())
                    .collect();
                if !reactions.is_empty() {
                    if let Some(act) = self.st.act.as_mut() {
                        act.mover = Some(unit);
                        act.reactions = reactions;
                    }
                    self.st.step = Step::Reaction;
                }
            }
            Action::Face { hex, dir } => {
                for u in self.units_at(hex) {
                    let s = self.us_mut(u);
                    s.facing = dir as u8;
                    s.faced = true;
                }
                self.events.push(Event::Faced {
                    hex,
                    dir: dir.name(),
                });
            }
            Action::Lead { leader, to } => {
                let l = usize::from(leader.0);
                let from = self.lhex(l).unwrap_or_default();
                let cost = self
                    .leader_cost(from, to, self.leader_mp_left(l), self.st.acting)
                    .unwrap_or(0);
                self.st.leaders[l].loc = crate::game::LeaderLoc::Map(to);
                self.st.leaders[l].moved = true;
                self.st.leaders[l].mp_half += cost;
                self.events.push(Event::LeaderMoved { leader, from, to });
            }
            Action::React { hex, dir } => {
                for u in self.units_at(hex) {
                    let s = self.us_mut(u);
                    s.facing = dir as u8;
                    s.reacted = true;
                }
                self.events.push(Event::Reacted {
                    hex,
                    dir: dir.name(),
                });
                self.next_reaction();
            }
            Action::Hold { .. } => self.next_reaction(),
            _ => {}
        }
    }

    fn halt(&mut self, unit: UnitId, to: Hex, d: Dir) {
        let s = self.us_mut(unit);
        if !s.halted {
            s.halted = true;
            s.zoc_dir = d as u8;
            self.events.push(Event::Halted { unit, hex: to });
        }
    }

    fn next_reaction(&mut self) {
        let (mover, side) = match self.st.act.as_mut() {
            Some(act) => {
                if !act.reactions.is_empty() {
                    act.reactions.remove(0);
                }
                (act.mover, act.side)
            }
            None => (None, 0),
        };
        let Some(m) = mover else {
            self.st.step = Step::Movement;
            return;
        };
        let to = self.hex_of(m).unwrap_or_default();
        // later hexes may have lost their chance (none is removed: a reaction changes only
        // its own hex), so just drop those no longer eligible
        let still: Vec<Hex> = self
            .st
            .act
            .as_ref()
            .map(|a| a.reactions.clone())
            .unwrap_or_default()
            .into_iter()
            .filter(|&h| !self.reaction_options(side, to, h).is_empty())
            .collect();
        if let Some(act) = self.st.act.as_mut() {
            act.reactions = still.clone();
        }
        if still.is_empty() {
            // NB Movement procedures: after a reaction a mover in an enemy front hex halts.
            if self.enemy_front(side, to) {
                let from_dir = self.us(m).facing;
                self.halt(m, to, dir_of(from_dir));
            }
            if let Some(act) = self.st.act.as_mut() {
                act.mover = None;
            }
            self.st.step = Step::Movement;
        }
    }

    /// NB56: leaders left alone in a hex the enemy enters go to the nearest hex holding
    /// units of their side (or are lost when there is none).
    pub(crate) fn displace_leaders(&mut self, h: Hex, enemy_side: u8) {
        for l in self.leaders_at(h) {
            let li = usize::from(l.0);
            let Some(side) = self.lside(li) else { continue };
            if side == enemy_side {
                continue;
            }
            if self.units_at(h).iter().any(|&u| self.side_of(u) == side) {
                continue;
            }
            let target = self
                .unit_ids()
                .filter(|&u| self.side_of(u) == side)
                .filter_map(|u| self.hex_of(u))
                .min_by_key(|&x| (self.sc.map.distance(x, h), x));
            match target {
                Some(t) => {
                    self.st.leaders[li].loc = crate::game::LeaderLoc::Map(t);
                    self.events
                        .push(Event::LeaderDisplaced { leader: l, to: t });
                }
                None => {
                    self.st.leaders[li].loc = crate::game::LeaderLoc::Casualty;
                    self.events.push(Event::LeaderCasualty { leader: l });
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::data::Supplement;
    use crate::game::Game;
    use engine::Rules;
    use hexmap::{Dir, Hex};

    /// The leaders' reach as first written (a heap over `naw::step_cost`, the enemy hexes
    /// in a list, the result sorted): the reference the step-table search must match.
    fn reference_reach(g: &Game, from: Hex, max_half: u16, side: u8) -> Vec<(Hex, u16)> {
        let enemy: Vec<Hex> = g
            .unit_ids()
            .filter(|&u| g.side_of(u) != side)
            .filter_map(|u| g.hex_of(u))
            .collect();
        let mut best = g.sc.map.grid(u16::MAX);
        let mut heap = std::collections::BinaryHeap::new();
        if let Some(c) = best.get_mut(from) {
            *c = 0;
        }
        heap.push(std::cmp::Reverse((0u16, from)));
        let mut out = Vec::new();
        while let Some(std::cmp::Reverse((c, h))) = heap.pop() {
            if best.get(h).is_some_and(|&b| b < c) {
                continue;
            }
            out.push((h, c));
            for d in Dir::ALL {
                let Ok(sc) = naw::step_cost(&g.sc.map, &g.sc.chart, h, d) else {
                    continue;
                };
                let n = g.sc.map.neighbour(h, d);
                if enemy.contains(&n) {
                    continue;
                }
                let nc = c + sc;
                if nc > max_half {
                    continue;
                }
                if let Some(b) = best.get_mut(n) {
                    if nc < *b {
                        *b = nc;
                        heap.push(std::cmp::Reverse((nc, n)));
                    }
                }
            }
        }
        out.sort();
        out
    }

    /// NB62 (leaders never enter an enemy-occupied hex) and the march order's 20 MP: the
    /// step-table reach and its early-stopping cost agree with the reference from every
    /// leader's hex, for both sides, along a played First Day.
    #[test]
    fn leader_reach_matches_the_reference_search() {
        let sc = scenarios::load("bon-first-day").expect("shipped scenario");
        let mut g = Game::new(sc, Supplement::bon());
        let mut seed = 7u64;
        let mut checked = 0;
        for step in 0..400 {
            if step % 40 == 0 {
                for l in 0..g.st.leaders.len() {
                    let Some(from) = g.lhex(l) else { continue };
                    for side in 0..2u8 {
                        for max in [6u16, 40] {
                            let want = reference_reach(&g, from, max, side);
                            assert_eq!(g.leader_reach(from, max, side), want);
                            for &(to, c) in want.iter().step_by(7) {
                                assert_eq!(g.leader_cost(from, to, max, side), Some(c));
                            }
                            let far = Hex::new(from.x + 30, from.y);
                            let far_cost = want.iter().find(|&&(h, _)| h == far).map(|p| p.1);
                            assert_eq!(g.leader_cost(from, far, max, side), far_cost);
                            checked += 1;
                        }
                    }
                }
            }
            let mut acts = Vec::new();
            g.legal_actions(&mut acts);
            if acts.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            g.apply_unchecked(acts[(seed >> 33) as usize % acts.len()]);
        }
        assert!(checked > 100, "only {checked} searches compared");
    }
}
