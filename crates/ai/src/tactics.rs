//! Combat arithmetic the players share: what strength is worth as the demoralization levels
//! stand (17.0), whether a unit could retreat (7.72-7.82), the defence a combat would meet
//! (7.4, 9.0) and the expected value of a combat on every odds column (7.6, 7.9).

use crate::board::Board;
use crate::info::Info;
use engine::Side;
use naw::tables::{crt, Column, CombatResult};
use naw::{Game, UnitId};

/// Scale of [`Values::worth`]: a whole army's demoralization level is worth this much.
pub(crate) const SCALE: f64 = 100.0;
/// The worth of winning (or, negated, losing) the game outright.
pub(crate) const WIN: f64 = 400.0;

/// How a player values losses: the demoralization levels of the turn and the losses so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Values {
    /// The player this is for.
    pub me: Side,
    /// The phasing side (17.3: it wins a simultaneous demoralization).
    pub phasing: Side,
    /// Strength lost so far per side.
    pub losses: [u32; 2],
    /// Demoralization level per side (large when the scenario has none).
    pub level: [u32; 2],
}

impl Values {
    /// The values for `me` in a game position.
    pub fn new(info: &Info, g: &Game, me: Side) -> Values {
        let sc = g.scenario();
        let mut losses = [0u32; 2];
        for (a, l) in g.losses().iter().enumerate() {
            let s = sc.armies[a].1;
            losses[s.0 as usize] += l;
        }
        let lv = |s: Side| info.level(sc, s, g.turn()).unwrap_or(10_000);
        Values {
            me,
            phasing: g.phasing(),
            losses,
            level: [lv(Side(0)), lv(Side(1))],
        }
    }

    /// The worth to `me` of the losses `l` (higher is better for `me`): each side's losses
    /// count by the fraction of its level they reach, more steeply near the level, and an army
    /// at its level has lost the game (17.2, 17.3).
    pub fn worth(&self, l: [u32; 2]) -> f64 {
        let me = self.me.0 as usize;
        let en = 1 - me;
        let broken = |s: usize| l[s] >= self.level[s];
        match (broken(me), broken(en)) {
            (true, true) => {
                return if self.phasing == self.me { WIN } else { -WIN };
            }
            (true, false) => return -WIN,
            (false, true) => return WIN,
            _ => {}
        }
        let f = |s: usize| {
            let x = l[s] as f64 / self.level[s] as f64;
            SCALE * (x + 1.5 * x * x * x * x)
        };
        f(en) - f(me)
    }

    /// The change in worth of losing `mine` and eliminating `theirs` strength points, where
    /// `attacker` is the side of `mine` when it is the phasing side's combat.
    pub fn delta(&self, side_a: Side, lost_a: u32, lost_d: u32) -> f64 {
        if lost_a == 0 && lost_d == 0 {
            return 0.0;
        }
        let mut l = self.losses;
        l[side_a.0 as usize] += lost_a;
        l[1 - side_a.0 as usize] += lost_d;
        self.worth(l) - self.worth(self.losses)
    }
}

/// True when a unit of `side` standing at hex `i` could retreat one hex: into a vacant hex it
/// may enter that the enemy does not control, or else by displacing a friend who could itself
/// move on (7.72, 7.73, 7.81, 7.82; the chain approximated one step deep). `ignore` is a unit
/// whose zone of control is set aside (a defender about to be eliminated, say).
pub(crate) fn can_retreat(info: &Info, b: &Board, side: Side, i: usize) -> bool {
    retreat_hexes(info, b, side, i, |_| true) > 0
}

/// The number of hexes open to a retreat from `i` (vacant ones; displacements count when no
/// vacant hex is open), for hexes accepted by `keep`.
pub(crate) fn retreat_hexes(
    info: &Info,
    b: &Board,
    side: Side,
    i: usize,
    keep: impl Fn(usize) -> bool,
) -> u32 {
    let enemy = Side(1 - side.0);
    let mut vacant = 0;
    let mut displace = 0;
    for k in 0..6 {
        if !info.retreat[i][k] {
            continue;
        }
        let j = info.nb[i][k] as usize;
        if b.controlled(enemy, j) || !keep(j) {
            continue;
        }
        match b.unit_at(j) {
            None => vacant += 1,
            Some(w) if info.side[w.0 as usize] == side && friend_can_yield(info, b, side, j, i) => {
                displace += 1;
            }
            _ => {}
        }
    }
    if vacant > 0 {
        vacant
    } else {
        displace
    }
}

/// Could the friend at `j` be displaced, retreating somewhere other than `from`?
fn friend_can_yield(info: &Info, b: &Board, side: Side, j: usize, from: usize) -> bool {
    let enemy = Side(1 - side.0);
    (0..6).any(|k| {
        if !info.retreat[j][k] {
            return false;
        }
        let n = info.nb[j][k] as usize;
        n != from
            && !b.controlled(enemy, n)
            && b.unit_at(n).is_none_or(|w| info.side[w.0 as usize] == side)
    })
}

/// The defence of a set of defenders against attackers standing at the given hexes (7.4, 9.0:
/// doubled in rough, marsh and town, or when attacked only across streams or bridges, or only
/// up slope hexsides; never more than doubled). Attackers not adjacent (bombarding artillery)
/// count neither way.
pub(crate) fn defence(
    info: &Info,
    b: &Board,
    attackers: &[(UnitId, usize)],
    defenders: &[UnitId],
) -> u32 {
    let mut total = 0;
    for &d in defenders {
        let s = info.str(d);
        let Some(hd) = b.at(d) else {
            total += s;
            continue;
        };
        if info.doubles[hd] {
            total += 2 * s;
            continue;
        }
        let mut any = false;
        let mut all_stream = true;
        let mut all_slope = true;
        for &(_, ha) in attackers {
            let Some(k) = dir_to(info, ha, hd) else {
                continue;
            };
            any = true;
            all_stream &= info.stream[ha][k];
            all_slope &= info.upslope[ha][k];
        }
        total += if any && (all_stream || all_slope) {
            2 * s
        } else {
            s
        };
    }
    total
}

/// The direction index from hex `a` to an adjacent hex `b`.
#[inline]
pub(crate) fn dir_to(info: &Info, a: usize, b: usize) -> Option<usize> {
    (0..6).find(|&k| info.nb[a][k] == b as u16)
}

/// True when hexes `a` and `b` are adjacent across a hexside units may attack over.
#[inline]
pub(crate) fn engages(info: &Info, a: usize, b: usize) -> bool {
    dir_to(info, a, b).is_some_and(|k| info.engage[a][k])
}

/// What a combat is expected to bring, on one odds column.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct CombatEval {
    /// The column it would be resolved on.
    pub column: u8,
    /// The column the strengths give.
    pub natural: u8,
    /// Attack and defence strength.
    pub attack: u32,
    pub defence: u32,
    /// Probability that every defender is eliminated.
    pub p_kill: f64,
    /// Probability that the defenders' hexes are vacated (they retreat or die).
    pub p_vacate: f64,
    /// Probability of losing attacking strength.
    pub p_loss: f64,
    /// Expected change in worth for the attacker ([`Values::delta`] units), with small terms for
    /// ground won or lost.
    pub ev: f64,
    /// No defender can retreat.
    pub trapped: bool,
}

/// Evaluates a combat of `attackers` (at hexes, on the board) against `defenders` on the best
/// column at or below the natural one (7.9), or on `column` when given.
pub(crate) fn eval_combat(
    info: &Info,
    b: &Board,
    vals: &Values,
    attackers: &[(UnitId, usize)],
    defenders: &[UnitId],
    column: Option<u8>,
) -> CombatEval {
    if attackers.is_empty() || defenders.is_empty() {
        return CombatEval::default();
    }
    let side_a = info.side[attackers[0].0 .0 as usize];
    let side_d = Side(1 - side_a.0);
    let attack: u32 = attackers.iter().map(|&(u, _)| info.str(u)).sum();
    let def = defence(info, b, attackers, defenders);
    let natural = Column::of(attack, def).0;
    // who stands adjacent (bombarding artillery suffers nothing, 8.14)
    let mut adj: [(u32, bool); 16] = [(0, true); 16];
    let mut na = 0;
    for &(u, ha) in attackers {
        let adjacent = defenders
            .iter()
            .any(|&d| b.at(d).is_some_and(|hd| info.nb[ha].contains(&(hd as u16))));
        if adjacent && na < 16 {
            adj[na] = (info.str(u), can_retreat(info, b, side_a, ha));
            na += 1;
        }
    }
    let adj = &adj[..na];
    let adj_total: u32 = adj.iter().map(|a| a.0).sum();
    let def_printed: u32 = defenders.iter().map(|&d| info.str(d)).sum();
    let mut trapped_str = 0;
    let mut n_trapped = 0;
    for &d in defenders {
        if let Some(hd) = b.at(d) {
            if !can_retreat(info, b, side_d, hd) {
                trapped_str += info.str(d);
                n_trapped += 1;
            }
        }
    }
    let stuck_attackers: u32 = adj.iter().filter(|a| !a.1).map(|a| a.0).sum();
    // exchange: the cheapest inclusion-minimal loss reaching the defenders' printed strength
    let ex_loss = if adj_total <= def_printed {
        adj_total
    } else {
        let k = adj.len().min(12);
        let mut best = adj_total;
        for mask in 1u32..(1 << k) {
            let s: u32 = (0..k)
                .filter(|i| mask & (1 << i) != 0)
                .map(|i| adj[i].0)
                .sum();
            if s >= def_printed && s < best {
                best = s;
            }
        }
        best
    };
    // the value of each result
    let ground = 0.03 * def_printed as f64;
    let r_ae = vals.delta(side_a, adj_total, 0);
    let r_ar = vals.delta(side_a, stuck_attackers, 0) - ground;
    let r_dr = vals.delta(side_a, 0, trapped_str) + ground;
    let r_de = vals.delta(side_a, 0, def_printed) + ground;
    let r_ex = vals.delta(side_a, ex_loss, def_printed) + ground;
    let on = |c: u8| {
        let mut e = CombatEval {
            column: c,
            natural,
            attack,
            defence: def,
            trapped: n_trapped == defenders.len(),
            ..CombatEval::default()
        };
        for die in 1..=6u8 {
            let p = 1.0 / 6.0;
            let (v, kill, vacate, loss) = match crt(Column(c), die) {
                CombatResult::Ae => (r_ae, false, false, adj_total > 0),
                CombatResult::Ar => (r_ar, false, false, stuck_attackers > 0),
                CombatResult::Dr => (r_dr, e.trapped, true, false),
                CombatResult::De => (r_de, true, true, false),
                CombatResult::Ex => (r_ex, true, true, ex_loss > 0),
            };
            e.ev += p * v;
            if kill {
                e.p_kill += p;
            }
            if vacate {
                e.p_vacate += p;
            }
            if loss {
                e.p_loss += p;
            }
        }
        e
    };
    match column {
        Some(c) => on(c.min(natural)),
        None => {
            let mut best = on(natural);
            for c in (0..natural).rev() {
                let e = on(c);
                if e.ev > best.ev + 1e-9 {
                    best = e;
                }
            }
            best
        }
    }
}

/// The hex indices of units (skipping those off the map).
pub(crate) fn placed(b: &Board, units: &[UnitId]) -> Vec<(UnitId, usize)> {
    units
        .iter()
        .filter_map(|&u| b.at(u).map(|h| (u, h)))
        .collect()
}
