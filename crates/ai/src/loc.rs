//! The line of communications (17.5): which hexes of the map are in touch with its end hex,
//! how much strength an enemy unit standing in a hex would cut off, where the enemy could stand
//! after his next move, and a watch that keeps a plan from opening the line to such a cut.

use crate::board::{Board, Mover, Reach};
use crate::info::{Info, NONE};
use engine::Side;
use naw::{Game, UnitId};
use std::cell::RefCell;
use std::sync::Arc;

/// Reusable buffers for the line searches (one set per thread).
#[derive(Default)]
struct Scratch {
    stamp: Vec<u32>,
    gen: u32,
    stack: Vec<u16>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = RefCell::new(Scratch::default());
}

/// Runs the line search backwards from the end hex and calls `f` with a predicate "the hex is
/// reached". The path may not pass through a hex holding or controlled by an enemy unit; the
/// end hex may not hold an enemy (17.5 and its ruling).
fn with_reached<R>(
    info: &Info,
    b: &Board,
    side: Side,
    t: usize,
    f: impl FnOnce(&dyn Fn(usize) -> bool) -> R,
) -> R {
    SCRATCH.with(|cell| {
        let mut s = cell.borrow_mut();
        if s.stamp.len() != info.n {
            s.stamp = vec![0; info.n];
            s.gen = 0;
        }
        s.gen = s.gen.wrapping_add(1);
        if s.gen == 0 {
            s.stamp.iter_mut().for_each(|x| *x = 0);
            s.gen = 1;
        }
        let gen = s.gen;
        let Scratch { stamp, stack, .. } = &mut *s;
        stack.clear();
        let enemy = Side(1 - side.0);
        let not_enemy = |i: usize| {
            b.unit_at(i)
                .is_none_or(|o| info.side[o.0 as usize] != enemy)
        };
        if not_enemy(t) {
            stamp[t] = gen;
            stack.push(t as u16);
        }
        while let Some(h) = stack.pop() {
            let h = h as usize;
            for k in 0..6 {
                let n = info.nb[h][k];
                if n == NONE {
                    continue;
                }
                let n = n as usize;
                if stamp[n] != gen
                    && info.retreat[n][(k + 3) % 6]
                    && !b.controlled(enemy, n)
                    && not_enemy(n)
                {
                    stamp[n] = gen;
                    stack.push(n as u16);
                }
            }
        }
        let stamp: &Vec<u32> = stamp;
        f(&|i: usize| stamp[i] == gen)
    })
}

/// True when a unit at `p` can trace: it stands on the end hex, in a reached hex, or next to
/// one (a line may start inside an enemy zone of control).
#[inline]
fn traces(info: &Info, reached: &dyn Fn(usize) -> bool, p: usize, t: usize) -> bool {
    p == t
        || reached(p)
        || (0..6).any(|k| {
            let n = info.nb[p][k];
            n != NONE && info.retreat[p][k] && reached(n as usize)
        })
}

/// The hexes from which a unit of `side` could trace a line of communications to the end hex
/// now. Empty when `side` has no line.
pub(crate) fn loc_region(info: &Info, b: &Board, side: Side) -> Vec<bool> {
    let Some((ls, _, t)) = info.loc else {
        return Vec::new();
    };
    if ls != side {
        return Vec::new();
    }
    let enemy = Side(1 - side.0);
    let t_free = b
        .unit_at(t)
        .is_none_or(|o| info.side[o.0 as usize] != enemy);
    with_reached(info, b, side, t, |reached| {
        (0..info.n)
            .map(|i| (i == t && t_free) || (i != t && traces(info, reached, i, t)))
            .collect()
    })
}

/// The strength of `side`'s units on the board that could not trace a line of communications.
pub(crate) fn cut_strength(info: &Info, b: &Board, side: Side) -> u32 {
    let Some((ls, _, t)) = info.loc else {
        return 0;
    };
    if ls != side {
        return 0;
    }
    with_reached(info, b, side, t, |reached| {
        let mut cut = 0;
        for i in 0..info.strength.len() {
            if info.side[i] != side || b.pos[i] == NONE {
                continue;
            }
            if !traces(info, reached, b.pos[i] as usize, t) {
                cut += info.strength[i];
            }
        }
        cut
    })
}

/// A placeholder unit of the side without the line, to stand in hexes hypothetically.
#[cfg(test)]
fn probe(info: &Info, b: &Board, ls: Side) -> Option<UnitId> {
    (0..info.strength.len())
        .find(|&i| info.side[i] != ls && b.pos[i] == NONE)
        .or_else(|| (0..info.strength.len()).find(|&i| info.side[i] != ls))
        .map(|i| UnitId(i as u8))
}

/// For each hex in `hexes` (vacant), the strength of the line's side that an enemy unit
/// standing there would cut off beyond what is cut now (by a whole line search per hex: the
/// reference the watch is tested against).
#[cfg(test)]
pub(crate) fn damage(info: &Info, b: &mut Board, hexes: &[usize]) -> Vec<(usize, u32)> {
    let Some((ls, _, _)) = info.loc else {
        return Vec::new();
    };
    let Some(probe) = probe(info, b, ls) else {
        return Vec::new();
    };
    let home = b.at(probe);
    let base = cut_strength(info, b, ls);
    let mut out = Vec::with_capacity(hexes.len());
    for &x in hexes {
        if b.occ[x] != 0 && Some(x) != home {
            continue;
        }
        b.place(info, probe, x);
        let c = cut_strength(info, b, ls);
        out.push((x, c.saturating_sub(base)));
    }
    match home {
        Some(h) => b.place(info, probe, h),
        None => b.lift(info, probe),
    }
    out
}

/// The mover of a unit of `side` for its next movement phase (`turn`), if it can move then.
pub(crate) fn next_mover(
    info: &Info,
    g: &Game,
    b: &Board,
    u: UnitId,
    side: Side,
    turn: u8,
) -> Option<Mover> {
    let i = u.0 as usize;
    match b.at(u) {
        Some(p) => Some(Mover {
            side,
            start: p,
            start_cost: 0,
            budget: info.movement[i],
            stuck: b.controlled(Side(1 - side.0), p),
            night: false,
            waiting: false,
        }),
        None => match g.arrival(u) {
            Some((due, h)) if due <= turn => info.idx(h).map(|s| Mover {
                side,
                start: s,
                start_cost: 2,
                budget: info.movement[i],
                stuck: false,
                night: false,
                waiting: true,
            }),
            _ => None,
        },
    }
}

/// Every vacant hex some unit of `side` (of `units`, or all) could end its next move in (with
/// the board's zones of control), as a flag per hex.
pub(crate) fn reach_union(
    info: &Info,
    g: &Game,
    b: &Board,
    side: Side,
    turn: u8,
    reach: &mut Reach,
) -> Vec<bool> {
    let units: Vec<UnitId> = (0..info.strength.len())
        .filter(|&i| info.side[i] == side)
        .map(|i| UnitId(i as u8))
        .collect();
    reach_union_of(info, g, b, side, turn, reach, &units)
}

fn reach_union_of(
    info: &Info,
    g: &Game,
    b: &Board,
    side: Side,
    turn: u8,
    reach: &mut Reach,
    units: &[UnitId],
) -> Vec<bool> {
    let mut any = vec![false; info.n];
    let mut ends = Vec::new();
    for &u in units {
        let Some(m) = next_mover(info, g, b, u, side, turn) else {
            continue;
        };
        reach.run(info, b, m, &mut ends);
        for &(r, _) in &ends {
            any[r as usize] = true;
        }
    }
    any
}

/// The line search as bitsets: (reached hexes, hexes from which a unit can trace), with the
/// hexes `blocked` closed as if an enemy unit stood at `blocked[0]` (its hex and zone).
/// `stamp`/`gen` and `stack` are scratch space.
#[allow(clippy::too_many_arguments)]
fn line_bits(
    info: &Info,
    b: &Board,
    side: Side,
    t: usize,
    blocked: &[usize],
    stamp: &mut [u32],
    gen: &mut u32,
    stack: &mut Vec<u16>,
) -> (Vec<u64>, Vec<u64>) {
    let enemy = Side(1 - side.0);
    let words = info.n.div_ceil(64);
    let mut r = vec![0u64; words];
    let mut tr = vec![0u64; words];
    *gen += 1;
    let g = *gen;
    let t_free = b
        .unit_at(t)
        .is_none_or(|o| info.side[o.0 as usize] != enemy)
        && blocked.first() != Some(&t);
    let open = |i: usize| {
        b.unit_at(i)
            .is_none_or(|o| info.side[o.0 as usize] != enemy)
            && !b.controlled(enemy, i)
            && !blocked.contains(&i)
    };
    stack.clear();
    if t_free {
        stamp[t] = g;
        stack.push(t as u16);
    }
    while let Some(h) = stack.pop() {
        let h = h as usize;
        r[h >> 6] |= 1 << (h & 63);
        tr[h >> 6] |= 1 << (h & 63);
        for k in 0..6 {
            let n = info.nb[h][k];
            if n == NONE {
                continue;
            }
            let n = n as usize;
            if info.retreat[n][(k + 3) % 6] {
                // a unit at n steps into h
                tr[n >> 6] |= 1 << (n & 63);
                if stamp[n] != g && open(n) {
                    stamp[n] = g;
                    stack.push(n as u16);
                }
            }
        }
    }
    if t_free {
        tr[t >> 6] |= 1 << (t & 63);
    }
    (r, tr)
}

#[inline]
fn bit(bits: &[u64], i: usize) -> bool {
    bits[i >> 6] & (1 << (i & 63)) != 0
}

/// The hexes an enemy unit at `x` would block: its own and those its zone of control reaches.
fn blocked_by(info: &Info, x: usize) -> ([usize; 7], usize) {
    let mut v = [x; 7];
    let mut n = 1;
    for k in 0..6 {
        let j = info.nb[x][k];
        if j != NONE && info.engage[x][k] {
            v[n] = j as usize;
            n += 1;
        }
    }
    (v, n)
}

/// With the hexes `blocked` taken out of the reached set `r`, are the reached hexes around them
/// still connected to each other within three hexes of `x`, both ways along the line's steps?
/// Then every line that ran through them can go round, and nothing farther off is cut.
/// `mark` is scratch space of one entry per hex, `gen` a fresh generation for it.
fn locally_connected(
    info: &Info,
    r: &[u64],
    x: usize,
    blocked: &[usize],
    mark: &mut [u32],
    gen: &mut u32,
) -> bool {
    let hx = info.hex(x);
    let inside = |i: usize| bit(r, i) && !blocked.contains(&i) && info.hex(i).distance(hx) <= 3;
    let (boundary, nb_count) = boundary_of(info, blocked, inside);
    let boundary = &boundary[..nb_count];
    let Some(&start) = boundary.first() else {
        return false;
    };
    let mut stack: Vec<usize> = Vec::with_capacity(40);
    for forward in [false, true] {
        *gen += 1;
        let g = *gen;
        mark[start] = g;
        stack.clear();
        stack.push(start);
        while let Some(h) = stack.pop() {
            for k in 0..6 {
                let j = info.nb[h][k];
                if j == NONE {
                    continue;
                }
                let j = j as usize;
                // backward search: j joins when the step j -> h is allowed; forward: h -> j
                let ok = if forward {
                    info.retreat[h][k]
                } else {
                    info.retreat[j][(k + 3) % 6]
                };
                if ok && mark[j] != g && inside(j) {
                    mark[j] = g;
                    stack.push(j);
                }
            }
        }
        if !boundary.iter().all(|&b| mark[b] == g) {
            return false;
        }
    }
    true
}

/// With the hexes `blocked` taken out of the reached set `r`, can every reached hex next to
/// them still reach the end hex `t` through reached hexes? A best-first search toward the end
/// hex from each (by the static distance to it), stopping at the end hex or at a hex already
/// shown to reach it. Then nothing beyond the blocked hexes is cut.
fn boundary_connected(
    info: &Info,
    r: &[u64],
    t: usize,
    blocked: &[usize],
    mark: &mut [u32],
    gen: &mut u32,
    buckets: &mut Vec<Vec<u16>>,
) -> bool {
    let open = |i: usize| bit(r, i) && !blocked.contains(&i);
    // hexes shown to reach the end hex carry `ok`; hexes seen by the current search `seen`
    *gen += 1;
    let ok = *gen;
    mark[t] = ok;
    let (boundary, nb_count) = boundary_of(info, blocked, open);
    for &start in &boundary[..nb_count] {
        if mark[start] == ok {
            continue;
        }
        *gen += 1;
        let seen = *gen;
        for q in buckets.iter_mut() {
            q.clear();
        }
        let push = |buckets: &mut Vec<Vec<u16>>, d: usize, i: usize| {
            if buckets.len() <= d {
                buckets.resize_with(d + 1, Vec::new);
            }
            buckets[d].push(i as u16);
        };
        let mut found = false;
        let mut expanded = 0;
        mark[start] = seen;
        push(buckets, info.loc_dist[start].min(200) as usize, start);
        let mut d = 0;
        'search: while d < buckets.len() {
            let Some(h) = buckets[d].pop() else {
                d += 1;
                continue;
            };
            let h = h as usize;
            expanded += 1;
            if expanded > 400 {
                break;
            }
            for k in 0..6 {
                let j = info.nb[h][k];
                if j == NONE || !info.retreat[h][k] {
                    continue;
                }
                let j = j as usize;
                if mark[j] == ok {
                    found = true;
                    break 'search;
                }
                if mark[j] != seen && open(j) {
                    mark[j] = seen;
                    let dj = info.loc_dist[j].min(200) as usize;
                    push(buckets, dj, j);
                    d = d.min(dj);
                }
            }
        }
        if !found {
            return false;
        }
        // the start reaches the end hex: later searches may stop when they meet it
        mark[start] = ok;
    }
    true
}

/// A watch over the line of `side` against the enemy's next move. The line depends only on
/// where the enemy stands, so while `side` plans its moves the hexes each enemy unit could cut
/// off by standing in a hex are fixed: they are computed once, and checking a position then
/// costs the enemy's reach and a sum over our units.
#[derive(Clone, Debug)]
pub(crate) struct Watch {
    side: Side,
    turn: u8,
    /// Hexes that cannot trace now. (The three tables are shared: a watch from the cache is
    /// cloned at the cost of three counts.)
    cut_now: Arc<[u64]>,
    /// Hexes where an enemy unit would cut more off, with the hexes it would cut.
    danger: Arc<[(usize, Vec<u64>)]>,
    /// Enemy units that could come near them.
    enemies: Arc<[UnitId]>,
}

/// What a watch depends on: the scenario, the side and game-turn, where every unit stands and
/// when and where each unit still off the map enters. Two positions with the same key have the
/// same watch, whatever else differs between them.
#[derive(Clone, PartialEq, Eq, Hash)]
struct WatchKey {
    digest: u64,
    side: u8,
    turn: u8,
    /// Per unit: its hex index and who the board shows there (two units of a hypothetical
    /// plan may share a hex), or for a unit off the map its entry game-turn and hex.
    places: Vec<Place>,
}

/// One unit's part of a [`WatchKey`]: (hex index, the board's occupant there, for a unit off
/// the map its arrival).
type Place = (u16, u8, Option<(u8, hexmap::Hex)>);

impl WatchKey {
    fn of(info: &Info, g: &Game, b: &Board, side: Side, turn: u8) -> WatchKey {
        let places = (0..info.strength.len())
            .map(|i| match b.pos[i] {
                NONE => (NONE, 0, g.arrival(UnitId(i as u8))),
                p => (p, b.occ[p as usize], None),
            })
            .collect();
        WatchKey {
            digest: info.digest,
            side: side.0,
            turn,
            places,
        }
    }
}

/// Watches built on this thread, by their key. A search's rollouts reach the same position at
/// the last player-turns again and again (their combats came out alike), and every plan of a
/// decision asks for the watch of the position it starts from, so a watch is built once and
/// shared after.
/// Cleared whole when it grows past [`WATCH_CACHE_MAX`]: a cache, exact, never a change of play.
#[derive(Default)]
struct WatchCache {
    map: std::collections::HashMap<WatchKey, Option<Watch>>,
}

/// The most watches a thread keeps.
const WATCH_CACHE_MAX: usize = 512;

thread_local! {
    static WATCHES: RefCell<WatchCache> = RefCell::new(WatchCache::default());
}

impl Watch {
    /// The watch for a position; `None` when `side` has no line.
    pub fn new(info: &Info, g: &Game, b: &mut Board, side: Side, turn: u8) -> Option<Watch> {
        let (ls, _, _) = info.loc?;
        if ls != side {
            return None;
        }
        let key = WatchKey::of(info, g, b, side, turn);
        if let Some(w) = WATCHES.with(|c| c.borrow().map.get(&key).cloned()) {
            return w;
        }
        let w = Watch::build(info, g, b, side, turn);
        WATCHES.with(|c| {
            let mut c = c.borrow_mut();
            if c.map.len() >= WATCH_CACHE_MAX {
                c.map.clear();
            }
            c.map.insert(key, w.clone());
        });
        w
    }

    /// [`Watch::new`] without the cache.
    fn build(info: &Info, g: &Game, b: &Board, side: Side, turn: u8) -> Option<Watch> {
        let (ls, _, t) = info.loc?;
        if ls != side {
            return None;
        }
        let en = Side(1 - side.0);
        let mut reach = Reach::default();
        let r = reach_union(info, g, b, en, turn, &mut reach);
        // candidates: reachable hexes, and the hexes next to them that our units hold or
        // shield (our moves may open them)
        let mut near = r.clone();
        for i in 0..info.n {
            if r[i] {
                for k in 0..6 {
                    let j = info.nb[i][k];
                    if j == NONE {
                        continue;
                    }
                    let j = j as usize;
                    let ours_near = b
                        .unit_at(j)
                        .is_some_and(|o| info.side[o.0 as usize] == side)
                        || (0..6).any(|k2| {
                            let q = info.nb[j][k2];
                            q != NONE
                                && b.unit_at(q as usize)
                                    .is_some_and(|o| info.side[o.0 as usize] == side)
                        });
                    if ours_near {
                        near[j] = true;
                    }
                }
            }
        }
        let mut stamp = vec![0u32; info.n];
        let mut sgen = 0u32;
        let mut stack = Vec::with_capacity(256);
        let (r0, base) = line_bits(info, b, side, t, &[], &mut stamp, &mut sgen, &mut stack);
        let cut_now: Vec<u64> = base.iter().map(|w| !w).collect();
        let mut danger: Vec<(usize, Vec<u64>)> = Vec::new();
        let words = base.len();
        let mut mark = vec![0u32; info.n];
        let mut gen = 0u32;
        let mut buckets: Vec<Vec<u16>> = Vec::new();
        for x in 0..info.n {
            if !near[x] {
                continue;
            }
            if let Some(o) = b.unit_at(x) {
                if info.side[o.0 as usize] != side {
                    continue;
                }
            }
            let (blk, nblk) = blocked_by(info, x);
            let blk = &blk[..nblk];
            // a unit here changes the line only if it blocks a reached hex
            if !blk.iter().any(|&j| bit(&r0, j)) {
                continue;
            }
            let routed = !blk.contains(&t)
                && (locally_connected(info, &r0, x, blk, &mut mark, &mut gen)
                    || boundary_connected(info, &r0, t, blk, &mut mark, &mut gen, &mut buckets));
            let lost: Vec<u64> = if routed {
                // only the blocked hexes themselves, and hexes next to them, can lose their line
                let mut lost = vec![0u64; words];
                let mut check: Vec<usize> = Vec::with_capacity(19);
                for &s in blk {
                    check.push(s);
                    for k in 0..6 {
                        let j = info.nb[s][k];
                        if j != NONE {
                            check.push(j as usize);
                        }
                    }
                }
                for &p in &check {
                    if !bit(&base, p) || bit(&r0, p) && !blk.contains(&p) {
                        continue;
                    }
                    let still = (0..6).any(|k| {
                        let j = info.nb[p][k];
                        j != NONE
                            && info.retreat[p][k]
                            && bit(&r0, j as usize)
                            && !blk.contains(&(j as usize))
                    });
                    if !still {
                        lost[p >> 6] |= 1 << (p & 63);
                    }
                }
                lost
            } else {
                let (_, tr) = line_bits(info, b, side, t, blk, &mut stamp, &mut sgen, &mut stack);
                base.iter().zip(&tr).map(|(a, c)| a & !c).collect()
            };
            if lost.iter().any(|&w| w != 0) {
                danger.push((x, lost));
            }
        }
        let enemies: Vec<UnitId> = (0..info.strength.len())
            .filter(|&i| info.side[i] == en)
            .filter(|&i| {
                let range = info.movement[i] as u32 + 2;
                let at = b.pos[i];
                at == NONE
                    || danger
                        .iter()
                        .any(|&(d, _)| info.hex(at as usize).distance(info.hex(d)) <= range)
            })
            .map(|i| UnitId(i as u8))
            .collect();
        Some(Watch {
            side,
            turn,
            cut_now: cut_now.into(),
            danger: danger.into(),
            enemies: enemies.into(),
        })
    }

    /// Where the watching side's units stand: their hexes as a bitset, and (hex, strength) per
    /// unit, for [`Watch::strength_in`].
    fn own(&self, info: &Info, b: &Board) -> Own {
        let mut bits = vec![0u64; self.cut_now.len()];
        let mut units = Vec::new();
        for i in 0..info.strength.len() {
            let p = b.pos[i];
            if info.side[i] == self.side && p != NONE {
                let p = p as usize;
                bits[p >> 6] |= 1 << (p & 63);
                units.push((p, info.strength[i]));
            }
        }
        Own { bits, units }
    }

    /// The strength of the watching side's units standing in the hexes `bits`.
    fn strength_in(own: &Own, bits: &[u64]) -> u32 {
        if !bits.iter().zip(&own.bits).any(|(a, o)| a & o != 0) {
            return 0;
        }
        own.units
            .iter()
            .filter(|(p, _)| bit(bits, *p))
            .map(|(_, s)| s)
            .sum()
    }

    /// The danger hexes the enemy can reach and are vacant, with the strength each would cut
    /// off beyond what is cut now, worst first.
    pub fn threats(&self, info: &Info, g: &Game, b: &mut Board) -> Vec<(usize, u32)> {
        let d = self.stakes(&self.own(info, b), b);
        if d.is_empty() {
            return d;
        }
        let mut reach = Reach::default();
        let en = Side(1 - self.side.0);
        let r = reach_union_of(info, g, b, en, self.turn, &mut reach, &self.enemies);
        d.into_iter().filter(|(x, _)| r[*x]).collect()
    }

    /// The vacant danger hexes, with the strength each would cut off beyond what is cut now,
    /// worst first, whether or not the enemy can reach them (the cheap half of
    /// [`Watch::threats`]: no movement search). `own` is [`Watch::own`] of `b`.
    fn stakes(&self, own: &Own, b: &Board) -> Vec<(usize, u32)> {
        let mut d: Vec<(usize, u32)> = self
            .danger
            .iter()
            .filter(|(x, _)| b.occ[*x] == 0)
            .map(|(x, lost)| (*x, Watch::strength_in(own, lost)))
            .filter(|x| x.1 > 0)
            .collect();
        d.sort_by_key(|x| (std::cmp::Reverse(x.1), x.0));
        d
    }

    /// The worst of [`Watch::threats`], searching the enemy units' moves only until a hex at
    /// least as bad as every one left is known to be reached. `own` is [`Watch::own`] of `b`.
    fn worst_threat(&self, info: &Info, g: &Game, b: &Board, own: &Own) -> u32 {
        let d = self.stakes(own, b);
        if d.is_empty() {
            return 0;
        }
        let en = Side(1 - self.side.0);
        let mut reach = Reach::default();
        let mut reached = vec![false; info.n];
        let mut ends = Vec::new();
        // the best reached so far is d[best]; the hexes before it are still open
        let mut best = d.len();
        for &u in self.enemies.iter() {
            let Some(m) = next_mover(info, g, b, u, en, self.turn) else {
                continue;
            };
            // a unit that cannot come near any hex still open is not searched (every step
            // costs at least `min_step`; a search of it would add nothing)
            let hexes = (m.budget.saturating_sub(m.start_cost) / info.min_step) as u32;
            let from = info.hex(m.start);
            if m.start_cost > m.budget
                || d[..best]
                    .iter()
                    .all(|(x, _)| from.distance(info.hex(*x)) > hexes)
            {
                continue;
            }
            reach.run(info, b, m, &mut ends);
            for &(x, _) in &ends {
                reached[x as usize] = true;
            }
            best = d[..best]
                .iter()
                .position(|(x, _)| reached[*x])
                .unwrap_or(best);
            if best == 0 {
                break;
            }
        }
        d.get(best).map_or(0, |x| x.1)
    }

    /// The danger hexes our own units hold, with the strength each would cut off if an enemy
    /// unit stood there (after dislodging ours and advancing, 7.74), worst first.
    pub fn held(&self, info: &Info, b: &Board) -> Vec<(usize, u32)> {
        let own = self.own(info, b);
        let mut d: Vec<(usize, u32)> = self
            .danger
            .iter()
            .filter(|(x, _)| {
                b.unit_at(*x)
                    .is_some_and(|o| info.side[o.0 as usize] == self.side)
            })
            .map(|(x, lost)| (*x, Watch::strength_in(&own, lost)))
            .filter(|x| x.1 > 0)
            .collect();
        d.sort_by_key(|x| (std::cmp::Reverse(x.1), x.0));
        d
    }

    /// The most strength the enemy could cut off by one move, on the board: what is cut now and
    /// the worst danger hex he can reach.
    pub fn exposure(&self, info: &Info, g: &Game, b: &mut Board, _extra: &[usize]) -> u32 {
        let own = self.own(info, b);
        Watch::strength_in(&own, &self.cut_now) + self.worst_threat(info, g, b, &own)
    }
}

/// The watching side's units on the board (see [`Watch::own`]).
struct Own {
    bits: Vec<u64>,
    units: Vec<(usize, u32)>,
}

/// The hexes around hex `i` (itself and its neighbours).
pub(crate) fn ball(info: &Info, i: usize) -> Vec<usize> {
    let mut v = vec![i];
    for k in 0..6 {
        let j = info.nb[i][k];
        if j != NONE {
            v.push(j as usize);
        }
    }
    v
}

/// The distinct neighbours of the `blocked` hexes that pass `keep` (at most 42: seven hexes'
/// six neighbours), and how many there are.
fn boundary_of(
    info: &Info,
    blocked: &[usize],
    keep: impl Fn(usize) -> bool,
) -> ([usize; 42], usize) {
    let mut boundary = [0usize; 42];
    let mut n = 0;
    for &s in blocked {
        for k in 0..6 {
            let j = info.nb[s][k];
            if j != NONE && keep(j as usize) && !boundary[..n].contains(&(j as usize)) && n < 42 {
                boundary[n] = j as usize;
                n += 1;
            }
        }
    }
    (boundary, n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Player;
    use engine::Rules;

    /// A first-day game played by the heuristic to the French movement phase of turn `t`.
    fn at_turn(t: u8, seed: u64) -> Game {
        let sc = std::sync::Arc::new(naw::Scenario::clone(&scenarios_load("bon-first-day")));
        let mut g = Game::from_arc(sc);
        let mut p = [
            crate::HeuristicPlayer::new(seed),
            crate::HeuristicPlayer::new(seed + 1),
        ];
        let mut dice = engine::Dice::new(seed + 2);
        while !(g.turn() == t && g.phasing() == Side(0) && g.step() == naw::Step::Movement) {
            match g.to_act() {
                engine::ToAct::Chance => g.apply_unchecked(naw::Action::Roll(dice.roll())),
                engine::ToAct::Side(s) => {
                    let a = p[s.0 as usize].choose(&g);
                    g.apply(a).unwrap();
                }
                engine::ToAct::Over(_) => break,
            }
        }
        g
    }

    fn scenarios_load(id: &str) -> naw::Scenario {
        scenarios::load(id).unwrap()
    }

    /// The watch finds the same worst cut as trying every hex the enemy can reach with a
    /// whole line search each.
    #[test]
    fn the_watch_agrees_with_a_search_per_hex() {
        for (t, seed) in [(4, 3), (5, 3), (5, 8), (4, 11)] {
            let g = at_turn(t, seed);
            let info = crate::info::info(&g);
            let mut b = Board::from_game(&info, &g);
            let w = Watch::new(&info, &g, &mut b, Side(0), t).expect("the French have a line");
            let fast = w.exposure(&info, &g, &mut b, &[]);
            let mut reach = Reach::default();
            let r = reach_union(&info, &g, &b, Side(1), t, &mut reach);
            let hexes: Vec<usize> = (0..info.n).filter(|&i| r[i] && b.occ[i] == 0).collect();
            let slow = cut_strength(&info, &b, Side(0))
                + damage(&info, &mut b, &hexes)
                    .iter()
                    .map(|d| d.1)
                    .max()
                    .unwrap_or(0);
            assert_eq!(fast, slow, "turn {t}, seed {seed}");
            // the early-stopping worst threat is the first of the full list
            let first = w.threats(&info, &g, &mut b).first().map_or(0, |x| x.1);
            assert_eq!(
                w.worst_threat(&info, &g, &b, &w.own(&info, &b)),
                first,
                "turn {t}, seed {seed}"
            );
        }
    }

    /// A watch from the cache is the watch built afresh, for either side and any game-turn.
    #[test]
    fn a_cached_watch_is_the_watch_built_afresh() {
        for (t, seed) in [(4, 3), (5, 8), (3, 5)] {
            let g = at_turn(t, seed);
            let info = crate::info::info(&g);
            let mut b = Board::from_game(&info, &g);
            for turn in [t, t + 1] {
                let fresh = Watch::build(&info, &g, &b, Side(0), turn).map(|w| format!("{w:?}"));
                let first = Watch::new(&info, &g, &mut b, Side(0), turn).map(|w| format!("{w:?}"));
                let again = Watch::new(&info, &g, &mut b, Side(0), turn).map(|w| format!("{w:?}"));
                assert_eq!(first, fresh, "turn {turn}, seed {seed}");
                assert_eq!(again, fresh, "turn {turn}, seed {seed}");
            }
            assert!(
                Watch::new(&info, &g, &mut b, Side(1), t).is_none(),
                "the Allies have no line"
            );
            // moving one unit gives another key and the watch of the new position
            let u = (0..info.strength.len())
                .find(|&i| info.side[i] == Side(0) && b.pos[i] != NONE)
                .map(|i| UnitId(i as u8))
                .expect("a French unit on the map");
            let to = (0..info.n).find(|&i| b.occ[i] == 0).expect("a vacant hex");
            b.place(&info, u, to);
            let fresh = Watch::build(&info, &g, &b, Side(0), t).map(|w| format!("{w:?}"));
            let cached = Watch::new(&info, &g, &mut b, Side(0), t).map(|w| format!("{w:?}"));
            assert_eq!(cached, fresh, "seed {seed}, a unit moved");
        }
    }
}
