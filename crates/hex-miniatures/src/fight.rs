//! The combat stage ([9]): the artillery's fire ([9.1], [21]), then the attacks, declared
//! ([9.4.2]) and resolved cavalry's first ([9]): cavalry alone against infantry charges a
//! square ([9.3], [20]), against a battery alone takes it ([9.1.6]); every other attack reads
//! the combat results table ([9.4.1], [23]) and its result is applied ([9.8]). Withdrawals,
//! retirements and routs move the units at once toward their rear ([2.4.1.5], [8.8.3]).

use crate::action::{Action, Formation, UnitId};
use crate::army::{Arm, Order};
use crate::artillery::{Battery, FireResult};
use crate::combat::{assess, CombatSituation, Direction};
use crate::crt::CombatResult;
use crate::event::{Cause, Event};
use crate::game::{other, Game, Loc, Task};
use crate::prob::Draw;
use crate::results::{self, Movement as Withdrawal, Side as CombatSide};
use crate::square::SquareResult;
use engine::Refusal;
use hexmap::Hex;

fn draw_of(n: u16) -> Draw {
    Draw::new(n.min(999)).unwrap_or(Draw::new(0).expect("0"))
}

fn battery(g: &Game, u: UnitId) -> Option<Battery> {
    match g.kind_of(u) {
        crate::army::Kind::FootBattery => Some(Battery::Foot),
        crate::army::Kind::HorseBattery => Some(Battery::Horse),
        _ => None,
    }
}

/// Whether a unit stands in an enemy zone of control, by a hexside it could attack across.
fn engaged(g: &Game, u: UnitId) -> bool {
    g.hex_of(u).is_some_and(|h| g.enemy_zoc(g.side_of(u), h))
}

/// Why a battery may not fire now, or `None` ([9.1.1], [9.1.5], [9.1.7]).
fn fire_refusal(g: &Game, b: UnitId) -> Option<Refusal> {
    let s = g.us(b);
    if battery(g, b).is_none() {
        return Some(Refusal::new("9.1", "only batteries fire at a distance"));
    }
    if g.side_of(b) != g.phasing().0 || !matches!(s.loc, Loc::Map(_)) {
        return Some(Refusal::new("9.1.1", "the attacking army's batteries fire"));
    }
    if s.fired {
        return Some(Refusal::new("9.1.1", "a battery fires once a turn"));
    }
    if s.order != Order::Ordered {
        return Some(Refusal::new("9.1.1", "a disrupted battery may not fire"));
    }
    if s.formation != Formation::Unlimbered {
        return Some(Refusal::new("9.1.7", "a limbered battery may not fire"));
    }
    if engaged(g, b) {
        return Some(Refusal::new(
            "9.1.5",
            "a battery next to the enemy fights in the exchange instead",
        ));
    }
    None
}

/// Why a battery may not fire on a unit ([9.1.2], [9.1.3], [21]), or `None`.
fn target_refusal(g: &Game, b: UnitId, t: UnitId) -> Option<Refusal> {
    let (Some(from), Some(to)) = (g.hex_of(b), g.hex_of(t)) else {
        return Some(Refusal::new("9.1.1", "the target is not on the table"));
    };
    if g.side_of(t) == g.side_of(b) {
        return Some(Refusal::new("9.1.1", "a battery fires on the enemy"));
    }
    let kind = battery(g, b)?;
    let range = g.setup().map.distance(from, to);
    let max = g.tables().artillery.max_range(kind);
    if range < 2 || range > u32::from(max) {
        return Some(Refusal::new(
            "21",
            format!("the target is {range} hexes off; the battery fires from 2 to {max} (HM17)"),
        ));
    }
    if g.visibility().is_some_and(|v| range > u32::from(v)) {
        return Some(Refusal::new(
            "24",
            "the target cannot be seen at that range this turn",
        ));
    }
    if !g.line_clear(from, to, true) {
        return Some(Refusal::new(
            "9.1.3",
            "terrain or troops hide the target from the battery",
        ));
    }
    None
}

pub(crate) fn fire_actions(g: &Game, out: &mut Vec<Action>) {
    for i in 0..g.unit_count() {
        let b = UnitId(i as u8);
        if fire_refusal(g, b).is_some() {
            continue;
        }
        for j in 0..g.unit_count() {
            let t = UnitId(j as u8);
            if g.side_of(t) != g.side_of(b)
                && g.hex_of(t).is_some()
                && target_refusal(g, b, t).is_none()
            {
                out.push(Action::Fire {
                    battery: b,
                    target: t,
                });
            }
        }
    }
}

pub(crate) fn check_fire(g: &Game, b: UnitId, t: UnitId) -> Result<(), Refusal> {
    if usize::from(b.0) >= g.unit_count() || usize::from(t.0) >= g.unit_count() {
        return Err(Refusal::new("action", "no such unit"));
    }
    if let Some(r) = fire_refusal(g, b).or_else(|| target_refusal(g, b, t)) {
        return Err(r);
    }
    Ok(())
}

/// A battery fires: the target's generals test under artillery fire first ([6.3]; HM24: once
/// a player-turn), then the battery's number ([9.1.2]).
pub(crate) fn declare_fire(g: &mut Game, b: UnitId, t: UnitId) {
    g.us_mut(b).fired = true;
    let Some(h) = g.hex_of(t) else {
        return;
    };
    for gen in g.untested(g.side_of(t), &[h]) {
        g.st.queue.push_back(Task::GeneralTest(gen, true));
    }
    g.st.queue.push_back(Task::FireDraw(b, t));
}

/// The battery's number: generals with it add, the target's take off, the target's terrain
/// counts ([9.1.3], [9.2], [18]; HM6).
pub(crate) fn fire(g: &mut Game, b: UnitId, t: UnitId, n: u16) {
    let (Some(from), Some(to), Some(kind)) = (g.hex_of(b), g.hex_of(t), battery(g, b)) else {
        return;
    };
    let range = g.setup().map.distance(from, to) as u8;
    let terrain = g.chart().hex(g.hex_kind(to)).map_or(0, |x| x.attacked);
    let modifier = g.bonus(g.side_of(b), &[from]) - g.bonus(g.side_of(t), &[to]) + terrain;
    let Some(r) = g.tables().artillery.fire(kind, range, draw_of(n), modifier) else {
        return;
    };
    g.events.push(Event::Fired {
        battery: b,
        target: t,
        range,
        draw: n,
        modifier,
        result: r.to_string(),
    });
    // [21]: D disrupts as the CRT's Dd (a unit already disrupted loses a base and routs);
    // L takes a base unit; LD both
    let before = g.us(t).order;
    if r.losses() > 0 {
        g.lose_base(t, Cause::Fire);
    }
    if r.disrupts() && g.us(t).loc != Loc::Gone {
        if before == Order::Ordered {
            g.set_order(t, Order::Disordered, Cause::Fire);
        } else {
            if r == FireResult::Disrupted {
                g.lose_base(t, Cause::Fire);
            }
            rout(g, t, Cause::Fire);
        }
    }
}

/// The units that must attack: the phasing side's, not routed, in an enemy zone of control
/// ([9.4.2.2], [9.1.5]).
fn obliged(g: &Game) -> Vec<UnitId> {
    let side = g.phasing().0;
    let charged: Vec<Hex> = pinned(g).into_iter().map(|(_, h)| h).collect();
    (0..g.unit_count())
        .map(|i| UnitId(i as u8))
        .filter(|&u| g.side_of(u) == side && g.us(u).order != Order::Routed && engaged(g, u))
        // [9.3.5]: a square the cavalry goes on charging holds; it need not attack
        .filter(|&u| !g.hex_of(u).is_some_and(|h| charged.contains(&h)))
        .collect()
}

/// The enemy cavalry whose charge a phasing square held, still beside it: it charges again in
/// this combat stage ([9.3.5]).
fn pinned(g: &Game) -> Vec<(UnitId, Hex)> {
    let side = g.phasing().0;
    (0..g.unit_count())
        .map(|i| UnitId(i as u8))
        .filter(|&c| g.side_of(c) != side && g.arm_of(c) == Arm::Cavalry)
        .filter_map(|c| {
            let h = g.us(c).pinned?;
            let at = g.hex_of(c)?;
            let square = g.units_at(h).iter().any(|&u| {
                g.side_of(u) == side
                    && g.arm_of(u) == Arm::Infantry
                    && g.us(u).formation == Formation::Square
            });
            (square && g.setup().map.distance(at, h) == 1 && g.us(c).order != Order::Routed)
                .then_some((c, h))
        })
        .collect()
}

/// The hexes a unit may attack: adjacent, holding an enemy, not over an unbridged river
/// ([9.4.2.5], [4.1.6]).
fn targets(g: &Game, u: UnitId) -> Vec<Hex> {
    let Some(h) = g.hex_of(u) else {
        return Vec::new();
    };
    if g.us(u).order == Order::Routed || g.side_of(u) != g.phasing().0 {
        return Vec::new();
    }
    let side = g.side_of(u);
    let map = &g.setup().map;
    map.neighbours(h)
        .into_iter()
        .filter(|&n| map.contains(n) && g.enemy_in(side, n) && !g.barred(h, n))
        .collect()
}

/// Hexes that must be attacked: holding an enemy not routed, next to a phasing unit that is
/// not routed ([9.4.2.1]).
fn must_targets(g: &Game) -> Vec<Hex> {
    let side = g.phasing().0;
    let mut v: Vec<Hex> = Vec::new();
    for u in obliged(g) {
        for t in targets(g, u) {
            let live = g
                .units_at(t)
                .iter()
                .any(|&e| g.side_of(e) != side && g.us(e).order != Order::Routed);
            if live && !v.contains(&t) {
                v.push(t);
            }
        }
    }
    v.sort();
    v
}

/// The most hexes that must be attacked that can still be: those attacked, and a matching of
/// the rest with the units not yet committed (HM33).
fn coverage(g: &Game, assign: &[(UnitId, Option<Hex>)]) -> usize {
    let must = must_targets(g);
    let covered: Vec<Hex> = must
        .iter()
        .copied()
        .filter(|t| assign.iter().any(|(_, a)| *a == Some(*t)))
        .collect();
    let open: Vec<Hex> = must
        .iter()
        .copied()
        .filter(|t| !covered.contains(t))
        .collect();
    let free: Vec<Vec<usize>> = assign
        .iter()
        .filter(|(_, a)| a.is_none())
        .map(|(u, _)| {
            let ts = targets(g, *u);
            open.iter()
                .enumerate()
                .filter(|(_, t)| ts.contains(t))
                .map(|(i, _)| i)
                .collect()
        })
        .collect();
    // Kuhn's augmenting paths
    let mut owner: Vec<Option<usize>> = vec![None; open.len()];
    fn augment(
        a: usize,
        free: &[Vec<usize>],
        seen: &mut [bool],
        owner: &mut [Option<usize>],
    ) -> bool {
        for &t in &free[a] {
            if !seen[t] {
                seen[t] = true;
                if owner[t].is_none_or(|b| augment(b, free, seen, owner)) {
                    owner[t] = Some(a);
                    return true;
                }
            }
        }
        false
    }
    let mut m = 0;
    for a in 0..free.len() {
        let mut seen = vec![false; open.len()];
        if augment(a, &free, &mut seen, &mut owner) {
            m += 1;
        }
    }
    covered.len() + m
}

fn assignments(g: &Game) -> Vec<(UnitId, Option<Hex>)> {
    let side = g.phasing().0;
    (0..g.unit_count())
        .map(|i| UnitId(i as u8))
        .filter(|&u| g.side_of(u) == side && !targets(g, u).is_empty())
        .map(|u| (u, g.us(u).target))
        .collect()
}

pub(crate) fn attack_actions(g: &Game, out: &mut Vec<Action>) {
    let a = assignments(g);
    let best = coverage(g, &a);
    for (k, (u, t)) in a.iter().enumerate() {
        if t.is_some() {
            continue;
        }
        for target in targets(g, *u) {
            let mut b = a.clone();
            b[k].1 = Some(target);
            if coverage(g, &b) == best {
                out.push(Action::Attack { unit: *u, target });
            }
        }
    }
}

pub(crate) fn check_attack(g: &Game, u: UnitId, target: Hex) -> Result<(), Refusal> {
    if usize::from(u.0) >= g.unit_count() {
        return Err(Refusal::new("action", "no such unit"));
    }
    if g.side_of(u) != g.phasing().0 {
        return Err(Refusal::new("9", "the phasing side attacks"));
    }
    if g.us(u).order == Order::Routed {
        return Err(Refusal::new(
            "8.8.3",
            "routed units cannot engage in combat",
        ));
    }
    if g.us(u).target.is_some() {
        return Err(Refusal::new(
            "9.4.2.4",
            "no unit may attack more than once a combat stage",
        ));
    }
    if !targets(g, u).contains(&target) {
        return Err(Refusal::new(
            "9.4.2.5",
            "a unit attacks an adjacent enemy hex (never over a river without a bridge)",
        ));
    }
    let a = assignments(g);
    let best = coverage(g, &a);
    let b: Vec<_> = a
        .iter()
        .map(|&(x, t)| if x == u { (x, Some(target)) } else { (x, t) })
        .collect();
    if coverage(g, &b) < best {
        return Err(Refusal::new(
            "9.4.2.1",
            "that would leave an enemy next to your troops unattacked when all could be (HM33)",
        ));
    }
    Ok(())
}

pub(crate) fn attacks_complete(g: &Game) -> bool {
    obliged(g).iter().all(|&u| g.us(u).target.is_some())
}

pub(crate) fn check_end_attacks(g: &Game) -> Result<(), Refusal> {
    match obliged(g).into_iter().find(|&u| g.us(u).target.is_none()) {
        None => Ok(()),
        Some(u) => Err(Refusal::new(
            "9.4.2.2",
            format!("{} is next to the enemy and must attack", g.unit_name(u)),
        )),
    }
}

/// The declared attacks are queued, those with cavalry first ([9]).
pub(crate) fn queue_combats(g: &mut Game) {
    let side = g.phasing().0;
    let mut list: Vec<(bool, Hex)> = Vec::new();
    for i in 0..g.unit_count() {
        let u = UnitId(i as u8);
        if g.side_of(u) != side {
            continue;
        }
        if let Some(t) = g.us(u).target {
            let cav = g.arm_of(u) == Arm::Cavalry;
            match list.iter_mut().find(|(_, h)| *h == t) {
                Some(e) => e.0 |= cav,
                None => list.push((cav, t)),
            }
        }
    }
    list.sort_by_key(|&(cav, h)| (!cav, h));
    // [9.3.5]: cavalry held by a square charges again, first
    for (c, _) in pinned(g) {
        g.st.queue.push_back(Task::Recharge(c));
    }
    for (_, h) in list {
        g.st.queue.push_back(Task::Prepare(h));
    }
}

fn attackers_of(g: &Game, h: Hex) -> Vec<UnitId> {
    let side = g.phasing().0;
    (0..g.unit_count())
        .map(|i| UnitId(i as u8))
        .filter(|&u| {
            g.side_of(u) == side
                && g.us(u).target == Some(h)
                && g.us(u).order != Order::Routed
                && g.hex_of(u)
                    .is_some_and(|a| g.setup().map.distance(a, h) == 1)
        })
        .collect()
}

fn defenders_of(g: &Game, h: Hex) -> Vec<UnitId> {
    let side = g.phasing().0;
    g.units_at(h)
        .iter()
        .copied()
        .filter(|&u| g.side_of(u) != side)
        .collect()
}

/// Before a combat's number: a battery standing alone charged by cavalry is taken at once
/// ([9.1.6]); otherwise the generals of both sides test under fire ([6.3], [9.2]; HM24: those
/// not yet tested this player-turn), then the number is drawn (HM37: cavalry alone against
/// infantry charges a square, any other attack reads the combat results table).
pub(crate) fn prepare(g: &mut Game, h: Hex) {
    let att = attackers_of(g, h);
    let def = defenders_of(g, h);
    if att.is_empty() || def.is_empty() {
        return;
    }
    let cavalry_only = att.iter().all(|&u| g.arm_of(u) == Arm::Cavalry);
    if cavalry_only && def.iter().all(|&u| g.arm_of(u) == Arm::Artillery) {
        for b in def {
            g.events.push(Event::BatteryCaptured { battery: b });
            g.remove(b);
        }
        offer_advance(g, h, &att);
        return;
    }
    let side = g.phasing().0;
    let mut hexes: Vec<Hex> = att.iter().filter_map(|&u| g.hex_of(u)).collect();
    hexes.sort();
    hexes.dedup();
    let mut tests = g.untested(side, &hexes);
    tests.extend(g.untested(other(side), &[h]));
    let mut front = vec![Task::CombatDraw(h)];
    for gen in tests.into_iter().rev() {
        front.insert(0, Task::GeneralTest(gen, false));
    }
    for t in front.into_iter().rev() {
        g.st.queue.push_front(t);
    }
}

/// The direction an attack from `from` strikes a unit facing `facing` ([9.4.1]; HM34: the
/// faced hexside and its two neighbours are the front, the next two the flanks, the one
/// behind the rear).
pub(crate) fn direction(g: &Game, def: Hex, facing: u8, from: Hex) -> Direction {
    let Some(d) = g.setup().map.direction(def, from) else {
        return Direction::Front;
    };
    match (d as u8 + 6 - facing % 6) % 6 {
        0 | 1 | 5 => Direction::Front,
        3 => Direction::Rear,
        _ => Direction::Flank,
    }
}

/// What one attack on a hex comes to before its number ([9.1.6], [9.3.1], [9.4.1]; HM37).
pub(crate) enum Plan {
    /// Cavalry alone takes a battery standing alone.
    Capture,
    /// Cavalry alone charges infantry, which forms square: the square, the cavalry's modifier.
    Charge(UnitId, i32),
    /// The combat results table: the situation and the attack's strength.
    Crt(CombatSituation),
}

pub(crate) fn plan(g: &Game, h: Hex, att: &[UnitId], def: &[UnitId]) -> Option<Plan> {
    if att.is_empty() || def.is_empty() {
        return None;
    }
    let side = g.side_of(att[0]);
    let mut hexes: Vec<Hex> = att.iter().filter_map(|&u| g.hex_of(u)).collect();
    hexes.sort();
    hexes.dedup();
    let bonus = g.bonus(side, &hexes) - g.bonus(other(side), &[h]);
    let main = def
        .iter()
        .copied()
        .find(|&u| g.arm_of(u) != Arm::Artillery)
        .unwrap_or(def[0]);
    let cavalry_only = att.iter().all(|&u| g.arm_of(u) == Arm::Cavalry);
    if cavalry_only && def.iter().all(|&u| g.arm_of(u) == Arm::Artillery) {
        return Some(Plan::Capture);
    }
    if cavalry_only && g.arm_of(main) == Arm::Infantry {
        return Some(Plan::Charge(main, bonus));
    }
    let attack: u32 = att.iter().map(|&u| g.strength(u, true)).sum();
    let defence = sheltered_defence(g, h, def);
    let mut arms: Vec<Arm> = att.iter().map(|&u| g.arm_of(u)).collect();
    arms.sort_by_key(|a| *a as u8);
    arms.dedup();
    let ms = g.us(main);
    let direction = if ms.formation == Formation::Square {
        Direction::Front
    } else {
        hexes
            .iter()
            .map(|&a| direction(g, h, ms.facing, a))
            .max_by_key(|d| match d {
                Direction::Front => 0,
                Direction::Flank => 1,
                Direction::Rear => 2,
            })
            .unwrap_or(Direction::Front)
    };
    let kind = g.hex_kind(h).to_string();
    let (from_below, downhill) = slopes(g, h, &hexes, &kind);
    let terrain = g.chart().combat_modifier(&kind, from_below, downhill);
    let square = ms.formation == Formation::Square && g.arm_of(main) == Arm::Infantry;
    Some(Plan::Crt(CombatSituation {
        attack,
        defence,
        arms: arms.len() as u8,
        direction,
        // the shelter is counted unit by unit in `defence` (HM52)
        defence_multiplier: 1,
        attacker_generals: (0, 0),
        defender_generals: (0, 0),
        terrain: terrain + bonus,
        infantry_against_square: square && att.iter().any(|&u| g.arm_of(u) == Arm::Infantry),
    }))
}

/// The defence of the units in a hex after its terrain ([9.6], [18]; HM15, HM52): a town's
/// house shelters one battalion ([3.1.4.1], [3.1.4.2]: a village hex is one house), a
/// fortified hex or an earthwork one battalion and one battery ([3.1.5]); when a disordered
/// battalion shares the hex with a friend ([8.6.2.1]) only the stronger is under the roof,
/// the other fights at its own value. Cavalry holding a village is not in its buildings, and a
/// routed unit, defending as 1 ([8.8.3]), takes no shelter.
pub(crate) fn sheltered_defence(g: &Game, h: Hex, def: &[UnitId]) -> u32 {
    let kind = g.hex_kind(h);
    let mut units: Vec<(u32, UnitId)> = def.iter().map(|&u| (g.strength(u, true), u)).collect();
    units.sort_by_key(|&(s, u)| (std::cmp::Reverse(s), u));
    let (mut foot, mut guns) = (false, false);
    units
        .into_iter()
        .map(|(s, u)| {
            let arm = g.arm_of(u);
            let m = g.chart().defence_multiplier(kind, arm);
            let room = match arm {
                Arm::Artillery => &mut guns,
                _ => &mut foot,
            };
            if m > 1 && !*room && g.us(u).order != Order::Routed {
                *room = true;
                s * m
            } else {
                s
            }
        })
        .sum()
}

/// The combat's number and what it does ([9.3], [9.4.1], [9.8]).
pub(crate) fn resolve(g: &mut Game, h: Hex, n: u16) {
    let att = attackers_of(g, h);
    let def = defenders_of(g, h);
    let situation = match plan(g, h, &att, &def) {
        None | Some(Plan::Capture) => return,
        Some(Plan::Charge(sq, bonus)) => {
            charge(g, h, &att, sq, n, bonus, false);
            return;
        }
        Some(Plan::Crt(s)) => s,
    };
    let attack = situation.attack;
    let t = g.tables();
    let Some(a) = assess(&t.crt, &t.combat, &situation) else {
        return;
    };
    let result = a.result(&t.crt, draw_of(n));
    let column = t.crt.ratio(a.column).to_string();
    g.events.push(Event::Combat {
        target: h,
        attackers: att.clone(),
        defenders: def.clone(),
        attack,
        defence: a.defence,
        column,
        modifier: a.modifier,
        draw: n,
        result: result.to_string(),
    });
    for &u in att.iter().chain(&def) {
        g.us_mut(u).contact = true;
    }
    apply_result(g, result, CombatSide::Attacker, &att);
    apply_result(g, result, CombatSide::Defender, &def);
    for &u in &att {
        g.us_mut(u).target = None;
    }
    offer_advance(g, h, &att);
}

/// Cavalry charges infantry, which forms square ([9.3.1], [20]).
fn charge(g: &mut Game, h: Hex, att: &[UnitId], sq: UnitId, n: u16, bonus: i32, again: bool) {
    if g.us(sq).formation != Formation::Square {
        g.us_mut(sq).formation = Formation::Square;
        g.events.push(Event::Formed {
            unit: sq,
            formation: Formation::Square,
        });
    }
    for &u in att.iter().chain([&sq]) {
        g.us_mut(u).contact = true;
    }
    let disordered = g.us(sq).order != Order::Ordered;
    let r = g.tables().square.charge(disordered, draw_of(n), bonus);
    g.events.push(Event::Charge {
        target: h,
        attackers: att.to_vec(),
        square: sq,
        draw: n,
        modifier: bonus,
        result: match r {
            SquareResult::Repulsed => "repulsed",
            SquareResult::Holds => "holds",
            SquareResult::Broken => "broken",
        },
    });
    match r {
        SquareResult::Repulsed => {
            // [9.3.2]: the cavalry is disrupted; already disrupted, a base lost and a rout
            for &u in att {
                if g.us(u).order == Order::Ordered {
                    g.set_order(u, Order::Disordered, Cause::Square);
                } else {
                    g.lose_base(u, Cause::Square);
                    rout(g, u, Cause::Square);
                }
            }
        }
        SquareResult::Holds => {
            // [9.3.5]: the cavalry must charge again in the square's combat stage, and so on
            for &u in att {
                g.us_mut(u).pinned = Some(h);
            }
        }
        SquareResult::Broken => {
            // [9.3.3]: the whole battalion is lost
            g.remove(sq);
        }
    }
    for &u in att {
        g.us_mut(u).target = None;
        if r != SquareResult::Holds {
            g.us_mut(u).pinned = None;
        }
    }
    if !again {
        offer_advance(g, h, att);
    }
}

/// Cavalry held by a square charges again in the square's combat stage: the generals of both
/// hexes test, then the cavalry draws ([9.3.5], HM24).
pub(crate) fn prepare_recharge(g: &mut Game, c: UnitId) {
    let Some((_, h)) = pinned(g).into_iter().find(|&(x, _)| x == c) else {
        return;
    };
    let Some(at) = g.hex_of(c) else {
        return;
    };
    let mut tests = g.untested(g.side_of(c), &[at]);
    tests.extend(g.untested(g.phasing().0, &[h]));
    g.st.queue.push_front(Task::RechargeDraw(c));
    for gen in tests.into_iter().rev() {
        g.st.queue.push_front(Task::GeneralTest(gen, false));
    }
}

/// The charge again ([9.3.5], [20]).
pub(crate) fn recharge(g: &mut Game, c: UnitId, n: u16) {
    let Some((_, h)) = pinned(g).into_iter().find(|&(x, _)| x == c) else {
        return;
    };
    let Some(at) = g.hex_of(c) else {
        return;
    };
    let side = g.phasing().0;
    let Some(sq) = g
        .units_at(h)
        .iter()
        .copied()
        .find(|&u| g.side_of(u) == side && g.arm_of(u) == Arm::Infantry)
    else {
        return;
    };
    let bonus = g.bonus(g.side_of(c), &[at]) - g.bonus(side, &[h]);
    charge(g, h, &[c], sq, n, bonus, true);
}

/// A result on one side of a combat ([9.8]; HM23): the group loses at most one base unit,
/// from its largest unit the result strikes (HM35); each unit takes its new state and moves.
fn apply_result(g: &mut Game, r: CombatResult, side: CombatSide, units: &[UnitId]) {
    let effects: Vec<(UnitId, results::Effect)> = units
        .iter()
        .map(|&u| (u, results::effect(r, side, g.us(u).order)))
        .collect();
    let loser = effects
        .iter()
        .filter(|(_, e)| e.base_unit_lost)
        .map(|(u, _)| *u)
        .max_by_key(|&u| (g.us(u).bases, std::cmp::Reverse(u)));
    if let Some(u) = loser {
        g.lose_base(u, Cause::Combat);
    }
    for (u, e) in effects {
        if g.us(u).loc == Loc::Gone {
            continue;
        }
        g.set_order(u, e.order, Cause::Combat);
        let hexes = g.line(u).movement;
        match e.movement {
            Withdrawal::Hold => {}
            Withdrawal::Withdraw | Withdrawal::Retire => {
                withdraw(g, u, hexes, e.movement);
            }
            Withdrawal::Rout => {
                if g.arm_of(u) == Arm::Artillery {
                    // [2.4.5.3]: routed artillery is removed
                    g.remove(u);
                } else {
                    withdraw(g, u, hexes + 1, Withdrawal::Rout);
                }
            }
        }
    }
}

/// A unit routs at once ([9.8.1]): its move and a hex more.
pub(crate) fn rout(g: &mut Game, u: UnitId, cause: Cause) {
    if g.us(u).loc == Loc::Gone {
        return;
    }
    g.set_order(u, Order::Routed, cause);
    if g.arm_of(u) == Arm::Artillery {
        g.remove(u);
        return;
    }
    let hexes = g.line(u).movement + 1;
    withdraw(g, u, hexes, Withdrawal::Rout);
}

/// A unit withdraws toward its rear ([2.4.1.4], [2.4.1.5], [8.7], [8.8.3]; HM36): each hex
/// the one nearest its rear edge, then furthest from the enemy, never into an enemy's hex or
/// zone of control; a routed unit turns its back, a retiring one keeps its facing; friends
/// it passes through are disrupted (routed, if already disordered and it routs, [6.2]); a
/// rout off its own edge leaves the battle, and a unit that cannot take its first step is
/// lost ([2.4.1.5], [8.7.2]).
pub(crate) fn withdraw(g: &mut Game, u: UnitId, hexes: u8, how: Withdrawal) {
    let Some(start) = g.hex_of(u) else {
        return;
    };
    let side = g.side_of(u);
    let arm = g.arm_of(u);
    let map = g.setup().map.clone();
    if g.us(u).formation == Formation::Square {
        g.us_mut(u).formation = Formation::Line;
    }
    if g.us(u).formation == Formation::Unlimbered {
        g.us_mut(u).formation = Formation::Limbered;
    }
    let mut at = start;
    let mut path = Vec::new();
    for step in 0..hexes {
        let off_edge = g.to_rear(side, at) == 0;
        if off_edge && how == Withdrawal::Rout {
            g.events.push(Event::Withdrew {
                unit: u,
                from: start,
                to: None,
            });
            g.set_loc(u, Loc::Map(at));
            g.remove(u);
            return;
        }
        let last = step + 1 == hexes;
        let enemy_near = |h: Hex| -> u32 {
            (0..g.unit_count())
                .filter(|&i| g.side_of(UnitId(i as u8)) != side)
                .filter_map(|i| g.hex_of(UnitId(i as u8)))
                .map(|e| map.distance(h, e))
                .min()
                .unwrap_or(99)
        };
        let best = map
            .neighbours(at)
            .into_iter()
            .filter(|&n| {
                map.contains(n)
                    && !path.contains(&n)
                    && n != start
                    && crate::movement::step_cost(g, arm, Some(at), n).is_some()
                    && !g.enemy_in(side, n)
                    && !g.enemy_zoc(side, n)
                    && g.to_rear(side, n) <= g.to_rear(side, at)
            })
            .min_by_key(|&n| {
                (
                    last && !g.may_stand(u, n, true),
                    g.to_rear(side, n),
                    std::cmp::Reverse(enemy_near(n)),
                    !g.units_at(n).is_empty(),
                    n,
                )
            });
        match best {
            Some(n) => {
                path.push(n);
                at = n;
            }
            None => break,
        }
    }
    // stop at the last hex of the path it may stand in
    while let Some(&h) = path.last() {
        if g.may_stand(u, h, true) {
            break;
        }
        path.pop();
    }
    let Some(&end) = path.last() else {
        // [2.4.1.5], [8.7.2]: no line of escape
        g.events.push(Event::Withdrew {
            unit: u,
            from: start,
            to: None,
        });
        g.remove(u);
        return;
    };
    let routing = how == Withdrawal::Rout;
    for &h in &path {
        g.capture_at(side, h);
        let friends: Vec<UnitId> = g.units_at(h).to_vec();
        for f in friends {
            match g.us(f).order {
                // [6.2], [8.6.2.1]: friends passed (or joined at the end) are disrupted
                Order::Ordered => g.set_order(f, Order::Disordered, Cause::PassedThrough),
                // [6.2]: a rout passing through disordered friends routs them
                Order::Disordered if routing && h != end => {
                    g.set_order(f, Order::Routed, Cause::PassedThrough)
                }
                _ => {}
            }
        }
    }
    if routing {
        // [8.8.3]: backs to the enemy
        let prev = if path.len() >= 2 {
            path[path.len() - 2]
        } else {
            start
        };
        if let Some(d) = map.direction(prev, end) {
            g.us_mut(u).facing = d as u8;
        }
    }
    g.set_loc(u, Loc::Map(end));
    g.us_mut(u).moved = true;
    g.events.push(Event::Withdrew {
        unit: u,
        from: start,
        to: Some(end),
    });
}

/// After a combat: if the hex attacked is empty, the attackers still beside it who may stand
/// there may advance into it, one of them, at once ([8.7.4], [8.7.5]; HM37: only the
/// attacker advances). A square and an unlimbered battery cannot move, so they do not
/// advance ([8.1.1], [9.1.7]).
fn offer_advance(g: &mut Game, h: Hex, att: &[UnitId]) {
    if !g.units_at(h).is_empty() {
        return;
    }
    let v: Vec<UnitId> = att
        .iter()
        .copied()
        .filter(|&u| {
            g.us(u).order != Order::Routed
                && !matches!(g.us(u).formation, Formation::Square | Formation::Unlimbered)
                && g.hex_of(u)
                    .is_some_and(|a| g.setup().map.distance(a, h) == 1 && !g.barred(a, h))
                && g.may_stand(u, h, false)
        })
        .collect();
    if !v.is_empty() {
        g.st.advance = Some((h, v));
    }
}

/// A victor advances ([8.7.4]).
pub(crate) fn advance_into(g: &mut Game, u: UnitId) {
    let Some((h, _)) = g.st.advance.take() else {
        return;
    };
    let Some(from) = g.hex_of(u) else {
        return;
    };
    let side = g.side_of(u);
    g.capture_at(side, h);
    g.set_loc(u, Loc::Map(h));
    g.events.push(Event::Advanced {
        unit: u,
        from,
        to: h,
    });
}

/// Whether the attack climbs to the defender at the top of a slope, and whether an attacker
/// strikes down from the top ([18] Slope; HM39): the scenario's slope hexsides and which side
/// is the top when it says (HM49), else a slope hex against one that is not.
fn slopes(g: &Game, h: Hex, attackers: &[Hex], kind: &str) -> (bool, bool) {
    let up = &g.setup().uphill;
    if !up.is_empty() {
        let from_below = attackers.iter().any(|&a| up.contains(&(a, h)));
        let downhill = attackers.iter().any(|&a| up.contains(&(h, a)));
        return (from_below, downhill);
    }
    let map = &g.setup().map;
    let slope_def = map.is_slope_hex(h) || kind == "slope";
    let from_below = slope_def && attackers.iter().any(|&a| !map.is_slope_hex(a));
    let downhill = !slope_def && attackers.iter().any(|&a| map.is_slope_hex(a));
    (from_below, downhill)
}

/// The odds of an attack before its number, for the board and the computer players ([9.1.6],
/// [9.4.1], [20]).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Preview {
    /// `capture` (cavalry takes a battery alone), `charge` (a square, [20]) or `crt` ([23]).
    pub kind: &'static str,
    /// The attack's strength and the defence after terrain (`crt` only).
    pub strengths: Option<(u32, u32)>,
    /// The column read (`3:1`; `crt` only).
    pub column: Option<String>,
    /// The modifier to the attacker's number (generals present counted as surviving).
    pub modifier: i32,
    /// Each result's chance in thousandths (they add up to 1000; empty for a capture).
    pub chances: Vec<(String, u32)>,
}

impl Game {
    /// The odds of an attack on `target` by `attackers` now ([9.4.1]); `None` when there is
    /// nothing to attack or nobody attacking.
    pub fn preview(&self, target: Hex, attackers: &[UnitId]) -> Option<Preview> {
        let side = attackers.first().map(|&u| self.side_of(u))?;
        let def: Vec<UnitId> = self
            .units_at(target)
            .iter()
            .copied()
            .filter(|&u| self.side_of(u) != side)
            .collect();
        let t = self.tables();
        Some(match plan(self, target, attackers, &def)? {
            Plan::Capture => Preview {
                kind: "capture",
                strengths: None,
                column: None,
                modifier: 0,
                chances: Vec::new(),
            },
            Plan::Charge(sq, m) => {
                let disordered = self.us(sq).order != Order::Ordered;
                Preview {
                    kind: "charge",
                    strengths: None,
                    column: None,
                    modifier: m,
                    chances: t
                        .square
                        .chances(disordered, m)
                        .into_iter()
                        .map(|(r, w)| {
                            let name = match r {
                                SquareResult::Repulsed => "repulsed",
                                SquareResult::Holds => "holds",
                                SquareResult::Broken => "broken",
                            };
                            (name.to_string(), w)
                        })
                        .collect(),
                }
            }
            Plan::Crt(s) => {
                let a = assess(&t.crt, &t.combat, &s)?;
                Preview {
                    kind: "crt",
                    strengths: Some((s.attack, a.defence)),
                    column: Some(t.crt.ratio(a.column).to_string()),
                    modifier: a.modifier,
                    chances: a
                        .chances(&t.crt)
                        .into_iter()
                        .map(|(r, w)| (r.to_string(), w))
                        .collect(),
                }
            }
        })
    }
}
