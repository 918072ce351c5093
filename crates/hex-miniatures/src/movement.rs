//! The movement stage ([8]): a unit's whole move to a hex it can reach ([8.2], [8.3], [8.4],
//! [18]; HM36: the rules choose its path: the cheapest, then the fewest streams, then the
//! fewest friends passed while disordered), a general's ride ([2.4.6.3]), turning (HM26) and formation changes ([8.1],
//! [9.1.7]); reinforcements enter by their edge of the table ([3.2]).

use crate::action::{Action, Formation, GeneralId, UnitId};
use crate::army::{Arm, Order};
use crate::event::{Cause, Event};
use crate::game::{Game, Loc};
use crate::setup::{Standing, Start};
use crate::terrain::{Movement, TerrainChart};
use engine::Refusal;
use hexmap::{Dir, Hex, HexGrid};
use std::cmp::Reverse;
use std::collections::BinaryHeap;

/// The cost of a path: half hexes, streams crossed, friends passed while disordered.
type Cost = (u32, u8, u8);

/// Where a unit can go this movement stage, with the best path to each hex.
pub(crate) struct Reach {
    best: HexGrid<Option<Cost>>,
    prev: HexGrid<Option<Hex>>,
    /// Hexes it may end its move in.
    pub dest: Vec<Hex>,
    pub start: Option<Hex>,
}

impl Reach {
    /// The path from the start (excluded) to `to` (included).
    pub fn path(&self, to: Hex) -> Vec<Hex> {
        let mut p = vec![to];
        let mut h = to;
        while let Some(Some(q)) = self.prev.get(h) {
            if Some(*q) == self.start && self.start.is_some() {
                break;
            }
            p.push(*q);
            h = *q;
            if p.len() > 400 {
                break;
            }
        }
        p.reverse();
        p
    }

    /// Whether the path to a hex crosses a stream.
    pub fn crosses_stream(&self, to: Hex) -> bool {
        self.best
            .get(to)
            .copied()
            .flatten()
            .is_some_and(|c| c.1 > 0)
    }
}

/// Why a unit may not move at all now, or `None`.
pub(crate) fn unable(g: &Game, u: UnitId) -> Option<Refusal> {
    let side = g.phasing().0;
    let s = g.us(u);
    if g.side_of(u) != side {
        return Some(Refusal::new(
            "8.3.1",
            "it is not that unit's movement stage",
        ));
    }
    if s.moved {
        return Some(Refusal::new(
            "8.3.7",
            "the unit has already moved (or changed formation) this stage",
        ));
    }
    match s.loc {
        Loc::Gone => return Some(Refusal::new("9.8", "the unit is out of the battle")),
        Loc::Waiting => {
            let ok = match &g.setup().units[usize::from(u.0)].start {
                Start::Arrives { minute, .. } => *minute <= g.minute(),
                Start::Hex(_) => false,
            };
            if !ok {
                return Some(Refusal::new("3.2", "the unit has not arrived yet"));
            }
        }
        Loc::Map(h) => {
            if g.enemy_zoc(side, h) {
                return Some(Refusal::new(
                    "8.3.3",
                    "a unit may not leave an enemy zone of control in the movement stage",
                ));
            }
        }
    }
    match (s.order, s.formation) {
        (Order::Routed | Order::Retiring, _) => Some(Refusal::new(
            "6.1",
            "a routed or retiring unit withdraws; it does not move at will until rallied",
        )),
        (_, Formation::Square) => Some(Refusal::new(
            "8.1.1",
            "infantry in square cannot move (form line or column first)",
        )),
        (_, Formation::Unlimbered) => Some(Refusal::new(
            "9.1.7",
            "an unlimbered battery cannot move (limber it first)",
        )),
        _ => None,
    }
}

/// The step cost in half hexes from `a` into `b` ([3.1.6], [8.4], [18]); `None` if the unit
/// may not enter it.
pub(crate) fn step_cost(g: &Game, arm: Arm, a: Option<Hex>, b: Hex) -> Option<u32> {
    let chart: &TerrainChart = g.chart();
    let kind = g.hex_kind(b);
    if !chart.may_occupy(kind, arm) {
        return None;
    }
    let t = chart.hex(kind)?;
    let mut extra = 0;
    if let Some(a) = a {
        if g.barred(a, b) {
            return None;
        }
        let side = g.side_between(a, b);
        if side.any(g.fx.road) {
            return Some(1);
        }
        if side.any(g.fx.lane) {
            return Some(2);
        }
        // [8.4.6]: out of a slope hex through a slope hexside into a hex without the slope
        // symbol, one movement point (a hex's two halves) more; none the other way (HM51)
        if side.any(g.fx.slope) && g.slope_hex(a) && !g.slope_hex(b) {
            extra = 2;
        }
    }
    match t.movement {
        Movement::Prohibited => None,
        Movement::Normal => Some(2 + extra),
        Movement::Halved => Some(4 + extra),
    }
}

/// A unit's reach this movement stage (empty when it may not move).
pub(crate) fn reach(g: &Game, u: UnitId) -> Reach {
    let map = &g.setup().map;
    let mut r = Reach {
        best: map.grid(None),
        prev: map.grid(None),
        dest: Vec::new(),
        start: g.hex_of(u),
    };
    if unable(g, u).is_some() {
        return r;
    }
    let side = g.side_of(u);
    let arm = g.arm_of(u);
    let s = g.us(u);
    let extra = u8::from(s.formation == Formation::Column && arm == Arm::Infantry);
    let allowance = g.line(u).movement + extra;
    let disordered = s.order != Order::Ordered;
    let night = g.night();
    let mut heap: BinaryHeap<Reverse<(Cost, Hex)>> = BinaryHeap::new();
    let enter = |r: &mut Reach, heap: &mut BinaryHeap<_>, from: Option<Hex>, to: Hex, c: Cost| {
        let better = match r.best.get(to) {
            Some(Some(b)) => c < *b,
            Some(None) => true,
            None => false,
        };
        if better {
            if let Some(x) = r.best.get_mut(to) {
                *x = Some(c);
            }
            if let Some(x) = r.prev.get_mut(to) {
                *x = from;
            }
            heap.push(Reverse((c, to)));
        }
    };
    let passable =
        |h: Hex| map.contains(h) && !g.enemy_in(side, h) && !(night && g.enemy_zoc(side, h));
    match (r.start, &g.setup().units[usize::from(u.0)].start) {
        (Some(h), _) => {
            if let Some(x) = r.best.get_mut(h) {
                *x = Some((0, 0, 0));
            }
            heap.push(Reverse(((0, 0, 0), h)));
        }
        (None, Start::Arrives { entry, .. }) => {
            for &e in entry {
                if passable(e) && step_cost(g, arm, None, e).is_some() {
                    let f = u8::from(disordered && !g.units_at(e).is_empty());
                    let c = step_cost(g, arm, None, e).unwrap_or(2);
                    enter(&mut r, &mut heap, None, e, (c, 0, f));
                }
            }
        }
        _ => {}
    }
    while let Some(Reverse((c, h))) = heap.pop() {
        if r.best.get(h).copied().flatten() != Some(c) {
            continue;
        }
        // [4]: a unit stops when it enters an enemy zone of control
        if Some(h) != r.start && g.enemy_zoc(side, h) {
            continue;
        }
        for n in map.neighbours(h) {
            if !passable(n) {
                continue;
            }
            let Some(cost) = step_cost(g, arm, Some(h), n) else {
                continue;
            };
            let first = Some(h) == r.start;
            let spent = if first { 0 } else { c.0 };
            if !TerrainChart::may_step(allowance, spent, cost) {
                continue;
            }
            let sides = g.side_between(h, n);
            let stream = u8::from(sides.any(g.fx.stream) && !sides.any(g.fx.bridge));
            let f = u8::from(disordered && !g.units_at(n).is_empty());
            enter(
                &mut r,
                &mut heap,
                Some(h),
                n,
                (spent + cost, c.1 + stream, c.2 + f),
            );
        }
    }
    let standing = g.standing_of(u);
    for h in map.hexes() {
        if Some(h) == r.start || r.best.get(h).copied().flatten().is_none() {
            continue;
        }
        if !g.may_stand(u, h, disordered) {
            continue;
        }
        // HM29: what the formation's orders allow
        let ok = match standing {
            Standing::Free => true,
            Standing::Hold => !g.enemy_zoc(side, h),
            Standing::Advance(x) => r
                .start
                .is_none_or(|s| map.distance(h, x) <= map.distance(s, x)),
        };
        if ok {
            r.dest.push(h);
        }
    }
    r
}

/// A general's ride: up to his movement in hexes, never into an enemy's hex, a lake or over
/// a river without a bridge ([2.4.6.3]; HM28).
pub(crate) fn ride_reach(g: &Game, gen: GeneralId) -> Vec<Hex> {
    ride_distances(g, gen).into_iter().map(|(h, _)| h).collect()
}

/// The hexes a general may ride to now, each with its distance in hexes (an entry hex counts
/// one) ([2.4.6.3]; HM28).
pub(crate) fn ride_distances(g: &Game, gen: GeneralId) -> Vec<(Hex, u8)> {
    let i = usize::from(gen.0);
    let side = g.setup().generals[i].side;
    if side != g.phasing().0 || g.st.generals[i].rode {
        return Vec::new();
    }
    let map = &g.setup().map;
    let ok = |h: Hex| {
        map.contains(h) && !g.enemy_in(side, h) && g.chart().may_occupy(g.hex_kind(h), Arm::Command)
    };
    let mut dist = map.grid(u8::MAX);
    let mut frontier = Vec::new();
    match g.st.generals[i].loc {
        Loc::Map(h) => {
            if let Some(d) = dist.get_mut(h) {
                *d = 0;
            }
            frontier.push(h);
        }
        Loc::Waiting => {
            if let Start::Arrives { minute, entry } = &g.setup().generals[i].start {
                if *minute <= g.minute() {
                    for &e in entry {
                        if ok(e) {
                            if let Some(d) = dist.get_mut(e) {
                                *d = 1;
                            }
                            frontier.push(e);
                        }
                    }
                }
            }
        }
        Loc::Gone => return Vec::new(),
    }
    let range = g.tables().command_movement;
    let mut k = if g.hex_of_general(gen).is_some() {
        0
    } else {
        1
    };
    while k < range && !frontier.is_empty() {
        let mut next = Vec::new();
        for h in frontier {
            for n in map.neighbours(h) {
                if ok(n) && !g.barred(h, n) && dist.get(n).is_some_and(|&d| d == u8::MAX) {
                    if let Some(d) = dist.get_mut(n) {
                        *d = k + 1;
                    }
                    next.push(n);
                }
            }
        }
        frontier = next;
        k += 1;
    }
    let here = g.hex_of_general(gen);
    map.hexes()
        .filter_map(|h| match dist.get(h) {
            Some(&d) if d != u8::MAX && Some(h) != here => Some((h, d)),
            _ => None,
        })
        .collect()
}

/// The formations a unit may change to ([8.1], [9.1.7]).
pub(crate) fn formations(g: &Game, u: UnitId) -> Vec<Formation> {
    let s = g.us(u);
    if g.side_of(u) != g.phasing().0
        || s.moved
        || !matches!(s.loc, Loc::Map(_))
        || matches!(s.order, Order::Routed | Order::Retiring)
    {
        return Vec::new();
    }
    let all: &[Formation] = match g.arm_of(u) {
        Arm::Infantry => &[Formation::Line, Formation::Column, Formation::Square],
        Arm::Artillery => &[Formation::Limbered, Formation::Unlimbered],
        _ => &[],
    };
    all.iter().copied().filter(|&f| f != s.formation).collect()
}

/// Whether a unit may turn now (HM26).
pub(crate) fn may_face(g: &Game, u: UnitId) -> bool {
    let s = g.us(u);
    g.side_of(u) == g.phasing().0
        && !s.faced
        && matches!(s.loc, Loc::Map(_))
        && !matches!(s.order, Order::Routed | Order::Retiring)
        && s.formation != Formation::Square
}

pub(crate) fn movement_actions(g: &Game, out: &mut Vec<Action>) {
    for i in 0..g.unit_count() {
        let u = UnitId(i as u8);
        if g.side_of(u) != g.phasing().0 {
            continue;
        }
        for to in reach(g, u).dest {
            out.push(Action::Move { unit: u, to });
        }
        if may_face(g, u) {
            let f = g.us(u).facing;
            for d in Dir::ALL {
                if d as u8 != f {
                    out.push(Action::Face { unit: u, dir: d });
                }
            }
        }
        for formation in formations(g, u) {
            out.push(Action::Form { unit: u, formation });
        }
    }
    for i in 0..g.general_count() {
        let gen = GeneralId(i as u8);
        for to in ride_reach(g, gen) {
            out.push(Action::Ride { general: gen, to });
        }
    }
}

pub(crate) fn check_movement(g: &Game, a: Action) -> Result<(), Refusal> {
    let bad_unit = |u: UnitId| usize::from(u.0) >= g.unit_count();
    match a {
        Action::Move { unit, to } => {
            if bad_unit(unit) {
                return Err(Refusal::new("action", "no such unit"));
            }
            if let Some(r) = unable(g, unit) {
                return Err(r);
            }
            if !g.setup().map.contains(to) {
                return Err(Refusal::new("8.2", format!("{to} is off the table")));
            }
            if reach(g, unit).dest.contains(&to) {
                Ok(())
            } else if g.enemy_in(g.side_of(unit), to) {
                Err(Refusal::new(
                    "8.3.2",
                    "a unit may never enter an enemy's hex",
                ))
            } else if !g.chart().may_occupy(g.hex_kind(to), g.arm_of(unit)) {
                Err(Refusal::new(
                    "18",
                    format!("a {} may not enter {}", g.kind_of(unit), g.hex_kind(to)),
                ))
            } else if !g.may_stand(unit, to, g.us(unit).order != Order::Ordered) {
                Err(Refusal::new(
                    "8.5.2",
                    "one battalion or regiment and one battery at most to a hex",
                ))
            } else if g.standing_of(unit) != Standing::Free && reach_ignoring_orders(g, unit, to) {
                Err(Refusal::new(
                    "7.1",
                    "the formation's orders do not allow that move (HM29)",
                ))
            } else {
                Err(Refusal::new(
                    "8.3.5",
                    format!("{to} is beyond the unit's movement allowance (or past an enemy zone of control, [4])"),
                ))
            }
        }
        Action::Ride { general, to } => {
            if usize::from(general.0) >= g.general_count() {
                return Err(Refusal::new("action", "no such general"));
            }
            if g.setup().generals[usize::from(general.0)].side != g.phasing().0 {
                return Err(Refusal::new(
                    "8.3.1",
                    "it is not that general's movement stage",
                ));
            }
            if g.st.generals[usize::from(general.0)].rode {
                return Err(Refusal::new(
                    "8.3.7",
                    "the general has already ridden this stage",
                ));
            }
            if ride_reach(g, general).contains(&to) {
                Ok(())
            } else {
                Err(Refusal::new(
                    "2.4.6.3",
                    format!("{to} is not within a general's 5 hexes by open ground"),
                ))
            }
        }
        Action::Face { unit, dir } => {
            if bad_unit(unit) {
                return Err(Refusal::new("action", "no such unit"));
            }
            if !may_face(g, unit) {
                return Err(Refusal::new(
                    "HM26",
                    "a unit of the phasing side turns once a stage; routed and retiring units and squares do not turn",
                ));
            }
            if g.us(unit).facing == dir as u8 {
                return Err(Refusal::new("HM26", "the unit already faces that way"));
            }
            Ok(())
        }
        Action::Form { unit, formation } => {
            if bad_unit(unit) {
                return Err(Refusal::new("action", "no such unit"));
            }
            if formations(g, unit).contains(&formation) {
                Ok(())
            } else if g.us(unit).moved {
                Err(Refusal::new(
                    "8.1",
                    "a formation change takes the unit's move (HM25): it has already moved",
                ))
            } else {
                Err(Refusal::new(
                    "8.1",
                    format!("a {} cannot take that formation now", g.kind_of(unit)),
                ))
            }
        }
        _ => Ok(()),
    }
}

/// Whether the hex would be reachable were it not for the orders.
fn reach_ignoring_orders(g: &Game, u: UnitId, to: Hex) -> bool {
    let mut c = g.clone();
    if let Some(f) = g.setup().units[usize::from(u.0)].command {
        c.st.orders[f] = Standing::Free;
    }
    reach(&c, u).dest.contains(&to)
}

pub(crate) fn apply_movement(g: &mut Game, a: Action) {
    match a {
        Action::Move { unit, to } => {
            let r = reach(g, unit);
            let path = r.path(to);
            let side = g.side_of(unit);
            let from = g.hex_of(unit);
            let disordered = g.us(unit).order != Order::Ordered;
            for &h in &path {
                g.capture_at(side, h);
                // [6.1], [8.6.2.1]: disrupted troops passing through friends, or stopping
                // beside them, disrupt them
                if disordered {
                    let friends: Vec<UnitId> = g.units_at(h).to_vec();
                    for f in friends {
                        if g.us(f).order == Order::Ordered {
                            g.set_order(f, Order::Disordered, Cause::PassedThrough);
                        }
                    }
                }
            }
            if from.is_none() {
                // [3.2]: reinforcements join the army's total
                let b = u32::from(g.us(unit).bases);
                g.st.total[usize::from(side)] += b;
            }
            g.set_loc(unit, Loc::Map(to));
            g.us_mut(unit).moved = true;
            g.events.push(Event::Moved { unit, from, to });
            if r.crosses_stream(to) && g.us(unit).order == Order::Ordered {
                // [3.1.3.4], HM16: a stream disrupts the troops crossing it
                g.set_order(unit, Order::Disordered, Cause::Stream);
            }
        }
        Action::Ride { general, to } => {
            let i = usize::from(general.0);
            let from = g.hex_of_general(general);
            g.st.generals[i].loc = Loc::Map(to);
            g.st.generals[i].rode = true;
            g.events.push(Event::Rode { general, from, to });
        }
        Action::Face { unit, dir } => {
            g.us_mut(unit).facing = dir as u8;
            g.us_mut(unit).faced = true;
            g.events.push(Event::Faced {
                unit,
                dir: dir.name(),
            });
        }
        Action::Form { unit, formation } => {
            g.us_mut(unit).formation = formation;
            g.us_mut(unit).moved = true;
            g.events.push(Event::Formed { unit, formation });
        }
        _ => {}
    }
}

impl Game {
    /// The hex of a general on the table.
    pub fn hex_of_general(&self, g: GeneralId) -> Option<Hex> {
        self.general_hex(usize::from(g.0))
    }

    /// The hexes a unit may move to now (for the board and the computer players).
    pub fn destinations(&self, u: UnitId) -> Vec<Hex> {
        if usize::from(u.0) >= self.unit_count() {
            return Vec::new();
        }
        reach(self, u).dest
    }

    /// The hexes a unit may move to now, as [`Game::destinations`] (same order), each with its
    /// cost in half hexes and the path the rules take to it (HM36; for the board).
    pub fn reach_of(&self, u: UnitId) -> Vec<Reachable> {
        if usize::from(u.0) >= self.unit_count() {
            return Vec::new();
        }
        let r = reach(self, u);
        r.dest
            .iter()
            .map(|&h| Reachable {
                hex: h,
                cost: r.best.get(h).copied().flatten().map_or(0, |c| c.0),
                path: r.path(h),
            })
            .collect()
    }

    /// The hexes a general may ride to now, each with its distance in hexes ([2.4.6.3];
    /// HM28; for the board). Empty when he may not ride.
    pub fn ride_reach(&self, g: GeneralId) -> Vec<(Hex, u8)> {
        if usize::from(g.0) >= self.general_count() {
            return Vec::new();
        }
        ride_distances(self, g)
    }
}

/// A hex a unit may reach this movement stage ([`Game::reach_of`]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Reachable {
    /// The hex.
    pub hex: Hex,
    /// Its cost in half hexes ([3.1.6], [8.4], [18]).
    pub cost: u32,
    /// The path the rules take, the start excluded, this hex included (HM36).
    pub path: Vec<Hex>,
}
